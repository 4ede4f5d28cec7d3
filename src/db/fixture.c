/* fixture.c: where a fixture's row slots sit in the test vector, and the INSERT statements that write a fixture. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db.h"

unsigned db_cell_ninputs(const db_column *c, const db_limits *l)
{
    return db_column_is_text(c) ? 2 + db_column_text_cap(c, l) : 2;
}

size_t db_table_ninputs(const db_table *t, const db_limits *l)
{
    size_t row = 0;
    for (int c = 0; c < t->ncols; c++) row += db_cell_ninputs(&t->cols[c], l);
    return 1 + (size_t)l->rows * row;
}

size_t db_fixture_ninputs(const db_schema *s, const db_limits *l)
{
    size_t n = 0;
    for (int t = 0; t < s->ntables; t++) n += db_table_ninputs(&s->tables[t], l);
    return n + 1; /* db:fault, the call of the run that fails (0: none) */
}

size_t db_fixture_relayout(const db_schema *s, const db_limits *from, const uint64_t *in, const db_limits *to,
                           uint64_t *out)
{
    size_t i = 0, o = 0;
    for (int ti = 0; ti < s->ntables; ti++) {
        const db_table *t = &s->tables[ti];
        out[o++] = db_table_count(from, &in[i++]); /* the rows the old layout had (a larger count was clamped) */
        for (unsigned k = 0; k < to->rows; k++) {
            for (int c = 0; c < t->ncols; c++) {
                const db_column *col = &t->cols[c];
                unsigned nout = db_cell_ninputs(col, to), nin = k < from->rows ? db_cell_ninputs(col, from) : 0;
                /* NULL flag, value or length, then a text's bytes: the new cap only adds bytes at the end */
                for (unsigned j = 0; j < nout; j++) out[o + j] = j < nin ? in[i + j] : 0;
                o += nout;
                i += nin;
            }
        }
    }
    out[o++] = in[i]; /* db:fault */
    return o;
}

unsigned db_table_count(const db_limits *l, const uint64_t *vals)
{
    uint64_t n = vals[0] & 0xff;
    return n > l->rows ? l->rows : (unsigned)n;
}

void db_cell_decode(const db_table *t, const db_limits *l, const uint64_t *vals, unsigned slot, int col, uint8_t *buf,
                    db_cell *out)
{
    size_t off = 1;
    size_t row = 0;
    for (int c = 0; c < t->ncols; c++) row += db_cell_ninputs(&t->cols[c], l);
    off += slot * row;
    for (int c = 0; c < col; c++) off += db_cell_ninputs(&t->cols[c], l);
    memset(out, 0, sizeof *out);
    out->null = vals[off] & 1;
    if (db_column_is_text(&t->cols[col])) {
        unsigned len = (unsigned)(vals[off + 1] & 0xff);
        unsigned cap = db_column_text_cap(&t->cols[col], l);
        if (len > cap) len = cap;
        for (unsigned i = 0; i < len; i++) buf[i] = (uint8_t)vals[off + 2 + i];
        out->len = len;
        out->text = buf;
    } else if (t->cols[col].scale ||
               t->cols[col].single) { /* a scaled cell's k: its double's bits, as REAL cells hold */
        out->i = (int64_t)db_scaled_bits((int64_t)vals[off + 1], t->cols[col].single ? -2 : t->cols[col].scale);
    } else {
        out->i = (int64_t)vals[off + 1];
    }
}

