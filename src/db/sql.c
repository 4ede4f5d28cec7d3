/* sql.c: SQL statements through libpg_query's parse tree (protobuf-c) into sympath's small query form (db_query). */
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

/* ---------------------------------------------------------------- lexical helpers */

/* Length of the quoted token at s[0] ('...', "...", `...`, [...]) within s[0..n), or 0. */
static size_t quoted_len(const char *s, size_t n)
{
    char close = s[0] == '[' ? ']' : s[0];
    if (close != '\'' && close != '"' && close != '`' && close != ']')
        return 0;
    size_t i = 1;
    while (i < n) {
        if (s[i] == close) {
            if (close != ']' && i + 1 < n && s[i + 1] == close) { /* doubled quote */
                i += 2;
                continue;
            }
            return i + 1;
        }
        i++;
    }
    return n;
}

/* Length of a comment at s[0] ("-- ...\n" or block comment), or 0. */
static size_t comment_len(const char *s, size_t n)
{
    if (n >= 2 && s[0] == '-' && s[1] == '-') {
        size_t i = 2;
        while (i < n && s[i] != '\n')
            i++;
        return i;
    }
    if (n >= 2 && s[0] == '/' && s[1] == '*') {
        size_t i = 2;
        while (i + 1 < n && !(s[i] == '*' && s[i + 1] == '/'))
            i++;
        return i + 2 <= n ? i + 2 : n;
    }
    return 0;
}

static int ident_char(int c) { return isalnum(c) || c == '_' || c >= 0x80; }

/* Parameter numbers stop growing past SQLite's largest (?32766; SQLITE_MAX_VARIABLE_NUMBER):
 * SQLite refuses such a statement anyway, and the number must not overflow. */
#define PARAM_NUM_CAP 32767

char *db_sql_params_to_pg(const char *sql, size_t len, int *nparams)
{
    /* an output never exceeds what is left of the input plus one "$N" and the NUL, checked per
     * step: a one-byte "?" can become "$32767" */
    size_t cap = len * 2 + 16, o = 0;
    char *out = malloc(cap);
    /* named parameters seen so far and their numbers */
    const char *names[128];
    size_t name_len[128];
    int name_num[128], nnames = 0, max = 0;
    if (!out)
        return NULL;
    for (size_t i = 0; i < len;) {
        if (o + (len - i) + 16 > cap) {
            size_t c = 2 * cap > o + (len - i) + 16 ? 2 * cap : o + (len - i) + 16;
            char *bigger = realloc(out, c);
            if (!bigger) {
                free(out);
                return NULL;
            }
            out = bigger, cap = c;
        }
        size_t q = quoted_len(sql + i, len - i);
        if (!q)
            q = comment_len(sql + i, len - i);
        if (q) {
            memcpy(out + o, sql + i, q);
            o += q, i += q;
            continue;
        }
        char c = sql[i];
        int num = 0;
        if (c == '?') {
            size_t j = i + 1;
            while (j < len && isdigit((unsigned char)sql[j])) {
                num = num * 10 + (sql[j++] - '0');
                if (num > PARAM_NUM_CAP)
                    num = PARAM_NUM_CAP;
            }
            if (j == i + 1)
                num = max < PARAM_NUM_CAP ? max + 1 : PARAM_NUM_CAP;
            i = j;
        } else if ((c == ':' || c == '@' || c == '$') && i + 1 < len && ident_char((unsigned char)sql[i + 1]) &&
                   !(c == ':' && i > 0 && sql[i - 1] == ':')) {
            size_t j = i + 1;
            while (j < len && ident_char((unsigned char)sql[j]))
                j++;
            if (c == '$' && isdigit((unsigned char)sql[i + 1])) { /* already $N */
                while (i < j)
                    out[o++] = sql[i++];
                continue;
            }
            for (int k = 0; k < nnames && !num; k++)
                if (name_len[k] == j - i && !memcmp(names[k], sql + i, j - i))
                    num = name_num[k];
            if (!num) {
                num = max < PARAM_NUM_CAP ? max + 1 : PARAM_NUM_CAP;
                if (nnames < 128) {
                    names[nnames] = sql + i, name_len[nnames] = j - i, name_num[nnames] = num;
                    nnames++;
                }
            }
            i = j;
        } else {
            out[o++] = c;
            i++;
            continue;
        }
        if (num > max)
            max = num;
        o += (size_t)snprintf(out + o, cap - o, "$%d", num);
    }
    out[o] = 0;
    *nparams = max;
    return out;
}

/* ---------------------------------------------------------------- parse tree -> db_query */

typedef PgQuery__Node node;

static void unsupported(db_query *q, const char *kind)
{
    q->understood = false;
    for (int i = 0; i < q->nunsupported; i++)
        if (!strcmp(q->unsupported[i], kind))
            return;
    if (q->nunsupported < DB_MAX_UNSUPPORTED)
        q->unsupported[q->nunsupported++] = kind;
}

