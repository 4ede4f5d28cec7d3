/* data.h: `sympath data`: testing over an existing database with the queries that reach new paths (Li and Csallner, DBTest 2010). */
#ifndef SYMPATH_DATA_H
#define SYMPATH_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include "../expr/expr.h"

/*
 * Li and Csallner, "Dynamic symbolic database application testing" (DBTest 2010),
 * sections 3-5, on SQLite and PostgreSQL. The program runs on the user's data, never
 * written; each tuple it processes yields a path over the tuple's column values; the
 * explorer keeps an execution tree of those paths (one per query site), its complement
 * nodes, turns candidate nodes into queries (the program's query with the node's path
 * condition as extra conjuncts), ranks them by estimated cost per new path with the
 * DBMS's cardinality estimates, and lets the next run see only the first n_q tuples of
 * the chosen query.
 *
 * ---- protocol between the explorer and the executor (runtime: data_sqlite.c, data_pq.c)
 *
 * Environment of the executor:
 *   SYMPATH_DATA_DB    the user's database: an SQLite file path, or a PostgreSQL conninfo
 *                      (URI "postgresql://..." / "postgres://..." or "key=value ...")
 *   SYMPATH_DATA_PLAN  the plan file, rewritten by the explorer before every run
 *   SYMPATH_DATA_LOG   the log file the runtime appends to (the explorer empties it per run)
 *   SYMPATH_DATA_SCHEMA  SQLite: the schema DDL (to add rowid columns to understood queries)
 *
 * The program's open / connect goes to SYMPATH_DATA_DB, read-only (SQLite:
 * SQLITE_OPEN_READONLY; PostgreSQL: default_transaction_read_only, every transaction READ
 * ONLY). A statement that would write fails with the DBMS's own read-only error, which
 * the program sees; the runtime logs it ("w" line) and the report lists it.
 *
 * Plan file, one entry per line, fields separated by one tab:
 *   limit <n>                       LIMIT of every SELECT without a "site" line (0: none)
 *   symbolic 0                      the full-scan comparison run: no data inputs, rows counted
 *   site <site id> <n> <m> <condition>  the SELECT of that site gets WHERE <condition>
 *                                   LIMIT n OFFSET m (n 0: no LIMIT; condition "": no WHERE):
 *                                   a query asked again continues after the tuples it gave
 * A SELECT is run as data_wrap_select(...) of its text: the program sees only those rows.
 *
 * Log file (SYMPATH_DATA_LOG), one line per event, tab-separated, tabs/newlines inside
 * fields replaced by blanks:
 *   s <site id> <ncols> <dialect> <sql> [<param>...]   a SELECT site was executed; its
 *        original SQL and the bound parameters as SQL literals (db_sql_int, db_sql_double, db_sql_text)
 *   t <site id> <tuple> <key>...    a row returned to the program; tuple = run-wide number
 *        (0, 1, ...) in fetch order; key = the row's origin for the replay fixture: one
 *        "<table>:<rowid>" per FROM item (SQLite, understood queries), "pg:<hash of the
 *        row's values>" (PostgreSQL: no row identity; equal rows count as one), or "-"
 *   v <tuple> <col> <value>         PostgreSQL: the value of result column col of that tuple
 *        as libpq returned it (\N for NULL; \ tab newline CR escaped as \\ \t \n \r), for
 *        the replay's recorded results
 *   n <site id> <name>...           PostgreSQL, after "s": the result columns' names (the
 *        wrapped query gives them back to the program; the replay's results need them)
 *   c <site id> <rows>              "symbolic 0" (the full-scan run): rows returned and not
 *        logged one by one (at reset, finalize or exit), instead of t and v lines
 *   k <site id> <table>...          SQLite, a site whose rows have no keys (aggregates, GROUP
 *        BY, ...): the tables its query reads (fixtures may then hold them whole)
 *   w <message> <sql>               a statement that failed (writes refused, errors)
 *
 * Values the program reads from a returned row are inputs named
 *   data:<site id>:<tuple>:<term>
 * where <term> is an SQL expression over the wrapped query's result columns c0, c1, ...
 * (dialect of the database) whose value equals the input's value: an integer read
 * (64-bit signed), a byte of a text value (8 bits, 0 past its end), a double (IEEE 64
 * bits, SQL REAL / double precision), a type code or length (32 bits). data_sql.c
 * translates branch conditions over such inputs into SQL by substituting the terms.
 */

/* The two dialects the SQL is written in. */
typedef enum data_dialect { DATA_SQLITE = 0, DATA_PG = 1 } data_dialect;

