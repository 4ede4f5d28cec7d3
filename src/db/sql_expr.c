/* sql_expr.c: expressions of libpg_query's parse tree (columns, literals, casts, operators, IN/ANY) as db_sexpr trees. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include "db.h"
#include "sql_int.h"

void db_query_concrete_part(db_query *q, const char *kind)
{
    for (int i = 0; i < q->nunsupported; i++)
        if (!strcmp(q->unsupported[i], kind)) return;
    if (q->nunsupported < DB_MAX_UNSUPPORTED) q->unsupported[q->nunsupported++] = kind;
}

void db_sql_unsupported(db_query *q, const char *kind)
{
    q->understood = false;
    db_query_concrete_part(q, kind);
}

static void sexpr_free(db_sexpr *e)
{
    if (!e) return;
    for (int i = 0; i < e->nkids; i++) sexpr_free(e->kids[i]);
    free(e->kids);
    free(e->text);
    free(e);
}

void db_sexpr_free(db_sexpr *e) { sexpr_free(e); }

bool db_sexpr_equal(const db_sexpr *a, const db_sexpr *b)
{
    if (!a || !b) return a == b;
    if (a->kind != b->kind || a->op != b->op || a->negated != b->negated || a->from != b->from ||
        a->column != b->column || a->param != b->param || a->ival != b->ival || a->rval != b->rval ||
        a->nkids != b->nkids || !a->text != !b->text || (a->text && strcmp(a->text, b->text)))
        return false;
    for (int i = 0; i < a->nkids; i++)
        if (!db_sexpr_equal(a->kids[i], b->kids[i])) return false;
    return true;
}

db_sexpr *db_sexpr_copy(const db_sexpr *e)
{
    if (!e) return NULL;
    db_sexpr *c = malloc(sizeof *c);
    if (!c) return NULL;
    *c = *e;
    c->text = NULL;
    c->kids = NULL;
    c->nkids = 0;
    if ((e->text && !(c->text = strdup(e->text))) ||
        (e->nkids && !(c->kids = calloc((size_t)e->nkids, sizeof *c->kids)))) {
        sexpr_free(c);
        return NULL;
    }
    for (c->nkids = 0; c->nkids < e->nkids; c->nkids++)
        if (e->kids[c->nkids] && !(c->kids[c->nkids] = db_sexpr_copy(e->kids[c->nkids]))) {
            sexpr_free(c);
            return NULL;
        }
    return c;
}

bool db_sexpr_columns_all(const db_sexpr *e, bool (*ok)(const void *arg, int from, int column), const void *arg)
{
    if (!e) return true;
    if (e->kind == DBX_COLUMN && !ok(arg, e->from, e->column)) return false;
    for (int i = 0; i < e->nkids; i++)
        if (!db_sexpr_columns_all(e->kids[i], ok, arg)) return false;
    return true;
}

bool db_sexpr_has(const db_sexpr *e, db_xkind k)
{
    if (!e) return false;
    if (e->kind == k) return true;
    for (int i = 0; i < e->nkids; i++)
        if (db_sexpr_has(e->kids[i], k)) return true;
    return false;
}

db_sexpr *db_sql_mk(db_xkind k, int nkids)
{
    db_sexpr *e = calloc(1, sizeof *e);
    if (!e) return NULL;
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

/* The operator name of an A_Expr ("=", "<", "~~", ...), or "". */
static const char *op_name(PgQuery__AExpr *a)
{
    if (a->n_name != 1 || a->name[0]->node_case != PG_QUERY__NODE__NODE_STRING) return "";
    return a->name[0]->string->sval;
}

static db_sexpr *conv_kids(conv *c, db_sexpr *e, node **kids)
{
    if (!e) return NULL;
    for (int i = 0; i < e->nkids; i++)
        if (!(e->kids[i] = db_sql_conv_expr(c, kids[i]))) {
            sexpr_free(e);
            return NULL;
        }
    return e;
}

/* A comparison (CMP, BETWEEN, IN) of a DATE/TIME column with a text literal that looks like a
 * number: SQLite gives the literal the column's NUMERIC affinity, so it compares as a number (below
 * every text), not as the text the translation would compare. Marks it unsupported and frees e.
 * Parameters in such a comparison are noted in q->date_param (their values are checked later), a
 * literal that is not an ISO-8601 text of the column's kind in q->date_loose_literal. */
static db_sexpr *date_guard(conv *c, db_sexpr *e)
{
    if (!e) return NULL;
    db_date_kind date = DB_DATE_NONE;
    bool num = false;
    for (int i = 0; i < e->nkids; i++) {
        const db_sexpr *k = e->kids[i];
        if (k->kind == DBX_COLUMN && k->from >= 0 && k->from < c->q->nfrom && !date)
            date = c->s->tables[c->q->from_table[k->from]].cols[k->column].date;
        if (k->kind == DBX_FUNC && k->op == DBF_STRFTIME && k->ival == 1 && !date) /* date_trunc: a timestamp */
            date = DB_DATE_DATETIME;
        if (k->kind == DBX_FUNC && k->op == DBF_DATE_ADD && k->ival == 1 && !date) /* PostgreSQL's date + n */
            date = DB_DATE_DATE;
    }
    for (int i = 0; date && i < e->nkids; i++) {
        db_sexpr *k = e->kids[i];
        if (k->kind == DBX_PARAM && k->param >= 1 && k->param <= 64) /* checked on their values (translate.c) */
            c->q->date_param[k->param - 1] = (uint8_t)date;
        if (k->kind == DBX_TEXT) {
            num = num || db_text_is_number(k->text);
            /* a date compared with a timestamp: PostgreSQL reads it at midnight (translate.c), SQLite as text */
            bool midnight = date == DB_DATE_DATETIME && db_date_text_valid(DB_DATE_DATE, k->text);
            if (midnight) k->ival = DBX_TEXT_PG_MIDNIGHT;
            c->q->date_loose_literal = c->q->date_loose_literal || (!midnight && !db_date_text_valid(date, k->text));
        }
    }
    if (!date || !num) return e;
    db_sql_unsupported(c->q, "number-like text compared with a DATE column");
    sexpr_free(e);
    return NULL;
}

/* The date kind of column expression e (DB_DATE_NONE when e is no column of a date column). */
static db_date_kind column_date(const conv *c, const db_sexpr *e)
{
    if (!e || e->kind != DBX_COLUMN || e->from < 0) return DB_DATE_NONE;
    int t = e->from < c->q->nfrom                                          ? c->q->from_table[e->from]
            : e->from >= DB_MAX_FROM && e->from < DB_MAX_FROM + c->q->nsub ? c->q->sub_table[e->from - DB_MAX_FROM]
                                                                           : -1;
    return t < 0 ? DB_DATE_NONE : c->s->tables[t].cols[e->column].date;
}

/* A DATE column, a text literal that is a valid date ('2024-01-01', CURRENT_DATE), a parameter cast to a date
 * or PostgreSQL's date + n: an operand of PostgreSQL's date - date and date + integer. */
static bool date_operand(const conv *c, const db_sexpr *e)
{
    return column_date(c, e) == DB_DATE_DATE || (e->kind == DBX_TEXT && db_date_text_valid(DB_DATE_DATE, e->text)) ||
           (e->kind == DBX_FUNC && e->op == DBF_DATE_ADD && e->ival == 1) ||
           (e->kind == DBX_PARAM && e->ival == DBX_PARAM_DATE);
}

/* PostgreSQL's EXTRACT(field FROM c) (pg_catalog.extract) and date_part('field', c) of a DATE or
 * TIMESTAMP column, for the fields db_date_field models: a DBF_DATE_PART node; sets q->pg_dates.
 * NULL (nothing reported) otherwise. */
static db_sexpr *conv_date_part(conv *c, const PgQuery__FuncCall *fc)
{
    const node *f = fc->n_args == 2 ? fc->args[0] : NULL;
    if (!f || f->node_case != PG_QUERY__NODE__NODE_A_CONST || f->a_const->isnull ||
        f->a_const->val_case != PG_QUERY__A__CONST__VAL_SVAL || !db_date_field_ok(f->a_const->sval->sval))
        return NULL;
    db_sexpr *col = db_sql_conv_expr(c, fc->args[1]);
    db_date_kind k = column_date(c, col);
    const char *fn = f->a_const->sval->sval; /* EXTRACT(hour FROM a date) is an error in PostgreSQL 14+ */
    bool timed = !strcasecmp(fn, "hour") || !strcasecmp(fn, "minute");
    db_sexpr *e = k == DB_DATE_DATETIME || (k == DB_DATE_DATE && !timed) ? db_sql_mk(DBX_FUNC, 2) : NULL;
    db_sexpr *name = e ? db_sql_mk(DBX_TEXT, 0) : NULL;
    if (!e || !name || !(name->text = strdup(f->a_const->sval->sval))) {
        sexpr_free(col), sexpr_free(e), sexpr_free(name);
        return NULL;
    }
    e->op = DBF_DATE_PART;
    e->kids[0] = name, e->kids[1] = col;
    c->q->pg_dates = true;
    return e;
}

/*
 * PostgreSQL's date_trunc('year'|'month'|'day'|'hour'|'minute'|'second', c) of a DATE or TIMESTAMP
 * column: the timestamp's text with the fields below the unit reset, which is strftime of the
 * column's canonical datetime with constants in their place ('%Y-%m-01 00:00:00' for month): a
 * DBF_STRFTIME node with ival 1 (a timestamp, for date_guard); sets q->pg_dates. NULL (nothing
 * reported) otherwise. (date_trunc of a DATE is a timestamptz, printed with '+00' in the runs'
 * sessions: the same text before it, db_pq_values.c.)
 */
/* PostgreSQL's strftime-like functions of the DATE or TIMESTAMP column `arg`: a DBF_STRFTIME node of fmt (ival 1:
 * a timestamp, date_trunc's), sets q->pg_dates; NULL (nothing reported) for another argument. */
static db_sexpr *pg_strftime(conv *c, node *arg, const char *fmt, int ival)
{
    db_sexpr *col = db_sql_conv_expr(c, arg);
    db_date_kind k = column_date(c, col);
    db_sexpr *e = k == DB_DATE_DATE || k == DB_DATE_DATETIME ? db_sql_mk(DBX_FUNC, 2) : NULL;
    db_sexpr *f = e ? db_sql_mk(DBX_TEXT, 0) : NULL;
    if (!e || !f || !(f->text = strdup(fmt))) {
        sexpr_free(col), sexpr_free(e), sexpr_free(f);
        return NULL;
    }
    e->op = DBF_STRFTIME;
    e->ival = ival;
    e->kids[0] = f, e->kids[1] = col;
    c->q->pg_dates = true;
    return e;
}

