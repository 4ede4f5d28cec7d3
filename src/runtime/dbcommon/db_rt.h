/* db_rt.h: fixture mode's state and helpers shared by both databases (db_fixture_rt.c, db_rows.c; used by sqlite/db_sqlite*.c and pq/db_pq*.c). */
#ifndef SYMPATH_DB_RT_H
#define SYMPATH_DB_RT_H

#include <stdbool.h>
#include <stdint.h>
#include <sqlite3.h>
#include "../../db/db.h"
#include "../core/rt_internal.h"

#define DB_MAX_COMBOS 256  /* combinations of row slots a join may have (rows^nfrom) */
#define DB_MAX_INSERTED 32 /* inserted rows of a table that queries model (later ones are concrete) */

/* A row the program inserted with INSERT ... VALUES: its cells keep the expressions of
 * the values it was given, so reading it back is symbolic too. */
typedef struct inserted {
    struct inserted *next;
    int64_t rowid;
    unsigned index; /* 0, 1, ... in insertion order within its table */
    expr *alive;    /* width 1: not deleted since (by an understood DELETE) */
    db_val *cells;  /* ncols cells (bytes copied) */
} inserted;

typedef struct db_run {
    int state; /* 0 not tried, 1 ready (symbolic fixture), -1 no --db (plain pass-through) */
    bool pg;   /* PostgreSQL fixture mode (db_pq.c): rowids are the slots' ctids (block << 16 | offset) */
    db_schema *schema;
    db_limits lim;
    char *path;            /* this run's database file */
    expr **counts;         /* per table: 8-bit row count */
    db_val **cells;        /* per table: rows * ncols cells */
    int64_t **rowids;      /* per table: rowid of each present slot */
    expr ***alive;         /* per table, per slot: present and not deleted by the program (width 1) */
    bool *dirty;           /* per table: changed by the program, concrete from then on */
    bool *untracked;       /* per table: holds a row the program inserted that the model does not track
                            * (its values not modelled): its rows are known but for that one, so a count
                            * of its rows (db_rt.changes) is not the model's */
    struct inserted **ins; /* per table: rows the program inserted in this run (newest first) */
    int log_fd;
    expr *changes; /* rows the last understood UPDATE/DELETE changed or tracked INSERT ... SELECT
                    * inserted (64 bits), NULL: concrete */
    /* The engine's concrete value of column col of the row of table ti whose row id is rowid (SQLite: its rowid;
     * PostgreSQL: its encoded ctid), through read_ctx (the statement's sqlite3 handle or PGconn): what a column
     * whose DEFAULT sympath does not model (CURRENT_TIMESTAMP, a serial id, now()) got in a row the program
     * inserted. *out's text is put in buf (DB_TEXT_MAX + 1 bytes). Returns 0, or -1 when it cannot be read.
     * Set by each engine before it tracks an INSERT; NULL: none (such a row stays concrete). */
    int (*read_cell)(void *read_ctx, int ti, int64_t rowid, int col, db_cell *out, uint8_t *buf);
    void *read_ctx;
} db_run;

extern db_run db_rt;

