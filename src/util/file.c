/* file.c: whole-file reads, atomic writes, mkdir -p and directory listings. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/util.h"

char *util_read_file(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NULL;
    size_t cap = 4096, n = 0;
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
        cap = (size_t)st.st_size + 1; /* one read for a regular file; the loop copes if it grew */
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            close(fd);
            errno = ENOMEM;
            return NULL;
        }
        if (n + 1 >= cap) {
            char *nb = cap > ((size_t)-1) / 2 ? NULL : realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                continue;
            }
            buf = nb;
            cap *= 2;
        }
        ssize_t got = read(fd, buf + n, cap - 1 - n);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            int e = errno;
            free(buf);
            close(fd);
            errno = e;
            return NULL;
        }
        if (got == 0) break;
        n += (size_t)got;
    }
    close(fd);
    buf[n] = '\0';
    if (len) *len = n;
    return buf;
}

/* The temporary file of the util_write_atomic in progress, for util_write_atomic_abandon
 * (in a signal handler): its name is complete whenever pending_set is 1. */
static char pending_tmp[4096];
static volatile sig_atomic_t pending_set;

void util_write_atomic_abandon(void)
{
    if (pending_set) unlink(pending_tmp); /* async-signal-safe */
}

int util_write_atomic(const char *path, const void *data, size_t len)
{
    /* ".<name>.tmp.<pid>" beside path: rename() within one directory is atomic, and a
     * crash leaves only a dot-file that no glob of the suite (test-*.xml) picks up */
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    int dirlen = slash ? (int)(slash - path) : 0;
    char *tmp = slash ? util_strf("%.*s/.%s.tmp.%ld", dirlen, path, base, (long)getpid())
                      : util_strf(".%s.tmp.%ld", base, (long)getpid());
    if (!tmp) {
        errno = ENOMEM;
        return -1;
    }
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        int e = errno;
        free(tmp);
        errno = e;
        return -1;
    }
    if (strlen(tmp) < sizeof pending_tmp) {
        pending_set = 0;
        strcpy(pending_tmp, tmp);
        pending_set = 1;
    }
    const char *p = data;
    size_t left = len;
    int e = 0;
    while (left > 0) {
        ssize_t w = write(fd, p, left);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            e = w < 0 ? errno : ENOSPC;
            break;
        }
        p += w;
        left -= (size_t)w;
    }
    if (!e && fsync(fd) != 0 && errno != EINVAL && errno != EROFS)
        e = errno; /* EINVAL: a file system without fsync (a pipe, /dev/...) */
    if (close(fd) != 0 && !e) e = errno;
    if (!e && rename(tmp, path) != 0) e = errno;
    if (e) {
        unlink(tmp);
        pending_set = 0;
        free(tmp);
        errno = e;
        return -1;
    }
    pending_set = 0;
    free(tmp);
    /* make the rename itself durable; best effort (some file systems refuse) */
    char *dir = slash ? util_strf("%.*s", dirlen > 0 ? dirlen : 1, path) : util_strf(".");
    int dfd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
    free(dir);
    return 0;
}

int util_mkdir_p(const char *path)
{
    char *p = strdup(path);
    if (!p) {
        errno = ENOMEM;
        return -1;
    }
    for (char *s = p + 1; *s; s++) {
        if (*s != '/') continue;
        *s = '\0';
        if (mkdir(p, 0777) != 0 && errno != EEXIST) {
            int e = errno;
            free(p);
            errno = e;
            return -1;
        }
        *s = '/';
    }
    int rc = mkdir(p, 0777);
    free(p);
    if (rc == 0 || errno != EEXIST) return rc;
    struct stat st; /* it exists: fine if it is a directory */
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) return 0;
    errno = ENOTDIR;
    return -1;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

char **util_list_dir(const char *dir, const char *pattern, size_t *n)
{
    size_t cnt = 0;
    char **v = calloc(1, sizeof *v);
    if (!v) return NULL;
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (fnmatch(pattern, e->d_name, FNM_PERIOD) != 0) continue;
            char **nv = realloc(v, (cnt + 2) * sizeof *nv);
            char *path = util_strf("%s/%s", dir, e->d_name);
            if (!nv || !path) {
                free(path);
                if (nv) v = nv;
                closedir(d);
                util_free_strv(v);
                errno = ENOMEM;
                return NULL;
            }
            v = nv;
            v[cnt++] = path;
            v[cnt] = NULL;
        }
        closedir(d);
    }
    qsort(v, cnt, sizeof *v, cmp_str);
    if (n) *n = cnt;
    return v;
}
