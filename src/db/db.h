/* db.h: the SQL layer: schema loading (SQLite PRAGMAs, PostgreSQL catalog), SQL parsing (libpg_query), fixture layout, SQL -> symbolic expressions, a run's database setup, read-only PostgreSQL connections. */
#ifndef SYMPATH_DB_H
#define SYMPATH_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "../expr/expr.h"

/*
 * sympath treats the database of a program as an input (Emmi, Majumdar and Sen,
 * "Dynamic test input generation for database applications", ISSTA 2007): the
 * rows of each table are *row slots* whose cells are input symbols, a query's
 * WHERE clause becomes a constraint over the cells of a slot, and the solver
 * writes the rows a path needs (the *fixture*). This header is the part of that
 * layer that knows SQL and the schema; it is used by the executor's SQLite
 * interception (src/runtime/sqlite/db_sqlite.c), by the explorer (fixture files,
 * report) and by the CLI (schema checks). It does not print or exit.
 */

/* ---------------------------------------------------------------- schema */

/* SQLite type affinity of a column (SQLite "Datatypes", section 3.1). */
typedef enum db_affinity { DB_AFF_INTEGER = 0, DB_AFF_TEXT, DB_AFF_BLOB, DB_AFF_REAL, DB_AFF_NUMERIC } db_affinity;

/* The ISO-8601 text a date/time column holds (src/db/date.c): DATE 'YYYY-MM-DD' (10 bytes), TIME
 * 'HH:MM:SS' (8), DATETIME/TIMESTAMP 'YYYY-MM-DD HH:MM:SS' (19). DB_DATE_NONE: not a date column. */
typedef enum db_date_kind { DB_DATE_NONE = 0, DB_DATE_DATE, DB_DATE_TIME, DB_DATE_DATETIME } db_date_kind;

typedef struct db_column {
    char *name;      /* as declared */
    char *decl_type; /* declared type ("" when none) */
    db_affinity aff;
    bool decimal;            /* NUMERIC affinity declared DECIMAL[(p,s)] or NUMERIC(p,s): modelled as a double */
    int int_digits;          /* decimal: p - s of DECIMAL(p,s) (p of DECIMAL(p)), fixtures keep |v| < 10^it; -1 none */
    int scale;               /* decimal: s of DECIMAL(p,s) when 1 <= s <= 15: a scaled cell (db_val.scaled), else 0 */
    bool single;             /* declared FLOAT4 (PostgreSQL's real): a scaled cell k / 4, |k| < 2^22 (exact as a float
                              * and printed exactly by the server's shortest round-trip output) */
    db_date_kind date;       /* NUMERIC affinity declared DATE/TIME/DATETIME/TIMESTAMP: an ISO-8601 text cell */
    bool notnull;            /* NOT NULL, or part of the primary key (sympath never writes NULL keys) */
    int pk;                  /* 1-based position in the PRIMARY KEY, 0 = not a key column */
    int fk_table;            /* FOREIGN KEY: referenced table index, -1 none (single-column keys only) */
    int fk_column;           /* referenced column index in that table */
    bool fk_cascade;         /* that FOREIGN KEY is ON DELETE CASCADE */
    char *dflt;              /* DEFAULT expression as declared (PRAGMA table_info's dflt_value), NULL none */
    struct db_query *dflt_q; /* that default parsed (its value: dflt_q->insert_val[0]), NULL when not modelled */
    unsigned text_need;      /* text: bytes the literals its CHECKs and DEFAULT name need (db_checks_load), 0 none */
} db_column;

/* A PRIMARY KEY or UNIQUE column set: the fixture's rows differ on it. */
typedef struct db_key {
    int ncols;
    int cols[8]; /* column indexes */
} db_key;

/* A FOREIGN KEY of two to eight columns (a one-column key is db_column.fk_table/fk_column): a
 * fixture row whose key columns are all non-NULL has a present row of ref_table holding the same
 * values in ref_cols (SQL's MATCH SIMPLE: a NULL in the key exempts the row). */
typedef struct db_fkey {
    int ncols;
    int cols[8];     /* the key's columns in this table */
    int ref_table;   /* the referenced table's index */
    int ref_cols[8]; /* the referenced columns, in the same order */
    bool cascade;    /* ON DELETE CASCADE */
} db_fkey;

/* A CHECK constraint (column or table level) of a table (src/db/check.c). */
typedef struct db_check {
    char *text;         /* the expression as declared (between the parentheses) */
    struct db_query *q; /* "SELECT * FROM t WHERE <text>" parsed; NULL when not modelled */
    const char *why;    /* static: why it is not modelled (q NULL), e.g. "function call" */
} db_check;

typedef struct db_table {
    char *name;
    int ncols;
    db_column *cols;
    int rowid_alias;    /* column index of an INTEGER PRIMARY KEY (alias of the rowid), -1 none */
    bool without_rowid; /* WITHOUT ROWID table: its queries are run concretely */
    int nkeys;
    db_key *keys;
    int nchecks; /* CHECK constraints, in declaration order */
    db_check *checks;
    int nfkeys; /* composite FOREIGN KEYs (owned) */
    db_fkey *fkeys;
} db_table;

typedef struct db_schema {
    int ntables;
    db_table *tables;
    char *ddl; /* the DDL that recreates the schema (CREATE statements, ";\n" separated) */
    /* constraints not turned into fixture constraints (untranslatable CHECK, FOREIGN KEY to an unknown table or of
     * more than 8 columns, defaults) */
    int nignored;
    char **ignored; /* their descriptions */
    /* set while db_text_needs_from_program parses the program's SQL: a TEXT column passed to SQLite's
     * date functions is taken for a date column and named in db_query.date_infer (SQLite has no DATE
     * type: dates are often declared TEXT) */
    bool infer_dates;
    /* set by db_text_needs_from_program: for each of the program's joins (two FROM items or more),
     * the most row slots per table under which its slot combinations (a LEFT JOIN's optional side
     * has one more: its NULL row) stay within the runtime's 64, so that a grown layout
     * (src/explore/db_layout.c) does not turn it concrete; malloc'ed, njoin_rows entries */
    unsigned *join_rows;
    int njoin_rows;
} db_schema;

/*
 * Load a schema from `path`: an SQLite database file (recognised by its 16-byte
 * header "SQLite format 3", opened with SQLITE_OPEN_READONLY and never written;
 * its CREATE statements are read from sqlite_schema) or a text file of SQL DDL
 * (executed by SQLite itself into an in-memory database). Tables, columns, types,
 * NOT NULL, PRIMARY KEY, UNIQUE and FOREIGN KEY come from SQLite's PRAGMAs
 * table_info, index_list, index_info and foreign_key_list.
 * Returns 0 and *out (free with db_schema_free), or -1 with *err (malloc'ed): a
 * missing file, SQLite's message with the line of a statement that does not
 * parse, a schema without tables.
 */
int db_schema_load(const char *path, db_schema **out, char **err);
/* The same from DDL text already in memory (NUL-terminated). */
int db_schema_from_ddl(const char *ddl, db_schema **out, char **err);
/* Append what (malloc'ed, taken; NULL: out of memory) to s->ignored. 0, or -1 out of memory
 * (what is freed). */
int db_schema_ignored(db_schema *s, char *what);
/* Free a schema; NULL is accepted. */
void db_schema_free(db_schema *s);
/* Index of the table named `name` (case-insensitive, as SQL), -1 when absent. */
int db_table_index(const db_schema *s, const char *name);
/* Index of the column named `name` in t (case-insensitive), -1 when absent. */
int db_column_index(const db_table *t, const char *name);
/* True for columns stored as bounded byte strings (TEXT and BLOB affinity, and the date/time
 * columns, c->date: SQLite keeps '2024-03-15' in a NUMERIC column as TEXT since it is no number);
 * the others are 64-bit cells: INTEGER and NUMERIC hold integers, REAL an IEEE double. */
static inline bool db_column_is_text(const db_column *c)
{
    return c->aff == DB_AFF_TEXT || c->aff == DB_AFF_BLOB || c->date != DB_DATE_NONE;
}
/* Bytes of the text kind k ('YYYY-MM-DD' 10, 'HH:MM:SS' 8, 'YYYY-MM-DD HH:MM:SS' 19; 0 for none). */
static inline unsigned db_date_len(db_date_kind k)
{
    return k == DB_DATE_DATE ? 10 : k == DB_DATE_TIME ? 8 : k == DB_DATE_DATETIME ? 19 : 0;
}
/* True for REAL-affinity columns (REAL, DOUBLE, FLOAT) and for DECIMAL/NUMERIC(p,s) columns
 * (c->decimal): a cell is the 64-bit IEEE-754 bit pattern of a double, never NaN (SQLite stores
 * NaN as NULL) nor -0.0 (stored as 0.0). A NUMERIC column stores an integral double as an INTEGER,
 * which SQLite compares, converts and reads with sqlite3_column_double/_int exactly as that double. */
static inline bool db_column_is_real(const db_column *c)
{
    return c->aff == DB_AFF_REAL || (c->aff == DB_AFF_NUMERIC && c->decimal);
}

/* ---------------------------------------------------------------- fixture layout */

/*
 * Row slots live in the test vector. At the program's first sqlite3_open of a
 * run the executor reads, table by table in schema order:
 *   count                    8 bits   rows present (slots 0..count-1), at most `rows`
 *   then `rows` slots, each column in order:
 *     null flag              1 bit    the cell is NULL
 *     INTEGER/NUMERIC:       64 bits  the value
 *     REAL:                  64 bits  the IEEE-754 bit pattern of the double
 *     DECIMAL(p,s), s >= 1:  64 bits  the integer k, the value being the double k / 10^s (scaled cell)
 *     FLOAT4:                64 bits  the integer k, the value being k / 4 (scaled cell)
 *     TEXT/BLOB:             8 bits   length (at most `text`), then `text` bytes
 *     DATE/TIME/DATETIME:    8 bits   length, then db_date_len bytes (10, 8 or 19, not `text`)
 * so every table has a fixed number of inputs and no row count moves another
 * symbol's index (the explorer's vectors stay aligned whatever the solver picks).
 */