/* One prepared statement of the program. */
typedef struct qstate {
    struct qstate *next;
    sqlite3_stmt *st;
    sqlite3 *db;
    char *sql;       /* the statement's text as the program wrote it */
    db_query *q;     /* NULL when it did not parse */
    const char *why; /* reason a SELECT is run concretely (static), NULL when symbolic */
    bool rowid_col;  /* the last nfrom result columns are the hidden rowids */
    bool by_value;   /* SELECT DISTINCT: result rows map back to slots by their values (db_sqlite.c) */
    int nparams;
    db_val *params;            /* bound parameters (null == NULL: unbound) */
    expr **param_bytes;        /* storage of text parameters' bytes (nparams * 256) */
    bool started;              /* events recorded for the current execution */
    bool fault_busy;           /* the last step returned a row: the next step is not fallible (db_fault.c) */
    bool symbolic;             /* current execution has predictions */
    int cur_slot[DB_MAX_FROM]; /* fixture slot of the current row of each FROM item, -1 none */
    uint8_t expected[DB_MAX_COMBOS], seen[DB_MAX_COMBOS]; /* per combination of slots */
    int prev_combo;          /* combination of slots of the previous fixture row of this execution, -1 none */
    const inserted *cur_ins; /* single-table query: the current row is this inserted row */
    db_val *agg_vals;        /* aggregate query: the values of its one result row (nresult) */
    expr *agg_overflow;      /* aggregate query: some SUM overflows (SQLite then fails the step) */
    expr *agg_big;           /* GROUP BY: "a summed cell is big" (group_fold, db_rows.c), checked before agg_overflow */
    bool cur_agg;            /* the current row is that result row */
    uint8_t expected_ins[DB_MAX_INSERTED], seen_ins[DB_MAX_INSERTED];
    /* INSERT ... RETURNING of plain columns (db_query.return_col) on SQLite: the values of the row written (set
     * when the write is tracked at the first step: db_rt_track_upsert, or the row an INSERT added), NULL: concrete;
     * cur_ret: the current row is that one; write_done: this execution's write is tracked already */
    db_val *ret_vals;
    bool cur_ret, write_done;
    /* UPDATE/DELETE ... RETURNING (db_rt_apply_dml): which rows this execution hit, concretely: bit k of dml_hit
     * slot k of the table, bit i of dml_hit_ins the inserted row of index i; ret_rowid (SQLite): the statement
     * was prepared with the hidden rowid as its last result column, which maps each returned row to its row */
    uint64_t dml_hit, dml_hit_ins;
    bool ret_rowid;
    /* LIMIT/OFFSET in ORDER BY order (db_query.order_window): the window of this execution and
     * each candidate row's "present and matches" condition, kept for the position assumption of
     * every returned row (db_rows.c) */
    /* GROUP BY: the result row being read is the group of fixture slot cur_group (its first
     * row), whose aggregates are group_vals[cur_group * nresult + column] */
    int cur_group;
    db_val *group_vals;
    /* GROUP BY: the candidate rows its groups are folded over: the slot combinations 0..ncombos-1, then (one table)
     * the rows the program inserted that the model tracks, oldest first (candidate ncombos + index) */
    unsigned ncand, ncombos;
    expr *group_ev[DB_MAX_COMBOS]; /* GROUP BY: "the group of this first row comes back", before a LIMIT */
    bool window;
    int64_t win_limit, win_offset; /* win_limit -1: none */
    uint32_t nreturned;            /* rows returned so far in this execution */
    expr *match[DB_MAX_COMBOS], *match_ins[DB_MAX_INSERTED];
    const db_val *ins_cells[DB_MAX_INSERTED];
    /* statistics, logged at finalize */
    uint64_t rows_fixture, rows_other, mismatches, ns;
} qstate;

extern qstate *db_rt_stmts; /* the program's prepared statements, newest first */

/* The state of a prepared statement, NULL when sympath does not track it. */
qstate *db_rt_find(sqlite3_stmt *st);
/* Append one line to the query log (SYMPATH_DB_LOG) with a single write (db_log_vline; the lines are listed in db_fixture_rt.c). */
void db_rt_log_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Log a statement's statistics ("q" line) and reset them. */
void db_rt_log_query(qstate *s);
/* A transaction statement the program ran successfully (db_txn.c): BEGIN/SAVEPOINT save the
 * model of the rows, ROLLBACK [TO] puts it back, COMMIT/RELEASE forget saved ones. */
void db_rt_txn(db_txn t);
/* Outer aggregate k of q (db_query.nouter) as the program reads it: *v, the aggregate, with its NULL read as the
 * literal of coalesce(agg, d) (outer_dflt; a number converted to a REAL aggregate's type, a text for a text
 * aggregate: db_text_default). A number aggregate with a text default, a text one with a number default, or a REAL
 * default of an integer one, leaves *v zero: read concretely. */
void db_rt_outer_default(const db_query *q, int k, db_val *v);
/* Record c (width 1) as an assumption of the run when it is not constant; a false one ends
 * the run as a false assumption does (SYM_ASSUME_EXIT_CODE). */
void db_rt_assume(expr *c);
/* First open of a run: schema, fixture from the test vector, then build() makes the run's
 * database (0 when it is ready, -1 after logging an "e" line): an SQLite file
 * (db_sqlite_open.c) or a PostgreSQL schema (db_pq_build.c). Sets db_rt.state; later calls
 * of the run return at once. */
