/* source_pg.c: the user's PostgreSQL database in data mode: a read-only libpq connection, EXPLAIN estimates, counts. */
#define _GNU_SOURCE
#include "source_int.h"
#include <libpq-fe.h>
#include "../db/db.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "util/util.h"

/*
 * The handle of source_pg_ops is the PGconn itself (data_pg_connect: every transaction
 * READ ONLY). Every query of the explorer runs inside its own BEGIN READ ONLY ...
 * ROLLBACK as well, so even SQL of the program that changes session settings (a
 * set_config in a SELECT) cannot open a writable transaction for the next one.
 *
 * Parameters: the site's SQL keeps the program's placeholders $1..$n; params[] hold SQL
 * literals (as the executor logged them, data_sql_literal_*, possibly with a ::type cast).
 * They are substituted textually, each in parentheses ("x-$1" must not become the comment
 * "x--5"), for every $N outside string constants, quoted identifiers, dollar-quoted
 * strings and comments. Textual substitution was chosen over PQexecParams because the
 * literals carry their own type (or none, like a parameter without a declared type) and
 * EXPLAIN of a parameterised statement would need PREPARE plus a generic or custom plan.
 */

static void set_err(char **err, const char *what, const PGconn *c, const PGresult *r)
{
    char m[1024];
    data_pg_message(c, r, m, sizeof m);
    if (asprintf(err, "%s: %s", what, m) < 0) *err = NULL;
}

static void *pg_open(const char *db, char **err)
{
    char m[1024] = "";
    PGconn *c = data_pg_connect(db, m, sizeof m);
    if (!c) {
        if (asprintf(err, "cannot make the PostgreSQL connection read-only: %s", m) < 0) *err = NULL;
        return NULL;
    }
    if (PQstatus(c) != CONNECTION_OK) {
        set_err(err, "cannot connect to PostgreSQL", c, NULL);
        PQfinish(c);
        return NULL;
    }
    return c;
}

static void pg_close(void *h) { PQfinish(h); }

/* ---------------------------------------------------------------- parameters */

/* Length of the dollar-quote tag starting at s ("$tag$" or "$$"), 0 when s does not start one. */
static size_t dollar_tag(const char *s)
{
    if (*s != '$') return 0;
    size_t i = 1;
    if (isdigit((unsigned char)s[1])) return 0; /* $1 is a parameter */
    while (isalnum((unsigned char)s[i]) || s[i] == '_' || (unsigned char)s[i] >= 0x80) i++;
    return s[i] == '$' ? i + 1 : 0;
}

