/* vscan.c: a scanner of numbers that takes its out-parameters as a va_list (the vsscanf shape), and its variadic
 * front end; a test library of sympath unit (tests/e2e/test_unit_va_list.sh). */
#include <stdarg.h>

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
