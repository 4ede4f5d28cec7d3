/* executor_int.h: the executor's state and the fork-server helpers shared by executor.c (runs) and executor_server.c (server process, region); private to src/explore. */
#ifndef SYMPATH_EXECUTOR_INT_H
#define SYMPATH_EXECUTOR_INT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "executor.h"
#include "trace_read.h"

#define DEFAULT_INPUTS_CAP (1u << 20)
#define DEFAULT_RECS_CAP (1ull << 21)
#define DEFAULT_OUT_KB 1024u
#define HELLO_TIMEOUT_MS 10000.0 /* handshake after exec */
#define PID_TIMEOUT_MS 5000.0    /* answer to FS_RUN */
#define STATUS_GRACE_MS 1000.0   /* status after a kill on time-out */
#define QUIT_GRACE_MS 1000.0     /* exit after FS_QUIT */
#define OUTPUT_QUOTE_BYTES 2048  /* how much of the output an error message quotes */
#define OUTPUT_QUOTE_LINES 10

/*
 * One executor: a shared region (trace.h layout) and a fork-server process.
 *
 * The region and the output file live as long as the executor; the server may be
 * replaced (restart) when it dies, and every incarnation maps the same region and
 * writes the same output file. The environment is snapshotted at executor_start so
 * that a restarted server sees the same environment as the first one.
 *
 * Run state machine: idle (busy = 0) -> executor_begin -> busy, waiting for the
 * status -> (deadline passed: killed, timed_out = 1) -> status read or server lost
 * (done = 1) -> executor_finish -> idle. `lost` means the server died (EOF on the
 * status pipe or no status within the grace period after a kill): the wait status is
 * then unknown and the server is restarted by the next executor_begin.
 *
 * All times are milliseconds of CLOCK_MONOTONIC.
 */
struct executor {
    char *binary;
    char *out_path;
    unsigned timeout_ms, mem_mb, out_kb;
    uint32_t cov_slots;
    char **env_base; /* snapshot of environ without the protocol variables */
    size_t nenv_base;

    int shm_fd;
    unsigned char *base; /* the mapped region */
    size_t size;
    trace_header *h;
    uint64_t *inputs; /* our own copies of the layout: the program may scribble */
    uint8_t *cov;     /* over the header, these pointers stay right */
    uint64_t inputs_cap, cov_cap, recs_cap, inputs_off, cov_off, recs_off;
    uint64_t inputs_limit;
    uint64_t run_id;
    int out_fd;

    pid_t server;    /* 0 when there is none (not started, or reaped) */
    int ctl_w, st_r; /* our pipe ends, -1 when closed */
    int server_dead; /* must be restarted before the next run */
    unsigned restarts;

    int busy, done, timed_out, lost;
    pid_t child; /* the run's process (and process group) */
    int status;  /* raw wait status from the server */
    double t_begin, t_end, deadline, grace;
};

/* ---- executor_server.c ---- */

/* Set *err to a formatted, malloc'ed message (err may be NULL). Returns -1. */
int ex_set_err(char **err, const char *fmt, ...);
/* Close *fd if open and set it to -1. */
void ex_close_fd(int *fd);
/* Kill a run's process group and the process itself (never pid <= 1); errors ignored. */
void ex_kill_run(pid_t pid);
/* Describe a raw wait status in words, into buf (n bytes); returns buf. */
const char *ex_describe_status(int st, char *buf, size_t n);
/* Read exactly 4 bytes from fd within timeout_ms. Returns 1 on success, 0 on EOF
 * (or a read error: the writer is gone either way), -1 on time-out. */
int ex_read_u32(int fd, void *v, double timeout_ms);
/* Write a uint32 command to the server (a dead server gives EPIPE, never SIGPIPE).
 * Returns 0, or -1 with errno set. */
int ex_write_u32(int fd, uint32_t v);
/* Stop the current server: FS_QUIT and up to QUIT_GRACE_MS to exit when graceful,
 * then SIGKILL; reap it and close our pipe ends. *status (if not NULL) receives its
 * wait status (0 when it was reaped earlier). */
void ex_shutdown_server(executor *ex, int graceful, int *status);
/* Has the server exited? Reaps it if so (then server = 0, *status = its wait status). */
int ex_server_exited(executor *ex, int *status);
/* Start a server and wait for its FS_HELLO. Returns 0, or -1 with *err set (the
 * message quotes the server's first lines of output). */
int ex_spawn_server(executor *ex, char **err);
/* Replace a dead server by a new one (counted in restarts). 0, or -1 with *err set. */
int ex_restart_server(executor *ex, char **err);
/* Write the layout fields of the header (at creation and before every run: the
 * program shares the mapping and might have overwritten them). */
void ex_write_layout(executor *ex);
/* Create and map the shared region (trace.h layout) for the capacities in o and the
 * run output file. 0, or -1 with *err set. */
int ex_create_region(executor *ex, const executor_opts *o, char **err);
/* Copy environ without the protocol variables (every server incarnation gets the
 * environment of executor_start). 0, or -1 when out of memory. */
int ex_snapshot_env(executor *ex);

#endif
