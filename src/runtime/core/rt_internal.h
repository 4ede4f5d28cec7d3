/* rt_internal.h: state and helpers shared by the runtime's own files (and its unit tests); not seen by the program. */
#ifndef SYMPATH_RT_INTERNAL_H
#define SYMPATH_RT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "../../expr/expr.h"
#include "../../proto/trace.h"
#include "rt_slow.h"

/*
 * System calls of the runtime, made directly. The executor is linked statically
 * against the program, so a program that defines its own read(), write(), mmap(),
 * ... (SV-COMP harnesses model them with nondet values) would otherwise receive
 * the runtime's calls too: the fork server's protocol and the shadow pools would
 * run through the program's models.
 */
static inline long rt_sys_read(int fd, void *buf, size_t n) { return syscall(SYS_read, fd, buf, n); }
static inline long rt_sys_write(int fd, const void *buf, size_t n) { return syscall(SYS_write, fd, buf, n); }
static inline int rt_sys_close(int fd) { return (int)syscall(SYS_close, fd); }
static inline int rt_sys_fstat(int fd, struct stat *st) { return (int)syscall(SYS_fstat, fd, st); }
static inline int rt_sys_ftruncate(int fd, off_t n) { return (int)syscall(SYS_ftruncate, fd, n); }
static inline off_t rt_sys_lseek(int fd, off_t off, int whence) { return (off_t)syscall(SYS_lseek, fd, off, whence); }
static inline void *rt_sys_mmap(void *a, size_t n, int prot, int flags, int fd, off_t off)
{
    return (void *)syscall(SYS_mmap, a, n, prot, flags, fd, off);
}
static inline int rt_sys_munmap(void *a, size_t n) { return (int)syscall(SYS_munmap, a, n); }

/*
 * Per-run state of the runtime. A run is one fork child of the fork server (or
 * the single standalone process). The fork server itself never builds an
 * expression or touches shadow memory, so every child starts from the same
 * empty state; rt_run_reset() makes that explicit and is cheap (nothing to free:
 * the child's memory disappears with it).
 */
typedef struct rt_state {
    trace_header *hdr;      /* the shared region (or a private one); never NULL after init */
    uint64_t *inputs;       /* hdr + inputs_off */
    trace_rec *recs;        /* hdr + recs_off */
    expr_ctx *cx;           /* created lazily by rt_cx() in the run's process */
    uint64_t ninput;        /* input values consumed so far (the next input's index) */
    uint32_t next_trace_id; /* last trace id given to an expression (ids start at 1) */
    int trace_off;          /* 1: write no record at all (child of __sym_fork, or not initialised) */
    int trace_full;         /* 1: the record area filled up; only REC_END/REC_ERROR still fit */
    int in_fork_child;      /* 1 in a process created by the program's fork() */
} rt_state;

extern rt_state rt;

/* The run's expression context (created on first use). */
expr_ctx *rt_cx(void);
/* Expression of an operand: its shadow, or a constant of `width` bits for a concrete value. */
static inline expr *rt_operand(symx e, uint64_t v, unsigned width)
{
    return e ? e : expr_const(rt_cx(), v & expr_mask(width), width);
}
/* A shadow that folded to a constant is concrete: NULL. */
static inline symx rt_norm(expr *e) { return e && e->op == EXPR_CONST ? NULL : e; }

/* ---- trace writer (rt_trace.c) ----
 * Records go to rt.recs and are published one by one through hdr->nrecs. The
 * last slot of the area is reserved for the final REC_END or REC_ERROR, so the
 * outcome of a run is always visible even when its events overflowed. */

/* Trace id of e, writing e and its not yet written sub-DAG (kids first) when
 * needed. Returns 0 when the area is full (or tracing is off): the caller then
 * drops its event. e must not be NULL. */
uint32_t rt_trace_expr(expr *e);
/* Append a BK_* event. cond must not be NULL. Returns 0 on success, -1 when the
 * event was dropped (area full: hdr->dropped and conc[CONC_TRACE_FULL] counted). */
int rt_trace_event(uint32_t kind, uint32_t site, uint32_t taken, expr *cond, uint32_t arg);
/* Append one record (not the reserved last slot unless `final`). Returns 0 or -1 (full/off). */
int rt_trace_append(const trace_rec *r, int final);
/* Count conc[kind] and record a BK_CONCRETIZE event pinning e to the concrete value
 * it had (cond = (e == value), value masked to e's width; arg = kind). Nothing is
 * recorded when that condition folds to a constant. */
void rt_concretize_pin(expr *e, uint64_t value, uint32_t kind);
/* An access through address expression addr_e: every lazily initialised pointer of sympath
 * unit in its sum (A & M, M symbolic and all ones in this run) is replaced by A, after recording
 * the assumption A & M == A (rt_trace.c). Returns the address expression to go on with, NULL
 * when nothing symbolic is left; addr_e NULL gives NULL. */
