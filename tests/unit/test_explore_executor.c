/* test_explore_executor.c: the executor against a fake fork server: runs, leaks, EINTR, crashes, time-outs, start-up failures, two executors, malformed traces, a server that dies or hangs. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "explore/executor.h"
#include "explore/trace_read.h"
#include "trace_test_util.h"
#include "util/util.h"

/* ======================================================================
 * The fake fork server. When FAKE_SERVER=<mode> is set, main() runs this instead
 * of the tests: it speaks the server side of the protocol in trace.h, and each run
 * child writes a small fixed trace:
 *   e1 = symbol 0 (32 bits, value x = input 0), e2 = const 42, e3 = eq(e1, e2),
 *   input 0 (int, named "input_x_with_a_long_name_here", two NAME chunks),
 *   branch (site 7, cond e3, taken x == 42, coverage slot taken), end(0).
 * Input 1, if present, is a delay in ms before the end record; input 2 = 1 makes
 * the run behave as in mode "ok" whatever the mode.
 * Modes: ok; crash (SIGSEGV after the branch); hang (sleeps after the branch);
 * die (exits before the handshake, with a message on stderr); malformed (an
 * expression referencing the unknown id 99 after the branch); flaky (the server
 * exits during run 1 without reporting a status); stuck (the server never reports
 * a status unless input 2 = 1).
 * ====================================================================== */

#define NAME_TEXT "input_x_with_a_long_name_here"
#define FAKE_SITE 7

static int env_int(const char *name)
{
    const char *s = getenv(name);
    return s ? atoi(s) : -1;
}

static int read_all(int fd, void *p, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t k = read(fd, (char *)p + got, n - got);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        got += (size_t)k;
    }
    return 0;
}

static void write_all(int fd, const void *p, size_t n)
{
    size_t done = 0;
    while (done < n) {
        ssize_t k = write(fd, (const char *)p + done, n - done);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) _exit(3);
        done += (size_t)k;
    }
}

static void fake_child(const char *mode, unsigned char *base, int out)
{
    setpgid(0, 0);
    dup2(out, 1);
    dup2(out, 2);
    struct rlimit nocore = {0, 0};
    setrlimit(RLIMIT_CORE, &nocore);
    trace_header *h = (trace_header *)base;
    uint64_t *in = (uint64_t *)(base + h->inputs_off);
    uint8_t *cov = base + h->cov_off;
    trace_rec *recs = (trace_rec *)(base + h->recs_off);
    uint64_t x = h->ninputs > 0 ? in[0] & 0xffffffffu : 0;
    uint64_t delay = h->ninputs > 1 ? in[1] : 0;
    if (h->ninputs > 2 && in[2] == 1) mode = "ok";
    printf("run %llu x=%llu\n", (unsigned long long)h->run_id, (unsigned long long)x);
    fflush(stdout);

    unsigned taken = x == 42;
    emit_expr(h, recs, EXPR_SYMBOL, 32, 1, 0, 0, 0, x);
    emit_expr(h, recs, EXPR_CONST, 32, 2, 0, 0, 0, 42);
    emit_expr(h, recs, EXPR_EQ, 1, 3, 1, 2, 0, taken);
    trace_rec r;
    memset(&r, 0, sizeof r);
    r.type = REC_INPUT;
    r.u.in.itype = IT_INT;
    r.u.in.width = 32;
    r.u.in.index = 0;
    r.u.in.expr_id = 1;
    r.u.in.value = x;
    emit(h, recs, &r);
    h->inputs_read = 1;
    for (size_t off = 0; off < strlen(NAME_TEXT); off += sizeof r.u.name.text) {
        memset(&r, 0, sizeof r);
        r.type = REC_NAME;
        size_t len = strlen(NAME_TEXT) - off;
        memcpy(r.u.name.text, NAME_TEXT + off, len < sizeof r.u.name.text ? len : sizeof r.u.name.text);
        emit(h, recs, &r);
    }
    memset(&r, 0, sizeof r);
    r.type = REC_BRANCH;
    r.u.br.kind = BK_BRANCH;
    r.u.br.taken = (uint8_t)taken;
    r.u.br.site = FAKE_SITE;
    r.u.br.cond = 3;
    r.u.br.arg = 0;
    emit(h, recs, &r);
    cov[taken] = 1;
    h->last_site = FAKE_SITE;
    h->conc[CONC_FLOAT] = 2;
    h->forks = 1;

    if (!strcmp(mode, "crash")) {
        signal(SIGSEGV, SIG_DFL);
        raise(SIGSEGV);
    }
    if (!strcmp(mode, "hang"))
        for (;;) pause();
    if (!strcmp(mode, "malformed")) emit_expr(h, recs, EXPR_ADD, 32, 4, 1, 99, 0, 0);
    if (delay) usleep((useconds_t)delay * 1000);
    memset(&r, 0, sizeof r);
    r.type = REC_END;
    r.u.end.status = 0;
    emit(h, recs, &r);
    h->ended = 1;
    _exit(0);
}