static db_sexpr *conv_date_trunc(conv *c, const PgQuery__FuncCall *fc)
{
    static const struct {
        const char *unit, *fmt;
    } units[] = {{"year", "%Y-01-01 00:00:00"}, {"month", "%Y-%m-01 00:00:00"},  {"day", "%Y-%m-%d 00:00:00"},
                 {"hour", "%Y-%m-%d %H:00:00"}, {"minute", "%Y-%m-%d %H:%M:00"}, {"second", "%Y-%m-%d %H:%M:%S"}};
    const node *u = fc->n_args == 2 ? fc->args[0] : NULL;
    const char *fmt = NULL;
    if (u && u->node_case == PG_QUERY__NODE__NODE_A_CONST && !u->a_const->isnull &&
        u->a_const->val_case == PG_QUERY__A__CONST__VAL_SVAL)
        for (size_t i = 0; i < sizeof units / sizeof *units; i++)
            if (!strcasecmp(u->a_const->sval->sval, units[i].unit)) fmt = units[i].fmt;
    return fmt ? pg_strftime(c, fc->args[1], fmt, 1) : NULL;
}

/*
 * PostgreSQL's to_char(c, pattern) of a DATE or TIMESTAMP column with the patterns YYYY, MM, DD, HH24, MI
 * and SS and other characters kept as they are ('YYYY-MM', 'DD/MM/YYYY HH24:MI'): the same DBF_STRFTIME
 * node as strftime() with the pattern in strftime's words. NULL (nothing reported) for other patterns
 * (month names, 12-hour clocks, FM...) and arguments.
 */
static const char *literal_text(const node *n, const char **type);

static db_sexpr *conv_to_char(conv *c, const PgQuery__FuncCall *fc)
{
    const char *ty, *pat = fc->n_args == 2 ? literal_text(fc->args[1], &ty) : NULL;
    if (!pat || strlen(pat) > 60) return NULL;
    static const struct {
        const char *pg, *fmt;
    } words[] = {{"YYYY", "%Y"}, {"HH24", "%H"}, {"MM", "%m"}, {"DD", "%d"}, {"MI", "%M"}, {"SS", "%S"}};
    char fmt[160] = "";
    for (const char *p = pat; *p;) {
        size_t i = 0;
        while (i < sizeof words / sizeof *words && strncmp(p, words[i].pg, strlen(words[i].pg))) i++;
        if (i < sizeof words / sizeof *words) {
            strcat(fmt, words[i].fmt);
            p += strlen(words[i].pg);
        } else if (isalpha((unsigned char)*p) || *p == '%' || *p == '"' || *p == '\\') {
            return NULL;
        } else {
            size_t n = strlen(fmt);
            fmt[n] = *p++, fmt[n + 1] = 0;
        }
    }
    return db_date_format_len(fmt) < 0 ? NULL : pg_strftime(c, fc->args[0], fmt, 0);
}

/*
 * SQLite's date(c), datetime(c), strftime(format, c) and julianday(c) of a DATE or
 * DATETIME column c, a bound parameter or a date literal, without modifiers: a DBX_FUNC (DBF_STRFTIME with the format as kids[0], or
 * DBF_JULIANDAY), translated by db_date_format / db_julianday (date.c). NULL (nothing reported:
 * the caller names "date function") for other arguments and formats; sets q->sqlite_dates.
 */
/* The days of a modifier '+N days' / '-1 day' (|N| < 300000: from a year >= 1000 the result stays >= 178, a
 * year SQLite prints with 4 digits) into *n; false for any other text. */
static bool day_modifier(const char *m, int64_t *n)
{
    char unit[8], end;
    long v;
    m += strspn(m, " ");
    if ((*m != '+' && *m != '-' && !isdigit((unsigned char)*m)) || sscanf(m, "%ld %7s %c", &v, unit, &end) != 2 ||
        (strcasecmp(unit, "day") && strcasecmp(unit, "days")) || v <= -300000 || v >= 300000)
        return false;
    *n = v;
    return true;
}

/* With db_schema.infer_dates, a TEXT column e (of a FROM item or a subquery's table) passed to a date function
 * wanting kind `want`: named in q->date_infer and taken for that kind (DB_DATE_NONE otherwise). */
static db_date_kind infer_date(conv *c, const db_sexpr *e, db_date_kind want)
{
    if (!c->s->infer_dates || !e || e->kind != DBX_COLUMN || e->from < 0) return DB_DATE_NONE;
    int t = e->from < c->q->nfrom                                          ? c->q->from_table[e->from]
            : e->from >= DB_MAX_FROM && e->from < DB_MAX_FROM + c->q->nsub ? c->q->sub_table[e->from - DB_MAX_FROM]
                                                                           : -1;
    if (t < 0 || c->s->tables[t].cols[e->column].aff != DB_AFF_TEXT || c->s->tables[t].cols[e->column].date)
        return DB_DATE_NONE;
    db_query *q = c->q;
    for (int i = 0; i < q->ndate_infer; i++)
        if (q->date_infer_table[i] == t && q->date_infer_col[i] == e->column) {
            if (want == DB_DATE_DATETIME) q->date_infer_kind[i] = want;
            return q->date_infer_kind[i];
        }
    if (q->ndate_infer >= 4) return DB_DATE_NONE;
    q->date_infer_table[q->ndate_infer] = t, q->date_infer_col[q->ndate_infer] = e->column;
    q->date_infer_kind[q->ndate_infer++] = want;
    return want;
}

/* A text literal node whose value is t. */
static bool is_text_const(const node *n, const char *t)
{
    const char *type, *v = literal_text(n, &type);
    return v && !strcmp(v, t);
}

/* A modifier built from a number: `X || ' days'`, `'+' || X || ' days'`, `'-' || X || ' day'`, as programs add a
 * column of days to a date. X's node into *x, *neg for the '-'; false for anything else. */
static bool day_modifier_expr(const node *m, const node **x, bool *neg)
{
    if (!m || m->node_case != PG_QUERY__NODE__NODE_A_EXPR || m->a_expr->kind != PG_QUERY__A__EXPR__KIND__AEXPR_OP ||
        strcmp(op_name(m->a_expr), "||") ||
        !(is_text_const(m->a_expr->rexpr, " days") || is_text_const(m->a_expr->rexpr, " day")))
        return false;
    const node *l = m->a_expr->lexpr;
    *neg = false;
    if (l && l->node_case == PG_QUERY__NODE__NODE_A_EXPR && l->a_expr->kind == PG_QUERY__A__EXPR__KIND__AEXPR_OP &&
        !strcmp(op_name(l->a_expr), "||") &&
        (is_text_const(l->a_expr->lexpr, "+") || is_text_const(l->a_expr->lexpr, "-"))) {
        *neg = is_text_const(l->a_expr->lexpr, "-");
        l = l->a_expr->rexpr;
    }
    *x = l;
    return l != NULL;
}

static db_sexpr *conv_date_of_column(conv *c, const char *name, const PgQuery__FuncCall *fc)
{
    const node *m = fc->n_args == 2 && !strcasecmp(name, "date") ? fc->args[1] : NULL, *dx = NULL;
    const char *mtype, *mtext = m ? literal_text(m, &mtype) : NULL;
    int64_t days = 0;
    bool neg = false;
    if (m && ((mtext && day_modifier(mtext, &days)) || day_modifier_expr(m, &dx, &neg))) {
        /* date(c, '+N days'), date(c, '+' || n || ' days'): a DBF_DATE_ADD node (db_date_add_days) */
        db_sexpr *col = db_sql_conv_expr(c, fc->args[0]);
        db_date_kind k = column_date(c, col);
        if (!k) k = infer_date(c, col, DB_DATE_DATE);
        /* date(?, '+7 days'), date('2025-06-01', '+7 days'): the text read as a date column's (a text SQLite
         * reads otherwise, 'now', comes back as a model mismatch) */
        if (!k && col &&
            (col->kind == DBX_PARAM || (col->kind == DBX_TEXT && (db_date_text_valid(DB_DATE_DATE, col->text) ||
                                                                  db_date_text_valid(DB_DATE_DATETIME, col->text)))))
            k = DB_DATE_DATE;
        db_sexpr *e = k == DB_DATE_DATE || k == DB_DATE_DATETIME ? db_sql_mk(DBX_FUNC, 2) : NULL;
        db_sexpr *d = !e ? NULL : dx ? db_sql_conv_expr(c, (node *)dx) : db_sql_mk(DBX_INT, 0);
        if (!d) {
            sexpr_free(col), sexpr_free(e);
            return NULL;
        }
        d->ival = days;
        e->op = DBF_DATE_ADD;
        e->negated = neg;
        e->kids[0] = d, e->kids[1] = col;
        c->q->sqlite_dates = true;
        return e;
    }
    static const struct {
        const char *name, *fmt;
    } fns[] = {{"date", "%Y-%m-%d"}, {"datetime", "%Y-%m-%d %H:%M:%S"}, {"julianday", NULL}};
    const char *fmt = NULL;
    size_t want = 1;
    bool known = false;
    for (size_t i = 0; i < sizeof fns / sizeof *fns; i++)
        if (!strcasecmp(name, fns[i].name)) known = true, fmt = fns[i].fmt;
    if (!strcasecmp(name, "strftime")) {
        const node *f = fc->n_args == 2 ? fc->args[0] : NULL;
        if (!f || f->node_case != PG_QUERY__NODE__NODE_A_CONST || f->a_const->isnull ||
            f->a_const->val_case != PG_QUERY__A__CONST__VAL_SVAL)
            return NULL;
        known = true, fmt = f->a_const->sval->sval, want = 2;
    }
    if (!known || fc->n_args != want || (fmt && db_date_format_len(fmt) < 0)) return NULL;
    db_sexpr *col = db_sql_conv_expr(c, fc->args[want - 1]);
    db_date_kind k = column_date(c, col);
    /* a bound parameter is read as a column's text would be (a text SQLite reads otherwise, 'now', comes
     * back as a model mismatch); a literal only when it is a date or date and time */
    bool other =
        col && (col->kind == DBX_PARAM || (col->kind == DBX_TEXT && (db_date_text_valid(DB_DATE_DATE, col->text) ||
                                                                     db_date_text_valid(DB_DATE_DATETIME, col->text))));
    if (!k && !other) /* datetime(), strftime('%H', ...) ask for a time too */
        k = infer_date(c, col,
                       !strcasecmp(name, "datetime") || (fmt && strpbrk(fmt, "HMS") && strchr(fmt, '%'))
                           ? DB_DATE_DATETIME
                           : DB_DATE_DATE);
    if (k != DB_DATE_DATE && k != DB_DATE_DATETIME && !other) {
        sexpr_free(col);
        return NULL;
    }
    db_sexpr *e = db_sql_mk(DBX_FUNC, fmt ? 2 : 1), *f = fmt ? db_sql_mk(DBX_TEXT, 0) : NULL;
    if (!e || (fmt && (!f || !(f->text = strdup(fmt))))) {
        sexpr_free(col), sexpr_free(e), sexpr_free(f);
        return NULL;
    }
    e->op = fmt ? DBF_STRFTIME : DBF_JULIANDAY;
    if (fmt) e->kids[0] = f;
    e->kids[e->nkids - 1] = col;
    c->q->sqlite_dates = true;
    return e;
}

