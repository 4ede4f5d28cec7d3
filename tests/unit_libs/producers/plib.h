/* plib.h: a small library for tests/e2e/test_unit_producers.sh: a string type with a hidden header, a token parser with an init function, and a compiled pattern whose type is spelled two ways. */
#ifndef PLIB_H
#define PLIB_H

#include <stddef.h>

/* A string whose length and capacity live in a header just before the text: only strnew,
 * strempty and strcat_ make one, strfree releases it. */
typedef char *str;

str strnew(const char *init);
str strempty(void);
size_t strlen_(const str s);
/* Keep the characters from start to end (inclusive; negative counts from the end), in place. */
void strrange(str s, int start, int end);
/* Append t; the string may move: use the result, not s, afterwards. */
str strcat_(str s, const char *add);
void strfree(str s);

/* A parser of brackets, strings and words into tokens; parser_init gives its start state. */
typedef struct parser {
    unsigned pos;     /* offset of the next character */
    unsigned toknext; /* index of the next free token */
    int toksuper;     /* index of the open bracket the next token belongs to, -1 at the top */
} parser;

enum { TOK_BLOCK = 1, TOK_STRING = 2, TOK_WORD = 3 };
typedef struct tok {
    int type;
    int start, end; /* [start, end) in the text; end -1 while the block is open */
    int parent;
} tok;

void parser_init(parser *p);
/* Tokens found so far in total, or -1 (out of tokens), -2 (a bad character), -3 (unbalanced). */
int parse(parser *p, const char *js, size_t len, tok *tokens, unsigned num_tokens);

/* A compiled pattern, a table of items ended by an item of type PAT_END, made only by pat_compile (in its own
 * storage); its pointer type is a typedef, and pat_weight names the struct's typedef instead (tiny-regex-c's
 * `re_t re_compile(const char *)` and `void re_print(regex_t *pattern)`). */
enum { PAT_END, PAT_CHAR, PAT_DOT, PAT_STAR };
typedef struct pat_item {
    unsigned char type; /* PAT_* */
    unsigned char ch;   /* the character of a PAT_CHAR */
} pat_item;
typedef struct pat_item *pat_t;

pat_t pat_compile(const char *pattern);
/* The weight of a compiled pattern: 1 per character ('x' 11), 2 per dot, 5 per star. */
int pat_weight(pat_item *items);

#endif
