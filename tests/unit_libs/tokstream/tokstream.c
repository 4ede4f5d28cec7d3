/* tokstream.c: a reader of parenthesis tokens (see tokstream.h). Selects POSIX.1-2001, which does not declare fmemopen. */
#define _POSIX_C_SOURCE 200112L
#include "tokstream.h"

void tok_open(tok_stream *tok, FILE *stream)
{
    tok->in = stream;
    tok->count = 0;
    tok->depth = 0;
}

enum tok_kind tok_next(tok_stream *tok)
{
    int c;
    while ((c = fgetc(tok->in)) == ' ')
        ;
    if (c == EOF) return TOK_END;
    tok->count++;
    if (c == '(') {
        tok->depth++;
        return TOK_OPEN;
    }
    if (c == ')') {
        if (tok->depth == 0) return TOK_ERROR;
        tok->depth--;
        return TOK_CLOSE;
    }
    return TOK_ATOM;
}

int tok_balanced(const tok_stream *tok)
{
    if (tok->depth >= 3) return 2;
    if (tok->count >= 3 && tok->depth == 0) return 1;
    return 0;
}