static void sexpr_free(db_sexpr *e)
{
    if (!e)
        return;
    for (int i = 0; i < e->nkids; i++)
        sexpr_free(e->kids[i]);
    free(e->kids);
    free(e->text);
    free(e);
}

void db_sexpr_free(db_sexpr *e) { sexpr_free(e); }

void db_query_free(db_query *q)
{
    if (!q)
        return;
    sexpr_free(q->where);
    for (int f = 0; f < q->nfrom; f++)
        free(q->from_name[f]);
    free(q->result_col);
    free(q->result_from);
    free(q->result_agg);
    for (int i = 0; i < q->nset; i++)
        sexpr_free(q->set_val[i]);
    free(q->set_val);
    free(q->set_col);
    for (int i = 0; i < q->ninsert; i++)
        sexpr_free(q->insert_val[i]);
    free(q->insert_val);
    free(q->insert_col);
    free(q);
}

static db_sexpr *mk(db_xkind k, int nkids)
{
    db_sexpr *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->kind = k;
    if (nkids) {
        e->kids = calloc((size_t)nkids, sizeof *e->kids);
        if (!e->kids) {
            free(e);
            return NULL;
        }
        e->nkids = nkids;
    }
    return e;
}

typedef struct conv {
    const db_schema *s;
    db_query *q;
} conv;

static db_sexpr *conv_expr(conv *c, node *n);

/* The operator name of an A_Expr ("=", "<", "~~", ...), or "". */
static const char *op_name(PgQuery__AExpr *a)
{
    if (a->n_name != 1 || a->name[0]->node_case != PG_QUERY__NODE__NODE_STRING)
        return "";
    return a->name[0]->string->sval;
}

static db_sexpr *conv_kids(conv *c, db_sexpr *e, node **kids)
{
    if (!e)
        return NULL;
    for (int i = 0; i < e->nkids; i++)
        if (!(e->kids[i] = conv_expr(c, kids[i]))) {
            sexpr_free(e);
            return NULL;
        }
    return e;
}

/* FROM item named `name` (alias or table name, case-insensitive), -1 when none. */
static int from_item(const db_query *q, const char *name)
{
    for (int f = 0; f < q->nfrom; f++)
        if (!strcasecmp(q->from_name[f], name))
            return f;
    return -1;
}

static db_sexpr *conv_column(conv *c, PgQuery__ColumnRef *r)
{
    const char *col = NULL;
    int from = -1, ci = -1;
    if (r->n_fields == 1 && r->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING) {
        col = r->fields[0]->string->sval;
        for (int f = 0; f < c->q->nfrom; f++) {
            int k = db_column_index(&c->s->tables[c->q->from_table[f]], col);
            if (k >= 0 && from >= 0) {
                unsupported(c->q, "ambiguous column");
                return NULL;
            }
            if (k >= 0)
                from = f, ci = k;
        }
    } else if (r->n_fields == 2 && r->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING &&
               r->fields[1]->node_case == PG_QUERY__NODE__NODE_STRING) {
        from = from_item(c->q, r->fields[0]->string->sval);
        if (from < 0) {
            unsupported(c->q, "column of a table not in FROM");
            return NULL;
        }
        col = r->fields[1]->string->sval;
        ci = db_column_index(&c->s->tables[c->q->from_table[from]], col);
    } else {
        unsupported(c->q, "column reference form");
        return NULL;
    }
    if (ci < 0) {
        unsupported(c->q, "unknown column or rowid");
        return NULL;
    }
    db_sexpr *e = mk(DBX_COLUMN, 0);
    if (e)
        e->from = from, e->column = ci;
    return e;
}

static db_sexpr *conv_const(conv *c, PgQuery__AConst *k)
{
    if (k->isnull)
        return mk(DBX_NULL, 0);
    db_sexpr *e = NULL;
    switch (k->val_case) {
    case PG_QUERY__A__CONST__VAL_IVAL:
        if ((e = mk(DBX_INT, 0)))
            e->ival = k->ival->ival;
        return e;
    case PG_QUERY__A__CONST__VAL_FVAL: { /* also integers beyond 32 bits */
        const char *t = k->fval->fval;
        char *end = NULL;
        errno = 0;
        long long iv = strtoll(t, &end, 10);
        if (!strpbrk(t, ".eE") && !*end && errno != ERANGE) {
            if ((e = mk(DBX_INT, 0)))
                e->ival = iv;
            return e;
        }
        /* a REAL literal (15.0, 1e3), or an integer beyond 64 bits, which SQLite reads as REAL */
        if ((e = mk(DBX_REAL, 0)))
            e->rval = strtod(t, NULL);
        return e;
    }
    case PG_QUERY__A__CONST__VAL_SVAL:
        if ((e = mk(DBX_TEXT, 0)) && !(e->text = strdup(k->sval->sval))) {
            free(e);
            return NULL;
        }
        return e;
    case PG_QUERY__A__CONST__VAL_BOOLVAL:
        if ((e = mk(DBX_INT, 0)))
            e->ival = k->boolval->boolval;
        return e;
    default:
        unsupported(c->q, "literal kind");
        return NULL;
    }
}

