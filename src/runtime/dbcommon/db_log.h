/* db_log.h: the one line writer of the database modes' logs (fixture mode's SYMPATH_DB_LOG, data mode's SYMPATH_DATA_LOG). */
#ifndef SYMPATH_DB_LOG_H
#define SYMPATH_DB_LOG_H

#include <stdarg.h>
#include <stddef.h>

#include "proto/proto.h"

/* Append one line, fmt (without the newline) formatted with ap, to fd with a single write
 * (the explorer reads the file while runs append to it: O_APPEND + one write keeps lines
 * whole). The line is cut to cap - 2 bytes plus its newline (cap <= 8192). fd < 0: nothing. */
void db_log_vline(int fd, size_t cap, const char *fmt, va_list ap);
/* One line: head (not flattened), then each of fields[0..n) after a tab, flattened by
 * proto_flat and cut to field_cap - 1 bytes (a NULL field is "NULL"); written as db_log_vline
 * writes. fd < 0: nothing. */
void db_log_fields(int fd, size_t cap, const char *head, const char *const *fields, int n, size_t field_cap);
/* A field of a log line is flattened by proto_flat (src/proto/proto.h): tabs, newlines and
 * carriage returns become blanks, as in the .results file. */

#endif
