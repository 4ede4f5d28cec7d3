/* sql.c: SQL statements through libpg_query's parse tree (protobuf-c) into sympath's small query form (db_query): SELECT, INSERT, UPDATE, DELETE. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <pg_query.h>
#include <pg_query/pg_query.pb-c.h>
#include "db.h"
#include "sql_int.h"

bool db_query_rows_are_keys(const db_query *q)
{
    if (!q || q->kind != DBQ_SELECT || !q->understood || q->aggregate || q->ngroup || q->nsub || q->offset > 0 ||
        q->offset_param || q->narms)
        return false;
    for (int f = 0; f < q->nfrom; f++)
        if (q->nullable[f]) return false;
    for (int i = 0; i < q->nresult; i++)
        if ((q->result_expr && q->result_expr[i]) || q->result_col[i] == DB_RESULT_CONCRETE)
            return false; /* a computed column is no table column */
    return true;
}

void db_query_free(db_query *q)
{
    if (!q) return;
    for (int k = 0; k < 4; k++) db_sexpr_free(q->order_expr[k]);
    db_sexpr_free(q->where);
    for (int f = 0; f < q->nfrom; f++) free(q->from_name[f]), db_sexpr_free(q->on[f]);
    for (int j = 0; j < q->nsub; j++) free(q->sub_name[j]);
    for (int k = 0; k < DB_MAX_OUTER; k++) free(q->outer_dflt_s[k]);
    db_sexpr_free(q->having);
    for (int k = 0; k < q->ngroup; k++) db_sexpr_free(q->group_expr[k]);
    free(q->result_col);
    free(q->result_from);
    free(q->result_agg);
    for (int i = 0; q->result_expr && i < q->nresult; i++) db_sexpr_free(q->result_expr[i]);
    free(q->result_expr);
    for (int i = 0; i < q->nset; i++) db_sexpr_free(q->set_val[i]);
    free(q->set_val);
    free(q->set_col);
    for (int i = 0; i < q->ninsert * q->ninsert_rows; i++) db_sexpr_free(q->insert_val[i]);
    free(q->insert_val);
    free(q->insert_col);
    db_query_free(q->insert_src);
    db_sexpr_free(q->upsert_where);
    for (int a = 0; a < q->narms; a++) db_query_free(q->arms[a]);
    free(q->arms);
    free(q);
}

/* The table a DML statement or a FROM item names, -1 when it is not one table of the schema. */
static int range_table(const db_schema *s, db_query *q, PgQuery__RangeVar *rv)
{
    if (!rv) {
        db_sql_unsupported(q, "FROM item kind");
        return -1;
    }
    int t = db_table_index(s, rv->relname);
    if (t < 0)
        db_sql_unsupported(q, "unknown table");
    else if (s->tables[t].without_rowid)
        db_sql_unsupported(q, "WITHOUT ROWID table");
    return t;
}

void db_sql_and_where(db_query *q, db_sexpr *e)
{
    if (!q->where) {
        q->where = e;
        return;
    }
    db_sexpr *a = db_sql_mk(DBX_AND, 2);
    if (!a) {
        db_sexpr_free(e);
        db_sql_unsupported(q, "out of memory");
        return;
    }
    a->kids[0] = q->where;
    a->kids[1] = e;
    q->where = a;
}

/*
 * The FROM items of a SELECT: tables (with their alias), inner joins, whose ON conditions
 * are collected in `quals` (qual_on[i] = -1) to be converted once every item is known, and
 * LEFT/RIGHT JOINs whose optional side is one table f: its ON condition goes to quals with
 * qual_on[i] = f (q->on[f]) and f is nullable.
 */
static void collect_from(const db_schema *s, db_query *q, node *n, node **quals, int *qual_on, int *nquals,
                         const PgQuery__WithClause *with, db_sql_cte *ctes)
{
    if (n->node_case == PG_QUERY__NODE__NODE_RANGE_VAR || n->node_case == PG_QUERY__NODE__NODE_RANGE_SUBSELECT) {
        if (q->nfrom == DB_MAX_FROM) {
            db_sql_unsupported(q, "join of more than 4 tables");
            return;
        }
        db_sql_cte *cte = &ctes[q->nfrom];
        int t;
        const char *name;
        if (n->node_case == PG_QUERY__NODE__NODE_RANGE_SUBSELECT) { /* FROM (SELECT ...) alias */
            int k = 0;
            for (int f = 0; f < q->nfrom; f++) k += ctes[f].table >= 0 && ctes[f].subquery;
            if (db_sql_subselect_item(s, q, n->range_subselect, k, cte)) return;
            t = cte->table;
            name = n->range_subselect->alias->aliasname;
        } else {
            PgQuery__RangeVar *rv = n->range_var;
            int w = db_sql_cte_item(s, q, with, rv, cte);
            if (w > 0) return;
            if (w < 0) cte->table = -1, cte->subquery = false;
            t = w == 0 ? cte->table : range_table(s, q, rv);
            name = rv->alias && rv->alias->aliasname[0] ? rv->alias->aliasname : rv->relname;
        }
        if (t < 0) return;
        if (db_sql_from_item(q, name) >= 0) {
            db_sql_unsupported(q, "table named twice without alias");
            return;
        }
        q->from_table[q->nfrom] = t;
        if (!(q->from_name[q->nfrom] = strdup(name))) {
            db_sql_unsupported(q, "out of memory");
            return;
        }
        q->nfrom++;
    } else if (n->node_case == PG_QUERY__NODE__NODE_JOIN_EXPR) {
        PgQuery__JoinExpr *j = n->join_expr;
        bool left = j->jointype == PG_QUERY__JOIN_TYPE__JOIN_LEFT,
             right = j->jointype == PG_QUERY__JOIN_TYPE__JOIN_RIGHT;
        if (j->jointype != PG_QUERY__JOIN_TYPE__JOIN_INNER && !left && !right) {
            db_sql_unsupported(q, "FULL or other outer join");
            return;
        }
        if (j->is_natural || j->n_using_clause) {
            db_sql_unsupported(q, "NATURAL JOIN / USING");
            return;
        }
        /* the optional side must be one table (LEFT: the right argument, RIGHT: the left one) */
        node *opt = left ? j->rarg : right ? j->larg : NULL;
        if (opt && opt->node_case != PG_QUERY__NODE__NODE_RANGE_VAR &&
            opt->node_case != PG_QUERY__NODE__NODE_RANGE_SUBSELECT) {
            db_sql_unsupported(q, "outer join of a join");
            return;
        }
        int before = q->nfrom;
        collect_from(s, q, j->larg, quals, qual_on, nquals, with, ctes);
        int mid = q->nfrom;
        collect_from(s, q, j->rarg, quals, qual_on, nquals, with, ctes);
        int f = left ? mid : right ? before : -1;
        if (f >= 0 && (f >= q->nfrom || !j->quals)) {
            db_sql_unsupported(q, "outer join");
            return;
        }
        if (f >= 0) q->nullable[f] = true;
        if (j->quals && *nquals < 8) {
            qual_on[*nquals] = f;
            quals[(*nquals)++] = j->quals;
        } else if (j->quals) {
            db_sql_unsupported(q, "join with more than 8 ON clauses");
        }
    } else {
        db_sql_unsupported(q, "FROM item kind");
    }
}

static int push_result_agg(db_query *q, int from, int col, int agg)
{
    int *f = realloc(q->result_from, (size_t)(q->nresult + 1) * sizeof *f);
    if (f) q->result_from = f;
    int *c = f ? realloc(q->result_col, (size_t)(q->nresult + 1) * sizeof *c) : NULL;
    if (c) q->result_col = c;
    int *a = c ? realloc(q->result_agg, (size_t)(q->nresult + 1) * sizeof *a) : NULL;
    if (a) q->result_agg = a;
    db_sexpr **x = a ? realloc(q->result_expr, (size_t)(q->nresult + 1) * sizeof *x) : NULL;
    if (!x) {
        db_sql_unsupported(q, "out of memory");
        return -1;
    }
    q->result_expr = x;
    q->result_expr[q->nresult] = NULL;
    q->result_from[q->nresult] = from;
    q->result_col[q->nresult] = col;
    q->result_agg[q->nresult++] = agg;
    return 0;
}