typedef struct db_limits {
    unsigned rows; /* row slots per table (1..64) */
    unsigned text; /* bytes of a TEXT cell (1..64) */
} db_limits;

/* The most bytes any text cell has (the largest --db-text; date cells have at most 19): a
 * buffer of DB_TEXT_MAX + 1 bytes holds any cell. */
#define DB_TEXT_MAX 64

/* Bytes of column c's text cell: its date format's length for a date column (c->date,
 * whatever --db-text), else l->text, or more when the column's CHECK constraints or DEFAULT
 * name a longer text (c->text_need: `status IN ('pending', 'processing')` needs 10), at most
 * DB_TEXT_MAX. Meaningful for text columns only (db_column_is_text). */
static inline unsigned db_column_text_cap(const db_column *c, const db_limits *l)
{
    if (c->date != DB_DATE_NONE) return db_date_len(c->date);
    unsigned need = c->text_need < DB_TEXT_MAX ? c->text_need : DB_TEXT_MAX;
    return need > l->text ? need : l->text;
}

/* Inputs one cell takes (see above). */
unsigned db_cell_ninputs(const db_column *c, const db_limits *l);
/* Inputs one table takes: 1 + rows * sum of its cells. */
size_t db_table_ninputs(const db_table *t, const db_limits *l);
/* Inputs the whole fixture takes: every table's, then db:fault (16 bits: the number of the run's
 * fallible database call that fails, 0 none; runtime/dbcommon/db_fault.c). */
size_t db_fixture_ninputs(const db_schema *s, const db_limits *l);
/*
 * The fixture part of a test vector laid out for other limits (a larger layout, when the exploration
 * grows it: src/explore/db_layout.c). in: db_fixture_ninputs(s, from) values as the executor read them;
 * out: room for db_fixture_ninputs(s, to) values, written. Row counts (clamped to from->rows, as the
 * old layout read them), present cells, text lengths and
 * bytes and db:fault keep their values; slots and text bytes the larger layout adds are 0 (absent,
 * empty), so the fixture the vector stands for is the same. `to` must not be smaller than `from` in
 * either limit; returns the number of values written.
 */
size_t db_fixture_relayout(const db_schema *s, const db_limits *from, const uint64_t *in, const db_limits *to,
                           uint64_t *out);
/* How a fixture file (db_fixture_sql) with a non-zero db:fault begins its note on it. */
#define DB_FAULT_COMMENT "-- injected fault"

/* One concrete cell. */
typedef struct db_cell {
    bool null;
    int64_t i;           /* integer columns; REAL columns: the double's bit pattern */
    unsigned len;        /* text columns: bytes in text */
    const uint8_t *text; /* not NUL-terminated; owned by the caller */
} db_cell;

/* Decode cell `col` of slot `slot` of table `t` from the table's inputs vals[0..)
 * (vals[0] = count). The text pointer refers to `buf` (>= db_column_text_cap bytes). */
void db_cell_decode(const db_table *t, const db_limits *l, const uint64_t *vals, unsigned slot, int col, uint8_t *buf,
                    db_cell *out);
/* Rows present in a table from its inputs (count clamped to l->rows). */
unsigned db_table_count(const db_limits *l, const uint64_t *vals);

/* One INSERT statement for a row (cells[0..t->ncols)), NUL-terminated, malloc'ed;
 * NULL when out of memory. Text with bytes outside printable ASCII is written as
 * CAST(X'..' AS TEXT). */
char *db_insert_sql(const db_table *t, const db_cell *cells);

/*
 * The fixture of a test case as SQL: INSERT statements for every present row,
 * decoded from vals[0..n) where the fixture starts at index `start` (the input
 * named "db:<first table>.rows"). Missing values read as 0. Returns malloc'ed
 * text ("-- empty fixture" comment when no rows), NULL when out of memory.
 */
char *db_fixture_sql(const db_schema *s, const db_limits *l, const uint64_t *vals, size_t n, size_t start);
/* The same with another writer of one row's INSERT (db_pg_insert_sql's dialect, below):
 * insert(t, cells) returns a malloc'ed statement or NULL when out of memory. */
typedef char *(*db_insert_fn)(const db_table *t, const db_cell *cells);
char *db_fixture_sql_by(const db_schema *s, const db_limits *l, const uint64_t *vals, size_t n, size_t start,
                        db_insert_fn insert);

/* ---------------------------------------------------------------- SQL */

typedef enum db_stmt_kind { DBQ_SELECT = 0, DBQ_INSERT, DBQ_UPDATE, DBQ_DELETE, DBQ_OTHER } db_stmt_kind;

/* Node kinds of a WHERE expression (a small tree built from libpg_query's parse tree). */
typedef enum db_xkind {
    DBX_COLUMN = 0, /* column `column` of FROM item `from` */
    DBX_INT,        /* integer literal ival */
    DBX_TEXT,       /* string literal text */
    DBX_NULL,       /* NULL literal */
    DBX_PARAM,      /* bound parameter number `param` (1-based, SQLite numbering) */
    DBX_ARITH,      /* kids[0] op kids[1], op one of + - * / % */
    DBX_NEG,        /* -kids[0] */
    DBX_CMP,        /* kids[0] op kids[1], op a db_cmp */
    DBX_AND,
    DBX_OR,      /* kids[0..nkids) */
    DBX_NOT,     /* NOT kids[0] */
    DBX_ISNULL,  /* kids[0] IS NULL (negated: IS NOT NULL) */
    DBX_LIKE,    /* kids[0] LIKE kids[1] (negated: NOT LIKE); kids[1] a text literal or parameter */
    DBX_IN,      /* kids[0] IN (kids[1..nkids)) (negated: NOT IN) */
    DBX_BETWEEN, /* kids[0] BETWEEN kids[1] AND kids[2] (negated: NOT BETWEEN) */
    DBX_LENGTH,  /* length(kids[0]) of a text: its bytes (fixture texts are printable ASCII) */
    DBX_REAL,    /* REAL literal rval (15.0, 1e3) */
    /* subqueries of one table, sub item `from` (DB_MAX_FROM + j: the query's sub_table[j]),
     * whose WHERE clause, when it has one, is the last kid (it may refer to the enclosing
     * query's items: correlated) */
    DBX_EXISTS,   /* EXISTS (SELECT ... FROM sub WHERE kids[0]) (NOT EXISTS: DBX_NOT around it) */
    DBX_IN_SUB,   /* kids[0] IN (SELECT `column` FROM sub WHERE kids[1]) */
    DBX_SUBAGG,   /* (SELECT op(`column`) FROM sub WHERE kids[last]), op a DB_AGG_*, column -1 for COUNT(*),
                     DB_RESULT_EXPR for op(kids[0]), an expression of the sub row (SUM(qty * price)) */
    DBX_FUNC,     /* scalar function op (db_func) of kids[0..nkids) */
    DBX_GROUPAGG, /* in HAVING or a result column: op (DB_AGG_*) of `column` (-1: COUNT(*); DB_RESULT_EXPR: of
                    the expression kids[0]) over the rows of the group */
    DBX_CONCAT,   /* kids[0] || kids[1] of texts (the left one of a constant length) */
    DBX_CASE      /* CASE: op 0 searched, kids = when0 then0 when1 then1 ... else; op 1 simple (CASE x WHEN v),
                    kids = x v0 then0 v1 then1 ... else (a missing ELSE is a NULL literal) */
} db_xkind;

/* Scalar SQL functions modelled (DBX_FUNC): abs(x), coalesce(a, b, ...) and ifnull(a, b),
 * lower(t)/upper(t) (ASCII letters, as SQLite without ICU), substr(t, start[, n]) with
 * integer literal start >= 1 and n >= 0; SQLite's date functions of a DATE/DATETIME column
 * (db_date_format, db_julianday): strftime(kids[0] a text literal format, kids[1] the column), which
 * date(c) and datetime(c) become, and julianday(kids[0]); ltrim/rtrim/trim(t[, chars]) (PostgreSQL's
 * btrim: trim(t) parses so) of a text, the characters a text literal (a space by default); PostgreSQL's
 * date arithmetic on DATE columns (db_date_days, db_date_field): kids[0] - kids[1] of two dates in days
 * (DBF_DAYS) and EXTRACT(field FROM c) / date_part('field', c) (DBF_DATE_PART, kids[0] the field as
 * a text literal, kids[1] the column); round(x[, n]) with n a literal >= 0 (DBF_ROUND: an integer's double,
 * a DECIMAL(p,s) value with s <= n unchanged; other REALs are not modelled). */
typedef enum db_func {
    DBF_ABS = 0,
    DBF_COALESCE,
    DBF_LOWER,
    DBF_UPPER,
    DBF_SUBSTR,
    DBF_STRFTIME,
    DBF_JULIANDAY,
    DBF_LTRIM,
    DBF_RTRIM,
    DBF_TRIM,
    DBF_DAYS,
    DBF_DATE_PART,
    DBF_ROUND,
    DBF_SECONDS,  /* PostgreSQL's ts1 - ts2 of two TIMESTAMP columns (or one and a DATE) compared with an interval
                     literal (left_at - entered > interval '2 hours'): the seconds between them (db_date_seconds); the
                     literal is its seconds */
    DBF_DATE_ADD, /* SQLite's date(c, '+N days'): kids[0] the days (DBX_INT, or an integer expression of a modifier
                    '+' || n || ' days', negated for '-'), kids[1] the column (db_date_add_days) */
    DBF_INSTR,    /* SQLite's instr(t, 'lit'), PostgreSQL's strpos(t, 'lit') and position('lit' IN t): kids[0] the text,
                     kids[1] a non-empty text literal; the 1-based byte position of its first occurrence, 0 none */
    DBF_REPLACE,  /* replace(t, 'from', 'to') with text literals of one length >= 1: each occurrence, left to right
                     and not overlapping, replaced; the length is unchanged */
    DBF_CAST_INT, /* CAST(x AS INTEGER), x::int: an integer itself; a REAL truncated toward zero (SQLite; saturating),
                     a DECIMAL(p,s) value rounded half away from zero on PostgreSQL (numeric to int) */
    DBF_CAST_REAL /* CAST(x AS REAL), x::float8: an integer's double, a REAL itself */
} db_func;

