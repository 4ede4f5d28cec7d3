/* db_log.c: the one line writer of the database modes' logs. */
#include <stdio.h>
#include "../core/rt_internal.h"
#include "db_log.h"

void db_log_vline(int fd, size_t cap, const char *fmt, va_list ap)
{
    if (fd < 0)
        return;
    char buf[8192];
    if (cap > sizeof buf)
        cap = sizeof buf;
    int n = vsnprintf(buf, cap - 1, fmt, ap);
    if (n < 0)
        return;
    if (n > (int)cap - 2)
        n = (int)cap - 2;
    buf[n++] = '\n';
    rt_sys_write(fd, buf, (size_t)n);
}