static int push_result(db_query *q, int from, int col) { return push_result_agg(q, from, col, DB_AGG_NONE); }

/* Whether name is one of the NULL-terminated list. */
static bool name_in(const char *name, const char *const *list)
{
    for (; *list; list++)
        if (!strcasecmp(name, *list)) return true;
    return false;
}

/* Walk a result item's parse tree (not into subqueries, whose aggregates are their own): *agg when it calls an
 * aggregate function outside a window (SQLite's and PostgreSQL's; min/max of several arguments, SQLite's scalar
 * forms, counted too: the safe side), *srf when it calls a set-returning function, which changes the rows. */
static void scan_calls(const node *n, bool *agg, bool *srf)
{
    static const char *const aggregates[] = {"count",
                                             "sum",
                                             "min",
                                             "max",
                                             "avg",
                                             "total",
                                             "group_concat",
                                             "string_agg",
                                             "array_agg",
                                             "json_agg",
                                             "jsonb_agg",
                                             "json_group_array",
                                             "json_group_object",
                                             "json_object_agg",
                                             "jsonb_object_agg",
                                             "bool_and",
                                             "bool_or",
                                             "every",
                                             "bit_and",
                                             "bit_or",
                                             "stddev",
                                             "stddev_pop",
                                             "stddev_samp",
                                             "variance",
                                             "var_pop",
                                             "var_samp",
                                             "median",
                                             "mode",
                                             "percentile_cont",
                                             "percentile_disc",
                                             "xmlagg",
                                             NULL};
    static const char *const set_returning[] = {"unnest",
                                                "generate_series",
                                                "generate_subscripts",
                                                "regexp_matches",
                                                "regexp_split_to_table",
                                                "string_to_table",
                                                "json_array_elements",
                                                "json_array_elements_text",
                                                "jsonb_array_elements",
                                                "jsonb_array_elements_text",
                                                "json_each",
                                                "json_each_text",
                                                "jsonb_each",
                                                "jsonb_each_text",
                                                "json_object_keys",
                                                "jsonb_object_keys",
                                                "json_tree",
                                                NULL};
    if (!n) return;
    switch (n->node_case) {
    case PG_QUERY__NODE__NODE_FUNC_CALL: {
        const PgQuery__FuncCall *fc = n->func_call;
        node *last = fc->n_funcname ? fc->funcname[fc->n_funcname - 1] : NULL;
        const char *name = last && last->node_case == PG_QUERY__NODE__NODE_STRING ? last->string->sval : "";
        if (!fc->over && (fc->agg_star || fc->agg_distinct || fc->n_agg_order || fc->agg_filter ||
                          fc->agg_within_group || name_in(name, aggregates)))
            *agg = true;
        if (name_in(name, set_returning)) *srf = true;
        for (size_t i = 0; i < fc->n_args; i++) scan_calls(fc->args[i], agg, srf);
        break;
    }
    case PG_QUERY__NODE__NODE_A_EXPR:
        scan_calls(n->a_expr->lexpr, agg, srf);
        scan_calls(n->a_expr->rexpr, agg, srf);
        break;
    case PG_QUERY__NODE__NODE_TYPE_CAST: scan_calls(n->type_cast->arg, agg, srf); break;
    case PG_QUERY__NODE__NODE_NULL_TEST: scan_calls(n->null_test->arg, agg, srf); break;
    case PG_QUERY__NODE__NODE_CASE_WHEN:
        scan_calls(n->case_when->expr, agg, srf);
        scan_calls(n->case_when->result, agg, srf);
        break;
    case PG_QUERY__NODE__NODE_CASE_EXPR:
        scan_calls(n->case_expr->arg, agg, srf);
        for (size_t i = 0; i < n->case_expr->n_args; i++) scan_calls(n->case_expr->args[i], agg, srf);
        scan_calls(n->case_expr->defresult, agg, srf);
        break;
    case PG_QUERY__NODE__NODE_COALESCE_EXPR:
        for (size_t i = 0; i < n->coalesce_expr->n_args; i++) scan_calls(n->coalesce_expr->args[i], agg, srf);
        break;
    case PG_QUERY__NODE__NODE_MIN_MAX_EXPR:
        for (size_t i = 0; i < n->min_max_expr->n_args; i++) scan_calls(n->min_max_expr->args[i], agg, srf);
        break;
    case PG_QUERY__NODE__NODE_BOOL_EXPR:
        for (size_t i = 0; i < n->bool_expr->n_args; i++) scan_calls(n->bool_expr->args[i], agg, srf);
        break;
    case PG_QUERY__NODE__NODE_LIST:
        for (size_t i = 0; i < n->list->n_items; i++) scan_calls(n->list->items[i], agg, srf);
        break;
    default: break;
    }
}

/* Result item v, which conv_result_expr or conv_aggregate could not model (nu, und: q's unsupported count and
 * understood flag before it): when it cannot change which rows come back (no set-returning function; not under
 * DISTINCT, where it would decide which rows are distinct), it becomes a DB_RESULT_CONCRETE column, named in
 * q->unsupported as read concretely, and q is understood again as far as this item goes. */
static void concrete_result(db_query *q, const node *v, bool distinct, int nu, bool und);

/* No ORDER BY keys modelled (norder 0; expression keys freed). */
static void clear_order(db_query *q)
{
    for (int k = 0; k < 4; k++) {
        db_sexpr_free(q->order_expr[k]);
        q->order_expr[k] = NULL;
    }
    q->norder = 0;
}

/* An ORDER BY key kn of a query without GROUP BY or aggregates that is no table column: a result column's alias or
 * position (1-based) standing for its expression, or an expression of the row; converted (a plain column is a
 * DBX_COLUMN), or NULL when it has a parameter, an aggregate or a construct sympath does not model. */
static db_sexpr *order_key_expr(conv *c, PgQuery__SelectStmt *sel, node *kn)
{
    node *target = kn;
    if (kn->node_case == PG_QUERY__NODE__NODE_COLUMN_REF && kn->column_ref->n_fields == 1 &&
        kn->column_ref->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING) {
        target = NULL;
        for (size_t i = 0; i < sel->n_target_list && !target; i++) {
            node *tn = sel->target_list[i];
            if (tn->node_case == PG_QUERY__NODE__NODE_RES_TARGET && tn->res_target->name &&
                !strcasecmp(tn->res_target->name, kn->column_ref->fields[0]->string->sval))
                target = tn->res_target->val;
        }
    } else if (kn->node_case == PG_QUERY__NODE__NODE_A_CONST && kn->a_const->val_case == PG_QUERY__A__CONST__VAL_IVAL) {
        int64_t k = kn->a_const->ival->ival;
        node *tn = k >= 1 && (size_t)k <= sel->n_target_list ? sel->target_list[k - 1] : NULL;
        target = tn && tn->node_case == PG_QUERY__NODE__NODE_RES_TARGET ? tn->res_target->val : NULL;
    }
    if (!target) return NULL;
    db_sexpr *e = db_sql_conv_expr(c, target);
    if (e && (db_sexpr_has(e, DBX_PARAM) || db_sexpr_has(e, DBX_GROUPAGG))) {
        db_sexpr_free(e);
        e = NULL;
    }
    return e;
}

static void concrete_result(db_query *q, const node *v, bool distinct, int nu, bool und)
{
    bool agg = false, srf = false;
    scan_calls(v, &agg, &srf);
    if (srf || distinct) return;
    q->nunsupported = nu, q->understood = und;
    if (push_result_agg(q, 0, DB_RESULT_CONCRETE, agg ? DB_AGG_CONCRETE : DB_AGG_NONE)) return;
    db_query_concrete_part(q, "result column read concretely");
}

/* Does e contain an aggregate (DBX_GROUPAGG)? *from: the FROM item of its first column (-1 none). */
static bool has_aggregate(const db_sexpr *e, int *from)
{
    if (!e) return false;
    if (e->kind == DBX_COLUMN && *from < 0 && e->from < DB_MAX_FROM) *from = e->from;
    bool any = e->kind == DBX_GROUPAGG;
    for (int i = 0; i < e->nkids; i++) any |= has_aggregate(e->kids[i], from);
    return any;
}

/*
 * A computed result column: an expression of the row (price * qty, lower(name), abs(x)) or with
 * aggregates (COALESCE(SUM(qty), 0), SUM(price * qty), AVG(price)), converted as a HAVING clause
 * is (aggregates become DBX_GROUPAGG). Pushed with result_col DB_RESULT_EXPR; -1 when not modelled.
 */
