/* mpi_link.c: the par_link between the ranks of an Open MPI job (point-to-point in MPI_COMM_WORLD). */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "parallel.h"
#include "util/util.h"

/* Tags: every message of the par_link is TAG_DATA; TAG_BYE (empty) says the sender closed.
 * Receives always match any tag, so that MPI's order between two ranks (messages that match
 * the same receive are not overtaken) puts a peer's BYE after all its data. */
enum { TAG_DATA = 1, TAG_BYE = 2 };

/* A received message waiting for recv (read while a send waited for its peer). */
typedef struct mpi_frame {
    int src;
    void *buf;
    size_t len;
    struct mpi_frame *next;
} mpi_frame;

typedef struct mpi_link {
    par_link base;
    int size;             /* ranks in MPI_COMM_WORLD = nworkers + 1 */
    unsigned char *open;  /* open[r]: rank r has not said BYE (open[self] unused) */
    int peers;            /* peers this rank talks to (0's: every worker; a worker's: 0) still open */
    mpi_frame *q, *qtail; /* messages received ahead, oldest first */
    int broken;           /* an MPI receive failed: the link is unusable */
} mpi_link;

static int is_peer(const mpi_link *m, int r)
{
    if (r < 0 || r >= m->size || r == m->base.self) return 0;
    return m->base.self == 0 || r == 0;
}

/* Receive every message that has arrived (MPI_Iprobe says so) into the queue; a BYE marks its
 * sender closed. Returns the number of messages taken, or -1 when a receive failed. */
static int drain(mpi_link *m)
{
    int taken = 0;
    for (;;) {
        int flag = 0;
        MPI_Status st;
        if (MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st) != MPI_SUCCESS) return -1;
        if (!flag) return taken;
        int count = 0;
        MPI_Get_count(&st, MPI_BYTE, &count);
        void *buf = malloc(count > 0 ? (size_t)count : 1);
        mpi_frame *fr = malloc(sizeof *fr);
        if (!buf || !fr ||
            MPI_Recv(buf, count, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE) !=
                MPI_SUCCESS) {
            free(buf);
            free(fr);
            return -1;
        }
        taken++;
        if (st.MPI_TAG == TAG_BYE || !is_peer(m, st.MPI_SOURCE)) {
            /* a BYE, or a message from a rank this one does not talk to (a worker to a worker:
             * not in the protocol), which is dropped */
            if (st.MPI_TAG == TAG_BYE && is_peer(m, st.MPI_SOURCE) && m->open[st.MPI_SOURCE]) {
                m->open[st.MPI_SOURCE] = 0;
                m->peers--;
            }
            free(buf);
            free(fr);
            continue;
        }
        fr->src = st.MPI_SOURCE;
        fr->buf = buf;
        fr->len = (size_t)count;
        fr->next = NULL;
        if (m->qtail)
            m->qtail->next = fr;
        else
            m->q = fr;
        m->qtail = fr;
    }
}

/* Sleep 1 ms: the polling step of recv and send (MPI has no timed wait). -1 when a signal
 * interrupted it. */
static int nap(void)
{
    struct timespec ts = {0, 1000000};
    return nanosleep(&ts, NULL) == 0 || errno != EINTR ? 0 : -1;
}

/*
 * Send with MPI_Isend and wait for its completion by MPI_Test, receiving meanwhile. Why
 * not MPI_Send: above the eager limit (a few KB to 64 KB, by transport) MPI_Send waits until
 * the receiver posts the matching receive; when the coordinator and a worker send each
 * other a large message at the same moment, neither receives and both wait for ever. Here
 * the waiting side keeps receiving (drain), which is what lets the other side's send end.
 * MPI_Bsend would avoid the wait too, but needs an attached buffer as large as the largest
 * message in flight (an executor of megabytes, to every worker).
 */