static void fake_server(const char *mode)
{
    if (!strcmp(mode, "die")) {
        fprintf(stderr, "fake server: cannot open shared object libmissing.so\n");
        exit(127);
    }
    int shm = env_int("SYMPATH_SHM_FD"), ctl = env_int("SYMPATH_CTL_FD");
    int st = env_int("SYMPATH_ST_FD"), out = env_int("SYMPATH_OUT_FD");
    struct stat sb;
    if (shm < 0 || ctl < 0 || st < 0 || out < 0 || fstat(shm, &sb) < 0) _exit(4);
    unsigned char *base = mmap(NULL, (size_t)sb.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, shm, 0);
    if (base == MAP_FAILED) _exit(5);
    trace_header *h = (trace_header *)base;
    if (h->magic != TRACE_MAGIC || h->total_size != (uint64_t)sb.st_size) _exit(6);
    uint32_t hello = FS_HELLO;
    write_all(st, &hello, sizeof hello);
    for (;;) {
        uint32_t cmd;
        if (read_all(ctl, &cmd, sizeof cmd) < 0 || cmd == FS_QUIT) _exit(0);
        if (cmd != FS_RUN) _exit(7);
        if (ftruncate(out, 0) < 0) _exit(8);
        pid_t pid = fork();
        if (pid < 0) _exit(9);
        if (pid == 0) {
            close(ctl);
            close(st);
            fake_child(mode, base, out);
        }
        uint32_t p = (uint32_t)pid;
        write_all(st, &p, sizeof p);
        if (!strcmp(mode, "flaky") && h->run_id == 1) _exit(3);
        uint64_t *in = (uint64_t *)(base + h->inputs_off);
        if (!strcmp(mode, "stuck") && !(h->ninputs > 2 && in[2] == 1))
            for (;;) pause();
        int status;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
        int32_t s = status;
        write_all(st, &s, sizeof s);
    }
}

/* ====================================================================== */

static char work_dir[64];
static expr_ctx *cx;

static int setup(void **state)
{
    strcpy(work_dir, "/tmp/sympath-exec-test-XXXXXX");
    if (!mkdtemp(work_dir)) return -1;
    cx = expr_ctx_new();
    return cx ? 0 : -1;
}

static int teardown(void **state)
{
    expr_ctx_free(cx);
    return rmdir(work_dir);
}

static executor *start_bin(const char *binary, const char *mode, unsigned index, unsigned timeout_ms, char **err)
{
    executor_opts o = {
        .binary = binary,
        .work_dir = work_dir,
        .index = index,
        .timeout_ms = timeout_ms,
        .cov_slots = 16,
        .inputs_cap = 64,
        .recs_cap = 1024,
    };
    setenv("FAKE_SERVER", mode, 1);
    executor *ex = executor_start(&o, err);
    unsetenv("FAKE_SERVER");
    return ex;
}

static executor *start(const char *mode, unsigned index, unsigned timeout_ms)
{
    char *err = NULL;
    executor *ex = start_bin("/proc/self/exe", mode, index, timeout_ms, &err);
    if (!ex) print_error("executor_start: %s\n", err ? err : "?");
    assert_non_null(ex);
    assert_null(err);
    return ex;
}

/* One run on ex, waited for and collected. Returns executor_finish's result. */
static int run_once(executor *ex, const uint64_t *in, size_t n, run_result *r, char **err)
{
    assert_int_equal(executor_begin(ex, in, n, err), 0);
    assert_true(executor_busy(ex));
    executor *one[1] = {ex};
    assert_int_equal(executor_wait_any(one, 1), 0);
    int rc = executor_finish(ex, cx, r, err);
    assert_false(executor_busy(ex));
    return rc;
}