void db_rt_setup_with(int (*build)(void));
/*
 * Injected faults (db_fault.c; KLEE's failing calls, Cadar et al. 2008): db_fault_init(F)
 * takes the fixture's 16-bit fault input (called once, by the fixture read).
 * db_fault_next counts one fallible database call of the program and returns whether it
 * fails in this run; *fails is set to the width-1 condition "this call fails" (F == its
 * number), or NULL when the choice is not symbolic (faults off, a fault already happened,
 * inside exec/get_table). db_fault_ret(fails, err, other) is the call's 32-bit result
 * expression ite(fails, err, other) (NULL when fails is NULL): other is the call's own
 * result when it did not fail, and its success value (SQLITE_OK, ...) when it did, so that
 * the program's test of the result is a branch in both runs. db_fault_node is db_fault_next for a call that records events before the
 * program sees its result: the choice is a node of the path (BK_FAULT on "F == j") and
 * the result concrete. db_fault_null_node is the same for a second way the call can fail,
 * with no result at all (libpq's PQexec & co. return NULL when out of memory or when the
 * command cannot be sent): the node's arg carries BK_FAULT_NULL, which the search tries
 * after the other faults; with offered false (the program never tests a result against
 * NULL) the call is counted but no node is recorded. db_fault_hold(+1/-1) brackets sqlite3_exec/get_table, whose inner
 * prepare/step calls are not counted (the replay counts the one exec call).
 */
void db_fault_init(expr *f);
bool db_fault_next(expr **fails);
bool db_fault_node(void);
bool db_fault_null_node(bool offered);
expr *db_fault_ret(expr *fails, uint32_t err, uint32_t other);
void db_fault_hold(int delta);
/* Slot k of table ti was rejected by the engine on a CHECK sympath does not model (msg: the
 * engine's message, naming the constraint or its expression): end the run on the false
 * assumption "this row differs from the rejected one" in the columns msg names (all columns
 * when it names none), so the explorer solves the lost target again with it
 * (src/explore/assume_retry.c). Does not return. */
void db_rt_reject_row(int ti, unsigned k, const char *msg) __attribute__((noreturn));
/* A cell's concrete value (for an INSERT) from its expressions' values; text into buf (>= text limit bytes). */
void db_rt_concrete_cell(const db_val *v, uint8_t *buf, db_cell *out);
/* The fixture's present rows into the run's database, table by table: insert_row(ctx, t, ti,
 * k, cells) inserts slot k of table ti (t) with these concrete cells and sets
 * db_rt.rowids[ti][k]; it returns 0, or -1 after logging an "e" line, which stops the loop.
 * Returns 0 or -1. */
int db_rt_insert_fixture(int (*insert_row)(void *ctx, const db_table *t, int ti, unsigned k, const db_cell *cells),
                         void *ctx);

/*
 * Rows of an understood SELECT (db_rows.c, Emmi et al. 2007), whatever the database:
 * db_rt_record_rows, at the first result of an execution, records one BK_ROW event per
 * combination of row slots of its FROM items ("these slots are present and satisfy
 * WHERE/ON"; the event of an absent slot is "one more row") and the events of the rows the
 * program inserted, fills s->expected/expected_ins, and for an aggregate query s->agg_vals;
 * s->symbolic says it did (a query it cannot model sets s->why). db_rt_row_seen maps one
 * returned row to its slots from its hidden ids (ids[f]: rowid or encoded ctid of FROM item
 * f; null_ids[f]: that column is NULL, an outer join's NULL row), setting s->cur_slot / s->cur_ins, recording an ORDER BY assumption, and counting
 * mismatches with the predictions; db_rt_rows_done counts the predicted rows that did not come.
 */
void db_rt_record_rows(qstate *s);
/* The site of s's BK_ROW events: a 32-bit hash of its SQL text with the top bit set (never a
 * branch site id), the same in every run that executes that text. */
uint32_t db_rt_row_site(const qstate *s);
void db_rt_row_seen(qstate *s, const int64_t *ids, const bool *null_ids);
void db_rt_rows_done(qstate *s);

/*
 * The value of computed result column i of s (q->result_expr, no aggregate: price * qty,
 * lower(name)) for the result row whose FROM items are fixture slots slots[f] (every one >= 0),
 * or the inserted row ins (slots NULL; one FROM item). Returns a db_val in static storage valid
 * until the fourth later call (its text bytes until the next db_value_expr), or NULL when not
 * modelled (the value is then read concretely).
 */
const db_val *db_rt_computed_cell(const qstate *s, int i, const int *slots, const db_val *ins);

/*
 * SELECT DISTINCT (of one table or a join) and UNION: the row ids (ids[f], null_ids[f] for an outer join's
 * NULL row; DB_MAX_FROM of each) of a combination of present fixture slots whose result columns (plain,
 * or computed over its rows as db_rt_computed_cell does: upper(name)) hold the current result row's
 * values; ids[0] -1 when none does (UNION: ids[0] the candidate). same(ctx, r, v, c) says whether result
 * column r of the engine's row holds cell v (c: its concrete value). Combinations whose group the events
 * predicted to come back are tried first: an equal row that fails WHERE is no representative.
 */
