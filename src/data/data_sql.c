/* data_sql.c: branch conditions over data inputs as exact SQL over the wrapped query's result columns (SQLite and PostgreSQL dialects). */
#define _GNU_SOURCE
#include "data.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/util.h"
#include "db/db.h"

/*
 * Three translations, one per kind of value:
 *   sql_bool(e)  width 1       an SQL boolean
 *   sql_int(e)   width w > 1   an SQL integer: the unsigned value in [0, 2^w) for w < 64, the
 *                              signed (two's complement) value for w = 64, SQL's own integers
 *   sql_real(e)  IEEE double   an SQL REAL / double precision
 * (and sql_signed(e), the signed view of sql_int(e) for w < 64)
 * Every operator keeps C's bit-vector meaning: results are masked back to their width,
 * signed views are made explicitly. What cannot be kept exactly fails the whole condition
 * (the caller then drops it from the candidate query and counts it).
 */

#define SQL_MAX (48 * 1024) /* longer conditions are not sent (an unshared DAG grows fast) */

typedef struct tx {
    data_dialect d;
    data_term_fn term;
    void *ctx;
    const char *why;
    strbuf o;
} tx;

static int sql_bool(tx *t, expr *e);
static int sql_int(tx *t, expr *e);
static int sql_real(tx *t, expr *e);

static int fail(tx *t, const char *why)
{
    if (!t->why) t->why = why;
    return -1;
}

static int too_long(tx *t) { return t->o.len > SQL_MAX || t->o.failed ? fail(t, "condition too large for SQL") : 0; }

static const char *cast_real(const tx *t) { return t->d == DATA_PG ? "double precision" : "REAL"; }

static void put_u(tx *t, uint64_t v) { sb_printf(&t->o, "%" PRIu64, v); }
static void put_s(tx *t, int64_t v)
{
    if (v == INT64_MIN)
        sb_puts(&t->o, "(-9223372036854775807-1)");
    else if (v < 0)
        sb_printf(&t->o, "(%" PRId64 ")", v);
    else
        sb_printf(&t->o, "%" PRId64, v);
}

static bool is_const(const expr *e) { return e->op == EXPR_CONST; }

/* Append pre, the translation of a by f, then post: the shape of most translations that
 * wrap an operand. 0, or -1 when a cannot be translated. */
static int around(tx *t, const char *pre, int (*f)(tx *, expr *), expr *a, const char *post)
{
    sb_puts(&t->o, pre);
    if (f(t, a)) return -1;
    sb_puts(&t->o, post);
    return 0;
}

/* Append pre f(a) mid f(b) post: two operands in one shape. 0, or -1 when one cannot be translated. */
static int around2(tx *t, const char *pre, int (*f)(tx *, expr *), expr *a, const char *mid, expr *b, const char *post)
{
    return around(t, pre, f, a, mid) || around(t, "", f, b, post) ? -1 : 0;
}

/* The signed view of sql_int(e) for width w < 64 (sql_int(e) is then in [0, 2^w)). w <= 62 only:
 * 2^w must be an SQL integer. */
static int sql_signed(tx *t, expr *e)
{
    unsigned w = e->width;
    if (w == 64) return sql_int(t, e);
    if (is_const(e)) { /* a constant's signed view is a literal */
        put_s(t, expr_sext64(e->value, w));
        return 0;
    }
    if (w > 62) return fail(t, "63-bit signed value");
    if (w == 1) { /* true is -1 */
        return around(t, "(CASE WHEN ", sql_bool, e, " THEN -1 ELSE 0 END)");
    }
    sb_puts(&t->o, "(");
    if (sql_int(t, e)) return -1;
    sb_printf(&t->o, " - ((");
    if (sql_int(t, e)) return -1;
    sb_printf(&t->o, " >> %u) << %u))", w - 1, w);
    return too_long(t);
}