typedef enum db_cmp { DB_EQ = 0, DB_NE, DB_LT, DB_LE, DB_GT, DB_GE } db_cmp;

typedef struct db_sexpr {
    db_xkind kind;
    int op;       /* DBX_ARITH: '+', '-', '*', '/', '%'; DBX_CMP: db_cmp; DBX_LIKE: 1 for ILIKE (ASCII case ignored) */
    bool negated; /* DBX_ISNULL, DBX_LIKE, DBX_IN, DBX_BETWEEN */
    int from;     /* DBX_COLUMN: index into db_query.from_table */
    int column;   /* DBX_COLUMN */
    int param;    /* DBX_PARAM */
    int64_t ival; /* DBX_INT; DBX_TEXT: DBX_TEXT_PG_MIDNIGHT or 0; DBX_PARAM: DBX_PARAM_DATE or 0; DBX_FUNC
                   * DBF_STRFTIME: 1 for date_trunc */
    double rval;  /* DBX_REAL */
    char *text;   /* DBX_TEXT */
    int nkids;
    struct db_sexpr **kids;
} db_sexpr;

/* DBX_TEXT.ival of a date literal ('2024-01-01') compared with a TIMESTAMP column: PostgreSQL reads it as
 * '2024-01-01 00:00:00' (the translation writes that when db_query.like_exact), SQLite as the text itself */
#define DBX_TEXT_PG_MIDNIGHT 1
/* DBX_PARAM.ival of a parameter cast to a date (`$1::date`): an operand of PostgreSQL's date - integer and
 * date - date (`left_at < $1::date - 30`), as a date literal is */
#define DBX_PARAM_DATE 1

#define DB_MAX_UNSUPPORTED 8
#define DB_MAX_FROM 4         /* tables of a join */
#define DB_MAX_SUB 4          /* subqueries of one statement (each over one table) */
#define DB_MAX_OUTER 8        /* aggregates over the groups of a subquery in FROM (db_query.nouter) */
#define DB_MAX_INSERT_ROWS 32 /* rows of an INSERT ... VALUES that are tracked (more: the INSERT is concrete) */

/* Transaction statements (db_query.txn): what they do to the rows a program reads back. */
typedef enum db_txn {
    DB_TXN_NONE = 0,
    DB_TXN_BEGIN,      /* BEGIN [DEFERRED|IMMEDIATE|EXCLUSIVE] [TRANSACTION], START TRANSACTION */
    DB_TXN_COMMIT,     /* COMMIT, END */
    DB_TXN_ROLLBACK,   /* ROLLBACK */
    DB_TXN_SAVEPOINT,  /* SAVEPOINT name */
    DB_TXN_RELEASE,    /* RELEASE [SAVEPOINT] name */
    DB_TXN_ROLLBACK_TO /* ROLLBACK TO [SAVEPOINT] name */
} db_txn;

/* Aggregates of a SELECT without GROUP BY (one result row). */
/* Aggregates. DB_AGG_AVG is SUM / COUNT as a double (NULL over no row). DB_AGG_EXPR marks a result
 * column that is an expression with aggregates in it (result_expr: COALESCE(SUM(x), 0),
 * SUM(price * qty) / 100), computed over the group by db_group_value. */
/* DB_AGG_COUNT_DISTINCT, COUNT(DISTINCT x), only as a DBX_GROUPAGG op (in HAVING or a DB_AGG_EXPR result column). */
enum {
    DB_AGG_NONE = 0,
    DB_AGG_COUNT,
    DB_AGG_SUM,
    DB_AGG_MIN,
    DB_AGG_MAX,
    DB_AGG_AVG,
    DB_AGG_EXPR,
    DB_AGG_COUNT_DISTINCT,
    DB_AGG_CONCRETE
};
/* db_query.result_col of a computed result column (result_expr) */
#define DB_RESULT_EXPR (-2)
/* db_query.result_col of a result column sympath does not model (group_concat(...), CAST(n AS TEXT), a window
 * function): it does not decide which rows come back, so the query stays understood and the column is read
 * concretely (result_agg DB_AGG_CONCRETE when it holds an aggregate, else DB_AGG_NONE; result_expr NULL) */
#define DB_RESULT_CONCRETE (-3)

/*
 * A statement as sympath understands it. An UPDATE (SET col = value, ...) or DELETE of
 * one table with a WHERE clause of the db_xkind constructs is understood too (nfrom 1);
 * an INSERT never is (its VALUES rows may still be tracked: ninsert, ninsert_rows). For a SELECT,
 * `understood` means: from one to DB_MAX_FROM rowid tables (comma joins or inner
 * JOIN ... ON, whose ON conditions join the WHERE clause, or LEFT/RIGHT JOINs whose
 * optional side is one table: `nullable`, `on`), whose result columns are
 * plain columns, `*` or computed columns (result_expr), or all aggregates (COUNT/SUM/MIN/MAX of a
 * column, COUNT(*), expressions with aggregates;
 * `aggregate`), without DISTINCT, GROUP BY, FULL joins or set operations (UNION [ALL]: `arms`), with LIMIT/OFFSET
 * only under an ORDER BY of plain columns (`order_window`) or on one table, and whose WHERE
 * uses only the db_xkind constructs (subqueries of one table: sub items).
 * Anything else is listed in unsupported[] by kind ("outer join", "LIMIT/OFFSET",
 * "function call", ...) and run concretely.
 */
