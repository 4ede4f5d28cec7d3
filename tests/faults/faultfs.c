/* faultfs.c: an LD_PRELOAD shim for the fault tests: writes to chosen paths fail with ENOSPC after a byte budget, or are slowed down. */
/*
 * Build: cc -shared -fPIC -o faultfs.so faultfs.c -ldl
 * Use:   LD_PRELOAD=faultfs.so FAULTFS_PATHS="$OUT/tests/?*" FAULTFS_ENOSPC_AFTER=2000 sympath run ...
 *
 * Environment (read once, at the first intercepted call):
 *   FAULTFS_PATHS         colon-separated fnmatch(3) patterns, matched against the absolute
 *                         path of the file a descriptor or stream is open on ('*' also matches
 *                         '/'); only such files are affected. Unset: nothing is.
 *   FAULTFS_ENOSPC_AFTER  bytes that matching files may receive in total (per process); a
 *                         write that crosses the budget is cut short, every later one fails
 *                         with ENOSPC, as on a full disk. Unset: no failure.
 *   FAULTFS_DELAY_MS      sleep this long before every write to a matching file (a slow
 *                         disk), whatever signals arrive meanwhile.
 *   FAULTFS_PROC          only the process of this name is affected (default "sympath"): the
 *                         compiler and the executor it starts inherit LD_PRELOAD and are left alone.
 *   FAULTFS_MARK          a file created when the shim first injects a fault (failure or
 *                         delay), so a test can check that the fault happened at all.
 *
 * write() is intercepted directly. Streams (fwrite, fprintf) write through libc-internal
 * calls that a preload cannot see, so for them fclose() does the accounting: the file's size
 * is charged to the budget, a file that does not fit is truncated to what is
 * left, and the call fails with ENOSPC — what a full disk does to buffered small files.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int ready, active;
static const char *patterns;
static long long budget = -1;   /* bytes left; -1: unlimited */
static long delay_ms;
static const char *mark;

static void init(void)
{
    if (ready)
        return;
    ready = 1;
    const char *proc = getenv("FAULTFS_PROC");
    if (!proc || !*proc)
        proc = "sympath";
    patterns = getenv("FAULTFS_PATHS");
    active = patterns && *patterns && strcmp(program_invocation_short_name, proc) == 0;
    const char *b = getenv("FAULTFS_ENOSPC_AFTER");
    if (b && *b)
        budget = atoll(b);
    const char *d = getenv("FAULTFS_DELAY_MS");
    if (d && *d)
        delay_ms = atol(d);
    mark = getenv("FAULTFS_MARK");
}

/* 1 when fd is open on a file matching one of the patterns. */
static int fd_matches(int fd)
{
    init();
    if (!active || fd < 0)
        return 0;
    char link[64], path[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, path, sizeof path - 1);
    if (n <= 0)
        return 0;
    path[n] = '\0';
    const char *p = patterns;
    while (*p) {
        size_t len = strcspn(p, ":");
        char pat[1024];
        if (len < sizeof pat) {
            memcpy(pat, p, len);
            pat[len] = '\0';
            if (fnmatch(pat, path, 0) == 0)
                return 1;
        }
        p += len + (p[len] == ':');
    }
    return 0;
}

static void leave_mark(void)
{
    static int done;
    if (done || !mark)
        return;
    done = 1;
    int e = errno;
    int fd = open(mark, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd >= 0)
        close(fd);
    errno = e;
}

/* The delay: a full sleep even when a signal handler interrupts it. */
static void slow_down(void)
{
    if (delay_ms <= 0)
        return;
    leave_mark();
    int e = errno;
    struct timespec ts = { delay_ms / 1000, (delay_ms % 1000) * 1000000L };
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
    errno = e;
}

/* How many of len bytes may be written now (0: the disk is full). */
static size_t allowance(size_t len)
{
    if (budget < 0)
        return len;
    size_t ok = (long long)len <= budget ? len : (size_t)budget;
    budget -= (long long)ok;
    if (ok < len)
        leave_mark();
    return ok;
}

ssize_t write(int fd, const void *buf, size_t len)
{
    static ssize_t (*real)(int, const void *, size_t);
    if (!real)
        real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
    if (len == 0 || !fd_matches(fd))
        return real(fd, buf, len);
    slow_down();
    size_t ok = allowance(len);
    if (ok == 0) {
        errno = ENOSPC;
        return -1;
    }
    return real(fd, buf, ok);
}

/* Streams: at fclose, after the real flush, the file's size is charged (a stream is taken
 * to write its file once, from the start); what does not fit is cut off. */
int fclose(FILE *f)
{
    static int (*real)(FILE *);
    if (!real)
        real = (int (*)(FILE *))dlsym(RTLD_NEXT, "fclose");
    int failed = 0;
    int fd = f ? fileno(f) : -1;
    struct stat st;
    if (fd >= 0 && fd_matches(fd) && fflush(f) == 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        slow_down();
        size_t size = (size_t)st.st_size;
        size_t ok = allowance(size);
        if (ok < size) {
            failed = 1;
            if (ftruncate(fd, (off_t)ok) != 0) { /* best effort: the failure is what matters */ }
        }
    }
    int rc = real(f);
    if (failed) {
        errno = ENOSPC;
        return EOF;
    }
    return rc;
}
