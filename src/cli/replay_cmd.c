/* replay_cmd.c: `sympath replay`: native rebuild with the replay library, suite run under time limits, gcov/gcovr coverage. */
#define _GNU_SOURCE  /* asprintf */
#include "replay_cmd.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- growable string list (argv vectors, file lists) ---- */

typedef struct strlist {
    char **v;
    size_t n, cap;
} strlist;

/* Append s (taken over; NULL is stored as the argv terminator). */
static void sl_push(strlist *l, char *s)
{
    if (l->n + 1 >= l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
        if (!l->v) {
            fputs("sympath replay: out of memory\n", stderr);
            exit(2);
        }
    }
    l->v[l->n++] = s;
    l->v[l->n] = NULL;
}

static void sl_push_dup(strlist *l, const char *s) { sl_push(l, strdup(s)); }

static void sl_free(strlist *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    memset(l, 0, sizeof *l);
}

__attribute__((format(printf, 1, 2)))
static char *fmt(const char *f, ...)
{
    va_list ap;
    char *s;
    va_start(ap, f);
    int rc = vasprintf(&s, f, ap);
    va_end(ap);
    if (rc < 0) {
        fputs("sympath replay: out of memory\n", stderr);
        exit(2);
    }
    return s;
}

/* ---- replay.conf ---- */

typedef struct replay_conf {
    strlist sources;        /* absolute paths, in order */
    strlist cflags;         /* split like a shell would (quotes, backslashes), no expansion */
    char *include_dir;
    char *replaylib;
    char *nondet;           /* bitcode of generated input functions (nondet.c), or NULL */
    char *posixconf;        /* generated posix_conf.c of --sym-args/--sym-stdin/--sym-file, or NULL */
    long branches_covered, branches_total;   /* -1 when absent */
    char *db_schema;        /* --db suites: the schema copy, the fixture's input count, replay_db.c */
    char *db_inputs;
    char *replaydb;
    char *replaypq;         /* sympath data on PostgreSQL: replay_pq.c serves the SELECTs from tests/test-N.results */
} replay_conf;

/* Split a line into words: blanks separate, '...' and "..." group, backslash escapes. */
static void split_words(const char *s, strlist *out)
{
    while (*s) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s)
            break;
        char *w = malloc(strlen(s) + 1);
        size_t n = 0;
        char quote = 0;
        for (; *s && (quote || (*s != ' ' && *s != '\t')); s++) {
            if (quote && *s == quote)
                quote = 0;
            else if (!quote && (*s == '\'' || *s == '"'))
                quote = *s;
            else if (*s == '\\' && s[1] && quote != '\'')
                w[n++] = *++s;
            else
                w[n++] = *s;
        }
        w[n] = '\0';
        sl_push(out, w);
    }
}

/* Read the configuration; on failure print why and return -1. */
static int read_conf(const char *path, replay_conf *c)
{
    memset(c, 0, sizeof *c);
    c->branches_covered = c->branches_total = -1;
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "sympath replay: cannot read %s: %s (run `sympath run -o DIR` first)\n",
                path, strerror(errno));
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int lineno = 0, ok = 1;
    while ((len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        char *sp = strchr(line, ' ');
        const char *key = line, *val = sp ? sp + 1 : "";
        if (sp)
            *sp = '\0';
        if (lineno == 1) {
            if (strcmp(key, "sympath-replay") != 0 || strcmp(val, "1") != 0) {
                fprintf(stderr, "sympath replay: %s: not a version 1 replay configuration\n", path);
                ok = 0;
                break;
            }
        } else if (strcmp(key, "source") == 0) {
            sl_push_dup(&c->sources, val);
        } else if (strcmp(key, "cflags") == 0) {
            split_words(val, &c->cflags);
        } else if (strcmp(key, "include") == 0) {
            free(c->include_dir);
            c->include_dir = strdup(val);
        } else if (strcmp(key, "replaylib") == 0) {
            free(c->replaylib);
            c->replaylib = strdup(val);
        } else if (strcmp(key, "posixconf") == 0) {
            free(c->posixconf);
            c->posixconf = strdup(val);
        } else if (strcmp(key, "nondet") == 0) {
            free(c->nondet);
            c->nondet = strdup(val);
        } else if (strcmp(key, "db_schema") == 0) {
            free(c->db_schema);
            c->db_schema = strdup(val);
        } else if (strcmp(key, "db_inputs") == 0) {
            free(c->db_inputs);
            c->db_inputs = strdup(val);
        } else if (strcmp(key, "replaydb") == 0) {
            free(c->replaydb);
            c->replaydb = strdup(val);
        } else if (strcmp(key, "replaypq") == 0) {
            free(c->replaypq);
            c->replaypq = strdup(val);
        } else if (strcmp(key, "branches") == 0) {
            if (sscanf(val, "%ld %ld", &c->branches_covered, &c->branches_total) != 2)
                c->branches_covered = c->branches_total = -1;
        } /* other keys: written by a newer sympath; ignored */
    }
    free(line);
    fclose(f);
    if (ok && (c->sources.n == 0 || !c->replaylib)) {
        fprintf(stderr, "sympath replay: %s: needs at least one `source` and a `replaylib` line\n", path);
        ok = 0;
    }
    return ok ? 0 : -1;
}

