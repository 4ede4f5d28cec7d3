/* text_need.c: how many bytes a TEXT column's fixture cells need: the texts and lengths its CHECKs and the program's SQL compare it with. */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db.h"
#include "util/util.h"

/*
 * A fixture's TEXT cell has a fixed number of bytes (--db-text, 8), fixed before the first run
 * because the test vector's layout depends on it (db.h). A query `status = 'processing'` or
 * `length(body) > 40` over a column of 8-byte cells can never hold, and a CHECK listing the
 * statuses can make every row impossible. So each text column gets at least the bytes of the
 * longest text literal compared with it (=, <>, <, >, IN, LIKE without its wildcards) and the
 * least length() asked of it, read from its CHECKs (db_checks_load) and from the program's own
 * SQL strings (db_text_needs_from_program, after the build), and a column compared with a parameter the
 * bytes of the longest data-like constant of the program (`email = ?` when it binds "alice@example.com";
 * instrument's strings.c hands such constants over). The explorer and every executor
 * must agree on the layout: the program's needs travel in the schema copy the executors read,
 * as DB_TEXT_NEED_MARK comments that db_schema_from_ddl applies.
 */

/* Raise the text column that e names in q (a FROM item's or a subquery's table) to need bytes. */
static void need_text(db_schema *s, const db_query *q, const db_sexpr *e, size_t need)
{
    if (!e || e->kind != DBX_COLUMN || e->column < 0 || need == 0) return;
    int t = -1;
    if (e->from >= 0 && e->from < q->nfrom && e->from < DB_MAX_FROM)
        t = q->from_table[e->from];
    else if (e->from >= DB_MAX_FROM && e->from - DB_MAX_FROM < q->nsub)
        t = q->sub_table[e->from - DB_MAX_FROM];
    if (t < 0 || t >= s->ntables || e->column >= s->tables[t].ncols) return;
    db_column *c = &s->tables[t].cols[e->column];
    if (db_column_is_text(c) && c->date == DB_DATE_NONE && need > c->text_need)
        c->text_need = (unsigned)(need < 255 ? need : 255); /* (a date's cells have their format's length) */
}

/* Bytes a text literal needs in a cell: all of it; for a LIKE pattern its characters but the wildcards. */
static size_t literal_need(const db_sexpr *lit, bool like)
{
    if (!lit || lit->kind != DBX_TEXT || !lit->text) return 0;
    size_t n = 0;
    for (const char *p = lit->text; *p; p++) n += !(like && (*p == '%' || *p == '_'));
    return n;
}

/* The column under length(), or NULL. */
static const db_sexpr *length_of(const db_sexpr *e)
{
    return e && e->kind == DBX_LENGTH && e->nkids ? e->kids[0] : NULL;
}

/* The longest data-like constant of the program (db_text_needs_from_program), which it may bind as a parameter
 * compared with a text column: such a column's cells need that many bytes. 0 outside that call. */
static size_t param_need;

/* Whether e is a bound parameter, or a concatenation with one ('%' || ? || '%'). */
static bool has_param(const db_sexpr *e)
{
    if (!e) return false;
    if (e->kind == DBX_PARAM) return true;
    return e->kind == DBX_CONCAT && (has_param(e->kids[0]) || has_param(e->kids[1]));
}

static void walk(db_schema *s, const db_query *q, const db_sexpr *e)
{
    if (!e) return;
    const db_sexpr *a = e->nkids > 0 ? e->kids[0] : NULL, *b = e->nkids > 1 ? e->kids[1] : NULL;
    if (param_need && (e->kind == DBX_LIKE || (e->kind == DBX_CMP && (e->op == DB_EQ || e->op == DB_NE)))) {
        if (has_param(b)) need_text(s, q, a, param_need); /* email = ?, name LIKE '%' || ? || '%' */
        if (e->kind == DBX_CMP && has_param(a)) need_text(s, q, b, param_need);
    }
    for (int i = 1; param_need && e->kind == DBX_IN && i < e->nkids; i++)
        if (has_param(e->kids[i])) need_text(s, q, a, param_need);
    switch (e->kind) {
    case DBX_CMP: /* col op 'text', 'text' op col, length(col) op n, n op length(col) */
        need_text(s, q, a, literal_need(b, false));
        need_text(s, q, b, literal_need(a, false));
        if (length_of(a) && b->kind == DBX_INT && b->ival > 0 && e->op != DB_LT && e->op != DB_LE)
            need_text(s, q, length_of(a), (size_t)b->ival + (e->op == DB_GT));
        if (length_of(b) && a->kind == DBX_INT && a->ival > 0 && e->op != DB_GT && e->op != DB_GE)
            need_text(s, q, length_of(b), (size_t)a->ival + (e->op == DB_LT));
        break;
    case DBX_IN:
        for (int i = 1; i < e->nkids; i++) need_text(s, q, a, literal_need(e->kids[i], false));
        break;
    case DBX_LIKE: need_text(s, q, a, literal_need(b, true)); break;
    case DBX_BETWEEN: /* length(col) BETWEEN lo AND hi: lo */
        if (length_of(a) && b->kind == DBX_INT && b->ival > 0 && !e->negated)
            need_text(s, q, length_of(a), (size_t)b->ival);
        break;
    default: break;
    }
    for (int i = 0; i < e->nkids; i++) walk(s, q, e->kids[i]);
}

