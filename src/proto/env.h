/* env.h: the name of every SYMPATH_* environment variable one sympath process sets and another reads; self-contained (the runtime and the replay library include it alone). */
#ifndef SYMPATH_ENV_H
#define SYMPATH_ENV_H

/*
 * One macro per variable, so that the side that sets a variable and the side that
 * reads it cannot spell it differently: every getenv, setenv, putenv and "NAME=..."
 * string in src/ uses these macros (tests/unit/test_proto_env.c fails on a
 * "SYMPATH_..." string literal anywhere else in src/). A "NAME=value" string is built
 * by literal concatenation: SYMPATH_ENV_SHM_FD "=%d".
 *
 * Like trace.h, this header includes nothing and is included on its own: by the
 * runtime (libsympath-rt.a) and, copied next to them as lib/sympath_env.h, by the
 * replay library (replay.c, replay_db.c, replay_pq.c) and the unit harness's
 * sympath_unit_rt.h, which are compiled into the user's program without src/.
 *
 * Each entry: who sets it -> who reads it: its format.
 */

/* ---- the fork server (protocol in trace.h) ----
 * Set by explore/executor_server.c for every server start (and removed from the
 * inherited environment first); read by runtime/core/rt_main.c. Decimal integers. */
#define SYMPATH_ENV_SHM_FD "SYMPATH_SHM_FD" /* fd of the shared region (trace.h layout) */
/* pipe read end, explorer -> server commands; also tells the database runtimes they run under a fork server */
#define SYMPATH_ENV_CTL_FD "SYMPATH_CTL_FD"
#define SYMPATH_ENV_ST_FD "SYMPATH_ST_FD"   /* pipe write end, server -> explorer replies */
#define SYMPATH_ENV_OUT_FD "SYMPATH_OUT_FD" /* fd of the file receiving stdout+stderr (-1 or absent: none) */
#define SYMPATH_ENV_MEM_MB "SYMPATH_MEM_MB" /* address-space limit of a run in MiB (0 or absent: none) */
#define SYMPATH_ENV_OUT_KB "SYMPATH_OUT_KB" /* cap of the output file in KiB (absent: 1024) */

/* ---- the executor run by hand (standalone, no SYMPATH_CTL_FD) ----
 * Set by a user debugging an executor; read by runtime/core/rt_main.c. */
#define SYMPATH_ENV_INPUTS "SYMPATH_INPUTS"         /* path of a file of input values, one a line (decimal or 0x hex) */
#define SYMPATH_ENV_TRACE_DUMP "SYMPATH_TRACE_DUMP" /* "1": dump the run's trace on stderr */

/* ---- database fixture mode (--db on SQLite) ----
 * Set by db/setup.c (db_setup_run) in the explorer, inherited by every executor; read
 * by runtime/dbcommon/db_fixture_rt.c (SCHEMA also by runtime/sqlite/db_sqlite_open.c). */
#define SYMPATH_ENV_DB_SCHEMA "SYMPATH_DB_SCHEMA" /* path of the schema DDL copy a run's database starts from */
#define SYMPATH_ENV_DB_DIR "SYMPATH_DB_DIR"       /* directory where runs create their databases */
#define SYMPATH_ENV_DB_LOG "SYMPATH_DB_LOG"       /* path of the runtime's database log (the explorer reads it) */
#define SYMPATH_ENV_DB_ROWS "SYMPATH_DB_ROWS"     /* row slots per table, decimal 1..64 (absent: 3) */
#define SYMPATH_ENV_DB_TEXT "SYMPATH_DB_TEXT"     /* bytes of a TEXT cell, decimal 1..64 (absent: 8) */
#define SYMPATH_ENV_DB_FAULTS "SYMPATH_DB_FAULTS" /* "0": no injected faults (--no-db-faults; db_fault.c) */
/* Not a variable, shared the same way: the file an injected open fault opens (it cannot exist),
 * by runtime/sqlite/db_sqlite_open.c and replay/rt/replay_db.c alike. */
#define SYMPATH_FAULT_NO_FILE "/nonexistent/sympath-injected-fault/db"

/* ---- database fixture mode on PostgreSQL ----
 * Set by db/setup_pg.c in the explorer; read by runtime/pq/db_pq_build.c. */