static void free_conf(replay_conf *c)
{
    free(c->db_schema);
    free(c->db_inputs);
    free(c->replaydb);
    free(c->replaypq);
    sl_free(&c->sources);
    sl_free(&c->cflags);
    free(c->include_dir);
    free(c->replaylib);
    free(c->nondet);
    free(c->posixconf);
}

/* ---- processes ---- */

/* Run argv (PATH lookup), stdio inherited unless out_path is given (then stdout
 * and stderr go there). Returns the wait status, or -1 if it could not start. */
static int run_wait(char **argv, const char *out_path)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (out_path) {
            int fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (fd >= 0) {
                dup2(fd, 1);
                dup2(fd, 2);
                close(fd);
            }
        }
        execvp(argv[0], argv);
        fprintf(stderr, "sympath replay: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return st;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Wait for pid until deadline (monotonic seconds). 1 with *st filled, 0 on time-out. */
static int wait_until(pid_t pid, double deadline, int *st)
{
    long nap_us = 200;
    for (;;) {
        pid_t r = waitpid(pid, st, WNOHANG);
        if (r == pid || (r < 0 && errno != EINTR))
            return 1;
        if (now_s() >= deadline)
            return 0;
        struct timespec ts = { 0, nap_us * 1000 };
        nanosleep(&ts, NULL);
        if (nap_us < 20000)
            nap_us *= 2;   /* quick tests finish fast; slow ones cost little polling */
    }
}

typedef struct outcome {
    int status;      /* wait status, valid unless timed_out */
    int timed_out;
} outcome;

/*
 * Run the program on one test case in its own process group; on time-out the
 * whole group is killed with SIGKILL. A killed run writes no .gcda data of its
 * own (a flush in the middle of a loop would leave arc counts gcov rejects) and
 * leaves that of the other runs intact.
 */
static outcome run_test(const char *prog, const char *testcase, const char *log,
                        const char *cwd, double timeout_s)
{
    outcome o = { 0, 0 };
    pid_t pid = fork();
    if (pid < 0) {
        o.status = -1;
        return o;
    }
    if (pid == 0) {
        setpgid(0, 0);
        int in = open("/dev/null", O_RDONLY);
        int out = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (in >= 0) { dup2(in, 0); close(in); }
        if (out >= 0) { dup2(out, 1); dup2(out, 2); close(out); }
        if (cwd && chdir(cwd) != 0)
            _exit(126);
        setenv("SYMPATH_TESTCASE", testcase, 1);
        execl(prog, prog, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid);   /* also in the parent: no race with the kill below */
    if (wait_until(pid, now_s() + timeout_s, &o.status))
        return o;
    o.timed_out = 1;
    kill(-pid, SIGKILL);
    while (waitpid(pid, &o.status, 0) < 0 && errno == EINTR)
        ;
    return o;
}

static const char *signal_name(int sig)
{
    static const struct { int sig; const char *name; } names[] = {
        { SIGABRT, "SIGABRT" }, { SIGSEGV, "SIGSEGV" }, { SIGBUS, "SIGBUS" }, { SIGFPE, "SIGFPE" },
        { SIGILL, "SIGILL" },   { SIGKILL, "SIGKILL" }, { SIGTERM, "SIGTERM" }, { SIGTRAP, "SIGTRAP" },
        { SIGPIPE, "SIGPIPE" }, { SIGXCPU, "SIGXCPU" }, { SIGXFSZ, "SIGXFSZ" }, { SIGALRM, "SIGALRM" },
        { SIGINT, "SIGINT" },   { SIGHUP, "SIGHUP" },   { SIGQUIT, "SIGQUIT" }, { SIGSYS, "SIGSYS" },
        { SIGUSR1, "SIGUSR1" }, { SIGUSR2, "SIGUSR2" },
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].sig == sig)
            return names[i].name;
    return NULL;
}

/* ---- files ---- */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Names in dir matching pattern, sorted. A missing dir gives an empty list. */
static void list_dir(const char *dir, const char *pattern, strlist *out)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (fnmatch(pattern, e->d_name, FNM_PERIOD) == 0)
            sl_push_dup(out, e->d_name);
    closedir(d);
    if (out->n)
        qsort(out->v, out->n, sizeof *out->v, cmp_str);
}

