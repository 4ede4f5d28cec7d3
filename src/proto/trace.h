/* trace.h: the shared-memory region between explorer and executor (inputs in, coverage and trace out) and the fork-server protocol; self-contained (the runtime includes it alone). */
#ifndef SYMPATH_TRACE_H
#define SYMPATH_TRACE_H

#include <stdint.h>

/*
 * One memfd region per executor, created by the explorer, inherited by the
 * executor (fd number in env SYMPATH_SHM_FD) and mapped MAP_SHARED by both.
 *
 *   [0, 4096)                         trace_header
 *   [inputs_off, +8*inputs_cap)       input values (uint64 bit patterns), written by the explorer
 *   [cov_off, +cov_cap)               coverage bytes, one per branch-site direction slot; the
 *                                     executor ORs COV_BIT_SETUP into cov[slot], COV_BIT_TARGET
 *                                     after a REC_MARK; the explorer zeroes them per run
 *   [recs_off, +recs_cap*sizeof(trace_rec))  trace records (40 bytes each), appended by the executor
 *
 * Crash safety: the executor writes a record completely, then publishes it by
 * storing the new count in header->nrecs (release order). Whatever the program
 * does afterwards (SIGSEGV, SIGKILL on time-out), every published record is intact.
 *
 * Records reference expressions by trace id. An EXPR record is written the first
 * time an expression is referenced by another record (lazily, kids first), so kids
 * always precede parents, and expressions that never reach a branch cost nothing.
 *
 * One writer, one reader: the runtime writes (src/runtime/core/rt_trace.c records,
 * rt_input.c inputs, rt_main.c the end and errors, rt_fast.c coverage), the explorer
 * reads (src/explore/trace_read.c; executor*.c the header). This header includes only
 * <stdint.h>: the runtime (libsympath-rt.a, linked into every executor from its own
 * copies of expr/, db/ and util/, never with the explorer's libraries) includes it on its
 * own, as does the pass (instrument/) for the enums it stores in call arguments.
 * tests/unit/test_proto_trace.c writes with the runtime and reads back with trace_read.
 */

#define TRACE_MAGIC 0x53594d31u /* "SYM1" */
#define TRACE_HEADER_SIZE 4096u
/* return addresses of a crash's callers in the header (trace_header.crash_frames) */
#define TRACE_CRASH_FRAMES 8u
/* per-callee concretization counters in the header (trace_header.conc_fn) */
#define TRACE_CONC_FN_SLOTS 256u

/* Why a concrete value replaced a symbolic one (counted in the header and reported). */
typedef enum conc_kind {
    /* keep in this ORDER: reports list them by this index */
    CONC_EXTERNAL_CALL = 0, /* symbolic argument passed to a function that is not instrumented */
    CONC_FLOAT,             /* floating point that stays concrete: conversion to x86_fp80/half/fp128, operand of an
                               unmodelled float intrinsic (llvm.sin, ...), vector float operation */
    CONC_SYM_POINTER,       /* load/store through a symbolic address (value pinned, constraint recorded) */
    CONC_SYM_SIZE,          /* symbolic length of memcpy/memset/memmove/alloca/malloc */
    CONC_WIDE_INT,          /* integer wider than 64 bits */
    CONC_AGGREGATE,         /* struct/array/vector value that carried symbolic parts */
    CONC_VARARG,            /* symbolic argument to a variadic function */
    CONC_UNSUPPORTED,       /* instruction kind the instrumenter does not model (see site table) */
    CONC_INPUT_OVERFLOW,    /* more inputs read than the input area holds: returned 0, concrete */
    CONC_TRACE_FULL,        /* trace area full: later symbolic branches were not recorded */
    CONC_POINTER_INPUT,     /* __VERIFIER_nondet_pointer: value from the input vector, not symbolic */
    CONC_KIND_COUNT
} conc_kind;

/* Input types, for test-case formatting and replay. keep in this ORDER (stored in traces). */
typedef enum input_type {
    IT_INT = 0,
    IT_UINT,
    IT_CHAR,
    IT_UCHAR,
    IT_SCHAR,
    IT_SHORT,
    IT_USHORT,
    IT_LONG,
    IT_ULONG,
    IT_LONGLONG,
    IT_ULONGLONG,
    IT_BOOL,
    IT_FLOAT,
    IT_DOUBLE,
    IT_POINTER,
    IT_SIZE_T,
    IT_U8,
    IT_U16,
    IT_U32,
    IT_U64,
    IT_S8,
    IT_S16,
    IT_S32,
    IT_S64,
    IT_LOFF_T,
    IT_BYTE,
    IT_COUNT
} input_type;