static int conv_result_expr(conv *c, node *v)
{
    if (v->node_case == PG_QUERY__NODE__NODE_FUNC_CALL) {
        const PgQuery__FuncCall *fc = v->func_call;
        if (fc->over || fc->n_agg_order) { /* windows, ordered aggregates */
            db_sql_unsupported(c->q, "aggregate or function in the result");
            return -1;
        }
    }
    c->having = true;
    db_sexpr *e = db_sql_conv_expr(c, v);
    c->having = false;
    if (!e) {
        db_sql_unsupported(c->q, "expression in the result");
        return -1;
    }
    int from = -1;
    bool agg = has_aggregate(e, &from);
    if (push_result_agg(c->q, from < 0 ? 0 : from, DB_RESULT_EXPR, agg ? DB_AGG_EXPR : DB_AGG_NONE)) {
        db_sexpr_free(e);
        return -1;
    }
    c->q->result_expr[c->q->nresult - 1] = e;
    return 0;
}

/* COUNT(*) or COUNT/SUM/MIN/MAX of one column: the plain aggregate result column conv_aggregate takes. */
static bool plain_aggregate(const PgQuery__FuncCall *fc)
{
    static const char *names[] = {"count", "sum", "min", "max"};
    bool named = false;
    if (fc->n_funcname == 1 && fc->funcname[0]->node_case == PG_QUERY__NODE__NODE_STRING)
        for (int i = 0; i < 4; i++) named |= !strcasecmp(fc->funcname[0]->string->sval, names[i]);
    return named && !fc->agg_distinct && !fc->agg_filter && !fc->over && !fc->n_agg_order &&
           (fc->agg_star || (fc->n_args == 1 && fc->args[0]->node_case == PG_QUERY__NODE__NODE_COLUMN_REF));
}

/* COUNT(*), COUNT(col), SUM(col), MIN(col), MAX(col): pushed as a result column; 0, or -1
 * (with the construct named) for other functions and forms. */
static int conv_aggregate(conv *c, PgQuery__FuncCall *fc)
{
    db_query *q = c->q;
    static const char *names[] = {"count", "sum", "min", "max"};
    int agg = DB_AGG_NONE;
    if (fc->n_funcname == 1 && fc->funcname[0]->node_case == PG_QUERY__NODE__NODE_STRING)
        for (int i = 0; i < 4; i++)
            if (!strcasecmp(fc->funcname[0]->string->sval, names[i])) agg = DB_AGG_COUNT + i;
    if (!agg || fc->agg_distinct || fc->agg_filter || fc->over || fc->n_agg_order) {
        db_sql_unsupported(q, "aggregate or function in the result");
        return -1;
    }
    if (fc->agg_star && agg == DB_AGG_COUNT) return push_result_agg(q, 0, -1, agg);
    if (fc->n_args != 1 || fc->args[0]->node_case != PG_QUERY__NODE__NODE_COLUMN_REF) {
        db_sql_unsupported(q, "aggregate of an expression");
        return -1;
    }
    db_sexpr *col = db_sql_conv_column(c, fc->args[0]->column_ref);
    if (!col) return -1;
    int rc = push_result_agg(q, col->from, col->column, agg);
    db_sexpr_free(col);
    return rc;
}

/*
 * One GROUP BY key: a column of a FROM item (as SQL resolves names, a column first), else a result
 * column's alias (GROUP BY month) or position (GROUP BY 1), whose expression is taken, or an
 * expression of the row (GROUP BY strftime('%Y-%m', day)); alias_ok: a name may be an alias. A key that is a plain column sets
 * from and col; an expression is returned (owned by the caller). -1 when not modelled (reported).
 */
static int conv_group_key(conv *c, PgQuery__SelectStmt *sel, node *g, bool alias_ok, int *from, int *col,
                          db_sexpr **expr)
{
    db_query *q = c->q;
    *expr = NULL;
    node *target = NULL;
    if (g->node_case == PG_QUERY__NODE__NODE_COLUMN_REF) {
        int nu = q->nunsupported;
        bool und = q->understood;
        db_sexpr *e = db_sql_conv_column(c, g->column_ref);
        PgQuery__ColumnRef *r = g->column_ref;
        if (!e && alias_ok && r->n_fields == 1 && r->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING)
            for (size_t i = 0; i < sel->n_target_list && !target; i++) { /* an alias of the result */
                node *tn = sel->target_list[i];
                if (tn->node_case == PG_QUERY__NODE__NODE_RES_TARGET && tn->res_target->name &&
                    !strcasecmp(tn->res_target->name, r->fields[0]->string->sval))
                    target = tn->res_target->val;
            }
        if (e || !target) {
            if (e) {
                *from = e->from, *col = e->column;
                db_sexpr_free(e);
                return 0;
            }
            return -1; /* the column's error is reported */
        }
        q->nunsupported = nu, q->understood = und; /* the name was an alias */
    } else if (g->node_case == PG_QUERY__NODE__NODE_A_CONST &&
               g->a_const->val_case == PG_QUERY__A__CONST__VAL_IVAL) { /* a result position */
        int64_t k = g->a_const->ival->ival;
        node *tn = k >= 1 && (size_t)k <= sel->n_target_list ? sel->target_list[k - 1] : NULL;
        target = tn && tn->node_case == PG_QUERY__NODE__NODE_RES_TARGET ? tn->res_target->val : NULL;
        if (!target) {
            db_sql_unsupported(q, "GROUP BY position out of range");
            return -1;
        }
    }
    if (target && target->node_case == PG_QUERY__NODE__NODE_COLUMN_REF)
        return conv_group_key(c, sel, target, false, from, col, expr); /* (SELECT x AS x: no loop) */
    db_sexpr *e = db_sql_conv_expr(c, target ? target : g);
    if (!e || db_sexpr_has(e, DBX_PARAM) || db_sexpr_has(e, DBX_GROUPAGG)) {
        db_sexpr_free(e);
        db_sql_unsupported(q, "GROUP BY of an expression with a parameter, an aggregate or an unknown construct");
        return -1;
    }
    *from = *col = -1;
    *expr = e;
    return 0;
}

static bool fixed_column(const conv *c, int from, int col, int depth);

/* Whether the conjunction e (WHERE or an ON clause) has a conjunct `from.pk = x` with x a literal, a
 * parameter or a column with one value per group (fixed_column): then FROM item `from` has one row per
 * group (its primary key is fixed), and so does each of its columns. */
static bool pk_fixed_by(const conv *c, const db_sexpr *e, int from, int pk, int depth)
{
    if (!e) return false;
    if (e->kind == DBX_AND) {
        for (int i = 0; i < e->nkids; i++)
            if (pk_fixed_by(c, e->kids[i], from, pk, depth)) return true;
        return false;
    }
    if (e->kind != DBX_CMP || e->op != DB_EQ || e->nkids != 2) return false;
    for (int side = 0; side < 2; side++) {
        const db_sexpr *me = e->kids[side], *other = e->kids[1 - side];
        if (me->kind != DBX_COLUMN || me->from != from || me->column != pk) continue;
        if (other->kind == DBX_INT || other->kind == DBX_TEXT || other->kind == DBX_PARAM) return true;
        if (other->kind == DBX_COLUMN && other->from != from && other->from < c->q->nfrom &&
            fixed_column(c, other->from, other->column, depth + 1))
            return true;
    }
    return false;
}

/* Whether column `col` of FROM item `from` has one value per group of c's GROUP BY: a plain-column key,
 * any column of an item whose whole primary key (or rowid alias) is a key, or of an item joined on its
 * primary key to such a column (`JOIN venues v ON v.id = e.venue_id ... GROUP BY e.id`: one venue per
 * event), as SQLite's bare columns read them (any row of the group gives the same value). */
