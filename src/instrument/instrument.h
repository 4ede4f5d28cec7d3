/* instrument.h: C sources to an instrumented executor (clang-14 bitcode, LLVM C API instrumentation, final link). */
#ifndef SYMPATH_INSTRUMENT_H
#define SYMPATH_INSTRUMENT_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- symbolic command line, stdin and files (posix.c) ---- */

#define POSIX_MAX_ARGS 16     /* --sym-args MAX */
#define POSIX_MAX_ARG_LEN 256 /* --sym-args N */
#define POSIX_MAX_BYTES 4096  /* --sym-stdin N, --sym-file NAME N */
#define POSIX_MAX_FILES 16

typedef struct sym_posix_file {
    char *name;    /* as the program opens it (compared byte for byte), malloc'ed */
    uint32_t size; /* at most this many bytes */
} sym_posix_file;

/* The options in the spirit of KLEE's POSIX environment (Cadar et al., OSDI'08, 3.3). */
typedef struct sym_posix_opts {
    int args_on; /* --sym-args MIN MAX N given */
    uint32_t args_min, args_max, arg_len;
    int stdin_on; /* --sym-stdin N given */
    uint32_t stdin_max;
    size_t nfiles; /* --sym-file NAME N, in option order */
    sym_posix_file *files;
} sym_posix_opts;

/*
 * If argv[*i] is --sym-args MIN MAX N, --sym-stdin N or --sym-file NAME N, record it in
 * *o (zero-initialised before the first call), advance *i past its values and return 1;
 * return 0 for any other argument; -1 with *err (malloc'ed, says what is wrong and the
 * bounds POSIX_MAX_*) for missing or bad values, a repeated file name or too many files.
 */
int posix_parse_option(sym_posix_opts *o, int argc, char **argv, int *i, char **err);

/* 1 when any option was given (o may be NULL). */
int posix_enabled(const sym_posix_opts *o);

/* Number of input values the start-up reads before the program's own inputs (docs/design.md):
 * 1 + MAX*N for --sym-args, 1 + N for --sym-stdin and for each --sym-file; 0 without options. */
uint64_t posix_prefix_inputs(const sym_posix_opts *o);

/* Write the C definition of `const struct sym_posix_conf __sym_posix_conf` (the layout
 * models_io.c and replay.c declare) for *o to path, atomically. 0, or -1 with *err. */
int posix_write_conf(const sym_posix_opts *o, const char *path, char **err);

/* Release the file names and reset *o. */
void posix_opts_free(sym_posix_opts *o);

/* The directory of the runtime files (libsympath-rt.a, rt_fast.bc, models.bc, replay.c,
 * sympath_unit_rt.h): $SYMPATH_LIB_DIR when set, else the build's lib/ (paths.c). */
const char *instrument_lib_dir(void);
/* The directory of sympath.h: $SYMPATH_INCLUDE_DIR when set, else the source tree's include/. */
const char *instrument_include_dir(void);

typedef struct build_opts {
    const char *const *sources; /* C files as given by the user */
    size_t nsources;
    const char *cflags;                 /* extra compiler flags, split on blanks (quotes honoured); may be NULL */
    const char *work_dir;               /* existing directory for intermediate files (bitcode, logs) */
    const char *rt_dir;                 /* directory holding libsympath-rt.a, rt_fast.bc, models.bc */
    const char *include_dir;            /* directory holding sympath.h (passed as -I) */
    const char *exe_path;               /* output: the instrumented executor */
    const char *sites_path;             /* output: the site table */
    const char *clang;                  /* clang binary (e.g. "clang-14") */
    const struct sym_posix_opts *posix; /* symbolic argv/stdin/files (posix.c), or NULL: none */
    volatile sig_atomic_t *interrupted; /* read only; once non-zero (Ctrl-C), the compiler or linker
                                           in progress is terminated and no further one starts, so
                                           build_executor fails soon; NULL: never */
} build_opts;

typedef struct build_stats {
    uint32_t functions;            /* instrumented function definitions */
    uint32_t branch_sites;         /* coverage sites in user code */
    uint32_t slots;                /* coverage slots (all sites, models included) */
    uint32_t locations;            /* error-call locations */
    uint64_t unsupported;          /* instructions of kinds not modelled (details in the site table) */
    uint32_t concrete_clones;      /* input-free functions given a concrete-mode copy F.sym_concrete */
    uint32_t dispatches;           /* of which switch to their copy at entry when nothing is symbolic */
    double seconds;                /* wall time of the whole build, seconds */
    uint32_t nondet_generated;     /* __VERIFIER_nondet_<T> of other names defined as inputs (nondet.c) */
    uint32_t nondet_unsupported;   /* of which the return type cannot be an input: they return 0 */
    char *nondet_unsupported_list; /* "name (returns type)" lines, malloc'ed, or NULL; free with build_stats_free */
    char *sql_strings; /* the program's constant strings that read as SQL statements: NUL-terminated one after the
                        * other, an empty one last (program_sql_strings); a constant that looks like data the program
                        * may bind (9-32 printable bytes, no blank, no '%') comes as byte 1 then its text;
                        * malloc'ed, NULL when none; build_stats_free */
} build_stats;