/* 1: an integer type (int2/4/8, smallint, integer, bigint), 2: a text type (text, varchar), 0: other. */
static int cast_kind(const PgQuery__TypeName *tn)
{
    if (!tn || !tn->n_names || tn->n_array_bounds || tn->n_typmods || tn->names[tn->n_names - 1]->node_case != PG_QUERY__NODE__NODE_STRING)
        return 0;
    const char *n = tn->names[tn->n_names - 1]->string->sval;
    static const char *ints[] = {"int2", "int4", "int8", "smallint", "integer", "bigint", "int", NULL};
    for (int i = 0; ints[i]; i++)
        if (!strcasecmp(n, ints[i]))
            return 1;
    return !strcasecmp(n, "text") || !strcasecmp(n, "varchar") ? 2 : 0;
}

/*
 * A cast that changes nothing sympath models (PostgreSQL writes them in its catalog's
 * CHECK text and users write them in queries): a literal or column cast to an integer
 * type when it is an integer, to text/varchar when it is a text; a text literal of
 * digits cast to an integer becomes that integer. Anything else: "CAST".
 */
static db_sexpr *conv_cast(conv *c, PgQuery__TypeCast *tc)
{
    int kind = cast_kind(tc->type_name);
    db_sexpr *e = kind ? conv_expr(c, tc->arg) : NULL;
    if (!e) {
        if (!kind)
            unsupported(c->q, "CAST");
        return NULL;
    }
    bool is_text = e->kind == DBX_TEXT;
    if (e->kind == DBX_COLUMN)
        is_text = db_column_is_text(&c->s->tables[c->q->from_table[e->from]].cols[e->column]);
    else if (e->kind != DBX_TEXT && e->kind != DBX_INT && e->kind != DBX_NULL && e->kind != DBX_PARAM)
        kind = 0;
    if (kind == 1 && e->kind == DBX_TEXT) { /* '12'::integer */
        char *end = NULL;
        long long v = strtoll(e->text, &end, 10);
        if (*e->text && !*end) {
            free(e->text);
            e->text = NULL;
            e->kind = DBX_INT;
            e->ival = v;
            return e;
        }
        kind = 0;
    }
    if (kind && e->kind != DBX_NULL && e->kind != DBX_PARAM && is_text != (kind == 2))
        kind = 0;
    if (!kind) {
        sexpr_free(e);
        unsupported(c->q, "CAST");
        return NULL;
    }
    return e;
}

/* x = ANY (ARRAY[...]) as x IN (...), x <> ALL (ARRAY[...]) as x NOT IN (...) (PostgreSQL's
 * own spelling of IN lists in its catalog); the array may carry a cast to text[]/int[]. */
static db_sexpr *conv_any(conv *c, PgQuery__AExpr *a, bool all)
{
    const char *op = a->n_name == 1 && a->name[0]->node_case == PG_QUERY__NODE__NODE_STRING ? a->name[0]->string->sval : "";
    node *arr = a->rexpr;
    if (arr && arr->node_case == PG_QUERY__NODE__NODE_TYPE_CAST)
        arr = arr->type_cast->arg;
    if (strcmp(op, all ? "<>" : "=") || !arr || arr->node_case != PG_QUERY__NODE__NODE_A_ARRAY_EXPR) {
        unsupported(c->q, all ? "ALL" : "ANY");
        return NULL;
    }
    PgQuery__AArrayExpr *l = arr->a_array_expr;
    db_sexpr *e = mk(DBX_IN, 1 + (int)l->n_elements);
    if (!e)
        return NULL;
    e->negated = all;
    if (!(e->kids[0] = conv_expr(c, a->lexpr))) {
        sexpr_free(e);
        return NULL;
    }
    for (size_t i = 0; i < l->n_elements; i++)
        if (!(e->kids[1 + i] = conv_expr(c, l->elements[i]))) {
            sexpr_free(e);
            return NULL;
        }
    return e;
}

