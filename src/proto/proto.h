/* proto.h: the formats that cross processes (trace ABI, replay.conf, .results, query logs, the executor's environment): one reader and one writer each. */
#ifndef SYMPATH_PROTO_H
#define SYMPATH_PROTO_H

#include <stddef.h>
#include <stdint.h>

/*
 * Every file or shared-memory layout one sympath process writes and another reads
 * is defined here, with its writer and its reader next to each other and a
 * round-trip test in tests/unit/test_proto_*.c. Sections are added per format.
 *
 * proto.h is the component's interface, with two exceptions, each a header that is
 * included on its own and includes nothing of sympath (only <stdint.h> at most):
 *   trace.h  the trace ABI: the shared-memory region between explorer and executor
 *            (inputs in; coverage, trace records and counters out) and the fork-server
 *            protocol. Written by the runtime (src/runtime/core: rt_trace.c, rt_input.c,
 *            rt_main.c; libsympath-rt.a is linked into every executor, apart from the
 *            explorer's libraries), read by src/explore/trace_read.c and executor*.c;
 *            the pass (src/instrument) uses its enums. Round trip:
 *            tests/unit/test_proto_trace.c (the runtime writes, trace_read reads back).
 *   env.h    the names of the SYMPATH_* environment variables: who sets each one, who
 *            reads it, its format. Included by the runtime and, copied as
 *            lib/sympath_env.h, by the replay library and sympath_unit_rt.h, which are
 *            compiled into the user's program without src/. test_proto_env checks that
 *            no other file of src/ spells a SYMPATH_ name as a string literal.
 * proto.h itself may grow what a self-contained header cannot hold (readers and
 * writers that need util/).
 */

/* ---- replay.conf (replay_conf.c) ----
 *
 * OUT/build/replay.conf tells `sympath replay` how to rebuild a suite's program
 * natively. It is written by `sympath run` and `sympath data` (twice by run: before
 * the exploration with branches 0 0, after it with the figures) and read by the
 * replay component (src/replay). Text, one `KEY VALUE` per line: the key is the
 * text before the first space, the value everything after it (blanks kept, so
 * paths may contain spaces; a value can hold neither a newline nor a carriage
 * return). The first line is exactly "sympath-replay 1". Keys, in the order the
 * writer puts them:
 *   source PATH             a source file, absolute; repeated, in build order (>= 1)
 *   cflags TEXT             the user's compiler flags; split by util_split_words
 *   include DIR             the directory of sympath.h
 *   replaylib PATH          replay.c, the replay library (required)
 *   branches C T            branch directions covered / in total as sympath counted them
 *   nondet PATH             bitcode of the generated input functions (nondet.bc)
 *   sym-args MIN MAX N      --sym-args (informational: replay.c reads posix_conf.c)
 *   sym-stdin N             --sym-stdin
 *   sym-file N NAME         --sym-file NAME N; repeated, in option order (NAME is the rest)
 *   posixconf PATH          the generated posix_conf.c
 *   db_schema PATH          --db on SQLite: the schema copy a test's database starts from
 *   db_inputs N             the number of inputs the fixture takes in a test vector
 *   replaydb PATH           replay_db.c
 *   replaypq PATH           replay_pq.c (PostgreSQL suites replay from recorded results)
 * Unknown keys are ignored (a newer sympath may add some); a repeated single-valued
 * key keeps its last value.
 */

/* Where replay.conf lives under a suite's output directory OUT. */
#define REPLAY_CONF_FILE "build/replay.conf"

typedef struct replay_conf_file {
    char *name;                 /* as the program opens it */
    uint32_t size;              /* at most this many bytes */
} replay_conf_file;

typedef struct replay_conf {
    char **sources;             /* absolute paths, NULL-terminated (util_free_strv) */
    size_t nsources;
    char *cflags;               /* as the user gave them (NULL when absent; written as "") */
    char *include_dir;          /* NULL when absent */
    char *replaylib;
    int64_t branches_covered;   /* -1 when absent (both) */
    int64_t branches_total;
    char *nondet;               /* NULL when absent, as every path below */
    int args_on;                /* sym-args given */
    uint32_t args_min, args_max, arg_len;
    int stdin_on;               /* sym-stdin given */
    uint32_t stdin_max;
    replay_conf_file *files;    /* sym-file lines */
    size_t nfiles;
    char *posixconf;
    char *db_schema;            /* db_inputs and replaydb belong to it: written only with it */
    uint64_t db_inputs;
    char *replaydb;
    char *replaypq;
} replay_conf;

/* An empty configuration (no sources, branches -1): the state replay_conf_parse starts from. */
void replay_conf_init(replay_conf *c);

/* Free everything c owns and leave it as replay_conf_init does. */
void replay_conf_free(replay_conf *c);

/*
 * Helpers to fill a configuration before writing it: a copy of path is appended to
 * c->sources; a copy of (name, size) to c->files. 0, or -1 when out of memory.
 */
int replay_conf_add_source(replay_conf *c, const char *path);
int replay_conf_add_file(replay_conf *c, const char *name, uint32_t size);

/*
 * The text of c in the format above (malloc'ed, NUL-terminated). Returns NULL with
 * *err (malloc'ed) when a value contains a newline or carriage return (it could not
 * be read back) or when out of memory.
 */
char *replay_conf_format(const replay_conf *c, char **err);

/*
 * Write c to path atomically (util_write_atomic: the old file or the whole new one).
 * 0, or -1 with *err (malloc'ed; says which file and why).
 */
int replay_conf_write(const char *path, const replay_conf *c, char **err);

/*
 * Parse len bytes of text (need not be NUL-terminated; may hold any bytes) into *c,
 * which the function initialises. Returns 0, or -1 with *err (malloc'ed) naming the
 * line: "line 3: branches needs two counts, got 'x'", "line 1: not a version 1 replay
 * configuration", a NUL byte, a cflags value with an unterminated quote, a missing
 * value of a known key; or, without a line, a configuration lacking `source` or
 * `replaylib`. On failure *c is freed (empty) as well.
 */
int replay_conf_parse(const char *text, size_t len, replay_conf *c, char **err);

/*
 * Read and parse the file at path. Errors as replay_conf_parse, prefixed by the path
 * ("OUT/build/replay.conf: line 3: ..."), or "cannot read PATH: REASON" (errno kept)
 * when it cannot be read.
 */
int replay_conf_read(const char *path, replay_conf *c, char **err);

#endif