static bool fixed_column(const conv *c, int from, int col, int depth)
{
    const db_query *q = c->q;
    /* a subquery's own column (sub item DB_MAX_FROM + j, inside a scalar subquery of the result) ranges over the
     * subquery's rows, whatever the group: only its correlated columns of the FROM items matter */
    if (from >= DB_MAX_FROM) return true;
    if (from < 0 || from >= q->nfrom) return false;
    const db_table *t = &c->s->tables[q->from_table[from]];
    for (int k = 0; k < q->ngroup; k++) {
        if (q->group_expr[k] || q->group_from[k] != from) continue;
        bool whole_pk = t->cols[q->group_col[k]].pk == 1;
        for (int j = 0; j < t->ncols; j++) whole_pk &= t->cols[j].pk <= 1;
        if (q->group_col[k] == col || q->group_col[k] == t->rowid_alias || whole_pk) return true;
    }
    if (depth >= DB_MAX_FROM) return false;
    int pk = t->rowid_alias, npk = 0; /* a one-column primary key */
    for (int j = 0; j < t->ncols; j++)
        if (t->cols[j].pk) pk = j, npk++;
    if (pk < 0 || npk > 1) return false;
    return pk_fixed_by(c, q->where, from, pk, depth) || pk_fixed_by(c, q->on[from], from, pk, depth);
}

static bool key_column(const void *arg, int from, int col) { return fixed_column(arg, from, col, 0); }

/*
 * GROUP BY of plain columns of the FROM items or of expressions of the row, with result columns
 * that are keys (a key column, a column of an item whose whole primary key is a key, or the same
 * expression as a key) or aggregates, and a HAVING clause whose aggregates become DBX_GROUPAGG nodes.
 */
static void conv_group(conv *c, PgQuery__SelectStmt *sel)
{
    db_query *q = c->q;
    if (sel->n_group_clause > 4) {
        db_sql_unsupported(q, "GROUP BY of more than 4 keys");
        return;
    }
    for (size_t i = 0; i < sel->n_group_clause; i++) {
        int from, col;
        db_sexpr *e;
        if (conv_group_key(c, sel, sel->group_clause[i], true, &from, &col, &e)) return;
        q->group_from[q->ngroup] = from;
        q->group_col[q->ngroup] = col;
        q->group_expr[q->ngroup++] = e;
    }
    for (int i = 0; i < q->nresult; i++) {
        if (q->result_agg[i] != DB_AGG_NONE || q->result_col[i] == DB_RESULT_CONCRETE) continue;
        bool key = false;
        if (q->result_expr[i]) { /* the same expression as a key, or one of key columns only (coalesce(k, '-')) */
            for (int k = 0; k < q->ngroup; k++) key |= db_sexpr_equal(q->group_expr[k], q->result_expr[i]);
            key = key || db_sexpr_columns_all(q->result_expr[i], key_column, c);
        } else {
            key = key_column(c, q->result_from[i], q->result_col[i]);
        }
        if (!key)
            db_sql_unsupported(q, q->result_expr[i] ? "computed result column in GROUP BY that is no key"
                                                    : "result column not in GROUP BY");
    }
    if (sel->having_clause) {
        c->having = true;
        q->having = db_sql_conv_expr(c, sel->having_clause);
        c->having = false;
        if (!q->having) db_sql_unsupported(q, "HAVING clause");
    }
}

/* A LIMIT or OFFSET value: a non-negative integer literal (*v; a negative LIMIT is none, as in
 * SQLite: *v stays -1 for LIMIT) or a bound parameter (*param, its number). 0, or -1 for
 * anything else (an expression, LIMIT ALL is a NULL constant and means none). */
int db_sql_limit_value(node *n, int64_t *v, int *param)
{
    if (n->node_case == PG_QUERY__NODE__NODE_PARAM_REF) {
        *param = n->param_ref->number;
        return 0;
    }
    if (n->node_case != PG_QUERY__NODE__NODE_A_CONST) return -1;
    if (n->a_const->isnull) return 0; /* LIMIT ALL / LIMIT NULL */
    if (n->a_const->val_case != PG_QUERY__A__CONST__VAL_IVAL) return -1;
    if (n->a_const->ival->ival >= 0) *v = n->a_const->ival->ival;
    return 0;
}

/* The result column an ORDER BY key of a grouped query names: its alias, its position (1-based), the same
 * aggregate (COUNT(*), SUM(x)) or expression, or the same plain column; -1 when none. */
static int sort_key_result(conv *c, PgQuery__SelectStmt *sel, node *k)
{
    db_query *q = c->q;
    if (k->node_case == PG_QUERY__NODE__NODE_A_CONST && k->a_const->val_case == PG_QUERY__A__CONST__VAL_IVAL)
        return k->a_const->ival->ival >= 1 && k->a_const->ival->ival <= q->nresult ? k->a_const->ival->ival - 1 : -1;
    if (k->node_case == PG_QUERY__NODE__NODE_COLUMN_REF && k->column_ref->n_fields == 1 &&
        k->column_ref->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING)
        for (size_t i = 0; i < sel->n_target_list && (int)i < q->nresult; i++) {
            node *tn = sel->target_list[i];
            if (tn->node_case == PG_QUERY__NODE__NODE_RES_TARGET && tn->res_target->name &&
                !strcasecmp(tn->res_target->name, k->column_ref->fields[0]->string->sval))
                return (int)i;
        }
    int nu = q->nunsupported;
    bool und = q->understood, having = c->having;
    c->having = true;
    db_sexpr *e = db_sql_conv_expr(c, k);
    c->having = having;
    q->nunsupported = nu, q->understood = und; /* an unknown sort key is not an error here */
    int found = -1;
    for (int i = 0; e && found < 0 && i < q->nresult; i++) {
        if (q->result_expr[i] && q->result_agg[i] == DB_AGG_NONE) /* lower(name): not compared by the runtime */
            found = -1;
        else if (q->result_expr[i])
            found = db_sexpr_equal(e, q->result_expr[i]) ? i : -1;
        else if (q->result_agg[i] == DB_AGG_NONE)
            found = e->kind == DBX_COLUMN && e->from == q->result_from[i] && e->column == q->result_col[i] ? i : -1;
        else /* COUNT(*) or agg(column) of the result list */
            found = e->kind == DBX_GROUPAGG && !e->nkids && e->op == q->result_agg[i] &&
                            e->column == q->result_col[i] && (e->column < 0 || e->from == q->result_from[i])
                        ? i
                        : -1;
    }
    db_sexpr_free(e);
    return found;
}

/* ORDER BY of a grouped query with a LIMIT: its keys as result columns (db_query.group_window), when each
 * key names one; otherwise nothing is set (a LIMIT below the groups there can be is then concrete). */
static void group_order(conv *c, PgQuery__SelectStmt *sel)
{
    db_query *q = c->q;
    if (!sel->n_sort_clause || sel->n_sort_clause > 4) return;
    for (size_t i = 0; i < sel->n_sort_clause; i++) {
        node *sn = sel->sort_clause[i];
        if (sn->node_case != PG_QUERY__NODE__NODE_SORT_BY || !sn->sort_by->node ||
            sn->sort_by->sortby_nulls != PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_DEFAULT)
            return;
        int r = sort_key_result(c, sel, sn->sort_by->node);
        if (r < 0 || (q->result_expr[r] && q->result_agg[r] == DB_AGG_NONE) || q->result_col[r] == DB_RESULT_CONCRETE)
            return;
        q->group_order[i] = r;
        q->group_order_desc[i] = sn->sort_by->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC;
    }
    q->ngroup_order = (int)sel->n_sort_clause;
    q->group_window = true;
}

