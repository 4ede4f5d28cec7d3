/* check.c: CHECK constraints and column DEFAULTs of a schema, parsed with libpg_query and translated like WHERE clauses. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "db.h"
#include "util/util.h"

/* Bytes of a quoted token starting at s[0] ('...', "...", `...`, [...]), quotes doubled inside; 0 when none. */
static size_t quoted(const char *s)
{
    char close = s[0] == '[' ? ']' : s[0];
    if (s[0] != '\'' && s[0] != '"' && s[0] != '`' && s[0] != '[') return 0;
    size_t i = 1;
    for (; s[i]; i++)
        if (s[i] == close) {
            if (close != ']' && s[i + 1] == close) {
                i++;
                continue;
            }
            return i + 1;
        }
    return i;
}

/* Bytes of a comment starting at s[0] (-- to the end of the line, C style); 0 when none. */
static size_t comment(const char *s)
{
    if (s[0] == '-' && s[1] == '-') {
        const char *e = strchr(s, '\n');
        return e ? (size_t)(e - s) + 1 : strlen(s);
    }
    if (s[0] == '/' && s[1] == '*') {
        const char *e = strstr(s + 2, "*/");
        return e ? (size_t)(e - s) + 2 : strlen(s);
    }
    return 0;
}

static int word_char(int c) { return isalnum(c) || c == '_' || c >= 0x80; }

/*
 * The next "CHECK (" of sql at or after *pos, outside quotes and comments: returns the
 * offset of the expression's first byte and sets *len to its length (up to the matching
 * parenthesis) and *pos past it; -1 when there is none.
 */
static long next_check(const char *sql, size_t *pos, size_t *len)
{
    size_t i = *pos;
    while (sql[i]) {
        size_t k = quoted(sql + i);
        if (!k) k = comment(sql + i);
        if (k) {
            i += k;
            continue;
        }
        if ((i == 0 || !word_char((unsigned char)sql[i - 1])) && !strncasecmp(sql + i, "CHECK", 5) &&
            !word_char((unsigned char)sql[i + 5])) {
            size_t j = i + 5;
            while (isspace((unsigned char)sql[j])) j++;
            if (sql[j] == '(') {
                size_t start = j + 1, d = 1;
                j = start;
                while (sql[j] && d) {
                    size_t q = quoted(sql + j);
                    if (!q) q = comment(sql + j);
                    if (q) {
                        j += q;
                        continue;
                    }
                    d += sql[j] == '(';
                    d -= sql[j] == ')';
                    j++;
                }
                if (d) return -1;
                *len = j - 1 - start;
                *pos = j;
                return (long)start;
            }
        }
        i++;
    }
    return -1;
}

/* SQLite's `==` as `=` (outside quotes), for libpg_query. malloc'ed. */
static char *pg_equals(const char *e, size_t n)
{
    char *out = malloc(n + 1);
    if (!out) return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        size_t k = quoted(e + i);
        if (k) {
            if (i + k > n) k = n - i;
            memcpy(out + o, e + i, k);
            o += k, i += k;
            continue;
        }
        if (e[i] == '=' && i + 1 < n && e[i + 1] == '=') {
            out[o++] = '=';
            i += 2;
            continue;
        }
        out[o++] = e[i++];
    }
    out[o] = 0;
    return out;
}

/* name as a quoted SQL identifier ("a""b"), malloc'ed. */
static char *quote_ident(const char *name)
{
    char *out = malloc(2 * strlen(name) + 3);
    if (!out) return NULL;
    size_t o = 0;
    out[o++] = '"';
    for (const char *p = name; *p; p++) {
        if (*p == '"') out[o++] = '"';
        out[o++] = *p;
    }
    out[o++] = '"';
    out[o] = 0;
    return out;
}

/* The first function name called in text e (an identifier followed by "("), other than
 * the SQL words that take parentheses; into buf; false when none. */
static bool function_name(const char *e, char *buf, size_t cap)
{
    static const char *words[] = {"in", "and", "or", "not", "between", "like", "is", "exists", "check", "length", NULL};
    for (size_t i = 0; e[i];) {
        size_t k = quoted(e + i);
        if (k) {
            i += k;
            continue;
        }
        if (!word_char((unsigned char)e[i]) || isdigit((unsigned char)e[i])) {
            i++;
            continue;
        }
        size_t s = i;
        while (word_char((unsigned char)e[i])) i++;
        size_t j = i;
        while (isspace((unsigned char)e[j])) j++;
        if (e[j] != '(') continue;
        bool word = false;
        for (int w = 0; words[w]; w++) word |= strlen(words[w]) == i - s && !strncasecmp(e + s, words[w], i - s);
        if (word) continue;
        snprintf(buf, cap, "%.*s", (int)(i - s), e + s);
        return true;
    }
    return false;
}

