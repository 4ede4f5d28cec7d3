/* strutil.c: string helpers (sympath unit benchmark). */
#include <stddef.h>
#include <string.h>

int str_starts_with(const char *s, const char *prefix) {
    if (s == NULL || prefix == NULL) return 0;
    while (*prefix) {
        if (*s != *prefix) return 0;
        s++;
        prefix++;
    }
    return 1;
}

size_t str_count(const char *s, char c) {
    size_t n = 0;
    if (!s) return 0;
    for (; *s; s++)
        if (*s == c) n++;
    return n;
}

/* Length of s without trailing blanks; -1 for an empty or all-blank string. */
int str_trim_len(const char *s) {
    int n = (int)strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
    return n == 0 ? -1 : n;
}

int parse_uint(const char *s, unsigned *out) {
    unsigned v = 0;
    if (s == NULL || *s == 0) return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return -2;
        if (v > 429496729u) return -3;
        v = v * 10 + (unsigned)(*s - '0');
    }
    *out = v;
    return 0;
}
