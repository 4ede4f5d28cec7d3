/* sql_cte.c: a non-recursive WITH query named in FROM, or a subquery in FROM, inlined as its one table with the query's WHERE clause. */
#include <string.h>
#include <strings.h>
#include "db.h"
#include "sql_int.h"

/*
 * `WITH recent AS (SELECT id, title FROM posts WHERE created >= ?) SELECT ... FROM recent r JOIN users u ...`
 * returns exactly the rows of `SELECT ... FROM posts r JOIN users u ... WHERE (created >= ?) AND ...`
 * when the WITH query is one table's plain columns (or *) filtered by a WHERE clause: no join,
 * aggregate, GROUP BY, DISTINCT, ORDER BY, LIMIT or WITH of its own, no renamed column. Then the FROM
 * item is that table (its columns resolve by their own names, which the WITH query keeps) and the WITH
 * query's WHERE joins the item's condition (WHERE, or the ON condition of an outer join's optional side,
 * where it filters the rows before the join). The engine still runs the program's text; the runtime
 * reads the item's hidden rowid through a column added to the WITH query (db_query.cte_from_at).
 * A subquery in FROM of that shape, `FROM (SELECT id, title FROM posts WHERE created >= ?) p`, is the same
 * query written in place, and is inlined the same way (its alias names the item).
 * A query that renames its columns, by a column list (`WITH t(label, price) AS (SELECT name, daily FROM tools
 * WHERE stock > 0)`) or by aliases (`SELECT name AS label`), is inlined too: its item then names its columns by
 * those names alone (db_sql_cte.col_name, read by db_sql_conv_column), and the hidden rowid column's name is added to
 * the column list (db_query.cte_cols_at), which SQLite requires to name every column.
 */

/* Whether the WITH query body sel has the shape described above; its one FROM table in *rv. */
static bool inlinable(const PgQuery__SelectStmt *sel, PgQuery__RangeVar **rv)
{
    if (sel->op != PG_QUERY__SET_OPERATION__SETOP_NONE || sel->with_clause || sel->n_values_lists ||
        sel->n_distinct_clause || sel->n_group_clause || sel->having_clause || sel->n_sort_clause || sel->limit_count ||
        sel->limit_offset || sel->n_window_clause || sel->into_clause || sel->n_locking_clause ||
        sel->n_from_clause != 1 || sel->from_clause[0]->node_case != PG_QUERY__NODE__NODE_RANGE_VAR ||
        !sel->n_target_list)
        return false;
    *rv = sel->from_clause[0]->range_var;
    for (size_t i = 0; i < sel->n_target_list; i++) {
        node *tn = sel->target_list[i];
        if (tn->node_case != PG_QUERY__NODE__NODE_RES_TARGET || !tn->res_target->val ||
            tn->res_target->val->node_case != PG_QUERY__NODE__NODE_COLUMN_REF)
            return false;
        PgQuery__ColumnRef *r = tn->res_target->val->column_ref;
        node *last = r->fields[r->n_fields - 1];
        if (last->node_case == PG_QUERY__NODE__NODE_A_STAR) {
            if (sel->n_target_list != 1) return false; /* *, and nothing else */
            continue;
        }
        if (last->node_case != PG_QUERY__NODE__NODE_STRING) return false;
    }
    return true;
}

/* The names query sel (inlinable) gives the columns of its table t, into out (col_name, col_index, ncols): by its
 * column list cols (NULL: none), then by aliases, then the columns' own names; ncols stays 0 when every name is the
 * table's own. -1 (the reason in q) when a column is not t's or there are too many. */
static int item_names(const db_schema *s, db_query *q, int t, const PgQuery__SelectStmt *sel,
                      const PgQuery__CommonTableExpr *cols, db_sql_cte *out)
{
    const db_table *tab = &s->tables[t];
    const PgQuery__ColumnRef *r0 = sel->target_list[0]->res_target->val->column_ref;    /* (inlinable: columns) */
    bool star = r0->fields[r0->n_fields - 1]->node_case == PG_QUERY__NODE__NODE_A_STAR; /* (then alone) */
    int n = star ? tab->ncols : (int)sel->n_target_list;
    bool renamed = false;
    out->ncols = 0;
    if (n > DB_SQL_CTE_COLS || (cols && (int)cols->n_aliascolnames > n)) {
        db_sql_unsupported(q, "WITH query or subquery of too many columns");
        return -1;
    }
    for (int i = 0; i < n; i++) {
        const char *own = NULL, *name = NULL;
        int ci = i;
        if (!star) {
            const PgQuery__ResTarget *rt = sel->target_list[i]->res_target;
            const PgQuery__ColumnRef *r = rt->val->column_ref;
            own = r->fields[r->n_fields - 1]->string->sval;
            if ((ci = db_column_index(tab, own)) < 0) {
                db_sql_unsupported(q, "unknown column or rowid");
                return -1;
            }
            if (rt->name && rt->name[0]) name = rt->name;
        } else {
            own = tab->cols[i].name;
        }
        if (cols && i < (int)cols->n_aliascolnames) {
            const node *cn = cols->aliascolnames[i];
            if (cn->node_case != PG_QUERY__NODE__NODE_STRING) {
                db_sql_unsupported(q, "WITH query column list");
                return -1;
            }
            name = cn->string->sval;
        }
        if (!name) name = own;
        renamed |= strcasecmp(name, own) != 0;
        out->col_name[i] = name;
        out->col_index[i] = ci;
    }
    if (renamed) out->ncols = n;
    return 0;
}

