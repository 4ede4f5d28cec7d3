/* par.c: messages of a parallel exploration (field codec) and the link over sockets between processes of one machine. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "proto.h"

/* ---- codec ---- */

void par_msg_init(par_msg *m, uint8_t type)
{
    memset(m, 0, sizeof *m);
    m->type = type;
}

static void put(par_msg *m, const void *p, size_t n)
{
    if (m->bad) return;
    if (m->len + n > m->cap) {
        size_t nc = m->cap ? m->cap : 64;
        while (nc < m->len + n) nc *= 2;
        uint8_t *nb = realloc(m->buf, nc);
        if (!nb) {
            m->bad = 1;
            return;
        }
        m->buf = nb;
        m->cap = nc;
    }
    if (n) memcpy(m->buf + m->len, p, n);
    m->len += n;
}

static void put_le(par_msg *m, uint64_t v, int bytes)
{
    uint8_t b[8];
    for (int i = 0; i < bytes; i++) b[i] = (uint8_t)(v >> (8 * i));
    put(m, b, (size_t)bytes);
}

void par_put_u8(par_msg *m, uint8_t v) { put_le(m, v, 1); }
void par_put_u32(par_msg *m, uint32_t v) { put_le(m, v, 4); }
void par_put_u64(par_msg *m, uint64_t v) { put_le(m, v, 8); }

void par_put_f64(par_msg *m, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    put_le(m, u, 8);
}

void par_put_bytes(par_msg *m, const void *p, size_t n)
{
    if (n >= 0xffffffffu) {
        m->bad = 1;
        return;
    }
    par_put_u32(m, (uint32_t)n);
    put(m, p, n);
}

void par_put_str(par_msg *m, const char *s)
{
    if (!s)
        par_put_u32(m, 0xffffffffu);
    else
        par_put_bytes(m, s, strlen(s));
}

static uint64_t get_le(par_msg *m, int bytes)
{
    if (m->bad || m->len - m->pos < (size_t)bytes || m->pos > m->len) {
        m->bad = 1;
        return 0;
    }
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++) v |= (uint64_t)m->buf[m->pos + i] << (8 * i);
    m->pos += (size_t)bytes;
    return v;
}

uint8_t par_get_u8(par_msg *m) { return (uint8_t)get_le(m, 1); }
uint32_t par_get_u32(par_msg *m) { return (uint32_t)get_le(m, 4); }
uint64_t par_get_u64(par_msg *m) { return get_le(m, 8); }

double par_get_f64(par_msg *m)
{
    uint64_t u = get_le(m, 8);
    double v;
    memcpy(&v, &u, sizeof v);
    return v;
}

const uint8_t *par_get_bytes(par_msg *m, size_t *n)
{
    uint32_t len = par_get_u32(m);
    *n = 0;
    if (m->bad || len == 0xffffffffu || m->len - m->pos < len) {
        if (len != 0xffffffffu) m->bad = 1;
        return NULL;
    }
    const uint8_t *p = m->buf + m->pos;
    m->pos += len;
    *n = len;
    return p;
}

char *par_get_str(par_msg *m)
{
    size_t save = m->pos;
    uint32_t len = par_get_u32(m);
    if (m->bad || len == 0xffffffffu) return NULL;
    m->pos = save;
    size_t n;
    const uint8_t *p = par_get_bytes(m, &n);
    if (!p && n == 0 && m->bad) return NULL;
    char *s = malloc(n + 1);
    if (!s) return NULL;
    if (n) memcpy(s, p, n);
    s[n] = 0;
    return s;
}

void par_msg_free(par_msg *m)
{
    free(m->buf);
    m->buf = NULL;
    m->len = m->cap = m->pos = 0;
}

int par_send(par_link *l, int dest, const par_msg *m)
{
    if (m->bad) return -1;
    uint8_t *frame = malloc(m->len + 1);
    if (!frame) return -1;
    frame[0] = m->type;
    if (m->len) memcpy(frame + 1, m->buf, m->len);
    int rc = l->send(l, dest, frame, m->len + 1);
    free(frame);
    return rc;
}