static void remove_matching(const char *dir, const char *pattern)
{
    strlist l = { 0 };
    list_dir(dir, pattern, &l);
    for (size_t i = 0; i < l.n; i++) {
        char *p = fmt("%s/%s", dir, l.v[i]);
        unlink(p);
        free(p);
    }
    sl_free(&l);
}

/* First line of a text file (malloc'ed), or NULL. */
/* 1 when the file's text contains needle (files here are small test cases). */
static int file_mentions(const char *path, const char *needle)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return strstr(buf, needle) != NULL;
}

static char *first_line(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n = getline(&line, &cap, f);
    fclose(f);
    if (n < 0) {
        free(line);
        return NULL;
    }
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
        line[--n] = '\0';
    return line;
}

/* Longest common directory of the (absolute) source paths, malloc'ed. */
static char *common_dir(const strlist *files)
{
    char *dir = strdup(files->v[0]);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    for (size_t i = 1; i < files->n; i++) {
        size_t n = strlen(dir);
        while (n > 0 && !(strncmp(files->v[i], dir, n) == 0 && files->v[i][n] == '/')) {
            char *s = strrchr(dir, '/');
            if (!s) { n = 0; break; }
            *s = '\0';
            n = strlen(dir);
        }
        if (n == 0) {
            strcpy(dir, "/");
            break;
        }
    }
    if (!*dir)
        strcpy(dir, "/");
    return dir;
}

/* path as a gcovr filter: a regular expression matching exactly that file. */
static char *regex_quote(const char *path)
{
    char *out = malloc(2 * strlen(path) + 2), *o = out;
    for (const char *p = path; *p; p++) {
        if (strchr("\\.^$|?*+()[]{}", *p))
            *o++ = '\\';
        *o++ = *p;
    }
    *o++ = '$';
    *o = '\0';
    return out;
}

/* Find `"key":` at nesting depth 1 of a JSON text (skipping strings and nested
 * values) and read the number after it. gcovr's summary repeats the same keys
 * per file inside "files", so a plain search would find the wrong ones. */
