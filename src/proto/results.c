/* results.c: the .results file of a PostgreSQL test, its one writer and its one reader (format in proto.h). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto/proto.h"
#include "proto/proto_int.h"
#include "util/util.h"

void proto_flat(char *dst, size_t cap, const char *src)
{
    size_t i = 0;
    for (; src && src[i] && i + 1 < cap; i++)
        dst[i] = src[i] == '\t' || src[i] == '\n' || src[i] == '\r' ? ' ' : src[i];
    if (cap) dst[i] = 0;
}

/* ---- writer ---- */

/* "\t" and an escaped field. */
static void put_field(strbuf *b, const char *p, size_t len)
{
    sb_puts(b, "\t");
    results_put_value(b, p, len);
}

/* A flat field: the text with tab, newline and CR as blanks (no length limit). */
static void put_flat(strbuf *b, const char *s)
{
    for (; s && *s; s++) sb_append(b, *s == '\t' || *s == '\n' || *s == '\r' ? " " : s, 1);
}

void results_put_value(strbuf *b, const char *p, size_t len)
{
    if (!p) {
        sb_puts(b, "\\N");
        return;
    }
    for (size_t k = 0; k < len && p[k]; k++) {
        char c = p[k];
        const char *e = c == '\\' ? "\\\\" : c == '\t' ? "\\t" : c == '\n' ? "\\n" : c == '\r' ? "\\r" : NULL;
        if (e)
            sb_append(b, e, 2);
        else
            sb_append(b, &c, 1);
    }
}

void results_put_header(strbuf *b, int writes_allowed)
{
    sb_puts(b, writes_allowed ? "sympath-results 1\nwrites\tallowed\n" : "sympath-results 1\n");
}

void results_put_result(strbuf *b, const char *site, int ncols) { sb_printf(b, "result\t%s\t%d\n", site, ncols); }

void results_put_names(strbuf *b, const char *const *names, int n)
{
    sb_puts(b, "names");
    for (int i = 0; i < n; i++) put_field(b, names[i] ? names[i] : "", names[i] ? strlen(names[i]) : 0);
    sb_puts(b, "\n");
}

void results_put_error(strbuf *b, const char *msg)
{
    sb_puts(b, "error\t");
    put_flat(b, msg);
    sb_puts(b, "\n");
}

void results_put_row(strbuf *b, const char *const *vals, const size_t *lens, int n)
{
    sb_puts(b, "row");
    for (int i = 0; i < n; i++) put_field(b, vals[i], !vals[i] ? 0 : lens ? lens[i] : strlen(vals[i]));
    sb_puts(b, "\n");
}

void results_put_end(strbuf *b) { sb_puts(b, "end\n"); }

void results_put_fail(strbuf *b, const char *msg, const char *sql)
{
    sb_puts(b, "fail\t");
    put_flat(b, msg);
    sb_puts(b, "\t");
    put_flat(b, sql);
    sb_puts(b, "\n");
}

void results_put_done(strbuf *b, const char *tuples, const char *sql)
{
    sb_puts(b, "done\t");
    put_flat(b, tuples);
    sb_puts(b, "\t");
    put_flat(b, sql);
    sb_puts(b, "\n");
}

/* 1 to RESULTS_MAX_TUPLES decimal digits: a "done" line's row count. */
static int good_tuples(const char *s)
{
    size_t n = strlen(s);
    return n >= 1 && n <= RESULTS_MAX_TUPLES && strspn(s, "0123456789") == n;
}

/* 16 lowercase hex digits, as data_site_id writes them. */
static int good_site(const char *s)
{
    size_t n = strlen(s);
    return n == 16 && strspn(s, "0123456789abcdef") == 16;
}

char *results_format(const results *r)
{
    strbuf b = STRBUF_INIT;
    results_put_header(&b, r->writes_allowed);
    for (size_t i = 0; i < r->nitems; i++) {
        const results_item *it = &r->items[i];
        if (it->is_fail) {
            results_put_fail(&b, it->msg, it->sql);
            continue;
        }
        if (it->is_done) {
            if (!good_tuples(it->tuples)) {
                sb_free(&b);
                return NULL;
            }
            results_put_done(&b, it->tuples, it->sql);
            continue;
        }
        if (!good_site(it->site) || it->ncols < 0 || it->ncols > RESULTS_MAX_COLS) {
            sb_free(&b);
            return NULL;
        }
        results_put_result(&b, it->site, it->ncols);
        if (it->names) results_put_names(&b, (const char *const *)it->names, it->ncols);
        if (it->error) results_put_error(&b, it->error);
        for (size_t k = 0; k < it->nrows; k++) results_put_row(&b, (const char *const *)it->rows[k], NULL, it->ncols);
        results_put_end(&b);
    }
    if (b.failed) {
        sb_free(&b);
        return NULL;
    }
    return b.s;
}

