/* header_impl.c: single-header libraries: the macro a header tests before its implementation (`#ifdef SJ_IMPL`). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "util/util.h"

/* Whether name (len bytes) names an implementation switch: it holds IMPL (SJ_IMPL,
 * STB_IMAGE_IMPLEMENTATION, CUTE_TIME_IMPLEMENTATION). */
static int impl_word(const char *name, size_t len)
{
    for (size_t i = 0; i + 4 <= len; i++)
        if (!strncmp(name + i, "IMPL", 4)) return 1;
    return 0;
}

char *unit_header_impl_macro(const char *path)
{
    size_t n = 0;
    char *text = util_read_file(path, &n);
    if (!text) return NULL;
    char *found = NULL;
    for (char *l = text; l && *l && !found; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
        const char *s = l;
        while (*s == ' ' || *s == '\t') s++;
        if (*s++ != '#') continue;
        while (*s == ' ' || *s == '\t') s++;
        if (!strncmp(s, "ifdef", 5))
            s += 5;
        else if (!strncmp(s, "if", 2) && (s[2] == ' ' || s[2] == '\t')) {
            s += 2;
            while (*s == ' ' || *s == '\t' || *s == '!' || *s == '(') s++;
            if (strncmp(s, "defined", 7)) continue;
            s += 7;
        } else
            continue;
        while (*s == ' ' || *s == '\t' || *s == '(') s++;
        size_t len = 0;
        while (isalnum((unsigned char)s[len]) || s[len] == '_') len++;
        if (len && impl_word(s, len)) found = strndup(s, len);
    }
    free(text);
    return found;
}
