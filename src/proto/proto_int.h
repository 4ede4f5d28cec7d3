/* proto_int.h: what the readers of src/proto share (not part of proto.h's interface). */
#ifndef SYMPATH_PROTO_INT_H
#define SYMPATH_PROTO_INT_H

#include <stddef.h>

/*
 * Call line(ctx, text, lineno, &why) for each line of len bytes of text (lines end at '\n';
 * trailing carriage returns are dropped; the text need not end with a newline), stopping
 * at the first line whose callback returns non-zero with *why set (malloc'ed, without the
 * line number). A NUL byte in a line is an error of that line. Returns 0 with *nlines (may
 * be NULL) the number of lines, or -1 with *err (malloc'ed) "line N: WHY".
 */
typedef int proto_line_fn(void *ctx, char *line, int lineno, char **why);
int proto_parse_lines(const char *text, size_t len, proto_line_fn *line, void *ctx, int *nlines, char **err);

/*
 * Read the file at path and give it to parse(text, len, out, &why). Returns parse's result;
 * *err (malloc'ed) is "PATH: WHY", or "cannot read PATH: REASON" (errno kept) when the file
 * cannot be read, in which case init(out) is called so that out is empty.
 */
int proto_read_file(const char *path, int (*parse)(const char *, size_t, void *, char **), void (*init)(void *),
                    void *out, char **err);

#endif