static int json_top_number(const char *text, const char *key, double *out)
{
    size_t klen = strlen(key);
    int depth = 0;
    for (const char *p = text; *p; p++) {
        if (*p == '{' || *p == '[') {
            depth++;
        } else if (*p == '}' || *p == ']') {
            depth--;
        } else if (*p == '"') {
            const char *s = p + 1, *e = s;
            while (*e && *e != '"')
                e += (*e == '\\' && e[1]) ? 2 : 1;
            if (!*e)
                return -1;
            p = e;
            if (depth == 1 && (size_t)(e - s) == klen && strncmp(s, key, klen) == 0) {
                const char *q = e + 1;
                while (isspace((unsigned char)*q))
                    q++;
                if (*q != ':')
                    continue;
                char *end;
                *out = strtod(q + 1, &end);
                return end == q + 1 ? -1 : 0;
            }
        }
    }
    return -1;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 65536, len = 0, n;
    char *buf = malloc(cap);
    while (buf && (n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (cap - len < 4096) {
            char *b = realloc(buf, cap *= 2);
            if (!b) { free(buf); buf = NULL; }
            else buf = b;
        }
    }
    fclose(f);
    if (buf)
        buf[len] = '\0';
    return buf;
}

static void print_ratio(const char *what, double cov, double total)
{
    if (total > 0)
        printf("gcov %s coverage:%s %.0f/%.0f (%.1f%%)", what, strcmp(what, "line") ? "" : "  ",
               cov, total, 100.0 * cov / total);
    else
        printf("gcov %s coverage:%s %.0f/%.0f (n/a)", what, strcmp(what, "line") ? "" : "  ", cov, total);
}

/* ---- the command ---- */

static int usage(void)
{
    fputs("usage: sympath replay OUT [--coverage] [--timeout SECONDS]\n"
          "  rebuilds the program of OUT natively, runs OUT/tests/test-*.xml and\n"
          "  OUT/errors/error-*.xml, and with --coverage reports gcov coverage.\n", stderr);
    return 2;
}

/* The clang that compiles generated bitcode: $SYMPATH_CC as for `sympath run`, else the build's. */
static const char *clang_path(void)
{
    const char *e = getenv("SYMPATH_CC");
    return e && *e ? e : SYMPATH_CLANG;
}

/* Compile everything into rdir and link rdir/prog. 0, or -1 after gcc said why. */
static int build(const replay_conf *c, const char *rdir, const char *prog, int coverage)
{
    strlist objs = { 0 };
    int rc = 0;
    int with_db = c->db_schema && c->replaydb;
    /* after the program's sources: replay.c, then replay_db.c and replay_pq.c when configured */
    const char *libs[3];
    size_t nlibs = 0;
    libs[nlibs++] = c->replaylib;
    if (with_db)
        libs[nlibs++] = c->replaydb;
    if (c->replaypq)
        libs[nlibs++] = c->replaypq;
    for (size_t i = 0; i < c->sources.n + nlibs && rc == 0; i++) {
        int is_lib = i >= c->sources.n;
        const char *src = is_lib ? libs[i - c->sources.n] : c->sources.v[i];
        const char *base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
        char *stem = strdup(base);
        char *dot = strrchr(stem, '.');
        if (dot)
            *dot = '\0';
        /* index prefix: two sources with the same base name get distinct .o/.gcno/.gcda */
        char *obj = is_lib ? fmt("%s/replaylib%zu.o", rdir, i - c->sources.n) : fmt("%s/s%zu-%s.o", rdir, i, stem);
        free(stem);
        strlist a = { 0 };
        sl_push_dup(&a, "gcc");
        sl_push_dup(&a, "-O0");
        sl_push_dup(&a, "-g");
        sl_push_dup(&a, "-w");
        if (coverage && !is_lib)
            sl_push_dup(&a, "--coverage");
        if (coverage && is_lib)
            sl_push_dup(&a, "-DSYMPATH_REPLAY_GCOV");
        if (is_lib && c->posixconf)
            sl_push_dup(&a, "-DSYMPATH_REPLAY_POSIX");
        if (c->include_dir && *c->include_dir)
            sl_push(&a, fmt("-I%s", c->include_dir));
        sl_push_dup(&a, "-idirafter");   /* <libpq-fe.h>, as `sympath run` compiles */
        sl_push_dup(&a, SYMPATH_PQ_INCLUDE);
        if (!is_lib)
            for (size_t k = 0; k < c->cflags.n; k++)
                sl_push_dup(&a, c->cflags.v[k]);
        sl_push_dup(&a, "-c");
        sl_push_dup(&a, src);
        sl_push_dup(&a, "-o");
        sl_push_dup(&a, obj);
        int st = run_wait(a.v, NULL);
        if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            fprintf(stderr, "sympath replay: compiling %s failed\n", src);
            rc = -1;
        }
        sl_free(&a);
        sl_push(&objs, obj);
    }
    if (rc == 0 && c->posixconf) {
        char *obj = fmt("%s/posix_conf.o", rdir);
        char *ca[] = { "gcc", "-c", "-O0", "-w", c->posixconf, "-o", obj, NULL };
        int st = run_wait(ca, NULL);
        if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            fprintf(stderr, "sympath replay: compiling %s failed\n", c->posixconf);
            rc = -1;
        }
        sl_push(&objs, obj);
    }
    if (rc == 0 && c->nondet) {
        /* the input functions `sympath run` generated from their declared types: LLVM
         * bitcode, so clang compiles it (same x86-64 ABI as gcc's objects) */
        char *obj = fmt("%s/nondet.o", rdir);
        char *ca[] = { (char *)clang_path(), "-c", "-O0", "-w", c->nondet, "-o", obj, NULL };
        int st = run_wait(ca, NULL);
        if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            fprintf(stderr, "sympath replay: compiling %s failed\n", c->nondet);
            rc = -1;
        }
        sl_push(&objs, obj);
    }
    if (rc == 0) {
        strlist a = { 0 };
        sl_push_dup(&a, "gcc");
        if (coverage)
            sl_push_dup(&a, "--coverage");
        for (size_t i = 0; i < objs.n; i++)
            sl_push_dup(&a, objs.v[i]);
        for (size_t k = 0; k < c->cflags.n; k++)   /* may carry -l/-L options */
            sl_push_dup(&a, c->cflags.v[k]);
        if (with_db) { /* the program's opens go to replay_db.c */
            sl_push_dup(&a, "-Wl,--wrap=sqlite3_open,--wrap=sqlite3_open_v2");
            sl_push_dup(&a, "-lsqlite3");
        }
        if (c->replaypq) { /* the program's connections and statements go to replay_pq.c */
            sl_push_dup(&a, "-Wl,--wrap=PQconnectdb,--wrap=PQconnectdbParams,--wrap=PQsetdbLogin,--wrap=PQstatus,"
                            "--wrap=PQerrorMessage,--wrap=PQfinish,--wrap=PQexec,--wrap=PQexecParams,"
                            "--wrap=PQprepare,--wrap=PQexecPrepared,--wrap=PQresultErrorMessage");
            sl_push_dup(&a, "-lpq");
        } else { /* a program that calls libpq outside data mode */
            sl_push_dup(&a, "-Wl,--push-state,--as-needed");
            sl_push_dup(&a, "-lpq");
            sl_push_dup(&a, "-Wl,--pop-state");
        }
        sl_push_dup(&a, "-lm");
        if (c->posixconf) /* replay.c's start-up and file wrappers (SYMPATH_REPLAY_POSIX) */
            sl_push_dup(&a, "-Wl,--wrap=main,--wrap=fopen,--wrap=open,--wrap=fopen64,--wrap=open64");
        sl_push_dup(&a, "-o");
        sl_push_dup(&a, prog);
        int st = run_wait(a.v, NULL);
        if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            fprintf(stderr, "sympath replay: linking %s failed\n", prog);
            rc = -1;
        }
        sl_free(&a);
    }
    sl_free(&objs);
    return rc;
}

