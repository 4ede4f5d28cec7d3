/* proto.h: the formats that cross processes (trace ABI, replay.conf, .results, query logs, the executor's environment): one reader and one writer each. */
#ifndef SYMPATH_PROTO_H
#define SYMPATH_PROTO_H

#include <stddef.h>
#include <stdint.h>

struct strbuf;

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
 *   db_inputs N             --db (SQLite or PostgreSQL): the number of inputs the fixture takes in a
 *                           test vector, its last the injected fault (db:fault)
 *   db_faults 0             --no-db-faults: the replay injects no fault whatever db:fault holds (the
 *                           input stays in the vector, unconstrained: a model or diversification may
 *                           give it any value)
 *   replaydb PATH           replay_db.c
 *   replaypq PATH           replay_pq.c (PostgreSQL suites replay from recorded results)
 * Unknown keys are ignored (a newer sympath may add some); a repeated single-valued
 * key keeps its last value.
 */

/* Where replay.conf lives under a suite's output directory OUT. */
#define REPLAY_CONF_FILE "build/replay.conf"

typedef struct replay_conf_file {
    char *name;    /* as the program opens it */
    uint32_t size; /* at most this many bytes */
} replay_conf_file;

typedef struct replay_conf {
    char **sources; /* absolute paths, NULL-terminated (util_free_strv) */
    size_t nsources;
    char *cflags;      /* as the user gave them (NULL when absent; written as "") */
    char *include_dir; /* NULL when absent */
    char *replaylib;
    int64_t branches_covered; /* -1 when absent (both) */
    int64_t branches_total;
    char *nondet; /* NULL when absent, as every path below */
    int args_on;  /* sym-args given */
    uint32_t args_min, args_max, arg_len;
    int stdin_on; /* sym-stdin given */
    uint32_t stdin_max;
    replay_conf_file *files; /* sym-file lines */
    size_t nfiles;
    char *posixconf;
    char *db_schema; /* replaydb belongs to it: written only with it */
    uint64_t db_inputs;
    int db_no_faults; /* "db_faults 0" */
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

/* ---- .results (results.c) ----
 *
 * The results a PostgreSQL test's SELECTs got when the test ran, so that `sympath
 * replay` can rebuild the run without a server (src/replay/rt/replay_pq.c serves them).
 * Three writers use the functions below: the executor in fixture mode
 * (src/runtime/pq/db_pq_record.c, SYMPATH_DB_RESULTS), the explorer for fixture mode's
 * kept tests (src/explore/db_report.c, TEST.results beside TEST.sql) and for data mode
 * (src/data/data_log.c, from the executor's query log). One reader: results_parse,
 * used by the replay and the tests. Text, one record per line, fields separated by tabs:
 *
 *   sympath-results 1                      the first line, exactly
 *   writes<TAB>allowed                     optional, right after it: a fixture-mode test, whose
 *                                          writes succeeded (data mode refused every write)
 *   result<TAB><site><TAB><ncols>          a block: one SELECT executed, in execution order;
 *                                          site is its data_site_id (16 lowercase hex digits),
 *                                          ncols 0..RESULTS_MAX_COLS
 *   names<TAB><name0>...                   optional, first in the block: ncols escaped fields
 *   error<TAB><message>                    optional: the SELECT failed with this message (flat)
 *   row<TAB><v0><TAB><v1>...               ncols escaped fields each, one line per row
 *   end                                    closes the block
 *   fail<TAB><message><TAB><sql>           between blocks: a statement other than a SELECT that
 *                                          failed (both flat; sql as proto_flat made it)
 *   done<TAB><tuples><TAB><sql>            between blocks: a statement other than a SELECT that
 *                                          succeeded with a row count (PQcmdTuples: 1 to 20
 *                                          decimal digits) in execution order among the fail and
 *                                          done lines; a statement without one is not listed, and
 *                                          a file without done lines (older) gives every write ""
 *
 * Escaped field: "\N" is SQL NULL; otherwise the text with \ tab newline CR written as
 * \\ \t \n \r (no other escape; a value cannot contain a NUL byte). Flat field: the text
 * with tabs, newlines and carriage returns turned into blanks (proto_flat), nothing
 * escaped. A trailing CR at the end of a line is dropped. Anything else (an unknown
 * record, a record outside its place, a wrong field count, a bad escape, a NUL byte, a
 * block without `end`) is an error naming the line.
 */

#define RESULTS_MAX_COLS 65536
#define RESULTS_MAX_TUPLES 20 /* digits of a "done" line's row count (a 64-bit count has at most 20) */

/* One record of a .results file: a SELECT's block, a failed statement or a statement done with a row count. */
typedef struct results_item {
    int is_fail;                         /* 1: a "fail" line (msg, sql below); 0: a result block or a "done" line */
    int is_done;                         /* 1: a "done" line (tuples, sql below) */
    char tuples[RESULTS_MAX_TUPLES + 1]; /* is_done: the PQcmdTuples text, NUL-terminated */
    char site[17];                       /* the SELECT's data_site_id, NUL-terminated */
    int ncols;
    char **names; /* ncols names, or NULL when the block has no names line */
    char *error;  /* the SELECT's error message, or NULL */
    char ***rows; /* nrows rows of ncols values; a NULL value is SQL NULL */
    size_t nrows;
    char *msg, *sql; /* is_fail: the message and the statement (flat); is_done: sql only */
} results_item;

/* A whole .results file; owns everything it points to (results_free). */
typedef struct results {
    int writes_allowed;
    results_item *items; /* in file order */
    size_t nitems;
} results;

/* Copy src (NULL: "") into dst (cap > 0 bytes, NUL-terminated, cut to cap - 1 bytes) with
 * tabs, newlines and carriage returns as blanks: one flat field. dst may be src. Also the
 * flattening of the database modes' query logs (src/runtime/dbcommon/db_log.h). */
void proto_flat(char *dst, size_t cap, const char *src);

/* Writer pieces (append to b; allocation failure is b's sticky `failed`). Values are
 * escaped, messages and SQL flattened here: callers pass raw text. */
/* The first line, and "writes allowed" after it when writes_allowed. */
void results_put_header(struct strbuf *b, int writes_allowed);
/* "result" opening a block: site (16 hex digits) and its column count. */
void results_put_result(struct strbuf *b, const char *site, int ncols);
/* A "names" line of n names (each a C string). */
void results_put_names(struct strbuf *b, const char *const *names, int n);
/* An "error" line: the block's SELECT failed with msg. */
void results_put_error(struct strbuf *b, const char *msg);
/* A "row" line of n values: vals[i] NULL is SQL NULL, else lens[i] bytes (lens NULL:
 * strlen), cut at a NUL byte. */
void results_put_row(struct strbuf *b, const char *const *vals, const size_t *lens, int n);
/* One escaped field without its tab: p NULL is \N, else len bytes cut at a NUL. Also the
 * value of data mode's "v" log lines (src/data/data.h). */
void results_put_value(struct strbuf *b, const char *p, size_t len);
/* "end", closing the block. */
void results_put_end(struct strbuf *b);
/* A "fail" line: a statement other than a SELECT (sql) failed with msg. */
void results_put_fail(struct strbuf *b, const char *msg, const char *sql);
/* A "done" line: a statement other than a SELECT (sql, flattened here) succeeded and libpq's
 * PQcmdTuples of its result was tuples (1 to RESULTS_MAX_TUPLES decimal digits; the caller
 * writes no line for an empty one). A tuples that is not such a text is written as it is and
 * refused by the reader. */
void results_put_done(struct strbuf *b, const char *tuples, const char *sql);

/* Undo the escaping of one field in place: NULL for "\N", else s. -1 in *bad (may be
 * NULL) for an unknown escape or a trailing backslash (s is then unspecified). */
char *results_unescape(char *s, int *bad);

/* An empty results (no items, writes not allowed). */
void results_init(results *r);
/* Free everything r owns and leave it as results_init does. */
void results_free(results *r);

/* The text of r in the format above (malloc'ed), or NULL when out of memory or when an
 * item cannot be written (a site that is not 16 hex digits, a row of the wrong width). */
char *results_format(const results *r);

/*
 * Parse len bytes (any bytes, need not be NUL-terminated) into *r (initialised here).
 * 0, or -1 with *err (malloc'ed) naming the line: "line 4: row has 1 fields, the block
 * has 2 columns"; *r is then empty.
 */
int results_parse(const char *text, size_t len, results *r, char **err);

/* Read and parse the file at path: errors as results_parse prefixed by the path, or
 * "cannot read PATH: REASON" (errno kept). */
int results_read(const char *path, results *r, char **err);

/* ---- messages of a parallel exploration (par.c) ----
 *
 * `sympath run -j N` (N > 1) and `sympath run --mpi` split one exploration among worker
 * processes, each with its own execution tree, solver and executor, and a coordinator
 * (endpoint 0) that balances work and owns the test suite (Cloud9: Bucur et al., EuroSys
 * 2011; docs/parallel.md). They talk through a par_link: a message is a type byte and a
 * payload of fields written with par_put_* and read back in the same order with
 * par_get_* (little-endian; a byte string is a u32 length and its bytes; a NULL string is
 * the length 0xffffffff). What each type carries is defined by its writer and reader in
 * src/explore (worker.c, coordinator.c); the codec only checks bounds.
 */

/* A link between the coordinator (endpoint 0) and the workers (endpoints 1..nworkers). A
 * coordinator may send to any worker; a worker only to 0. Implementations: par_link_fd
 * (sockets between processes of one machine, below) and src/parallel's Open MPI link. */
typedef struct par_link par_link;
struct par_link {
    int self;     /* this process's endpoint: 0 coordinator, 1..nworkers a worker */
    int nworkers; /* >= 1 */
    /* Send one message of len bytes to endpoint dest. 0, or -1 when the peer is gone. */
    int (*send)(par_link *l, int dest, const void *buf, size_t len);
    /* Receive one message from any endpoint, waiting at most timeout_ms milliseconds (0:
     * only what is there, < 0: no limit). 1 with *src, *buf (malloc'ed) and *len; 0 when
     * nothing came in time (or a signal interrupted the wait); -1 when every peer is gone.
     * A peer that closes its end gives one last message of length 0 from it. */
    int (*recv)(par_link *l, int *src, void **buf, size_t *len, int timeout_ms);
    /* Close the link and free it. */
    void (*close)(par_link *l);
    void *impl;
};

/* A message being written (par_msg_init, par_put_*) or read (par_recv, par_get_*). */
typedef struct par_msg {
    uint8_t type;
    uint8_t *buf; /* payload (owned) */
    size_t len, cap, pos;
    int bad; /* a read went past the end, or a write ran out of memory: the message is unusable */
} par_msg;

/* Start an empty message of this type (no allocation until a field is put). */
void par_msg_init(par_msg *m, uint8_t type);
void par_put_u8(par_msg *m, uint8_t v);
void par_put_u32(par_msg *m, uint32_t v);
void par_put_u64(par_msg *m, uint64_t v);
void par_put_f64(par_msg *m, double v);
/* n bytes, length-prefixed (n < 0xffffffff). */
void par_put_bytes(par_msg *m, const void *p, size_t n);
/* A NUL-terminated string, or NULL. */
void par_put_str(par_msg *m, const char *s);
/* Readers: the next field, or 0 / NULL with m->bad set past the end. */
uint8_t par_get_u8(par_msg *m);
uint32_t par_get_u32(par_msg *m);
uint64_t par_get_u64(par_msg *m);
double par_get_f64(par_msg *m);
/* A pointer into the message (valid until par_msg_free) to the next byte string; *n its length. */
const uint8_t *par_get_bytes(par_msg *m, size_t *n);
/* The next string, malloc'ed (NULL for a NULL string or past the end). */
char *par_get_str(par_msg *m);
/* Free the payload; m may be reused with par_msg_init. */
void par_msg_free(par_msg *m);

/* Send m to dest (type byte + payload). 0, or -1 (m->bad, or the peer is gone). */
int par_send(par_link *l, int dest, const par_msg *m);
/* Receive a message into m (replacing its content) as par_link.recv: 1 with *src, 0 on
 * time-out, -1 when every peer is gone; an empty frame (the peer closed its end) is a
 * message with m->bad set and m->len 0. */
int par_recv(par_link *l, int *src, par_msg *m, int timeout_ms);

/*
 * A link over connected stream sockets (socketpair(2)), for processes of one machine.
 * Coordinator (self 0): fds[i-1] is worker i's socket, i = 1..nworkers. Worker: fds[0]
 * is its socket to the coordinator. Frames are a u32 length and the message. The link
 * owns the descriptors (closed by close). NULL when out of memory.
 */
par_link *par_link_fd_new(int self, int nworkers, const int *fds);

#endif