/* Site id of a SELECT: FNV-1a 64 of its text with leading and trailing blanks and a
 * trailing ';' removed, as 16 lowercase hex digits into out (17 bytes). */
void data_site_id(const char *sql, size_t len, char out[17]);

/* True when the text (after blanks and comments) starts with SELECT, WITH, VALUES or a
 * parenthesis: a statement data mode may wrap. */
bool data_is_select(const char *sql, size_t len);

/*
 * The SELECT the database runs for a site: sql[0..len) (a trailing ';' and blanks
 * dropped) as the common table expression
 *   WITH sympath_q(c0, ..., c<ncols-1>) AS (<sql>) SELECT * FROM sympath_q
 *   [WHERE <cond>] [LIMIT <limit>]
 * cond NULL or "" means no WHERE, limit 0 no LIMIT. ncols is the statement's result
 * column count (the CTE's column list must name them all). Parameters of sql keep their
 * numbers (they come first in the text). malloc'ed, NULL when out of memory.
 */
char *data_wrap_select(const char *sql, size_t len, int ncols, const char *cond, uint64_t limit);
/* The same with OFFSET `offset` after the LIMIT (ignored when limit is 0). */
char *data_wrap_select_at(const char *sql, size_t len, int ncols, const char *cond, uint64_t limit, uint64_t offset);

/* SQL literals of values (integers, doubles, text in either dialect): db_sql_int,
 * db_sql_double, db_sql_text of src/db/db.h. */

/* ---------------------------------------------------------------- expressions -> SQL (data_sql.c) */

/* The SQL term of input `index` of a run (from its name data:<site>:<tuple>:<term>),
 * or NULL when the input is not a data input; *is_real says the term is an SQL REAL (the
 * input is a double's bit pattern) rather than an integer. */
typedef const char *(*data_term_fn)(void *ctx, uint32_t index, bool *is_real);

/*
 * Translate a width-1 expression (a branch condition over data inputs) into an SQL
 * boolean expression in dialect d, exactly: the SQL is true for a tuple iff the
 * expression is true with the tuple's values. Bit-vector semantics are kept with masks
 * and sign conversions; 64-bit + - * are assumed not to overflow (SQLite would turn the
 * value into a REAL, PostgreSQL raise an error). Returns the malloc'ed SQL, or NULL when
 * the expression uses something SQL cannot express exactly (division by a non-constant,
 * overflow flags, 32-bit floats, NaN and infinities, a symbol that is not a data input):
 * *why then names it (static string).
 */
char *data_expr_sql(data_dialect d, expr *cond, data_term_fn term, void *ctx, const char **why);

/*
 * PostgreSQL: the same condition with each distinct octet_length(...) and convert_to(...) call
 * (the byte and length terms of data_pq.c) computed once per row, in a one-row correlated
 * subquery: EXISTS (SELECT 1 FROM (SELECT <call> AS sympath_t0, ... OFFSET 0) sympath_x
 * WHERE <cond over sympath_tN>). Same truth value for every row (the subquery has exactly one
 * row); about 4x faster on conditions of atoi digit arithmetic (3.1 s -> 0.85 s on 10^6 rows).
 * Returns cond unchanged (a copy) when it has no such call; malloc'ed, NULL when out of memory.
 */
char *data_pg_share_terms(const char *cond);

/* ---------------------------------------------------------------- the database (source_*.c) */

/* Estimates for one candidate query (the site's query with extra conjuncts). */
typedef struct data_estimate {
    double rows;    /* estimated rows the query returns without LIMIT (cardinality estimate) */
    bool exact;     /* rows is an exact count (a bounded count below its bound) */
    double cost;    /* estimated cost of fetching the first `limit` rows, in the DBMS's units
                        (SQLite: rows visited, estimated; PostgreSQL: EXPLAIN's total cost) */
    double seconds; /* time the estimate took */
} data_estimate;

typedef struct data_source data_source;

/*
 * Open the user's database read-only: an SQLite file (SQLITE_OPEN_READONLY, never
 * written; it must exist) or a PostgreSQL conninfo (a connection whose transactions are
 * READ ONLY). Returns NULL with *err (malloc'ed) on failure: a missing file, a file that
 * is not an SQLite database, a server that does not answer (libpq's message).
 */
data_source *data_source_open(const char *db, char **err);
data_dialect data_source_dialect(const data_source *ds);

