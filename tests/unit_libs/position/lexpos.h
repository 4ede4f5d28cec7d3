/* lexpos.h: a lexer over a text that ends at a pointer, and the line and column of a position in it. */
#ifndef LEXPOS_H
#define LEXPOS_H

typedef struct lexer {
    const char *text; /* the first character */
    const char *end;  /* one past the last: no NUL needed */
    const char *at;   /* the next character to read */
} lexer;

/* Start lexing text[0 .. text_end - text). */
void lex_init(lexer *lx, const char *text, const char *text_end);
/* The next character that is not a blank, or 0 at the end. */
int lex_next(lexer *lx);
/* Line (from 1) and column (from 0) of where, a position in lx's text (its end included), in *line and
 * *col; -1 when where is outside the text, 0 otherwise. */
int lex_location(const lexer *lx, const char *where, int *line, int *col);

#endif