/* Append " & mask(w)" closing a parenthesis opened by the caller, for w < 64. */
static void mask_close(tx *t, unsigned w)
{
    if (w < 64)
        sb_printf(&t->o, ") & %" PRIu64 ")", expr_mask(w));
    else
        sb_puts(&t->o, "))");
}

static int binop(tx *t, expr *e, const char *op, int (*f)(tx *, expr *))
{
    sb_puts(&t->o, "(");
    if (f(t, e->kid[0])) return -1;
    sb_printf(&t->o, " %s ", op);
    if (f(t, e->kid[1])) return -1;
    sb_puts(&t->o, ")");
    return too_long(t);
}

/* ((kid0 op kid1) & mask(w)): an operation whose SQL result may leave the w bits of C's. */
static int binop_masked(tx *t, expr *e, const char *op, int (*f)(tx *, expr *), unsigned w)
{
    sb_puts(&t->o, "((");
    if (binop(t, e, op, f)) return -1;
    mask_close(t, w);
    return too_long(t);
}

/* ((f(a) shift k) & mask(mask_w)), shift "<<" or ">>", or ((f(a)) & mask) when shift is NULL. */
static int shifted_masked(tx *t, int (*f)(tx *, expr *), expr *a, const char *shift, unsigned k, unsigned mask_w)
{
    sb_puts(&t->o, "((");
    if (f(t, a)) return -1;
    if (shift) sb_printf(&t->o, " %s %u", shift, k);
    mask_close(t, mask_w);
    return too_long(t);
}

/* The SQL term of input symbol e (the column expression it was read from), which must be a
 * floating-point value when real and an integer otherwise (else: fail with wrong_kind). */
static int symbol_term(tx *t, const expr *e, bool real, const char *wrong_kind)
{
    bool is_real = false;
    const char *term = t->term(t->ctx, e->aux, &is_real);
    if (!term) return fail(t, "a value that does not come from the database");
    if (is_real != real) return fail(t, wrong_kind);
    sb_puts(&t->o, term);
    return too_long(t);
}

/* kid0 ? kid1 : kid2 as a CASE, the branches translated by f. */
static int ite(tx *t, expr *e, int (*f)(tx *, expr *))
{
    if (around(t, "(CASE WHEN ", sql_bool, e->kid[0], " THEN ")) return -1;
    if (f(t, e->kid[1])) return -1;
    sb_puts(&t->o, " ELSE ");
    if (f(t, e->kid[2])) return -1;
    sb_puts(&t->o, " END)");
    return too_long(t);
}

/* Is e (possibly zero-extended) byte k of SQLite result column col, as data_sqlite.c names
 * it (the hex() term, 1-based position pos = k + 1)? Such comparisons with a constant are
 * written as blob comparisons, which SQLite evaluates far faster than the hex() arithmetic. */
static bool sqlite_byte(tx *t, const expr *e, int *col, int *pos)
{
    while (e->op == EXPR_ZEXT) e = e->kid[0];
    if (t->d != DATA_SQLITE || e->op != EXPR_SYMBOL || e->width != 8) return false;
    bool real = false;
    const char *term = t->term(t->ctx, e->aux, &real);
    int c1, p1, c2, p2, n = 0;
    if (!term || real ||
        sscanf(term,
               "(instr('0123456789ABCDEF',substr(hex(substr(CAST(c%d AS BLOB),%d,1)),1,1))*16+"
               "instr('0123456789ABCDEF',substr(hex(substr(CAST(c%d AS BLOB),%d,1)),2,1))-17)%n",
               &c1, &p1, &c2, &p2, &n) != 4 ||
        term[n] || c1 != c2 || p1 != p2 || p1 < 1)
        return false;
    *col = c1;
    *pos = p1;
    return true;
}

/* byte (op) constant v as a blob comparison: the byte past the end of the value is 0 in the
 * model and the empty blob in SQL, which sorts before every byte. op: '=', '<' (byte < v),
 * '>' (byte > v). */
