/* sql_sub.c: subqueries of a WHERE clause (EXISTS, IN (SELECT ...), scalar COUNT/SUM/MIN/MAX/AVG, also in COALESCE) as db_sexpr nodes over sub items. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "db.h"
#include "sql_int.h"

/*
 * A subquery is understood when it reads one table (a sub item of the statement: its rows are
 * the fixture's slots of that table, enumerated by the translation) with an optional WHERE
 * clause of the usual constructs, which may refer to the enclosing query's columns
 * (correlated). EXISTS ignores the result columns; IN needs one plain column of the sub
 * table; a scalar subquery one aggregate COUNT(*)/COUNT/SUM/MIN/MAX/AVG of a column of it or of an expression of
 * its row (SUM(qty * price): column DB_RESULT_EXPR, the expression kids[0]; AVG: SUM / COUNT as a double,
 * db_aggregate), or COALESCE/ifnull of one and a value without columns
 * (a DBF_COALESCE node around the DBX_SUBAGG), either inside arithmetic with values without columns
 * (`AVG(salary) * 2`: DBX_ARITH nodes around it). A plain column of the row a one-column PRIMARY KEY or UNIQUE
 * equality in the WHERE clause picks (`(SELECT price FROM products p WHERE p.sku = l.sku)`) is that column's MAX:
 * over at most one row, its value or NULL.
 * GROUP BY, LIMIT, joins and set operations inside a subquery are not understood.
 */

/* The aggregate of a scalar subquery's one result column: DB_AGG_* and *col (-1 for COUNT(*)); 0 when not one. */
static int sub_aggregate(conv *c, int j, node *v, int *col, db_sexpr **arg)
{
    if (!v || v->node_case != PG_QUERY__NODE__NODE_FUNC_CALL) return 0;
    PgQuery__FuncCall *fc = v->func_call;
    static const char *names[] = {"count", "sum", "min", "max", "avg"}; /* DB_AGG_COUNT .. DB_AGG_AVG */
    int agg = 0;
    if (fc->n_funcname == 1 && fc->funcname[0]->node_case == PG_QUERY__NODE__NODE_STRING)
        for (int i = 0; i < 5; i++)
            if (!strcasecmp(fc->funcname[0]->string->sval, names[i])) agg = DB_AGG_COUNT + i;
    if (!agg || fc->agg_distinct || fc->agg_filter || fc->over || fc->n_agg_order) return 0;
    *col = -1;
    if (fc->agg_star) return agg == DB_AGG_COUNT ? agg : 0;
    if (fc->n_args != 1) return 0;
    if (fc->args[0]->node_case != PG_QUERY__NODE__NODE_COLUMN_REF) { /* SUM(qty * price): an expression of the row */
        *arg = db_sql_conv_expr(c, fc->args[0]);
        *col = DB_RESULT_EXPR;
        return *arg ? agg : 0;
    }
    db_sexpr *e = db_sql_conv_column(c, fc->args[0]->column_ref);
    int ok = e && e->from == DB_MAX_FROM + j;
    if (ok) *col = e->column;
    db_sexpr_free(e);
    return ok ? agg : 0;
}

/* A scalar subquery's result COALESCE(agg, x) / ifnull(agg, x) (`SELECT COALESCE(AVG(karma), 0) FROM users`):
 * the aggregate's node (returned) and x's (*dflt); NULL when the result has another form (v itself then). */
static node *coalesced(node *v, node **dflt)
{
    *dflt = NULL;
    if (v && v->node_case == PG_QUERY__NODE__NODE_COALESCE_EXPR && v->coalesce_expr->n_args == 2) {
        *dflt = v->coalesce_expr->args[1];
        return v->coalesce_expr->args[0];
    }
    PgQuery__FuncCall *fc = v && v->node_case == PG_QUERY__NODE__NODE_FUNC_CALL ? v->func_call : NULL;
    if (fc && fc->n_args == 2 && fc->n_funcname == 1 && fc->funcname[0]->node_case == PG_QUERY__NODE__NODE_STRING &&
        (!strcasecmp(fc->funcname[0]->string->sval, "coalesce") ||
         !strcasecmp(fc->funcname[0]->string->sval, "ifnull"))) {
        *dflt = fc->args[1];
        return fc->args[0];
    }
    return NULL;
}

