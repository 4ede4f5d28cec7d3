/* test_proto_par.c: the messages of a parallel exploration: fields round-trip, short messages are caught, the socket link carries big messages both ways at once and says when a peer is gone. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "proto/proto.h"
#include "util/util.h"

static void test_fields_round_trip(void **state)
{
    (void)state;
    par_msg m;
    par_msg_init(&m, 7);
    par_put_u8(&m, 0xab);
    par_put_u32(&m, 0xdeadbeef);
    par_put_u64(&m, 0x0123456789abcdefull);
    par_put_f64(&m, -2.5e-300);
    par_put_bytes(&m, "x\0y", 3);
    par_put_str(&m, "hello");
    par_put_str(&m, NULL);
    par_put_str(&m, "");
    assert_false(m.bad);
    assert_int_equal(par_get_u8(&m), 0xab);
    assert_int_equal(par_get_u32(&m), 0xdeadbeef);
    assert_true(par_get_u64(&m) == 0x0123456789abcdefull);
    assert_true(par_get_f64(&m) == -2.5e-300);
    size_t n;
    const uint8_t *b = par_get_bytes(&m, &n);
    assert_int_equal(n, 3);
    assert_memory_equal(b, "x\0y", 3);
    char *s = par_get_str(&m);
    assert_string_equal(s, "hello");
    free(s);
    assert_null(par_get_str(&m));
    assert_false(m.bad);
    s = par_get_str(&m);
    assert_string_equal(s, "");
    free(s);
    assert_false(m.bad);
    /* past the end: zero and bad */
    assert_int_equal(par_get_u32(&m), 0);
    assert_true(m.bad);
    par_msg_free(&m);
}

static void test_short_message(void **state)
{
    (void)state;
    par_msg m;
    par_msg_init(&m, 1);
    par_put_u32(&m, 1000); /* a byte string that claims 1000 bytes */
    par_put_u8(&m, 1);
    size_t n;
    assert_null(par_get_bytes(&m, &n));
    assert_true(m.bad);
    assert_int_equal(n, 0);
    par_msg_free(&m);
    /* a bad message is not sent */
    par_msg_init(&m, 1);
    m.bad = 1;
    int sv[2];
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    par_link *l = par_link_fd_new(1, 1, &sv[0]);
    assert_int_equal(par_send(l, 0, &m), -1);
    l->close(l);
    close(sv[1]);
}

/* A message of n bytes whose content depends on seed. */
static void fill(par_msg *m, uint8_t type, size_t n, unsigned seed)
{
    uint8_t *p = malloc(n ? n : 1);
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(i * 31 + seed);
    par_msg_init(m, type);
    par_put_u32(m, seed);
    par_put_bytes(m, p, n);
    free(p);
}

static int check(par_msg *m, uint8_t type, size_t n)
{
    if (m->type != type) return 0;
    unsigned seed = par_get_u32(m);
    size_t got;
    const uint8_t *p = par_get_bytes(m, &got);
    if (m->bad || got != n) return 0;
    for (size_t i = 0; i < n; i++)
        if (p[i] != (uint8_t)(i * 31 + seed)) return 0;
    return 1;
}

/* Two workers and a coordinator: every side sends 4 MiB messages before reading anything
 * (a link that blocked in send would dead-lock here), then each checks what it got. */
static void test_big_messages_both_ways(void **state)
{
    (void)state;
    enum { NW = 2 };
    const size_t sizes[] = {0, 100 * 1024, 4u << 20};
    int coord_fds[NW];
    pid_t pids[NW];
    for (int w = 1; w <= NW; w++) {
        int sv[2];
        assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            close(sv[0]);
            for (int k = 0; k < w - 1; k++) close(coord_fds[k]);
            alarm(30);
            par_link *l = par_link_fd_new(w, NW, &sv[1]);
            for (size_t k = 0; k < 3; k++) {
                par_msg m;
                fill(&m, 10, sizes[k], (unsigned)(w * 10 + k));
                if (par_send(l, 0, &m) != 0) _exit(2);
                par_msg_free(&m);
            }
            int ok = 1;
            for (size_t k = 0; k < 3; k++) {
                par_msg m;
                par_msg_init(&m, 0);
                int src;
                if (par_recv(l, &src, &m, 20000) != 1 || src != 0) _exit(3);
                /* the coordinator's seed is 100 + k: check the content */
                unsigned seed = par_get_u32(&m);
                size_t got;
                const uint8_t *p = par_get_bytes(&m, &got);
                ok = ok && !m.bad && seed == 100 + k && got == sizes[k];
                for (size_t i = 0; ok && i < got; i++) ok = p[i] == (uint8_t)(i * 31 + seed);
                par_msg_free(&m);
            }
            l->close(l);
            _exit(ok ? 0 : 4);
        }
        close(sv[1]);
        coord_fds[w - 1] = sv[0];
        pids[w - 1] = pid;
    }
    par_link *l = par_link_fd_new(0, NW, coord_fds);
    assert_non_null(l);
    for (int w = 1; w <= NW; w++)
        for (size_t k = 0; k < 3; k++) {
            par_msg m;
            fill(&m, 11, sizes[k], (unsigned)(100 + k));
            assert_int_equal(par_send(l, w, &m), 0);
            par_msg_free(&m);
        }
    int got[NW + 1] = {0}, closed = 0;
    for (int i = 0; i < NW * 3;) {
        par_msg m;
        par_msg_init(&m, 0);
        int src = -1;
        assert_int_equal(par_recv(l, &src, &m, 20000), 1);
        assert_true(src >= 1 && src <= NW);
        if (m.bad && m.len == 0) { /* a worker that got all its messages may close before the other sent all */
            assert_int_equal(got[src], 3);
            closed++;
            continue;
        }
        i++;
        /* messages of one peer arrive in order */
        unsigned seed = (unsigned)(src * 10 + got[src]);
        size_t save = m.pos;
        assert_int_equal(par_get_u32(&m), seed);
        m.pos = save;
        assert_true(check(&m, 10, sizes[got[src]]));
        got[src]++;
        par_msg_free(&m);
    }
    /* then each worker closes its end: one empty message from each, then -1 */
    for (;;) {
        par_msg m;
        par_msg_init(&m, 0);
        int src;
        int rc = par_recv(l, &src, &m, 20000);
        if (rc < 0) break;
        assert_int_equal(rc, 1);
        assert_true(m.bad);
        assert_int_equal(m.len, 0);
        closed++;
        par_msg_free(&m);
    }
    assert_int_equal(closed, NW);
    for (int w = 0; w < NW; w++) {
        int st;
        assert_int_equal(waitpid(pids[w], &st, 0), pids[w]);
        assert_true(WIFEXITED(st));
        assert_int_equal(WEXITSTATUS(st), 0);
    }
    l->close(l);
}

static void test_recv_timeout(void **state)
{
    (void)state;
    int sv[2];
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    par_link *l = par_link_fd_new(1, 1, &sv[0]);
    par_msg m;
    par_msg_init(&m, 0);
    int src;
    double t0 = util_now_s();
    assert_int_equal(par_recv(l, &src, &m, 50), 0);
    double dt = util_now_s() - t0;
    assert_true(dt >= 0.04 && dt < 2.0);
    par_msg_free(&m);
    l->close(l);
    close(sv[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fields_round_trip),
        cmocka_unit_test(test_short_message),
        cmocka_unit_test(test_big_messages_both_ways),
        cmocka_unit_test(test_recv_timeout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