static int byte_cmp(tx *t, int col, int pos, char op, uint64_t v)
{
    if (v > 255) { /* a byte is never that large */
        sb_puts(&t->o, op == '<' ? "(1=1)" : "(1=0)");
        return 0;
    }
    if (op == '=' && v == 0)
        sb_printf(&t->o, "(COALESCE(length(CAST(c%d AS BLOB)),0) < %d OR substr(CAST(c%d AS BLOB),%d,1) = X'00')", col,
                  pos, col, pos);
    else if (op == '<' && v == 0)
        sb_puts(&t->o, "(1=0)");
    else
        /* (substr of an empty blob is NULL in SQLite: read as the empty blob) */
        sb_printf(&t->o, "(COALESCE(substr(CAST(c%d AS BLOB),%d,1),X'') %c X'%02X')", col, pos, op, (unsigned)v);
    return 0;
}

/* ---------------------------------------------------------------- booleans */

static int sql_bool(tx *t, expr *e)
{
    if (e->width != 1) return fail(t, "not a condition");
    switch (e->op) {
    case EXPR_CONST: sb_puts(&t->o, e->value ? "(1=1)" : "(1=0)"); return 0;
    case EXPR_SYMBOL:
    case EXPR_EXTRACT:
    case EXPR_ITE:
        if (e->op == EXPR_ITE) return ite(t, e, sql_bool);
        if (e->op == EXPR_EXTRACT) {
            sb_puts(&t->o, "(((");
            if (sql_int(t, e->kid[0])) return -1;
            sb_printf(&t->o, " >> %u) & 1) = 1)", e->aux);
            return too_long(t);
        }
        return fail(t, "1-bit input");
    case EXPR_NOT: return around(t, "(NOT ", sql_bool, e->kid[0], ")");
    case EXPR_AND: return binop(t, e, "AND", sql_bool);
    case EXPR_OR: return binop(t, e, "OR", sql_bool);
    case EXPR_XOR: return binop(t, e, "<>", sql_bool);
    case EXPR_EQ: {
        if (e->kid[0]->width == 1) return binop(t, e, "=", sql_bool);
        int col, pos;
        if (is_const(e->kid[0]) && sqlite_byte(t, e->kid[1], &col, &pos))
            return byte_cmp(t, col, pos, '=', e->kid[0]->value);
        if (is_const(e->kid[1]) && sqlite_byte(t, e->kid[0], &col, &pos))
            return byte_cmp(t, col, pos, '=', e->kid[1]->value);
        return binop(t, e, "=", sql_int);
    }
    case EXPR_ULT: {
        unsigned w = e->kid[0]->width;
        if (w == 1) /* a < b: a false, b true */
            return around2(t, "((NOT ", sql_bool, e->kid[0], ") AND ", e->kid[1], ")");
        int col, pos;
        if (w < 64 && is_const(e->kid[1]) && sqlite_byte(t, e->kid[0], &col, &pos))
            return byte_cmp(t, col, pos, '<', e->kid[1]->value);
        if (w < 64 && is_const(e->kid[0]) && sqlite_byte(t, e->kid[1], &col, &pos))
            return byte_cmp(t, col, pos, '>', e->kid[0]->value);
        if (w < 64) return binop(t, e, "<", sql_int);
        /* unsigned 64-bit: the same sign compares as signed; otherwise the non-negative one is smaller */
        if (is_const(e->kid[1]) && (int64_t)e->kid[1]->value > 0) { /* x <u c, c > 0: 0 <= x < c */
            if (around2(t, "(", sql_int, e->kid[0], " >= 0 AND ", e->kid[0], " < ")) return -1;
            put_s(t, (int64_t)e->kid[1]->value);
            sb_puts(&t->o, ")");
            return too_long(t);
        }
        /* (a < 0) = (b < 0) AND a < b, or a >= 0 AND b < 0 */
        if (around2(t, "(((", sql_int, e->kid[0], " < 0) = (", e->kid[1], " < 0) AND ")) return -1;
        if (binop(t, e, "<", sql_int)) return -1;
        if (around2(t, ") OR (", sql_int, e->kid[0], " >= 0 AND ", e->kid[1], " < 0))")) return -1;
        return too_long(t);
    }
    case EXPR_SLT:
        if (e->kid[0]->width == 1) /* signed 1-bit: true (-1) < false (0) */
            return around2(t, "(", sql_bool, e->kid[0], " AND NOT ", e->kid[1], ")");
        return binop(t, e, "<", sql_signed);
    case EXPR_FOEQ: return binop(t, e, "=", sql_real);
    case EXPR_FOLT: return binop(t, e, "<", sql_real);
    case EXPR_FOLE: return binop(t, e, "<=", sql_real);
    case EXPR_FUNO: {
        /* SQL has no NaN: database values never are, and sql_real() admits no operation that makes
         * one (no division by a non-constant, no infinity): false when both sides translate */
        tx u = *t;
        u.o = (strbuf)STRBUF_INIT;
        int r = sql_real(&u, e->kid[0]) || sql_real(&u, e->kid[1]) ? -1 : 0;
        sb_free(&u.o);
        if (r) return fail(t, u.why ? u.why : "NaN test");
        sb_puts(&t->o, "(1=0)");
        return 0;
    }
    default: return fail(t, "overflow flag or unsupported condition");
    }
}