/* sql with $1..$nparams replaced by "(<literal>)" (see the top of the file); malloc'ed. */
static char *substitute(const char *sql, const char *const *params, int nparams)
{
    size_t cap = strlen(sql) + 64, o = 0;
    for (int i = 0; i < nparams; i++)
        cap += strlen(params[i]) * 8 + 2; /* a parameter may occur several times; grown below */
    char *out = malloc(cap);
    if (!out) return NULL;
#define PUT(p, n)                         \
    do {                                  \
        size_t n_ = (n);                  \
        if (o + n_ + 1 > cap) {           \
            cap = (o + n_ + 1) * 2;       \
            char *t_ = realloc(out, cap); \
            if (!t_) {                    \
                free(out);                \
                return NULL;              \
            }                             \
            out = t_;                     \
        }                                 \
        memcpy(out + o, (p), n_);         \
        o += n_;                          \
    } while (0)
    const char *s = sql;
    while (*s) {
        const char *start = s;
        size_t tag;
        if (*s == '\'') { /* '...' with '' inside; E'...' also with backslash escapes */
            bool esc = s > sql && (s[-1] == 'E' || s[-1] == 'e') && (s - 1 == sql || !isalnum((unsigned char)s[-2]));
            s++;
            while (*s) {
                if (esc && *s == '\\' && s[1]) {
                    s += 2;
                } else if (*s == '\'' && s[1] == '\'') {
                    s += 2;
                } else if (*s == '\'') {
                    s++;
                    break;
                } else {
                    s++;
                }
            }
        } else if (*s == '"') {
            s++;
            while (*s && !(*s == '"' && s[1] != '"')) s += *s == '"' ? 2 : 1;
            if (*s) s++;
        } else if (*s == '-' && s[1] == '-') {
            while (*s && *s != '\n') s++;
        } else if (*s == '/' && s[1] == '*') { /* comments nest in PostgreSQL */
            int depth = 0;
            while (*s) {
                if (*s == '/' && s[1] == '*')
                    depth++, s += 2;
                else if (*s == '*' && s[1] == '/') {
                    s += 2;
                    if (--depth == 0) break;
                } else
                    s++;
            }
        } else if ((tag = dollar_tag(s)) && !(s > sql && (isalnum((unsigned char)s[-1]) || s[-1] == '_'))) {
            const char *e = s + tag; /* to the same tag again */
            while (*e && strncmp(e, s, tag)) e++;
            s = *e ? e + tag : e;
        } else if (*s == '$' && isdigit((unsigned char)s[1]) &&
                   !(s > sql && (isalnum((unsigned char)s[-1]) || s[-1] == '_' || s[-1] == '$'))) {
            char *e;
            long k = strtol(s + 1, &e, 10);
            if (k >= 1 && k <= nparams) {
                PUT("(", 1);
                PUT(params[k - 1], strlen(params[k - 1]));
                PUT(")", 1);
                s = e;
                continue;
            }
            s = e;
        } else {
            s++;
        }
        PUT(start, (size_t)(s - start));
    }
#undef PUT
    out[o] = 0;
    return out;
}

/* ---------------------------------------------------------------- queries */

/* Run sql in a transaction of its own, READ ONLY; returns the result (PGRES_TUPLES_OK) or
 * NULL with *err. */
static PGresult *run_ro(PGconn *c, const char *sql, const char *what, char **err)
{
    PGresult *b = PQexec(c, "BEGIN READ ONLY");
    if (!b || PQresultStatus(b) != PGRES_COMMAND_OK) {
        set_err(err, "cannot start a read-only transaction", c, b);
        PQclear(b);
        return NULL;
    }
    PQclear(b);
    PGresult *r = PQexec(c, sql);
    if (!r || PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) < 1 || PQnfields(r) < 1) {
        set_err(err, what, c, r);
        PQclear(r);
        r = NULL;
    }
    PQclear(PQexec(c, "ROLLBACK"));
    return r;
}

/*
 * "Total Cost" and "Plan Rows" of the top plan node of EXPLAIN (FORMAT JSON) output:
 *   [ { "Plan": { "Node Type": ..., "Total Cost": 12.5, "Plan Rows": 40, ...,
 *                 "Plans": [ ...children, same keys... ] }, ... } ]
 * Only keys at the first level inside the object of the first "Plan" key count (the
 * children's keys are deeper). Strings are skipped with their escapes. 0, or -1 when
 * either number is missing.
 */
static int plan_numbers(const char *json, double *cost, double *rows)
{
    bool have_cost = false, have_rows = false;
    const char *p = json;
    int depth = -1; /* -1: the top "Plan" object not entered yet; then nesting inside it */
    char key[64];
    while (*p) {
        if (*p == '"') {
            size_t n = 0;
            p++;
            while (*p && *p != '"') {
                if (*p == '\\' && p[1]) p++;
                if (n + 1 < sizeof key) key[n++] = *p;
                p++;
            }
            key[n] = 0;
            if (*p) p++;
            const char *q = p;
            while (isspace((unsigned char)*q)) q++;
            if (*q != ':') continue;
            q++;
            while (isspace((unsigned char)*q)) q++;
            if (depth < 0 && !strcmp(key, "Plan") && *q == '{') {
                depth = 1;
                p = q + 1;
            } else if (depth == 1 && (!strcmp(key, "Total Cost") || !strcmp(key, "Plan Rows"))) {
                char *e;
                double v = strtod(q, &e);
                if (e == q) return -1;
                if (key[0] == 'T')
                    *cost = v, have_cost = true;
                else
                    *rows = v, have_rows = true;
                p = e;
            }
            continue;
        }
        if (depth > 0 && (*p == '{' || *p == '['))
            depth++;
        else if (depth > 0 && (*p == '}' || *p == ']') && --depth == 0)
            break;
        p++;
    }
    return have_cost && have_rows ? 0 : -1;
}