void db_sql_conv_select(const db_schema *s, db_query *q, PgQuery__SelectStmt *sel, const char *sql, size_t len)
{
    q->kind = DBQ_SELECT;
    if (sel->op != PG_QUERY__SET_OPERATION__SETOP_NONE) {
        db_sql_conv_union(s, q, sel, sql, len);
        return;
    }
    if (sel->n_values_lists) {
        db_sql_unsupported(q, "VALUES");
        return;
    }
    if (db_sql_conv_over_groups(s, q, sel, sql, len)) return; /* SELECT MAX(c) FROM (... GROUP BY ...) */
    if (db_sql_conv_over_union(s, q, sel, sql, len)) return;  /* SELECT ... FROM (... UNION ...) m WHERE ... */
    /* plain DISTINCT is one empty node; DISTINCT ON (...) has expressions */
    bool distinct = sel->n_distinct_clause == 1 && (!sel->distinct_clause[0] || !sel->distinct_clause[0]->node_case);
    if (sel->n_distinct_clause && !distinct) db_sql_unsupported(q, "DISTINCT ON");
    if (distinct && sel->n_group_clause) db_sql_unsupported(q, "DISTINCT with GROUP BY");
    if (sel->having_clause && !sel->n_group_clause) db_sql_unsupported(q, "HAVING without GROUP BY");
    q->limit = -1;
    bool bad_limit = (sel->limit_count && db_sql_limit_value(sel->limit_count, &q->limit, &q->limit_param)) ||
                     (sel->limit_offset && db_sql_limit_value(sel->limit_offset, &q->offset, &q->offset_param));
    if (bad_limit) db_sql_unsupported(q, "LIMIT/OFFSET of an expression");
    if (!sel->n_from_clause) {
        db_sql_unsupported(q, "SELECT without FROM");
        return;
    }
    node *quals[8];
    int qual_on[8], nquals = 0;
    db_sql_cte ctes[DB_MAX_FROM];
    memset(ctes, 0, sizeof ctes);
    for (size_t i = 0; i < sel->n_from_clause; i++)
        collect_from(s, q, sel->from_clause[i], quals, qual_on, &nquals, sel->with_clause, ctes);
    if (!q->nfrom) return;
    for (int f = 0; f < q->nfrom; f++) /* inlined WITH queries and subqueries: their rowid goes through a column */
        if (ctes[f].table >= 0) {
            size_t main_from = db_sql_find_from(sql, len);
            size_t at = !ctes[f].subquery         ? db_sql_cte_from(sql, len, ctes[f].index)
                        : main_from != (size_t)-1 ? db_sql_subselect_from(sql, len, main_from, ctes[f].index)
                                                  : main_from;
            if (at == (size_t)-1) db_sql_unsupported(q, "FROM keyword of a WITH query or subquery not found");
            q->cte_from_at[f] = at + 1;
            if (ctes[f].col_list) { /* its column list names the hidden column too */
                size_t end = db_sql_cte_cols_end(sql, len, ctes[f].index);
                if (end == (size_t)-1) db_sql_unsupported(q, "column list of a WITH query not found");
                q->cte_cols_at[f] = end + 1;
            }
        }
    q->table = q->from_table[0];
    conv c = {.s = s, .q = q, .sel = sel, .items = ctes};
    /* result columns: plain columns, * or item.* */
    for (size_t i = 0; i < sel->n_target_list; i++) {
        node *tn = sel->target_list[i];
        node *v = tn->node_case == PG_QUERY__NODE__NODE_RES_TARGET ? tn->res_target->val : NULL;
        if (v && v->node_case == PG_QUERY__NODE__NODE_COLUMN_REF) {
            PgQuery__ColumnRef *r = v->column_ref;
            node *last = r->fields[r->n_fields - 1];
            if (last->node_case == PG_QUERY__NODE__NODE_A_STAR) {
                int only = -1;
                if (r->n_fields == 2 && r->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING &&
                    (only = db_sql_from_item(q, r->fields[0]->string->sval)) < 0) {
                    db_sql_unsupported(q, "column of a table not in FROM");
                    continue;
                }
                for (int f = 0; f < q->nfrom; f++)
                    if ((only < 0 || f == only) && q->cte_from_at[f]) /* its columns, and its hidden rowid */
                        db_sql_unsupported(q, "* of a WITH query or subquery");
                    else if (only < 0 || f == only)
                        for (int k = 0; k < s->tables[q->from_table[f]].ncols; k++) push_result(q, f, k);
            } else {
                db_sexpr *col = db_sql_conv_column(&c, r);
                if (col) {
                    push_result(q, col->from, col->column);
                    db_sexpr_free(col);
                }
            }
        } else if (v) { /* an aggregate or computed column; one sympath does not model is read concretely */
            int nu = q->nunsupported, n0 = q->nresult;
            bool und = q->understood;
            if (v->node_case == PG_QUERY__NODE__NODE_FUNC_CALL && plain_aggregate(v->func_call))
                conv_aggregate(&c, v->func_call);
            else
                conv_result_expr(&c, v);
            if (q->nresult == n0) concrete_result(q, v, distinct, nu, und);
        } else {
            db_sql_unsupported(q, "expression in the result");
        }
    }
    for (int i = 0; i < nquals; i++) {
        db_sexpr *e = db_sql_conv_expr(&c, quals[i]);
        if (!e)
            db_sql_unsupported(q, "ON clause");
        else if (qual_on[i] >= 0)
            q->on[qual_on[i]] = e;
        else
            db_sql_and_where(q, e);
    }
    if (sel->where_clause) {
        db_sexpr *e = db_sql_conv_expr(&c, sel->where_clause);
        if (e)
            db_sql_and_where(q, e);
        else
            db_sql_unsupported(q, "WHERE clause");
    }
    for (int f = 0; f < q->nfrom; f++) { /* an inlined WITH query's WHERE filters its item's rows */
        if (ctes[f].table < 0 || !ctes[f].where) continue;
        conv w = {.s = s, .q = q, .only_from = f + 1, .only_name = ctes[f].inner};
        db_sexpr *e = db_sql_conv_expr(&w, ctes[f].where), *a = NULL;
        if (!e) {
            db_sql_unsupported(q, "WHERE clause of a WITH query or subquery");
        } else if (!q->nullable[f]) {
            db_sql_and_where(q, e);
        } else if (!q->on[f]) {
            q->on[f] = e;
        } else if ((a = db_sql_mk(DBX_AND, 2))) {
            a->kids[0] = q->on[f], a->kids[1] = e;
            q->on[f] = a;
        } else {
            db_sexpr_free(e);
            db_sql_unsupported(q, "out of memory");
        }
    }
    int naggs = 0;
    for (int i = 0; i < q->nresult; i++) naggs += q->result_agg[i] != DB_AGG_NONE;
    if (sel->n_group_clause) {
        conv_group(&c, sel);
    } else if (distinct) { /* one row per distinct result: GROUP BY the result columns (plain or computed) */
        if (naggs || q->nresult > 4) db_sql_unsupported(q, "DISTINCT of aggregates or of more than 4 columns");
        for (int i = 0; i < q->nresult && q->ngroup < 4; i++) {
            bool seen = false;
            for (int k = 0; k < q->ngroup; k++)
                seen |= q->result_expr[i] ? db_sexpr_equal(q->group_expr[k], q->result_expr[i])
                                          : !q->group_expr[k] && q->group_from[k] == q->result_from[i] &&
                                                q->group_col[k] == q->result_col[i];
            if (seen) continue;
            if (q->result_expr[i] && !(q->group_expr[q->ngroup] = db_sexpr_copy(q->result_expr[i]))) {
                db_sql_unsupported(q, "out of memory");
                break;
            }
            q->group_from[q->ngroup] = q->result_expr[i] ? -1 : q->result_from[i];
            q->group_col[q->ngroup++] = q->result_expr[i] ? -1 : q->result_col[i];
        }
        q->distinct = true;
    } else {
        if (naggs && naggs != q->nresult) db_sql_unsupported(q, "aggregates beside plain columns without GROUP BY");
        q->aggregate = naggs && naggs == q->nresult;
    }
    bool windowed = q->limit >= 0 || q->offset > 0 || q->limit_param || q->offset_param;
    q->has_order_by = sel->n_sort_clause > 0;
    /* a LIMIT over groups (or the one row of aggregates) is modelled when it is no smaller than the number of
     * groups there can be, which the runtime knows (db_rows.c): the top-N report of a small fixture */
    if ((q->aggregate || q->ngroup) && (q->offset > 0 || q->offset_param))
        db_sql_unsupported(q, "OFFSET with aggregates or GROUP BY");
    /* ORDER BY does not change which rows are returned; plain-column keys let the
     * runtime keep the order the program saw (db_order_le) */
    for (size_t i = 0; i < sel->n_sort_clause; i++) {
        node *sn = sel->sort_clause[i];
        if (sn->node_case != PG_QUERY__NODE__NODE_SORT_BY || i >= 4 || !sn->sort_by->node) {
            clear_order(q);
            break;
        }
        int nu = q->nunsupported;
        bool und = q->understood;
        node *kn = sn->sort_by->node;
        db_sexpr *col =
            kn->node_case == PG_QUERY__NODE__NODE_COLUMN_REF ? db_sql_conv_column(&c, kn->column_ref) : NULL;
        if (!col && !q->ngroup && !q->aggregate) col = order_key_expr(&c, sel, kn); /* price * qty AS total */
        q->nunsupported = nu, q->understood = und; /* an unknown sort key is not an error here */
        if (!col) {
            clear_order(q);
            break;
        }
        PgQuery__SortBy *sb = sn->sort_by;
        q->order_from[q->norder] = col->kind == DBX_COLUMN ? col->from : 0;
        q->order_col[q->norder] = col->kind == DBX_COLUMN ? col->column : 0;
        if (col->kind != DBX_COLUMN) q->order_expr[q->norder] = col, col = NULL;
        q->order_desc[q->norder] = sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC;
        /* SQLite: NULLs first ascending, last descending, unless said otherwise */
        q->order_nulls_last[q->norder] = sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_LAST ||
                                         (sb->sortby_nulls != PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST &&
                                          sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC);
        q->order_nulls_default[q->norder] = sb->sortby_nulls != PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_LAST &&
                                            sb->sortby_nulls != PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST;
        q->norder++;
        db_sexpr_free(col);
    }
    if (windowed && (q->aggregate || q->ngroup) && q->limit_param == 0) group_order(&c, sel);
    if (windowed && !q->aggregate && !q->ngroup) {
        if (sel->n_sort_clause && q->norder == (int)sel->n_sort_clause)
            q->order_window = true; /* the rows at positions offset.. in ORDER BY order */
        else if (sel->n_sort_clause)
            db_sql_unsupported(q, "LIMIT/OFFSET with ORDER BY of an expression");
        else if (q->nfrom != 1 || sel->n_from_clause != 1)
            db_sql_unsupported(q, "LIMIT/OFFSET on a join without ORDER BY");
    }
    q->from_at = db_sql_find_from(sql, len);
    if (q->from_at == (size_t)-1) db_sql_unsupported(q, "FROM keyword not found");
}