/* Append printf-formatted text to *s (length *n); -1 when out of memory. */
static int append(char **s, size_t *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int append(char **s, size_t *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *add = NULL;
    int k = vasprintf(&add, fmt, ap);
    va_end(ap);
    if (k < 0) return -1;
    char *r = realloc(*s, *n + (size_t)k + 1);
    if (!r) {
        free(add);
        return -1;
    }
    memcpy(r + *n, add, (size_t)k + 1);
    free(add);
    *s = r;
    *n += (size_t)k;
    return 0;
}

/* Append the malloc'ed text t (NULL: out of memory) to *s and free it; -1 when out of memory. */
static int append_take(char **s, size_t *n, char *t)
{
    int bad = !t || append(s, n, "%s", t);
    free(t);
    return bad ? -1 : 0;
}

/* An identifier quoted (db_sql_ident). */
static int append_ident(char **s, size_t *n, const char *id) { return append_take(s, n, db_sql_ident(id)); }

char *db_insert_sql(const db_table *t, const db_cell *cells)
{
    char *s = NULL;
    size_t n = 0;
    int bad = append(&s, &n, "INSERT INTO ") || append_ident(&s, &n, t->name) || append(&s, &n, "(");
    for (int c = 0; !bad && c < t->ncols; c++)
        bad = (c && append(&s, &n, ", ")) || append_ident(&s, &n, t->cols[c].name);
    bad = bad || append(&s, &n, ") VALUES(");
    for (int c = 0; !bad && c < t->ncols; c++) {
        const db_cell *v = &cells[c];
        bad = c && append(&s, &n, ", ");
        if (bad) break;
        if (v->null) {
            bad = append(&s, &n, "NULL");
        } else if (db_column_is_real(&t->cols[c])) { /* text SQLite reads back as the same double */
            char num[48];
            if (t->cols[c].scale)
                db_scaled_text((uint64_t)v->i, t->cols[c].scale, num, sizeof num);
            else
                db_real_text((uint64_t)v->i, num, sizeof num);
            bad = append(&s, &n, "%s", num);
        } else if (!db_column_is_text(&t->cols[c])) {
            bad = append_take(&s, &n, db_sql_int(v->i));
        } else {
            bad = append_take(&s, &n, db_sql_text(false, v->len ? (const char *)v->text : "", v->len));
        }
    }
    if (bad || append(&s, &n, ");")) {
        free(s);
        return NULL;
    }
    return s;
}

char *db_fixture_sql(const db_schema *s, const db_limits *l, const uint64_t *vals, size_t n, size_t start)
{
    return db_fixture_sql_by(s, l, vals, n, start, db_insert_sql);
}

char *db_fixture_sql_by(const db_schema *s, const db_limits *l, const uint64_t *vals, size_t n, size_t start,
                        db_insert_fn insert)
{
    size_t total = db_fixture_ninputs(s, l);
    uint64_t *v = calloc(total ? total : 1, sizeof *v);
    db_cell *cells = NULL;
    uint8_t *bufs = NULL;
    char *out = NULL;
    size_t len = 0;
    int rows = 0, bad = !v;
    for (size_t i = 0; !bad && i < total && start + i < n; i++) v[i] = vals[start + i];
    bad = bad || append(&out, &len, "-- fixture written by sympath: load after the schema\n");
    uint64_t fault = total && start + total - 1 < n ? v[total - 1] & 0xffff : 0;
    if (!bad && fault) /* db:fault (db_fault.c): the replay makes the same call fail */
        bad = append(&out, &len,
                     DB_FAULT_COMMENT ": the program's database call number %llu (counting opens, prepares, "
                                      "binds, first steps, execs, connects and queries; a libpq query counts "
                                      "twice: an error result, then no result) fails\n",
                     (unsigned long long)fault);
    size_t off = 0;
    for (int ti = 0; !bad && ti < s->ntables; ti++) {
        const db_table *t = &s->tables[ti];
        free(cells), free(bufs);
        cells = calloc((size_t)t->ncols, sizeof *cells);
        bufs = calloc((size_t)t->ncols, DB_TEXT_MAX + 1);
        if (!cells || !bufs) {
            bad = 1;
            break;
        }
        unsigned count = db_table_count(l, v + off);
        for (unsigned k = 0; !bad && k < count; k++) {
            for (int c = 0; c < t->ncols; c++)
                db_cell_decode(t, l, v + off, k, c, bufs + (size_t)c * (DB_TEXT_MAX + 1), &cells[c]);
            char *ins = insert(t, cells);
            bad = !ins || append(&out, &len, "%s\n", ins);
            free(ins);
            rows++;
        }
        off += db_table_ninputs(t, l);
    }
    if (!bad && !rows) bad = append(&out, &len, "-- empty fixture\n");
    free(cells), free(bufs), free(v);
    if (bad) {
        free(out);
        return NULL;
    }
    return out;
}
