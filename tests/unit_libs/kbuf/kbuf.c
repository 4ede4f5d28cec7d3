/* kbuf.c: a growable string with its length and capacity in plain fields (see kbuf.h). */
#include "kbuf.h"

#include <stdlib.h>
#include <string.h>

int kb_resize(kbuf *s, size_t size)
{
    if (s->m >= size) return 0;
    size_t m = s->m ? s->m : 8;
    while (m < size) m *= 2;
    char *t = realloc(s->s, m);
    if (!t) return -1;
    s->s = t;
    s->m = m;
    return 0;
}

int kb_putsn(const char *p, int l, kbuf *s)
{
    if (s->l + (size_t)l + 1 > s->m && kb_resize(s, s->l + (size_t)l + 1) != 0) return -1;
    memcpy(s->s + s->l, p, (size_t)l);
    s->l += (size_t)l;
    s->s[s->l] = '\0';
    return l;
}

int kb_find(const kbuf *s, char c)
{
    for (size_t i = 0; i < s->l; i++)
        if (s->s[i] == c) return (int)i;
    return -1;
}
