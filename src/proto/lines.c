/* lines.c: the line loop and the file reading every reader of src/proto shares (errors named by line and path). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "proto/proto_int.h"
#include "util/util.h"

int proto_parse_lines(const char *text, size_t len, proto_line_fn *line_fn, void *ctx, int *nlines, char **err)
{
    *err = NULL;
    char *why = NULL;
    int lineno = 0;
    size_t pos = 0;
    while (pos < len && !why) {
        lineno++;
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
        char *line = strndup(text + pos, n);
        pos += n + (nl != NULL);
        if (!line) {
            why = util_strf("out of memory");
            break;
        }
        size_t ln = strlen(line);
        if (ln != n) why = util_strf("a NUL byte");
        while (!why && ln > 0 && line[ln - 1] == '\r') line[--ln] = '\0';
        if (!why && line_fn(ctx, line, lineno, &why) && !why) why = util_strf("out of memory");
        free(line);
    }
    if (nlines) *nlines = lineno;
    if (why) {
        *err = util_strf("line %d: %s", lineno, why);
        free(why);
        return -1;
    }
    return 0;
}

int proto_read_file(const char *path, int (*parse)(const char *, size_t, void *, char **), void (*init)(void *),
                    void *out, char **err)
{
    size_t len = 0;
    char *text = util_read_file(path, &len);
    if (!text) {
        int e = errno;
        init(out);
        *err = util_strf("cannot read %s: %s", path, strerror(e));
        errno = e;
        return -1;
    }
    char *why = NULL;
    int rc = parse(text, len, out, &why);
    free(text);
    if (rc) {
        *err = util_strf("%s: %s", path, why ? why : "out of memory");
        free(why);
    }
    return rc;
}