typedef struct db_query {
    db_stmt_kind kind;
    bool understood;
    bool
        like_exact; /* LIKE compares letters exactly (PostgreSQL); false: ASCII case-insensitive (SQLite). Set by the caller */
    int table; /* the first FROM table (SELECT) or the target table (INSERT/UPDATE/DELETE), -1 unknown */
    int nfrom; /* SELECT: FROM items; understood UPDATE/DELETE: 1, the target table */
    int from_table[DB_MAX_FROM];  /* their tables */
    char *from_name[DB_MAX_FROM]; /* their alias, or the table's name (qualifies the hidden rowid columns) */
    db_sexpr *where;              /* WHERE and inner joins' ON conditions; NULL = every row */
    /* LEFT/RIGHT JOIN: the table on the outer join's optional side is `nullable`, and its ON
     * condition is on[f] (not part of `where`): a row of the other items with no row of f
     * satisfying on[f] comes back once with f's columns NULL (its "NULL row") */
    bool nullable[DB_MAX_FROM];
    db_sexpr *on[DB_MAX_FROM];
    /* subqueries in WHERE: their tables, as sub items DB_MAX_FROM + j of DBX_COLUMN.from */
    /* GROUP BY: the key columns of the FROM items or expressions; result columns are keys (or the same
     * expression as a key) or aggregates (result_agg); `having` may use DBX_GROUPAGG. One result row per group. */
    int ngroup;
    int group_from[4], group_col[4]; /* FROM item and column of each key (-1, -1 for an expression key) */
    /* a key that is an expression of the row (GROUP BY strftime('%Y-%m', day), also by a result column's
     * alias or position): compared by its value (db_group_eq); NULL for a plain column key */
    db_sexpr *group_expr[4];
    bool distinct;    /* SELECT DISTINCT of one table's columns: ngroup/group_col are its result columns; result
                         rows map back to their groups by value (no hidden column can be added) */
    db_sexpr *having; /* NULL: none */
    int nsub;
    int sub_table[DB_MAX_SUB];
    char *sub_name[DB_MAX_SUB]; /* alias or table name */
    int nresult;                /* SELECT: result columns */
    int *result_from;           /* SELECT: FROM item of each result column */
    int *result_col;            /* SELECT: its table column (-1 for COUNT(*)) */
    int *result_agg;            /* SELECT: DB_AGG_NONE or the aggregate of each result column */
    db_sexpr **result_expr;     /* SELECT: a computed column (result_col DB_RESULT_EXPR, result_from its first
                                   column's item): an expression of the row (result_agg NONE: price * qty) or
                                   with DBX_GROUPAGG aggregates (result_agg DB_AGG_EXPR); else NULL */
    bool aggregate;             /* SELECT: every result column is COUNT/SUM/MIN/MAX, no GROUP BY: one result row */
    size_t from_at;             /* SELECT: byte offset of the FROM keyword in the original SQL */
    /* SELECT: FROM item f names a WITH query inlined as its table (sql_cte.c): 1 + the byte offset of the FROM
     * keyword of that query's body in the original SQL, where its hidden rowid column is added; 0: a table */
    size_t cte_from_at[DB_MAX_FROM];
    /* SELECT: FROM item f names a WITH query with a column list (`WITH t(label, price) AS ...`): 1 + the byte offset
     * of the list's closing parenthesis, where the hidden rowid column's name is added too; 0: none */
    size_t cte_cols_at[DB_MAX_FROM];
    /* INSERT ... VALUES (one row) ON CONFLICT (conflict_col...) DO UPDATE SET ... [WHERE upsert_where]
     * (SQLite >= 3.24, PostgreSQL): `upsert`; the SET assignments are set_col/set_val, over FROM item 0 (the
     * existing row: nfrom 2, both items the target table) and item 1 (`excluded`, the row proposed). SQLite's
     * INSERT OR REPLACE / REPLACE INTO: `or_replace` (every row equal to the new one on a PRIMARY KEY or
     * UNIQUE key is deleted first). The runtime's db_rt_track_upsert models both. */
    bool upsert, or_replace;
    bool on_conflict; /* INSERT with an ON CONFLICT clause (also SQLite's OR IGNORE): a row that breaks a key may
                         be skipped or changed instead of failing the statement */
    int nconflict;
    int conflict_col[8];
    db_sexpr *upsert_where; /* NULL: none */
    /* INSERT (of a single VALUES row), UPDATE or DELETE ... RETURNING of plain columns of the target table: their
     * columns, which SQLite's runtime reads from the row written, updated or deleted (nreturn 0: not modelled) */
    int nreturn;
    int return_col[8];
    int nset;              /* UPDATE: SET assignments (understood: of plain columns, no FROM/RETURNING) */
    int *set_col;          /* their columns */
    db_sexpr **set_val;    /* their values, over the row's old columns and the parameters */
    int ninsert;           /* INSERT ... VALUES: the columns given (0: not tracked) */
    int *insert_col;       /* their table columns */
    db_sexpr **insert_val; /* their values: literals, parameters, arithmetic on them; ninsert_rows rows of
                                   ninsert values, row by row (row 0 first) */
    int ninsert_rows;      /* rows of VALUES (1 .. DB_MAX_INSERT_ROWS; 0 when not tracked) */
    /* SELECT agg(c), ... FROM (SELECT ..., COUNT(*) AS c ... GROUP BY ...) [alias] (sql_groups.c): the query is
     * that subquery's GROUP BY query (its FROM items, result columns, groups and events), and the program's one
     * result row holds nouter aggregates over its groups that come back: outer_agg[i] (DB_AGG_COUNT ..
     * DB_AGG_AVG) of the subquery's result column outer_res[i] (-1: COUNT(*), the number of groups). 0: not such
     * a query. */
    int nouter;
    int outer_agg[DB_MAX_OUTER], outer_res[DB_MAX_OUTER];
    /* coalesce(agg, d) / ifnull(agg, d) of outer column i with a literal d: 1 an integer outer_dflt_i[i], 2 a REAL
     * outer_dflt_r[i], 3 a text outer_dflt_s[i] (owned; `coalesce(MAX(day), 'never')`); 0 a bare aggregate */
    uint8_t outer_dflt[DB_MAX_OUTER];
    int64_t outer_dflt_i[DB_MAX_OUTER];
    double outer_dflt_r[DB_MAX_OUTER];
    char *outer_dflt_s[DB_MAX_OUTER];
    struct db_query *insert_src; /* INSERT INTO t [(cols)] SELECT ...: the SELECT (owned), an understood one of
                                    ninsert columns or expressions of its rows and parameters (result_expr:
                                    `SELECT $1, id, qty * 2`) (one table or an inner join; no aggregate, GROUP BY,
                                    DISTINCT, ORDER BY, LIMIT, UNION); its result column i goes into insert_col[i]
                                    (insert_val NULL, ninsert_rows 0). NULL otherwise */
    /* SELECT: LIMIT n / OFFSET m. Without ORDER BY (one table only) the rows returned are the
     * matches m+1..m+n in scan (slot) order; with an ORDER BY of plain columns they are the
     * matches at those positions in that order (order_window). A bound parameter instead of a
     * literal: limit_param/offset_param (its number, 0 none), whose value is read at the run. */
    int64_t limit;  /* -1 none */
    int64_t offset; /* 0 none */
    int limit_param, offset_param;
    bool order_window; /* LIMIT/OFFSET applies in ORDER BY order (norder > 0) */
    bool has_order_by; /* the SELECT has an ORDER BY clause (of any keys) */
    int norder;        /* SELECT: ORDER BY keys that are plain columns (0 when any key is not) */
    int order_from[4], order_col[4];
    /* a key that is an expression of the row without parameters or aggregates (a query without GROUP BY,
     * DISTINCT or aggregates: `ORDER BY total DESC` of `price * qty AS total`, `ORDER BY lower(name)`, the
     * alias of a scalar subquery): its value over the row (db_order_le); NULL: order_from/order_col */
    db_sexpr *order_expr[4];
    bool order_desc[4], order_nulls_last[4];
    bool order_nulls_default
        [4]; /* no NULLS FIRST/LAST given: order_nulls_last is SQLite's default (PostgreSQL's is the opposite) */
    /* GROUP BY (or aggregates) with a LIMIT below the groups there can be, under an ORDER BY whose keys are
     * all result columns (an alias, a position, an aggregate or a column of the result list): the groups
     * returned are the first `limit` in that order (group_window; the runtime's db_rows.c compares the
     * groups' values). group_order[k] is the result column of key k, group_order_desc[k] its direction. */
    /* with db_schema.infer_dates: the TEXT columns (table, column index) this query passes to a date function,
     * and the kind their use asks for (DB_DATE_DATETIME for datetime() or a time conversion, else DB_DATE_DATE) */
    int ndate_infer;
    int date_infer_table[4], date_infer_col[4];
    db_date_kind date_infer_kind[4];
    bool returning; /* INSERT/UPDATE/DELETE ... RETURNING: the rows it changes are modelled, the values it
                       returns are concrete (PostgreSQL; SQLite's runtime does not model it: it runs concretely) */
    bool group_window;
    int ngroup_order;
    int group_order[4];
    bool group_order_desc[4];
    db_txn txn; /* a transaction statement (kind DBQ_OTHER), DB_TXN_NONE otherwise */
    /* UNION [ALL] of narms >= 2 SELECTs (sql_union.c): each arm an understood SELECT of plain columns of one
     * table (nfrom 1, no outer join, aggregate, GROUP BY, DISTINCT, computed column or LIMIT of its own), all
     * with nresult columns. The compound query itself has nfrom 0, table and result_from/result_col/result_agg
     * of arm 0 (its columns' types name the result's), result_expr all NULL; its ORDER BY keys are result
     * columns (order_from 0, order_col the result position: db_order_le over rows of result values), its
     * LIMIT/OFFSET in limit/offset (order_window under such an ORDER BY or UNION's implicit order; UNION ALL
 * without ORDER BY: the first matches in arm then slot order, as both engines scan). Result rows map
     * back to (arm, slot) by their values (the runtime's db_union.c). */
    int narms;              /* 0: not a compound SELECT */
    struct db_query **arms; /* owned */
    bool union_all;         /* UNION ALL (duplicates kept); false: UNION (duplicates removed) */
    bool order_implicit;    /* UNION without ORDER BY: norder keys are every result column ascending, the order
                               SQLite returns it in (its duplicate removal walks a sorted index); PostgreSQL's
                               (hashed) order is not modelled */
    int nunsupported;
    const char *unsupported[DB_MAX_UNSUPPORTED]; /* static strings */
    int nparams;                                 /* highest parameter number used */
    uint8_t date_param[64];  /* [k-1]: the db_date_kind of a DATE/TIME column parameter k is compared with, 0 none */
    bool date_loose_literal; /* a DATE/TIME column is compared with a text literal not of its ISO-8601 form */
    bool sqlite_dates; /* uses SQLite's date functions of a column (DBF_STRFTIME, DBF_JULIANDAY): PostgreSQL has none */
    bool pg_dates;     /* uses PostgreSQL's date - date or EXTRACT (DBF_DAYS, DBF_DATE_PART): SQLite has neither */
    bool date_cast;    /* a cast to DATE/TIME/TIMESTAMP, read as PostgreSQL does (an ISO text); SQLite's CAST
                                gives NUMERIC affinity instead ('2026-01-01' becomes 2026): not modelled there */
} db_query;

/*
 * SQLite's parameter syntax (`?`, `?NNN`, `:name`, `@name`, `$name`) rewritten to
 * PostgreSQL's `$N`, numbered as SQLite numbers them (a `?` takes the largest
 * number so far plus one, `?NNN` takes NNN, a name keeps the number of its first
 * occurrence), so that libpg_query accepts SQLite statements. String literals,
 * quoted identifiers and comments are copied unchanged. sql[0..len); returns the
 * malloc'ed rewritten text (NULL when out of memory) and *nparams.
 */
char *db_sql_params_to_pg(const char *sql, size_t len, int *nparams);

/*
 * Parse the first statement of sql[0..len) with libpg_query (PostgreSQL grammar,
 * after db_sql_params_to_pg) and resolve its names against the schema.
 * Returns 0 and *out (free with db_query_free) — possibly with understood = false
 * and the unsupported kinds listed — or -1 with *err (malloc'ed) when the text
 * does not parse at all (then the statement is run concretely too).
 */
int db_query_parse(const db_schema *s, const char *sql, size_t len, db_query **out, char **err);
/* Name construct `kind` (a static string) in q->unsupported, once, without making q not understood: a part of
 * an understood statement that is read concretely (a result column of DB_RESULT_CONCRETE). */
void db_query_concrete_part(db_query *q, const char *kind);
/* Mark q not understood because of construct `kind` (a static string, named once in q->unsupported),
 * for what only the caller knows (the engine: PostgreSQL has no strftime()). */
void db_query_unsupported(db_query *q, const char *kind);
void db_query_free(db_query *q);

/*
 * Does each result row of q come from exactly one row of each FROM item, and read nothing else?
 * (an understood SELECT without aggregates, GROUP BY, subqueries, outer joins or OFFSET). Then
 * the rows behind a result are named by its hidden rowids, and a database holding just those
 * rows gives the same result (`sympath data` fixtures).
 */
bool db_query_rows_are_keys(const db_query *q);

/*
 * The SELECT text sympath sends to SQLite for an understood query: the original
 * with ", F.rowid" added for each FROM item F, in order, as the last result
 * columns (before FROM), so that each result row maps back to the fixture rows
 * it came from. malloc'ed, NULL when out of memory.
 */
char *db_query_with_rowid(const db_query *q, const char *sql, size_t len);
/* The same with another hidden column per FROM item (PostgreSQL: "ctid"). */
char *db_query_with_hidden(const db_query *q, const char *sql, size_t len, const char *column);

/* ---------------------------------------------------------------- SQL -> expressions */

/*
 * A value in a WHERE clause as symbolic expressions (each carrying its concrete
 * value): `null` (width 1) says it is NULL; an integer value is `v` (64 bits); a
 * REAL value is `v` too, the IEEE-754 bit pattern of a double (is_real; v is 0 when NULL); a
 * text value is `len` (8 bits) and bytes[0..nbytes) (8 bits each), the bytes at
 * and past len being 0 (the fixture's type constraint guarantees it for cells).
 */
