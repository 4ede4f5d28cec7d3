/* instrument.h: C sources to an instrumented executor (clang-14 bitcode, LLVM C API instrumentation, final link). */
#ifndef SYMPATH_INSTRUMENT_H
#define SYMPATH_INSTRUMENT_H

#include <stddef.h>
#include <stdint.h>

typedef struct build_opts {
    const char *const *sources; /* C files as given by the user */
    size_t nsources;
    const char *cflags;         /* extra compiler flags, split on blanks (quotes honoured); may be NULL */
    const char *work_dir;       /* existing directory for intermediate files (bitcode, logs) */
    const char *rt_dir;         /* directory holding libsympath-rt.a, rt_fast.bc, models.bc */
    const char *include_dir;    /* directory holding sympath.h (passed as -I) */
    const char *exe_path;       /* output: the instrumented executor */
    const char *sites_path;     /* output: the site table */
    const char *clang;          /* clang binary (e.g. "clang-14") */
} build_opts;

typedef struct build_stats {
    uint32_t functions;         /* instrumented function definitions */
    uint32_t branch_sites;      /* coverage sites in user code */
    uint32_t slots;             /* coverage slots (all sites, models included) */
    uint32_t locations;         /* error-call locations */
    uint64_t unsupported;       /* instructions of kinds not modelled (details in the site table) */
    uint32_t concrete_clones;   /* input-free functions given a concrete-mode copy F.sym_concrete */
    uint32_t dispatches;        /* of which switch to their copy at entry when nothing is symbolic */
    double seconds;             /* wall time of the whole build, seconds */
} build_stats;

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
    uint32_t nsites;  site_info *sites;   /* sites[i].id == i + 1 */
    uint32_t nlocs;   loc_info *locs;     /* locs[i].id == i + 1 */
    uint32_t nunsupported; char **unsupported_kind; uint64_t *unsupported_count;
    uint32_t *slot_site;                  /* nslots entries: site id owning each slot */
    uint32_t ncallees; char **callees;    /* callees[i] has id i + 1 */
} site_table;

/* Read a site table. Returns 0, or -1 with *err (malloc'ed, names path and line). */
int site_table_load(const char *path, site_table *t, char **err);
void site_table_free(site_table *t);

#endif
