/* unescape.c: a percent-decoder that rewrites its argument in place (a unit for the mutation analysis: its pointer
 * steps only show in a test with more text after each escape). */
#include <stddef.h>

static int hex_value(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Decode "%41" to 'A' and '+' to ' ' in place; returns the decoded length, or -1 for a bad escape. */
int unescape(char *s)
{
    if (s == NULL) return -1;
    char *r = s, *w = s;
    while (*r) {
        if (*r == '+') {
            *w = ' ';
            w += 1;
            r += 1;
        } else if (*r == '%') {
            int hi = hex_value(r[1]);
            if (hi < 0) return -1;
            int lo = hex_value(r[2]);
            if (lo < 0) return -1;
            *w = (char)(hi * 16 + lo);
            w += 1;
            r += 3;
        } else {
            *w = *r;
            w += 1;
            r += 1;
        }
    }
    *w = '\0';
    return (int)(w - s);
}
