/* run.h: one executor run as the explorer sees it (inputs read, symbolic branch events, error, counters). */
#ifndef SYMPATH_RUN_H
#define SYMPATH_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include "../expr/expr.h"
#include "../proto/trace.h"

/* One symbolic event of a run, in execution order (a REC_BRANCH record). cond is
 * interned in the explorer's expr_ctx, width 1; taken is the direction the run took. */
typedef struct sym_event {
    uint8_t kind;  /* branch_kind */
    uint8_t taken; /* 0 or 1 */
    uint8_t phase; /* 1: after the run's REC_MARK (sympath unit: inside the call of the target), else 0 */
    uint32_t site; /* branch site id (BK_BRANCH, BK_SWITCH); the last branch site executed for other kinds */
    uint32_t arg;  /* as in trace.h: coverage slot base / case slot / conc_kind / check kind */
    expr *cond;
} sym_event;

/* Input values as bit patterns (masked to their width), shared by reference between
 * the tree nodes of a run and the runs derived from it. */
typedef struct input_vec {
    uint32_t refs; /* reference count; input_vec_release frees at 0 */
    uint32_t n;
    uint64_t *values;
} input_vec;

/* New vector holding a copy of values[0..n); refs = 1. NULL when out of memory. */
input_vec *input_vec_new(const uint64_t *values, uint32_t n);
/* Take / drop a reference. NULL is accepted. */
input_vec *input_vec_retain(input_vec *v);
void input_vec_release(input_vec *v);

typedef struct run_result {
    /* inputs actually read, in call order (values past the provided vector read as 0) */
    uint32_t ninputs;
    uint64_t *inputs; /* bit patterns */
    uint8_t *itypes;  /* input_type */
    uint8_t *iwidths; /* bits */
    char **inames;    /* NUL-terminated names or NULL, owned */
    /* symbolic events */
    uint32_t nevents;
    sym_event *events;
    /* how it ended */
    bool ended;         /* REC_END seen (main returned / exit called) */
    int exit_code;      /* from REC_END or the wait status; -1 if killed */
    int wait_status;    /* raw waitpid status */
    error_kind error;   /* ERR_NONE when no error */
    int signo;          /* ERR_SIGNAL: the signal */
    uint32_t error_loc; /* location id (site table) for ERR_REACH/ASSERT/ABORT; 0 unknown */
    uint64_t error_pc;  /* ERR_SIGNAL: faulting pc relative to the executable's load base; 0 unknown */
    /* ERR_SIGNAL/ERR_ABORT: the callers' return addresses, relative like error_pc; 0 ends */
    uint64_t crash_frames[TRACE_CRASH_FRAMES];
    uint32_t last_site; /* last branch site executed */
    bool assume_failed; /* the run ended on a false assumption */
    bool inputs_done;   /* the run ended because it asked for more inputs than its limit */
    bool marked;        /* the trace holds a REC_MARK (sympath unit: the run reached the call of the target) */
    /* counters */
    uint64_t conc[CONC_KIND_COUNT];
    uint32_t conc_fn[TRACE_CONC_FN_SLOTS]; /* CONC_EXTERNAL_CALL by site-table callee id (0: overflow) */
    uint64_t forks;
    uint32_t dropped; /* trace records lost (area full) */
    double seconds;   /* wall time of the run */
} run_result;

/* Release everything a run_result owns and zero it. */
void run_result_clear(run_result *r);
/* dst = a copy of src that owns its own inputs, types, widths, names and events (the events'
 * expressions are shared: they belong to the explorer's expression context). 0, or -1 when out
 * of memory (dst is then zeroed). Release with run_result_clear. */
int run_result_copy(run_result *dst, const run_result *src);

#endif