static db_sexpr *conv_aexpr(conv *c, PgQuery__AExpr *a)
{
    const char *op = op_name(a);
    db_sexpr *e;
    switch (a->kind) {
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP: {
        static const char *cmps[] = {"=", "<>", "<", "<=", ">", ">="};
        for (int i = 0; i < 6; i++)
            if (!strcmp(op, cmps[i]) || (i == 1 && !strcmp(op, "!="))) {
                if ((e = mk(DBX_CMP, 2)))
                    e->op = i;
                node *k[2] = {a->lexpr, a->rexpr};
                return conv_kids(c, e, k);
            }
        if (strlen(op) == 1 && strchr("+-*/%", op[0])) {
            if (!a->lexpr) { /* unary */
                if (op[0] == '+')
                    return conv_expr(c, a->rexpr);
                if (op[0] != '-')
                    break;
                e = mk(DBX_NEG, 1);
                node *k[1] = {a->rexpr};
                return conv_kids(c, e, k);
            }
            if ((e = mk(DBX_ARITH, 2)))
                e->op = op[0];
            node *k[2] = {a->lexpr, a->rexpr};
            return conv_kids(c, e, k);
        }
        if (!strcmp(op, "~~") || !strcmp(op, "!~~"))
            goto like;
        if (!strcmp(op, "||")) {
            unsupported(c->q, "string concatenation");
            return NULL;
        }
        break;
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_LIKE:
    like:
        if ((e = mk(DBX_LIKE, 2)))
            e->negated = op[0] == '!';
        {
            node *k[2] = {a->lexpr, a->rexpr};
            e = conv_kids(c, e, k);
        }
        if (e && e->kids[1]->kind != DBX_TEXT && e->kids[1]->kind != DBX_PARAM) {
            unsupported(c->q, "LIKE pattern that is not a literal or parameter");
            sexpr_free(e);
            return NULL;
        }
        return e;
    case PG_QUERY__A__EXPR__KIND__AEXPR_IN: {
        if (!a->rexpr || a->rexpr->node_case != PG_QUERY__NODE__NODE_LIST) {
            unsupported(c->q, "IN (subquery)");
            return NULL;
        }
        PgQuery__List *l = a->rexpr->list;
        if (!(e = mk(DBX_IN, 1 + (int)l->n_items)))
            return NULL;
        e->negated = !strcmp(op, "<>");
        if (!(e->kids[0] = conv_expr(c, a->lexpr))) {
            sexpr_free(e);
            return NULL;
        }
        for (size_t i = 0; i < l->n_items; i++)
            if (!(e->kids[1 + i] = conv_expr(c, l->items[i]))) {
                sexpr_free(e);
                return NULL;
            }
        return e;
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_BETWEEN:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN: {
        if (!a->rexpr || a->rexpr->node_case != PG_QUERY__NODE__NODE_LIST || a->rexpr->list->n_items != 2)
            break;
        if ((e = mk(DBX_BETWEEN, 3)))
            e->negated = a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN;
        node *k[3] = {a->lexpr, a->rexpr->list->items[0], a->rexpr->list->items[1]};
        return conv_kids(c, e, k);
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP_ANY:
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP_ALL:
        return conv_any(c, a, a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_OP_ALL);
    case PG_QUERY__A__EXPR__KIND__AEXPR_ILIKE:
        unsupported(c->q, "ILIKE");
        return NULL;
    case PG_QUERY__A__EXPR__KIND__AEXPR_SIMILAR:
        unsupported(c->q, "SIMILAR TO / GLOB / REGEXP");
        return NULL;
    case PG_QUERY__A__EXPR__KIND__AEXPR_DISTINCT:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_DISTINCT:
        unsupported(c->q, "IS [NOT] DISTINCT FROM");
        return NULL;
    default:
        break;
    }
    unsupported(c->q, "operator");
    return NULL;
}

static db_sexpr *conv_expr(conv *c, node *n)
{
    if (!n) {
        unsupported(c->q, "missing operand");
        return NULL;
    }
    db_sexpr *e;
    switch (n->node_case) {
    case PG_QUERY__NODE__NODE_COLUMN_REF:
        return conv_column(c, n->column_ref);
    case PG_QUERY__NODE__NODE_A_CONST:
        return conv_const(c, n->a_const);
    case PG_QUERY__NODE__NODE_PARAM_REF:
        if ((e = mk(DBX_PARAM, 0)))
            e->param = n->param_ref->number;
        if (e && e->param > c->q->nparams)
            c->q->nparams = e->param;
        return e;
    case PG_QUERY__NODE__NODE_A_EXPR:
        return conv_aexpr(c, n->a_expr);
    case PG_QUERY__NODE__NODE_BOOL_EXPR: {
        PgQuery__BoolExpr *b = n->bool_expr;
        db_xkind k = b->boolop == PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR  ? DBX_AND
                     : b->boolop == PG_QUERY__BOOL_EXPR_TYPE__OR_EXPR ? DBX_OR
                                                                      : DBX_NOT;
        if (k == DBX_NOT && b->n_args != 1)
            break;
        return conv_kids(c, mk(k, (int)b->n_args), b->args);
    }
    case PG_QUERY__NODE__NODE_NULL_TEST:
        if ((e = mk(DBX_ISNULL, 1)))
            e->negated = n->null_test->nulltesttype == PG_QUERY__NULL_TEST_TYPE__IS_NOT_NULL;
        return conv_kids(c, e, &n->null_test->arg);
    case PG_QUERY__NODE__NODE_FUNC_CALL: {
        PgQuery__FuncCall *fc = n->func_call;
        node *fn = fc->n_funcname ? fc->funcname[fc->n_funcname - 1] : NULL;
        if (fn && fn->node_case == PG_QUERY__NODE__NODE_STRING && !strcasecmp(fn->string->sval, "length") &&
            fc->n_args == 1 && !fc->agg_star && !fc->agg_distinct && !fc->over && !fc->agg_filter)
            return conv_kids(c, mk(DBX_LENGTH, 1), fc->args);
        unsupported(c->q, "function call");
        return NULL;
    }
    case PG_QUERY__NODE__NODE_SUB_LINK:
        unsupported(c->q, "subquery");
        return NULL;
    case PG_QUERY__NODE__NODE_TYPE_CAST:
        return conv_cast(c, n->type_cast);
    case PG_QUERY__NODE__NODE_CASE_EXPR:
        unsupported(c->q, "CASE");
        return NULL;
    default:
        break;
    }
    unsupported(c->q, "expression kind");
    return NULL;
}

/* Byte offset of the first FROM keyword at parenthesis depth 0, outside quotes and comments. */
static size_t find_from(const char *sql, size_t len)
{
    int depth = 0;
    for (size_t i = 0; i < len;) {
        size_t q = quoted_len(sql + i, len - i);
        if (!q)
            q = comment_len(sql + i, len - i);
        if (q) {
            i += q;
            continue;
        }
        if (sql[i] == '(')
            depth++;
        else if (sql[i] == ')')
            depth--;
        else if (!depth && len - i >= 4 && !strncasecmp(sql + i, "from", 4) &&
                 (i == 0 || !ident_char((unsigned char)sql[i - 1])) &&
                 (i + 4 == len || !ident_char((unsigned char)sql[i + 4])))
            return i;
        i++;
    }
    return (size_t)-1;
}

/* The table a DML statement or a FROM item names, -1 when it is not one table of the schema. */
static int range_table(const db_schema *s, db_query *q, PgQuery__RangeVar *rv)
{
    if (!rv) {
        unsupported(q, "FROM item kind");
        return -1;
    }
    int t = db_table_index(s, rv->relname);
    if (t < 0)
        unsupported(q, "unknown table");
    else if (s->tables[t].without_rowid)
        unsupported(q, "WITHOUT ROWID table");
    return t;
}

/* Add a condition to the WHERE tree with AND (takes ownership of e). */
static void and_where(db_query *q, db_sexpr *e)
{
    if (!q->where) {
        q->where = e;
        return;
    }
    db_sexpr *a = mk(DBX_AND, 2);
    if (!a) {
        sexpr_free(e);
        unsupported(q, "out of memory");
        return;
    }
    a->kids[0] = q->where;
    a->kids[1] = e;
    q->where = a;
}

/*
 * The FROM items of a SELECT: tables (with their alias) and inner joins, whose ON
 * conditions are collected in `quals` to be converted once every item is known.
 */
static void collect_from(const db_schema *s, db_query *q, node *n, node **quals, int *nquals)
{
    if (n->node_case == PG_QUERY__NODE__NODE_RANGE_VAR) {
        PgQuery__RangeVar *rv = n->range_var;
        if (q->nfrom == DB_MAX_FROM) {
            unsupported(q, "join of more than 3 tables");
            return;
        }
        int t = range_table(s, q, rv);
        if (t < 0)
            return;
        const char *name = rv->alias && rv->alias->aliasname[0] ? rv->alias->aliasname : rv->relname;
        if (from_item(q, name) >= 0) {
            unsupported(q, "table named twice without alias");
            return;
        }
        q->from_table[q->nfrom] = t;
        if (!(q->from_name[q->nfrom] = strdup(name))) {
            unsupported(q, "out of memory");
            return;
        }
        q->nfrom++;
    } else if (n->node_case == PG_QUERY__NODE__NODE_JOIN_EXPR) {
        PgQuery__JoinExpr *j = n->join_expr;
        if (j->jointype != PG_QUERY__JOIN_TYPE__JOIN_INNER) {
            unsupported(q, "outer join");
            return;
        }
        if (j->is_natural || j->n_using_clause) {
            unsupported(q, "NATURAL JOIN / USING");
            return;
        }
        collect_from(s, q, j->larg, quals, nquals);
        collect_from(s, q, j->rarg, quals, nquals);
        if (j->quals && *nquals < 8)
            quals[(*nquals)++] = j->quals;
    } else {
        unsupported(q, "FROM item kind");
    }
}

static int push_result_agg(db_query *q, int from, int col, int agg)
{
    int *f = realloc(q->result_from, (size_t)(q->nresult + 1) * sizeof *f);
    if (f)
        q->result_from = f;
    int *c = f ? realloc(q->result_col, (size_t)(q->nresult + 1) * sizeof *c) : NULL;
    if (c)
        q->result_col = c;
    int *a = c ? realloc(q->result_agg, (size_t)(q->nresult + 1) * sizeof *a) : NULL;
    if (!a) {
        unsupported(q, "out of memory");
        return -1;
    }
    q->result_agg = a;
    q->result_from[q->nresult] = from;
    q->result_col[q->nresult] = col;
    q->result_agg[q->nresult++] = agg;
    return 0;
}

static int push_result(db_query *q, int from, int col) { return push_result_agg(q, from, col, DB_AGG_NONE); }

/* COUNT(*), COUNT(col), SUM(col), MIN(col), MAX(col): pushed as a result column; 0, or -1
 * (with the construct named) for other functions and forms. */
static int conv_aggregate(conv *c, PgQuery__FuncCall *fc)
{
    db_query *q = c->q;
    static const char *names[] = {"count", "sum", "min", "max"};
    int agg = DB_AGG_NONE;
    if (fc->n_funcname == 1 && fc->funcname[0]->node_case == PG_QUERY__NODE__NODE_STRING)
        for (int i = 0; i < 4; i++)
            if (!strcasecmp(fc->funcname[0]->string->sval, names[i]))
                agg = DB_AGG_COUNT + i;
    if (!agg || fc->agg_distinct || fc->agg_filter || fc->over || fc->n_agg_order) {
        unsupported(q, "aggregate or function in the result");
        return -1;
    }
    if (fc->agg_star && agg == DB_AGG_COUNT)
        return push_result_agg(q, 0, -1, agg);
    if (fc->n_args != 1 || fc->args[0]->node_case != PG_QUERY__NODE__NODE_COLUMN_REF) {
        unsupported(q, "aggregate of an expression");
        return -1;
    }
    db_sexpr *col = conv_column(c, fc->args[0]->column_ref);
    if (!col)
        return -1;
    int rc = push_result_agg(q, col->from, col->column, agg);
    sexpr_free(col);
    return rc;
}

static void conv_select(const db_schema *s, db_query *q, PgQuery__SelectStmt *sel, const char *sql, size_t len)
{
    q->kind = DBQ_SELECT;
    if (sel->op != PG_QUERY__SET_OPERATION__SETOP_NONE) {
        unsupported(q, "UNION/INTERSECT/EXCEPT");
        return;
    }
    if (sel->n_values_lists) {
        unsupported(q, "VALUES");
        return;
    }
    if (sel->with_clause)
        unsupported(q, "WITH");
    if (sel->n_distinct_clause)
        unsupported(q, "DISTINCT");
    if (sel->n_group_clause || sel->having_clause)
        unsupported(q, "GROUP BY/HAVING");
    q->limit = -1;
    if (sel->limit_offset)
        unsupported(q, "LIMIT/OFFSET");
    else if (sel->limit_count) {
        /* a literal LIMIT of one table without ORDER BY: the first rows in scan (slot) order */
        node *l = sel->limit_count;
        if (l->node_case == PG_QUERY__NODE__NODE_A_CONST && l->a_const->val_case == PG_QUERY__A__CONST__VAL_IVAL &&
            l->a_const->ival->ival >= 0 && !sel->n_sort_clause && sel->n_from_clause == 1 &&
            sel->from_clause[0]->node_case == PG_QUERY__NODE__NODE_RANGE_VAR)
            q->limit = l->a_const->ival->ival;
        else
            unsupported(q, "LIMIT/OFFSET");
    }
    if (!sel->n_from_clause) {
        unsupported(q, "SELECT without FROM");
        return;
    }
    node *quals[8];
    int nquals = 0;
    for (size_t i = 0; i < sel->n_from_clause; i++)
        collect_from(s, q, sel->from_clause[i], quals, &nquals);
    if (!q->nfrom)
        return;
    q->table = q->from_table[0];
    conv c = {s, q};
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
                    (only = from_item(q, r->fields[0]->string->sval)) < 0) {
                    unsupported(q, "column of a table not in FROM");
                    continue;
                }
                for (int f = 0; f < q->nfrom; f++)
                    if (only < 0 || f == only)
                        for (int k = 0; k < s->tables[q->from_table[f]].ncols; k++)
                            push_result(q, f, k);
            } else {
                db_sexpr *col = conv_column(&c, r);
                if (col) {
                    push_result(q, col->from, col->column);
                    sexpr_free(col);
                }
            }
        } else if (v && v->node_case == PG_QUERY__NODE__NODE_FUNC_CALL) {
            conv_aggregate(&c, v->func_call);
        } else {
            unsupported(q, "expression in the result");
        }
    }
    for (int i = 0; i < nquals; i++) {
        db_sexpr *e = conv_expr(&c, quals[i]);
        if (e)
            and_where(q, e);
        else
            unsupported(q, "ON clause");
    }
    if (sel->where_clause) {
        db_sexpr *e = conv_expr(&c, sel->where_clause);
        if (e)
            and_where(q, e);
        else
            unsupported(q, "WHERE clause");
    }
    int naggs = 0;
    for (int i = 0; i < q->nresult; i++)
        naggs += q->result_agg[i] != DB_AGG_NONE;
    if (naggs && naggs != q->nresult)
        unsupported(q, "aggregates beside plain columns without GROUP BY");
    q->aggregate = naggs && naggs == q->nresult;
    if (q->aggregate && q->limit >= 0)
        unsupported(q, "LIMIT/OFFSET");
    /* ORDER BY does not change which rows are returned; plain-column keys let the
     * runtime keep the order the program saw (db_order_le) */
    for (size_t i = 0; i < sel->n_sort_clause; i++) {
        node *sn = sel->sort_clause[i];
        if (sn->node_case != PG_QUERY__NODE__NODE_SORT_BY || i >= 4 || !sn->sort_by->node ||
            sn->sort_by->node->node_case != PG_QUERY__NODE__NODE_COLUMN_REF) {
            q->norder = 0;
            break;
        }
        int nu = q->nunsupported;
        bool und = q->understood;
        db_sexpr *col = conv_column(&c, sn->sort_by->node->column_ref);
        q->nunsupported = nu, q->understood = und; /* an unknown sort key is not an error here */
        if (!col) {
            q->norder = 0;
            break;
        }
        PgQuery__SortBy *sb = sn->sort_by;
        q->order_from[q->norder] = col->from;
        q->order_col[q->norder] = col->column;
        q->order_desc[q->norder] = sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC;
        /* SQLite: NULLs first ascending, last descending, unless said otherwise */
        q->order_nulls_last[q->norder] = sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_LAST ||
                                         (sb->sortby_nulls != PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST &&
                                          sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC);
        q->order_nulls_default[q->norder] = sb->sortby_nulls != PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_LAST &&
                                            sb->sortby_nulls != PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST;
        q->norder++;
        sexpr_free(col);
    }
    q->from_at = find_from(sql, len);
    if (q->from_at == (size_t)-1)
        unsupported(q, "FROM keyword not found");
}