/* UPDATE t SET col = value, ... WHERE ... / DELETE FROM t WHERE ...: the table as the one
 * FROM item, the WHERE clause, the assignments. Leaves nfrom 0 when not understood. */
static void conv_dml(const db_schema *s, db_query *q, PgQuery__RangeVar *rv, node *where, node **targets,
                     size_t ntargets)
{
    const char *name = rv->alias && rv->alias->aliasname[0] ? rv->alias->aliasname : rv->relname;
    if (!(q->from_name[0] = strdup(name))) return;
    q->from_table[0] = q->table;
    q->nfrom = 1;
    conv c = {.s = s, .q = q};
    if (where && !(q->where = db_sql_conv_expr(&c, where))) db_sql_unsupported(q, "WHERE clause");
    if (ntargets) {
        q->set_col = calloc(ntargets, sizeof *q->set_col);
        q->set_val = calloc(ntargets, sizeof *q->set_val);
        if (!q->set_col || !q->set_val) {
            db_sql_unsupported(q, "out of memory");
            return;
        }
    }
    for (size_t i = 0; i < ntargets; i++) {
        node *tn = targets[i];
        if (tn->node_case != PG_QUERY__NODE__NODE_RES_TARGET || tn->res_target->n_indirection) {
            db_sql_unsupported(q, "SET form");
            return;
        }
        int col = db_column_index(&s->tables[q->table], tn->res_target->name);
        db_sexpr *v = col >= 0 ? db_sql_conv_expr(&c, tn->res_target->val) : NULL;
        if (!v) {
            db_sql_unsupported(q, col < 0 ? "unknown column or rowid" : "SET value");
            return;
        }
        q->set_col[q->nset] = col;
        q->set_val[q->nset++] = v;
    }
}

/* ON CONFLICT (cols) DO UPDATE SET col = value, ... [WHERE ...] of an INSERT into q->table: the conflict
 * target's columns, the assignments and their condition over the existing row (FROM item 0, the table's
 * name) and the proposed one (item 1, `excluded`). false (with the reason in q) when not modelled. */
static bool conv_upsert(const db_schema *s, db_query *q, PgQuery__InsertStmt *ins)
{
    const db_table *t = &s->tables[q->table];
    PgQuery__OnConflictClause *oc = ins->on_conflict_clause;
    const char *name = ins->relation->alias && ins->relation->alias->aliasname[0] ? ins->relation->alias->aliasname
                                                                                  : ins->relation->relname;
    PgQuery__InferClause *in = oc->infer;
    if (!in || in->where_clause || (in->conname && in->conname[0]) || !in->n_index_elems || in->n_index_elems > 8 ||
        !oc->n_target_list) {
        db_sql_unsupported(q, "ON CONFLICT without a column list, or ON CONSTRAINT");
        return false;
    }
    for (size_t i = 0; i < in->n_index_elems; i++) {
        node *n = in->index_elems[i];
        int col = n->node_case == PG_QUERY__NODE__NODE_INDEX_ELEM && n->index_elem->name
                      ? db_column_index(t, n->index_elem->name)
                      : -1;
        if (col < 0) {
            db_sql_unsupported(q, "ON CONFLICT target that is not a column");
            return false;
        }
        q->conflict_col[q->nconflict++] = col;
    }
    q->nfrom = 2;
    q->from_table[0] = q->from_table[1] = q->table;
    if (!(q->from_name[0] = strdup(name)) || !(q->from_name[1] = strdup("excluded"))) {
        db_sql_unsupported(q, "out of memory");
        return false;
    }
    q->set_col = calloc(oc->n_target_list, sizeof *q->set_col);
    q->set_val = calloc(oc->n_target_list, sizeof *q->set_val);
    if (!q->set_col || !q->set_val) {
        db_sql_unsupported(q, "out of memory");
        return false;
    }
    /* a column without a name is the existing row's (SQLite and PostgreSQL read `qty + excluded.qty` so) */
    conv c = {.s = s, .q = q, .only_from = 1, .only_name = name};
    for (size_t i = 0; i < oc->n_target_list; i++) {
        node *tn = oc->target_list[i];
        int col = tn->node_case == PG_QUERY__NODE__NODE_RES_TARGET && !tn->res_target->n_indirection
                      ? db_column_index(t, tn->res_target->name)
                      : -1;
        db_sexpr *v = col >= 0 ? db_sql_conv_expr(&c, tn->res_target->val) : NULL;
        if (!v) {
            db_sql_unsupported(q, "ON CONFLICT DO UPDATE SET value");
            return false;
        }
        q->set_col[q->nset] = col;
        q->set_val[q->nset++] = v;
    }
    if (oc->where_clause && !(q->upsert_where = db_sql_conv_expr(&c, oc->where_clause))) {
        db_sql_unsupported(q, "ON CONFLICT DO UPDATE WHERE clause");
        return false;
    }
    q->upsert = true;
    return true;
}

/* INSERT, UPDATE or DELETE ... RETURNING (the target rel, the list's n items): the target table's column of each item
 * (* gives them all), -1 for any other item (its value is read concretely): q->return_col / nreturn (0: at most 8
 * items, one of them a column, or not modelled). */
static void conv_returning(const db_schema *s, db_query *q, const PgQuery__RangeVar *rel, node *const *list,
                           size_t nlist)
{
    const db_table *t = &s->tables[q->table];
    int n = 0;
    for (size_t i = 0; i < nlist; i++) {
        node *tn = list[i];
        node *v = tn->node_case == PG_QUERY__NODE__NODE_RES_TARGET ? tn->res_target->val : NULL;
        if (n == 8) return;
        if (!v || v->node_case != PG_QUERY__NODE__NODE_COLUMN_REF) { /* (spent > monthly)::boolean: concrete */
            q->return_col[n++] = -1;
            continue;
        }
        PgQuery__ColumnRef *r = v->column_ref;
        node *last = r->fields[r->n_fields - 1];
        const char *name = rel->alias && rel->alias->aliasname[0] ? rel->alias->aliasname : rel->relname;
        if (r->n_fields > 2 || (r->n_fields == 2 && (r->fields[0]->node_case != PG_QUERY__NODE__NODE_STRING ||
                                                     strcasecmp(r->fields[0]->string->sval, name))))
            return;
        if (last->node_case == PG_QUERY__NODE__NODE_A_STAR) {
            for (int k = 0; k < t->ncols && n < 8; k++) q->return_col[n++] = k;
            if (t->ncols > 8) return;
            continue;
        }
        int col = last->node_case == PG_QUERY__NODE__NODE_STRING ? db_column_index(t, last->string->sval) : -1;
        if (col < 0) return;
        q->return_col[n++] = col;
    }
    for (int i = 0; i < n; i++)
        if (q->return_col[i] >= 0) q->nreturn = n;
}

