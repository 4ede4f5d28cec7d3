/* hexnum.c: a parser whose digit helper is static (sympath unit e2e: test_unit_static.sh targets it directly);
 * errors go to report_bad, defined in report.c. */
#include <stddef.h>

int report_bad(char c);

static int digit_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* not called by the tests of digit_value: the emitted test must still compile with -Werror */
static int is_space(char c) {
    return c == ' ' || c == '\t';
}

static const int limit_digits = 7;

long parse_hex(const char *s) {
    long v = 0;
    int n = 0;
    if (s == NULL) return -1;
    while (is_space(*s)) s++;
    for (; *s; s++) {
        int d = digit_value(*s);
        if (d < 0) return report_bad(*s);
        if (++n > limit_digits) return -2;
        v = v * 16 + d;
    }
    return v;
}