/* a IS [NOT] DISTINCT FROM b, NULL-safe (never NULL): "the same" is both NULL, or neither and a = b. */
static db_sexpr *conv_distinct_from(conv *c, PgQuery__AExpr *a)
{
    db_sexpr *x = db_sql_conv_expr(c, a->lexpr), *y = x ? db_sql_conv_expr(c, a->rexpr) : NULL;
    db_sexpr *same = db_sql_mk(DBX_OR, 2), *nulls = db_sql_mk(DBX_AND, 2), *vals = db_sql_mk(DBX_AND, 3);
    db_sexpr *eq = db_sql_mk(DBX_CMP, 2), *k[4] = {db_sql_mk(DBX_ISNULL, 1), db_sql_mk(DBX_ISNULL, 1),
                                                   db_sql_mk(DBX_ISNULL, 1), db_sql_mk(DBX_ISNULL, 1)};
    bool ok = x && y && same && nulls && vals && eq && k[0] && k[1] && k[2] && k[3];
    if (ok) {
        k[0]->kids[0] = x, k[1]->kids[0] = y;
        ok = (k[2]->kids[0] = db_sexpr_copy(x)) && (k[3]->kids[0] = db_sexpr_copy(y)) &&
             (eq->kids[0] = db_sexpr_copy(x)) && (eq->kids[1] = db_sexpr_copy(y));
        x = y = NULL;
        k[2]->negated = k[3]->negated = true, eq->op = DB_EQ;
        nulls->kids[0] = k[0], nulls->kids[1] = k[1];
        vals->kids[0] = k[2], vals->kids[1] = k[3], vals->kids[2] = eq;
        same->kids[0] = nulls, same->kids[1] = vals;
        k[0] = k[1] = k[2] = k[3] = NULL, nulls = vals = eq = NULL;
    }
    if (!ok) {
        sexpr_free(x), sexpr_free(y), sexpr_free(same), sexpr_free(nulls), sexpr_free(vals), sexpr_free(eq);
        for (int i = 0; i < 4; i++) sexpr_free(k[i]);
        return NULL;
    }
    if (a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_NOT_DISTINCT) return same;
    db_sexpr *not = db_sql_mk(DBX_NOT, 1);
    if (!not ) {
        sexpr_free(same);
        return NULL;
    }
    not ->kids[0] = same;
    return not ;
}

/* FROM item named `name` (alias or table name, case-insensitive), -1 when none. */
int db_sql_from_item(const db_query *q, const char *name)
{
    for (int f = 0; f < q->nfrom; f++)
        if (!strcasecmp(q->from_name[f], name)) return f;
    return -1;
}

/* A column of a WHERE clause over a UNION, in the arm c->q: the arm's result column of that name (conv.union_names). */
static db_sexpr *union_column(conv *c, PgQuery__ColumnRef *r)
{
    const char *name = NULL;
    if (r->n_fields == 1 && r->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING)
        name = r->fields[0]->string->sval;
    else if (r->n_fields == 2 && r->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING &&
             r->fields[1]->node_case == PG_QUERY__NODE__NODE_STRING && c->union_alias &&
             !strcasecmp(c->union_alias, r->fields[0]->string->sval))
        name = r->fields[1]->string->sval;
    const db_query *a = c->q;
    for (int i = 0; name && i < c->nunion_names && i < a->nresult; i++) {
        if (!c->union_names[i] || strcasecmp(c->union_names[i], name)) continue;
        if (a->result_expr[i]) return db_sexpr_copy(a->result_expr[i]);
        if (a->result_col[i] < 0) break;
        db_sexpr *e = db_sql_mk(DBX_COLUMN, 0);
        if (e) e->from = a->result_from[i], e->column = a->result_col[i];
        return e;
    }
    db_sql_unsupported(c->q, "column of a UNION in FROM or WITH");
    return NULL;
}

/* Column `name` of FROM item f of c->q: by the names an inlined WITH query or subquery gives its columns when they
 * differ from its table's (conv.items), else by the table's; -1 when none. */
static int item_column(const conv *c, int f, const char *name)
{
    const db_sql_cte *it = c->items ? &c->items[f] : NULL;
    if (!it || it->table < 0 || !it->ncols) return db_column_index(&c->s->tables[c->q->from_table[f]], name);
    for (int i = 0; i < it->ncols; i++)
        if (!strcasecmp(it->col_name[i], name)) return it->col_index[i];
    return -1;
}

db_sexpr *db_sql_conv_column(conv *c, PgQuery__ColumnRef *r)
{
    const char *col = NULL;
    int from = -1, ci = -1;
    if (c->union_names) return union_column(c, r);
    /* inside subqueries their tables come first, innermost first (SQL's scoping) */
    for (int i = c->nscope; i-- > 0 && from < 0;) {
        int j = c->scope[i], t = c->q->sub_table[j];
        if (r->n_fields == 1 && r->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING)
            ci = db_column_index(&c->s->tables[t], r->fields[0]->string->sval);
        else if (r->n_fields == 2 && r->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING &&
                 r->fields[1]->node_case == PG_QUERY__NODE__NODE_STRING &&
                 !strcasecmp(c->q->sub_name[j], r->fields[0]->string->sval))
            if ((ci = db_column_index(&c->s->tables[t], r->fields[1]->string->sval)) < 0) {
                db_sql_unsupported(c->q, "unknown column or rowid");
                return NULL;
            }
        if (ci >= 0) from = DB_MAX_FROM + j;
    }
    bool other = r->n_fields == 2 && r->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING &&
                 strcasecmp(c->only_name ? c->only_name : "", r->fields[0]->string->sval);
    if (from < 0 && c->only_from && !other) { /* its own table alone (sql_cte.c; an upsert's existing row) */
        int f = c->only_from - 1;
        const db_table *t = &c->s->tables[c->q->from_table[f]];
        if (r->n_fields == 1 && r->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING)
            ci = db_column_index(t, r->fields[0]->string->sval);
        else if (r->n_fields == 2 && r->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING &&
                 r->fields[1]->node_case == PG_QUERY__NODE__NODE_STRING &&
                 !strcasecmp(c->only_name, r->fields[0]->string->sval))
            ci = db_column_index(t, r->fields[1]->string->sval);
        if (ci < 0) {
            db_sql_unsupported(c->q, "unknown column or rowid");
            return NULL;
        }
        from = f;
    }
    if (from >= 0) {
        db_sexpr *e = db_sql_mk(DBX_COLUMN, 0);
        if (e) e->from = from, e->column = ci;
        return e;
    }
    ci = -1;
    if (r->n_fields == 1 && r->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING) {
        col = r->fields[0]->string->sval;
        for (int f = 0; f < c->q->nfrom; f++) {
            int k = item_column(c, f, col);
            if (k >= 0 && from >= 0) {
                db_sql_unsupported(c->q, "ambiguous column");
                return NULL;
            }
            if (k >= 0) from = f, ci = k;
        }
    } else if (r->n_fields == 2 && r->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING &&
               r->fields[1]->node_case == PG_QUERY__NODE__NODE_STRING) {
        from = db_sql_from_item(c->q, r->fields[0]->string->sval);
        if (from < 0) {
            db_sql_unsupported(c->q, "column of a table not in FROM");
            return NULL;
        }
        col = r->fields[1]->string->sval;
        ci = item_column(c, from, col);
    } else {
        db_sql_unsupported(c->q, "column reference form");
        return NULL;
    }
    if (ci < 0) {
        db_sql_unsupported(c->q, "unknown column or rowid");
        return NULL;
    }
    db_sexpr *e = db_sql_mk(DBX_COLUMN, 0);
    if (e) e->from = from, e->column = ci;
    return e;
}

static db_sexpr *conv_const(conv *c, PgQuery__AConst *k)
{
    if (k->isnull) return db_sql_mk(DBX_NULL, 0);
    db_sexpr *e = NULL;
    switch (k->val_case) {
    case PG_QUERY__A__CONST__VAL_IVAL:
        if ((e = db_sql_mk(DBX_INT, 0))) e->ival = k->ival->ival;
        return e;
    case PG_QUERY__A__CONST__VAL_FVAL: { /* also integers beyond 32 bits */
        const char *t = k->fval->fval;
        char *end = NULL;
        errno = 0;
        long long iv = strtoll(t, &end, 10);
        if (!strpbrk(t, ".eE") && !*end && errno != ERANGE) {
            if ((e = db_sql_mk(DBX_INT, 0))) e->ival = iv;
            return e;
        }
        /* a REAL literal (15.0, 1e3), or an integer beyond 64 bits, which SQLite reads as REAL */
        if ((e = db_sql_mk(DBX_REAL, 0))) e->rval = strtod(t, NULL);
        return e;
    }
    case PG_QUERY__A__CONST__VAL_SVAL:
        if ((e = db_sql_mk(DBX_TEXT, 0)) && !(e->text = strdup(k->sval->sval))) {
            free(e);
            return NULL;
        }
        return e;
    case PG_QUERY__A__CONST__VAL_BOOLVAL:
        if ((e = db_sql_mk(DBX_INT, 0))) e->ival = k->boolval->boolval;
        return e;
    default: db_sql_unsupported(c->q, "literal kind"); return NULL;
    }
}

/* 1: an integer type (int2/4/8, smallint, integer, bigint), 2: a text type (text, varchar), 3: a
 * number type that holds fractions (numeric[(p,s)], decimal, float4/8, real, double precision), 0: other. */