/* The trace every fake run writes, decoded. */
static void check_fake_trace(const run_result *r, uint64_t x)
{
    assert_int_equal(r->ninputs, 1);
    assert_int_equal(r->inputs[0], x);
    assert_int_equal(r->itypes[0], IT_INT);
    assert_int_equal(r->iwidths[0], 32);
    assert_non_null(r->inames[0]);
    assert_string_equal(r->inames[0], NAME_TEXT);
    assert_int_equal(r->nevents, 1);
    const sym_event *ev = &r->events[0];
    assert_int_equal(ev->kind, BK_BRANCH);
    assert_int_equal(ev->taken, x == 42);
    assert_int_equal(ev->site, FAKE_SITE);
    assert_int_equal(ev->arg, 0);
    const expr *c = ev->cond;
    assert_non_null(c);
    assert_int_equal(c->op, EXPR_EQ);
    assert_int_equal(c->width, 1);
    assert_int_equal(c->kid[0]->op, EXPR_SYMBOL);
    assert_int_equal(c->kid[0]->aux, 0);
    assert_int_equal(c->kid[0]->width, 32);
    assert_int_equal(c->kid[1]->op, EXPR_CONST);
    assert_int_equal(c->kid[1]->value, 42);
    assert_int_equal(r->last_site, FAKE_SITE);
    assert_int_equal(r->conc[CONC_FLOAT], 2);
    assert_int_equal(r->forks, 1);
}

static void test_ok_runs(void **state)
{
    executor *ex = start("ok", 0, 2000);
    run_result r = {0};
    char *err = NULL;

    uint64_t in42[] = {42};
    assert_int_equal(run_once(ex, in42, 1, &r, &err), 0);
    assert_null(err);
    check_fake_trace(&r, 42);
    assert_true(r.ended);
    assert_int_equal(r.exit_code, 0);
    assert_int_equal(r.wait_status, 0);
    assert_int_equal(r.error, ERR_NONE);
    assert_false(r.assume_failed);
    assert_true(r.seconds >= 0 && r.seconds < 2);
    const uint8_t *cov = executor_coverage(ex);
    assert_int_equal(cov[0], 0);
    assert_int_equal(cov[1], 1);
    expr *first_cond = r.events[0].cond;

    /* The program's output went to the output file. */
    FILE *f = fopen(executor_output_path(ex), "r");
    assert_non_null(f);
    char line[128] = "";
    assert_non_null(fgets(line, sizeof line, f));
    fclose(f);
    assert_string_equal(line, "run 1 x=42\n");

    /* Another direction: coverage reset, the condition is the same interned node
     * (the symbol's and the eq's values differ, but expr_raw keeps the first). */
    run_result_clear(&r);
    uint64_t in5[] = {5};
    assert_int_equal(run_once(ex, in5, 1, &r, &err), 0);
    check_fake_trace(&r, 5);
    assert_int_equal(cov[0], 1);
    assert_int_equal(cov[1], 0);
    assert_ptr_equal(r.events[0].cond, first_cond);

    /* No inputs at all: input 0 reads as 0. */
    run_result_clear(&r);
    assert_int_equal(run_once(ex, NULL, 0, &r, &err), 0);
    check_fake_trace(&r, 0);
    run_result_clear(&r);

    assert_int_equal(executor_restarts(ex), 0);
    char *path = strdup(executor_output_path(ex));
    executor_stop(ex);
    assert_int_equal(access(path, F_OK), -1); /* output file removed */
    free(path);
}

static int count_fds(void)
{
    int n = 0;
    char path[64];
    for (int fd = 0; fd < 1024; fd++) {
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        n += access(path, F_OK) == 0;
    }
    return n;
}

/* Start, run, stop: no descriptor and no child process left behind. */
static void test_no_leaks(void **state)
{
    int fds = count_fds();
    executor *ex = start("ok", 0, 2000);
    run_result r = {0};
    char *err = NULL;
    assert_int_equal(run_once(ex, NULL, 0, &r, &err), 0);
    run_result_clear(&r);
    executor_stop(ex);
    assert_int_equal(count_fds(), fds);
    assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
    assert_int_equal(errno, ECHILD);
}