int par_recv(par_link *l, int *src, par_msg *m, int timeout_ms)
{
    void *buf = NULL;
    size_t len = 0;
    int rc = l->recv(l, src, &buf, &len, timeout_ms);
    if (rc != 1) return rc;
    par_msg_free(m);
    par_msg_init(m, 0);
    if (len == 0) {
        m->bad = 1;
        free(buf);
        return 1;
    }
    m->type = ((uint8_t *)buf)[0];
    memmove(buf, (uint8_t *)buf + 1, len - 1);
    m->buf = buf;
    m->len = m->cap = len - 1;
    return 1;
}

/* ---- the socket link ---- */

/* A received frame waiting for recv (read while a send waited for room). */
typedef struct fd_frame {
    int src;
    void *buf;
    size_t len;
    struct fd_frame *next;
} fd_frame;

/* A frame being received: its length header, then its body, as bytes come in. */
typedef struct fd_rx {
    uint8_t hdr[4];
    size_t hdr_got;
    uint8_t *buf;
    size_t len, got;
} fd_rx;

typedef struct fd_link {
    par_link base;
    int nfds;
    int *fds;            /* endpoint of fds[i]: coordinator: i + 1; worker: 0 */
    fd_rx *rx;           /* per descriptor: the frame being received */
    fd_frame *q, *qtail; /* frames complete and not yet returned by recv, oldest first */
    int alive;           /* peers not yet closed */
} fd_link;

static int endpoint_of(const fd_link *f, int i) { return f->base.self == 0 ? i + 1 : 0; }

static void enqueue(fd_link *f, int src, void *buf, size_t len)
{
    fd_frame *fr = malloc(sizeof *fr);
    if (!fr) {
        free(buf);
        return;
    }
    fr->src = src;
    fr->buf = buf;
    fr->len = len;
    fr->next = NULL;
    if (f->qtail)
        f->qtail->next = fr;
    else
        f->q = fr;
    f->qtail = fr;
}

/* Read what fds[i] has without blocking (readers never wait for the rest of a frame: two
 * peers sending to each other at once must both get on). Complete frames go to the queue;
 * a closed or broken peer's descriptor is closed and one empty frame says so. */
static void read_some(fd_link *f, int i)
{
    fd_rx *x = &f->rx[i];
    for (;;) {
        ssize_t k;
        if (x->hdr_got < 4) {
            k = recv(f->fds[i], x->hdr + x->hdr_got, 4 - x->hdr_got, MSG_DONTWAIT);
        } else {
            if (!x->buf) {
                x->len = (size_t)x->hdr[0] | (size_t)x->hdr[1] << 8 | (size_t)x->hdr[2] << 16 | (size_t)x->hdr[3] << 24;
                x->buf = malloc(x->len ? x->len : 1);
                x->got = 0;
                if (!x->buf) goto gone;
            }
            k = x->len > x->got ? recv(f->fds[i], x->buf + x->got, x->len - x->got, MSG_DONTWAIT) : 0;
            if (x->len == x->got)
                k = 1; /* complete (an empty body needs no read) */
            else if (k > 0)
                x->got += (size_t)k;
        }
        if (k == 0) goto gone;
        if (k < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) return;
            goto gone;
        }
        if (x->hdr_got < 4) {
            x->hdr_got += (size_t)k;
            continue;
        }
        if (x->got == x->len) {
            enqueue(f, endpoint_of(f, i), x->buf, x->len);
            memset(x, 0, sizeof *x);
        }
    }
gone:
    free(x->buf);
    memset(x, 0, sizeof *x);
    close(f->fds[i]);
    f->fds[i] = -1;
    f->alive--;
    enqueue(f, endpoint_of(f, i), NULL, 0);
}

/* Wait up to timeout_ms for input on any live descriptor and read one frame from each
 * readable one. Returns the number of descriptors that were readable. */