/*
 * The DBMS's own estimates for `sql` (a SELECT: the site's wrapped query, see
 * data_wrap_select, with nparams bound parameters as SQL literals params[0..nparams))
 * when at most `limit` rows are fetched (0: all): PostgreSQL's EXPLAIN (FORMAT JSON)
 * "Plan Rows" (rows, exact false) and "Total Cost" (cost). bound and table_rows are unused
 * by PostgreSQL. SQLite has no row estimates of its own (and sympath never runs ANALYZE on
 * the user's file): -1 with *err. The explorer counts rows itself (data_source_count, on a
 * prefix for large queries: docs/data.md). Returns 0, or -1 with *err.
 */
int data_source_estimate(data_source *ds, const char *sql, const char *const *params, int nparams, uint64_t limit,
                         uint64_t bound, double table_rows, data_estimate *out, char **err);

/* Rows the site's query returns on the whole data (the full-scan size): an exact count
 * (SQLite; PostgreSQL: count(*) as well, in the read-only transaction). -1 with *err. */
int64_t data_source_count(data_source *ds, const char *sql, const char *const *params, int nparams, char **err);

/* SQLite: the INSERT statements that recreate the rows `keys` (each "<table>:<rowid>", or
 * "<table>:*" for all its rows) from the user's data, for a replay fixture; malloc'ed text, NULL with *err. */
char *data_source_fixture(data_source *ds, const char *const *keys, size_t nkeys, char **err);

void data_source_close(data_source *ds);

/* ---------------------------------------------------------------- the exploration (data_explore.c) */

typedef struct data_opts {
    const char *db;         /* the user's database (SQLite path or PostgreSQL conninfo) */
    const char *out_dir;    /* existing output directory */
    const char *exe_path;   /* instrumented executor */
    const char *sites_path; /* its site table */
    const char *work_dir;   /* OUT/build: plan and log files */
    const char *const *sources;
    size_t nsources;
    double budget_seconds; /* 0: none */
    unsigned run_timeout_ms, mem_mb, out_kb;
    unsigned first_limit; /* tuples of the first run of each site (n_q of the root) */
    unsigned max_limit;   /* largest n_q considered */
    bool full_scan;       /* one run over every tuple instead (the comparison) */
    int progress;
    double build_seconds;
    volatile sig_atomic_t *interrupted;
} data_opts;

typedef struct data_summary {
    uint32_t slots_total, slots_covered;
    uint64_t runs, queries, tuples_fetched, tests;
    int64_t table_rows; /* rows of the sites' full queries (-1 unknown) */
    uint32_t paths, complement_left;
    const char *stop_reason;
    double seconds;
} data_summary;

/*
 * Run the Li-Csallner loop until no candidate is left, the tuples seen cover the
 * table, the budget ends or *interrupted; write tests (tests/test-NNNNN.xml with the
 * program's inputs, the .sql with the tuples' rows for SQLite, .results with the recorded
 * results for PostgreSQL), report.json with its "data" object, and print the summary.
 * Returns 0, or -1 with *err (malloc'ed) when the exploration could not start.
 */
int data_explore(const data_opts *o, data_summary *sum, char **err);

/* ---------------------------------------------------------------- `sympath data` as a whole (pipeline.c) */

/* What `sympath data` was asked to do: the parsed command line. All borrowed. */
typedef struct data_run_opts {
    const char *out_dir;        /* OUT: tests/, report.json, build/ */
    const char *const *sources; /* the program's C files as given (>= 1) */
    size_t nsources;
    const char *cflags;                 /* --cflags, or NULL */
    const char *db;                     /* --db: an SQLite file or a PostgreSQL conninfo */
    data_opts data;                     /* budget, limits, --first, --max-nq, --full-scan; the paths, sources,
                                         db, build and interrupted fields are set by data_run */
    volatile sig_atomic_t *interrupted; /* set (by a signal handler) to stop after the run in flight; may be NULL */
    void (*before_explore)(void);       /* called once after the build, before the exploration (the CLI arms
                                         Ctrl-C there); may be NULL */
    FILE *log;                          /* messages ("sympath data: ..."); NULL: stderr */
} data_run_opts;

/*
 * `sympath data` after option parsing: resolve the sources, create OUT/build
 * (explore_prepare_out), check the database read-only (SQLite: db_setup_data, its schema
 * for rowid keys and replay; both: data_source_open), build the executor
 * (explore_build_program), explore (data_explore) and write replay.conf
 * (explore_write_replay_conf). Returns the exit code: 0 when the exploration ran, 1 when a
 * source or the database cannot be read, OUT/build cannot be created, the build, the
 * exploration or the replay configuration failed.
 */
int data_run(const data_run_opts *r);

#endif
