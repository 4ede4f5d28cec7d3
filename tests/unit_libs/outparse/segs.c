/* segs.c: a test library for producers that fill the caller's struct (`seg_first(path, &s)`, `version_parse(text, &v)`). */
#include "segs.h"

#include <stdlib.h>
#include <string.h>

static const char *skip_sep(const char *p)
{
    while (*p == '/') p++;
    return p;
}

static const char *seg_end(const char *p)
{
    while (*p && *p != '/') p++;
    return p;
}

bool seg_first(const char *path, struct seg *s)
{
    const char *b = skip_sep(path);
    if (!*b) return false;
    s->text = path;
    s->begin = b;
    s->end = seg_end(b);
    s->index = 0;
    return true;
}

bool seg_next(struct seg *s)
{
    const char *b = skip_sep(s->end);
    if (!*b) return false;
    s->begin = b;
    s->end = seg_end(b);
    s->index++;
    return true;
}

int seg_kind(const struct seg *s)
{
    size_t n = (size_t)(s->end - s->begin);
    if (n == 2 && s->begin[0] == '.' && s->begin[1] == '.') return 1;
    if (n == 1 && s->begin[0] == '.') return 2;
    if (s->index > 0 && n > 2) return 3; /* a later segment of three bytes or more */
    return 0;
}

static int number(const char **p)
{
    if (**p < '0' || **p > '9') return -1;
    int v = 0;
    while (**p >= '0' && **p <= '9' && v < 100000) v = v * 10 + (*(*p)++ - '0');
    return v;
}

int version_parse(const char *text, struct version *v)
{
    const char *p = text;
    int part[3] = {0, 0, 0};
    for (int i = 0; i < 3; i++) {
        if ((part[i] = number(&p)) < 0) return -1;
        if (*p != '.') break;
        p++;
    }
    char *tag = NULL;
    if (*p == '-') {
        if (!p[1]) return -1;
        tag = strdup(p + 1);
        if (!tag) return -1;
    } else if (*p) {
        return -1;
    }
    v->major = part[0];
    v->minor = part[1];
    v->patch = part[2];
    v->tag = tag;
    return 0;
}

int version_stable(const struct version *v)
{
    if (v->major < 1) return 0;
    if (v->tag && v->tag[0] == 'r' && v->tag[1] == 'c') return 2;
    return 1;
}

void version_free(struct version *v)
{
    free(v->tag);
    v->tag = NULL;
}
