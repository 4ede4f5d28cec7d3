/* instrument_int.h: internal interfaces shared by the files of src/instrument (pipeline, pass, site table, processes). */
#ifndef SYMPATH_INSTRUMENT_INT_H
#define SYMPATH_INSTRUMENT_INT_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <llvm-c/Core.h>

#include "instrument.h"
#include "util/util.h"

/* ---- site table under construction (sites.c) ----
 * The pass fills a site_table (instrument.h) in memory with the helpers below; the
 * pipeline writes it with site_table_write. Ids are handed out densely from 1, slots
 * from 0, in creation order. Strings are copied. All return 0, or -1 when out of memory. */

/* Append a branch site with `ndirs` coverage slots; returns its id and first slot. */
int sites_add_site(site_table *t, uint32_t ndirs, int user, uint32_t line, uint32_t col, const char *file,
                   const char *function, const char *kind, uint32_t *id, uint32_t *slot_base);
/* Append an error-call location; returns its id. */
int sites_add_loc(site_table *t, uint32_t line, uint32_t col, const char *file, const char *function, const char *what,
                  uint32_t *id);
/* The id of external callee `name` (appended if new, ids from 1). */
int sites_add_callee(site_table *t, const char *name, uint32_t *id);
/* Add n to the static count of unsupported instruction kind `kind`. */
int sites_count_unsupported(site_table *t, const char *kind, uint64_t n);
/* Write t to path atomically (temporary file + rename). Tabs and newlines inside
 * names are replaced by blanks. Returns 0, or -1 with *err (malloc'ed). */
int site_table_write(const char *path, const site_table *t, char **err);

/* ---- the instrumentation pass (pass*.c, calls.c) ---- */

/* What the pass must know about where functions came from. Name lists are borrowed. */
typedef struct instr_config {
    const char *const *rt_fast_names; /* functions defined by rt_fast.bc: never instrumented */
    size_t n_rt_fast;
    const char *const *model_names; /* functions defined by models.bc: instrumented, sites user=0,
                                          calls inside them are not redirected to models */
    size_t n_models;
} instr_config;

/* Counts the pass reports back (build_stats is filled from these). */
typedef struct instr_result {
    uint32_t functions;   /* function definitions instrumented */
    uint32_t user_sites;  /* branch sites in user (non-model) code */
    uint64_t unsupported; /* instructions counted as unsupported, all kinds */
    uint32_t dispatches;  /* functions that call their concrete-mode copy when nothing is symbolic */
} instr_result;

/*
 * Insert the runtime calls of rt_abi.h into every function definition of m except the
 * rt_fast ones (docs/instrumentation.md), recording sites, locations and unsupported
 * instruction kinds into `sites` (which must be zero-initialised or partly filled).
 * A concrete-mode copy F.sym_concrete (make_concrete_clones) is instrumented in concrete
 * mode right after F, with F's sites and locations, and F's entry dispatches to it.
 * m must contain the definitions of rt_fast.bc already (their signatures are used
 * for the calls). Returns 0, or -1 with *err (malloc'ed) when out of memory.
 */
int instrument_module(LLVMModuleRef m, const instr_config *cfg, site_table *sites, instr_result *res, char **err);

/* Is a call of `callee` made inside function `caller` redirected to __sym_model_<callee>
 * (when that model exists)? Yes everywhere, in user code and in models, except a call
 * of a model itself and a model's call of its own real name (__sym_model_X, or its
 * concrete-mode copy, calling X reaches the real X). caller may be NULL. (calls.c) */
int model_redirect_ok(const char *caller, const char *callee);

/* 1 when a concrete-mode copy may call libc's `name` instead of the model __sym_model_<name>:
 * glibc computes the same result and the model keeps no state of its own (strtok, the
 * stdin/file models and the stream scanf models are not such). (calls.c) */
int model_is_libc_when_concrete(const char *name);

/* ---- unused models (prune.c) ---- */

/* Delete from m every function of `names` (the definitions models.bc brought) that has no
 * use, unless it is the model __sym_model_X of a function X the module calls; repeated
 * until nothing changes. `keep` (NULL for none) names a function that stays although
 * unused (the start-up wrapper of --sym-args/--sym-stdin/--sym-file, renamed main later).
 * *removed receives the count. Always returns 0. */
int prune_unused_models(LLVMModuleRef m, const char *const *names, size_t n, const char *keep, uint32_t *removed);

/* ---- NULL results of libpq (pq_null.c) ---- */

/* The global the runtime reads (weak, 32 bits): 1 when the program tests a PGresult pointer
 * against NULL, so that injected faults may also make a statement return NULL. */
#define PQ_NULL_FLAG "__sym_pq_null_tested"

/* 1 when some function of m compares a `struct pg_result *` with NULL (an icmp with a null
 * constant; typed pointers, LLVM 14), else 0. Call it on the program's own module, before
 * the models are linked. */
