/* lexpos.c: a lexer whose end pointer and whose location query point into the text it reads (issue 13: an input that points into another input's object). */
#include "lexpos.h"

void lex_init(lexer *lx, const char *text, const char *text_end)
{
    lx->text = text;
    lx->end = text_end;
    lx->at = text;
}

int lex_next(lexer *lx)
{
    while (lx->at < lx->end && *lx->at == ' ') lx->at++;
    if (lx->at == lx->end) return 0;
    return *lx->at++;
}

int lex_location(const lexer *lx, const char *where, int *line, int *col)
{
    if (where < lx->text || where > lx->end) return -1;
    int l = 1, c = 0;
    for (const char *p = lx->text; p < where; p++) {
        if (*p == '\n') {
            l++;
            c = 0;
        } else {
            c++;
        }
    }
    *line = l;
    *col = c;
    return 0;
}