void db_rt_row_by_values(const qstate *s, bool (*same)(void *ctx, int r, const db_val *v, const db_cell *c), void *ctx,
                         int64_t *ids, bool *null_ids);

/*
 * SELECT ... UNION [ALL] SELECT ... (db_union.c; q->narms > 0), whose result rows map back by value
 * (qstate.by_value): a candidate row is c = arm * rows + slot. db_rt_union_events (called by
 * db_rt_record_rows) records one BK_ROW event per candidate ("the slot is present, satisfies its
 * arm's WHERE and, for UNION, no earlier candidate that comes back has the same values"), and the
 * ORDER BY / LIMIT window as for one SELECT (limit -1: none). db_rt_union_by_values (called by
 * db_rt_row_by_values) returns the candidate holding the current result row's values (a predicted
 * one not yet returned first), -1 when none; db_rt_union_row_seen (called by db_rt_row_seen with
 * that number) sets cur_slot[0] to the slot and cur_slot[1] to the arm, checks the prediction and
 * records the order. db_rt_union_cell: result column i of the row whose cur_slot is slots[0..1]
 * (NULL: read concretely).
 */
void db_rt_union_events(qstate *s, int64_t limit, int64_t offset);
int64_t db_rt_union_by_values(const qstate *s, bool (*same)(void *ctx, int r, const db_val *v, const db_cell *c),
                              void *ctx);
void db_rt_union_row_seen(qstate *s, int64_t id);
/*
 * LIMIT/OFFSET in ORDER BY order (db_rows.c): the row just returned, mine (its rows, one per
 * FROM item), is at position pos of the ordered matches. db_rt_position_count adds one other
 * candidate, matching when m (width 1) holds, to the 16-bit counts *before (it sorts strictly
 * before mine) and *no_later (it sorts no later); db_rt_position_at then records before <= pos
 * <= no_later as an assumption of the run, or counts a model mismatch of s when it is
 * concretely false.
 */
void db_rt_position_count(const db_query *q, expr *m, const db_val *const *mine, const db_val *const *other,
                          expr **before, expr **no_later);
void db_rt_position_at(qstate *s, expr *before, expr *no_later, uint32_t pos);
const db_val *db_rt_union_cell(const qstate *s, int i, const int *slots);

/*
 * The program's writes (db_rows.c), after the database ran them: db_rt_track_insert remembers
 * the row an understood INSERT ... VALUES added (rowid: its row id, as the hidden columns give
 * it) with its values' expressions; db_rt_apply_dml applies an understood UPDATE or DELETE to
 * the rows' expressions (hit = alive & WHERE) and sets db_rt.changes (unless the table is untracked: a
 * row the model does not know may be hit too); it returns 1 when the
 * statement is not modelled (`changed`: the database changed rows; the caller then makes the
 * table concrete). `fk_actions`: the engine enforces foreign keys (SQLite's PRAGMA foreign_keys, always
 * on PostgreSQL), so a DELETE's ON DELETE CASCADE deletes the children of the rows hit in the model too.
 */
void db_rt_track_insert(qstate *s, int64_t rowid);
/* INSERT ... VALUES of several rows: row r of VALUES got rowids[r] (n: the rows the database added;
 * nothing is tracked unless n is the VALUES' row count). An INSERT ... SELECT whose n rows are
 * tracked sets db_rt.changes to the count of its candidate rows that hold (64 bits) unless its source
 * table is untracked; the caller clears db_rt.changes before. Fewer rows tracked than the n the
 * database added make the table untracked. */
void db_rt_track_inserts(qstate *s, const int64_t *rowids, int n);
/* The same on SQLite, from sqlite3_changes and sqlite3_last_insert_rowid after the INSERT: each row's
 * rowid is the INTEGER PRIMARY KEY value it was given, else consecutive up to last_rowid (SQLite gives
 * one more than the largest rowid, row after row). A NULL key but in the last row leaves the rows concrete. */
