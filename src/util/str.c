/* str.c: formatted strings, word splitting by sympath's one quoting rule (util.h), string vectors. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

char *util_strf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    if (vasprintf(&s, fmt, ap) < 0) s = NULL;
    va_end(ap);
    return s;
}

int util_strv_push(char ***argv, size_t *argc, const char *word)
{
    char **nv = realloc(*argv, (*argc + 2) * sizeof **argv);
    if (!nv) return -1;
    *argv = nv;
    char *w = strdup(word);
    if (!w) {
        (*argv)[*argc] = NULL;
        return -1;
    }
    (*argv)[(*argc)++] = w;
    (*argv)[*argc] = NULL;
    return 0;
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\n'; }

int util_split_words(const char *s, char ***argv, size_t *argc, char **err)
{
    *err = NULL;
    if (!s) return 0;
    char *word = malloc(strlen(s) + 1); /* a word is never longer than s */
    if (!word) {
        *err = util_strf("out of memory");
        return -1;
    }
    const char *p = s;
    for (;;) {
        while (is_blank(*p)) p++;
        if (!*p) break;
        size_t n = 0;
        while (*p && !is_blank(*p)) {
            if (*p == '\'' || *p == '"') {
                char q = *p++;
                while (*p && *p != q) {
                    if (q == '"' && *p == '\\' && (p[1] == '"' || p[1] == '\\')) p++;
                    word[n++] = *p++;
                }
                if (!*p) {
                    free(word);
                    *err = util_strf("unterminated %c quote in: %s", q, s);
                    return -1;
                }
                p++;
            } else if (*p == '\\' && p[1]) {
                word[n++] = p[1];
                p += 2;
            } else {
                word[n++] = *p++;
            }
        }
        word[n] = '\0';
        if (util_strv_push(argv, argc, word)) {
            free(word);
            *err = util_strf("out of memory");
            return -1;
        }
    }
    free(word);
    return 0;
}

void util_free_strv(char **v)
{
    for (size_t i = 0; v && v[i]; i++) free(v[i]);
    free(v);
}

int util_parse_uint(const char *s, uint64_t max, uint64_t *out)
{
    if (!s || *s < '0' || *s > '9') return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end || errno || v > max) return -1;
    *out = v;
    return 0;
}