/* A scratch row of symbols for table t, to try a translation once at load time. */
static db_val *trial_row(expr_ctx *cx, const db_table *t)
{
    db_val *row = calloc((size_t)t->ncols, sizeof *row);
    if (!row) return NULL;
    uint32_t idx = 0;
    for (int c = 0; c < t->ncols; c++) {
        row[c].null = expr_symbol(cx, idx++, 1, 0);
        if (db_column_is_text(&t->cols[c])) {
            row[c].is_text = true;
            row[c].len = expr_symbol(cx, idx++, 8, 0);
            row[c].nbytes = 8;
            row[c].bytes = calloc(8, sizeof *row[c].bytes);
            for (unsigned i = 0; row[c].bytes && i < 8; i++) row[c].bytes[i] = expr_symbol(cx, idx++, 8, 0);
        } else {
            row[c].is_real = db_column_is_real(&t->cols[c]);
            row[c].v = expr_symbol(cx, idx++, 64, 0);
        }
    }
    return row;
}

static void free_row(const db_table *t, db_val *row)
{
    for (int c = 0; row && c < t->ncols; c++) free(row[c].bytes);
    free(row);
}

/* Parse and try one CHECK expression e[0..n) of table ti; appends it to the table's checks. */
static int add_check(db_schema *s, int ti, const char *e, size_t n, expr_ctx *cx, const db_val *row, bool pg)
{
    db_table *t = &s->tables[ti];
    db_check *nc = realloc(t->checks, (t->nchecks + 1) * sizeof *nc);
    if (!nc) return -1;
    t->checks = nc;
    db_check *ck = &t->checks[t->nchecks];
    memset(ck, 0, sizeof *ck);
    if (!(ck->text = strndup(e, n))) return -1;
    t->nchecks++;
    char *pe = pg_equals(e, n), *qt = quote_ident(t->name);
    char *sql = pe && qt ? util_strf("SELECT * FROM %s WHERE (%s)", qt, pe) : NULL;
    free(pe), free(qt);
    if (!sql) return -1;
    db_query *q = NULL;
    char *err = NULL;
    if (db_query_parse(s, sql, strlen(sql), &q, &err)) {
        ck->why = "not parsed by libpg_query";
    } else if (!q->where) {
        ck->why = q->nunsupported ? q->unsupported[0] : "unsupported";
        for (int i = 0; i < q->nunsupported; i++) /* the expression's own kind, not the clause's */
            if (strcmp(q->unsupported[i], "WHERE clause")) {
                ck->why = q->unsupported[i];
                break;
            }
    } else {
        ck->q = q;
        q = NULL;
        ck->q->like_exact = pg; /* PostgreSQL's LIKE compares letters exactly */
        const char *why = NULL;
        if (!db_check_expr(cx, ck, row, &why)) {
            ck->why = why;
            db_query_free(ck->q);
            ck->q = NULL;
        }
    }
    free(err), free(sql);
    db_query_free(q);
    if (ck->q) return 0;
    char fn[64];
    if (!strcmp(ck->why, "function call") && function_name(ck->text, fn, sizeof fn))
        return db_schema_ignored(
            s, util_strf("CHECK (%s) of %s: function %s() (not modelled: SQLite checks each fixture; a "
                         "rejected one is counted as \"fixture rejected\")",
                         ck->text, t->name, fn));
    return db_schema_ignored(
        s, util_strf("CHECK (%s) of %s: %s (not modelled: SQLite checks each fixture; a rejected one is "
                     "counted as \"fixture rejected\")",
                     ck->text, t->name, ck->why));
}

/* Parse column c's DEFAULT as the value of "INSERT INTO t (c) VALUES (<default>)". */
static int add_default(db_schema *s, int ti, int c, expr_ctx *cx)
{
    db_table *t = &s->tables[ti];
    db_column *col = &t->cols[c];
    if (!col->dflt || c == t->rowid_alias) return 0;
    char *qt = quote_ident(t->name), *qc = quote_ident(col->name);
    char *sql = qt && qc ? util_strf("INSERT INTO %s (%s) VALUES (%s)", qt, qc, col->dflt) : NULL;
    free(qt), free(qc);
    if (!sql) return -1;
    db_query *q = NULL;
    char *err = NULL;
    const char *why = "not a literal";
    if (strcasestr(col->dflt, "current_") || strcasestr(col->dflt, "now")) {
        why = "the clock at the insert (the model's clock is the parse's)";
    } else if (!db_query_parse(s, sql, strlen(sql), &q, &err) && q->ninsert == 1) {
        db_val v;
        if (db_value_expr(cx, q, q->insert_val[0], NULL, NULL, 0, &v, &why))
            ;
        else if (v.is_text != db_column_is_text(col) ? !v.null->value : db_val_store(cx, col, &v, &v) != 0)
            why = "its type differs from the column's";
        else
            col->dflt_q = q, q = NULL;
    }
    free(err), free(sql);
    db_query_free(q);
    if (col->dflt_q) return 0;
    return db_schema_ignored(
        s, util_strf("DEFAULT %s of %s.%s: %s (not modelled: a row the program inserts without it holds the "
                     "engine's value, a constant)",
                     col->dflt, t->name, col->name, why));
}

