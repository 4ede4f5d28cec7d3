/* names.c: declarators and identifiers for generated C code; buffer/length parameter pairing. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

char *unit_declarator(const char *spelling, const char *name) {
    char *r = NULL;
    const char *fp = strstr(spelling, "(*)");
    const char *br = strchr(spelling, '[');
    if (fp) {
        /* "int (*)(int)" -> "int (*name)(int)" */
        if (asprintf(&r, "%.*s(*%s)%s", (int)(fp - spelling), spelling, name, fp + 3) < 0) r = NULL;
    } else if (br) {
        /* "char [9]" -> "char name[9]" */
        size_t n = (size_t)(br - spelling);
        while (n > 0 && spelling[n - 1] == ' ') n--;
        if (asprintf(&r, "%.*s %s%s", (int)n, spelling, name, br) < 0) r = NULL;
    } else {
        size_t n = strlen(spelling);
        int star = n > 0 && spelling[n - 1] == '*';
        if (asprintf(&r, "%s%s%s", spelling, star ? "" : " ", name) < 0) r = NULL;
    }
    return r;
}

char *unit_ident(const char *text) {
    size_t n = strlen(text);
    char *r = malloc(n * 2 + 2);
    if (!r) return NULL;
    size_t o = 0;
    for (const char *p = text; *p; p++) {
        if (isalnum((unsigned char)*p) || *p == '_') r[o++] = *p;
        else if (*p == '*') {
            if (o && r[o - 1] != '_') r[o++] = '_';
            r[o++] = 'p';
        } else if (o && r[o - 1] != '_') r[o++] = '_';
    }
    while (o && r[o - 1] == '_') o--;
    if (o == 0 || isdigit((unsigned char)r[0])) {
        memmove(r + 1, r, o);
        r[0] = 'v';
        o++;
    }
    r[o] = 0;
    return r;
}

static int length_name(const char *n) {
    static const char *exact[] = {"n", "len", "length", "size", "sz", "count", "cnt", "num", "nbytes", "nelem",
                                  "nmemb", "nitems", "bytes", "capacity", "cap", NULL};
    static const char *tails[] = {"len", "size", "count", "length", "_n", "sz", NULL};
    for (int i = 0; exact[i]; i++)
        if (!strcmp(n, exact[i])) return 1;
    size_t l = strlen(n);
    for (int i = 0; tails[i]; i++) {
        size_t k = strlen(tails[i]);
        if (l > k && !strcmp(n + l - k, tails[i])) return 1;
    }
    return 0;
}

void unit_pair_buffers(ut_func *f) {
    for (size_t i = 0; i + 1 < f->nparams; i++) {
        ut_type *p = f->params[i].type, *l = f->params[i + 1].type;
        if (!p || !l || p->kind != UT_PTR || !p->pointee) continue;
        ut_type *e = p->pointee;
        int elem_ok = e->kind == UT_INT || e->kind == UT_BOOL || e->kind == UT_ENUM || e->kind == UT_VOID ||
                      (e->kind == UT_STRUCT && e->complete);
        if (!elem_ok || l->kind != UT_INT || f->params[i].len_param >= 0 || f->params[i].buf_param >= 0) continue;
        if (!length_name(f->params[i + 1].name)) continue;
        f->params[i].len_param = (int)(i + 1);
        f->params[i + 1].buf_param = (int)i;
    }
}