/* ---------------------------------------------------------------- integers */

static int sql_int(tx *t, expr *e)
{
    unsigned w = e->width;
    if (w == 1) {
        return around(t, "(CASE WHEN ", sql_bool, e, " THEN 1 ELSE 0 END)");
    }
    switch (e->op) {
    case EXPR_CONST:
        if (w == 64)
            put_s(t, (int64_t)e->value);
        else
            put_u(t, e->value);
        return 0;
    case EXPR_SYMBOL: return symbol_term(t, e, false, "bits of a floating-point value");
    case EXPR_ADD:
    case EXPR_SUB:
    case EXPR_MUL: {
        const char *op = e->op == EXPR_ADD ? "+" : e->op == EXPR_SUB ? "-" : "*";
        if (e->op == EXPR_MUL && w > 31 && w < 64) return fail(t, "wide multiplication");
        if (w == 64) return binop(t, e, op, sql_int);
        return binop_masked(t, e, op, sql_int, w);
    }
    case EXPR_UDIV:
    case EXPR_UREM:
    case EXPR_SDIV:
    case EXPR_SREM: {
        if (!is_const(e->kid[1]) || e->kid[1]->value == 0) return fail(t, "division by a value from the data");
        bool sgn = e->op == EXPR_SDIV || e->op == EXPR_SREM;
        const char *op = e->op == EXPR_UDIV || e->op == EXPR_SDIV ? "/" : "%";
        if (!sgn) {
            if (w == 64 && (int64_t)e->kid[1]->value < 0) return fail(t, "unsigned 64-bit division");
            if (w == 64) { /* only exact for non-negative dividends */
                if (around(t, "(CASE WHEN ", sql_int, e->kid[0], " >= 0 THEN ")) return -1;
                if (binop(t, e, op, sql_int)) return -1;
                sb_puts(&t->o, " ELSE NULL END)");
                return too_long(t);
            }
            return binop(t, e, op, sql_int);
        }
        if (w == 64 && (int64_t)e->kid[1]->value == -1) return fail(t, "division by -1");
        return binop_masked(t, e, op, sql_signed, w);
    }
    case EXPR_SHL:
    case EXPR_LSHR:
    case EXPR_ASHR: {
        if (!is_const(e->kid[1]) || e->kid[1]->value >= w) return fail(t, "shift by a value from the data");
        unsigned k = (unsigned)e->kid[1]->value;
        if (e->op == EXPR_SHL) return shifted_masked(t, sql_int, e->kid[0], "<<", k, w);
        if (e->op == EXPR_LSHR) return shifted_masked(t, sql_int, e->kid[0], ">>", k, w == 64 && k ? 64 - k : w);
        return shifted_masked(t, sql_signed, e->kid[0], ">>", k, w);
    }
    case EXPR_AND: return binop(t, e, "&", sql_int);
    case EXPR_OR: return binop(t, e, "|", sql_int);
    case EXPR_XOR: /* SQLite has no XOR: (a | b) & ~(a & b) */
        sb_puts(&t->o, "(");
        if (binop(t, e, "|", sql_int)) return -1;
        sb_puts(&t->o, " & ~");
        if (binop(t, e, "&", sql_int)) return -1;
        sb_puts(&t->o, ")");
        return too_long(t);
    case EXPR_NOT:
        sb_puts(&t->o, "((~");
        if (sql_int(t, e->kid[0])) return -1;
        mask_close(t, w);
        return 0;
    case EXPR_ZEXT: return sql_int(t, e->kid[0]);
    case EXPR_SEXT:
        if (w == 64) return sql_signed(t, e->kid[0]);
        return shifted_masked(t, sql_signed, e->kid[0], NULL, 0, w);
    case EXPR_EXTRACT:
        if (e->aux == 0 && w == e->kid[0]->width) return sql_int(t, e->kid[0]);
        return shifted_masked(t, sql_int, e->kid[0], e->aux ? ">>" : NULL, e->aux, w);
    case EXPR_CONCAT:
        sb_puts(&t->o, "((");
        if (sql_int(t, e->kid[0])) return -1;
        sb_printf(&t->o, " << %u) | ", e->kid[1]->width);
        if (sql_int(t, e->kid[1])) return -1;
        sb_puts(&t->o, ")");
        return too_long(t);
    case EXPR_ITE: return ite(t, e, sql_int);
    case EXPR_FTOSI:
        if (e->kid[0]->width != 64) return fail(t, "32-bit float");
        sb_puts(&t->o, "((");
        if (t->d == DATA_PG) {
            if (around(t, "trunc(", sql_real, e->kid[0], ")::bigint")) return -1;
        } else {
            if (around(t, "CAST(", sql_real, e->kid[0], " AS INTEGER)")) return -1;
        }
        mask_close(t, w);
        return too_long(t);
    default: return fail(t, expr_op_is_fp(e->op) ? "bits of a floating-point value" : "unsupported operator");
    }
}