void db_text_needs_of_query(db_schema *s, const db_query *q)
{
    if (!s || !q) return;
    walk(s, q, q->where);
    walk(s, q, q->having);
    for (int i = 0; i < q->nfrom && i < DB_MAX_FROM; i++) walk(s, q, q->on[i]);
    db_text_needs_of_query(s, q->insert_src); /* INSERT ... SELECT: its SELECT's conditions */
}

/* The combinations of row slots a grown layout keeps a join within: 64 (a three-table join stops at 4 rows, where
 * Z3 still keeps up), and for a join of four tables the 81 of the default 3 rows (the runtime enumerates up to
 * DB_MAX_COMBOS of runtime/dbcommon/db_rt.h, 256): such a program keeps 3 row slots when its layout grows. */
#define JOIN_COMBOS_MAX 64
#define JOIN4_COMBOS_MAX 81

/* Record in s->join_rows the most row slots per table under which q's join stays enumerable. */
static void note_join_rows(db_schema *s, const db_query *q)
{
    if (q->nfrom < 2) return;
    unsigned long most = q->nfrom >= 4 ? JOIN4_COMBOS_MAX : JOIN_COMBOS_MAX;
    unsigned r = 1;
    for (;; r++) { /* the product of (r + 1 for an outer join's optional side) over the FROM items */
        unsigned long n = 1;
        for (int f = 0; f < q->nfrom && n <= most; f++) n *= r + 1 + (q->nullable[f] ? 1u : 0u);
        if (n > most) break;
    }
    unsigned *g = realloc(s->join_rows, ((size_t)s->njoin_rows + 1) * sizeof *g);
    if (!g) return;
    s->join_rows = g;
    s->join_rows[s->njoin_rows++] = r;
}