/* Run gcovr over rdir and print the totals. 0 or -1 (message printed). */
static int report_coverage(const replay_conf *c, const char *rdir)
{
    char *root = common_dir(&c->sources);
    char *summary = fmt("%s/coverage-summary.json", rdir);
    char *html = fmt("%s/coverage.html", rdir);
    char *log = fmt("%s/gcovr.log", rdir);
    strlist a = { 0 };
    sl_push_dup(&a, "gcovr");
    sl_push_dup(&a, "--root");
    sl_push_dup(&a, root);
    sl_push_dup(&a, "--object-directory");
    sl_push_dup(&a, rdir);
    for (size_t i = 0; i < c->sources.n; i++) {
        sl_push_dup(&a, "--filter");
        sl_push(&a, regex_quote(c->sources.v[i]));
    }
    sl_push_dup(&a, "--gcov-ignore-parse-errors");   /* one odd line must not cost the whole report */
    sl_push_dup(&a, "--json-summary");
    sl_push_dup(&a, summary);
    sl_push_dup(&a, "--html-details");
    sl_push_dup(&a, html);
    sl_push_dup(&a, rdir);   /* search path for the .gcda/.gcno files */
    unlink(summary);
    int st = run_wait(a.v, log);
    sl_free(&a);
    int rc = -1;
    char *text = NULL;
    double bc, bt, lc, lt;
    if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "sympath replay: gcovr failed (is it installed?); see %s\n", log);
    } else if (!(text = slurp(summary)) || json_top_number(text, "branch_covered", &bc) ||
               json_top_number(text, "branch_total", &bt) || json_top_number(text, "line_covered", &lc) ||
               json_top_number(text, "line_total", &lt)) {
        fprintf(stderr, "sympath replay: cannot read the totals in %s\n", summary);
    } else {
        print_ratio("branch", bc, bt);
        if (c->branches_total >= 0)
            printf("   sympath reported: %ld/%ld\n", c->branches_covered, c->branches_total);
        else
            printf("   sympath reported: n/a\n");
        print_ratio("line", lc, lt);
        printf("\nHTML report: %s\n", html);
        rc = 0;
    }
    free(text);
    free(root);
    free(summary);
    free(html);
    free(log);
    return rc;
}