/* ---------------------------------------------------------------- doubles */

static int sql_real(tx *t, expr *e)
{
    if (e->width != 64) return fail(t, "32-bit float");
    switch (e->op) {
    case EXPR_CONST: {
        double v;
        memcpy(&v, &e->value, sizeof v);
        if (!isfinite(v)) return fail(t, "infinity or NaN");
        char *lit = db_sql_double(v);
        if (!lit) return fail(t, "out of memory");
        sb_printf(&t->o, "CAST(%s AS %s)", lit, cast_real(t));
        free(lit);
        return 0;
    }
    case EXPR_SYMBOL: return symbol_term(t, e, true, "an integer read as floating-point bits");
    case EXPR_FADD: return binop(t, e, "+", sql_real);
    case EXPR_FSUB: return binop(t, e, "-", sql_real);
    case EXPR_FMUL: return binop(t, e, "*", sql_real);
    case EXPR_FDIV: {
        expr *k = e->kid[1];
        double v;
        memcpy(&v, &k->value, sizeof v);
        if (!is_const(k) || v == 0 || !isfinite(v)) return fail(t, "division by a value from the data");
        return binop(t, e, "/", sql_real);
    }
    case EXPR_SITOF:
    case EXPR_UITOF:
        if (e->op == EXPR_UITOF && e->kid[0]->width == 64) return fail(t, "unsigned 64-bit to double");
        sb_puts(&t->o, "CAST(");
        if (e->op == EXPR_SITOF ? sql_signed(t, e->kid[0]) : sql_int(t, e->kid[0])) return -1;
        sb_printf(&t->o, " AS %s)", cast_real(t));
        return too_long(t);
    case EXPR_ITE: return ite(t, e, sql_real);
    default: return fail(t, "floating-point operation without an exact SQL counterpart");
    }
}