#define SYMPATH_ENV_DB_PG_SCRATCH "SYMPATH_DB_PG_SCRATCH" /* conninfo of the scratch database */
#define SYMPATH_ENV_DB_PG_DDL "SYMPATH_DB_PG_DDL"         /* path of the DDL that builds a run's schema */
#define SYMPATH_ENV_DB_PG_PREFIX "SYMPATH_DB_PG_PREFIX"   /* prefix of the runs' schema names ("sympath_PID") */
/* Set by explore/explorer.c, one per executor before it starts (PostgreSQL suites);
 * read by runtime/pq/db_pq_record.c: path of the file the run's results are recorded
 * to, in the .results format replay_pq.c reads. */
#define SYMPATH_ENV_DB_RESULTS "SYMPATH_DB_RESULTS"

/* ---- data mode (`sympath data`, protocol in data/data.h) ----
 * DB, PLAN and LOG set by data/data_explore.c, SCHEMA by db/setup.c (db_setup_data);
 * read by runtime/dbcommon/data_rt.c (SCHEMA by runtime/sqlite/data_sqlite.c). Paths,
 * except DB. */
#define SYMPATH_ENV_DATA_DB "SYMPATH_DATA_DB"         /* the user's database: SQLite path or PostgreSQL conninfo */
#define SYMPATH_ENV_DATA_PLAN "SYMPATH_DATA_PLAN"     /* the plan file, rewritten before every run */
#define SYMPATH_ENV_DATA_LOG "SYMPATH_DATA_LOG"       /* the log file the runtime appends to */
#define SYMPATH_ENV_DATA_SCHEMA "SYMPATH_DATA_SCHEMA" /* SQLite: the schema DDL (rowid columns) */

/* ---- the replay library (src/replay/rt) ----
 * Set by replay/suite.c for every test it runs (TESTCASE also by unit/step_record.c
 * for the recorder); read by replay.c, replay_db.c, replay_pq.c. */
#define SYMPATH_ENV_TESTCASE "SYMPATH_TESTCASE"                   /* path of the test case (Test-Comp XML) to replay */
#define SYMPATH_ENV_REPLAY_DB_SCHEMA "SYMPATH_REPLAY_DB_SCHEMA"   /* path of the schema copy (SQLite suites) */
#define SYMPATH_ENV_REPLAY_DB_FIXTURE "SYMPATH_REPLAY_DB_FIXTURE" /* path of the test's fixture, test-N.sql */
#define SYMPATH_ENV_REPLAY_DB_INPUTS "SYMPATH_REPLAY_DB_INPUTS" /* decimal: inputs the fixture takes from the vector */
#define SYMPATH_ENV_REPLAY_DB_FILE "SYMPATH_REPLAY_DB_FILE"     /* path of the database the test runs on */
#define SYMPATH_ENV_REPLAY_RESULTS "SYMPATH_REPLAY_RESULTS"     /* path of the test's .results (PostgreSQL suites) */

/* ---- sympath unit ----
 * Set by unit/pipeline.c (FUNCTION, for each explored target) and unit/step_record.c
 * (both, for each recorder run); read by the generated harness's main (unit/harness.c)
 * and by sympath_unit_rt.h. */
#define SYMPATH_ENV_UNIT_FUNCTION "SYMPATH_UNIT_FUNCTION" /* name of the target function the harness drives */
#define SYMPATH_ENV_UNIT_RECORD "SYMPATH_UNIT_RECORD"     /* path of the record file the recorder writes */
/* the byte (decimal) the recorder fills the stack below the call and the blocks the call mallocs with: a value
 * that differs between two fillings was read from memory nobody wrote (step_record.c) */
#define SYMPATH_ENV_UNIT_PAINT "SYMPATH_UNIT_PAINT"
/* the mutant a mutant-schemata recorder runs (build_mutants), or list:ID,...; unset: none */
#define SYMPATH_ENV_MUTANT "SYMPATH_MUTANT"

/* ---- overrides a user may set; read by sympath itself ---- */
#define SYMPATH_ENV_CC "SYMPATH_CC"           /* the clang that compiles programs (instead of the build's clang-14) */
#define SYMPATH_ENV_LIB_DIR "SYMPATH_LIB_DIR" /* the runtime's lib/ directory (instrument/paths.c) */
#define SYMPATH_ENV_INCLUDE_DIR "SYMPATH_INCLUDE_DIR" /* the directory of sympath.h (instrument/paths.c) */
/* "screen" or "line": the progress display even off a terminal (report/progress.c; tests) */
#define SYMPATH_ENV_PROGRESS "SYMPATH_PROGRESS"
#define SYMPATH_ENV_FAULT "SYMPATH_FAULT" /* comma-separated fault names injected for tests (util/fault.c) */

#endif