/* EXPLAIN (FORMAT JSON) of sql: the top plan's numbers. 0 or -1 with *err. */
static int explain(PGconn *c, const char *sql, double *cost, double *rows, char **err)
{
    char *q = NULL;
    if (asprintf(&q, "EXPLAIN (FORMAT JSON) %s", sql) < 0) {
        *err = strdup("out of memory");
        return -1;
    }
    PGresult *r = run_ro(c, q, "EXPLAIN failed", err);
    free(q);
    if (!r) return -1;
    int rc = plan_numbers(PQgetvalue(r, 0, 0), cost, rows);
    if (rc) *err = strdup("EXPLAIN (FORMAT JSON) gave no \"Total Cost\" and \"Plan Rows\" for the top plan");
    PQclear(r);
    return rc;
}

/* The SELECT with its parameters substituted and trailing blanks and ';' dropped (it goes
 * inside a subquery); malloc'ed, NULL with *err. */
static char *prepared_sql(const char *sql, const char *const *params, int nparams, char **err)
{
    char *s = substitute(sql, params, nparams);
    if (!s) {
        *err = strdup("out of memory");
        return NULL;
    }
    size_t n = strlen(s);
    while (n && (isspace((unsigned char)s[n - 1]) || s[n - 1] == ';')) s[--n] = 0;
    return s;
}

static int pg_estimate(void *h, const char *sql, const char *const *params, int nparams, uint64_t limit, uint64_t bound,
                       double table_rows, data_estimate *out, char **err)
{
    PGconn *c = h;
    double t0 = util_now_s();
    memset(out, 0, sizeof *out);
    char *s = prepared_sql(sql, params, nparams, err);
    if (!s) return -1;
    double cost = 0, rows = 0, dummy;
    int rc = explain(c, s, &cost, &rows, err);
    if (!rc && limit) { /* the cost of fetching the first `limit` rows: the planner knows LIMIT */
        char *lq = NULL;
        if (asprintf(&lq, "SELECT * FROM (%s\n) sympath_e LIMIT %llu", s, (unsigned long long)limit) < 0) {
            *err = strdup("out of memory");
            rc = -1;
        } else {
            rc = explain(c, lq, &cost, &dummy, err);
            free(lq);
        }
    }
    free(s);
    if (rc) return -1;
    out->rows = rows;
    out->exact = false;
    out->cost = cost;
    out->seconds = util_now_s() - t0;
    return 0;
}

static int64_t pg_count(void *h, const char *sql, const char *const *params, int nparams, char **err)
{
    PGconn *c = h;
    char *s = prepared_sql(sql, params, nparams, err), *q = NULL;
    if (!s) return -1;
    int n = asprintf(&q, "SELECT count(*) FROM (%s\n) sympath_c", s);
    free(s);
    if (n < 0) {
        *err = strdup("out of memory");
        return -1;
    }
    PGresult *r = run_ro(c, q, "count failed", err);
    free(q);
    if (!r) return -1;
    int64_t v = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
    PQclear(r);
    return v;
}

/* no fixture: PostgreSQL tests replay from the recorded results (replay_pq.c) */
const source_ops source_pg_ops = {pg_open, pg_estimate, pg_count, NULL, pg_close};
