/* unit_proc.c: processes and files for `sympath unit`: run a command with a time limit, list and read files. */
#define _GNU_SOURCE
#include "unit_proc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int up_run(char *const *argv, char *const *env_add, const char *log, double timeout_s, int *status) {
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        setpgid(0, 0);
        int in = open("/dev/null", O_RDONLY);
        int out = open(log ? log : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (in >= 0) dup2(in, 0);
        if (out >= 0) {
            dup2(out, 1);
            dup2(out, 2);
        }
        for (size_t i = 0; env_add && env_add[i]; i++) putenv(env_add[i]);
        execvp(argv[0], argv);
        _exit(127);
    }
    setpgid(pid, pid);
    double deadline = now_s() + timeout_s;
    long nap_us = 200;
    for (;;) {
        pid_t r = waitpid(pid, status, WNOHANG);
        if (r == pid) return 0;
        if (r < 0 && errno != EINTR) return -1;
        if (timeout_s > 0 && now_s() >= deadline) {
            kill(-pid, SIGKILL);
            while (waitpid(pid, status, 0) < 0 && errno == EINTR)
                ;
            return 1;
        }
        struct timespec ts = {0, nap_us * 1000};
        nanosleep(&ts, NULL);
        if (nap_us < 20000) nap_us *= 2;
    }
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char **up_list(const char *dir, const char *pattern, size_t *n) {
    *n = 0;
    char **v = NULL;
    DIR *d = opendir(dir);
    if (!d) return calloc(1, sizeof *v);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (fnmatch(pattern, e->d_name, FNM_PERIOD) != 0) continue;
        char **nv = realloc(v, (*n + 2) * sizeof *nv);
        if (!nv) break;
        v = nv;
        if (asprintf(&v[*n], "%s/%s", dir, e->d_name) < 0) break;
        (*n)++;
    }
    closedir(d);
    if (!v) return calloc(1, sizeof *v);
    v[*n] = NULL;
    qsort(v, *n, sizeof *v, cmp_str);
    return v;
}

void up_free_list(char **v) {
    for (size_t i = 0; v && v[i]; i++) free(v[i]);
    free(v);
}

char *up_read(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, len = 0;
    char *b = malloc(cap);
    size_t k;
    while (b && (k = fread(b + len, 1, cap - len - 1, f)) > 0) {
        len += k;
        if (cap - len < 2) {
            char *nb = realloc(b, cap * 2);
            if (!nb) {
                free(b);
                b = NULL;
                break;
            }
            b = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (b) b[len] = 0;
    return b;
}

int up_mkdir_p(const char *path) {
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) return -1;
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        if (mkdir(buf, 0777) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    if (mkdir(buf, 0777) != 0 && errno != EEXIST) return -1;
    return 0;
}
