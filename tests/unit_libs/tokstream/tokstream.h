/* tokstream.h: a reader of parenthesis tokens from a FILE *, opened on a stream and stepped token by token (the shape
 * of pdjson's json_open_stream / json_next); a test library of sympath unit (tests/e2e/test_unit_sequence.sh). */
#ifndef TOKSTREAM_H
#define TOKSTREAM_H
#include <stdio.h>

typedef struct tok_stream {
    FILE *in;
    int count; /* tokens read */
    int depth; /* open parentheses not closed yet */
} tok_stream;

enum tok_kind { TOK_END, TOK_OPEN, TOK_CLOSE, TOK_ATOM, TOK_ERROR };

/* Opens tok on stream (not closed by the library). */
void tok_open(tok_stream *tok, FILE *stream);
/* Reads the next token from the stream: TOK_END at the end, TOK_ERROR on a ')' with nothing open. */
enum tok_kind tok_next(tok_stream *tok);
/* 1 when at least three tokens were read and every parenthesis is closed, 2 when three or more are open, else 0. */
int tok_balanced(const tok_stream *tok);

#endif