/* UPDATE t SET col = value, ... WHERE ... / DELETE FROM t WHERE ...: the table as the one
 * FROM item, the WHERE clause, the assignments. Leaves nfrom 0 when not understood. */
static void conv_dml(const db_schema *s, db_query *q, PgQuery__RangeVar *rv, node *where, node **targets,
                     size_t ntargets)
{
    const char *name = rv->alias && rv->alias->aliasname[0] ? rv->alias->aliasname : rv->relname;
    if (!(q->from_name[0] = strdup(name)))
        return;
    q->from_table[0] = q->table;
    q->nfrom = 1;
    conv c = {s, q};
    if (where && !(q->where = conv_expr(&c, where)))
        unsupported(q, "WHERE clause");
    if (ntargets) {
        q->set_col = calloc(ntargets, sizeof *q->set_col);
        q->set_val = calloc(ntargets, sizeof *q->set_val);
        if (!q->set_col || !q->set_val) {
            unsupported(q, "out of memory");
            return;
        }
    }
    for (size_t i = 0; i < ntargets; i++) {
        node *tn = targets[i];
        if (tn->node_case != PG_QUERY__NODE__NODE_RES_TARGET || tn->res_target->n_indirection) {
            unsupported(q, "SET form");
            return;
        }
        int col = db_column_index(&s->tables[q->table], tn->res_target->name);
        db_sexpr *v = col >= 0 ? conv_expr(&c, tn->res_target->val) : NULL;
        if (!v) {
            unsupported(q, col < 0 ? "unknown column or rowid" : "SET value");
            return;
        }
        q->set_col[q->nset] = col;
        q->set_val[q->nset++] = v;
    }
}