int db_sql_cte_item(const db_schema *s, db_query *q, const PgQuery__WithClause *with, const PgQuery__RangeVar *rv,
                    db_sql_cte *out)
{
    if (!with || !rv || (rv->schemaname && rv->schemaname[0])) return -1;
    int k = -1;
    for (size_t i = 0; i < with->n_ctes && k < 0; i++) {
        node *n = with->ctes[i];
        if (n->node_case == PG_QUERY__NODE__NODE_COMMON_TABLE_EXPR &&
            !strcasecmp(n->common_table_expr->ctename, rv->relname))
            k = (int)i;
    }
    if (k < 0) return -1;
    PgQuery__CommonTableExpr *cte = with->ctes[k]->common_table_expr;
    PgQuery__RangeVar *inner = NULL;
    if (with->recursive) {
        db_sql_unsupported(q, "WITH RECURSIVE");
        return 1;
    }
    if (!cte->ctequery || cte->ctequery->node_case != PG_QUERY__NODE__NODE_SELECT_STMT ||
        !inlinable(cte->ctequery->select_stmt, &inner)) {
        db_sql_unsupported(q, "WITH query that is not one table's columns and WHERE");
        return 1;
    }
    for (size_t i = 0; i < with->n_ctes; i++) /* a WITH query over another one (its name shadows a table) */
        if (with->ctes[i]->node_case == PG_QUERY__NODE__NODE_COMMON_TABLE_EXPR &&
            !strcasecmp(with->ctes[i]->common_table_expr->ctename, inner->relname)) {
            db_sql_unsupported(q, "WITH query over another WITH query");
            return 1;
        }
    int t = db_table_index(s, inner->relname);
    if (t < 0 || s->tables[t].without_rowid) {
        db_sql_unsupported(q, t < 0 ? "unknown table" : "WITHOUT ROWID table");
        return 1;
    }
    if (item_names(s, q, t, cte->ctequery->select_stmt, cte->n_aliascolnames ? cte : NULL, out)) return 1;
    out->table = t;
    out->index = k;
    out->subquery = false;
    out->col_list = cte->n_aliascolnames > 0;
    out->where = cte->ctequery->select_stmt->where_clause;
    out->inner = inner->alias && inner->alias->aliasname[0] ? inner->alias->aliasname : inner->relname;
    return 0;
}

int db_sql_subselect_item(const db_schema *s, db_query *q, const PgQuery__RangeSubselect *rs, int k, db_sql_cte *out)
{
    PgQuery__RangeVar *inner = NULL;
    node *sub = rs->subquery;
    if (rs->lateral || !rs->alias || !rs->alias->aliasname || !rs->alias->aliasname[0] || rs->alias->n_colnames ||
        !sub || sub->node_case != PG_QUERY__NODE__NODE_SELECT_STMT || !inlinable(sub->select_stmt, &inner)) {
        db_sql_unsupported(q, "subquery in FROM that is not one table's columns and WHERE");
        return 1;
    }
    int t = db_table_index(s, inner->relname);
    if (t < 0 || s->tables[t].without_rowid || (inner->schemaname && inner->schemaname[0])) {
        db_sql_unsupported(q, t < 0 ? "unknown table" : "WITHOUT ROWID table");
        return 1;
    }
    if (item_names(s, q, t, sub->select_stmt, NULL, out)) return 1;
    out->table = t;
    out->index = k;
    out->subquery = true;
    out->col_list = false;
    out->where = sub->select_stmt->where_clause;
    out->inner = inner->alias && inner->alias->aliasname[0] ? inner->alias->aliasname : inner->relname;
    return 0;
}