/* INSERT INTO t [(cols)] VALUES (row), (row), ...: which columns get which values, so that the
 * rows can be read back with their expressions. Anything else leaves ninsert at 0. */
static void conv_insert_select(const db_schema *s, db_query *q, PgQuery__InsertStmt *ins, const char *sql, size_t len);

static void conv_insert(const db_schema *s, db_query *q, PgQuery__InsertStmt *ins, const char *sql, size_t len)
{
    node *sel = ins->select_stmt;
    /* (a RETURNING list changes no row: its values come back concrete; ON CONFLICT DO NOTHING adds the rows
     * the database says it added, which the runtime tracks by its count) */
    bool conflict =
        ins->on_conflict_clause && ins->on_conflict_clause->action != PG_QUERY__ON_CONFLICT_ACTION__ONCONFLICT_NOTHING;
    q->on_conflict = ins->on_conflict_clause != NULL;
    if (sel && sel->node_case == PG_QUERY__NODE__NODE_SELECT_STMT && !sel->select_stmt->n_values_lists &&
        !ins->on_conflict_clause) { /* (INSERT ... SELECT tracks a row per source slot: none may be skipped) */
        conv_insert_select(s, q, ins, sql, len);
        return;
    }
    if (!sel || sel->node_case != PG_QUERY__NODE__NODE_SELECT_STMT || !sel->select_stmt->n_values_lists ||
        sel->select_stmt->n_values_lists > DB_MAX_INSERT_ROWS ||
        (conflict && (sel->select_stmt->n_values_lists != 1 || !conv_upsert(s, q, ins))))
        return;
    const db_table *t = &s->tables[q->table];
    size_t nrows = sel->select_stmt->n_values_lists;
    size_t n = ins->n_cols ? ins->n_cols : (size_t)t->ncols;
    int *cols = calloc(n ? n : 1, sizeof *cols);
    db_sexpr **vals = calloc(n * nrows + 1, sizeof *vals);
    if (!cols || !vals) {
        free(cols), free(vals);
        return;
    }
    db_query probe = {0}; /* values have no FROM items: a column reference fails */
    conv c = {.s = s, .q = &probe};
    size_t i = 0;
    for (i = 0; i < n; i++) {
        node *cn = ins->n_cols ? ins->cols[i] : NULL;
        cols[i] = !cn                                                ? (int)i
                  : cn->node_case == PG_QUERY__NODE__NODE_RES_TARGET ? db_column_index(t, cn->res_target->name)
                                                                     : -1;
        if (cols[i] < 0) break;
    }
    bool ok = i == n;
    for (size_t r = 0; ok && r < nrows; r++) {
        node *row = sel->select_stmt->values_lists[r];
        ok = row->node_case == PG_QUERY__NODE__NODE_LIST && row->list->n_items == n;
        for (i = 0; ok && i < n; i++) ok = (vals[r * n + i] = db_sql_conv_expr(&c, row->list->items[i])) != NULL;
    }
    if (probe.nparams > q->nparams) q->nparams = probe.nparams;
    if (!ok) {
        for (size_t k = 0; k < n * nrows; k++) db_sexpr_free(vals[k]);
        free(cols), free(vals);
        return;
    }
    q->ninsert = (int)n;
    q->ninsert_rows = (int)nrows;
    q->insert_col = cols;
    q->insert_val = vals;
    if (nrows == 1 && ins->n_returning_list)
        conv_returning(s, q, ins->relation, ins->returning_list, ins->n_returning_list);
}

/* INSERT INTO t [(cols)] SELECT ...: the SELECT converted on its own; tracked (insert_src) when it returns plain
 * columns or expressions of one table's row or of an inner join's rows (no outer join), or a GROUP BY query's keys
 * and aggregates, without ORDER BY, LIMIT or DISTINCT, one per column given. */
static void conv_insert_select(const db_schema *s, db_query *q, PgQuery__InsertStmt *ins, const char *sql, size_t len)
{
    PgQuery__SelectStmt *sel = ins->select_stmt->select_stmt;
    const db_table *t = &s->tables[q->table];
    size_t n = ins->n_cols ? ins->n_cols : (size_t)t->ncols;
    db_query *src = calloc(1, sizeof *src);
    int *cols = calloc(n ? n : 1, sizeof *cols);
    if (!src || !cols) {
        free(src), free(cols);
        return;
    }
    src->table = -1;
    src->limit = -1;
    src->understood = true;
    db_sql_conv_select(s, src, sel, sql, len);
    bool ok = src->understood && !src->narms && !sel->with_clause && src->nfrom >= 1 && !src->aggregate &&
              !src->nouter && !src->distinct && !sel->n_sort_clause && src->limit < 0 && !src->offset &&
              !src->limit_param && !src->offset_param && src->nresult == (int)n;
    for (int f = 0; ok && f < src->nfrom; f++) ok = !src->nullable[f]; /* inner joins */
    for (int i = 0; ok && i < src->nresult; i++) /* columns or expressions of the source rows and parameters */
        ok = src->ngroup ? src->result_agg[i] != DB_AGG_CONCRETE && src->result_col[i] != DB_RESULT_CONCRETE
                         : src->result_agg[i] == DB_AGG_NONE && (src->result_expr[i] || src->result_col[i] >= 0);
    for (size_t i = 0; ok && i < n; i++) {
        node *cn = ins->n_cols ? ins->cols[i] : NULL;
        cols[i] = !cn                                                ? (int)i
                  : cn->node_case == PG_QUERY__NODE__NODE_RES_TARGET ? db_column_index(t, cn->res_target->name)
                                                                     : -1;
        ok = cols[i] >= 0;
    }
    if (src->nparams > q->nparams) q->nparams = src->nparams;
    if (!ok) {
        db_query_free(src), free(cols);
        return;
    }
    q->ninsert = (int)n;
    q->insert_col = cols;
    q->insert_src = src;
}

/* The first two words of sql (letters, lowercased, at most 15 kept; "" when missing) into w. */
static void first_words(const char *sql, size_t len, char w[2][16])
{
    memset(w, 0, 2 * sizeof *w);
    int n = 0;
    for (size_t i = 0; i < len && n < 2;) {
        while (i < len && (sql[i] == ' ' || sql[i] == '\t' || sql[i] == '\n' || sql[i] == '\r')) i++;
        size_t k = 0;
        while (i < len && ((sql[i] >= 'a' && sql[i] <= 'z') || (sql[i] >= 'A' && sql[i] <= 'Z'))) {
            if (k < 15) w[n][k++] = (char)(sql[i] | 0x20);
            i++;
        }
        if (!k) break;
        n++;
    }
}

/* SQLite's "BEGIN DEFERRED|IMMEDIATE|EXCLUSIVE [TRANSACTION]", which PostgreSQL's grammar refuses. */
static bool sqlite_begin(const char *sql, size_t len)
{
    char w[2][16];
    first_words(sql, len, w);
    return !strcmp(w[0], "begin") &&
           (!strcmp(w[1], "deferred") || !strcmp(w[1], "immediate") || !strcmp(w[1], "exclusive"));
}

/* SQLite's PRAGMA (foreign_keys = ON, ...), which PostgreSQL's grammar refuses: it runs as it is and changes no
 * row (the runtime makes the tables concrete if a statement it does not model changed rows). */
static bool sqlite_pragma(const char *sql, size_t len)
{
    char w[2][16];
    first_words(sql, len, w);
    return !strcmp(w[0], "pragma");
}

void db_query_unsupported(db_query *q, const char *kind) { db_sql_unsupported(q, kind); }

/* SQLite's INSERT OR IGNORE INTO ... as PostgreSQL's INSERT INTO ... ON CONFLICT DO NOTHING (the same
 * rows: none is added where a key or UNIQUE column would repeat); pg itself otherwise. Owns pg. */