static int pump(fd_link *f, int timeout_ms, int out_fd, int *writable)
{
    struct pollfd pf[f->nfds + 1];
    int n = 0;
    for (int i = 0; i < f->nfds; i++) {
        pf[n].fd = f->fds[i];
        pf[n].events = POLLIN;
        pf[n].revents = 0;
        n++;
    }
    if (out_fd >= 0) {
        pf[n].fd = out_fd;
        pf[n].events = POLLOUT;
        pf[n].revents = 0;
        n++;
    }
    int r = poll(pf, (nfds_t)n, timeout_ms);
    if (r <= 0) return 0;
    int got = 0;
    for (int i = 0; i < f->nfds; i++)
        if (f->fds[i] >= 0 && (pf[i].revents & (POLLIN | POLLHUP | POLLERR))) {
            read_some(f, i);
            got++;
        }
    if (writable) *writable = out_fd >= 0 && (pf[f->nfds].revents & (POLLOUT | POLLERR | POLLHUP)) != 0;
    return got;
}

static int fd_send(par_link *l, int dest, const void *buf, size_t len)
{
    fd_link *f = (fd_link *)l;
    int i = l->self == 0 ? dest - 1 : 0;
    if (i < 0 || i >= f->nfds || f->fds[i] < 0 || len > 0xffffffffu) return -1;
    uint8_t hdr[4] = {(uint8_t)len, (uint8_t)(len >> 8), (uint8_t)(len >> 16), (uint8_t)(len >> 24)};
    const uint8_t *parts[2] = {hdr, buf};
    size_t sizes[2] = {4, len};
    for (int p = 0; p < 2; p++) {
        size_t off = 0;
        while (off < sizes[p]) {
            ssize_t k = send(f->fds[i], parts[p] + off, sizes[p] - off, MSG_DONTWAIT | MSG_NOSIGNAL);
            if (k > 0) {
                off += (size_t)k;
                continue;
            }
            if (k < 0 && errno == EINTR) continue;
            if (k < 0 && errno != EAGAIN && errno != EWOULDBLOCK) return -1;
            /* no room: read what the peers send meanwhile (a peer may be waiting for room
             * to send to us), then try again */
            int w = 0;
            pump(f, 1000, f->fds[i], &w);
            if (f->fds[i] < 0) return -1;
        }
    }
    return 0;
}

static int fd_recv(par_link *l, int *src, void **buf, size_t *len, int timeout_ms)
{
    fd_link *f = (fd_link *)l;
    /* a frame may come in pieces: wait for a whole one until the time is up */
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while (!f->q && f->alive > 0) {
        int wait = timeout_ms;
        if (timeout_ms > 0) {
            struct timespec t;
            clock_gettime(CLOCK_MONOTONIC, &t);
            long spent = (t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000;
            if (spent >= timeout_ms) break;
            wait = timeout_ms - (int)spent;
        }
        if (pump(f, wait, -1, NULL) == 0 && timeout_ms >= 0) break; /* time-out or signal */
    }
    if (!f->q) return f->alive <= 0 ? -1 : 0;
    fd_frame *fr = f->q;
    f->q = fr->next;
    if (!f->q) f->qtail = NULL;
    *src = fr->src;
    *buf = fr->buf;
    *len = fr->len;
    free(fr);
    return 1;
}

static void fd_close(par_link *l)
{
    fd_link *f = (fd_link *)l;
    if (!f) return;
    for (int i = 0; i < f->nfds; i++)
        if (f->fds[i] >= 0) close(f->fds[i]);
    while (f->q) {
        fd_frame *n = f->q->next;
        free(f->q->buf);
        free(f->q);
        f->q = n;
    }
    for (int i = 0; f->rx && i < f->nfds; i++) free(f->rx[i].buf);
    free(f->rx);
    free(f->fds);
    free(f);
}

par_link *par_link_fd_new(int self, int nworkers, const int *fds)
{
    fd_link *f = calloc(1, sizeof *f);
    int n = self == 0 ? nworkers : 1;
    if (!f || n < 1 || !(f->fds = malloc((size_t)n * sizeof *f->fds)) || !(f->rx = calloc((size_t)n, sizeof *f->rx))) {
        if (f) free(f->fds);
        free(f);
        return NULL;
    }
    memcpy(f->fds, fds, (size_t)n * sizeof *fds);
    f->nfds = f->alive = n;
    f->base.self = self;
    f->base.nworkers = nworkers;
    f->base.send = fd_send;
    f->base.recv = fd_recv;
    f->base.close = fd_close;
    f->base.impl = f;
    return &f->base;
}
