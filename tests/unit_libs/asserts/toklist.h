/* toklist.h: a tiny key=value tokenizer (tests/e2e/test_unit_asserts.sh): a malloc'ed token list with an enum kind and a text field, printed to stdout, and counts filled into a caller's struct; and a tiny expression tree in tinyexpr's style (a compiler taking its variables as a buffer with a count, leaves allocated without their kids, two functions named like destructors). */
#ifndef TOKLIST_H
#define TOKLIST_H

typedef enum tok_kind { TK_WORD = 1, TK_NUM, TK_PUNCT = 8 } tok_kind;

typedef struct token {
    tok_kind kind;
    int len;
    char *text; /* malloc'ed copy of the token's bytes */
    struct token *next;
} token;

typedef struct tok_stats {
    int words, nums, puncts;
    tok_kind last;
    char first[4]; /* the first token's text, cut to 3 bytes */
} tok_stats;

/* Split s at its first '=' into a key token and a value token (one token without '='); a token is
 * TK_NUM when it starts with a digit, TK_WORD with a letter, else TK_PUNCT. Returns a malloc'ed
 * list (NULL when s is NULL or empty); release it with tok_list_free. */
token *tok_split(const char *s);

/* Free a list tok_split returned (NULL is fine). */
void tok_list_free(token *t);

/* Print the list to standard output, a line per token: its kind, its length and its text
 * ("word 3 abc"); a list longer than 1 token ends with a line holding the count ("2 tokens"). */
void tok_print(const token *t);

/* Count the tokens of s by kind into *st (every field written). Returns the number of tokens. */
int tok_stats_of(const char *s, tok_stats *st);

/* ---- the expression tree ---- */

typedef struct en_var {
    const char *name; /* its first byte names the variable */
    int value;
} en_var;

typedef struct en_node {
    int op; /* '#' constant, 'v' variable, '-' negation */
    int value;
    struct en_node *kids[1]; /* a negation's operand; a leaf is allocated without it */
} en_node;

/* Compile s: a digit is a constant, a letter the first of the var_count variables vars of that name,
 * one '-' before an expression its negation. Returns a malloc'ed tree (release it with en_free), NULL when
 * s is not such an expression. */
en_node *en_compile(const char *s, const en_var *vars, int var_count);

/* The value of the tree n (0 for NULL); a variable counts ten times its value. */
int en_eval(const en_node *n);

/* Free the operand of a negation (not the node itself). */
void en_free_kids(en_node *n);

/* Free the tree n (NULL is fine). */
void en_free(en_node *n);

#endif