/* ---- reader ---- */

char *results_unescape(char *s, int *bad)
{
    if (!strcmp(s, "\\N")) return NULL;
    char *o = s;
    for (char *p = s; *p; p++) {
        if (*p != '\\') {
            *o++ = *p;
            continue;
        }
        p++;
        char c = *p == '\\' ? '\\' : *p == 't' ? '\t' : *p == 'n' ? '\n' : *p == 'r' ? '\r' : 0;
        if (!c) {
            if (bad) *bad = -1;
            *o = 0;
            return s;
        }
        *o++ = c;
    }
    *o = 0;
    return s;
}

void results_init(results *r) { memset(r, 0, sizeof *r); }

static void free_item(results_item *it)
{
    if (it->names)
        for (int i = 0; i < it->ncols; i++) free(it->names[i]);
    free(it->names);
    free(it->error);
    for (size_t k = 0; k < it->nrows; k++) {
        for (int i = 0; i < it->ncols; i++) free(it->rows[k][i]);
        free(it->rows[k]);
    }
    free(it->rows);
    free(it->msg);
    free(it->sql);
}

void results_free(results *r)
{
    for (size_t i = 0; i < r->nitems; i++) free_item(&r->items[i]);
    free(r->items);
    results_init(r);
}

/* Split line at tabs (in place) into f, which has room for every field; returns the count. */
static size_t split(char *line, char **f)
{
    size_t n = 0;
    f[n++] = line;
    for (char *p = line; (p = strchr(p, '\t'));) {
        *p++ = 0;
        f[n++] = p;
    }
    return n;
}

/* The ncols escaped fields f[0..ncols) as a malloc'ed vector of copies; NULL with *why. */
static char **take_fields(char **f, int ncols, int nulls_ok, char **why)
{
    char **v = calloc((size_t)ncols + 1, sizeof *v);
    if (!v) {
        *why = util_strf("out of memory");
        return NULL;
    }
    for (int i = 0; i < ncols; i++) {
        int bad = 0;
        char *u = results_unescape(f[i], &bad);
        if (bad || (!u && !nulls_ok)) {
            *why = util_strf(bad ? "field %d: an unknown escape (only \\\\ \\t \\n \\r \\N)"
                                 : "field %d: a name cannot be NULL",
                             i + 1);
        } else if (u && !(v[i] = strdup(u))) {
            *why = util_strf("out of memory");
        }
        if (*why) {
            for (int k = 0; k < i; k++) free(v[k]);
            free(v);
            return NULL;
        }
    }
    return v;
}

/* Append an item; NULL when out of memory. */
static results_item *new_item(results *r)
{
    results_item *v = realloc(r->items, (r->nitems + 1) * sizeof *v);
    if (!v) return NULL;
    r->items = v;
    memset(&v[r->nitems], 0, sizeof *v);
    return &v[r->nitems++];
}

/* One line (NUL-terminated, no line break) after the first. *open is the block being read
 * (NULL between blocks). 0, or -1 with *why (malloc'ed, without the line number). */
