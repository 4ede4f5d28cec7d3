/* parallel.h: one exploration over many machines with Open MPI (`mpirun -np N sympath run --mpi`). */
#ifndef SYMPATH_PARALLEL_H
#define SYMPATH_PARALLEL_H

#include "../explore/explorer.h"
#include "../proto/proto.h"

/*
 * Parallel symbolic execution on a cluster after Cloud9 (Bucur, Ureche, Zamfir, Candea:
 * "Parallel symbolic execution for automated real-world software testing", EuroSys 2011):
 * workers, each with its own execution tree, solver and executor, explore disjoint parts of
 * the program's paths, and a coordinator balances work among them and keeps the one test
 * suite. src/explore does the exploring and the coordinating over any par_link (proto.h);
 * this component gives it a link between the processes of an Open MPI job and starts
 * each process in its role:
 *
 *     rank 0           builds OUT/build/executor and sites.tsv, ships both to every worker
 *                      (PAR_MSG_BUILD), then coordinates (explore_run with explore.link set);
 *     ranks 1..N-1     receive the two files into OUT/build/rank-R/ (their own directory, so
 *                      that on a shared file system ranks do not clobber each other) and
 *                      explore (explore_run_worker).
 *
 * No shared file system is assumed: everything a worker needs travels over MPI, and only
 * rank 0 writes the suite. MPI is used from the main thread only (MPI_THREAD_FUNNELED: the
 * solver's watchdog threads never call it). docs/parallel.md, "Many machines: Open MPI",
 * tells how to run it.
 *
 * Message types of this component (the explorer's are below 100; each is a par_msg):
 */
enum {
    /* rank 0 -> worker, first message: the build failed or was interrupted, nothing will be
     * explored. Payload: u32 rank 0's exit code. */
    PAR_MSG_NO_BUILD = 200,
    /* rank 0 -> worker, first message: the program to explore. Payload: bytes of the
     * executor (written with mode 0755), bytes of the site table. */
    PAR_MSG_BUILD = 201,
};

/*
 * A par_link over MPI point-to-point messages in MPI_COMM_WORLD: endpoint = rank, nworkers =
 * size - 1 (rank 0 coordinates). MPI must be initialised (MPI_Init_thread with at least
 * MPI_THREAD_FUNNELED) and the link used only from the thread that did it; the link sets
 * MPI_ERRORS_RETURN on MPI_COMM_WORLD, so that an MPI error is a -1, not an abort.
 *
 * Its behaviour is par_link_fd's:
 *   send   blocks until the message has left (MPI_Isend, then MPI_Test in a loop), and
 *          while it waits it receives whatever the peers send into a queue that recv
 *          serves first: two processes that send each other large messages at the same
 *          time both progress (a plain MPI_Send of a large message waits for the matching
 *          receive, and a buffered MPI_Bsend would need a buffer as large as the largest
 *          message, an executor). A worker may send only to 0. -1 on an MPI error, to a
 *          peer that closed, or for a message over INT_MAX bytes (MPI counts are int).
 *   recv   polls (MPI_Iprobe, then a 1 ms sleep) until a message comes or timeout_ms has
 *          passed (MPI has no timed receive): 1 with a malloc'ed *buf; 0 on time-out or
 *          when a signal interrupted the sleep; -1 once every peer has closed its link
 *          and nothing is queued. Messages from one peer arrive in the order it sent them.
 *   close  tells every peer still open that this end is closing (an empty message with
 *          its own tag), waits at most 1 s for those notices to leave (a dead peer cannot
 *          make it hang: the pending sends are then cancelled), drops what is queued and
 *          frees the link. It does not finalize MPI.
 * A peer that dies without closing is not seen by the link: Open MPI ends the whole job
 * when one rank dies (mpirun kills the others).
 *
 * Returns the link (free with its close), or NULL with *err (malloc'ed) when MPI is not
 * initialised, the world has fewer than 2 ranks, or memory ran out.
 */
par_link *parallel_mpi_link_new(char **err);

/*
 * Rank 0: send the executor and the site table (the files at exe and sites, read whole)
 * to every worker 1..l->nworkers as one PAR_MSG_BUILD each. shipped (l->nworkers bytes,
 * may be NULL) gets shipped[w-1] = 1 for each worker w the message was sent to, so that
 * the caller can tell the others PAR_MSG_NO_BUILD after a failure.
 * Returns 0, or -1 with *err (malloc'ed): "cannot read PATH: REASON", "cannot send the
 * executor to worker W".
 */
int parallel_ship_build(par_link *l, const char *exe, const char *sites, unsigned char *shipped, char **err);

/* Rank 0: tell worker w that nothing will be explored (PAR_MSG_NO_BUILD with exit code
 * code). 0, or -1 when the worker cannot be reached. */
int parallel_ship_none(par_link *l, int w, int code);

/*
 * Worker: wait (without limit) for rank 0's first message and, for a PAR_MSG_BUILD, write
 * the executor to DIR/executor (mode 0755) and the site table to DIR/sites.tsv (atomically,
 * util_write_atomic), creating dir (mkdir -p). exe and sites (PATH_MAX + 16 bytes each) get
 * the two paths. Returns 1 when the files are written; 0 for a PAR_MSG_NO_BUILD (*code gets
 * rank 0's exit code); -1 with *err (malloc'ed) when the link broke, the message is not one
 * of the two, or a file cannot be written ("cannot write PATH: REASON").
 */
int parallel_receive_build(par_link *l, const char *dir, char *exe, char *sites, int *code, char **err);

/*
 * `sympath run --mpi` in one rank of an Open MPI job: MPI_Init_thread (NULL arguments:
 * mpirun passes everything through the environment), then
 *   rank 0: r->explore.link = the MPI link, r->after_build = parallel_ship_build to every
 *           worker, then explore_run(r); when the run ends before shipping (the build
 *           failed, Ctrl-C during the build, a bad source), each worker not yet shipped to
 *           gets PAR_MSG_NO_BUILD;
 *   rank R >= 1: r->before_build (the CLI arms Ctrl-C there) is called at once, the build
 *           is received into OUT/build/rank-R/ (parallel_receive_build) and
 *           explore_run_worker(r, exe, sites, that directory) explores;
 * then the link is closed and MPI finalized. r is modified (explore.link, after_build,
 * after_build_ctx); r->explore.jobs should be 1 (each rank runs one executor).
 * Messages go to r->log (NULL: stderr) as "sympath run: ...".
 * Returns the process's exit code: rank 0's is explore_run's; a worker's is 0 after a
 * PAR_MSG_NO_BUILD, else explore_run_worker's, or 1 when receiving failed. 2, with a
 * message, when the job has fewer than 2 ranks (also when started without mpirun: MPI then
 * makes a job of one); 1 when the MPI link cannot be made. When MPI_Init_thread fails, Open
 * MPI ends the process itself.
 */
int parallel_mpi_run(explore_run_opts *r);

#endif