int db_checks_load(db_schema *s, int ti, const char *create_sql)
{
    db_table *t = &s->tables[ti];
    expr_ctx *cx = expr_ctx_new();
    db_val *row = cx ? trial_row(cx, t) : NULL;
    int rc = row ? 0 : -1;
    size_t pos = 0, len = 0;
    long at;
    while (!rc && create_sql && (at = next_check(create_sql, &pos, &len)) >= 0)
        rc = add_check(s, ti, create_sql + at, len, cx, row, false);
    /* PostgreSQL's CHECKs, carried in comments of the SQLite DDL by db_pg_read_schema */
    for (const char *m = create_sql; !rc && m && (m = strstr(m, DB_PG_CHECK_MARK));) {
        m += strlen(DB_PG_CHECK_MARK);
        const char *end = strstr(m, "*/");
        char *def = end ? strndup(m, (size_t)(end - m)) : NULL;
        size_t p2 = 0;
        long a2 = def ? next_check(def, &p2, &len) : -1;
        if (a2 >= 0) rc = add_check(s, ti, def + a2, len, cx, row, true);
        free(def);
    }
    for (int c = 0; !rc && c < t->ncols; c++) rc = add_default(s, ti, c, cx);
    for (int i = 0; !rc && i < t->nchecks; i++)
        if (t->checks[i].q) db_text_needs_of_query(s, t->checks[i].q);
    for (int c = 0; !rc && c < t->ncols; c++) { /* PostgreSQL's char(n), CHARACTER(n) here, is exactly n bytes */
        const char *d = t->cols[c].decl_type;   /* (not db_pg_column_kind: the runtime links no libpq for SQLite) */
        unsigned n = d && !strncasecmp(d, "CHARACTER(", 10) ? (unsigned)atoi(d + 10) : 0;
        if (n > t->cols[c].text_need) t->cols[c].text_need = n;
    }
    for (int c = 0; !rc && c < t->ncols; c++) { /* a text DEFAULT is stored in cells too */
        const db_query *dq = t->cols[c].dflt_q;
        if (dq && dq->ninsert == 1 && db_column_is_text(&t->cols[c])) {
            const db_sexpr *v = dq->insert_val[0];
            size_t n = v && v->kind == DBX_TEXT && v->text ? strlen(v->text) : 0;
            if (n > t->cols[c].text_need) t->cols[c].text_need = (unsigned)(n < 255 ? n : 255);
        }
    }
    free_row(t, row);
    if (cx) expr_ctx_free(cx);
    return rc;
}

void db_checks_free(db_table *t)
{
    for (int i = 0; i < t->nchecks; i++) {
        free(t->checks[i].text);
        db_query_free(t->checks[i].q);
    }
    free(t->checks);
    t->checks = NULL;
    t->nchecks = 0;
    for (int c = 0; c < t->ncols; c++) {
        free(t->cols[c].dflt);
        db_query_free(t->cols[c].dflt_q);
        t->cols[c].dflt = NULL;
        t->cols[c].dflt_q = NULL;
    }
}

expr *db_row_checks(expr_ctx *cx, const db_table *t, const db_val *row)
{
    expr *all = expr_const(cx, 1, 1);
    for (int i = 0; i < t->nchecks; i++) {
        const char *why = NULL;
        expr *e = t->checks[i].q ? db_check_expr(cx, &t->checks[i], row, &why) : NULL;
        if (e) all = expr_and1(cx, all, e);
    }
    return all;
}

int db_insert_defaults(expr_ctx *cx, const db_table *t, const db_query *q, db_val *cells, uint64_t *unmodelled)
{
    if (unmodelled) *unmodelled = 0;
    for (int c = 0; c < t->ncols; c++) {
        const db_column *col = &t->cols[c];
        bool given = false;
        for (int i = 0; i < q->ninsert; i++) given |= q->insert_col[i] == c;
        if (given || c == t->rowid_alias || !col->dflt) continue;
        if (!col->dflt_q && unmodelled && c < 64) {
            *unmodelled |= 1ull << c;
            continue;
        }
        if (!col->dflt_q) return -1;
        db_val v;
        const char *why = NULL;
        if (db_value_expr(cx, col->dflt_q, col->dflt_q->insert_val[0], NULL, NULL, 0, &v, &why)) return -1;
        if (v.is_text != db_column_is_text(col)) { /* a NULL default of either type */
            if (!v.null->value) return -1;
            continue;
        }
        db_val out;
        if (db_val_store(cx, col, &v, &out)) /* an INTEGER default of a REAL column becomes a double */
            return -1;
        if (v.is_text) {
            out.bytes = calloc(v.nbytes ? v.nbytes : 1, sizeof *out.bytes);
            if (!out.bytes) return -1;
            memcpy(out.bytes, v.bytes, v.nbytes * sizeof *out.bytes);
        }
        cells[c] = out;
    }
    return 0;
}