static volatile sig_atomic_t ticks;
static void on_tick(int sig) { ticks++; }

/* Signals arriving all the time (handler without SA_RESTART, like the explorer's
 * SIGINT handler) interrupt every system call; nothing may fail because of EINTR. */
static void test_eintr(void **state)
{
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_tick;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;
    sigaction(SIGALRM, &sa, &old);
    struct itimerval it = {{0, 500}, {0, 500}}, off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &it, NULL);

    executor *ex = start("hang", 0, 200);
    run_result r = {0};
    char *err = NULL;
    uint64_t ok[] = {42, 50, 1}, hang[] = {42};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(run_once(ex, ok, 3, &r, &err), 0);
        check_fake_trace(&r, 42);
        assert_int_equal(r.error, ERR_NONE);
        run_result_clear(&r);
    }
    assert_int_equal(run_once(ex, hang, 1, &r, &err), 0);
    assert_int_equal(r.error, ERR_TIMEOUT);
    run_result_clear(&r);
    executor_stop(ex);

    setitimer(ITIMER_REAL, &off, NULL);
    sigaction(SIGALRM, &old, NULL);
    assert_true(ticks > 10);
}

static void test_crash(void **state)
{
    executor *ex = start("crash", 0, 2000);
    run_result r = {0};
    char *err = NULL;
    uint64_t in[] = {42};
    assert_int_equal(run_once(ex, in, 1, &r, &err), 0);
    assert_null(err);
    check_fake_trace(&r, 42); /* the branch published before the crash is kept */
    assert_false(r.ended);
    assert_int_equal(r.error, ERR_SIGNAL);
    assert_int_equal(r.signo, SIGSEGV);
    assert_int_equal(r.exit_code, -1);
    assert_true(WIFSIGNALED(r.wait_status));
    assert_int_equal(WTERMSIG(r.wait_status), SIGSEGV);
    run_result_clear(&r);
    executor_stop(ex);
}

static void test_hang_times_out(void **state)
{
    const unsigned timeout_ms = 300;
    executor *ex = start("hang", 0, timeout_ms);
    run_result r = {0};
    char *err = NULL;
    uint64_t in[] = {1};
    double t0 = util_now_s();
    assert_int_equal(run_once(ex, in, 1, &r, &err), 0);
    double took = util_now_s() - t0;
    assert_null(err);
    assert_true(took >= timeout_ms / 1e3 - 0.01);
    assert_true(took < timeout_ms / 1e3 + 1.0);
    assert_int_equal(r.error, ERR_TIMEOUT);
    assert_int_equal(r.exit_code, -1);
    assert_int_equal(r.nevents, 1);
    assert_true(r.seconds >= timeout_ms / 1e3 - 0.01);
    run_result_clear(&r);

    /* The next run works (input 2 = 1: this run does not hang). */
    uint64_t in_ok[] = {42, 0, 1};
    assert_int_equal(run_once(ex, in_ok, 3, &r, &err), 0);
    assert_int_equal(r.error, ERR_NONE);
    assert_true(r.ended);
    check_fake_trace(&r, 42);
    run_result_clear(&r);
    executor_stop(ex);
}

static void test_die_before_handshake(void **state)
{
    char *err = NULL;
    executor *ex = start_bin("/proc/self/exe", "die", 0, 1000, &err);
    assert_null(ex);
    assert_non_null(err);
    assert_non_null(strstr(err, "did not start"));
    assert_non_null(strstr(err, "exited with status 127"));
    assert_non_null(strstr(err, "fake server: cannot open shared object libmissing.so"));
    free(err);
}

static void test_missing_binary(void **state)
{
    char *err = NULL;
    executor *ex = start_bin("/nonexistent/sympath-executor", "ok", 0, 1000, &err);
    assert_null(ex);
    assert_non_null(err);
    assert_non_null(strstr(err, "cannot execute /nonexistent/sympath-executor"));
    free(err);
}

