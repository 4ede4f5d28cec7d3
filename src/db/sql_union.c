/* sql_union.c: SELECT ... UNION [ALL] SELECT ... into a compound db_query: its arms, its result columns, ORDER BY over result positions and LIMIT/OFFSET. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "sql_int.h"

#define MAX_ARMS 8

/* The leaves of a tree of UNIONs, left to right, into arms[0..*n); -1 (with the reason in q) when the
 * tree has another set operation, UNION mixed with UNION ALL, more than MAX_ARMS leaves, or an inner
 * node with its own ORDER BY / LIMIT (a parenthesized arm). */
static int flatten(db_query *q, PgQuery__SelectStmt *sel, bool top, PgQuery__SelectStmt **arms, int *n, int *nops)
{
    if (!sel) {
        db_sql_unsupported(q, "UNION arm kind");
        return -1;
    }
    if (!top && (sel->n_sort_clause || sel->limit_count || sel->limit_offset || sel->with_clause)) {
        db_sql_unsupported(q, "ORDER BY, LIMIT or WITH inside a UNION arm");
        return -1;
    }
    if (sel->op == PG_QUERY__SET_OPERATION__SETOP_NONE) {
        if (*n >= MAX_ARMS) {
            db_sql_unsupported(q, "UNION of more than 8 SELECTs");
            return -1;
        }
        arms[(*n)++] = sel;
        return 0;
    }
    if (sel->op != PG_QUERY__SET_OPERATION__SETOP_UNION) {
        db_sql_unsupported(q, "INTERSECT/EXCEPT");
        return -1;
    }
    if ((*nops)++ && q->union_all != sel->all) {
        db_sql_unsupported(q, "UNION mixed with UNION ALL");
        return -1;
    }
    q->union_all = sel->all;
    return flatten(q, sel->larg, false, arms, n, nops) || flatten(q, sel->rarg, false, arms, n, nops) ? -1 : 0;
}

/* Is arm a SELECT of plain columns of one table or an inner join of up to four (what the runtime maps back by value)? */
static bool plain_arm(const db_query *a)
{
    if (!a->understood || a->nfrom < 1 || a->aggregate || a->ngroup || a->distinct || a->limit >= 0 || a->offset > 0 ||
        a->limit_param || a->offset_param)
        return false;
    for (int f = 0; f < a->nfrom; f++)
        if (a->nullable[f]) return false; /* an outer join's NULL row is no candidate of db_union.c */
    for (int i = 0; i < a->nresult; i++)  /* plain columns, or expressions of the row ('loan' AS kind) */
        if (a->result_agg[i] != DB_AGG_NONE || (a->result_col[i] < 0 && !a->result_expr[i]) ||
            (a->result_expr[i] && (db_sexpr_has(a->result_expr[i], DBX_PARAM) || a->nsub)))
            return false; /* (db_union.c computes them over the rows alone) */
    return true;
}

/* The output name of result column i of arm 0: its alias, else its column's name. */
static const char *result_name(const db_schema *s, const db_query *a0, PgQuery__SelectStmt *sel0, int i)
{
    if ((int)sel0->n_target_list == a0->nresult) {
        node *tn = sel0->target_list[i];
        if (tn->node_case == PG_QUERY__NODE__NODE_RES_TARGET && tn->res_target->name && tn->res_target->name[0])
            return tn->res_target->name;
    }
    return a0->result_col[i] < 0 ? "" : s->tables[a0->from_table[a0->result_from[i]]].cols[a0->result_col[i]].name;
}

/* ORDER BY of the compound: each key an output column by name (names[j], or arm 0's when names is NULL) or by
 * position (1-based). Keys of another form leave norder 0 (the order is then not modelled, as for one SELECT). */
static void conv_order(const db_schema *s, db_query *q, PgQuery__SelectStmt *sel, PgQuery__SelectStmt *sel0,
                       const char *const *names)
{
    const db_query *a0 = q->arms[0];
    for (size_t i = 0; i < sel->n_sort_clause; i++) {
        node *sn = sel->sort_clause[i];
        node *k = sn->node_case == PG_QUERY__NODE__NODE_SORT_BY ? sn->sort_by->node : NULL;
        int r = -1;
        if (k && k->node_case == PG_QUERY__NODE__NODE_A_CONST && k->a_const->val_case == PG_QUERY__A__CONST__VAL_IVAL &&
            k->a_const->ival->ival >= 1 && k->a_const->ival->ival <= q->nresult)
            r = k->a_const->ival->ival - 1;
        else if (k && k->node_case == PG_QUERY__NODE__NODE_COLUMN_REF && k->column_ref->n_fields == 1 &&
                 k->column_ref->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING)
            for (int j = 0; j < q->nresult && r < 0; j++)
                if (!strcasecmp(names ? (names[j] ? names[j] : "") : result_name(s, a0, sel0, j),
                                k->column_ref->fields[0]->string->sval))
                    r = j;
        if (r < 0 || i >= 4) {
            q->norder = 0;
            return;
        }
        PgQuery__SortBy *sb = sn->sort_by;
        int n = q->norder++;
        q->order_from[n] = 0;
        q->order_col[n] = r;
        q->order_desc[n] = sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC;
        q->order_nulls_last[n] = sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_LAST ||
                                 (sb->sortby_nulls != PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST && q->order_desc[n]);
        q->order_nulls_default[n] = sb->sortby_nulls != PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_LAST &&
                                    sb->sortby_nulls != PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST;
    }
}

