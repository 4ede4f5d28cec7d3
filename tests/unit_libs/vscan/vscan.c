/* vscan.c: a scanner of numbers that takes its out-parameters as a va_list (the vsscanf shape), its variadic
 * front end, and a variadic scanner that allocates what it stores; a test library of sympath unit (tests/e2e/test_unit_va_list.sh). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* For each 'd' of fmt, reads a decimal number of s (after spaces) into the next `int *` of ap; stops at the
 * first that is missing. Returns how many were stored. */
int num_vscan(const char *s, const char *fmt, va_list ap)
{
    int stored = 0;
    for (; *fmt == 'd'; fmt++) {
        while (*s == ' ') s++;
        if (*s < '0' || *s > '9') break;
        int v = 0;
        while (*s >= '0' && *s <= '9') v = v * 10 + (*s++ - '0');
        *va_arg(ap, int *) = v;
        stored++;
    }
    return stored;
}

int num_scan(const char *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = num_vscan(s, fmt, ap);
    va_end(ap);
    return n;
}

/* Copies the first word of s (letters, after spaces) into a new string stored at the `char **` argument, as
 * frozen's json_scanf("%Q") does; the caller frees it. Returns 1 when a word was found, else 0. */
int word_scan(const char *s, ...)
{
    while (*s == ' ') s++;
    size_t n = 0;
    while ((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z')) n++;
    if (n == 0) return 0;
    char *w = malloc(n + 1);
    if (!w) return 0;
    memcpy(w, s, n);
    w[n] = 0;
    va_list ap;
    va_start(ap, s);
    *va_arg(ap, char **) = w;
    va_end(ap);
    return 1;
}