typedef struct db_val {
    bool is_text;
    expr *null;
    expr *v;
    expr *len;
    unsigned nbytes;
    expr **bytes;
    bool is_real; /* v is the bit pattern of a double (a REAL value), never NaN */
    expr *scaled; /* a DECIMAL(p,s) fixture cell (db_column.scale = s): the 64-bit integer k of which v is the
                   * double k / 10^s (exactly what strtod gives for the text of k with s decimals); a FLOAT4
                   * cell: k of v = k / 4; else NULL */
    db_date_kind valid_date; /* a fixture cell of a date column (the runtime's slot cells): whenever its row is present
                              * and it is not NULL it is a valid text of this kind (its slot constraint), so the date
                              * functions need not test it again; DB_DATE_NONE for any other value */
    expr *day; /* a date + n (db_date_add_days) and what it was stored into (an UPDATE's cell): its julian day number
                * (64 bits, no division), meaningful when the value is not NULL; comparisons use it instead of the
                * bytes, whose divisions cost the solver seconds each. NULL for any other value */
} db_val;

/*
 * The WHERE clause of q over one combination of rows, one per FROM item: rows[f]
 * are the cells of FROM item f's row (its table's columns in order),
 * params[0..nparams) the bound parameters (params[k-1] is parameter k; one whose
 * `null` is NULL is unbound and reads as SQL NULL, as in SQLite). SQL's three-valued logic is exact: the
 * result (width 1) is true iff the clause is TRUE (not FALSE, not NULL), which is
 * when SQLite returns the row. Integer arithmetic is 64-bit two's complement
 * (SQLite would switch to REAL on overflow); x / 0 and x % 0 are NULL. LIKE is
 * ASCII case-insensitive with % and _ (no ESCAPE), on a bounded text as a
 * dynamic-programming expression over its bytes. A text parameter compared with a DATE/TIME
 * column (q->date_param) whose concrete text looks like a number is not modelled (SQLite would
 * compare a number); with q->like_exact (PostgreSQL, which compares them as dates) neither is a
 * literal (q->date_loose_literal) or parameter text that is not a valid ISO-8601 text of the
 * column's kind (db_date_text_valid).
 * Returns the expression, or NULL with *why (a static string) when the clause
 * uses something the translation does not model (e.g. a text compared with an
 * integer): the caller then runs the query concretely. Nodes are built in cx;
 * temporary memory is malloc'ed and freed before return.
 */
expr *db_where_expr(expr_ctx *cx, const db_query *q, const db_val *const *rows, const db_val *params, int nparams,
                    const char **why);

/*
 * What a subquery ranges over: the fixture's row slots of each table, as the runtime holds
 * them (cells of slot k, "slot k is present" of width 1), then the rows the program inserted
 * that the model tracks (extra(ti) of them: row and alive of rows + i are the i-th, in
 * insertion order; extra may be NULL: none), and whether the program changed a table so that
 * its rows are not those (a write run concretely, a row inserted but not tracked: the subquery
 * is then not modelled). Without a view (the explorer, CHECK constraints) subqueries are not
 * modelled. db_set_fixture_view keeps the pointer (NULL clears it); not thread-safe.
 */
typedef struct db_fixture_view {
    unsigned rows; /* slots per table */
    const db_val *(*row)(int ti, unsigned k);
    expr *(*alive)(int ti, unsigned k);
    bool (*changed)(int ti);
    unsigned (*extra)(int ti);
} db_fixture_view;
void db_set_fixture_view(const db_fixture_view *v);

/* SQL's a = b of two values that are both non-NULL (texts by bytes, numbers by value, as keys compare); width 1. */
expr *db_val_same(expr_ctx *cx, const db_val *a, const db_val *b);

/*
 * GROUP BY: "row combinations a and b (a[f]: the cells of FROM item f's row, as for
 * db_where_expr) fall into the same group": every key equal, NULL keys equal to each other (SQL
 * groups NULLs together); an expression key (group_expr) by its values over a and b. Width 1;
 * NULL when an expression key does not translate.
 */
expr *db_group_eq(expr_ctx *cx, const db_query *q, const db_val *const *a, const db_val *const *b);

/*
 * q->having for the group whose representative row combination is `rep`, over the group's
 * candidate combinations group_rows[0..n) (each an array of FROM items' rows) of which sel[k]
 * (width 1) says combination k belongs to the group (present, WHERE, same keys); aggregates in
 * HAVING (DBX_GROUPAGG) fold db_aggregate over them. Width 1, TRUE when the group is returned;
 * NULL with *why when not modelled.
 */
expr *db_having_expr(expr_ctx *cx, const db_query *q, const db_val *const *rep, unsigned n, expr *const *sel,
                     const db_val *const *const *group_rows, const db_val *params, int nparams, const char **why);

/* The same for any condition e of q (an outer join's ON condition q->on[f]); NULL e is TRUE. */
expr *db_cond_expr(expr_ctx *cx, const db_query *q, const db_sexpr *e, const db_val *const *rows, const db_val *params,
                   int nparams, const char **why);

/*
 * The value of an expression (an INSERT's VALUES item, an UPDATE's SET value) as a db_val,
 * over one row per FROM item (rows, as for db_where_expr; NULL when the expression has no
 * columns) and the bound parameters params[0..nparams). The result's bytes may point into
 * rows, params or storage freed at the next call: copy what must last. Returns 0, or -1
 * with *why (static) for an unsupported construct. Not reentrant (that storage is static).
 */
int db_value_expr(expr_ctx *cx, const db_query *q, const db_sexpr *e, const db_val *const *rows, const db_val *params,
                  int nparams, db_val *out, const char **why);
/* The condition (width 1) under which the last db_value_expr's (or db_group_value's) integer
 * arithmetic overflowed 64 bits (SQLite would have computed a REAL), NULL when it has none. */
expr *db_value_overflow(void);
/* v (a text value, such as a MIN/MAX of texts) with its NULL read as the text literal lit: coalesce(v, lit). The
 * bytes live as long as the run's expressions (as a text aggregate's); -1 when v is no text or memory runs out. */
int db_text_default(expr_ctx *cx, db_val *v, const char *lit);

/*
 * Aggregate `agg` (DB_AGG_*) over the rows a query may return: for each of the n row
 * combinations, sel[i] (width 1) says it is returned and vals[i] is its argument
 * (ignored for COUNT(*), which passes vals = NULL). COUNT counts non-NULL arguments;
 * SUM, MIN and MAX of integers skip NULLs and are NULL when nothing is left, as in
 * SQL; COUNT_DISTINCT counts the non-NULL arguments that equal no earlier counted one (texts by
 * bytes, numbers by value, as both engines compare them); a SUM of scaled cells of one scale sums their integers exactly (PostgreSQL's numeric;
 * SQLite's sum of their doubles may differ in the last bit, and the runtime then reads the value
 * concretely); a SUM with other REAL arguments adds the doubles in order from 0.0 (SQLite 3.40,
 * PostgreSQL's float8); AVG is SUM / COUNT as a double, one division per possible count; MIN and
 * MAX of texts (dates kept as text) compare bytes as SQLite's BINARY collation does and give a text
 * db_val whose byte array lives as long as the run. The result is otherwise an integer db_val; *overflow (width 1, when not NULL) says a partial
 * SUM overflowed 64 bits, which SQLite reports as an error instead of a row. Returns 0,
 * or -1 with *why (static) for other text arguments and MIN/MAX over texts and numbers.
 */
int db_aggregate(expr_ctx *cx, int agg, unsigned n, expr *const *sel, const db_val *const *vals, db_val *out,
                 expr **overflow, const char **why);

/*
 * A result column's expression e with aggregates in it (db_query.result_expr of a DB_AGG_EXPR
 * column: COALESCE(SUM(x), 0), SUM(price * qty), AVG(price)), for the group whose representative
 * row combination is `rep`, over its candidate combinations group_rows[0..n) selected by sel[k],
 * as for db_having_expr (without GROUP BY: every combination a query may return); aggregates as
 * db_aggregate computes them. Returns 0 and
 * *out, or -1 with *why (static) for what is not modelled (a text result, an aggregate of text).
 */
int db_group_value(expr_ctx *cx, const db_query *q, const db_sexpr *e, const db_val *const *rep, unsigned n,
                   expr *const *sel, const db_val *const *const *group_rows, const db_val *params, int nparams,
                   db_val *out, const char **why);

/*
 * "Row a comes no later than row b" under q's ORDER BY (rows_a, rows_b: the cells
 * of each FROM item's row, as for db_where_expr), as SQLite orders: NULL before
 * any value unless NULLS LAST, texts by BINARY collation, DESC reversing a key;
 * width 1, true on ties. Constant true when q has no (plain-column) ORDER BY.
 */
expr *db_order_le(expr_ctx *cx, const db_query *q, const db_val *const *rows_a, const db_val *const *rows_b);
/* Whether q's expression ORDER BY keys (db_query.order_expr) translate over rows (one row per FROM item); false
 * with *why (static) when one does not, and the query's order is then not modelled (db_order_le would read such
 * a key as equal). *overflow: the condition (width 1) under which their integer arithmetic overflows 64 bits
 * there (SQLite would compare REALs), NULL when it cannot. */
bool db_order_exprs_ok(expr_ctx *cx, const db_query *q, const db_val *const *rows, const char **why, expr **overflow);
/* The same order over explicit keys: keys_a[k], keys_b[k] (k < nkeys <= 4) are the two sides' values of
 * key k (integers, REALs or texts, with their NULL flags), desc[k] its direction, nulls_last[k] where its
 * NULLs go; width 1, true when a comes no later than b (ties included). */
expr *db_keys_le(expr_ctx *cx, int nkeys, const db_val *const *keys_a, const db_val *const *keys_b, const bool *desc,
                 const bool *nulls_last);

/*
 * The schema constraints of slot `slot` of table `ti` as one width-1 expression
 * (true when satisfied), given the symbolic fixture: counts[t] (8 bits) is table
 * t's row count and cells[t][slot * ncols + col] its cells. Present rows only:
 *   (count > slot) => NOT NULL cells are not null, text lengths <= db_column_text_cap,
 *   text bytes printable ASCII (0x20..0x7e) below the length and 0 from it, a non-NULL
 *   date cell a valid date of its format (db_date_valid),
 *   PRIMARY KEY/UNIQUE sets differ from every lower present slot (NULLs never
 *   collide, as in SQLite), each FOREIGN KEY value equals the referenced column
 *   of some present slot of the referenced table.
 * Emmi et al. section 4 ("database constraints") in bit-vector form.
 */
expr *db_slot_constraints(expr_ctx *cx, const db_schema *s, const db_limits *l, int ti, unsigned slot,
                          expr *const *counts, db_val *const *cells);

