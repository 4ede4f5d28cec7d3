/* executor.h: running the instrumented executor through its fork server, under time, memory and output limits. */
#ifndef SYMPATH_EXECUTOR_H
#define SYMPATH_EXECUTOR_H

#include <stddef.h>
#include <stdint.h>
#include "run.h"

typedef struct executor_opts {
    const char *binary;    /* path of the instrumented executable */
    const char *work_dir;  /* existing directory for the per-executor output file */
    unsigned index;        /* executor number (names its files), 0..j-1 */
    unsigned timeout_ms;   /* per-run wall-time limit in milliseconds */
    unsigned mem_mb;       /* per-run address-space limit in MiB (0 = none) */
    unsigned out_kb;       /* cap on the program's stdout+stderr per run, KiB */
    uint32_t cov_slots;    /* number of coverage slots (from the site table) */
    uint32_t inputs_cap;   /* capacity of the input area, in values */
    uint64_t recs_cap;     /* capacity of the trace area, in records */
    uint32_t inputs_limit; /* a run given n inputs may read max(inputs_limit, 2n) (0 = no limit) */
} executor_opts;

typedef struct executor executor;

/* Start the executor's fork server and wait for its handshake (at most 10 s).
 * Returns NULL and sets *err (malloc'ed message, caller frees) when the binary cannot
 * be started or does not answer (e.g. it crashes before main: the message says so and
 * quotes the first lines of its output). */
executor *executor_start(const executor_opts *o, char **err);

/* Begin one run with inputs[0..n) (bit patterns): resets the trace header and coverage
 * bytes, sends FS_RUN, records the child's pid and the deadline. Restarts the fork server
 * first if it died. Returns 0, or -1 with *err set. */
int executor_begin(executor *ex, const uint64_t *inputs, size_t n, char **err);

/* Wait until one of the busy executors in exs[0..n) finishes (or times out: it is then
 * killed with its whole process group). Returns the index of a finished executor, or -1
 * if none is busy. Never waits longer than the earliest deadline plus a grace of 1 s. */
int executor_wait_any(executor **exs, size_t n);

/* True while a run begun on ex has not been collected by executor_finish. */
int executor_busy(const executor *ex);

/* Collect a finished run: parses the trace into *out (expressions interned into cx),
 * fills wait status, error (ERR_TIMEOUT when killed by the deadline, ERR_OOM when the
 * memory limit was hit, ERR_SIGNAL with signo/pc for crashes), counters and seconds.
 * Kills any process left in the run's process group. Returns 0, or -1 with *err set
 * (a malformed trace: the run is then reported with the events read so far). */
int executor_finish(executor *ex, expr_ctx *cx, run_result *out, char **err);

/* Coverage bytes of the last finished run: cov[slot] != 0 if the slot was taken. Valid
 * until the next executor_begin on ex. Length = cov_slots. */
const uint8_t *executor_coverage(const executor *ex);

/* Path of the file holding the last run's stdout+stderr (truncated at out_kb KiB). */
const char *executor_output_path(const executor *ex);

/* Change the per-run time limit (milliseconds) for the runs begun from now on. */
void executor_set_timeout(executor *ex, unsigned timeout_ms);

/* Number of times the fork server had to be restarted. */
unsigned executor_restarts(const executor *ex);

/* Stop the fork server (FS_QUIT, then SIGKILL after 1 s) and free everything. NULL ok. */
void executor_stop(executor *ex);

#endif
