/* mpi_link_driver.c: exercises the MPI par_link and the build shipping in every rank of `mpirun -np 3` (tests/e2e/test_mpi_link.sh). */
#define _GNU_SOURCE
#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "parallel/parallel.h"
#include "util/util.h"

/* Usage: mpi_link_driver DIR. Rank 0 writes DIR/src/executor and DIR/src/sites.tsv and ships
 * them; worker R writes them to DIR/rank-R/ (the script compares). Each rank prints
 * "PASS rank R" at the end, or "FAIL rank R: what" and exits 1. */

static int self;

#define CHECK(cond, ...)                                                 \
    do {                                                                 \
        if (!(cond)) {                                                   \
            fprintf(stderr, "FAIL rank %d (line %d): ", self, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                                \
            fputc('\n', stderr);                                         \
            exit(1); /* mpirun ends the other ranks */                   \
        }                                                                \
    } while (0)

/* The sizes of the bulk messages each side sends the other: an empty payload, 100 KB, 4 MB. */
static const size_t sizes[] = {0, 100 * 1024, 4 * 1024 * 1024};
#define NSIZES (sizeof sizes / sizeof sizes[0])

/* Byte i of the bulk message of size n from rank src: every message distinct. */
static uint8_t pattern(int src, size_t n, size_t i)
{
    return (uint8_t)(i * 31 + n * 7 + (size_t)src * 101 + (i >> 12));
}

static void send_bulk(par_link *l, int dest)
{
    for (size_t k = 0; k < NSIZES; k++) {
        par_msg m;
        par_msg_init(&m, 10);
        if (sizes[k]) {
            uint8_t *p = malloc(sizes[k]);
            CHECK(p, "out of memory");
            for (size_t i = 0; i < sizes[k]; i++) p[i] = pattern(l->self, sizes[k], i);
            par_put_bytes(&m, p, sizes[k]);
            free(p);
        }
        CHECK(par_send(l, dest, &m) == 0, "send of %zu bytes to %d failed", sizes[k], dest);
        par_msg_free(&m);
    }
}

/* Receive one bulk message (from src, or any when src < 0) and check it; returns its sender. */
static int recv_bulk(par_link *l, int src, size_t k)
{
    par_msg m;
    par_msg_init(&m, 0);
    int from = -1;
    CHECK(par_recv(l, &from, &m, 20000) == 1, "no bulk message %zu within 20 s", k);
    CHECK(src < 0 || from == src, "bulk message from %d, expected %d", from, src);
    CHECK(m.type == 10, "bulk message of type %d", m.type);
    if (sizes[k] == 0) {
        CHECK(m.len == 0, "empty payload arrived with %zu bytes", m.len);
    } else {
        size_t n = 0;
        const uint8_t *p = par_get_bytes(&m, &n);
        CHECK(p && n == sizes[k] && !m.bad, "bulk message %zu: %zu bytes, expected %zu", k, n, sizes[k]);
        for (size_t i = 0; i < n; i++)
            CHECK(p[i] == pattern(from, n, i), "byte %zu of %zu from %d differs", i, n, from);
    }
    par_msg_free(&m);
    return from;
}

/* Every field kind, written by rank 0, read back and echoed by the worker, checked again by 0. */
static void put_fields(par_msg *m, uint32_t salt)
{
    par_put_u8(m, 0xab);
    par_put_u32(m, 0xdeadbeefu ^ salt);
    par_put_u64(m, 0x0123456789abcdefull + salt);
    par_put_f64(m, -1.5e300);
    par_put_f64(m, NAN);
    par_put_str(m, "fields");
    par_put_str(m, NULL);
    par_put_str(m, "");
    par_put_bytes(m, "\0\1\2", 3);
}

static void check_fields(par_msg *m, uint32_t salt)
{
    CHECK(par_get_u8(m) == 0xab, "u8");
    CHECK(par_get_u32(m) == (0xdeadbeefu ^ salt), "u32");
    CHECK(par_get_u64(m) == 0x0123456789abcdefull + salt, "u64");
    CHECK(par_get_f64(m) == -1.5e300, "f64");
    CHECK(isnan(par_get_f64(m)), "f64 NaN");
    char *s = par_get_str(m);
    CHECK(s && !strcmp(s, "fields"), "str");
    free(s);
    CHECK(par_get_str(m) == NULL && !m->bad, "NULL str");
    s = par_get_str(m);
    CHECK(s && !*s, "empty str");
    free(s);
    size_t n = 0;
    const uint8_t *p = par_get_bytes(m, &n);
    CHECK(p && n == 3 && !memcmp(p, "\0\1\2", 3), "bytes");
    CHECK(!m->bad && m->pos == m->len, "fields: bad %d, %zu of %zu bytes read", m->bad, m->pos, m->len);
    par_get_u8(m);
    CHECK(m->bad, "a read past the end is not flagged");
}

static void test_fields(par_link *l)
{
    par_msg m;
    if (l->self == 0) {
        for (int w = 1; w <= l->nworkers; w++) {
            par_msg_init(&m, 42);
            put_fields(&m, (uint32_t)w);
            CHECK(par_send(l, w, &m) == 0, "send fields");
            par_msg_free(&m);
        }
        for (int k = 0; k < l->nworkers; k++) {
            int from = -1;
            par_msg_init(&m, 0);
            int rc = par_recv(l, &from, &m, 20000);
            CHECK(rc == 1 && m.type == 43, "no echo: rc %d, type %d from %d", rc, m.type, from);
            check_fields(&m, (uint32_t)from);
            par_msg_free(&m);
        }
    } else {
        int from = -1;
        par_msg_init(&m, 0);
        CHECK(par_recv(l, &from, &m, 20000) == 1 && from == 0 && m.type == 42, "no fields message");
        check_fields(&m, (uint32_t)l->self);
        par_msg_free(&m);
        par_msg_init(&m, 43);
        put_fields(&m, (uint32_t)l->self);
        CHECK(par_send(l, 0, &m) == 0, "send echo");
        par_msg_free(&m);
        /* a worker talks to 0 only */
        CHECK(l->send(l, l->self == 1 ? 2 : 1, "x", 1) == -1, "a worker could send to a worker");
    }
    MPI_Barrier(MPI_COMM_WORLD); /* the next test's messages do not mix with these */
}

/* Both directions at once: everyone sends all its bulk messages before receiving any. */
static void test_bulk(par_link *l)
{
    if (l->self == 0) {
        for (int w = 1; w <= l->nworkers; w++) send_bulk(l, w);
        int seen[8] = {0};
        for (int k = 0; k < (int)NSIZES * l->nworkers; k++) {
            /* per worker, the sizes come in the order sent */
            par_msg m;
            par_msg_init(&m, 0);
            int from = -1;
            CHECK(par_recv(l, &from, &m, 20000) == 1, "no bulk message");
            CHECK(from >= 1 && from <= l->nworkers && from < 8, "bulk message from %d", from);
            size_t want = sizes[seen[from]++];
            size_t n = 0;
            const uint8_t *p = want ? par_get_bytes(&m, &n) : NULL;
            CHECK(m.type == 10 && !m.bad && n == want && (want == 0 ? m.len == 0 : p != NULL),
                  "bulk from %d: %zu bytes, expected %zu", from, n, want);
            for (size_t i = 0; i < n; i++) CHECK(p[i] == pattern(from, n, i), "byte %zu from %d", i, from);
            par_msg_free(&m);
        }
    } else {
        send_bulk(l, 0);
        for (size_t k = 0; k < NSIZES; k++) recv_bulk(l, 0, k);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    /* a raw empty frame passes too (par_recv makes it a bad message) */
    if (l->self != 0) CHECK(l->send(l, 0, NULL, 0) == 0, "empty frame");
    if (l->self == 0)
        for (int k = 0; k < l->nworkers; k++) {
            void *buf = NULL;
            size_t len = 9;
            int from = -1;
            CHECK(l->recv(l, &from, &buf, &len, 20000) == 1 && len == 0 && buf, "empty frame not received");
            free(buf);
        }
}

static void test_timeout(par_link *l)
{
    MPI_Barrier(MPI_COMM_WORLD); /* everything sent so far is received */
    void *buf = NULL;
    size_t len = 0;
    int from = -1;
    double t0 = util_now_s();
    CHECK(l->recv(l, &from, &buf, &len, 0) == 0, "recv(0) with nothing there");
    int rc = l->recv(l, &from, &buf, &len, 200);
    double dt = util_now_s() - t0;
    CHECK(rc == 0, "recv(200 ms) with nothing there returned %d", rc);
    CHECK(dt >= 0.19 && dt < 1.0, "recv(200 ms) returned after %.3f s", dt);
}

/* Rank 0 ships DIR/src/{executor,sites.tsv}; then a second round says "no build" (code 7). */
static void test_ship(par_link *l, const char *dir)
{
    char *err = NULL;
    if (l->self == 0) {
        char *src = util_strf("%s/src", dir), *exe = util_strf("%s/src/executor", dir);
        char *sites = util_strf("%s/src/sites.tsv", dir);
        CHECK(util_mkdir_p(src) == 0, "mkdir %s", src);
        size_t n = 3 * 1024 * 1024 + 17;
        uint8_t *p = malloc(n);
        CHECK(p, "out of memory");
        for (size_t i = 0; i < n; i++) p[i] = pattern(99, n, i);
        CHECK(util_write_atomic(exe, p, n) == 0, "write %s", exe);
        free(p);
        const char *text = "site\tfile\tline\n0\tprog.c\t3\n";
        CHECK(util_write_atomic(sites, text, strlen(text)) == 0, "write %s", sites);
        unsigned char shipped[8] = {0};
        CHECK(parallel_ship_build(l, exe, sites, shipped, &err) == 0, "ship: %s", err);
        for (int w = 1; w <= l->nworkers; w++) CHECK(shipped[w - 1] == 1, "worker %d not marked shipped", w);
        char *missing = util_strf("%s/src/none", dir);
        CHECK(parallel_ship_build(l, missing, sites, NULL, &err) == -1 && err && strstr(err, "cannot read"),
              "shipping a missing file: %s", err ? err : "no error");
        free(err);
        for (int w = 1; w <= l->nworkers; w++) CHECK(parallel_ship_none(l, w, 7) == 0, "ship none");
        free(missing);
        free(src);
        free(exe);
        free(sites);
    } else {
        char *rdir = util_strf("%s/rank-%d", dir, l->self);
        char exe[PATH_MAX + 16], sites[PATH_MAX + 16];
        int code = -1;
        int rc = parallel_receive_build(l, rdir, exe, sites, &code, &err);
        CHECK(rc == 1, "receive build: %d %s", rc, err ? err : "");
        struct stat st;
        CHECK(stat(exe, &st) == 0 && (st.st_mode & 0777) == 0755 && st.st_size == 3 * 1024 * 1024 + 17,
              "received executor %s: wrong mode or size", exe);
        CHECK(stat(sites, &st) == 0 && (st.st_mode & 0777) == 0644, "received site table %s", sites);
        rc = parallel_receive_build(l, rdir, exe, sites, &code, &err);
        CHECK(rc == 0 && code == 7, "no-build: rc %d code %d", rc, code);
        free(rdir);
    }
}

/* Workers close first; rank 0's recv then says -1 (every peer gone) without waiting its time-out. */
static void test_close(par_link *l)
{
    if (l->self != 0) {
        l->close(l);
        return;
    }
    void *buf = NULL;
    size_t len = 0;
    int from = -1, rc;
    double t0 = util_now_s();
    while ((rc = l->recv(l, &from, &buf, &len, 5000)) == 1) free(buf);
    CHECK(rc == -1, "recv after every worker closed returned %d", rc);
    CHECK(util_now_s() - t0 < 4.0, "recv waited for its time-out after every worker closed");
    CHECK(l->send(l, 1, "x", 1) == -1, "send to a closed worker succeeded");
    l->close(l);
}

int main(int argc, char **argv)
{
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &self);
    if (argc != 2) {
        fprintf(stderr, "usage: mpirun -np 3 mpi_link_driver DIR\n");
        return 2;
    }
    char *err = NULL;
    par_link *l = parallel_mpi_link_new(&err);
    CHECK(l, "link: %s", err);
    CHECK(l->self == self && l->nworkers >= 2, "self %d, nworkers %d", l->self, l->nworkers);
    test_fields(l);
    test_bulk(l);
    test_timeout(l);
    test_ship(l, argv[1]);
    test_close(l);
    MPI_Finalize();
    printf("PASS rank %d\n", self);
    return 0;
}