/*
 * "v is a valid ISO-8601 text of kind k" (width 1), for a text db_val whose bytes past its
 * length are 0: the length is exactly db_date_len(k), digits and the separators '-', ' ', ':'
 * in their places, year 1000..9999, month 01..12, day 01..the month's last day (February 29 in
 * Gregorian leap years only), hour 00..23, minute and second 00..59. Such texts order
 * chronologically by bytes, so SQL text comparisons and ORDER BY of them are date comparisons.
 * k = DB_DATE_NONE gives constant true. Nodes are built in cx; nothing is allocated otherwise.
 */
expr *db_date_valid(expr_ctx *cx, db_date_kind k, const db_val *v);
/* True when the NUL-terminated text t is a valid ISO-8601 text of kind k, as db_date_valid
 * accepts it (false for DB_DATE_NONE). */
bool db_date_text_valid(db_date_kind k, const char *t);
/* True when the NUL-terminated text t looks like a number to SQLite's NUMERIC affinity (blanks, a
 * sign, digits, a point, an exponent; not hex, inf or nan), which a DATE column would then store or
 * compare as INTEGER/REAL instead of TEXT. */
bool db_text_is_number(const char *t);
/* The same of a text db_val's concrete value (its len->value bytes, at most 255). */
bool db_val_is_number_text(const db_val *v);
/* A text db_val's concrete value into buf[0..256) (NUL-terminated, at most 255 bytes); returns buf. */
char *db_val_concrete_text(const db_val *v, char *buf);
/* The kind of a column's declared type (NUMERIC affinity only, as schema.c asks): DATETIME and
 * TIMESTAMP (also "TIMESTAMP WITH TIME ZONE", written without the zone) DB_DATE_DATETIME, other
 * types naming DATE DB_DATE_DATE, TIME DB_DATE_TIME, else DB_DATE_NONE. Case-insensitive. */
db_date_kind db_date_kind_of(const char *decl_type);
/*
 * SQLite's date functions of a date column's text v (date.c), which they read as 'YYYY-MM-DD' or
 * 'YYYY-MM-DD HH:MM:SS' (valid as db_date_valid says; a date alone is at 00:00:00); any other text
 * gives NULL (SQLite reads a few more forms: those values come back as model mismatches).
 *
 * db_date_format_len: the length in bytes of strftime(fmt, ...)'s result, -1 when fmt has a
 * conversion not modelled (modelled: %Y %m %d %H %M %S and %%) or it exceeds 255 bytes.
 * date(v) and datetime(v) are the formats "%Y-%m-%d" and "%Y-%m-%d %H:%M:%S" (time(v) does not parse:
 * TIME(p) is a type in PostgreSQL's grammar).
 *
 * db_date_format: strftime(fmt, v): fills bytes[0..db_date_format_len(fmt)) (8-bit expressions,
 * the caller's array) and returns its NULL flag (width 1). fmt must have a length >= 0.
 *
 * db_julianday: julianday(v) = *k / *unit as a double, exactly SQLite's value: *k (64 bits, 0 when
 * NULL) is SQLite's integer iJD in milliseconds with *unit 86400000.0, or, when v has fewer than
 * 19 bytes (a DATE cell: always midnight), 2 * JD with *unit 2.0 (so differences of dates are
 * exact integers). Returns the NULL flag (width 1). Nodes are built in cx; nothing is allocated.
 */
/*
 * PostgreSQL's date operators on date column texts (same readings, NULL otherwise):
 * db_date_days: a - b in days (64 bits, the difference of julian day numbers of their dates; a date
 * column's `d1 - d2` is an integer in PostgreSQL); *null its NULL flag.
 * db_date_field: EXTRACT(field FROM v) / date_part('field', v) for field year, month, day, hour,
 * minute (case-insensitive; 0 at a date's midnight) or dow (0 Sunday .. 6 Saturday) as a 64-bit integer, *null its NULL flag (true
 * for another field: db_date_field_ok says which are modelled).
 */
expr *db_date_days(expr_ctx *cx, const db_val *a, const db_val *b, expr **null);
/* SQLite's date(v, '+N days') and PostgreSQL's v + n (n: 64-bit signed days, a constant or an expression such as a
 * column's value): the date n days after v's date as 'YYYY-MM-DD' in bytes[0..10) (8-bit expressions, the caller's
 * array, of 11 with pg), its length in *len (8 bits), the civil date of its julian day number (Fliegel and Van
 * Flandern, CACM 1968: divisions by constants); returns the NULL flag (width 1; also for |n| >= 300000, which is
 * not modelled, and past the year 9999 on SQLite, whose date() is NULL there; with pg such a date is PostgreSQL's
 * 'YYYYY-MM-DD', 11 bytes); *jd (if jd is not NULL) the result's julian day number, meaningful when the flag is
 * false. */
expr *db_date_add_days(expr_ctx *cx, const db_val *v, expr *n, bool pg, expr **bytes, expr **len, expr **jd);
/* a - b in seconds (64 bits) of two date or datetime texts (a date alone at midnight), *null its NULL flag: the
 * interval PostgreSQL's timestamp - timestamp gives, as the seconds it holds (db_func DBF_SECONDS). */
expr *db_date_seconds(expr_ctx *cx, const db_val *a, const db_val *b, expr **null);
/* The julian day number (64 bits) of v when v is known to be a valid 'YYYY-MM-DD' text whenever it is not
 * NULL: a fixture cell of a DATE column (v->valid_date) or a text whose bytes are constants forming a valid
 * date. NULL otherwise. Two valid dates compare as their numbers (a comparison with db_date_add_days's date
 * uses its *day instead of its bytes, whose divisions cost the solver). */
expr *db_date_day_number(expr_ctx *cx, const db_val *v);
/* The day number of ite(c, a, b) (db_val.day): ite(c, day of a, day of b) when both have one (db_date_day_number;
 * a side that is the NULL constant takes the other's), else NULL. Nodes in cx. */
expr *db_date_day_ite(expr_ctx *cx, expr *c, const db_val *a, const db_val *b);
expr *db_date_field(expr_ctx *cx, const char *field, const db_val *v, expr **null);
bool db_date_field_ok(const char *field);
int db_date_format_len(const char *fmt);
expr *db_date_format(expr_ctx *cx, const char *fmt, const db_val *v, expr **bytes);
expr *db_julianday(expr_ctx *cx, const db_val *v, expr **k, double *unit);

/* ---------------------------------------------------------------- CHECK and DEFAULT (check.c) */

/*
 * CHECK constraints of table ti from its CREATE TABLE text `create_sql` (as SQLite keeps it
 * in sqlite_schema): every CHECK (...) clause, column or table level, is cut out of the text
 * (outside quotes and comments), parsed with libpg_query as the WHERE clause of
 * "SELECT * FROM t WHERE <expr>" (SQLite's `==` read as `=`) and tried once through the
 * translation; the parsed ones are kept in t->checks, the others too (q NULL) and named in
 * s->ignored by kind ("CHECK (...) of t: function foo()"). Also parses each column's DEFAULT
 * (c->dflt) as the value of a one-column INSERT; a default that is not a literal or arithmetic
 * on literals (CURRENT_TIMESTAMP, a function) is named in s->ignored. Sets each text column's
 * text_need: the longest text literal a modelled CHECK compares the column with (=, <>, <,
 * IN, LIKE without its wildcards), the least length() a CHECK asks of it, the length of its
 * DEFAULT text, n of a PostgreSQL char(n), so that its fixture cells can hold them. 0, or -1
 * out of memory.
 */
int db_checks_load(db_schema *s, int ti, const char *create_sql);
/*
 * Text cells long enough for the texts the SQL compares them with (text_need.c). Raise the
 * text_need of every text column q compares with a text literal (=, <>, <, >, IN, LIKE without
 * its wildcards) or whose length() it bounds from below, in its WHERE, ON and HAVING clauses
 * and its subqueries' WHERE. s is the schema q was parsed against.
 */
void db_text_needs_of_query(db_schema *s, const db_query *q);
/*
 * The program's SQL strings sqls (each NUL-terminated, an empty one last; instrument's
 * build_stats.sql_strings) parsed against s, each raising text_need as above, and each TEXT column
 * they pass to SQLite's date functions (date(), datetime(), strftime(), julianday()) made a date
 * column (db_column.date: DATETIME for datetime(), a time conversion or DEFAULT CURRENT_TIMESTAMP).
 * Returns the DB_TEXT_NEED_MARK and DB_DATE_NEED_MARK comment lines (malloc'ed; "" when nothing
 * changed) that carry these to the executors: appended to the schema copy they read,
 * db_schema_from_ddl applies them. NULL when out of memory.
 */
char *db_text_needs_from_program(db_schema *s, const char *sqls);
/* "/" "* sympath-text-need: TABLE<TAB>COLUMN<TAB>N *" "/": column COLUMN of TABLE needs N bytes. */
#define DB_TEXT_NEED_MARK "/* sympath-text-need: "
/* Apply the DB_TEXT_NEED_MARK comments of ddl to s (db_schema_from_ddl calls it). */
void db_text_needs_from_marks(db_schema *s, const char *ddl);
/* "/" "* sympath-date-need: TABLE<TAB>COLUMN<TAB>K *" "/": TEXT column COLUMN of TABLE holds dates of
 * db_date_kind K (1 DATE, 3 DATETIME): the program's SQL passes it to SQLite's date functions
 * (db_text_needs_from_program writes these marks beside the text needs). */
#define DB_DATE_NEED_MARK "/* sympath-date-need: "
/* Apply the DB_DATE_NEED_MARK comments of ddl to s (db_schema_from_ddl calls it). */
void db_date_needs_from_marks(db_schema *s, const char *ddl);

/* A comment "/" "* sympath-pg-check: CHECK (...) *" "/" inside a CREATE TABLE carries a PostgreSQL
 * CHECK (pg_get_constraintdef's text, written by db_pg_read_schema) that SQLite must not run;
 * db_checks_load models it as above, with PostgreSQL's exact LIKE. */
