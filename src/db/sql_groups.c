/* sql_groups.c: SELECTs over a subquery in FROM or WITH that is not inlined: aggregates over the groups of a grouped one (SELECT MAX(c) FROM (SELECT x, COUNT(*) c FROM t GROUP BY x)), aggregates over the rows of a UNION, and a UNION's rows filtered, ordered and limited outside. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "sql_int.h"

/*
 * `SELECT MAX(n) FROM (SELECT day, COUNT(*) AS n FROM shifts GROUP BY day) d` asks for the largest group: the
 * busiest day, the best seller's count, the spread of per-member totals (with MIN). The subquery is a GROUP BY
 * query the model already understands: one event per slot combination "it is the first row of a group that
 * comes back", and the group's aggregates (db_rows.c, group_events). So the statement is converted as that
 * subquery, and the program's one result row is nouter aggregates folded over its groups: aggregate outer_agg[i]
 * of the subquery's result column outer_res[i] over the groups that come back (COUNT(*): how many groups). The
 * events are the subquery's, so "a day with three shifts" is the flip of a group event as for the subquery
 * itself, and the MAX read back is an expression of those events.
 *
 * Only that shape: one FROM item, the subquery, no WHERE, GROUP BY, HAVING, ORDER BY, LIMIT or DISTINCT outside;
 * every outer result column COUNT(*) or COUNT/SUM/MIN/MAX/AVG of a result column of the subquery named by its
 * alias or column name (or coalesce/ifnull of one and a number or text literal); inside, a GROUP BY query without DISTINCT, ORDER BY, LIMIT or UNION. Anything else goes
 * the ordinary way (a subquery in FROM that is not inlinable is named and runs concretely).
 *
 * The same outer aggregates over a UNION [ALL] (`WITH moves AS (SELECT qty AS n FROM sales UNION ALL SELECT -n
 * FROM refunds) SELECT SUM(n), COUNT(*) FROM moves`, or the UNION as a subquery in FROM) fold over the UNION's
 * candidate rows (db_union.c): the statement is converted as the UNION, its events are the UNION's, and the one
 * result row holds the aggregates of its result columns over the candidates that come back. The WITH form takes
 * one non-recursive WITH query, named by the one FROM item; a column list (`WITH m(who, n) AS (...)`) names its columns.
 *
 * A UNION's rows read with a WHERE, ORDER BY or LIMIT outside (`SELECT kind, amt FROM (SELECT 'rent' AS kind, days * 10
 * AS amt FROM rentals WHERE ... UNION ALL SELECT 'fine', amount FROM fines WHERE ...) m WHERE amt > 50 ORDER BY amt DESC
 * LIMIT 2`) are the rows of the UNION whose arms have the outer WHERE too, over their own result columns (amt is
 * `days * 10` in the first arm, `amount` in the second): a filter of result columns commutes with UNION's removal of
 * equal rows and with UNION ALL. The outer ORDER BY and LIMIT are then the UNION's own (sql_union.c). Only when the
 * outer result list is the UNION's columns in their order (or *), so a returned row is a row of the UNION, mapped
 * back by value as for a plain UNION (db_union.c), and the outer WHERE has no subquery.
 */

/* The name the subquery gives result column i: its alias, or the column's own name; NULL when it has none (of a
 * UNION: its first SELECT's). */
static const char *result_name(const PgQuery__SelectStmt *in, size_t i)
{
    while (in->op != PG_QUERY__SET_OPERATION__SETOP_NONE && in->larg) in = in->larg;
    if (i >= in->n_target_list) return NULL;
    const node *t = in->target_list[i];
    if (t->node_case != PG_QUERY__NODE__NODE_RES_TARGET) return NULL;
    const PgQuery__ResTarget *rt = t->res_target;
    if (rt->name && rt->name[0]) return rt->name;
    if (!rt->val || rt->val->node_case != PG_QUERY__NODE__NODE_COLUMN_REF) return NULL;
    const PgQuery__ColumnRef *cr = rt->val->column_ref;
    const node *last = cr->n_fields ? cr->fields[cr->n_fields - 1] : NULL;
    return last && last->node_case == PG_QUERY__NODE__NODE_STRING ? last->string->sval : NULL;
}

