/* cfgfile.c: a loader taking a file's path and a lookup over the loaded text, a struct holding its begin and end (sympath unit e2e: the loader is no producer, the struct's data/end pair is one range). */
#include <stdio.h>
#include <stdlib.h>

typedef struct cfg {
    char *data;
    char *end;
} cfg_t;

/* Loads the file at filename; NULL when it cannot be read. */
cfg_t *cfg_load(const char *filename)
{
    FILE *f = fopen(filename, "rb");
    if (!f) return NULL;
    cfg_t *c = calloc(1, sizeof *c);
    char *d = malloc(256);
    size_t n = d ? fread(d, 1, 255, f) : 0;
    fclose(f);
    if (!c || !d) {
        free(c);
        free(d);
        return NULL;
    }
    d[n] = '\0';
    c->data = d;
    c->end = d + n;
    return c;
}

/* The text after "K=" in the loaded range, for key K; NULL when there is none. */
const char *cfg_find(const cfg_t *c, char key)
{
    for (const char *p = c->data; p < c->end; p++)
        if (p[0] == key && p + 1 < c->end && p[1] == '=') return p + 2;
    return NULL;
}

/* A string and its length; strbox_wrap takes the string over, strbox_free frees both. */
typedef struct strbox {
    char *s;
    size_t n;
} strbox;

strbox *strbox_wrap(char *s)
{
    strbox *b = malloc(sizeof *b);
    if (!b) return NULL;
    b->s = s;
    b->n = 0;
    while (s[b->n]) b->n++;
    return b;
}

void strbox_free(strbox *b)
{
    if (!b) return;
    free(b->s);
    free(b);
}

/* How many times c occurs in the box. */
int strbox_count(const strbox *b, char c)
{
    int k = 0;
    for (size_t i = 0; i < b->n; i++) k += b->s[i] == c;
    return k;
}