#define DB_PG_CHECK_MARK "/* sympath-pg-check: "
/* In the runs' PostgreSQL DDL (db_pg_read_schema's pg_ddl), this line starts the statements a run
 * applies one by one, each in a savepoint, skipping those the scratch database refuses: one
 * ALTER TABLE ... ADD CONSTRAINT ... CHECK per line. */
#define DB_PG_OPTIONAL_MARK "-- sympath-optional: one statement per line, each may fail"

/* Free a table's CHECKs and its columns' parsed defaults (db_schema_free calls it). */
void db_checks_free(db_table *t);

/*
 * CHECK `ck` over one row (its cells, the table's columns in order) as a width-1 expression,
 * with SQL's rule for CHECK: it holds unless the expression is FALSE (NULL passes).
 * Returns NULL with *why (static) when the translation does not model it.
 */
expr *db_check_expr(expr_ctx *cx, const db_check *ck, const db_val *row, const char **why);

/*
 * Every modelled CHECK of table t over one row, and-ed (constant true when none);
 * db_slot_constraints includes it for each present slot.
 */
expr *db_row_checks(expr_ctx *cx, const db_table *t, const db_val *row);

/*
 * The default values of the columns an INSERT leaves out: for each column of t that
 * q->insert_col does not name, cells[c] becomes its DEFAULT's value (text bytes
 * malloc'ed) or stays as the caller set it (NULL) when there is no DEFAULT. Returns 0,
 * or -1 when some omitted column's default is not modelled (the caller then leaves the
 * row concrete) and `unmodelled` is NULL; with `unmodelled`, such a column (index < 64) is
 * left as the caller set it, its bit set in *unmodelled (cleared first), for the caller to
 * fill with the engine's value. The rowid alias is left to the caller.
 */
int db_insert_defaults(expr_ctx *cx, const db_table *t, const db_query *q, db_val *cells, uint64_t *unmodelled);

/* ---------------------------------------------------------------- REAL values (real.c) */

/* The constant double d as a REAL db_val's value (its 64-bit pattern). */
expr *db_real_const(expr_ctx *cx, double d);
/* An integer value (64 bits) as a double, as SQLite converts an INTEGER operand of REAL
 * arithmetic (round to nearest even). */
expr *db_int_to_real(expr_ctx *cx, expr *i);
/* A REAL value as SQLite's sqlite3_column_int64 reads it: truncated toward zero, saturated
 * at INT64_MIN / INT64_MAX outside the range (NaN never occurs: it is NULL). */
expr *db_real_to_int(expr_ctx *cx, expr *r);
/* Width-1 conditions "a < b" and "a = b" of two numbers, each INTEGER or REAL, exactly as
 * SQLite compares them: two REALs as doubles, an INTEGER with a REAL by exact value (not by
 * converting the integer to a double, which rounds beyond 2^53). Two scaled values of one scale
 * (DECIMAL(p,s) cells and exact sums of them) compare by their integers k, as PostgreSQL's
 * numeric does and as SQLite's doubles k / 10^s do while |k| < 10^15. */
void db_num_cmp(expr_ctx *cx, const db_val *a, const db_val *b, expr **lt, expr **eq);
/*
 * The value v as a column of c's affinity stores it (an INSERT's value, an UPDATE's SET value,
 * a DEFAULT): an INTEGER into a REAL column becomes its double; a NULL number takes the
 * column's kind. Returns 0 and *out (may alias v), or -1 when not modelled: a text into a number
 * column or the reverse (a NULL too), a REAL into an INTEGER/NUMERIC column (SQLite keeps it REAL unless lossless),
 * a text whose concrete value looks like a number into a DATE/TIME column (db_text_is_number: SQLite stores a number).
 */
int db_val_store(expr_ctx *cx, const db_column *c, const db_val *v, db_val *out);
/* The fixture's text for a REAL cell's bits: "%.17g" (read back by SQLite to the same double),
 * a ".0" added to integral values, 9e999 / -9e999 for the infinities. buf >= 32 bytes. */
void db_real_text(uint64_t bits, char *buf, size_t n);
/* The double of a scaled cell (DECIMAL(p,s), 1 <= s <= 15): the 64-bit integer k as the
 * correctly rounded k / 10^s, i.e. sitofp(k) then one division by the exact 10^s. For |k| < 2^53
 * this is the double strtod reads from k's text with s decimals (one rounding of the exact
 * quotient). scale = -2: k / 4 (FLOAT4 cells). db_scaled_value builds the expression,
 * db_scaled_bits computes it (the bits). */
expr *db_scaled_value(expr_ctx *cx, expr *k, int scale);
uint64_t db_scaled_bits(int64_t k, int scale);
/* The fixture's text of a scaled cell from its double's bits: "%.*f" with `scale` decimals (the
 * exact decimal k / 10^s, since the double is the nearest to it). buf >= 48 bytes. */
void db_scaled_text(uint64_t bits, int scale, char *buf, size_t n);

/* Free a db_sexpr tree (NULL accepted). */
void db_sexpr_free(db_sexpr *e);

/* ---------------------------------------------------------------- setup of a run (setup.c, setup_pg.c) */

/*
 * What `sympath run --db` (and `sympath data` on SQLite) prepares before the build: the
 * schema, its copy under OUT/build, the query log and the environment the executors read.
 * Explorer side only: these two files are not in the runtime archive. Messages that are
 * notes (constraints not modelled, the scratch database created) go to the caller's
 * `notes` stream; errors are returned as text for the caller to print.
 */
typedef struct db_setup {
    db_schema *schema;      /* NULL when --db was not given */
    db_limits limits;       /* set by the caller (--db-rows, --db-text) */
    int no_faults;          /* set by the caller (--no-db-faults): SYMPATH_DB_FAULTS=0 */
    char schema_copy[4200]; /* OUT/build/schema.sql: the DDL every run (and replay) starts from */
    char log_path[4200];    /* OUT/build/db/queries.log */
    size_t fixture_inputs;  /* inputs the fixture takes in a test vector */
    /* PostgreSQL (--db is a conninfo): fixture mode on the server (setup_pg.c, runtime db_pq.c) */
    int pg;                 /* 1 when --db is a PostgreSQL conninfo */
    const char *scratch;    /* --db-scratch CONNINFO, or NULL: database sympath_scratch on the same server */
    char *scratch_conninfo; /* the scratch database's conninfo the runs use (malloc'ed) */
    char pg_ddl_path[4200]; /* OUT/build/schema_pg.sql: the tables as PostgreSQL creates them */
    char results_dir[4200]; /* OUT/build/db: results-<executor>.txt, each run's SELECT results */
    char prefix[64];        /* sympath_<pid>: the runs' schemas are <prefix>_<fork server pid> */
} db_setup;

/*
 * `sympath run --db`: load the schema named by db_path (DDL text or an SQLite file, never
 * written: db_schema_load; with pg, a PostgreSQL conninfo: db_setup_pg), write its DDL to
 * build_dir/schema.sql (atomically), create build_dir/db/ for the runs' databases, empty the
 * query log, and export SYMPATH_DB_SCHEMA, SYMPATH_DB_DIR, SYMPATH_DB_LOG, SYMPATH_DB_ROWS,
 * SYMPATH_DB_TEXT and SYMPATH_DB_FAULTS for the executors (absolute paths). d->limits,
 * d->no_faults and d->scratch are the caller's. Notes ("sympath: note: ...", the schema's size) go to notes. Returns 0, or -1
 * with *err (malloc'ed, e.g. "--db x.sql: near line 3: syntax error").
 */
int db_setup_run(const char *db_path, int pg, const char *build_dir, db_setup *d, FILE *notes, char **err);
/*
 * After the build, before the first run: the program's SQL strings sqls (build_stats.sql_strings;
 * NULL: nothing to do) raise the text_need of the columns they compare with longer texts
 * (db_text_needs_from_program); those needs are appended to the schema's DDL as comments and
 * schema.sql is written again, so that every executor lays out the same cells. One note per
 * column grown goes to notes. Returns 0, or -1 with *err (malloc'ed) when schema.sql cannot be
 * written or out of memory.
 */
int db_setup_program_sql(db_setup *d, const char *sqls, FILE *notes, char **err);
/*
 * Lay the fixture out anew for the limits `to` (the exploration grows the layout when it stalls:
 * src/explore/db_layout.c): d->limits and d->fixture_inputs follow, SYMPATH_DB_ROWS and
 * SYMPATH_DB_TEXT are exported again for the executors started next, and the query log is emptied
 * (report.json's "database" counts the last layout's runs). Returns 0, or -1 with *err (malloc'ed)
 * when the log cannot be emptied.
 */
int db_setup_grow(db_setup *d, const db_limits *to, char **err);

/*
 * PostgreSQL (called by db_setup_run): the user's tables read over a read-only connection
 * (data_pg_connect, db_pg_read_schema); their SQLite-style DDL goes to *ddl (malloc'ed, for
 * db_schema_from_ddl) and the PostgreSQL DDL to d->pg_ddl_path. The scratch database
 * (d->scratch, or sympath_scratch on the user's server, created with CREATE DATABASE ...
 * TEMPLATE template0 LC_COLLATE 'C' when missing) is checked to be reachable, writable and
 * not the user's database; its conninfo goes to d->scratch_conninfo. Exports
 * SYMPATH_DB_PG_SCRATCH, SYMPATH_DB_PG_DDL and SYMPATH_DB_PG_PREFIX (db_pq.h). Returns 0, or
 * -1 with *err (no tables, the role may not create the database, ...).
 */
int db_setup_pg(const char *conninfo, const char *build_dir_abs, db_setup *d, char **ddl, FILE *notes, char **err);

/*
 * `sympath data` on SQLite: check that db_abs is an SQLite database file (its 16-byte
 * header), load its schema (read-only) into d->schema, write its DDL to
 * build_dir/schema.sql and export SYMPATH_DATA_SCHEMA (the runtime's rowid keys, replay's
 * fixtures). db_name is the --db text for messages. 0, or -1 with *err.
 */
int db_setup_data(const char *db_abs, const char *db_name, const char *build_dir, db_setup *d, char **err);

/* After the exploration: drop the runs' schemas (<prefix>_*) from the scratch database.
 * Warnings go to notes; never fails. Nothing to do unless d->pg. */