/* Error kinds. keep in this ORDER. */
typedef enum error_kind {
    ERR_NONE = 0,
    ERR_REACH,   /* reach_error() or __VERIFIER_error() called: property violation */
    ERR_ASSERT,  /* failed assert() (__assert_fail) or sym_assert: property violation */
    ERR_ABORT,   /* abort() called (e.g. assume_abort_if_not): other termination */
    ERR_SIGNAL,  /* crash signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL, ...): other termination */
    ERR_TIMEOUT, /* the run exceeded its time limit (decided by the explorer) */
    ERR_OOM,     /* the run exceeded its memory limit (decided by the explorer from the status) */
    ERR_KIND_COUNT
} error_kind;

/* Symbolic branch event kinds. keep in this ORDER. */
typedef enum branch_kind {
    BK_BRANCH = 0, /* conditional br at a branch site; taken = direction (0 false, 1 true);
                       arg = the site's first coverage slot (direction d covers slot arg+d) */
    BK_SWITCH,     /* one case test of a symbolic switch: cond = (x == case value), taken = 0/1;
                       arg = coverage slot the true direction leads to */
    BK_ASSUME,     /* (site of BK_ASSUME, BK_CONCRETIZE, BK_CHECK: the last branch site executed)
                       sym_assume/__VERIFIER_assume(cond); taken = cond's value; only
                       direction 1 is worth exploring (0 ends the run silently) */
    BK_CONCRETIZE, /* cond = (e == its concrete value), always taken = 1; arg = conc_kind.
                       Exploring direction 0 yields another value (e.g. another array index) */
    BK_CHECK,      /* safety check: cond = (divisor == 0) or signed-division overflow; taken =
                       cond's value (0 normally); direction 1 leads to a crash. arg = 0 div by zero, 1 overflow */
    BK_ROW,        /* database rows (src/runtime/sqlite/db_sqlite.c): cond = "this combination of row slots is
                       present and satisfies the query"; taken = cond's value. Both directions are explored;
                       the event of an absent slot is "one more row" (Emmi et al. 2007). arg: table << 16 |
                       combination (| BK_ROW_INSERTED for a row the program inserted), | BK_ROW_BEYOND when a
                       slot lies past the first absent one (its true side repeats "one more row": tried last);
                       BK_ROW_WRITE: "a row the write writes breaks a constraint" (db_write_check.c) */
    BK_FAULT,      /* an injected fault (src/runtime/dbcommon/db_fault.c): cond = "this database call fails"
                      (db:fault == its number); taken = cond's value; direction 1 runs the program's handling
                      of the failure. site = 0 always; arg = the last coverage slot reached (a branch
                      site and its direction) << 12 | which
                      fallible call after it (1, 2, ..., 11 bits): the call's approximate location, |
                      BK_FAULT_NULL when the failure is a NULL result (libpq's statements) */
    BK_KIND_COUNT
} branch_kind;

#define BK_ROW_INSERTED 0x8000u
#define BK_ROW_BEYOND 0x4000u
#define BK_ROW_WRITE 0x2000u /* BK_ROW arg: the engine will refuse the write (a CHECK, NOT NULL or key it breaks) */
#define BK_FAULT_NULL 0x800u /* BK_FAULT arg: the failure is "no result at all" (a NULL PGresult) */

typedef enum rec_type {
    REC_EXPR = 1, /* e: expression definition */
    REC_INPUT,    /* in: one input value was read (in call order) */
    REC_BRANCH,   /* br: symbolic branch event */
    REC_ERROR,    /* err: error detected by the runtime; the run ends right after */
    REC_NAME,     /* name: up to 24 bytes of the name of the preceding REC_INPUT (several chunks may follow) */
    REC_END,      /* end: the program returned from main or called exit(); status in arg */
    REC_MARK      /* mark: the program entered the code under test (sympath unit's harness calls
                     __sym_unit_target() just before the call of the target function): the events
                     after it belong to the target phase (sym_event.phase), those before to the setup */
} rec_type;

/* The bits of a coverage byte: the direction was taken before the run's REC_MARK (or in a run
 * without one), and after it (sympath unit's call of the target and what it calls). */
#define COV_BIT_SETUP 1u
#define COV_BIT_TARGET 2u

typedef struct trace_rec {
    uint8_t type; /* rec_type */
    union {
        struct {
            uint8_t op, width, pad;
            uint32_t id;
            uint32_t kid[3];
            uint32_t aux;
            uint64_t value;
        } e;
        struct {
            uint8_t itype, width, pad;
            uint32_t index;
            uint32_t expr_id;
            uint32_t pad2;
            uint64_t value;
        } in;
        struct {
            uint8_t kind, taken, pad;
            uint32_t site;
            uint32_t cond;
            uint32_t arg;
        } br;
        struct {
            uint8_t kind, pad0, pad1;
            uint32_t loc;
            int32_t signo;
            uint32_t pad2;
            uint64_t pc;
        } err;
        struct {
            char text[24];
        } name; /* starts at byte 8 of the record */
        struct {
            uint8_t pad[3];
            int32_t status;
        } end;
    } u;
} trace_rec;