char *db_text_needs_from_program(db_schema *s, const char *sqls)
{
    unsigned *before = NULL;
    size_t ncols = 0, k = 0;
    for (int t = 0; t < s->ntables; t++) ncols += (size_t)s->tables[t].ncols;
    if (!(before = calloc(ncols + 1, sizeof *before))) return NULL;
    for (int t = 0; t < s->ntables; t++)
        for (int c = 0; c < s->tables[t].ncols; c++) before[k++] = s->tables[t].cols[c].text_need;
    db_date_kind *dated = calloc(ncols + 1, sizeof *dated); /* TEXT columns the SQL uses as dates */
    s->infer_dates = dated != NULL;
    param_need = 0;
    for (const char *p = sqls; p && *p; p += strlen(p) + 1)
        if (*p == 1 && strlen(p + 1) > param_need) param_need = strlen(p + 1);
    for (const char *p = sqls; p && *p; p += strlen(p) + 1) {
        if (*p == 1) continue; /* a data-like constant, not SQL */
        db_query *q = NULL;
        char *err = NULL;
        if (!db_query_parse(s, p, strlen(p), &q, &err)) {
            db_text_needs_of_query(s, q);
            note_join_rows(s, q);
        }
        const db_query *iq = q && q->insert_src ? q->insert_src : q; /* INSERT ... SELECT: its SELECT's dates */
        for (int i = 0; iq && dated && i < iq->ndate_infer; i++) {   /* from now on a date column */
            db_column *col = &s->tables[iq->date_infer_table[i]].cols[iq->date_infer_col[i]];
            db_date_kind kind = iq->date_infer_kind[i];
            if (col->dflt && (strcasestr(col->dflt, "timestamp") || strcasestr(col->dflt, "datetime")))
                kind = DB_DATE_DATETIME; /* DEFAULT CURRENT_TIMESTAMP writes a date and a time */
            size_t at = 0;
            for (int t = 0; t < iq->date_infer_table[i]; t++) at += (size_t)s->tables[t].ncols;
            at += (size_t)iq->date_infer_col[i];
            if (kind > dated[at]) dated[at] = kind;
            col->date = dated[at];
        }
        db_query_free(q);
        free(err);
    }
    s->infer_dates = false;
    param_need = 0;
    char *out = strdup("");
    k = 0;
    for (int t = 0; out && dated && t < s->ntables; t++)
        for (int c = 0; out && c < s->tables[t].ncols; c++, k++) {
            const db_column *col = &s->tables[t].cols[c];
            if (!dated[k] || strstr(s->tables[t].name, "*/") || strstr(col->name, "*/") ||
                strchr(s->tables[t].name, '\t') || strchr(col->name, '\t'))
                continue;
            char *n =
                util_strf("%s" DB_DATE_NEED_MARK "%s\t%s\t%d */\n", out, s->tables[t].name, col->name, (int)dated[k]);
            free(out);
            out = n;
        }
    free(dated);
    k = 0;
    for (int t = 0; out && t < s->ntables; t++)
        for (int c = 0; out && c < s->tables[t].ncols; c++, k++) {
            const db_column *col = &s->tables[t].cols[c];
            if (col->text_need <= before[k] || strstr(s->tables[t].name, "*/") || strstr(col->name, "*/") ||
                strchr(s->tables[t].name, '\t') || strchr(col->name, '\t'))
                continue;
            char *n =
                util_strf("%s" DB_TEXT_NEED_MARK "%s\t%s\t%u */\n", out, s->tables[t].name, col->name, col->text_need);
            free(out);
            out = n;
        }
    free(before);
    return out;
}

void db_date_needs_from_marks(db_schema *s, const char *ddl)
{
    for (const char *m = ddl; m && (m = strstr(m, DB_DATE_NEED_MARK));) {
        m += strlen(DB_DATE_NEED_MARK);
        const char *t1 = strchr(m, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL, *end = strstr(m, "*/");
        if (!t1 || !t2 || !end || t2 > end) continue;
        long kind = strtol(t2 + 1, NULL, 10);
        for (int t = 0; t < s->ntables; t++) {
            if (strlen(s->tables[t].name) != (size_t)(t1 - m) || strncmp(s->tables[t].name, m, (size_t)(t1 - m)))
                continue;
            for (int c = 0; c < s->tables[t].ncols; c++) {
                db_column *col = &s->tables[t].cols[c];
                if (strlen(col->name) == (size_t)(t2 - t1 - 1) && !strncmp(col->name, t1 + 1, (size_t)(t2 - t1 - 1)) &&
                    col->aff == DB_AFF_TEXT && !col->date && (kind == DB_DATE_DATE || kind == DB_DATE_DATETIME))
                    col->date = (db_date_kind)kind;
            }
        }
    }
}

void db_text_needs_from_marks(db_schema *s, const char *ddl)
{
    for (const char *m = ddl; m && (m = strstr(m, DB_TEXT_NEED_MARK));) {
        m += strlen(DB_TEXT_NEED_MARK);
        const char *t1 = strchr(m, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL, *end = strstr(m, "*/");
        if (!t1 || !t2 || !end || t2 > end) continue;
        int ti = -1;
        for (int t = 0; t < s->ntables && ti < 0; t++)
            if (strlen(s->tables[t].name) == (size_t)(t1 - m) && !strncmp(s->tables[t].name, m, (size_t)(t1 - m)))
                ti = t;
        for (int c = 0; ti >= 0 && c < s->tables[ti].ncols; c++) {
            db_column *col = &s->tables[ti].cols[c];
            if (strlen(col->name) != (size_t)(t2 - t1 - 1) || strncmp(col->name, t1 + 1, (size_t)(t2 - t1 - 1)))
                continue;
            long n = strtol(t2 + 1, NULL, 10);
            if (db_column_is_text(col) && n > (long)col->text_need && n < 256) col->text_need = (unsigned)n;
        }
    }
}
