/* sql_int.h: what the SQL parser's files (sql.c statements, sql_expr.c expressions, sql_rewrite.c text) share; only src/db includes it. */
#ifndef SYMPATH_DB_SQL_INT_H
#define SYMPATH_DB_SQL_INT_H

#include <stddef.h>
#include <pg_query/pg_query.pb-c.h>
#include "db.h"

typedef PgQuery__Node node;

/* A conversion of one statement's parse tree: the schema it is read against, the query it fills. */
typedef struct conv {
    const db_schema *s;
    db_query *q;
    int scope[DB_MAX_SUB]; /* sub items of the subqueries being converted, innermost last */
    int nscope;
    bool having; /* converting HAVING: COUNT/SUM/MIN/MAX are DBX_GROUPAGG nodes */
    /* the SELECT whose result list names aliases HAVING may use (`HAVING n > 2` for `COUNT(*) AS n`, as
     * SQLite reads it); NULL outside a SELECT */
    const PgQuery__SelectStmt *sel;
    int alias_depth; /* aliases being expanded (an alias naming itself stops) */
    /* converting an inlined WITH query's WHERE clause (sql_cte.c), or an upsert's SET values: a column without
     * a name, or named only_name (the WITH query's own name for its table, the upsert's table), is one of FROM
     * item only_from - 1; a column named otherwise is resolved as usual (`excluded.qty`); 0: off */
    int only_from;
    const char *only_name;
    /* converting a WHERE clause written over a UNION in FROM or WITH into one of its arms (sql_groups.c): a column
     * named union_names[i] (or union_alias.union_names[i]) is the arm's result column i (a copy of its expression);
     * any other column is not understood. NULL: off */
    const char *const *union_names;
    int nunion_names;
    const char *union_alias;
    /* the FROM items of the SELECT being converted that are inlined WITH queries or subqueries (sql_cte.c), indexed
     * like q->from_table: an item whose ncols > 0 names its columns by col_name alone (`WITH t(label, price)`,
     * `name AS label`); NULL: every item names its table's columns */
    const struct db_sql_cte *items;
} conv;

/* A FROM item that names a WITH query or is a subquery (sql_cte.c): its table, its WHERE clause (NULL: none;
 * owned by the parse tree), the name the query gives its table, its index in the WITH list (a subquery: among
 * the statement's subqueries in FROM, in text order). */
#define DB_SQL_CTE_COLS 64
typedef struct db_sql_cte {
    int table; /* -1: the item is a table of the schema */
    node *where;
    const char *inner;
    int index;
    bool subquery; /* `FROM (SELECT ...) alias`, not a WITH query */
    bool col_list; /* a WITH query with a column list (`WITH t(label, price) AS ...`) */
    /* when the query names some column otherwise than its table does (a column list, `name AS label`): the ncols names
     * it gives its columns (owned by the parse tree) and the table column of each; 0: the table's own names */
    int ncols;
    const char *col_name[DB_SQL_CTE_COLS];
    int col_index[DB_SQL_CTE_COLS];
} db_sql_cte;

/* sql_expr.c */
/* Mark q not understood because of construct `kind` (named once in q->unsupported). */
void db_sql_unsupported(db_query *q, const char *kind);
/* A new expression node of kind k with nkids (NULL) children; NULL when out of memory. */
db_sexpr *db_sql_mk(db_xkind k, int nkids);
/* FROM item named `name` (alias or table name, case-insensitive), -1 when none. */
int db_sql_from_item(const db_query *q, const char *name);
/* A column reference against c's FROM items; NULL (with the reason in c->q) when not resolved. */
db_sexpr *db_sql_conv_column(conv *c, PgQuery__ColumnRef *r);
/* An expression of the parse tree; NULL (with the reason in c->q) when not understood. */
db_sexpr *db_sql_conv_expr(conv *c, node *n);
/* Whether a and b are the same expression (same tree, same columns, literals and parameters). */
bool db_sexpr_equal(const db_sexpr *a, const db_sexpr *b);
/* A deep copy of e (owned by the caller, db_sexpr_free); NULL when e is NULL or memory runs out. */
db_sexpr *db_sexpr_copy(const db_sexpr *e);
/* Whether ok(arg, from, column) holds for every DBX_COLUMN node of e (true for an expression with none). */
bool db_sexpr_columns_all(const db_sexpr *e, bool (*ok)(const void *arg, int from, int column), const void *arg);
/* Whether expression e has a node of kind k. */
bool db_sexpr_has(const db_sexpr *e, db_xkind k);

/* sql.c */
/* Add condition e to q's WHERE tree with AND (takes ownership of e). */
void db_sql_and_where(db_query *q, db_sexpr *e);
/* A SELECT statement (sql[0..len) its whole text, for the FROM keyword's offset) into q: kind, FROM items,
 * result columns, WHERE, GROUP BY, ORDER BY, LIMIT; a compound one through db_sql_conv_union. */
void db_sql_conv_select(const db_schema *s, db_query *q, PgQuery__SelectStmt *sel, const char *sql, size_t len);
/* A LIMIT or OFFSET value: a non-negative integer literal (*v; a negative LIMIT is none, as in SQLite: *v
 * stays -1 for LIMIT) or a bound parameter (*param, its number). 0, or -1 for anything else. */