/* INSERT INTO t [(cols)] VALUES (one row): which columns get which values, so that the
 * row can be read back with its expressions. Anything else leaves ninsert at 0. */
static void conv_insert(const db_schema *s, db_query *q, PgQuery__InsertStmt *ins)
{
    node *sel = ins->select_stmt;
    if (!sel || sel->node_case != PG_QUERY__NODE__NODE_SELECT_STMT || sel->select_stmt->n_values_lists != 1 ||
        ins->on_conflict_clause || ins->n_returning_list)
        return;
    node *row = sel->select_stmt->values_lists[0];
    if (row->node_case != PG_QUERY__NODE__NODE_LIST)
        return;
    const db_table *t = &s->tables[q->table];
    size_t n = row->list->n_items;
    if ((ins->n_cols ? ins->n_cols : (size_t)t->ncols) != n)
        return;
    int *cols = calloc(n ? n : 1, sizeof *cols);
    db_sexpr **vals = calloc(n ? n : 1, sizeof *vals);
    if (!cols || !vals) {
        free(cols), free(vals);
        return;
    }
    db_query probe = {0}; /* values have no FROM items: a column reference fails */
    conv c = {s, &probe};
    size_t i;
    for (i = 0; i < n; i++) {
        if (ins->n_cols) {
            node *cn = ins->cols[i];
            cols[i] = cn->node_case == PG_QUERY__NODE__NODE_RES_TARGET ? db_column_index(t, cn->res_target->name) : -1;
        } else {
            cols[i] = (int)i;
        }
        if (cols[i] < 0 || !(vals[i] = conv_expr(&c, row->list->items[i])))
            break;
    }
    if (probe.nparams > q->nparams)
        q->nparams = probe.nparams;
    if (i < n) {
        for (size_t k = 0; k < n; k++)
            sexpr_free(vals[k]);
        free(cols), free(vals);
        return;
    }
    q->ninsert = (int)n;
    q->insert_col = cols;
    q->insert_val = vals;
}