/* What one arm tells the whole statement: its parameters, date uses and the constructs it lacks. */
static void merge_arm(db_query *q, const db_query *a)
{
    if (a->nparams > q->nparams) q->nparams = a->nparams;
    for (int k = 0; k < 64; k++)
        if (!q->date_param[k]) q->date_param[k] = a->date_param[k];
    q->date_loose_literal |= a->date_loose_literal;
    q->sqlite_dates |= a->sqlite_dates;
    q->pg_dates |= a->pg_dates;
    q->date_cast |= a->date_cast;
    for (int k = 0; k < a->nunsupported; k++) db_sql_unsupported(q, a->unsupported[k]);
}

/* ORDER BY and LIMIT/OFFSET of statement sel over the compound q (sel is the compound itself, or a SELECT of its rows
 * outside it: db_sql_union_outer; names as for conv_order): the order, and the window of rows LIMIT takes. */
static void order_limit(const db_schema *s, db_query *q, PgQuery__SelectStmt *sel, PgQuery__SelectStmt *sel0,
                        const char *const *names)
{
    q->norder = 0, q->order_implicit = false, q->order_window = false;
    q->limit = -1, q->offset = 0, q->limit_param = q->offset_param = 0;
    conv_order(s, q, sel, sel0, names);
    if (sel->limit_count && db_sql_limit_value(sel->limit_count, &q->limit, &q->limit_param))
        db_sql_unsupported(q, "LIMIT/OFFSET of an expression");
    if (sel->limit_offset && db_sql_limit_value(sel->limit_offset, &q->offset, &q->offset_param))
        db_sql_unsupported(q, "LIMIT/OFFSET of an expression");
    if (!sel->n_sort_clause && !q->union_all && q->nresult <= 4) { /* SQLite's order of UNION's rows */
        q->order_implicit = true;
        for (int r = 0; r < q->nresult; r++) {
            q->order_from[r] = 0, q->order_col[r] = r;
            q->order_nulls_default[r] = true; /* (ascending: SQLite puts NULLs first) */
        }
        q->norder = q->nresult;
    }
    if (q->limit >= 0 || q->offset > 0 || q->limit_param || q->offset_param) {
        if (q->norder && (q->order_implicit || q->norder == (int)sel->n_sort_clause))
            q->order_window = true; /* the rows at positions offset.. in ORDER BY order */
        else if (sel->n_sort_clause || !q->union_all)
            db_sql_unsupported(q, "LIMIT/OFFSET on a UNION with ORDER BY of an expression");
    }
}

void db_sql_conv_union(const db_schema *s, db_query *q, PgQuery__SelectStmt *sel, const char *sql, size_t len)
{
    PgQuery__SelectStmt *leaves[MAX_ARMS];
    int n = 0, nops = 0;
    if (sel->with_clause) db_sql_unsupported(q, "WITH");
    if (flatten(q, sel, true, leaves, &n, &nops)) return;
    if (!(q->arms = calloc((size_t)n, sizeof *q->arms))) {
        db_sql_unsupported(q, "out of memory");
        return;
    }
    for (int a = 0; a < n; a++) {
        db_query *arm = calloc(1, sizeof *arm);
        if (!arm) {
            db_sql_unsupported(q, "out of memory");
            return;
        }
        arm->table = -1;
        arm->limit = -1;
        arm->understood = true;
        q->arms[q->narms++] = arm;
        db_sql_conv_select(s, arm, leaves[a], sql, len);
        merge_arm(q, arm);
        if (arm->understood && !plain_arm(arm))
            db_sql_unsupported(q, "UNION arm other than plain columns of a table or an inner join");
        if (arm->nresult != q->arms[0]->nresult) db_sql_unsupported(q, "UNION of SELECTs of different widths");
    }
    if (!q->understood) return;
    const db_query *a0 = q->arms[0];
    q->table = a0->table;
    size_t m = (size_t)a0->nresult + 1;
    q->result_from = calloc(m, sizeof *q->result_from);
    q->result_col = calloc(m, sizeof *q->result_col);
    q->result_agg = calloc(m, sizeof *q->result_agg);
    q->result_expr = calloc(m, sizeof *q->result_expr);
    if (!q->result_from || !q->result_col || !q->result_agg || !q->result_expr) {
        db_sql_unsupported(q, "out of memory");
        return;
    }
    q->nresult = a0->nresult;
    /* nfrom stays 0: the result's column types are arm 0's (its tables and columns) */
    memcpy(q->from_table, a0->from_table, sizeof q->from_table);
    memcpy(q->result_from, a0->result_from, (size_t)q->nresult * sizeof *q->result_from);
    memcpy(q->result_col, a0->result_col, (size_t)q->nresult * sizeof *q->result_col);
    order_limit(s, q, sel, leaves[0], NULL);
}

void db_sql_union_outer(const db_schema *s, db_query *q, PgQuery__SelectStmt *outer, const char *const *names)
{
    order_limit(s, q, outer, NULL, names);
}