/* A scalar subquery's result of arithmetic around its aggregate with values without columns (`AVG(salary) * 2`,
 * `MAX(n) + 1`, `1 + COUNT(*) / 2`): the node holding the aggregate (returned), and the arithmetic around it,
 * outermost first, in ops[0..*n) (at most 4); v itself and *n 0 when v is not arithmetic. */
static node *arith_around(node *v, PgQuery__AExpr **ops, int *n)
{
    *n = 0;
    while (v && v->node_case == PG_QUERY__NODE__NODE_A_EXPR && *n < 4) {
        PgQuery__AExpr *a = v->a_expr;
        const char *op =
            a->n_name == 1 && a->name[0]->node_case == PG_QUERY__NODE__NODE_STRING ? a->name[0]->string->sval : "";
        if (a->kind != PG_QUERY__A__EXPR__KIND__AEXPR_OP || !a->lexpr || !a->rexpr || strlen(op) != 1 ||
            !strchr("+-*/", op[0]))
            break;
        bool left = a->lexpr->node_case == PG_QUERY__NODE__NODE_FUNC_CALL ||
                    a->lexpr->node_case == PG_QUERY__NODE__NODE_COALESCE_EXPR ||
                    a->lexpr->node_case == PG_QUERY__NODE__NODE_A_EXPR;
        ops[(*n)++] = a;
        v = left ? a->lexpr : a->rexpr;
    }
    return v;
}

/* e (the subquery's aggregate, taken) inside the arithmetic ops[0..n) of arith_around, innermost first: each
 * operator's other side converted in c (no column of any item); NULL when one is not understood. */
static db_sexpr *arith_wrap(conv *c, db_sexpr *e, PgQuery__AExpr *const *ops, int n)
{
    for (int i = n - 1; i >= 0 && e; i--) {
        const PgQuery__AExpr *a = ops[i];
        bool left = a->lexpr->node_case == PG_QUERY__NODE__NODE_FUNC_CALL ||
                    a->lexpr->node_case == PG_QUERY__NODE__NODE_COALESCE_EXPR ||
                    a->lexpr->node_case == PG_QUERY__NODE__NODE_A_EXPR;
        db_sexpr *other = db_sql_conv_expr(c, left ? a->rexpr : a->lexpr), *w = NULL;
        if (other && !db_sexpr_has(other, DBX_COLUMN) && (w = db_sql_mk(DBX_ARITH, 2))) {
            w->op = a->name[0]->string->sval[0];
            w->kids[left ? 0 : 1] = e, w->kids[left ? 1 : 0] = other;
            e = w;
            continue;
        }
        if (other) db_sql_unsupported(c->q, "arithmetic of a scalar subquery's aggregate with a column");
        db_sexpr_free(other);
        db_sexpr_free(e);
        e = NULL;
    }
    return e;
}

/* Does e read a column of FROM item `from`? */
static bool reads_item(const db_sexpr *e, int from)
{
    if (!e) return false;
    if (e->kind == DBX_COLUMN && e->from == from) return true;
    for (int k = 0; k < e->nkids; k++)
        if (reads_item(e->kids[k], from)) return true;
    return false;
}

/* Does the WHERE clause `where` of sub item `from` (table t) pin one row: a conjunct `key = x` with key a one-column
 * PRIMARY KEY or UNIQUE column of t and x reading no column of the sub item? Then at most one row matches. */