static int mpi_send(par_link *l, int dest, const void *buf, size_t len)
{
    mpi_link *m = (mpi_link *)l;
    if (!is_peer(m, dest) || !m->open[dest] || len > INT_MAX || m->broken) return -1;
    MPI_Request req;
    if (MPI_Isend(buf, (int)len, MPI_BYTE, dest, TAG_DATA, MPI_COMM_WORLD, &req) != MPI_SUCCESS) return -1;
    for (;;) {
        int done = 0;
        if (MPI_Test(&req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS) return -1;
        if (done) return 0;
        int got = drain(m);
        if (got < 0) m->broken = 1;
        if (got < 0 || !m->open[dest]) {
            /* the peer closed while we waited: it will never receive this */
            MPI_Cancel(&req);
            MPI_Request_free(&req);
            return -1;
        }
        if (got == 0) nap(); /* a signal here only shortens the nap: the send must end */
    }
}

static int mpi_recv(par_link *l, int *src, void **buf, size_t *len, int timeout_ms)
{
    mpi_link *m = (mpi_link *)l;
    uint64_t deadline = util_now_ns() + (timeout_ms > 0 ? (uint64_t)timeout_ms * 1000000u : 0);
    while (!m->q) {
        if (m->broken || drain(m) < 0) {
            m->broken = 1;
            return -1;
        }
        if (m->q) break;
        if (m->peers <= 0) return -1;
        if (timeout_ms == 0 || (timeout_ms > 0 && util_now_ns() >= deadline)) return 0;
        if (nap() < 0) return 0; /* a signal: the caller looks at its flag */
    }
    mpi_frame *fr = m->q;
    m->q = fr->next;
    if (!m->q) m->qtail = NULL;
    *src = fr->src;
    *buf = fr->buf;
    *len = fr->len;
    free(fr);
    return 1;
}

static void mpi_close(par_link *l)
{
    mpi_link *m = (mpi_link *)l;
    if (!m) return;
    /* an empty BYE to each open peer; zero bytes go eagerly, so these normally complete at
     * once, but a peer that is gone must not hold us: wait 1 s at most, then cancel */
    MPI_Request *reqs = calloc((size_t)m->size, sizeof *reqs);
    int n = 0;
    for (int r = 0; reqs && r < m->size; r++)
        if (is_peer(m, r) && m->open[r] &&
            MPI_Isend(NULL, 0, MPI_BYTE, r, TAG_BYE, MPI_COMM_WORLD, &reqs[n]) == MPI_SUCCESS)
            n++;
    uint64_t deadline = util_now_ns() + 1000000000u;
    for (;;) {
        int done = 0;
        if (n == 0 || MPI_Testall(n, reqs, &done, MPI_STATUSES_IGNORE) != MPI_SUCCESS || done) break;
        if (util_now_ns() >= deadline) {
            for (int i = 0; i < n; i++)
                if (reqs[i] != MPI_REQUEST_NULL) {
                    MPI_Cancel(&reqs[i]);
                    MPI_Request_free(&reqs[i]);
                }
            break;
        }
        if (drain(m) <= 0) nap();
    }
    free(reqs);
    while (m->q) {
        mpi_frame *next = m->q->next;
        free(m->q->buf);
        free(m->q);
        m->q = next;
    }
    free(m->open);
    free(m);
}

par_link *parallel_mpi_link_new(char **err)
{
    int inited = 0, self = 0, size = 0;
    MPI_Initialized(&inited);
    if (!inited) {
        *err = util_strf("MPI is not initialised");
        return NULL;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &self);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        *err = util_strf("the MPI job has %d process%s; --mpi needs at least 2 (mpirun -np N, N >= 2)", size,
                         size == 1 ? "" : "es");
        return NULL;
    }
    mpi_link *m = calloc(1, sizeof *m);
    if (m) m->open = malloc((size_t)size);
    if (!m || !m->open) {
        free(m);
        *err = util_strf("out of memory");
        return NULL;
    }
    memset(m->open, 1, (size_t)size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    m->size = size;
    m->peers = self == 0 ? size - 1 : 1;
    m->base.self = self;
    m->base.nworkers = size - 1;
    m->base.send = mpi_send;
    m->base.recv = mpi_recv;
    m->base.close = mpi_close;
    m->base.impl = m;
    return &m->base;
}