expr *rt_lazy_null_pin(expr *addr_e);
/* Count one concretization of kind (ignored when out of range). */
void rt_count_conc(uint32_t kind);
/* Does the memory behind p (its first 256 bytes) hold a symbolic byte? (rt_shadow.c) */
int rt_external_ptr_symbolic(const void *p);
/* Sort the instrumenter's table of global objects (__sym_objects, rt_symidx.c) for
 * lookups; idempotent, and done on first use if not called. */
void rt_objects_init(void);
/* Forget the vararg slots of the libc models (rt_libc.c); at the start of each run. */
void rt_varargs_reset(void);
/* Texts whose number is an expression (rt_textval.c): register text p[0..len) as the decimal
 * text of the double whose 64-bit pattern is e, or (is_int != 0) of the 64-bit integer e (the
 * strtod and strtol models give e as the shadow of their result when they convert exactly
 * p[0..len) to e's concrete value); forget the entries inside
 * p[0..len) (the memory goes back to malloc); forget all (at the start of each run). */
void rt_text_value_put(const char *p, size_t len, expr *e, int is_int);
void rt_text_value_clear(const char *p, size_t len);
void rt_text_value_reset(void);
/* The expression registered for text p[0..len) (*is_int: whether it is an integer's, when
 * is_int is not NULL), or NULL when p is not registered with that length. The caller checks
 * that the text still reads as the expression's value. */
expr *rt_text_value_get(const char *p, size_t len, int *is_int);

/* Report the run as out of memory (ERR_OOM) and end it; never returns. */
void rt_out_of_memory(void) __attribute__((noreturn));

/* Once the trace area is full the run goes concrete: expression-building slow paths
 * return NULL (the value is concrete), so symbolic values die out at their next use
 * instead of costing expression building for events that can no longer be recorded. */
#define RT_CONCRETE_NOW() (rt.trace_full)

/* The value of size (1..8) bytes at addr as an expression of 8*size bits: shadow bytes
 * where memory is symbolic, constants of the actual bytes elsewhere (rt_shadow.c). */
expr *rt_shadow_load(const void *addr, uint64_t size);

/* A load of size bytes through the symbolic address addr_e (concrete value addr) as a
 * select over the elements around addr (rt_symidx.c); records the range it assumes.
 * NULL when the shape does not allow it: the caller then pins the address. */
expr *rt_symbolic_read(const void *addr, uint64_t size, expr *addr_e);

/* ---- run lifecycle (rt_main.c) ---- */

/* Publish REC_END with `status` (once per run; nothing if the run already ended). */
void rt_end_run(int status);
/* Publish REC_ERROR (once per run) and set error_kind/ended; does not exit. */
void rt_record_error(uint32_t kind, uint32_t loc, int32_t signo, uint64_t pc);
/* Forget everything about the current run: new expression context, empty shadow
 * memory, input counter and trace ids at 0, parameter slots cleared. Does not touch
 * the shared header (the explorer zeroes it before each run). */
void rt_run_reset(void);

/* ---- shadow memory (rt_shadow.c) ---- */

/* Shadow of one byte (NULL = concrete). */
expr *rt_shadow_get(uintptr_t addr);
/* Shadows of n bytes into out[0..n); returns non-zero if any is not NULL. */
int rt_shadow_get_range(uintptr_t addr, size_t n, expr **out);
/* Set the shadow of n bytes to the given 8-bit expressions (bytes[i] for addr+i;
 * NULL entries make bytes concrete). */
void rt_shadow_put(uintptr_t addr, expr *const *bytes, size_t n);
/* Make n bytes concrete (touches only pages that have a shadow). */
void rt_shadow_clear(uintptr_t addr, size_t n);
/* Drop every shadow page (the pages themselves are leaked when the run is a fork
 * child that will exit anyway; freed otherwise). */
void rt_shadow_reset(void);

/* ---- inputs (rt_input.c) ---- */

/* Forget the input counter (per run). */
void rt_input_reset(void);
/* Read the next input value (index = values consumed before, in call order) of `width`
 * bits as type `it`, with an optional name (REC_NAME). Values past the explorer's vector
 * read as 0; a run past its input limit ends here. Returns the input symbol (NULL when
 * not symbolic or the run went concrete) and the value in *val. Used by the input
 * functions and by the database fixture (db_sqlite.c). */
expr *rt_next_input(input_type it, unsigned width, const char *name, int symbolic, uint64_t *val);
/* An input whose value the environment decided (a value read from the user's database in
 * data mode): like rt_next_input, symbolic, but its value is `value` (masked to width), not
 * the vector's. Returns the symbol or NULL (run concrete / input area full). */
expr *rt_env_input(input_type it, unsigned width, const char *name, uint64_t value);

/* ---- test hooks (tests/unit/test_runtime_*.c) ---- */

/* Make the runtime use a fresh private region (inputs_cap input values, recs_cap
 * records, cov_cap coverage slots), zeroed, then rt_run_reset(). inputs[0..n) are
 * copied into the input area. Used by unit tests to start each test from scratch. */
void rt_test_setup(const uint64_t *inputs, size_t n, uint64_t recs_cap, uint32_t cov_cap);
/* The current header and records (valid until the next rt_test_setup). */
trace_header *rt_test_header(void);
const trace_rec *rt_test_records(void);

#endif
