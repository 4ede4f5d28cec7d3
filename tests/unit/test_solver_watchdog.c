/* test_solver_watchdog.c: a query Z3 does not finish (a 64-bit mix) is interrupted near its timeout, also a deep one (solved in a child), at once by a Ctrl-C that stays the caller's, and at Z3's memory bound without ending the process. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <z3.h>

#include "solver/solver.h"
#include "util/util.h"

/* A 64-bit mix of two inputs (a multiply, shifts, xors, two odd constants) == a constant:
 * shallow, but Z3 4.8 bit-blasts it for minutes (test_interrupt.sh's program) */
static expr *hard_mix(expr_ctx *cx)
{
    expr *x = expr_symbol(cx, 0, 64, 0), *y = expr_symbol(cx, 1, 64, 0);
    expr *h = expr_binary(cx, EXPR_MUL, x, y);
    h = expr_binary(cx, EXPR_XOR, h, expr_binary(cx, EXPR_LSHR, h, expr_const(cx, 29, 64)));
    h = expr_binary(cx, EXPR_MUL, h, expr_const(cx, 0xbf58476d1ce4e5b9ull, 64));
    h = expr_binary(cx, EXPR_XOR, h,
                    expr_binary(cx, EXPR_MUL, expr_binary(cx, EXPR_LSHR, x, expr_const(cx, 31, 64)), y));
    h = expr_binary(cx, EXPR_MUL, h, expr_const(cx, 0x94d049bb133111ebull, 64));
    h = expr_binary(cx, EXPR_XOR, h, expr_binary(cx, EXPR_LSHR, h, expr_const(cx, 31, 64)));
    return expr_cmp(cx, PRED_EQ, h, expr_const(cx, 0x0123456789abcdefull, 64));
}

/* Solve q on s; its time in seconds in *dt. */
static solve_result solve_timed(solver *s, expr *q, double *dt)
{
    uint64_t *out = NULL;
    size_t n = 0;
    double t0 = util_now_s();
    solve_result r = solver_solve(s, &q, 1, NULL, 0, &out, &n);
    *dt = util_now_s() - t0;
    free(out);
    return r;
}

/* Solve q on s (a timeout of a fraction of a second): SAT is fine if Z3 happens to be quick; what matters is
 * that it ends near the timeout, well within 5 s. */
static void ends_near_timeout(solver *s, expr *q)
{
    double dt;
    solve_result r = solve_timed(s, q, &dt);
    assert_true(r == SOLVE_UNKNOWN || r == SOLVE_SAT);
    assert_true(dt < 5.0);
}

static void test_hard_query_is_cut(void **state)
{
    (void)state;
    expr_ctx *cx = expr_ctx_new();
    solver *s = solver_new(200);
    assert_non_null(s);
    ends_near_timeout(s, hard_mix(cx));
    solver_free(s);
    expr_ctx_free(cx);
}

/* x + x + ... (2101 times x, deeper than the solver's DEEP_QUERY) */
static expr *deep_chain(expr_ctx *cx, expr *x)
{
    expr *h = x;
    for (int i = 0; i < 2100; i++) h = expr_binary(cx, EXPR_ADD, h, x);
    return h;
}

/* A query deeper than DEEP_QUERY runs in a child killed at its time limit (Z3's preprocessing of such
 * chains outran its timeout and Z3_interrupt: tiny-AES-c held a 30 s run for minutes): an easy one still
 * answers SAT with its model through the pipe, a hard one ends near the timeout. */
static void test_deep_query_in_child(void **state)
{
    (void)state;
    expr_ctx *cx = expr_ctx_new();
    solver *s = solver_new(3000);
    assert_non_null(s);
    expr *x = expr_symbol(cx, 0, 64, 0);
    expr *easy = expr_cmp(cx, PRED_EQ, deep_chain(cx, x), expr_const(cx, 2101 * 7, 64));
    assert_true(easy->depth > 2000); /* not folded: the deep path is the one taken */
    uint64_t *out = NULL;
    size_t n = 0;
    assert_int_equal(solver_solve(s, &easy, 1, NULL, 0, &out, &n), SOLVE_SAT);
    assert_true(n >= 1);
    assert_int_equal(out[0] * 2101, 2101 * 7); /* 2101 is odd: x = 7 is the only answer */
    free(out);
    solver_free(s);
    s = solver_new(200);
    expr *hard = hard_mix(cx), *y = expr_symbol(cx, 1, 64, 0);
    hard = expr_and1(cx, hard, expr_cmp(cx, PRED_EQ, deep_chain(cx, y), expr_const(cx, 77, 64)));
    ends_near_timeout(s, hard);
    solver_free(s);
    expr_ctx_free(cx);
}