static int cast_kind(const PgQuery__TypeName *tn)
{
    if (!tn || !tn->n_names || tn->n_array_bounds ||
        tn->names[tn->n_names - 1]->node_case != PG_QUERY__NODE__NODE_STRING)
        return 0;
    const char *n = tn->names[tn->n_names - 1]->string->sval;
    static const char *fracs[] = {"numeric", "decimal", "float4", "float8", "real", "double precision", NULL};
    for (int i = 0; fracs[i]; i++)
        if (!strcasecmp(n, fracs[i])) return 3;
    if (tn->n_typmods) return 0;
    static const char *ints[] = {"int2", "int4", "int8", "smallint", "integer", "bigint", "int", NULL};
    for (int i = 0; ints[i]; i++)
        if (!strcasecmp(n, ints[i])) return 1;
    return !strcasecmp(n, "text") || !strcasecmp(n, "varchar") ? 2 : 0;
}

/* The date kind of a cast's type: date, time, timestamp[tz] (DATE '2026-01-01', '...'::timestamp). */
static db_date_kind cast_date_kind(const PgQuery__TypeName *tn)
{
    if (!tn || !tn->n_names || tn->n_array_bounds || tn->n_typmods ||
        tn->names[tn->n_names - 1]->node_case != PG_QUERY__NODE__NODE_STRING)
        return DB_DATE_NONE;
    const char *n = tn->names[tn->n_names - 1]->string->sval;
    return !strcasecmp(n, "date")                                         ? DB_DATE_DATE
           : !strcasecmp(n, "time")                                       ? DB_DATE_TIME
           : !strcasecmp(n, "timestamp") || !strcasecmp(n, "timestamptz") ? DB_DATE_DATETIME
                                                                          : DB_DATE_NONE;
}

/*
 * A cast to a date kind, as PostgreSQL reads it: a text literal that is an ISO-8601 text of that
 * kind is that text (date cells are their ISO text, compared by bytes), a date literal cast to a
 * timestamp gets " 00:00:00" (its midnight); a column of that kind is itself, a TIMESTAMP column cast
 * to a date its day (a DBF_STRFTIME node of '%Y-%m-%d'). Anything else:
 * "CAST". SQLite's CAST AS DATE means NUMERIC affinity: q->date_cast makes such a query concrete
 * there (db_cond_expr).
 */
static db_sexpr *conv_date_cast(conv *c, PgQuery__TypeCast *tc, db_date_kind k)
{
    db_sexpr *e = db_sql_conv_expr(c, tc->arg);
    if (!e) return NULL;
    c->q->date_cast = true; /* PostgreSQL's meaning (db_cond_expr) */
    if (e->kind == DBX_TEXT && k == DB_DATE_DATETIME && db_date_text_valid(DB_DATE_DATE, e->text)) {
        char *t = malloc(strlen(e->text) + 10);
        if (t) {
            sprintf(t, "%s 00:00:00", e->text);
            free(e->text);
            e->text = t;
        }
    }
    if (e->kind == DBX_TEXT && db_date_text_valid(k, e->text)) return e;
    if (e->kind == DBX_PARAM) { /* $1::date: the bound text, read as the column it meets reads it */
        if (k == DB_DATE_DATE) e->ival = DBX_PARAM_DATE; /* a date for date + n and date - date */
        return e;
    }
    if (e->kind == DBX_COLUMN && e->from >= 0 && e->from < c->q->nfrom &&
        c->s->tables[c->q->from_table[e->from]].cols[e->column].date == k)
        return e;
    if (k == DB_DATE_DATE && e->kind == DBX_COLUMN && column_date(c, e) == DB_DATE_DATETIME) {
        /* entered::date = $1::date: the timestamp's day, its text's first ten bytes (strftime('%Y-%m-%d')) */
        db_sexpr *f = db_sql_mk(DBX_FUNC, 2), *fmt = f ? db_sql_mk(DBX_TEXT, 0) : NULL;
        if (!f || !fmt || !(fmt->text = strdup("%Y-%m-%d"))) {
            sexpr_free(e), sexpr_free(f), sexpr_free(fmt);
            return NULL;
        }
        f->op = DBF_STRFTIME;
        f->kids[0] = fmt, f->kids[1] = e;
        c->q->pg_dates = true;
        return f;
    }
    sexpr_free(e);
    db_sql_unsupported(c->q, "CAST");
    return NULL;
}

/*
 * A cast that changes nothing sympath models (PostgreSQL writes them in its catalog's
 * CHECK text and users write them in queries): a literal or column cast to an integer
 * type when it is an integer, to text/varchar when it is a text; a text literal of
 * digits cast to an integer becomes that integer; a number literal, a number text literal, a bound
 * parameter, AVG(x) or a REAL/DECIMAL column cast to a fractional type (numeric, float8, ...) is that
 * number (an integer column is not: integer division would change). Anything else: "CAST".
 */
/* A DBX_FUNC node op over kids (taken; NULL when out of memory, the kids freed). */
static db_sexpr *func_of(int op, db_sexpr *k0, db_sexpr *k1, db_sexpr *k2)
{
    int n = k2 ? 3 : k1 ? 2 : 1;
    db_sexpr *e = k0 ? db_sql_mk(DBX_FUNC, n) : NULL;
    if (!e || (n > 1 && !k1)) {
        sexpr_free(e), sexpr_free(k0), sexpr_free(k1), sexpr_free(k2);
        return NULL;
    }
    e->op = op, e->kids[0] = k0;
    if (n > 1) e->kids[1] = k1;
    if (n > 2) e->kids[2] = k2;
    return e;
}

/* Whether e is a text literal of 1 to 64 bytes. */
static bool short_text(const db_sexpr *e) { return e && e->kind == DBX_TEXT && e->text[0] && strlen(e->text) <= 64; }

/* instr(t, 'x') / strpos(t, 'x') / position('x' IN t) (which parses as position(t, 'x')): a DBF_INSTR node;
 * NULL (nothing reported) when the text looked for is not a literal. */
static db_sexpr *conv_instr(conv *c, PgQuery__FuncCall *fc)
{
    db_sexpr *t = db_sql_conv_expr(c, fc->args[0]), *x = t ? db_sql_conv_expr(c, fc->args[1]) : NULL;
    if (!short_text(x)) {
        sexpr_free(t), sexpr_free(x);
        return NULL;
    }
    return func_of(DBF_INSTR, t, x, NULL);
}

/* replace(t, 'from', 'to') with literals of one length: a DBF_REPLACE node; NULL (nothing reported) otherwise. */
static db_sexpr *conv_replace(conv *c, PgQuery__FuncCall *fc)
{
    db_sexpr *t = db_sql_conv_expr(c, fc->args[0]), *f = t ? db_sql_conv_expr(c, fc->args[1]) : NULL,
             *to = f ? db_sql_conv_expr(c, fc->args[2]) : NULL;
    if (!short_text(f) || !to || to->kind != DBX_TEXT || strlen(to->text) != strlen(f->text)) {
        sexpr_free(t), sexpr_free(f), sexpr_free(to);
        return NULL;
    }
    return func_of(DBF_REPLACE, t, f, to);
}

/* Whether e is a condition (its value 1, 0 or NULL: what a cast to boolean keeps). */
static bool is_condition(const db_sexpr *e)
{
    switch (e->kind) {
    case DBX_CMP:
    case DBX_AND:
    case DBX_OR:
    case DBX_NOT:
    case DBX_ISNULL:
    case DBX_LIKE:
    case DBX_IN:
    case DBX_BETWEEN:
    case DBX_EXISTS:
    case DBX_IN_SUB: return true;
    default: return false;
    }
}

/* The last name of a cast's type ("int4", "float8", "bool"), "" when it has no plain name. */
static const char *cast_type_name(const PgQuery__TypeName *tn)
{
    if (!tn || !tn->n_names || tn->n_array_bounds ||
        tn->names[tn->n_names - 1]->node_case != PG_QUERY__NODE__NODE_STRING)
        return "";
    return tn->names[tn->n_names - 1]->string->sval;
}

static db_sexpr *conv_cast(conv *c, PgQuery__TypeCast *tc)
{
    db_date_kind dk = cast_date_kind(tc->type_name);
    if (dk) return conv_date_cast(c, tc, dk);
    const char *tname = cast_type_name(tc->type_name);
    if (!strcasecmp(tname, "bool") || !strcasecmp(tname, "boolean")) { /* (a > b)::boolean, flag::bool */
        db_sexpr *e = db_sql_conv_expr(c, tc->arg);
        if (e && (is_condition(e) || (e->kind == DBX_COLUMN && e->from < DB_MAX_FROM &&
                                      c->s->tables[c->q->from_table[e->from]].cols[e->column].aff == DB_AFF_INTEGER)))
            return e;
        if (e) db_sql_unsupported(c->q, "CAST");
        sexpr_free(e);
        return NULL;
    }
    int kind = cast_kind(tc->type_name);
    db_sexpr *e = kind ? db_sql_conv_expr(c, tc->arg) : NULL;
    if (!e) {
        if (!kind) db_sql_unsupported(c->q, "CAST");
        return NULL;
    }
    bool to_double = !strcasecmp(tname, "float4") || !strcasecmp(tname, "float8");
    if (kind == 3 && to_double &&
        (e->kind == DBX_ARITH || e->kind == DBX_FUNC || e->kind == DBX_CASE || e->kind == DBX_NEG ||
         e->kind == DBX_LENGTH ||
         (e->kind == DBX_COLUMN && e->from < DB_MAX_FROM &&
          !db_column_is_text(&c->s->tables[c->q->from_table[e->from]].cols[e->column]))))
        return func_of(DBF_CAST_REAL, e, NULL, NULL); /* CAST(n AS REAL): an integer becomes a double */
    if (kind == 3) { /* (0)::numeric, 2.5::float8, '9.99'::numeric, price::numeric: the same number */
        if (e->kind == DBX_TEXT) {
            char *end = NULL;
            double v = strtod(e->text, &end);
            if (*e->text && !*end && isfinite(v)) {
                free(e->text);
                e->text = NULL;
                e->kind = DBX_REAL;
                e->rval = v;
                return e;
            }
        } else if (e->kind == DBX_INT || e->kind == DBX_REAL || e->kind == DBX_NULL || e->kind == DBX_PARAM ||
                   (e->kind == DBX_GROUPAGG && e->op == DB_AGG_AVG) || /* round(AVG(x)::numeric, 2) */
                   (e->kind == DBX_COLUMN &&
                    db_column_is_real(&c->s->tables[c->q->from_table[e->from]].cols[e->column]))) {
            return e; /* an integer literal keeps its value: comparisons are by value (real.c) */
        }
        sexpr_free(e);
        db_sql_unsupported(c->q, "CAST");
        return NULL;
    }
    bool is_text = e->kind == DBX_TEXT;
    if (kind == 1 && (e->kind == DBX_ARITH || e->kind == DBX_FUNC || e->kind == DBX_CASE || e->kind == DBX_NEG ||
                      e->kind == DBX_REAL || e->kind == DBX_GROUPAGG || e->kind == DBX_SUBAGG ||
                      (e->kind == DBX_COLUMN && e->from < DB_MAX_FROM &&
                       db_column_is_real(&c->s->tables[c->q->from_table[e->from]].cols[e->column]))))
        return func_of(DBF_CAST_INT, e, NULL, NULL); /* CAST(price * 100 AS INTEGER): truncated (translate.c) */
    if (e->kind == DBX_COLUMN && e->from < DB_MAX_FROM)
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
    if (kind && e->kind != DBX_NULL && e->kind != DBX_PARAM && is_text != (kind == 2)) kind = 0;
    if (!kind) {
        sexpr_free(e);
        db_sql_unsupported(c->q, "CAST");
        return NULL;
    }
    return e;
}