/* Release what build_executor allocated in *st (the lists); st itself is the caller's. */
void build_stats_free(build_stats *st);

/*
 * Compile each source with `clang -g -O0 -Xclang -disable-O0-optnone -fwrapv
 * -fno-delete-null-pointer-checks -emit-llvm`, link the modules and models.bc, run
 * mem2reg through LLVMRunPasses, instrument every function definition (see
 * docs/instrumentation.md), link rt_fast.bc, optimise and link the executable with
 * libsympath-rt.a. Writes the site table.
 * Returns 0, or -1 with *err (malloc'ed): for a compile error, the compiler's own
 * diagnostics (also already printed on stderr); a missing `main` is reported as such.
 */
int build_executor(const build_opts *o, build_stats *st, char **err);

/* One mutant of a mutant-schemata build (build_mutants); its id is its index. */
typedef struct mutant_desc {
    char *function; /* the function it is in (malloc'ed) */
    unsigned line;  /* its source line (debug info), 0 when unknown */
    char *what;     /* the change, e.g. "relational < -> <=", "constant 6 -> 7", "pointer step 1 -> -1" (malloc'ed) */
} mutant_desc;

typedef struct mutant_build_opts {
    const char *const *compile; /* the compiler and its flags (clang, -g -O0 -w, -D, -I, the user's flags): each
                                   source is compiled with them and `-c -emit-llvm`, and they link the result */
    size_t ncompile;
    const char *const *sources; /* the C files, the harness among them */
    size_t nsources;
    const char *const *link; /* added when linking: the replay library's source (which defines __sym_mutant and
                                reads SYMPATH_MUTANT when built with -DSYMPATH_UNIT_MUTANTS), -lm */
    size_t nlink;
    const char *const *functions; /* names of the functions to mutate (a `__real_NAME` copy counts as NAME) */
    size_t nfunctions;
    unsigned max_mutants; /* at most this many (the first ones in source order); 0: 1000 */
    const char *work_dir; /* existing directory: mutant_N.bc, mutants.log */
    const char *exe_path; /* output: the executable */
} mutant_build_opts;

/*
 * Mutant schemata (Untch, Offutt and Harrold, ISSTA 1993) on LLVM IR at -O0: compile every source
 * to bitcode, give each instruction of the chosen functions its mutants at once (relational
 * operator replacement, + <-> -, * -> /, / and % -> *, integer constants c -> c+1 and c -> 0 or
 * 0 -> 1 in comparisons, arithmetic, stores and call arguments, pointer steps p + n -> p - n,
 * && <-> || in an if's condition), each chosen by `__sym_mutant == id` at run time (-1: none, the
 * original program), and link one executable. Returns 0 with *out (malloc'ed array,
 * mutant_descs_free) and *n; -1 with *err (malloc'ed: the compiler's diagnostics) when a source
 * does not compile or the link fails.
 */
int build_mutants(const mutant_build_opts *o, mutant_desc **out, size_t *n, char **err);

/* Free what build_mutants returned (v may be NULL). */
void mutant_descs_free(mutant_desc *v, size_t n);

/*
 * The site table (text, tab-separated, one record per line; written by the instrumenter):
 *   sympath-sites 1
 *   slots <total slots>
 *   site <id> <slot_base> <ndirs> <user:0|1> <line> <col> <file> <function> <kind:br|switch>
 *   loc <id> <line> <col> <file> <function> <what: reach_error|assert|abort|...>
 *   unsupported <count> <instruction kind name>
 *   callee <id> <name>      an uninstrumented function that may receive symbolic arguments
 *                           (ids from 1; the runtime counts its concretizations per id)
 * Site ids and location ids start at 1. user = 0 for sites inside sympath's libc models
 * (not counted as program coverage).
 */
typedef struct site_info {
    uint32_t id, slot_base, ndirs, line, col;
    int user;
    char *file, *function, *kind;
} site_info;

typedef struct loc_info {
    uint32_t id, line, col;
    char *file, *function, *what;
} loc_info;

typedef struct site_table {
    uint32_t nslots;
    uint32_t nsites;
    site_info *sites; /* sites[i].id == i + 1 */
    uint32_t nlocs;
    loc_info *locs; /* locs[i].id == i + 1 */
    uint32_t nunsupported;
    char **unsupported_kind;
    uint64_t *unsupported_count;
    uint32_t *slot_site; /* nslots entries: site id owning each slot */
    uint32_t ncallees;
    char **callees; /* callees[i] has id i + 1 */
} site_table;

/* Read a site table. Returns 0, or -1 with *err (malloc'ed, names path and line). */
int site_table_load(const char *path, site_table *t, char **err);
void site_table_free(site_table *t);

#endif
