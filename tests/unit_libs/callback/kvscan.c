/* kvscan.c: a function that reports key/value pairs to a handler callback (sympath unit e2e: callbacks' calls asserted). */
#include <stddef.h>

typedef int (*kv_handler)(void *user, const char *key, int value);

/* Reports min(n, 3) pairs to handler (keys "even"/"odd", values 0, 1, 2) and counts the pairs the
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