static bool picks_one_row(const db_schema *s, int t, const db_sexpr *where, int from)
{
    if (!where) return false;
    if (where->kind == DBX_AND) {
        for (int k = 0; k < where->nkids; k++)
            if (picks_one_row(s, t, where->kids[k], from)) return true;
        return false;
    }
    if (where->kind != DBX_CMP || where->op != DB_EQ || where->nkids != 2) return false;
    const db_table *tb = &s->tables[t];
    for (int k = 0; k < 2; k++) {
        const db_sexpr *key = where->kids[k];
        if (key->kind != DBX_COLUMN || key->from != from || reads_item(where->kids[1 - k], from)) continue;
        if (key->column == tb->rowid_alias) return true;
        for (int i = 0; i < tb->nkeys; i++)
            if (tb->keys[i].ncols == 1 && tb->keys[i].cols[0] == key->column) return true;
    }
    return false;
}

/* A scalar subquery's result that is a plain column of sub item j of the row its WHERE picks by a unique key
 * (`(SELECT p.price FROM products p WHERE p.sku = l.sku)`): that column's index, read as MAX of the column (one
 * row or none: its value or NULL, as both engines give); -1 when not. */
static int picked_column(conv *c, int j, node *v, const db_sexpr *where)
{
    if (!v || v->node_case != PG_QUERY__NODE__NODE_COLUMN_REF) return -1;
    db_sexpr *e = db_sql_conv_column(c, v->column_ref);
    int col = e && e->from == DB_MAX_FROM + j ? e->column : -1;
    db_sexpr_free(e);
    return col >= 0 && picks_one_row(c->s, c->q->sub_table[j], where, DB_MAX_FROM + j) ? col : -1;
}

/* The one result column of an IN subquery, a plain column of sub item j; -1 when not. */
static int sub_column(conv *c, int j, PgQuery__SelectStmt *sel)
{
    if (sel->n_target_list != 1 || sel->target_list[0]->node_case != PG_QUERY__NODE__NODE_RES_TARGET) return -1;
    node *v = sel->target_list[0]->res_target->val;
    if (!v || v->node_case != PG_QUERY__NODE__NODE_COLUMN_REF) return -1;
    db_sexpr *e = db_sql_conv_column(c, v->column_ref);
    int col = e && e->from == DB_MAX_FROM + j ? e->column : -1;
    db_sexpr_free(e);
    return col;
}