/* The text literal of time t (UTC) as SQLite's date() ('YYYY-MM-DD') or datetime() ('YYYY-MM-DD
 * HH:MM:SS') prints it. */
static db_sexpr *now_text(time_t t, bool with_time)
{
    struct tm tm;
    char buf[32];
    if (!gmtime_r(&t, &tm) || !strftime(buf, sizeof buf, with_time ? "%Y-%m-%d %H:%M:%S" : "%Y-%m-%d", &tm))
        return NULL;
    db_sexpr *e = db_sql_mk(DBX_TEXT, 0);
    if (e && !(e->text = strdup(buf))) {
        free(e);
        return NULL;
    }
    return e;
}

/*
 * date('now'[, modifier ...]) and datetime(...) (SQLite): the run's clock, in UTC as SQLite
 * computes them, as a text literal, so a comparison of a DATE column with "today" is a comparison
 * with a constant (its value is the one the run saw; a replay on another day sees another day).
 * The time value may also be a date or datetime literal ('2024-06-30', '2024-06-30 12:00:00'), a
 * constant computed alike (datetime('2024-06-30', '-30 days')). Modifiers: '[+-]N
 * day(s)|month(s)|year(s)|hour(s)|minute(s)|second(s)', 'start of month', 'start of year', 'start of
 * day'. NULL for anything else (another time value, other modifiers).
 */
static db_sexpr *conv_now(conv *c, const PgQuery__FuncCall *fc, bool with_time)
{
    (void)c;
    if (fc->n_args < 1 || fc->n_args > 4) return NULL;
    const char *a[4];
    for (size_t i = 0; i < fc->n_args; i++) {
        const node *n = fc->args[i];
        if (n->node_case != PG_QUERY__NODE__NODE_A_CONST || n->a_const->isnull ||
            n->a_const->val_case != PG_QUERY__A__CONST__VAL_SVAL)
            return NULL;
        a[i] = n->a_const->sval->sval;
    }
    time_t t = time(NULL);
    struct tm tm;
    if (!gmtime_r(&t, &tm)) return NULL;
    if (strcasecmp(a[0], "now")) { /* a literal date or datetime */
        bool timed = db_date_text_valid(DB_DATE_DATETIME, a[0]);
        if (!timed && !db_date_text_valid(DB_DATE_DATE, a[0])) return NULL;
        memset(&tm, 0, sizeof tm);
        if (sscanf(a[0], "%d-%d-%d %d:%d:%d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
                   &tm.tm_sec) != (timed ? 6 : 3))
            return NULL;
        tm.tm_year -= 1900, tm.tm_mon -= 1;
    }
    for (size_t i = 1; i < fc->n_args; i++) {
        long v;
        char unit[16];
        if (!strcasecmp(a[i], "start of month")) {
            tm.tm_mday = 1, tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
        } else if (!strcasecmp(a[i], "start of year")) {
            tm.tm_mon = 0, tm.tm_mday = 1, tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
        } else if (!strcasecmp(a[i], "start of day")) {
            tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
        } else if (sscanf(a[i], " %ld %15s", &v, unit) == 2 &&
                   (a[i][strspn(a[i], " ")] == '+' || a[i][strspn(a[i], " ")] == '-' ||
                    isdigit((unsigned char)a[i][strspn(a[i], " ")]))) {
            size_t ul = strlen(unit);
            if (ul > 1 && unit[ul - 1] == 's') unit[--ul] = 0;
            if (!strcasecmp(unit, "day"))
                tm.tm_mday += (int)v;
            else if (!strcasecmp(unit, "month"))
                tm.tm_mon += (int)v;
            else if (!strcasecmp(unit, "year"))
                tm.tm_year += (int)v;
            else if (!strcasecmp(unit, "hour"))
                tm.tm_hour += (int)v;
            else if (!strcasecmp(unit, "minute"))
                tm.tm_min += (int)v;
            else if (!strcasecmp(unit, "second"))
                tm.tm_sec += (int)v;
            else
                return NULL;
        } else {
            return NULL;
        }
        t = timegm(&tm); /* normalizes: Jan 31 + 1 month is Mar 3 (or 2), as SQLite */
        if (!gmtime_r(&t, &tm)) return NULL;
    }
    return now_text(timegm(&tm), with_time);
}

/* The type name of a cast, lower case ("interval", "date", ...), or "". */
static const char *cast_type(const PgQuery__TypeCast *tc)
{
    const PgQuery__TypeName *tn = tc->type_name;
    if (!tn || !tn->n_names || tn->names[tn->n_names - 1]->node_case != PG_QUERY__NODE__NODE_STRING) return "";
    return tn->names[tn->n_names - 1]->string->sval;
}

/* The text literal of a node: 'x', or 'x'::type; NULL otherwise. *type: the cast's type name or "". */
static const char *literal_text(const node *n, const char **type)
{
    *type = "";
    if (n && n->node_case == PG_QUERY__NODE__NODE_TYPE_CAST) {
        *type = cast_type(n->type_cast);
        n = n->type_cast->arg;
    }
    if (!n || n->node_case != PG_QUERY__NODE__NODE_A_CONST || n->a_const->isnull ||
        n->a_const->val_case != PG_QUERY__A__CONST__VAL_SVAL)
        return NULL;
    return n->a_const->sval->sval;
}

/* The months, days and seconds of an interval literal's text ('30 days', '2 hours 30 minutes', '1 mon'); false
 * for a text of other units or too large. */
static bool interval_parts(const char *iv, long *pmonths, long *pdays, long *psecs)
{
    long months = 0, days = 0, secs = 0;
    for (const char *p = iv; *p;) {
        char unit[16];
        long v;
        int used = 0;
        if (sscanf(p, " %ld %15[a-zA-Z]%n", &v, unit, &used) != 2 || used <= 0) return false;
        p += used;
        size_t n = strlen(unit);
        if (n > 1 && (unit[n - 1] == 's' || unit[n - 1] == 'S')) unit[n - 1] = 0; /* days -> day */
        if (!strcasecmp(unit, "year"))
            months += 12 * v;
        else if (!strcasecmp(unit, "mon") || !strcasecmp(unit, "month"))
            months += v;
        else if (!strcasecmp(unit, "week"))
            days += 7 * v;
        else if (!strcasecmp(unit, "day"))
            days += v;
        else if (!strcasecmp(unit, "hour"))
            secs += 3600 * v;
        else if (!strcasecmp(unit, "min") || !strcasecmp(unit, "minute"))
            secs += 60 * v;
        else if (!strcasecmp(unit, "sec") || !strcasecmp(unit, "second"))
            secs += v;
        else
            return false;
        if (labs(months) > 120000 || labs(days) > 3000000 || labs(secs) > 3000000000L) return false;
        while (*p == ' ' || *p == ',') p++;
    }
    *pmonths = months, *pdays = days, *psecs = secs;
    return true;
}

/* e, an interval literal of whole seconds (interval '2 hours', '90 minutes', '1 day'; months vary in length), into
 * *secs; false for anything else. */
static bool interval_seconds(const node *n, int64_t *secs)
{
    const char *type, *iv = literal_text(n, &type);
    long months, days, s;
    if (!iv || strcasecmp(type, "interval") || !interval_parts(iv, &months, &days, &s) || months) return false;
    *secs = (int64_t)days * 86400 + s;
    return true;
}

/* ts1 - ts2 OP interval 'N unit' (or the reverse) of two TIMESTAMP columns (or one and a DATE, at its midnight): the
 * seconds between them (DBF_SECONDS)
 * compared with the interval's (left_at - entered > interval '2 hours'). NULL, nothing reported, for other operands:
 * the caller converts them as any comparison. */
static db_sexpr *interval_compare(conv *c, PgQuery__AExpr *a, int op)
{
    int64_t secs;
    int lit = interval_seconds(a->rexpr, &secs) ? 1 : interval_seconds(a->lexpr, &secs) ? 0 : -1;
    const node *d = lit < 0 ? NULL : lit ? a->lexpr : a->rexpr;
    if (!d || d->node_case != PG_QUERY__NODE__NODE_A_EXPR || d->a_expr->kind != PG_QUERY__A__EXPR__KIND__AEXPR_OP ||
        strcmp(op_name(d->a_expr), "-") || !d->a_expr->lexpr ||
        d->a_expr->lexpr->node_case != PG_QUERY__NODE__NODE_COLUMN_REF ||
        d->a_expr->rexpr->node_case != PG_QUERY__NODE__NODE_COLUMN_REF)
        return NULL;
    db_sexpr *x = db_sql_conv_expr(c, d->a_expr->lexpr), *y = x ? db_sql_conv_expr(c, d->a_expr->rexpr) : NULL;
    db_sexpr *e = y ? db_sql_mk(DBX_CMP, 2) : NULL, *f = e ? db_sql_mk(DBX_FUNC, 2) : NULL,
             *n = f ? db_sql_mk(DBX_INT, 0) : NULL;
    db_date_kind kx = column_date(c, x), ky = column_date(c, y); /* a DATE beside a TIMESTAMP is its midnight */
    if (!n || (kx != DB_DATE_DATETIME && ky != DB_DATE_DATETIME) || (kx != DB_DATE_DATE && kx != DB_DATE_DATETIME) ||
        (ky != DB_DATE_DATE && ky != DB_DATE_DATETIME)) {
        sexpr_free(x), sexpr_free(y), sexpr_free(e), sexpr_free(f), sexpr_free(n);
        return NULL; /* (the caller's conversion names what it does not understand) */
    }
    f->op = DBF_SECONDS, f->kids[0] = x, f->kids[1] = y;
    n->ival = secs;
    e->op = op;
    e->kids[lit] = n, e->kids[1 - lit] = f;
    c->q->pg_dates = true;
    return e;
}