int cmd_replay(int argc, char **argv)
{
    const char *out = NULL;
    int coverage = 0;
    double timeout_s = 10.0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--coverage") == 0) {
            coverage = 1;
        } else if (strcmp(a, "--timeout") == 0 || strncmp(a, "--timeout=", 10) == 0) {
            const char *v = a[9] == '=' ? a + 10 : (i + 1 < argc ? argv[++i] : NULL);
            char *end;
            timeout_s = v ? strtod(v, &end) : 0;
            if (!v || end == v || *end || !(timeout_s > 0)) {
                fprintf(stderr, "sympath replay: --timeout needs a positive number of seconds\n");
                return usage();
            }
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage();
            return 0;
        } else if (a[0] == '-' || out) {
            fprintf(stderr, "sympath replay: unexpected argument '%s'\n", a);
            return usage();
        } else {
            out = a;
        }
    }
    if (!out)
        return usage();

    char outabs[PATH_MAX];
    if (!realpath(out, outabs)) {
        fprintf(stderr, "sympath replay: %s: %s\n", out, strerror(errno));
        return 2;
    }
    char *conf_path = fmt("%s/build/replay.conf", outabs);
    replay_conf conf;
    int rc = read_conf(conf_path, &conf);
    free(conf_path);
    if (rc) {
        free_conf(&conf);
        return 2;
    }

    char *rdir = fmt("%s/replay", outabs);
    char *prog = fmt("%s/prog", rdir);
    if (mkdir(rdir, 0777) && errno != EEXIST) {
        fprintf(stderr, "sympath replay: cannot create %s: %s\n", rdir, strerror(errno));
        rc = 2;
        goto done;
    }
    /* counters of an earlier replay would add up with this one's */
    remove_matching(rdir, "*.gcda");
    remove_matching(rdir, "*.log");
    if (build(&conf, rdir, prog, coverage)) {
        rc = 2;
        goto done;
    }

    static const struct { const char *dir, *pattern; int expect_abnormal; } groups[] = {
        { "tests", "test-*.xml", 0 },
        { "errors", "error-*.xml", 1 },
    };
    size_t ran = 0, unexpected = 0;
    for (size_t g = 0; g < 2; g++) {
        char *dir = fmt("%s/%s", outabs, groups[g].dir);
        strlist names = { 0 };
        list_dir(dir, groups[g].pattern, &names);
        for (size_t i = 0; i < names.n; i++) {
            const char *name = names.v[i];
            char *tc = fmt("%s/%s", dir, name);
            char *log = fmt("%s/%s-%.*s.log", rdir, groups[g].dir, (int)(strlen(name) - 4), name);
            if (conf.db_schema) { /* the test's database: schema + its fixture (test-NNNNN.sql) */
                char *fixture = fmt("%s/%.*s.sql", dir, (int)(strlen(name) - 4), name);
                char *dbfile = fmt("%s/test.db", rdir);
                setenv("SYMPATH_REPLAY_DB_SCHEMA", conf.db_schema, 1);
                setenv("SYMPATH_REPLAY_DB_FIXTURE", fixture, 1);
                setenv("SYMPATH_REPLAY_DB_INPUTS", conf.db_inputs ? conf.db_inputs : "0", 1);
                setenv("SYMPATH_REPLAY_DB_FILE", dbfile, 1);
                free(fixture);
                free(dbfile);
            }
            if (conf.replaypq) { /* the test's recorded results (test-NNNNN.results) */
                char *results = fmt("%s/%.*s.results", dir, (int)(strlen(name) - 4), name);
                setenv("SYMPATH_REPLAY_RESULTS", results, 1);
                free(results);
            }
            outcome o = run_test(prog, tc, log, rdir, timeout_s);
            char what[64];
            if (o.timed_out)
                snprintf(what, sizeof what, "timeout (%gs)", timeout_s);
            else if (o.status == -1)
                snprintf(what, sizeof what, "could not start");
            else if (WIFSIGNALED(o.status) && signal_name(WTERMSIG(o.status)))
                snprintf(what, sizeof what, "signal %s", signal_name(WTERMSIG(o.status)));
            else if (WIFSIGNALED(o.status))
                snprintf(what, sizeof what, "signal %d", WTERMSIG(o.status));
            else
                snprintf(what, sizeof what, "exit code %d", WEXITSTATUS(o.status));
            /* tests/: any exit status is a normal end, unless the test case says it covers an
             * error (coversError="true": its run ended in an error); errors/: must not end normally */
            int expect_abnormal = groups[g].expect_abnormal || file_mentions(tc, "coversError=\"true\"");
            int as_expected = expect_abnormal
                ? o.status != -1 && (o.timed_out || !WIFEXITED(o.status) || WEXITSTATUS(o.status) != 0)
                : o.status != -1 && !o.timed_out && WIFEXITED(o.status);
            char *label = fmt("%s/%s", groups[g].dir, name);
            char *line = NULL;
            if (groups[g].expect_abnormal) {
                char *txt = fmt("%s/%.*s.txt", dir, (int)(strlen(name) - 4), name);
                line = first_line(txt);
                free(txt);
            }
            /* A time-out or an out-of-memory of the instrumented executor need not happen
             * natively (the native build is faster and needs no expressions): such a
             * reproducer ending normally is reported, not counted as a failure. */
            int resource = line && (strncmp(line, "timeout", 7) == 0 || strncmp(line, "out of memory", 13) == 0);
            const char *note = as_expected ? "" : "   <- unexpected";
            if (!as_expected && resource) {
                as_expected = 1;
                note = "   (ended natively: the limit was hit only by the instrumented build)";
            }
            unexpected += !as_expected;
            ran++;
            if (line || !as_expected || *note)
                printf("%-22s %-18s %s%s\n", label, what, line ? line : "", note);
            else
                printf("%-22s %s\n", label, what);
            free(line);
            free(label);
            fflush(stdout);
            free(tc);
            free(log);
        }
        sl_free(&names);
        free(dir);
    }
    if (ran == 0)
        printf("no test cases in %s/tests or %s/errors\n", outabs, outabs);
    else if (unexpected == 0)
        printf("replayed %zu test case%s: all ended as expected\n", ran, ran == 1 ? "" : "s");
    else
        printf("replayed %zu test case%s: %zu did not end as expected (logs in %s)\n",
               ran, ran == 1 ? "" : "s", unexpected, rdir);
    rc = unexpected ? 1 : 0;
    if (coverage && report_coverage(&conf, rdir))
        rc = 2;
done:
    free(rdir);
    free(prog);
    free_conf(&conf);
    return rc;
}
