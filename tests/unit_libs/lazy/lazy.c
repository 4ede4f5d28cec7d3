/* lazy.c: pointers NULL only where checked before use, and callbacks whose calls the tests assert (sympath unit e2e). */
#include <stddef.h>

struct pt {
    int x, y;
};

/* Dereferences p without a check: p is never NULL in its tests. */
int sum_pt(const struct pt *p) { return p->x + p->y > 10 ? 1 : 0; }

/* Checks a parameter also named p before using it: NULL is one of its tests. */
int pt_or_default(const struct pt *p)
{
    if (p == NULL) return -1;
    return p->x > 0;
}

/* Passes q to a callee that checks it: NULL is one of its tests. */
int via_callee(const struct pt *q) { return pt_or_default(q) + 1; }

/* Dereferences p, then checks it (too late): p is never NULL in its tests. */
int check_after_use(const struct pt *p)
{
    int v = p->x;
    if (!p) return -2;
    return v > 3;
}

/* Reads s at a symbolic index without checking s: s is never NULL in its tests, and the read
 * stays symbolic (s[i] == 'x' is reached). */
int char_at(const char *s, unsigned i)
{
    if (i > 15) return -1;
    if (s[i] == 'x') return 1;
    return 0;
}

typedef int (*kv_handler)(void *user, const char *key, int value);

/* Reports min(n, 3) pairs to handler (keys "even"/"odd", values 0, 10, 20) and counts the pairs the
 * handler refused (returned 0); -1 when n is negative, -2 without a handler. */
int report_pairs(kv_handler handler, void *user, int n)
{
    if (n < 0) return -1;
    if (handler == NULL) return -2;
    int refused = 0;
    for (int i = 0; i < n && i < 3; i++)
        if (!handler(user, i % 2 ? "odd" : "even", i * 10)) refused++;
    return refused;
}

typedef char *(*line_reader)(char *buf, int size, void *stream);

/* Counts the lines reader gives that start with '#' until it returns NULL or a line is empty;
 * -1 when more than 4 comment lines come. */
int count_comments(line_reader reader, void *stream)
{
    char line[8];
    int n = 0;
    while (reader(line, (int)sizeof line, stream) != NULL) {
        if (line[0] == '\0') break;
        if (line[0] == '#' && ++n > 4) return -1;
    }
    return n;
}

typedef int (*print_fn)(const char *buf, int len, void *ud);

/* Prints n in decimal through print, from a buffer with no terminating NUL (mjson's printers): the
 * stand-in's text argument is those len bytes, not a C string. */
int print_num(print_fn print, void *ud, int n)
{
    char buf[12];
    int i = (int)sizeof buf;
    unsigned u = n < 0 ? 0u - (unsigned)n : (unsigned)n;
    do {
        buf[--i] = (char)('0' + u % 10);
        u /= 10;
    } while (u && i > 1);
    if (n < 0) buf[--i] = '-';
    return print(buf + i, (int)sizeof buf - i, ud);
}

/* Trims the spaces that end the range [s, end) in place (inih's ini_rstrip): end points into s. */
int trim_range(char *s, char *end)
{
    while (end > s && end[-1] == ' ') *--end = '\0';
    return (int)(end - s);
}