/*
 * PostgreSQL's `CURRENT_DATE - INTERVAL '30 days'`, `now() - interval '1 hour'`, `DATE '2024-06-30' +
 * interval '1 month'` (op '+' or '-'): a constant of the run's clock (to the second) or of the literal,
 * as a text literal: a date ('YYYY-MM-DD') when the base is a date and the interval whole days, weeks,
 * months or years (PostgreSQL's timestamp at midnight compares with a DATE as the date does), else
 * 'YYYY-MM-DD HH:MM:SS'. Months and years clamp the day to the month's end, as PostgreSQL does (Jan 31
 * + 1 month is Feb 29). NULL (nothing reported) for any other operands.
 */
static db_sexpr *interval_const(const PgQuery__AExpr *a, char op)
{
    const char *itype, *base_type, *iv = literal_text(a->rexpr, &itype);
    if (!iv || strcasecmp(itype, "interval") || (op != '+' && op != '-') || !a->lexpr) return NULL;
    const node *l = a->lexpr;
    bool date_only;
    struct tm tm;
    time_t now = time(NULL);
    if (l->node_case == PG_QUERY__NODE__NODE_SQLVALUE_FUNCTION) {
        PgQuery__SQLValueFunctionOp f = l->sqlvalue_function->op;
        date_only = f == PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_DATE;
        if (!date_only && f != PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIMESTAMP &&
            f != PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIMESTAMP)
            return NULL;
        if (!gmtime_r(&now, &tm)) return NULL;
        if (date_only) tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
    } else if (l->node_case == PG_QUERY__NODE__NODE_FUNC_CALL && l->func_call->n_funcname >= 1 &&
               !l->func_call->n_args &&
               l->func_call->funcname[l->func_call->n_funcname - 1]->node_case == PG_QUERY__NODE__NODE_STRING &&
               !strcasecmp(l->func_call->funcname[l->func_call->n_funcname - 1]->string->sval, "now")) {
        date_only = false;
        if (!gmtime_r(&now, &tm)) return NULL;
    } else {
        const char *b = literal_text(l, &base_type);
        if (!b) return NULL;
        memset(&tm, 0, sizeof tm);
        date_only = db_date_text_valid(DB_DATE_DATE, b);
        if (!date_only && !db_date_text_valid(DB_DATE_DATETIME, b)) return NULL;
        if (sscanf(b, "%d-%d-%d %d:%d:%d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec) <
            3)
            return NULL;
        tm.tm_year -= 1900, tm.tm_mon -= 1;
    }
    long months = 0, days = 0, secs = 0;
    if (!interval_parts(iv, &months, &days, &secs)) return NULL;
    long sign = op == '-' ? -1 : 1;
    if (months) { /* PostgreSQL: the same day of the target month, clamped to its last day */
        static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
        long m = (long)tm.tm_year * 12 + tm.tm_mon + sign * months;
        tm.tm_year = (int)(m >= 0 ? m / 12 : -((-m + 11) / 12)), tm.tm_mon = (int)(m - (long)tm.tm_year * 12);
        int y = tm.tm_year + 1900;
        int last = mdays[tm.tm_mon] + (tm.tm_mon == 1 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0));
        if (tm.tm_mday > last) tm.tm_mday = last;
    }
    tm.tm_mday += (int)(sign * days);
    time_t t = timegm(&tm) + (time_t)(sign * secs);
    return now_text(t, !date_only || secs != 0);
}

/* CASE [x] WHEN a THEN b ... [ELSE e] END as DBX_CASE (see db.h); NULL with the construct named. */
static db_sexpr *conv_case(conv *c, PgQuery__CaseExpr *ce)
{
    int simple = ce->arg != NULL;
    int nk = simple + 2 * (int)ce->n_args + 1;
    if (!ce->n_args || ce->n_args > 16) {
        db_sql_unsupported(c->q, "CASE");
        return NULL;
    }
    db_sexpr *e = db_sql_mk(DBX_CASE, nk);
    if (!e) return NULL;
    e->op = simple;
    int k = 0;
    bool ok = !simple || (e->kids[k++] = db_sql_conv_expr(c, ce->arg)) != NULL;
    for (size_t i = 0; ok && i < ce->n_args; i++) {
        node *w = ce->args[i];
        ok = w->node_case == PG_QUERY__NODE__NODE_CASE_WHEN &&
             (e->kids[k++] = db_sql_conv_expr(c, w->case_when->expr)) &&
             (e->kids[k++] = db_sql_conv_expr(c, w->case_when->result));
    }
    if (ok) e->kids[k] = ce->defresult ? db_sql_conv_expr(c, ce->defresult) : db_sql_mk(DBX_NULL, 0);
    if (!ok || !e->kids[k]) {
        sexpr_free(e);
        db_sql_unsupported(c->q, "CASE");
        return NULL;
    }
    return e;
}

/* x = ANY (ARRAY[...]) as x IN (...), x <> ALL (ARRAY[...]) as x NOT IN (...) (PostgreSQL's
 * own spelling of IN lists in its catalog); the array may carry a cast to text[]/int[]. */
static db_sexpr *conv_any(conv *c, PgQuery__AExpr *a, bool all)
{
    const char *op =
        a->n_name == 1 && a->name[0]->node_case == PG_QUERY__NODE__NODE_STRING ? a->name[0]->string->sval : "";
    node *arr = a->rexpr;
    if (arr && arr->node_case == PG_QUERY__NODE__NODE_TYPE_CAST) arr = arr->type_cast->arg;
    if (strcmp(op, all ? "<>" : "=") || !arr || arr->node_case != PG_QUERY__NODE__NODE_A_ARRAY_EXPR) {
        db_sql_unsupported(c->q, all ? "ALL" : "ANY");
        return NULL;
    }
    PgQuery__AArrayExpr *l = arr->a_array_expr;
    db_sexpr *e = db_sql_mk(DBX_IN, 1 + (int)l->n_elements);
    if (!e) return NULL;
    e->negated = all;
    if (!(e->kids[0] = db_sql_conv_expr(c, a->lexpr))) {
        sexpr_free(e);
        return NULL;
    }
    for (size_t i = 0; i < l->n_elements; i++)
        if (!(e->kids[1 + i] = db_sql_conv_expr(c, l->elements[i]))) {
            sexpr_free(e);
            return NULL;
        }
    return e;
}

/* The larger (greatest) or smaller of a and b (both owned; NULL when out of memory) as a searched CASE:
 * with skip_nulls (PostgreSQL's GREATEST/LEAST) a NULL argument is left out, else (SQLite's scalar max/min)
 * it makes the result NULL. */
static db_sexpr *minmax2(db_sexpr *a, db_sexpr *b, bool greatest, bool skip_nulls)
{
    db_sexpr *e = a && b ? db_sql_mk(DBX_CASE, 7) : NULL;
    if (!e) {
        sexpr_free(a), sexpr_free(b);
        return NULL;
    }
    e->op = 0;
    db_sexpr *k[7] = {db_sql_mk(DBX_ISNULL, 1),
                      skip_nulls ? db_sexpr_copy(b) : db_sql_mk(DBX_NULL, 0),
                      db_sql_mk(DBX_ISNULL, 1),
                      skip_nulls ? db_sexpr_copy(a) : db_sql_mk(DBX_NULL, 0),
                      db_sql_mk(DBX_CMP, 2),
                      db_sexpr_copy(a),
                      b};
    bool ok = k[0] && k[1] && k[2] && k[3] && k[4] && k[5];
    if (ok) {
        k[0]->kids[0] = a, k[2]->kids[0] = db_sexpr_copy(b);
        k[4]->op = greatest ? DB_GE : DB_LE, k[4]->kids[0] = db_sexpr_copy(a), k[4]->kids[1] = db_sexpr_copy(b);
        ok = k[2]->kids[0] && k[4]->kids[0] && k[4]->kids[1];
        a = NULL;
    }
    for (int i = 0; i < 7; i++) e->kids[i] = k[i];
    if (!ok) {
        sexpr_free(a);
        sexpr_free(e);
        return NULL;
    }
    return e;
}

/* GREATEST/LEAST (PostgreSQL, skip_nulls) or SQLite's scalar max()/min() of 2 or 3 arguments, folded from the
 * left with minmax2; NULL (reported) otherwise. */
static db_sexpr *conv_minmax(conv *c, node **args, size_t n, bool greatest, bool skip_nulls)
{
    if (n < 2 || n > 3) {
        db_sql_unsupported(c->q, "GREATEST/LEAST or max()/min() of more than 3 values");
        return NULL;
    }
    db_sexpr *acc = db_sql_conv_expr(c, args[0]);
    for (size_t i = 1; acc && i < n; i++) acc = minmax2(acc, db_sql_conv_expr(c, args[i]), greatest, skip_nulls);
    return acc;
}

/* Whether n is `x COLLATE NOCASE` (SQLite's ASCII case folding); *arg its operand. */
static bool nocase(node *n, node **arg)
{
    if (!n || n->node_case != PG_QUERY__NODE__NODE_COLLATE_CLAUSE) return false;
    PgQuery__CollateClause *cc = n->collate_clause;
    node *name = cc->n_collname ? cc->collname[cc->n_collname - 1] : NULL;
    if (!name || name->node_case != PG_QUERY__NODE__NODE_STRING || strcasecmp(name->string->sval, "nocase"))
        return false;
    *arg = cc->arg;
    return true;
}

/* lower(e) (DBF_LOWER); NULL (e freed) when out of memory. */
static db_sexpr *lowered(db_sexpr *e)
{
    db_sexpr *l = e ? db_sql_mk(DBX_FUNC, 1) : NULL;
    if (!l) {
        sexpr_free(e);
        return NULL;
    }
    l->op = DBF_LOWER, l->kids[0] = e;
    return l;
}

/* A literal or expression that is a number of days to add to a date: no date, text or REAL literal. */
static bool days_operand(const conv *c, const db_sexpr *e)
{
    return !column_date(c, e) && !date_operand(c, e) && e->kind != DBX_TEXT && e->kind != DBX_REAL &&
           e->kind != DBX_NULL;
}

