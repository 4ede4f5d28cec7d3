/* db_log.h: the one line writer and field flattener of the database modes' logs (fixture mode's SYMPATH_DB_LOG, data mode's SYMPATH_DATA_LOG). */
#ifndef SYMPATH_DB_LOG_H
#define SYMPATH_DB_LOG_H

#include <stdarg.h>
#include <stddef.h>

/* Append one line, fmt (without the newline) formatted with ap, to fd with a single write
 * (the explorer reads the file while runs append to it: O_APPEND + one write keeps lines
 * whole). The line is cut to cap - 2 bytes plus its newline (cap <= 8192). fd < 0: nothing. */
void db_log_vline(int fd, size_t cap, const char *fmt, va_list ap);
/* Copy src (NULL: "") into dst (cap bytes, NUL-terminated) with tabs, newlines and carriage
 * returns turned into blanks, so that it is one field of a log line; dst may be src. */
void db_log_flat(char *dst, size_t cap, const char *src);

#endif