int db_query_parse(const db_schema *s, const char *sql, size_t len, db_query **out, char **err)
{
    *out = NULL;
    *err = NULL;
    int np = 0;
    char *pg = db_sql_params_to_pg(sql, len, &np);
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
    if (r.error) {
        if (asprintf(err, "%s (at byte %d)", r.error->message, r.error->cursorpos) < 0)
            *err = NULL;
        pg_query_free_protobuf_parse_result(r);
        free(pg), free(q);
        return -1;
    }
    PgQuery__ParseResult *tree = pg_query__parse_result__unpack(NULL, r.parse_tree.len, (const uint8_t *)r.parse_tree.data);
    if (!tree || tree->n_stmts < 1 || !tree->stmts[0]->stmt) {
        q->kind = DBQ_OTHER;
        unsupported(q, "empty statement");
    } else {
        node *st = tree->stmts[0]->stmt;
        switch (st->node_case) {
        case PG_QUERY__NODE__NODE_SELECT_STMT:
            conv_select(s, q, st->select_stmt, sql, len);
            break;
        case PG_QUERY__NODE__NODE_INSERT_STMT:
            q->kind = DBQ_INSERT;
            q->table = range_table(s, q, st->insert_stmt->relation);
            if (q->table >= 0)
                conv_insert(s, q, st->insert_stmt);
            break;
        case PG_QUERY__NODE__NODE_UPDATE_STMT: {
            PgQuery__UpdateStmt *u = st->update_stmt;
            q->kind = DBQ_UPDATE;
            q->table = range_table(s, q, u->relation);
            if (q->table >= 0 && !u->n_from_clause && !u->n_returning_list && !u->with_clause)
                conv_dml(s, q, u->relation, u->where_clause, u->target_list, u->n_target_list);
            break;
        }
        case PG_QUERY__NODE__NODE_DELETE_STMT: {
            PgQuery__DeleteStmt *d = st->delete_stmt;
            q->kind = DBQ_DELETE;
            q->table = range_table(s, q, d->relation);
            if (q->table >= 0 && !d->n_using_clause && !d->n_returning_list && !d->with_clause)
                conv_dml(s, q, d->relation, d->where_clause, NULL, 0);
            break;
        }
        default:
            q->kind = DBQ_OTHER;
            break;
        }
        /* SELECTs become row events, understood UPDATE/DELETEs change the rows' expressions;
         * everything else runs concretely (a table it changes is concrete from then on) */
        if (q->kind != DBQ_SELECT && !(q->kind == DBQ_UPDATE || q->kind == DBQ_DELETE))
            q->understood = false;
        if ((q->kind == DBQ_UPDATE || q->kind == DBQ_DELETE) && q->nfrom != 1)
            q->understood = false;
    }
    if (np > q->nparams)
        q->nparams = np;
    if (tree)
        pg_query__parse_result__free_unpacked(tree, NULL);
    pg_query_free_protobuf_parse_result(r);
    free(pg);
    *out = q;
    return 0;
}

char *db_query_with_rowid(const db_query *q, const char *sql, size_t len)
{
    return db_query_with_hidden(q, sql, len, "rowid");
}

char *db_query_with_hidden(const db_query *q, const char *sql, size_t len, const char *column)
{
    if (q->from_at > len)
        return NULL;
    size_t extra = 0;
    for (int f = 0; f < q->nfrom; f++)
        extra += 2 * strlen(q->from_name[f]) + strlen(column) + 16;
    char *out = malloc(len + extra + 2);
    if (!out)
        return NULL;
    memcpy(out, sql, q->from_at);
    size_t o = q->from_at;
    for (int f = 0; f < q->nfrom; f++) { /* , "name".rowid (quotes doubled) */
        o += (size_t)sprintf(out + o, ", \"");
        for (const char *p = q->from_name[f]; *p; p++) {
            if (*p == '"')
                out[o++] = '"';
            out[o++] = *p;
        }
        o += (size_t)sprintf(out + o, "\".%s", column);
    }
    out[o++] = ' ';
    memcpy(out + o, sql + q->from_at, len - q->from_at);
    out[o + len - q->from_at] = 0;
    return out;
}
