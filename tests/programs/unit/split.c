/* split.c: word splitters returning arrays (of strings with a count out or a NULL terminator, of integers with a count out) with their destructors, for tests/e2e/test_unit_split.sh. */
#include <stdlib.h>
#include <string.h>

void split_free(char **words, int count);

static int is_sep(char c) { return c == ' ' || c == ','; }

/* A copy of the n bytes at s, NUL-terminated (malloc'ed; NULL when out of memory). */
static char *copy(const char *s, size_t n)
{
    char *w = malloc(n + 1);
    if (!w) return NULL;
    memcpy(w, s, n);
    w[n] = 0;
    return w;
}

/* The words of s, separated by blanks and commas: a malloc'ed array of *count malloc'ed strings
 * (released by split_free), NULL when s has no word. */
char **split(const char *s, int *count)
{
    char **v = NULL;
    int n = 0;
    *count = 0;
    while (*s) {
        while (is_sep(*s)) s++;
        if (!*s) break;
        const char *b = s;
        while (*s && !is_sep(*s)) s++;
        char **nv = realloc(v, (size_t)(n + 1) * sizeof *nv);
        if (!nv || !(nv[n] = copy(b, (size_t)(s - b)))) {
            split_free(nv ? nv : v, n);
            return NULL;
        }
        v = nv;
        n++;
    }
    *count = n;
    return v;
}

/* Release what split returned. */
void split_free(char **words, int count)
{
    if (!words) return;
    for (int i = 0; i < count; i++) free(words[i]);
    free(words);
}

/* The lines of s (ended by '\n' or the end of s; an empty last line left out): a malloc'ed
 * NULL-terminated array of malloc'ed strings (released by lines_free); NULL when out of memory. */
char **lines(const char *s)
{
    size_t n = 0;
    char **v = malloc(sizeof *v);
    if (!v) return NULL;
    while (*s) {
        const char *b = s;
        while (*s && *s != '\n') s++;
        char **nv = realloc(v, (n + 2) * sizeof *nv);
        if (!nv) break;
        v = nv;
        v[n++] = copy(b, (size_t)(s - b));
        if (*s) s++;
    }
    v[n] = NULL;
    return v;
}

/* Release what lines returned. */
void lines_free(char **v)
{
    for (size_t i = 0; v && v[i]; i++) free(v[i]);
    free(v);
}

/* The length of each word of s (separated by blanks and commas): a malloc'ed array of *n sizes,
 * NULL when s has no word (or out of memory). */
size_t *word_lengths(const char *s, size_t *n)
{
    size_t *v = NULL, k = 0;
    *n = 0;
    for (;;) {
        while (is_sep(*s)) s++;
        if (!*s) break;
        const char *b = s;
        while (*s && !is_sep(*s)) s++;
        size_t *nv = realloc(v, (k + 1) * sizeof *nv);
        if (!nv) break;
        v = nv;
        v[k++] = (size_t)(s - b);
    }
    *n = k;
    return v;
}