void db_rt_track_insert_sqlite(qstate *s, int changes, int64_t last_rowid);
int db_rt_apply_dml(qstate *s, bool changed, bool fk_actions);
/*
 * INSERT ... VALUES (one row) ON CONFLICT (cols) DO UPDATE SET ... [WHERE ...] (q->upsert) or SQLite's
 * INSERT OR REPLACE (q->or_replace), after the engine ran it: whether the row proposed conflicts with a row
 * of the table (alive, equal on the conflict target; for OR REPLACE on any key) is an expression over the
 * rows, the conflicting row's assigned cells become ite(it was hit, new value, old) (OR REPLACE: it is
 * deleted), the proposed row is tracked, alive when it did not conflict (OR REPLACE: always), with id
 * `rowid`; db_rt.changes is set, and s->ret_vals to the values of the row written (q->return_col). `known`:
 * rowid >= 0 says the engine inserted the row and -1 that it did not (SQLite, from sqlite3_last_insert_rowid),
 * which the model must agree with; false: rowid -1 and unknown (PostgreSQL, whose caller finds the rows'
 * ctids afterwards). Returns 0, or 1 when not modelled (the caller makes the table concrete).
 */
int db_rt_track_upsert(qstate *s, int64_t rowid, bool known);
/* Before an understood INSERT ... VALUES (s's parameters bound) into a table with one-column FOREIGN KEYs, when the
 * engine enforces them (`enforced`): one BK_ROW event per row and key, "the value is NULL or a live row of the
 * parent table holds it", whose other side the solver can ask for (the INSERT failing or succeeding). */
void db_rt_insert_parents(qstate *s, bool enforced);

/* Point the SQL translation's subqueries at this run's fixture and the rows the program inserted
 * (db_set_fixture_view); call before translating a query of the run. */
void db_rt_use_view(void);
/* The rows of table ti a write may hit: its slots, then the rows the program inserted (tracked); their cells
 * and "alive" flags (width 1) in *rows and *alive (malloc'ed arrays of *n entries, pointing into db_rt: the
 * caller frees the arrays only). 0, or -1 when out of memory. */
int db_rt_table_rows(int ti, db_val ***rows, expr ****alive, unsigned *n);
/* db_rt_insert_cells's rowid for a row not written yet: omitted columns whose DEFAULT is not modelled stay NULL
 * (the engine's value cannot be read yet), an omitted INTEGER PRIMARY KEY holds this value. */
#define DB_ROWID_UNWRITTEN INT64_MIN
/* The cells of row `row` of s's INSERT ... VALUES (or, INSERT ... SELECT, the SELECT's result columns over
 * src_rows, one row of cells per FROM item of the SELECT, as db_where_expr takes them; NULL for VALUES; with GROUP
 * BY, src_vals holds a group's values of the result columns, one per column, an entry with a NULL `null` taken
 * from src_rows when it is a key and not modelled when it is an aggregate; NULL otherwise) into
 * cells[0..ncols of the table) (caller's array; text bytes malloc'ed for the run): columns not
 * given get their DEFAULT (NULL when none), an INTEGER PRIMARY KEY not given is `rowid`, a DEFAULT that is not
 * modelled the engine's value of row `rowid` (DB_ROWID_UNWRITTEN: NULL). 0, or -1 when a value or default is
 * not modelled. */
int db_rt_insert_cells(qstate *s, int64_t rowid, int row, const db_val *const *src_rows, const db_val *src_vals,
                       db_val *cells);
/* Whether rows a and b (a table's cells) are equal on key k: every key column non-NULL in both and the same
 * value; width 1, built in cx. */
expr *db_rt_same_key(expr_ctx *cx, const db_key *k, const db_val *a, const db_val *b);
/* Before s's understood INSERT ... VALUES (without ON CONFLICT or OR REPLACE/IGNORE) or UPDATE runs, its
 * parameters bound (db_write_check.c): one BK_ROW event "a row it writes breaks a constraint the model
 * knows", after which the engine fails the statement: a modelled CHECK is FALSE over the row's new cells, a
 * NOT NULL column it writes gets NULL, or (INSERT) the row equals a live row on a PRIMARY KEY or UNIQUE key
 * whose columns it gives. Its other side asks for the fixture (or the program's values) in which the write
 * succeeds, or fails. Nothing is recorded when the condition is constant or the table is concrete. */
void db_rt_write_checks(qstate *s);

/* The byte at p as an expression: its shadow when that still describes it, else NULL. */
expr *db_rt_byte_at_mem(const char *p);
/* A text parameter (sqlite3_bind_text, PQexecParams) as a db_val over the shadows of the
 * program's bytes text[0..n) (n < 0: NUL-terminated, with a symbolic length: see db_rows.c);
 * storage holds its byte expressions (256 entries). Longer than 255 bytes: left unbound. */
void db_rt_text_param(db_val *p, expr **storage, const char *text, int n);

#endif