char *data_expr_sql(data_dialect d, expr *cond, data_term_fn term, void *ctx, const char **why)
{
    tx t;
    memset(&t, 0, sizeof t);
    t.d = d;
    t.term = term;
    t.ctx = ctx;
    if (sql_bool(&t, cond) || t.o.failed) {
        if (why) *why = t.why ? t.why : "out of memory";
        sb_free(&t.o);
        return NULL;
    }
    if (why) *why = NULL;
    return t.o.s ? t.o.s : strdup("(1=1)");
}

/* ---------------------------------------------------------------- PostgreSQL: terms computed once per row */

/* End (one past the closing parenthesis) of the call starting at s (s points at the name);
 * string literals are skipped. NULL when unbalanced. */
static const char *call_end(const char *s)
{
    const char *p = strchr(s, '(');
    int depth = 0;
    for (; p && *p; p++) {
        if (*p == '\'') { /* '...' with '' inside */
            for (p++; *p && !(*p == '\'' && p[1] != '\''); p += *p == '\'' ? 2 : 1)
                ;
            if (!*p) return NULL;
        } else if (*p == '(') {
            depth++;
        } else if (*p == ')' && --depth == 0) {
            return p + 1;
        }
    }
    return NULL;
}

char *data_pg_share_terms(const char *cond)
{
    static const char *const names[] = {"octet_length(", "convert_to("};
    char **defs = NULL;
    size_t ndefs = 0;
    strbuf body = STRBUF_INIT;
    const char *p = cond;
    while (*p) {
        if (*p == '\'') { /* a string literal ('' inside) is copied as it is */
            const char *q = p + 1;
            while (*q && !(*q == '\'' && q[1] != '\'')) q += *q == '\'' ? 2 : 1;
            if (*q) q++;
            sb_append(&body, p, (size_t)(q - p));
            p = q;
            continue;
        }
        size_t which = 2;
        if (p == cond || !(isalnum((unsigned char)p[-1]) || p[-1] == '_'))
            for (size_t k = 0; k < 2; k++)
                if (!strncmp(p, names[k], strlen(names[k]))) which = k;
        const char *end = which < 2 ? call_end(p) : NULL;
        if (!end) {
            sb_append(&body, p, 1);
            p++;
            continue;
        }
        size_t len = (size_t)(end - p), i;
        for (i = 0; i < ndefs; i++)
            if (strlen(defs[i]) == len && !strncmp(defs[i], p, len)) break;
        if (i == ndefs) {
            char **nd = realloc(defs, (ndefs + 1) * sizeof *nd);
            if (!nd) break;
            defs = nd;
            defs[ndefs++] = strndup(p, len);
        }
        sb_printf(&body, "sympath_t%zu", i);
        p = end;
    }
    char *out = NULL;
    if (!ndefs || body.failed) {
        out = strdup(cond);
    } else {
        /* a correlated subquery of one row: OFFSET 0 keeps the planner from pulling it up
         * (which would put every term back in place) */
        strbuf o = STRBUF_INIT;
        sb_puts(&o, "EXISTS (SELECT 1 FROM (SELECT ");
        for (size_t i = 0; i < ndefs; i++) sb_printf(&o, "%s%s AS sympath_t%zu", i ? ", " : "", defs[i], i);
        sb_printf(&o, " OFFSET 0) sympath_x WHERE %s)", body.s ? body.s : "(1=1)");
        out = o.failed ? NULL : o.s;
    }
    for (size_t i = 0; i < ndefs; i++) free(defs[i]);
    free(defs);
    sb_free(&body);
    return out;
}
