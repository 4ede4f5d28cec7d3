/* toklist.h: a tiny key=value tokenizer (tests/e2e/test_unit_asserts.sh): a malloc'ed token list with an enum kind and a text field, and counts filled into a caller's struct. */
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

/* Count the tokens of s by kind into *st (every field written). Returns the number of tokens. */
int tok_stats_of(const char *s, tok_stats *st);

#endif
