/* db_log.c: the one line writer of the database modes' logs. */
#include <stdio.h>
#include <stdlib.h>
#include "util/util.h"
#include "../core/rt_internal.h"
#include "db_log.h"

void db_log_vline(int fd, size_t cap, const char *fmt, va_list ap)
{
    if (fd < 0) return;
    char buf[8192];
    if (cap > sizeof buf) cap = sizeof buf;
    int n = vsnprintf(buf, cap - 1, fmt, ap);
    if (n < 0) return;
    if (n > (int)cap - 2) n = (int)cap - 2;
    buf[n++] = '\n';
    rt_sys_write(fd, buf, (size_t)n);
}

/* db_log_vline with its arguments given directly. */
static void log_line(int fd, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void log_line(int fd, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    db_log_vline(fd, cap, fmt, ap);
    va_end(ap);
}

void db_log_fields(int fd, size_t cap, const char *head, const char *const *fields, int n, size_t field_cap)
{
    if (fd < 0) return;
    strbuf b = STRBUF_INIT;
    char *text = malloc(field_cap ? field_cap : 1);
    sb_puts(&b, head);
    for (int i = 0; text && i < n; i++) {
        proto_flat(text, field_cap, fields[i] ? fields[i] : "NULL");
        sb_puts(&b, "\t");
        sb_puts(&b, text);
    }
    if (text && !b.failed) log_line(fd, cap, "%s", b.s);
    free(text);
    sb_free(&b);
}