/* PostgreSQL's date + integer, integer + date and date - integer (e, a DBX_ARITH node of op): a date,
 * the DBF_DATE_ADD node with ival 1 (a DATE for date_guard), which sets q->pg_dates; e unchanged when no
 * operand is a DATE column or date literal. */
static db_sexpr *pg_date_plus_days(conv *c, db_sexpr *e, char op)
{
    int d = date_operand(c, e->kids[0]) ? 0 : op == '+' && date_operand(c, e->kids[1]) ? 1 : -1;
    if (d < 0 || !days_operand(c, e->kids[1 - d])) return e;
    db_sexpr *date = e->kids[d], *days = e->kids[1 - d];
    e->kind = DBX_FUNC, e->op = DBF_DATE_ADD, e->ival = 1;
    e->negated = op == '-';
    e->kids[0] = days, e->kids[1] = date;
    c->q->pg_dates = true;
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
                if ((e = interval_compare(c, a, i))) return e;
                if ((e = db_sql_mk(DBX_CMP, 2))) e->op = i;
                node *k[2] = {a->lexpr, a->rexpr};
                bool fold = nocase(a->lexpr, &k[0]) | nocase(a->rexpr, &k[1]); /* x = ? COLLATE NOCASE */
                e = conv_kids(c, e, k);
                if (e && fold) /* SQLite folds ASCII upper case to lower on both sides */
                    for (int j = 0; j < 2; j++)
                        if (!(e->kids[j] = lowered(e->kids[j]))) {
                            sexpr_free(e);
                            return NULL;
                        }
                return date_guard(c, e);
            }
        if (strlen(op) == 1 && strchr("+-*/%", op[0])) {
            if (!a->lexpr) { /* unary */
                if (op[0] == '+') return db_sql_conv_expr(c, a->rexpr);
                if (op[0] != '-') break;
                e = db_sql_mk(DBX_NEG, 1);
                node *k[1] = {a->rexpr};
                return conv_kids(c, e, k);
            }
            if ((e = interval_const(a, op[0]))) return e; /* CURRENT_DATE - INTERVAL '30 days' */
            if ((e = db_sql_mk(DBX_ARITH, 2))) e->op = op[0];
            node *k[2] = {a->lexpr, a->rexpr};
            if ((e = conv_kids(c, e, k)) && op[0] == '-' && date_operand(c, e->kids[0]) &&
                date_operand(c, e->kids[1])) { /* PostgreSQL: date - date is an integer of days */
                e->kind = DBX_FUNC, e->op = DBF_DAYS;
                c->q->pg_dates = true;
            } else if (e && (op[0] == '+' || op[0] == '-')) {
                e = pg_date_plus_days(c, e, op[0]);
            }
            return e;
        }
        if (!strcmp(op, "~~") || !strcmp(op, "!~~")) goto like;
        if (!strcmp(op, "||")) { /* text concatenation ('%' || ? || '%') */
            node *k[2] = {a->lexpr, a->rexpr};
            return conv_kids(c, db_sql_mk(DBX_CONCAT, 2), k);
        }
        break;
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_LIKE:
    case PG_QUERY__A__EXPR__KIND__AEXPR_ILIKE: /* ~~* / !~~*: LIKE ignoring ASCII case on either engine (op 1) */
    like:
        if ((e = db_sql_mk(DBX_LIKE, 2)))
            e->negated = op[0] == '!', e->op = a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_ILIKE;
        {
            node *k[2] = {a->lexpr, a->rexpr};
            e = conv_kids(c, e, k);
        }
        if (e && e->kids[1]->kind != DBX_TEXT && e->kids[1]->kind != DBX_PARAM && e->kids[1]->kind != DBX_CONCAT) {
            db_sql_unsupported(c->q, "LIKE pattern that is not a literal, a parameter or a concatenation of them");
            sexpr_free(e);
            return NULL;
        }
        return e;
    case PG_QUERY__A__EXPR__KIND__AEXPR_IN: {
        if (!a->rexpr || a->rexpr->node_case != PG_QUERY__NODE__NODE_LIST) {
            db_sql_unsupported(c->q, "IN (subquery)");
            return NULL;
        }
        PgQuery__List *l = a->rexpr->list;
        if (!(e = db_sql_mk(DBX_IN, 1 + (int)l->n_items))) return NULL;
        e->negated = !strcmp(op, "<>");
        if (!(e->kids[0] = db_sql_conv_expr(c, a->lexpr))) {
            sexpr_free(e);
            return NULL;
        }
        for (size_t i = 0; i < l->n_items; i++)
            if (!(e->kids[1 + i] = db_sql_conv_expr(c, l->items[i]))) {
                sexpr_free(e);
                return NULL;
            }
        return date_guard(c, e);
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_BETWEEN:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN: {
        if (!a->rexpr || a->rexpr->node_case != PG_QUERY__NODE__NODE_LIST || a->rexpr->list->n_items != 2) break;
        if ((e = db_sql_mk(DBX_BETWEEN, 3))) e->negated = a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN;
        node *k[3] = {a->lexpr, a->rexpr->list->items[0], a->rexpr->list->items[1]};
        return date_guard(c, conv_kids(c, e, k));
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP_ANY:
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP_ALL: return conv_any(c, a, a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_OP_ALL);
    case PG_QUERY__A__EXPR__KIND__AEXPR_SIMILAR: db_sql_unsupported(c->q, "SIMILAR TO / GLOB / REGEXP"); return NULL;
    case PG_QUERY__A__EXPR__KIND__AEXPR_NULLIF: { /* NULLIF(a, b): CASE WHEN a = b THEN NULL ELSE a END */
        db_sexpr *x = db_sql_conv_expr(c, a->lexpr), *y = x ? db_sql_conv_expr(c, a->rexpr) : NULL;
        db_sexpr *eq = db_sql_mk(DBX_CMP, 2), *x2 = db_sexpr_copy(x), *nul = db_sql_mk(DBX_NULL, 0);
        e = db_sql_mk(DBX_CASE, 3);
        if (x && y && eq && x2 && nul && e) {
            eq->op = DB_EQ, eq->kids[0] = x, eq->kids[1] = y;
            e->kids[0] = eq, e->kids[1] = nul, e->kids[2] = x2;
            return e;
        }
        sexpr_free(x), sexpr_free(y), sexpr_free(eq), sexpr_free(x2), sexpr_free(nul), sexpr_free(e);
        return NULL;
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_DISTINCT:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_DISTINCT: return conv_distinct_from(c, a);
    default: break;
    }
    db_sql_unsupported(c->q, "operator");
    return NULL;
}

db_sexpr *db_sql_conv_expr(conv *c, node *n)
{
    if (!n) {
        db_sql_unsupported(c->q, "missing operand");
        return NULL;
    }
    db_sexpr *e;
    switch (n->node_case) {
    case PG_QUERY__NODE__NODE_COLUMN_REF: {
        /* HAVING n > 2: a result column's alias that is no column of the FROM items (SQLite) */
        PgQuery__ColumnRef *r = n->column_ref;
        if (c->having && c->sel && !c->nscope && c->alias_depth < 2 && r->n_fields == 1 &&
            r->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING) {
            bool column = false;
            for (int f = 0; f < c->q->nfrom && !column; f++)
                column = db_column_index(&c->s->tables[c->q->from_table[f]], r->fields[0]->string->sval) >= 0;
            for (size_t i = 0; !column && i < c->sel->n_target_list; i++) {
                node *tn = c->sel->target_list[i];
                if (tn->node_case != PG_QUERY__NODE__NODE_RES_TARGET || !tn->res_target->name || !tn->res_target->val ||
                    strcasecmp(tn->res_target->name, r->fields[0]->string->sval))
                    continue;
                c->alias_depth++;
                e = db_sql_conv_expr(c, tn->res_target->val);
                c->alias_depth--;
                return e;
            }
        }
        return db_sql_conv_column(c, r);
    }
    case PG_QUERY__NODE__NODE_A_CONST: return conv_const(c, n->a_const);
    case PG_QUERY__NODE__NODE_PARAM_REF:
        if ((e = db_sql_mk(DBX_PARAM, 0))) e->param = n->param_ref->number;
        if (e && e->param > c->q->nparams) c->q->nparams = e->param;
        return e;
    case PG_QUERY__NODE__NODE_A_EXPR: return conv_aexpr(c, n->a_expr);
    case PG_QUERY__NODE__NODE_BOOL_EXPR: {
        PgQuery__BoolExpr *b = n->bool_expr;
        db_xkind k = b->boolop == PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR  ? DBX_AND
                     : b->boolop == PG_QUERY__BOOL_EXPR_TYPE__OR_EXPR ? DBX_OR
                                                                      : DBX_NOT;
        if (k == DBX_NOT && b->n_args != 1) break;
        return conv_kids(c, db_sql_mk(k, (int)b->n_args), b->args);
    }
    case PG_QUERY__NODE__NODE_NULL_TEST:
        if ((e = db_sql_mk(DBX_ISNULL, 1)))
            e->negated = n->null_test->nulltesttype == PG_QUERY__NULL_TEST_TYPE__IS_NOT_NULL;
        return conv_kids(c, e, &n->null_test->arg);
    case PG_QUERY__NODE__NODE_FUNC_CALL: {
        PgQuery__FuncCall *fc = n->func_call;
        node *fn = fc->n_funcname ? fc->funcname[fc->n_funcname - 1] : NULL;
        const char *name = fn && fn->node_case == PG_QUERY__NODE__NODE_STRING ? fn->string->sval : "";
        bool plain = !fc->agg_star && !fc->agg_distinct && !fc->over && !fc->agg_filter && !fc->n_agg_order;
        if (plain && !strcasecmp(name, "length") && fc->n_args == 1)
            return conv_kids(c, db_sql_mk(DBX_LENGTH, 1), fc->args);
        if (c->having) { /* an aggregate over the group (HAVING, a result column) */
            static const char *aggs[] = {"count", "sum", "min", "max", "avg"};
            int agg = 0;
            for (int i = 0; i < 5; i++)
                if (!strcasecmp(name, aggs[i])) agg = DB_AGG_COUNT + i;
            bool distinct = fc->agg_distinct && agg == DB_AGG_COUNT && !fc->agg_star; /* COUNT(DISTINCT x) */
            if (agg && (!fc->agg_distinct || distinct) && !fc->over && (!fc->agg_filter || !distinct) &&
                !fc->n_agg_order && (fc->agg_star ? agg == DB_AGG_COUNT : fc->n_args == 1)) {
                bool filter = fc->agg_filter != NULL;
                bool is_col = !filter && !fc->agg_star && fc->args[0]->node_case == PG_QUERY__NODE__NODE_COLUMN_REF;
                db_sexpr *col = is_col ? db_sql_conv_column(c, fc->args[0]->column_ref) : NULL, *arg = NULL;
                if (filter) { /* agg(x) FILTER (WHERE f): agg(CASE WHEN f THEN x END); COUNT(*): of THEN 1 */
                    c->having = false;
                    db_sexpr *f = db_sql_conv_expr(c, fc->agg_filter);
                    db_sexpr *x = !f ? NULL : fc->agg_star ? db_sql_mk(DBX_INT, 0) : db_sql_conv_expr(c, fc->args[0]);
                    c->having = true;
                    if (x && fc->agg_star) x->ival = 1;
                    if (f && x && (arg = db_sql_mk(DBX_CASE, 3)) && (arg->kids[2] = db_sql_mk(DBX_NULL, 0))) {
                        arg->kids[0] = f, arg->kids[1] = x;
                    } else {
                        sexpr_free(f), sexpr_free(x), sexpr_free(arg);
                        arg = NULL;
                    }
                } else if (!fc->agg_star && !is_col) { /* SUM(price * qty): no aggregate inside */
                    c->having = false;
                    arg = db_sql_conv_expr(c, fc->args[0]);
                    c->having = true;
                }
                if ((is_col && (!col || col->from >= c->q->nfrom)) ||
                    ((filter || (!fc->agg_star && !is_col)) && !arg)) {
                    db_sexpr_free(col), db_sexpr_free(arg);
                    db_sql_unsupported(c->q, "aggregate of this argument");
                    return NULL;
                }
                if ((e = db_sql_mk(DBX_GROUPAGG, arg ? 1 : 0))) {
                    e->op = distinct ? DB_AGG_COUNT_DISTINCT : agg, e->from = col ? col->from : 0;
                    e->column = col ? col->column : arg ? DB_RESULT_EXPR : -1;
                    if (arg) e->kids[0] = arg;
                } else {
                    db_sexpr_free(arg);
                }
                db_sexpr_free(col);
                return e;
            }
        }
        if (plain && (!strcasecmp(name, "date") || !strcasecmp(name, "datetime"))) { /* date('now', '-7 days') */
            e = conv_now(c, fc, !strcasecmp(name, "datetime"));
            if (e) return e;
        }
        if (plain && fc->n_args >= 2 && (!strcasecmp(name, "max") || !strcasecmp(name, "min"))) /* SQLite's scalar */
            return conv_minmax(c, fc->args, fc->n_args, !strcasecmp(name, "max"), false);
        if (plain && !strcasecmp(name, "left") && fc->n_args == 2 &&
            fc->args[1]->node_case == PG_QUERY__NODE__NODE_A_CONST &&
            fc->args[1]->a_const->val_case == PG_QUERY__A__CONST__VAL_IVAL && fc->args[1]->a_const->ival->ival >= 0 &&
            fc->args[1]->a_const->ival->ival <= 255) { /* PostgreSQL's left(s, n): substr(s, 1, n) */
            db_sexpr *one = db_sql_mk(DBX_INT, 0), *n = db_sql_mk(DBX_INT, 0), *s = db_sql_conv_expr(c, fc->args[0]);
            e = db_sql_mk(DBX_FUNC, 3);
            if (one && n && s && e) {
                one->ival = 1, n->ival = fc->args[1]->a_const->ival->ival;
                e->op = DBF_SUBSTR, e->kids[0] = s, e->kids[1] = one, e->kids[2] = n;
                return e;
            }
            sexpr_free(one), sexpr_free(n), sexpr_free(s), sexpr_free(e);
            return NULL;
        }
        if (plain && !strcasecmp(name, "to_char")) {
            if ((e = conv_to_char(c, fc))) return e;
            db_sql_unsupported(c->q, "date function");
            return NULL;
        }
        if (plain && !strcasecmp(name, "date_trunc")) {
            if ((e = conv_date_trunc(c, fc))) return e;
            db_sql_unsupported(c->q, "date function");
            return NULL;
        }
        if (plain && (!strcasecmp(name, "extract") || !strcasecmp(name, "date_part"))) {
            if ((e = conv_date_part(c, fc))) return e;
            db_sql_unsupported(c->q, "date function");
            return NULL;
        }
        if (plain && !strcasecmp(name, "julianday") && fc->n_args >= 1 &&
            fc->args[0]->node_case == PG_QUERY__NODE__NODE_A_CONST && !fc->args[0]->a_const->isnull &&
            fc->args[0]->a_const->val_case == PG_QUERY__A__CONST__VAL_SVAL &&
            (fc->n_args > 1 || !strcasecmp(fc->args[0]->a_const->sval->sval, "now")) && (e = conv_now(c, fc, true))) {
            /* julianday('now'[, modifiers]), julianday('2024-06-30', '-7 days'): of that datetime text, the
             * clock to the second (SQLite's has milliseconds: a value read back then differs, a mismatch the
             * run reports); a date literal alone stays a date (an exact half: half_units) */
            db_sexpr *j = db_sql_mk(DBX_FUNC, 1);
            if (!j) {
                sexpr_free(e);
                return NULL;
            }
            j->op = DBF_JULIANDAY, j->kids[0] = e;
            c->q->sqlite_dates = true;
            return j;
        }
        if (plain && (!strcasecmp(name, "date") || !strcasecmp(name, "datetime") || !strcasecmp(name, "strftime") ||
                      !strcasecmp(name, "julianday"))) {
            if ((e = conv_date_of_column(c, name, fc))) return e;
            db_sql_unsupported(c->q, "date function");
            return NULL;
        }
        if (plain && fc->n_args == 2 &&
            (!strcasecmp(name, "instr") || !strcasecmp(name, "strpos") || !strcasecmp(name, "position"))) {
            if ((e = conv_instr(c, fc))) return e;
            db_sql_unsupported(c->q, "instr()/strpos() of a text that is not a literal");
            return NULL;
        }
        if (plain && fc->n_args == 3 && !strcasecmp(name, "replace")) {
            if ((e = conv_replace(c, fc))) return e;
            db_sql_unsupported(c->q, "replace() of texts that are not literals of one length");
            return NULL;
        }
        /* scalar functions (db_func): name, arguments allowed */
        static const struct {
            const char *name;
            int f;
            size_t min, max;
        } funcs[] = {{"abs", DBF_ABS, 1, 1},          {"coalesce", DBF_COALESCE, 2, 8}, {"ifnull", DBF_COALESCE, 2, 2},
                     {"lower", DBF_LOWER, 1, 1},      {"upper", DBF_UPPER, 1, 1},       {"substr", DBF_SUBSTR, 2, 3},
                     {"substring", DBF_SUBSTR, 2, 3}, {"ltrim", DBF_LTRIM, 1, 2},       {"rtrim", DBF_RTRIM, 1, 2},
                     {"trim", DBF_TRIM, 1, 2},        {"btrim", DBF_TRIM, 1, 2},        {"round", DBF_ROUND, 1, 2}};
        for (size_t i = 0; plain && i < sizeof funcs / sizeof *funcs; i++)
            if (!strcasecmp(name, funcs[i].name) && fc->n_args >= funcs[i].min && fc->n_args <= funcs[i].max) {
                if ((e = conv_kids(c, db_sql_mk(DBX_FUNC, (int)fc->n_args), fc->args))) e->op = funcs[i].f;
                if (e && e->op == DBF_SUBSTR)
                    for (int k = 1; k < e->nkids; k++)
                        if (e->kids[k]->kind != DBX_INT || e->kids[k]->ival < (k == 1 ? 1 : 0) ||
                            e->kids[k]->ival > 255) {
                            db_sql_unsupported(c->q, "substr() with positions that are not small literals");
                            sexpr_free(e);
                            return NULL;
                        }
                if (e && e->op == DBF_ROUND && e->nkids == 2 &&
                    (e->kids[1]->kind != DBX_INT || e->kids[1]->ival < 0 || e->kids[1]->ival > 15)) {
                    db_sql_unsupported(c->q, "round() to digits that are not a small literal");
                    sexpr_free(e);
                    return NULL;
                }
                if (e && (e->op == DBF_LTRIM || e->op == DBF_RTRIM || e->op == DBF_TRIM) && e->nkids == 2 &&
                    (e->kids[1]->kind != DBX_TEXT || !e->kids[1]->text[0])) {
                    db_sql_unsupported(c->q, "trim() of characters that are not a text literal");
                    sexpr_free(e);
                    return NULL;
                }
                return e;
            }
        db_sql_unsupported(c->q, "function call");
        return NULL;
    }
    case PG_QUERY__NODE__NODE_COALESCE_EXPR: /* COALESCE(a, b, ...): its own node in PostgreSQL's grammar */
        if (n->coalesce_expr->n_args < 1 || n->coalesce_expr->n_args > 8) break;
        if ((e = conv_kids(c, db_sql_mk(DBX_FUNC, (int)n->coalesce_expr->n_args), n->coalesce_expr->args)))
            e->op = DBF_COALESCE;
        return e;
    case PG_QUERY__NODE__NODE_SQLVALUE_FUNCTION: { /* CURRENT_DATE, CURRENT_TIMESTAMP: the run's clock */
        PgQuery__SQLValueFunctionOp op = n->sqlvalue_function->op;
        if (op == PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_DATE ||
            op == PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIMESTAMP)
            return now_text(time(NULL), op == PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIMESTAMP);
        db_sql_unsupported(c->q, "date function");
        return NULL;
    }
    case PG_QUERY__NODE__NODE_MIN_MAX_EXPR:
        return conv_minmax(c, n->min_max_expr->args, n->min_max_expr->n_args,
                           n->min_max_expr->op == PG_QUERY__MIN_MAX_OP__IS_GREATEST, true);
    case PG_QUERY__NODE__NODE_SUB_LINK: return db_sql_conv_sublink(c, n->sub_link);
    case PG_QUERY__NODE__NODE_TYPE_CAST: return conv_cast(c, n->type_cast);
    case PG_QUERY__NODE__NODE_CASE_EXPR: return conv_case(c, n->case_expr);
    default: break;
    }
    db_sql_unsupported(c->q, "expression kind");
    return NULL;
}