void db_cleanup_pg(const db_setup *d, FILE *notes);

/* Free what d owns (schema, scratch conninfo); d stays reusable as zeroed. */
void db_setup_free(db_setup *d);

/* ---- PostgreSQL (schema_pg.c, data_pg.c) ----
 * libpq's handles, declared as libpq-fe.h declares them (a repeated identical typedef is
 * valid C11), so that this header needs no libpq include path: the files that call libpq
 * include <libpq-fe.h> themselves. */
typedef struct pg_conn PGconn;
typedef struct pg_result PGresult;

/* -- fixture mode on PostgreSQL: the user's tables read from the server's catalog, as
 * SQLite-style and PostgreSQL DDL (schema_pg.c) -- */

/*
 * Read the tables of the connection's current schema (current_schema(), ordinary and
 * partitioned tables) from pg_catalog: columns with their types (format_type), NOT NULL,
 * PRIMARY KEY, UNIQUE and FOREIGN KEY constraints. Only SELECTs on the catalog are sent:
 * the caller passes a read-only connection (data_pg_connect) and nothing is written.
 *
 * *sqlite_ddl (for db_schema_from_ddl, which gives the fixture layout and its constraints,
 * Emmi, Majumdar and Sen, ISSTA 2007, section 4): one CREATE TABLE per table, columns in
 * order, each column's declared type naming its affinity and, for the runtime, the
 * PostgreSQL kind (db_pg_kind): int2 "SMALLINT", int4 "INT", int8 "BIGINT" (INTEGER
 * affinity; never "INTEGER", which SQLite would make an alias of its rowid), boolean
 * "BOOLEAN INT" (INTEGER), text/name "TEXT", varchar(n) "VARCHAR(n)", char(n) "CHARACTER(n)"
 * (TEXT), numeric and numeric(p[,0]) "NUMERIC" (integer values), numeric(p,s) with s > 0
 * "DECIMAL(p,s)" (scaled cells: k / 10^s), double precision "DOUBLE PRECISION" and real "FLOAT4"
 * (doubles; a FLOAT4 cell is exactly a float), date "DATE", timestamp and time
 * without precision or zone "TIMESTAMP" and "TIME" (ISO-8601 text cells, date.c), any other type "TEXT"; NOT NULL on the
 * column; PRIMARY KEY, UNIQUE and FOREIGN KEY as table constraints (a FOREIGN KEY to a
 * table outside the schema is left out).
 * *pg_ddl (run in each run's fresh schema): CREATE TABLE per table with the columns'
 * format_type, NOT NULL, PRIMARY KEY and UNIQUE, then one ALTER TABLE ... ADD FOREIGN KEY
 * ... DEFERRABLE INITIALLY DEFERRED per foreign key (fixture rows go in table by table).
 * CHECK constraints go into *sqlite_ddl only, each as a comment DB_PG_CHECK_MARK "CHECK (...) * /"
 * inside its CREATE TABLE (modelled by db_checks_load); defaults, indexes and triggers are not copied.
 * Both malloc'ed, ";\n"-separated statements. Returns 0, or -1 with *err (malloc'ed): the
 * server's message of a failed catalog query, or "no tables in schema X".
 */
int db_pg_read_schema(PGconn *conn, char **sqlite_ddl, char **pg_ddl, char **err);

/* What a fixture column is in PostgreSQL, from its declared type in *sqlite_ddl above. */
typedef enum db_pg_kind {
    DB_PG_INT8 = 0, /* BIGINT, and any other integer-affinity type: the 64-bit cell as is */
    DB_PG_INT4,     /* INT: -2^31 .. 2^31-1 */
    DB_PG_INT2,     /* SMALLINT: -32768 .. 32767 */
    DB_PG_BOOL,     /* BOOLEAN INT: 0 or 1 (written 't' / 'f' by the server) */
    DB_PG_NUMERIC,  /* NUMERIC (numeric, numeric(p) and numeric(p,0)): integer values */
    DB_PG_FLOAT,    /* DOUBLE PRECISION (float8), FLOAT4 (real), DECIMAL(p,s) (numeric(p,s), s > 0): doubles */
    DB_PG_TEXT,     /* TEXT, and DATE/TIMESTAMP/TIME (ISO-8601 text cells, the server converts the literal) */
    DB_PG_VARCHAR,  /* VARCHAR(n): at most n bytes */
    DB_PG_CHAR      /* CHARACTER(n): exactly n bytes (the server pads shorter values) */
} db_pg_kind;

/* The kind of column c and, for VARCHAR(n)/CHARACTER(n), *n (else 0). */
db_pg_kind db_pg_column_kind(const db_column *c, unsigned *n);

/*
 * One INSERT statement for a row in PostgreSQL syntax: every non-NULL value is a quoted
 * literal ('12', 't', 'abc'), which the server converts to the column's type by its input
 * function, so booleans and numeric columns take the fixture's integers. Booleans are
 * written 't' / 'f'. malloc'ed; NULL when out of memory. `returning` appends
 * " RETURNING ctid" (the runtime maps result rows back to slots by it).
 */
char *db_pg_insert_sql(const db_table *t, const db_cell *cells, bool returning);

/*
 * "SELECT ctid::text FROM t WHERE <every column IS NOT DISTINCT FROM its literal> [AND ctid::text
 * NOT IN (not_in)] LIMIT 1": the row of t holding exactly these cells, other than the ctids in
 * not_in (a comma-separated list of quoted ctid texts, or NULL/""). Literals as in
 * db_pg_insert_sql. malloc'ed; NULL when out of memory.
 */
char *db_pg_find_row_sql(const db_table *t, const db_cell *cells, const char *not_in);

/*
 * The fixture of a test case as PostgreSQL INSERTs (db_pg_insert_sql), decoded as
 * db_fixture_sql does. malloc'ed; NULL when out of memory.
 */
char *db_pg_fixture_sql(const db_schema *s, const db_limits *l, const uint64_t *vals, size_t n, size_t start);

/* -- the read-only PostgreSQL connection (data_pg.c), shared by the explorer (data mode's
 * source_pg.c, fixture mode's catalog reads in setup_pg.c) and the executor (the runtime's
 * data_pq.c, db_pq_build.c, db_pq_record.c) -- */

/* True when `db` (a --db argument) names a PostgreSQL database: a conninfo URI
 * ("postgresql://", "postgres://") or key=value string (dbname=, host=); else an SQLite file
 * or DDL. Used by `sympath run` (explore_run), `sympath data` and data mode's sources. */
bool data_is_postgres(const char *db);

/*
 * Connect to `conninfo` (a URI or key=value string) so that nothing done on the
 * connection can write: the server option default_transaction_read_only=on is given at
 * connection start (so RESET and DISCARD ALL keep it), then
 *   SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY; SET default_transaction_read_only = on
 * are run. A write then fails with PostgreSQL's own error ("cannot execute INSERT in a
 * read-only transaction"). A program could still turn this off with SQL of its own: see
 * data_pg_refused. Options the conninfo gives in its own "options" are replaced. Also
 * synchronize_seqscans = off: a scan of a large table then always starts at its first
 * block, so LIMIT n OFFSET m of the same query in a later run continues where the
 * earlier one stopped. And client_encoding = 'UTF8': the text libpq returns is then the
 * bytes convert_to(value, 'UTF8') computes in SQL (the executor's terms for text bytes),
 * whatever the database's encoding.
 * Returns the connection, owned by the caller (PQfinish). When the server cannot be
 * reached the connection is returned with PQstatus CONNECTION_BAD and libpq's message.
 * When it connected but the read-only setup failed, the connection is closed and NULL
 * returned with the server's message in err[0..cap) (never a writable connection).
 * NULL with "out of memory" when libpq could not allocate.
 */
PGconn *data_pg_connect(const char *conninfo, char *err, size_t cap);

/*
 * True when the statement text could make the connection writable again, so data mode
 * refuses to run it: it names transaction_read_only / default_transaction_read_only
 * (SET, set_config, ALTER ... SET), asks for READ WRITE (BEGIN / START TRANSACTION /
 * SET TRANSACTION / SET SESSION CHARACTERISTICS ... READ WRITE), or changes the session
 * characteristics. Case-insensitive, blanks between words of any length; the keywords
 * count outside '...' constants, the setting's name anywhere. A false positive (a column
 * named transaction_read_only) refuses a harmless statement.
 */
bool data_pg_refused(const char *sql);

/* The error text of a result or connection without its trailing newline, into
 * buf[0..cap) (always terminated); res may be NULL (then the connection's message). */
void data_pg_message(const PGconn *conn, const PGresult *res, char *buf, size_t cap);

/* ---------------------------------------------------------------- SQL text (sqltext.c) */

/*
 * The one quoting of identifiers and values in the SQL sympath writes (fixture INSERTs,
 * data mode's fixtures and wrapped queries, bound parameters as literals), for SQLite and
 * PostgreSQL. Every function returns a malloc'ed NUL-terminated string, NULL only when
 * out of memory.
 */

/* An identifier in double quotes with embedded quotes doubled: a"b -> "a""b". The name is
 * a C string (it cannot hold a NUL); "" gives "" (an empty quoted name). */
char *db_sql_ident(const char *name);
/* An integer in decimal; INT64_MIN as (-9223372036854775807-1), since SQLite reads the
 * literal -9223372036854775808 as a REAL. */
char *db_sql_int(int64_t v);
/* A double with 17 significant digits, kept a REAL (3 -> 3.0); a non-finite one is NULL. */
char *db_sql_double(double v);
/*
 * n bytes of text: printable ASCII quoted with '' doubled ('it''s'); otherwise (NUL,
 * control or non-ASCII bytes) SQLite: CAST(X'<hex>' AS TEXT), PostgreSQL (pg): E'...' with
 * every byte outside printable ASCII, ' and \ as \xNN. p NULL gives NULL (SQL NULL).
 */
char *db_sql_text(bool pg, const char *p, size_t n);
/* n bytes as an SQLite blob literal X'<hex>' (upper case hex digits; X'' when empty). */
char *db_sql_blob(const void *p, size_t n);

#endif
