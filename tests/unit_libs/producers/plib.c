/* plib.c: the library of plib.h, written for tests/e2e/test_unit_producers.sh (not taken from any project). */
#include <stdlib.h>
#include <string.h>

#include "plib.h"

struct strhdr {
    unsigned len, cap;
};

static struct strhdr *hdr(const str s) { return (struct strhdr *)s - 1; }

static str strmake(const char *init, size_t len)
{
    struct strhdr *h = malloc(sizeof *h + len + 1);
    if (!h) return NULL;
    h->len = (unsigned)len;
    h->cap = (unsigned)len;
    char *s = (char *)(h + 1);
    if (len) memcpy(s, init, len);
    s[len] = 0;
    return s;
}

str strnew(const char *init) { return strmake(init, init ? strlen(init) : 0); }

str strempty(void) { return strmake("", 0); }

size_t strlen_(const str s) { return hdr(s)->len; }

void strrange(str s, int start, int end)
{
    int len = (int)strlen_(s);
    if (len == 0) return;
    if (start < 0) {
        start = len + start;
        if (start < 0) start = 0;
    }
    if (end < 0) {
        end = len + end;
        if (end < 0) end = 0;
    }
    int n = start > end ? 0 : end - start + 1;
    if (n != 0) {
        if (start >= len)
            n = 0;
        else if (end >= len) {
            end = len - 1;
            n = end - start + 1;
        }
    }
    if (start && n) memmove(s, s + start, (size_t)n);
    s[n] = 0;
    hdr(s)->len = (unsigned)n;
}

str strcat_(str s, const char *add)
{
    size_t tl = strlen(add), len = strlen_(s);
    struct strhdr *h = hdr(s);
    if (h->cap < len + tl) {
        h = realloc(h, sizeof *h + len + tl + 1);
        if (!h) return NULL;
        h->cap = (unsigned)(len + tl);
        s = (char *)(h + 1);
    }
    memcpy(s + len, add, tl + 1);
    h->len = (unsigned)(len + tl);
    return s;
}

void strfree(str s)
{
    if (s) free(hdr(s));
}

void parser_init(parser *p)
{
    p->pos = 0;
    p->toknext = 0;
    p->toksuper = -1;
}

static tok *alloc_tok(parser *p, tok *tokens, unsigned num_tokens)
{
    if (p->toknext >= num_tokens) return NULL;
    tok *t = &tokens[p->toknext++];
    t->start = t->end = -1;
    t->parent = p->toksuper;
    return t;
}

int parse(parser *p, const char *js, size_t len, tok *tokens, unsigned num_tokens)
{
    for (; p->pos < len && js[p->pos]; p->pos++) {
        char c = js[p->pos];
        tok *t;
        switch (c) {
        case '[':
            t = alloc_tok(p, tokens, num_tokens);
            if (!t) return -1;
            t->type = TOK_BLOCK;
            t->start = (int)p->pos;
            p->toksuper = (int)p->toknext - 1;
            break;
        case ']':
            if (p->toksuper < 0) return -3;
            t = &tokens[p->toksuper];
            t->end = (int)p->pos + 1;
            p->toksuper = t->parent;
            break;
        case '"': {
            unsigned start = p->pos;
            for (p->pos++; p->pos < len && js[p->pos] && js[p->pos] != '"'; p->pos++)
                ;
            if (p->pos >= len || !js[p->pos]) {
                p->pos = start;
                return -3;
            }
            t = alloc_tok(p, tokens, num_tokens);
            if (!t) {
                p->pos = start;
                return -1;
            }
            t->type = TOK_STRING;
            t->start = (int)start + 1;
            t->end = (int)p->pos;
            break;
        }
        case ' ':
        case ',': break;
        default:
            if (c < 'a' || c > 'z') return -2;
            t = alloc_tok(p, tokens, num_tokens);
            if (!t) return -1;
            t->type = TOK_WORD;
            t->start = (int)p->pos;
            while (p->pos + 1 < len && js[p->pos + 1] >= 'a' && js[p->pos + 1] <= 'z') p->pos++;
            t->end = (int)p->pos + 1;
            break;
        }
    }
    if (p->toksuper >= 0) return -3;
    return (int)p->toknext;
}

static pat_item pat_store[9];

pat_t pat_compile(const char *pattern)
{
    size_t j = 0;
    for (size_t i = 0; pattern[i] && j < 8; i++, j++) {
        pat_store[j].ch = 0;
        if (pattern[i] == '.') {
            pat_store[j].type = PAT_DOT;
        } else if (pattern[i] == '*') {
            pat_store[j].type = PAT_STAR;
        } else {
            pat_store[j].type = PAT_CHAR;
            pat_store[j].ch = (unsigned char)pattern[i];
        }
    }
    pat_store[j].type = PAT_END;
    return pat_store;
}

int pat_weight(pat_item *items)
{
    static const int weight[] = {0, 1, 2, 5};
    int w = 0;
    for (size_t i = 0; i < 9 && items[i].type != PAT_END; i++) {
        w += weight[items[i].type]; /* no other type is ever compiled */
        if (items[i].type == PAT_CHAR && items[i].ch == 'x') w += 10;
    }
    return w;
}