int db_sql_limit_value(node *n, int64_t *v, int *param);

/* sql_union.c */
/* SELECT ... UNION [ALL] SELECT ... (sel->op not SETOP_NONE) into q: its arms (q->arms, each converted by
 * db_sql_conv_select), result columns of arm 0, ORDER BY keys as result positions, LIMIT/OFFSET. What is not
 * modelled (INTERSECT, EXCEPT, UNION mixed with UNION ALL, an arm that is not one table's plain columns,
 * arms of different widths) is named in q->unsupported. */
void db_sql_conv_union(const db_schema *s, db_query *q, PgQuery__SelectStmt *sel, const char *sql, size_t len);
/* The ORDER BY and LIMIT/OFFSET of outer, a SELECT of the rows of the compound q (converted by db_sql_conv_union,
 * without its own), in place of q's: keys by position or by names[j], the name outer gives result column j. */
void db_sql_union_outer(const db_schema *s, db_query *q, PgQuery__SelectStmt *outer, const char *const *names);

/* sql_sub.c */
/* A subquery (EXISTS, IN (SELECT ...), a scalar aggregate) as a DBX_EXISTS/DBX_IN_SUB/DBX_SUBAGG
 * node over a new sub item of c->q; NULL (with the reason in c->q) when not understood. */
db_sexpr *db_sql_conv_sublink(conv *c, PgQuery__SubLink *sl);

/* sql_cte.c */
/* FROM item rv as a WITH query of `with` (NULL: none): -1 when rv names no WITH query (a table, then); 0 when it
 * does and is inlinable (*out filled); 1 when it is not (the reason in q->unsupported). */
int db_sql_cte_item(const db_schema *s, db_query *q, const PgQuery__WithClause *with, const PgQuery__RangeVar *rv,
                    db_sql_cte *out);

/* FROM item rs, a subquery `(SELECT ...) alias`, the k-th (0-based) of the statement's FROM subqueries in text
 * order: 0 when it is inlinable as a WITH query is (*out filled, out->subquery set); 1 when not (the reason in
 * q->unsupported). */
int db_sql_subselect_item(const db_schema *s, db_query *q, const PgQuery__RangeSubselect *rs, int k, db_sql_cte *out);

/* sql_groups.c */
/* SELECT sel, when it is aggregates over the groups of one grouped subquery in FROM (`SELECT MAX(c) FROM (SELECT
 * x, COUNT(*) c FROM t GROUP BY x) d`): converted into q as that subquery with q->nouter, outer_agg, outer_res set
 * (or its reason in q->unsupported), true. false when sel has another shape (q untouched). */
bool db_sql_conv_over_groups(const db_schema *s, db_query *q, PgQuery__SelectStmt *sel, const char *sql, size_t len);
/* SELECT sel, when it reads the rows of one UNION [ALL] in FROM or WITH with its own WHERE, ORDER BY or LIMIT/OFFSET
 * (`SELECT kind, amt FROM (SELECT ... UNION ALL SELECT ...) m WHERE amt > 50 ORDER BY amt DESC LIMIT 2`): converted
 * into q as that UNION, the outer WHERE added to each arm's, the outer ORDER BY and LIMIT the UNION's (or the reason
 * in q->unsupported), true. false when sel has another shape (q untouched). */
bool db_sql_conv_over_union(const db_schema *s, db_query *q, PgQuery__SelectStmt *sel, const char *sql, size_t len);

/* sql_rewrite.c */
/* Byte offset in sql[0..len) of the FROM keyword of the body of the k-th (0-based) query of the statement's
 * leading WITH list (at parenthesis depth 0 inside the body); (size_t)-1 when not found. */
size_t db_sql_cte_from(const char *sql, size_t len, int k);
/* Byte offset in sql[0..len) of the closing parenthesis of the column list of the k-th (0-based) query of the
 * statement's leading WITH list (`WITH t(a, b) AS (...)`); (size_t)-1 when it has none or it is not found. */
size_t db_sql_cte_cols_end(const char *sql, size_t len, int k);
/* Byte offset in sql[0..len) of the FROM keyword of the k-th (0-based) subquery that is a FROM item (a parenthesized
 * group at depth 0 after FROM, JOIN or a comma, starting with SELECT) at or after offset start (the statement's
 * FROM keyword); (size_t)-1 when not found. */
size_t db_sql_subselect_from(const char *sql, size_t len, size_t start, int k);
/* SQLite's subqueries in FROM without an alias (`SELECT MAX(c) FROM (SELECT ... GROUP BY x)`), which PostgreSQL's
 * grammar (before version 16) refuses: sql (NUL-terminated) with ` AS sympath_sub_K` after each such subquery (a
 * parenthesized SELECT or WITH right after FROM or JOIN, followed by no alias), malloc'ed, *added of them; NULL
 * when there is none (or out of memory). */
char *db_sql_alias_subqueries(const char *sql, int *added);
/* Byte offset of the first FROM keyword at parenthesis depth 0, outside quotes and comments; (size_t)-1 when none. */
size_t db_sql_find_from(const char *sql, size_t len);

#endif
