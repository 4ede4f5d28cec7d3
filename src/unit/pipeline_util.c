/* pipeline_util.c: small helpers the steps of `sympath unit` share: argv building, paths, the tool runner. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit/pipeline_int.h"
#include "util/util.h"

/* Append one word (a path: blanks kept) to the NULL-terminated argv *v of *n words. */
void uc_push_word(const char *w, char ***v, size_t *n)
{
    util_strv_push(v, n, w); /* out of memory: the word is missing, the command then fails */
}

void uc_compile_words(const char *cc, const char *flags, const char *build_cflags, char ***v, size_t *n)
{
    if (cc) uc_push_word(cc, v, n);
    unit_split_words(flags, v, n);
    char *inc = NULL;
    if (asprintf(&inc, "-I%s", instrument_include_dir()) >= 0) uc_push_word(inc, v, n);
    free(inc);
    unit_split_words(build_cflags, v, n);
}

const char *uc_base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* "parser.c" -> "parser" (malloc'ed). */
char *uc_stem(const char *path)
{
    const char *b = uc_base_name(path);
    const char *dot = strrchr(b, '.');
    return strndup(b, dot ? (size_t)(dot - b) : strlen(b));
}

char *uc_dir_of(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? strndup(path, s == path ? 1 : (size_t)(s - path)) : strdup(".");
}

/* The steps' tools: own process group, stdin /dev/null, output to log or discarded. */
int up_run(char *const *argv, char *const *env_add, const char *log, double timeout_s, int *status)
{
    util_proc p = {
        .argv = argv, .env_add = env_add, .out_path = log ? log : "/dev/null", .timeout_s = timeout_s, .new_group = 1};
    return util_run(&p, status);
}

int unit_read_cov(const char *run_dir, const char *origin, uint32_t **cov, size_t *n)
{
    *cov = NULL;
    *n = 0;
    if (!run_dir || !origin || (strncmp(origin, "test-", 5) && strncmp(origin, "cand-", 5))) return -1;
    const char *dot = strrchr(origin, '.');
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/tests/%.*s.cov", run_dir, (int)(dot ? dot - origin : (long)strlen(origin)), origin);
    char *t = util_read_file(path, NULL);
    if (!t) return -1;
    size_t cap = 0;
    for (char *p = t;;) {
        char *e;
        unsigned long v = strtoul(p, &e, 10);
        if (e == p) break;
        if (*n == cap) {
            cap = cap ? 2 * cap : 64;
            uint32_t *nc = realloc(*cov, cap * sizeof *nc);
            if (!nc) break;
            *cov = nc;
        }
        (*cov)[(*n)++] = (uint32_t)v;
        p = e;
    }
    free(t);
    return 0;
}

/* Size of a file in bytes (LONG_MAX when it cannot be read). */
static long file_size(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0 ? (long)sb.st_size : LONG_MAX;
}

static int by_size(const void *a, const void *b)
{
    long x = file_size(*(char *const *)a), y = file_size(*(char *const *)b);
    return x < y ? -1 : x > y;
}

void unit_sort_by_size(char **paths, size_t n) { qsort(paths, n, sizeof *paths, by_size); }