db_sexpr *db_sql_conv_sublink(conv *c, PgQuery__SubLink *sl)
{
    db_query *q = c->q;
    node *sub = sl->subselect;
    PgQuery__SelectStmt *sel = sub && sub->node_case == PG_QUERY__NODE__NODE_SELECT_STMT ? sub->select_stmt : NULL;
    if (!sel || sel->op != PG_QUERY__SET_OPERATION__SETOP_NONE || sel->n_values_lists || sel->with_clause ||
        sel->n_group_clause || sel->having_clause || sel->limit_count || sel->limit_offset || sel->n_from_clause != 1 ||
        sel->from_clause[0]->node_case != PG_QUERY__NODE__NODE_RANGE_VAR) {
        db_sql_unsupported(q, "subquery with a join, GROUP BY, LIMIT or a set operation");
        return NULL;
    }
    bool exists = sl->sub_link_type == PG_QUERY__SUB_LINK_TYPE__EXISTS_SUBLINK;
    bool in =
        sl->sub_link_type == PG_QUERY__SUB_LINK_TYPE__ANY_SUBLINK &&
        (!sl->n_oper_name || (sl->n_oper_name == 1 && sl->oper_name[0]->node_case == PG_QUERY__NODE__NODE_STRING &&
                              !strcmp(sl->oper_name[0]->string->sval, "=")));
    bool scalar = sl->sub_link_type == PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK;
    if (!exists && !in && !scalar) {
        db_sql_unsupported(q, "subquery form (ALL, ANY with an operator, ARRAY)");
        return NULL;
    }
    if (q->nsub == DB_MAX_SUB) {
        db_sql_unsupported(q, "more than 4 subqueries");
        return NULL;
    }
    /* the left side of IN belongs to the enclosing scope */
    db_sexpr *lhs = in ? db_sql_conv_expr(c, sl->testexpr) : NULL;
    if (in && !lhs) return NULL;
    PgQuery__RangeVar *rv = sel->from_clause[0]->range_var;
    int t = db_table_index(c->s, rv->relname);
    if (t < 0) {
        db_sql_unsupported(q, "unknown table");
        db_sexpr_free(lhs);
        return NULL;
    }
    int j = q->nsub;
    const char *name = rv->alias && rv->alias->aliasname[0] ? rv->alias->aliasname : rv->relname;
    if (!(q->sub_name[j] = strdup(name))) {
        db_sql_unsupported(q, "out of memory");
        db_sexpr_free(lhs);
        return NULL;
    }
    q->sub_table[j] = t;
    q->nsub++;
    c->scope[c->nscope++] = j;
    db_sexpr *where = sel->where_clause ? db_sql_conv_expr(c, sel->where_clause) : NULL;
    db_sexpr *e = NULL, *dflt = NULL, *arg = NULL;
    int col = -1, agg = 0;
    node *v = scalar && sel->n_target_list == 1 && sel->target_list[0]->node_case == PG_QUERY__NODE__NODE_RES_TARGET
                  ? sel->target_list[0]->res_target->val
                  : NULL;
    PgQuery__AExpr *ops[4];
    int nops = 0;
    if (scalar) v = arith_around(v, ops, &nops);
    node *dflt_node = NULL, *inner = coalesced(v, &dflt_node);
    if (inner) v = inner;
    if (sel->where_clause && !where)
        ; /* named by the conversion */
    else if (in && (col = sub_column(c, j, sel)) < 0)
        db_sql_unsupported(q, "IN subquery whose result is not one column of its table");
    else if (scalar && !(agg = sub_aggregate(c, j, v, &col, &arg)) &&
             !((col = picked_column(c, j, v, where)) >= 0 && (agg = DB_AGG_MAX)))
        db_sql_unsupported(q, "scalar subquery that is not one COUNT/SUM/MIN/MAX/AVG of a column, nor a column of the "
                              "row a unique key picks");
    else if (dflt_node && (!(dflt = db_sql_conv_expr(c, dflt_node)) || db_sexpr_has(dflt, DBX_COLUMN)))
        db_sql_unsupported(q, "COALESCE of a scalar subquery's aggregate with a column");
    else if ((e = db_sql_mk(exists ? DBX_EXISTS
                            : in   ? DBX_IN_SUB
                                   : DBX_SUBAGG,
                            (in || arg ? 1 : 0) + (where ? 1 : 0)))) {
        e->from = DB_MAX_FROM + j;
        e->column = col;
        e->op = agg;
        if (in) e->kids[0] = lhs, lhs = NULL;
        if (arg) e->kids[0] = arg, arg = NULL;
        if (where) e->kids[e->nkids - 1] = where, where = NULL;
        db_sexpr *co = dflt ? db_sql_mk(DBX_FUNC, 2) : NULL;
        if (co) { /* COALESCE(agg, x): the aggregate, or x when it is NULL (no row) */
            co->op = DBF_COALESCE, co->kids[0] = e, co->kids[1] = dflt;
            e = co, dflt = NULL;
        } else if (dflt) {
            db_sexpr_free(e);
            e = NULL;
            db_sql_unsupported(q, "out of memory");
        }
    }
    if (e && nops) e = arith_wrap(c, e, ops, nops); /* (SELECT AVG(salary) * 2 FROM players) */
    c->nscope--;
    db_sexpr_free(lhs);
    db_sexpr_free(where);
    db_sexpr_free(dflt);
    db_sexpr_free(arg);
    return e;
}