static volatile sig_atomic_t ctrl_c;

static void on_sigint(int sig)
{
    (void)sig;
    ctrl_c = 1;
}

static void *send_sigint_later(void *arg)
{
    (void)arg;
    usleep(300000);
    kill(getpid(), SIGINT);
    return NULL;
}

/* SIGINT during a 60 s query: our handler gets it (Z3 must not install its own and swallow
 * it), and the query ends within the watchdog's 50 ms poll, not at its timeout. */
static void test_ctrl_c_stops_query(void **state)
{
    (void)state;
    struct sigaction sa = {0}, old;
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old);
    expr_ctx *cx = expr_ctx_new();
    solver *s = solver_new(60000);
    assert_non_null(s);
    solver_stop_on(s, &ctrl_c);
    expr *target = hard_mix(cx);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, send_sigint_later, NULL), 0);
    uint64_t *out = NULL;
    size_t n = 0;
    double t0 = util_now_s();
    solve_result r = solver_solve(s, &target, 1, NULL, 0, &out, &n);
    double dt = util_now_s() - t0;
    pthread_join(th, NULL);
    free(out);
    if (r != SOLVE_SAT) { /* Z3 may be quick on a fast machine: then nothing was interrupted */
        assert_int_equal(r, SOLVE_UNKNOWN);
        assert_true(dt < 2.0); /* the query's timeout is 60 s */
    }
    assert_int_equal(ctrl_c, 1);
    sigaction(SIGINT, &old, NULL);
    solver_free(s);
    expr_ctx_free(cx);
}

/* Under the test hook solver_memory (Z3's bound 24 MB), the mix stops at the bound long before its 20 s
 * timeout; the bound is lifted after that check, so that releasing what the check built, which allocates
 * its work lists, cannot throw at the bound (std::terminate: a stb_c_lexer.h exploration lost every test
 * that way); a small query is still answered; releasing the solver does not end the process. In a child,
 * which ends with _exit: Z3 leaks a block on the path of the exception at its bound (262 KB, LeakSanitizer
 * in the sanitizer build), not ours to free. 0 when every step held, else the number of the step that did
 * not. */
static int memory_bound_steps(void)
{
    setenv("SYMPATH_FAULT", "solver_memory", 1);
    expr_ctx *cx = expr_ctx_new();
    solver *s = solver_new(20000);
    if (!s) return 1;
    double dt;
    if (solve_timed(s, hard_mix(cx), &dt) != SOLVE_UNKNOWN) return 2;
    if (dt >= 10.0) return 3;
    Z3_string v = NULL;
    if (!Z3_global_param_get("memory_max_size", &v) || strcmp(v, "0")) return 4;
    expr *x = expr_symbol(cx, 2, 32, 0);
    expr *easy = expr_cmp(cx, PRED_EQ, expr_binary(cx, EXPR_ADD, x, expr_const(cx, 3, 32)), expr_const(cx, 10, 32));
    if (solve_timed(s, easy, &dt) != SOLVE_SAT) return 5;
    solver_free(s);
    expr_ctx_free(cx);
    return 0;
}

static void test_memory_bound(void **state)
{
    (void)state;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) _exit(memory_bound_steps());
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st)); /* not std::terminate's SIGABRT */
    assert_int_equal(WEXITSTATUS(st), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_hard_query_is_cut),
                                       cmocka_unit_test(test_deep_query_in_child),
                                       cmocka_unit_test(test_ctrl_c_stops_query), cmocka_unit_test(test_memory_bound)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