int pq_result_null_tested(LLVMModuleRef m);

/* The constant C strings of m (the program's own module, before the models are linked) that
 * start with SELECT, WITH, UPDATE, DELETE or INSERT, each NUL-terminated one after the other,
 * an empty string last; malloc'ed (free it), NULL when there is none or out of memory (strings.c). */
char *program_sql_strings(LLVMModuleRef m);

/* Define PQ_NULL_FLAG in m as a constant 32-bit `tested` (0 or 1). Returns 0, or -1 when
 * LLVM cannot add the global. */
int add_pq_null_flag(LLVMModuleRef m, int tested);

/* ---- global objects (objects.c) ---- */

/* Add to m the globals `__sym_objects` ({i8* start, i64 bytes} per global variable
 * definition of 2 bytes to 1 MiB, thread-locals excluded) and `__sym_nobjects`, which the
 * runtime uses to read a symbolic index over a whole object (rt_symidx.c). *nobjects
 * receives the count. Returns 0, or -1 with *err (malloc'ed) when out of memory. */
int add_object_table(LLVMModuleRef m, uint32_t *nobjects, char **err);

/* ---- concrete-mode clones (concrete.c) ---- */

/* Suffix of the concrete-mode copy of a function: F.sym_concrete is F without shadows. */
#define CONCRETE_SUFFIX ".sym_concrete"

/*
 * Add to m (after linking and mem2reg, before instrument_module) an internal copy
 * F.sym_concrete of every input-free function definition F (docs/instrumentation.md,
 * "Concrete mode"); instrument_module then instruments each copy in concrete mode and
 * makes F call it when nothing is symbolic. *nclones receives the number of copies.
 * Returns 0, or -1 with *err (malloc'ed).
 */
int make_concrete_clones(LLVMModuleRef m, const instr_config *cfg, uint32_t *nclones, char **err);

/* ---- running the compiler (proc.c) ---- */

/* Run argv (argv[0] looked up in PATH, no shell) with stdin from /dev/null, its
 * stderr written to log_path, then copied to our stderr. Returns the exit status
 * (0..255), 128+signal when killed, or -1 when it could not be started; *output
 * (malloc'ed, may be NULL) receives the captured stderr either way. */
int run_logged(char *const *argv, const char *log_path, char **output);

/* The stop flag run_logged honours (build_opts.interrupted; NULL: none): when it is set,
 * run_logged starts nothing (returns -1) and terminates the process it waits for. */
void run_set_stop_flag(volatile sig_atomic_t *flag);

/* Write module m as bitcode to path with util_write_atomic: 0, or -1 with errno (ENOSPC
 * on a full disk). LLVMWriteBitcodeToFile would abort the process on a write error. */
int write_bitcode_file(LLVMModuleRef m, const char *path);

/* ---- inputs of other names (nondet.c) ---- */

/* What define_nondet_inputs did. unsupported_list is malloc'ed (owned by the caller),
 * one "name (returns <LLVM type>)" per line, or NULL. */
typedef struct nondet_result {
    uint32_t generated;   /* functions given an input body */
    uint32_t unsupported; /* functions whose return type cannot be an input: they return 0 */
    char *unsupported_list;
} nondet_result;

/*
 * Define every function of m named __VERIFIER_nondet_<T> that m declares but does not
 * define, and that the runtime (rt_input.c, replay.c) does not define either, as an
 * input of its declared return type (SV-COMP/Test-Comp convention: any such function
 * is a nondeterministic value of its type). Integers up to 64 bits call
 * `uint64_t __sym_input_int(input_type, width, is_signed)`; float/double/long double
 * call __VERIFIER_nondet_float/double (long double: the double extended); pointers
 * __VERIFIER_nondet_pointer; structs returned in memory (sret) or in registers (their
 * ABI-coerced type) are filled with sym_bytes. Attributes (signext/zeroext, sret) are
 * copied from the declaration so the x86-64 ABI of the callers is kept. Other types
 * (wider integers, void without sret, half) return zero and are listed in *res.
 * The definitions are also written (atomically) to bc_path as a module of their own,
 * which `sympath replay` compiles next to replay.c; bc_path is removed when there is
 * nothing to define. Returns 0, or -1 with *err (malloc'ed).
 */
int define_nondet_inputs(LLVMModuleRef m, const char *bc_path, nondet_result *res, char **err);

/* 1 when `name` is one of the __VERIFIER_nondet_* functions the runtime defines itself. */
int nondet_is_runtime_name(const char *name);

/* 1 when the name of an input function says its integer type is unsigned ("unsigned_int",
 * "uint", "ulong", "u16", "size_t", "bool", ...); 0 (signed, C's default) otherwise. */
int nondet_name_unsigned(const char *name);

#endif