typedef struct trace_header {
    uint32_t magic;                  /* TRACE_MAGIC */
    uint32_t version;                /* 1 */
    uint64_t total_size;             /* bytes of the whole region */
    uint64_t inputs_off, inputs_cap; /* byte offset; capacity in values */
    uint64_t cov_off, cov_cap;       /* byte offset; capacity in slots (bytes) */
    uint64_t recs_off, recs_cap;     /* byte offset; capacity in records */
    /* written by the explorer before each run */
    uint64_t ninputs; /* values valid in the input area */
    uint64_t run_id;  /* increasing; for sanity checks */
    /* written by the executor during a run (the explorer zeroes them before each run) */
    volatile uint64_t nrecs;                 /* published records */
    volatile uint32_t last_site;             /* last branch site executed (for hang/crash locations) */
    volatile uint32_t dropped;               /* records dropped because the area was full */
    volatile uint64_t inputs_read;           /* input calls made */
    volatile uint64_t conc[CONC_KIND_COUNT]; /* concretizations by kind */
    volatile uint64_t forks;                 /* fork() calls made by the program */
    volatile uint32_t error_kind;            /* error_kind of the REC_ERROR, if any (0 = none) */
    volatile uint32_t ended;                 /* 1 once REC_END or REC_ERROR is published */
    /* written by the explorer before each run */
    uint64_t inputs_limit; /* the run ends (REC_END, SYM_INPUTS_DONE_EXIT_CODE) when it asks for
                                    input number inputs_limit (0-based); 0 = no limit */
    /* written by the executor (zeroed by the explorer before each run): the
     * CONC_EXTERNAL_CALL concretizations of the run by callee, indexed by the callee's id
     * in the site table ("callee" records); index 0 collects ids >= TRACE_CONC_FN_SLOTS */
    volatile uint32_t conc_fn[TRACE_CONC_FN_SLOTS];
    /* written by the executor's crash handler (zeroed by the explorer before each run): the
     * return addresses of the faulting function's callers, innermost first, relative to the
     * load base like the error record's pc; 0 after the last (frame-pointer walk) */
    volatile uint64_t crash_frames[TRACE_CRASH_FRAMES];
} trace_header;
_Static_assert(sizeof(trace_header) <= TRACE_HEADER_SIZE, "trace_header must fit its page");

/*
 * Fork-server protocol (explorer = client, executor = server).
 * Environment of the executor (each name is a macro of proto/env.h, SYMPATH_ENV_SHM_FD ...):
 *   SYMPATH_SHM_FD   fd of the region above
 *   SYMPATH_CTL_FD   pipe read end: explorer -> server commands (uint32)
 *   SYMPATH_ST_FD    pipe write end: server -> explorer replies (uint32 / int32)
 *   SYMPATH_OUT_FD   fd of a regular file receiving the program's stdout+stderr (optional)
 *   SYMPATH_MEM_MB   address-space limit of each run in MiB (optional, 0 = none)
 *   SYMPATH_OUT_KB   cap of the output file in KiB (optional, default 1024)
 * Handshake: the server writes FS_HELLO once it is ready.
 * Per run: explorer writes FS_RUN; server truncates the output file, forks; the child
 * calls setpgid(0,0), applies limits, redirects stdout/stderr, closes the protocol
 * fds and continues into main(); the server writes the child's pid (uint32), waits
 * for it and writes the raw wait status (int32). The explorer may kill(-pid, SIGKILL)
 * on time-out; the server still reports the status. FS_QUIT ends the server.
 * Without SYMPATH_CTL_FD the executor runs the program once (standalone), reading
 * inputs from the file named by SYMPATH_INPUTS (one value per line) if set.
 */
#define FS_HELLO 0x48454c4fu
#define FS_RUN 1u
#define FS_QUIT 2u

/* Exit code the runtime uses after recording an error (reach_error, assert, abort, crash). */
#define SYM_ERROR_EXIT_CODE 86
/* Exit code after a false sym_assume/__VERIFIER_assume: the runtime publishes REC_END with
 * this status and _exits; the explorer neither keeps a test nor reports an error for it. */
#define SYM_ASSUME_EXIT_CODE 87
/* Exit code (and REC_END status) of a run that asked for more inputs than its limit
 * (trace_header.inputs_limit): a normal end, so that a program that reads inputs forever
 * (a reactive loop) still gives finite runs. Replay ends such a test the same way: a
 * test case's vector holds exactly the inputs read before the limit. */
#define SYM_INPUTS_DONE_EXIT_CODE 88

#endif
