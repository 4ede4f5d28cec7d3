/* proc.c: running the compiler without a shell: flag splitting, fork/exec, stderr capture. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "instrument_int.h"

char *instr_strf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    if (vasprintf(&s, fmt, ap) < 0)
        s = NULL;
    va_end(ap);
    return s;
}

/*
 * Shell-like word splitting, reduced to what compiler flags need: blanks separate
 * words; '...' keeps everything literally; "..." keeps blanks and honours \" and \\;
 * a backslash outside quotes escapes the next character. No expansion of any kind.
 */
int split_flags(const char *s, char ***argv, size_t *argc, char **err)
{
    if (!s)
        return 0;
    size_t len = strlen(s);
    char *word = malloc(len + 1);
    if (!word) {
        *err = instr_strf("out of memory");
        return -1;
    }
    const char *p = s;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n')
            p++;
        if (!*p)
            break;
        size_t n = 0;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n') {
            if (*p == '\'' || *p == '"') {
                char q = *p++;
                while (*p && *p != q) {
                    if (q == '"' && *p == '\\' && (p[1] == '"' || p[1] == '\\'))
                        p++;
                    word[n++] = *p++;
                }
                if (!*p) {
                    free(word);
                    *err = instr_strf("unterminated %c quote in compiler flags: %s", q, s);
                    return -1;
                }
                p++;
            } else if (*p == '\\' && p[1]) {
                word[n++] = p[1];
                p += 2;
            } else {
                word[n++] = *p++;
            }
        }
        word[n] = 0;
        char **nv = realloc(*argv, (*argc + 2) * sizeof **argv);
        char *w = strdup(word);
        if (!nv || !w) {
            if (nv)
                *argv = nv;
            free(w);
            free(word);
            *err = instr_strf("out of memory");
            return -1;
        }
        *argv = nv;
        (*argv)[(*argc)++] = w;
        (*argv)[*argc] = NULL;
    }
    free(word);
    return 0;
}

/* Whole file into a NUL-terminated malloc'ed string; NULL on error. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (n + 1 >= cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - 1 - n, f);
        if (got == 0)
            break;
        n += got;
    }
    fclose(f);
    if (buf)
        buf[n] = 0;
    return buf;
}

static volatile sig_atomic_t *stop_flag;

void run_set_stop_flag(volatile sig_atomic_t *flag)
{
    stop_flag = flag;
}

int run_logged(char *const *argv, const char *log_path, char **output)
{
    *output = NULL;
    if (stop_flag && *stop_flag) {
        *output = instr_strf("interrupted");
        return -1;
    }
    int log = open(log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (log < 0) {
        *output = instr_strf("cannot create %s: %s", log_path, strerror(errno));
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        *output = instr_strf("fork: %s", strerror(errno));
        close(log);
        return -1;
    }
    if (pid == 0) {
        int in = open("/dev/null", O_RDONLY);
        if (in >= 0)
            dup2(in, 0);
        dup2(log, 2);
        execvp(argv[0], argv);
        /* Only async-signal-safe calls here: the message goes into the log. */
        const char *msg = "sympath: cannot execute the compiler: ";
        const char *why = strerror(errno);
        (void)!write(2, msg, strlen(msg));
        (void)!write(2, argv[0], strlen(argv[0]));
        (void)!write(2, ": ", 2);
        (void)!write(2, why, strlen(why));
        (void)!write(2, "\n", 1);
        _exit(127);
    }
    close(log);
    int status;
    int stopped = 0;
    for (;;) {
        /* a Ctrl-C handler installed without SA_RESTART wakes waitpid with EINTR; the
         * short poll covers one that arrives just before the call */
        if (stop_flag && *stop_flag && !stopped) {
            kill(pid, SIGTERM); /* clang and ld remove their partial output on SIGTERM */
            stopped = 1;
        }
        pid_t r = waitpid(pid, &status, stop_flag && !stopped ? WNOHANG : 0);
        if (r == pid)
            break;
        if (r < 0 && errno != EINTR) {
            *output = instr_strf("waitpid: %s", strerror(errno));
            return -1;
        }
        if (r == 0) {
            struct timespec ts = { 0, 20 * 1000000L };
            nanosleep(&ts, NULL);
        }
    }
    /* Tee: the user sees the compiler's diagnostics as they are, the caller gets a copy. */
    *output = slurp(log_path);
    if (*output && **output)
        fputs(*output, stderr);
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return -1;
}
