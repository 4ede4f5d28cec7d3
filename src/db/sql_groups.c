/* sql_groups.c: aggregates over the groups of a grouped subquery in FROM (SELECT MAX(c) FROM (SELECT x, COUNT(*) c FROM t GROUP BY x)). */
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
 * alias or column name; inside, a GROUP BY query without DISTINCT, ORDER BY, LIMIT or UNION. Anything else goes
 * the ordinary way (a subquery in FROM that is not inlinable is named and runs concretely).
 */

/* The name the subquery gives result column i: its alias, or the column's own name; NULL when it has none. */
static const char *result_name(const PgQuery__SelectStmt *in, size_t i)
{
    const node *t = in->target_list[i];
    if (t->node_case != PG_QUERY__NODE__NODE_RES_TARGET) return NULL;
    const PgQuery__ResTarget *rt = t->res_target;
    if (rt->name && rt->name[0]) return rt->name;
    if (!rt->val || rt->val->node_case != PG_QUERY__NODE__NODE_COLUMN_REF) return NULL;
    const PgQuery__ColumnRef *cr = rt->val->column_ref;
    const node *last = cr->n_fields ? cr->fields[cr->n_fields - 1] : NULL;
    return last && last->node_case == PG_QUERY__NODE__NODE_STRING ? last->string->sval : NULL;
}

/* Outer result column t as an aggregate of the subquery's result columns: *agg (DB_AGG_*) and *res (the column,
 * -1 for COUNT(*)). false when it is not one. */
static bool outer_column(const node *t, const PgQuery__SelectStmt *in, const char *alias, int *agg, int *res)
{
    static const char *names[] = {"count", "sum", "min", "max", "avg"}; /* DB_AGG_COUNT .. DB_AGG_AVG */
    if (t->node_case != PG_QUERY__NODE__NODE_RES_TARGET || !t->res_target->val ||
        t->res_target->val->node_case != PG_QUERY__NODE__NODE_FUNC_CALL)
        return false;
    const PgQuery__FuncCall *fc = t->res_target->val->func_call;
    const node *fn = fc->n_funcname ? fc->funcname[fc->n_funcname - 1] : NULL;
    if (!fn || fn->node_case != PG_QUERY__NODE__NODE_STRING || fc->agg_distinct || fc->agg_filter || fc->over ||
        fc->n_agg_order)
        return false;
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
    for (size_t i = 0; i < in->n_target_list; i++) {
        const char *r = result_name(in, i);
        if (r && !strcasecmp(r, name)) {
            *res = (int)i;
            return true;
        }
    }
    return false;
}

bool db_sql_conv_over_groups(const db_schema *s, db_query *q, PgQuery__SelectStmt *sel, const char *sql, size_t len)
{
    if (sel->n_from_clause != 1 || sel->from_clause[0]->node_case != PG_QUERY__NODE__NODE_RANGE_SUBSELECT ||
        sel->where_clause || sel->n_group_clause || sel->having_clause || sel->n_sort_clause || sel->limit_count ||
        sel->limit_offset || sel->n_distinct_clause || sel->with_clause || !sel->n_target_list ||
        sel->n_target_list > DB_MAX_OUTER)
        return false;
    const PgQuery__RangeSubselect *rs = sel->from_clause[0]->range_subselect;
    if (rs->lateral || !rs->subquery || rs->subquery->node_case != PG_QUERY__NODE__NODE_SELECT_STMT) return false;
    PgQuery__SelectStmt *in = rs->subquery->select_stmt;
    if (in->op != PG_QUERY__SET_OPERATION__SETOP_NONE || !in->n_group_clause || in->n_sort_clause || in->limit_count ||
        in->limit_offset || in->n_distinct_clause || in->with_clause)
        return false;
    const char *alias = rs->alias && rs->alias->aliasname && rs->alias->aliasname[0] ? rs->alias->aliasname : NULL;
    int agg[DB_MAX_OUTER], res[DB_MAX_OUTER];
    for (size_t i = 0; i < sel->n_target_list; i++)
        if (!outer_column(sel->target_list[i], in, alias, &agg[i], &res[i])) return false;
    db_sql_conv_select(s, q, in, sql, len);
    if (!q->understood) return true; /* (the subquery's reason is the statement's) */
    if (!q->ngroup || q->distinct || q->narms || q->nresult != (int)in->n_target_list) {
        db_sql_unsupported(q, "aggregate over the groups of a subquery in FROM");
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
    }
    q->nouter = (int)sel->n_target_list;
    return true;
}