static void test_two_executors(void **state)
{
    executor *exs[2] = {start("ok", 1, 5000), start("ok", 2, 5000)};
    run_result ra = {0}, rb = {0};
    char *err = NULL;
    uint64_t slow[] = {42, 300}, fast[] = {7, 0};
    assert_int_equal(executor_begin(exs[0], slow, 2, &err), 0);
    assert_int_equal(executor_begin(exs[1], fast, 2, &err), 0);
    assert_int_equal(executor_wait_any(exs, 2), 1);
    assert_int_equal(executor_wait_any(exs, 2), 1); /* still done, not yet collected */
    assert_int_equal(executor_finish(exs[1], cx, &rb, &err), 0);
    assert_int_equal(executor_wait_any(exs, 2), 0);
    assert_int_equal(executor_finish(exs[0], cx, &ra, &err), 0);
    assert_int_equal(executor_wait_any(exs, 2), -1); /* none busy */
    check_fake_trace(&ra, 42);
    check_fake_trace(&rb, 7);
    assert_true(ra.seconds >= 0.29);
    assert_int_equal(executor_coverage(exs[0])[1], 1);
    assert_int_equal(executor_coverage(exs[1])[0], 1);
    assert_string_not_equal(executor_output_path(exs[0]), executor_output_path(exs[1]));
    run_result_clear(&ra);
    run_result_clear(&rb);
    executor_stop(exs[0]);
    executor_stop(exs[1]);
}

static void test_malformed_trace(void **state)
{
    executor *ex = start("malformed", 0, 2000);
    run_result r = {0};
    char *err = NULL;
    uint64_t in[] = {42};
    assert_int_equal(run_once(ex, in, 1, &r, &err), -1);
    assert_non_null(err);
    assert_non_null(strstr(err, "unknown id 99"));
    free(err);
    check_fake_trace(&r, 42); /* everything before the bad record */
    assert_false(r.ended);
    assert_int_equal(r.exit_code, 0);
    run_result_clear(&r);
    executor_stop(ex);
}

static void test_server_dies_during_run(void **state)
{
    executor *ex = start("flaky", 0, 2000);
    run_result r = {0};
    char *err = NULL;
    uint64_t in[] = {42};
    assert_int_equal(run_once(ex, in, 1, &r, &err), -1);
    assert_non_null(err);
    assert_non_null(strstr(err, "fork server"));
    free(err);
    err = NULL;
    run_result_clear(&r);
    /* The next run restarts the server. */
    assert_int_equal(run_once(ex, in, 1, &r, &err), 0);
    assert_null(err);
    check_fake_trace(&r, 42);
    assert_true(r.ended);
    assert_int_equal(executor_restarts(ex), 1);
    run_result_clear(&r);
    executor_stop(ex);
}

/* A server that never reports the status of a killed run is given up after the
 * grace period and replaced at the next run. */
static void test_server_stuck(void **state)
{
    executor *ex = start("stuck", 0, 200);
    run_result r = {0};
    char *err = NULL;
    uint64_t in[] = {42, 5000}, ok[] = {42, 0, 1};
    double t0 = util_now_s();
    assert_int_equal(run_once(ex, in, 2, &r, &err), -1);
    double took = util_now_s() - t0;
    assert_true(took < 0.2 + 1.0 + 0.5);
    assert_non_null(err);
    assert_non_null(strstr(err, "fork server"));
    free(err);
    err = NULL;
    assert_int_equal(r.error, ERR_TIMEOUT);
    assert_int_equal(r.nevents, 1);
    run_result_clear(&r);
    assert_int_equal(run_once(ex, ok, 3, &r, &err), 0);
    check_fake_trace(&r, 42);
    assert_int_equal(r.error, ERR_NONE);
    assert_int_equal(executor_restarts(ex), 1);
    run_result_clear(&r);
    executor_stop(ex);
}

int main(void)
{
    const char *mode = getenv("FAKE_SERVER");
    if (mode) {
        fake_server(mode);
        return 0;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ok_runs),         cmocka_unit_test(test_no_leaks),
        cmocka_unit_test(test_eintr),           cmocka_unit_test(test_crash),
        cmocka_unit_test(test_hang_times_out),  cmocka_unit_test(test_die_before_handshake),
        cmocka_unit_test(test_missing_binary),  cmocka_unit_test(test_two_executors),
        cmocka_unit_test(test_malformed_trace), cmocka_unit_test(test_server_dies_during_run),
        cmocka_unit_test(test_server_stuck),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