static char *sqlite_or_ignore(char *pg)
{
    const char *p = pg;
    while (isspace((unsigned char)*p)) p++;
    if (strncasecmp(p, "insert", 6) || !isspace((unsigned char)p[6])) return pg;
    const char *o = p + 6;
    while (isspace((unsigned char)*o)) o++;
    if (strncasecmp(o, "or", 2) || !isspace((unsigned char)o[2])) return pg;
    const char *i = o + 2;
    while (isspace((unsigned char)*i)) i++;
    if (strncasecmp(i, "ignore", 6) || !isspace((unsigned char)i[6]) || strcasestr(pg, "returning")) return pg;
    size_t end = strlen(pg);
    while (end > 0 && (isspace((unsigned char)pg[end - 1]) || pg[end - 1] == ';')) end--;
    char *r = NULL;
    if (asprintf(&r, "%.*s%.*s ON CONFLICT DO NOTHING", (int)(p + 6 - pg), pg, (int)(end - (size_t)(i + 6 - pg)),
                 i + 6) < 0)
        return pg;
    free(pg);
    return r;
}

/* SQLite's INSERT OR REPLACE INTO ... and REPLACE INTO ... as INSERT INTO ... (*replace set): the same row
 * inserted, after the rows it would repeat a key of are deleted (db_query.or_replace). Owns pg. */
static char *sqlite_or_replace(char *pg, bool *replace)
{
    char *p = pg;
    while (isspace((unsigned char)*p)) p++;
    char *w = p;
    if (!strncasecmp(p, "insert", 6) && isspace((unsigned char)p[6])) {
        char *o = p + 6;
        while (isspace((unsigned char)*o)) o++;
        if (strncasecmp(o, "or", 2) || !isspace((unsigned char)o[2])) return pg;
        w = o + 2;
        while (isspace((unsigned char)*w)) w++;
    }
    if (strncasecmp(w, "replace", 7) || !isspace((unsigned char)w[7])) return pg;
    char *r = NULL;
    if (asprintf(&r, "%.*sINSERT%s", (int)(p - pg), pg, w + 7) < 0) return pg;
    free(pg);
    *replace = true;
    return r;
}

int db_query_parse(const db_schema *s, const char *sql, size_t len, db_query **out, char **err)
{
    *out = NULL;
    *err = NULL;
    int np = 0;
    char *pg = db_sql_params_to_pg(sql, len, &np);
    bool replace = false;
    if (pg) pg = sqlite_or_ignore(pg);
    if (pg) pg = sqlite_or_replace(pg, &replace);
    db_query *q = calloc(1, sizeof *q);
    if (!pg || !q) {
        free(pg), free(q);
        *err = strdup("out of memory");
        return -1;
    }
    q->table = -1;
    q->limit = -1;
    q->understood = true;
    PgQueryProtobufParseResult r = pg_query_parse_protobuf(pg);
    int aliased = 0; /* SQLite's subqueries in FROM without an alias: parsed with one (db_sql_alias_subqueries) */
    char *named =
        r.error && strstr(r.error->message, "must have an alias") ? db_sql_alias_subqueries(pg, &aliased) : NULL;
    if (named) {
        PgQueryProtobufParseResult r2 = pg_query_parse_protobuf(named);
        if (r2.error) {
            pg_query_free_protobuf_parse_result(r2);
            free(named);
            aliased = 0;
        } else {
            pg_query_free_protobuf_parse_result(r);
            r = r2;
            free(pg);
            pg = named;
        }
    }
    if (r.error && (sqlite_begin(sql, len) || sqlite_pragma(sql, len))) { /* SQLite's own statements */
        pg_query_free_protobuf_parse_result(r);
        free(pg);
        q->kind = DBQ_OTHER;
        q->txn = sqlite_begin(sql, len) ? DB_TXN_BEGIN : DB_TXN_NONE;
        *out = q;
        return 0;
    }
    if (r.error) {
        if (asprintf(err, "%s (at byte %d)", r.error->message, r.error->cursorpos) < 0) *err = NULL;
        pg_query_free_protobuf_parse_result(r);
        free(pg), free(q);
        return -1;
    }
    PgQuery__ParseResult *tree =
        pg_query__parse_result__unpack(NULL, r.parse_tree.len, (const uint8_t *)r.parse_tree.data);
    if (!tree || tree->n_stmts < 1 || !tree->stmts[0]->stmt) {
        q->kind = DBQ_OTHER;
        db_sql_unsupported(q, "empty statement");
    } else {
        node *st = tree->stmts[0]->stmt;
        switch (st->node_case) {
        case PG_QUERY__NODE__NODE_SELECT_STMT: db_sql_conv_select(s, q, st->select_stmt, sql, len); break;
        case PG_QUERY__NODE__NODE_INSERT_STMT:
            q->kind = DBQ_INSERT;
            q->table = range_table(s, q, st->insert_stmt->relation);
            q->returning = st->insert_stmt->n_returning_list > 0;
            if (q->table >= 0) conv_insert(s, q, st->insert_stmt, sql, len);
            q->or_replace = replace;
            if (replace && (st->insert_stmt->on_conflict_clause || q->insert_src || q->ninsert_rows != 1)) {
                for (int i = 0; i < q->ninsert * q->ninsert_rows; i++) db_sexpr_free(q->insert_val[i]);
                q->ninsert = q->ninsert_rows = 0; /* (the rows it deletes are modelled for one new row) */
            }
            break;
        case PG_QUERY__NODE__NODE_UPDATE_STMT: {
            PgQuery__UpdateStmt *u = st->update_stmt;
            q->kind = DBQ_UPDATE;
            q->table = range_table(s, q, u->relation);
            q->returning = u->n_returning_list > 0;
            if (q->table >= 0 && !u->n_from_clause && !u->with_clause) { /* RETURNING: the rows hit (runtime) */
                conv_dml(s, q, u->relation, u->where_clause, u->target_list, u->n_target_list);
                if (u->n_returning_list) conv_returning(s, q, u->relation, u->returning_list, u->n_returning_list);
            }
            break;
        }
        case PG_QUERY__NODE__NODE_DELETE_STMT: {
            PgQuery__DeleteStmt *d = st->delete_stmt;
            q->kind = DBQ_DELETE;
            q->table = range_table(s, q, d->relation);
            q->returning = d->n_returning_list > 0;
            if (q->table >= 0 && !d->n_using_clause && !d->with_clause) {
                conv_dml(s, q, d->relation, d->where_clause, NULL, 0);
                if (d->n_returning_list) conv_returning(s, q, d->relation, d->returning_list, d->n_returning_list);
            }
            break;
        }
        case PG_QUERY__NODE__NODE_TRANSACTION_STMT: {
            q->kind = DBQ_OTHER;
            switch (st->transaction_stmt->kind) {
            case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_BEGIN:
            case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_START: q->txn = DB_TXN_BEGIN; break;
            case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_COMMIT: q->txn = DB_TXN_COMMIT; break;
            case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK: q->txn = DB_TXN_ROLLBACK; break;
            case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_SAVEPOINT: q->txn = DB_TXN_SAVEPOINT; break;
            case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_RELEASE: q->txn = DB_TXN_RELEASE; break;
            case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK_TO: q->txn = DB_TXN_ROLLBACK_TO; break;
            default: break;
            }
            break;
        }
        default: q->kind = DBQ_OTHER; break;
        }
        /* SELECTs become row events, understood UPDATE/DELETEs change the rows' expressions,
         * transaction statements save and restore them (the runtime's db_txn.c); everything
         * else runs concretely (a table it changes is concrete from then on) */
        if (q->kind != DBQ_SELECT && !(q->kind == DBQ_UPDATE || q->kind == DBQ_DELETE) && !q->txn)
            q->understood = false;
        if ((q->kind == DBQ_UPDATE || q->kind == DBQ_DELETE) && q->nfrom != 1) q->understood = false;
        /* an inlined subquery's hidden rowid would be read through the alias the program's text does not have */
        for (int f = 0; aliased && q->understood && !q->nouter && f < q->nfrom; f++)
            if (q->cte_from_at[f]) db_sql_unsupported(q, "subquery in FROM without an alias");
    }
    if (np > q->nparams) q->nparams = np;
    if (tree) pg_query__parse_result__free_unpacked(tree, NULL);
    pg_query_free_protobuf_parse_result(r);
    free(pg);
    *out = q;
    return 0;
}