/* The number of result columns of in (of a UNION: its first SELECT's). */
static size_t width(const PgQuery__SelectStmt *in)
{
    while (in->op != PG_QUERY__SET_OPERATION__SETOP_NONE && in->larg) in = in->larg;
    return in->n_target_list;
}

/* The one FROM item of sel as a subquery: a subquery in FROM, or the one WITH query of sel that the FROM item
 * names (not RECURSIVE); *alias the name outer columns may qualify with, *cols the WITH query's column list (NULL:
 * none). NULL for anything else. */
static PgQuery__SelectStmt *from_subquery(PgQuery__SelectStmt *sel, const char **alias,
                                          const PgQuery__CommonTableExpr **cols)
{
    *cols = NULL;
    const node *f = sel->from_clause[0];
    if (f->node_case == PG_QUERY__NODE__NODE_RANGE_SUBSELECT && !sel->with_clause) {
        const PgQuery__RangeSubselect *rs = f->range_subselect;
        if (rs->lateral || !rs->subquery || rs->subquery->node_case != PG_QUERY__NODE__NODE_SELECT_STMT) return NULL;
        *alias = rs->alias && rs->alias->aliasname && rs->alias->aliasname[0] ? rs->alias->aliasname : NULL;
        return rs->subquery->select_stmt;
    }
    const PgQuery__WithClause *w = sel->with_clause;
    if (f->node_case != PG_QUERY__NODE__NODE_RANGE_VAR || !w || w->recursive || w->n_ctes != 1 ||
        w->ctes[0]->node_case != PG_QUERY__NODE__NODE_COMMON_TABLE_EXPR)
        return NULL;
    const PgQuery__RangeVar *rv = f->range_var;
    const PgQuery__CommonTableExpr *cte = w->ctes[0]->common_table_expr;
    if ((rv->schemaname && rv->schemaname[0]) || !rv->relname || !cte->ctename ||
        strcasecmp(rv->relname, cte->ctename) || !cte->ctequery ||
        cte->ctequery->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
        return NULL;
    *alias = rv->alias && rv->alias->aliasname && rv->alias->aliasname[0] ? rv->alias->aliasname : rv->relname;
    if (cte->n_aliascolnames) *cols = cte;
    return cte->ctequery->select_stmt;
}

/* The name outer queries use for result column i of subquery in: the WITH query's column list's i-th name when it
 * has one (cols), else result_name. */
static const char *outer_name(const PgQuery__SelectStmt *in, const PgQuery__CommonTableExpr *cols, size_t i)
{
    if (cols && i < cols->n_aliascolnames) {
        const node *n = cols->aliascolnames[i];
        return n->node_case == PG_QUERY__NODE__NODE_STRING ? n->string->sval : NULL;
    }
    return result_name(in, i);
}

/* Outer result column t as an aggregate of the subquery's result columns: *agg (DB_AGG_*) and *res (the column,
 * -1 for COUNT(*)). false when it is not one. */
/* A number literal (an integer, or a REAL: 0.0, 1e3) into *kind (1 integer, 2 REAL) and *i or *r; false for anything
 * else. */
static bool number_literal(const node *n, uint8_t *kind, int64_t *i, double *r)
{
    if (!n || n->node_case != PG_QUERY__NODE__NODE_A_CONST || n->a_const->isnull) return false;
    const PgQuery__AConst *k = n->a_const;
    if (k->val_case == PG_QUERY__A__CONST__VAL_IVAL) {
        *kind = 1, *i = k->ival->ival;
        return true;
    }
    if (k->val_case != PG_QUERY__A__CONST__VAL_FVAL || !strpbrk(k->fval->fval, ".eE")) return false;
    *kind = 2, *r = strtod(k->fval->fval, NULL);
    return true;
}

/* A text literal ('never', also cast to text: 'never'::text) into *t (owned by the parse tree); false for anything
 * else. */
static bool text_literal(const node *n, const char **t)
{
    while (n && n->node_case == PG_QUERY__NODE__NODE_TYPE_CAST) n = n->type_cast->arg;
    if (!n || n->node_case != PG_QUERY__NODE__NODE_A_CONST || n->a_const->isnull ||
        n->a_const->val_case != PG_QUERY__A__CONST__VAL_SVAL)
        return false;
    *t = n->a_const->sval->sval;
    return true;
}

/* The function call of node n named by its last name, in lower case (NULL when n is no such call). */
static const PgQuery__FuncCall *call_named(const node *n, const char **name)
{
    if (!n || n->node_case != PG_QUERY__NODE__NODE_FUNC_CALL) return NULL;
    const PgQuery__FuncCall *fc = n->func_call;
    const node *fn = fc->n_funcname ? fc->funcname[fc->n_funcname - 1] : NULL;
    if (!fn || fn->node_case != PG_QUERY__NODE__NODE_STRING) return NULL;
    *name = fn->string->sval;
    return fc;
}

static bool outer_column(const node *t, const PgQuery__SelectStmt *in, const PgQuery__CommonTableExpr *cols,
                         const char *alias, int *agg, int *res, uint8_t *dkind, int64_t *di, double *dr,
                         const char **ds)
{
    static const char *names[] = {"count", "sum", "min", "max", "avg"}; /* DB_AGG_COUNT .. DB_AGG_AVG */
    if (t->node_case != PG_QUERY__NODE__NODE_RES_TARGET || !t->res_target->val) return false;
    const char *fname = NULL;
    const node *v = t->res_target->val;
    const PgQuery__FuncCall *fc = call_named(v, &fname);
    *dkind = 0;
    /* coalesce(SUM(x), 0) (a node of its own in PostgreSQL's grammar), ifnull(SUM(x), 0), coalesce(MAX(day),
     * 'never'): the aggregate, NULL read as the literal (kind 3: a text) */
    const node *dflt = NULL, *inner = NULL;
    if (v->node_case == PG_QUERY__NODE__NODE_COALESCE_EXPR && v->coalesce_expr->n_args == 2)
        inner = v->coalesce_expr->args[0], dflt = v->coalesce_expr->args[1];
    else if (fc && !strcasecmp(fname, "ifnull") && fc->n_args == 2)
        inner = fc->args[0], dflt = fc->args[1];
    if (dflt && number_literal(dflt, dkind, di, dr))
        fc = call_named(inner, &fname);
    else if (dflt && text_literal(dflt, ds))
        *dkind = 3, fc = call_named(inner, &fname);
    if (!fc || fc->agg_distinct || fc->agg_filter || fc->over || fc->n_agg_order) return false;
    const node *fn = fc->funcname[fc->n_funcname - 1];
    *agg = DB_AGG_NONE;
    for (int k = 0; k < 5; k++)
        if (!strcasecmp(fn->string->sval, names[k])) *agg = DB_AGG_COUNT + k;
    if (*agg == DB_AGG_NONE) return false;
    if (fc->agg_star) {
        *res = -1;
        return *agg == DB_AGG_COUNT;
    }
    if (fc->n_args != 1 || fc->args[0]->node_case != PG_QUERY__NODE__NODE_COLUMN_REF) return false;
    const PgQuery__ColumnRef *cr = fc->args[0]->column_ref;
    if (cr->n_fields < 1 || cr->n_fields > 2) return false;
    for (size_t i = 0; i < cr->n_fields; i++)
        if (cr->fields[i]->node_case != PG_QUERY__NODE__NODE_STRING) return false;
    if (cr->n_fields == 2 && (!alias || strcmp(cr->fields[0]->string->sval, alias))) return false;
    const char *name = cr->fields[cr->n_fields - 1]->string->sval;
    for (size_t i = 0; i < width(in); i++) {
        const char *r = outer_name(in, cols, i);
        if (r && !strcasecmp(r, name)) {
            *res = (int)i;
            return true;
        }
    }
    return false;
}

bool db_sql_conv_over_groups(const db_schema *s, db_query *q, PgQuery__SelectStmt *sel, const char *sql, size_t len)
{
    if (sel->n_from_clause != 1 || sel->where_clause || sel->n_group_clause || sel->having_clause ||
        sel->n_sort_clause || sel->limit_count || sel->limit_offset || sel->n_distinct_clause || !sel->n_target_list ||
        sel->n_target_list > DB_MAX_OUTER)
        return false;
    const char *alias = NULL;
    const PgQuery__CommonTableExpr *cols = NULL;
    PgQuery__SelectStmt *in = from_subquery(sel, &alias, &cols);
    bool is_union = in && in->op != PG_QUERY__SET_OPERATION__SETOP_NONE;
    if (!in || (!is_union && !in->n_group_clause) || in->n_sort_clause || in->limit_count || in->limit_offset ||
        in->n_distinct_clause || in->with_clause)
        return false;
    int agg[DB_MAX_OUTER], res[DB_MAX_OUTER];
    uint8_t dkind[DB_MAX_OUTER];
    int64_t di[DB_MAX_OUTER];
    double dr[DB_MAX_OUTER];
    const char *ds[DB_MAX_OUTER];
    for (size_t i = 0; i < sel->n_target_list; i++)
        if (!outer_column(sel->target_list[i], in, cols, alias, &agg[i], &res[i], &dkind[i], &di[i], &dr[i], &ds[i]))
            return false;
    db_sql_conv_select(s, q, in, sql, len);
    if (!q->understood) return true; /* (the subquery's reason is the statement's) */
    if (is_union ? !q->narms || q->limit >= 0 || q->offset > 0 || q->limit_param || q->offset_param
                 : !q->ngroup || q->distinct || q->narms || q->nresult != (int)in->n_target_list) {
        db_sql_unsupported(q, "aggregate over the groups of a subquery in FROM");
        return true;
    }
    if (is_union) { /* over the rows of a UNION [ALL]: any result column (db_union.c) */
        for (size_t i = 0; i < sel->n_target_list; i++) {
            if (res[i] >= q->nresult) {
                db_sql_unsupported(q, "aggregate over a UNION in FROM or WITH");
                return true;
            }
            q->outer_agg[i] = agg[i];
            q->outer_res[i] = res[i];
            q->outer_dflt[i] = dkind[i], q->outer_dflt_i[i] = di[i], q->outer_dflt_r[i] = dr[i];
            if (dkind[i] == 3 && !(q->outer_dflt_s[i] = strdup(ds[i]))) db_sql_unsupported(q, "out of memory");
        }
        q->norder = 0, q->order_implicit = false; /* (the order of the rows changes no aggregate) */
        q->nouter = (int)sel->n_target_list;
        return true;
    }
    for (size_t i = 0; i < sel->n_target_list; i++) {
        int r = res[i];
        /* a group's value: an aggregate of the subquery, or a key column (not an expression key) */
        if (r >= 0 && q->result_agg[r] != DB_AGG_COUNT && q->result_agg[r] != DB_AGG_SUM &&
            q->result_agg[r] != DB_AGG_MIN && q->result_agg[r] != DB_AGG_MAX && q->result_agg[r] != DB_AGG_AVG &&
            q->result_agg[r] != DB_AGG_EXPR && !(q->result_agg[r] == DB_AGG_NONE && q->result_col[r] >= 0)) {
            db_sql_unsupported(q, "aggregate over the groups of a subquery in FROM");
            return true;
        }
        q->outer_agg[i] = agg[i];
        q->outer_res[i] = r;
        q->outer_dflt[i] = dkind[i], q->outer_dflt_i[i] = di[i], q->outer_dflt_r[i] = dr[i];
        if (dkind[i] == 3 && !(q->outer_dflt_s[i] = strdup(ds[i]))) db_sql_unsupported(q, "out of memory");
    }
    q->nouter = (int)sel->n_target_list;
    return true;
}

/* Whether result target t is `*`. */
static bool outer_star(const node *t)
{
    if (t->node_case != PG_QUERY__NODE__NODE_RES_TARGET || !t->res_target->val ||
        t->res_target->val->node_case != PG_QUERY__NODE__NODE_COLUMN_REF)
        return false;
    const PgQuery__ColumnRef *cr = t->res_target->val->column_ref;
    return cr->n_fields == 1 && cr->fields[0]->node_case == PG_QUERY__NODE__NODE_A_STAR;
}

/* Whether result target t is a column named name, alone or after alias (any alias of its own). */
static bool names_result(const node *t, const char *name, const char *alias)
{
    if (!name || t->node_case != PG_QUERY__NODE__NODE_RES_TARGET || !t->res_target->val ||
        t->res_target->val->node_case != PG_QUERY__NODE__NODE_COLUMN_REF)
        return false;
    const PgQuery__ColumnRef *cr = t->res_target->val->column_ref;
    for (size_t i = 0; i < cr->n_fields; i++)
        if (cr->fields[i]->node_case != PG_QUERY__NODE__NODE_STRING) return false;
    if (cr->n_fields == 2 && (!alias || strcasecmp(cr->fields[0]->string->sval, alias))) return false;
    return (cr->n_fields == 1 || cr->n_fields == 2) && !strcasecmp(cr->fields[cr->n_fields - 1]->string->sval, name);
}

bool db_sql_conv_over_union(const db_schema *s, db_query *q, PgQuery__SelectStmt *sel, const char *sql, size_t len)
{
    enum { MAX_COLS = 64 };
    if (sel->n_from_clause != 1 || sel->n_group_clause || sel->having_clause || sel->n_distinct_clause ||
        sel->n_window_clause || !sel->n_target_list)
        return false;
    const char *alias = NULL;
    const PgQuery__CommonTableExpr *cols = NULL;
    PgQuery__SelectStmt *in = from_subquery(sel, &alias, &cols);
    if (!in || in->op == PG_QUERY__SET_OPERATION__SETOP_NONE || in->n_sort_clause || in->limit_count ||
        in->limit_offset || in->with_clause || width(in) > MAX_COLS)
        return false;
    size_t w = width(in);
    const char *names[MAX_COLS];
    for (size_t i = 0; i < w; i++) names[i] = outer_name(in, cols, i);
    if (!(sel->n_target_list == 1 && outer_star(sel->target_list[0]))) { /* the UNION's columns in their order */
        if (sel->n_target_list != w) return false;
        for (size_t i = 0; i < w; i++)
            if (!names_result(sel->target_list[i], names[i], alias)) return false;
    }
    db_sql_conv_select(s, q, in, sql, len);
    if (!q->understood) return true; /* (the UNION's reason is the statement's) */
    for (int a = 0; sel->where_clause && a < q->narms; a++) {
        db_query *arm = q->arms[a];
        int nsub = arm->nsub;
        conv c = {.s = s, .q = arm, .union_names = names, .nunion_names = (int)w, .union_alias = alias};
        db_sexpr *e = db_sql_conv_expr(&c, sel->where_clause);
        for (int k = 0; k < arm->nunsupported; k++) db_sql_unsupported(q, arm->unsupported[k]);
        if (!e || arm->nsub != nsub) {
            db_sexpr_free(e);
            db_sql_unsupported(q, "WHERE over a UNION in FROM or WITH");
            return true;
        }
        db_sql_and_where(arm, e);
        if (arm->nparams > q->nparams) q->nparams = arm->nparams;
        for (int k = 0; k < 64; k++)
            if (!q->date_param[k]) q->date_param[k] = arm->date_param[k];
    }
    db_sql_union_outer(s, q, sel, names);
    return true;
}