static int parse_line(results *r, char *line, int lineno, results_item **open, char **why)
{
    size_t max = 1;
    for (const char *p = line; *p; p++) max += *p == '\t';
    if (max > (size_t)RESULTS_MAX_COLS + 1) {
        *why = util_strf("more than %d fields", RESULTS_MAX_COLS);
        return -1;
    }
    char **f = malloc((max + 1) * sizeof *f);
    if (!f) {
        *why = util_strf("out of memory");
        return -1;
    }
    size_t n = split(line, f);
    const char *kw = f[0];
    results_item *b = *open;
    if (!strcmp(kw, "writes")) {
        if (lineno != 2 || n != 2 || strcmp(f[1], "allowed"))
            *why = util_strf("'writes<TAB>allowed' belongs right after the first line");
        else
            r->writes_allowed = 1;
    } else if (!strcmp(kw, "result")) {
        char *end = NULL;
        long nc = n == 3 ? strtol(f[2], &end, 10) : -1;
        if (b)
            *why = util_strf("result inside a block (no 'end' before it)");
        else if (n != 3 || !good_site(f[1]) || !*f[2] || *end || f[2][0] == '-' || f[2][0] == '+' || nc < 0 ||
                 nc > RESULTS_MAX_COLS)
            *why = util_strf("result needs a site (16 hex digits) and a column count");
        else if (!(b = new_item(r)))
            *why = util_strf("out of memory");
        else {
            memcpy(b->site, f[1], 17);
            b->ncols = (int)nc;
            *open = b;
        }
    } else if (!strcmp(kw, "fail")) {
        results_item *it = NULL;
        if (b)
            *why = util_strf("fail inside a block (no 'end')");
        else if (n != 3)
            *why = util_strf("fail needs a message and a statement");
        else if (!(it = new_item(r)) || !(it->msg = strdup(f[1])) || !(it->sql = strdup(f[2])))
            *why = util_strf("out of memory");
        else
            it->is_fail = 1;
    } else if (!strcmp(kw, "done")) {
        results_item *it = NULL;
        if (b)
            *why = util_strf("done inside a block (no 'end')");
        else if (n != 3 || !good_tuples(f[1]))
            *why = util_strf("done needs a row count (1 to %d digits) and a statement", RESULTS_MAX_TUPLES);
        else if (!(it = new_item(r)) || !(it->sql = strdup(f[2])))
            *why = util_strf("out of memory");
        else {
            memcpy(it->tuples, f[1], strlen(f[1]) + 1);
            it->is_done = 1;
        }
    } else if (!strcmp(kw, "end")) {
        if (!b || n != 1) *why = util_strf(b ? "end takes no field" : "end outside a block");
        *open = NULL;
    } else if (strcmp(kw, "names") && strcmp(kw, "error") && strcmp(kw, "row")) {
        *why = util_strf("unknown record '%.20s'", kw);
    } else if (!b) {
        *why = util_strf("'%.20s' outside a block", kw);
    } else if (!strcmp(kw, "names")) {
        if (b->names || b->error || b->nrows)
            *why = util_strf("names must come first in the block, once");
        else if (n - 1 != (size_t)b->ncols)
            *why = util_strf("names has %zu fields, the block has %d columns", n - 1, b->ncols);
        else
            b->names = take_fields(f + 1, b->ncols, 0, why);
    } else if (!strcmp(kw, "error")) {
        if (b->error || b->nrows)
            *why = util_strf("error must come before rows, once");
        else if (n != 2)
            *why = util_strf("error needs one message");
        else if (!(b->error = strdup(f[1])))
            *why = util_strf("out of memory");
    } else if (!strcmp(kw, "row")) {
        char ***nr = NULL;
        if (n - 1 != (size_t)b->ncols)
            *why = util_strf("row has %zu fields, the block has %d columns", n - 1, b->ncols);
        else if (!(nr = realloc(b->rows, (b->nrows + 1) * sizeof *nr)))
            *why = util_strf("out of memory");
        else {
            b->rows = nr;
            char **row = take_fields(f + 1, b->ncols, 1, why);
            if (row) b->rows[b->nrows++] = row;
        }
    }
    free(f);
    return *why ? -1 : 0;
}

/* The reader's state between lines (proto_parse_lines' ctx). */
typedef struct parse_state {
    results *r;
    results_item *open; /* the block being read, NULL between blocks */
} parse_state;

static int results_line(void *ctx, char *line, int lineno, char **why)
{
    parse_state *ps = ctx;
    if (lineno > 1) return parse_line(ps->r, line, lineno, &ps->open, why);
    if (strcmp(line, "sympath-results 1") != 0) {
        *why = util_strf("not a version 1 results file (it starts with \"sympath-results 1\")");
        return -1;
    }
    return 0;
}

int results_parse(const char *text, size_t len, results *r, char **err)
{
    results_init(r);
    parse_state ps = {r, NULL};
    int lines = 0;
    if (proto_parse_lines(text, len, results_line, &ps, &lines, err)) {
    } else if (lines == 0) {
        *err = util_strf("empty: not a results file");
    } else if (ps.open) {
        *err = util_strf("line %d: the last block has no 'end'", lines);
    }
    if (*err) {
        results_free(r);
        return -1;
    }
    return 0;
}

static int parse_any(const char *text, size_t len, void *r, char **err) { return results_parse(text, len, r, err); }
static void init_any(void *r) { results_init(r); }

int results_read(const char *path, results *r, char **err)
{
    return proto_read_file(path, parse_any, init_any, r, err);
}
