/* data_pg.c: a PostgreSQL connection on which nothing can write (data mode never changes the user's data). */
#define _GNU_SOURCE
#include <libpq-fe.h>
#include "db.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Here, not in data/source.c: `sympath run` (src/explore, below data) needs it too. */
bool data_is_postgres(const char *db)
{
    return !strncmp(db, "postgresql://", 13) || !strncmp(db, "postgres://", 11) || strstr(db, "dbname=") ||
           strstr(db, "host=");
}

void data_pg_message(const PGconn *conn, const PGresult *res, char *buf, size_t cap)
{
    const char *m = res ? PQresultErrorMessage(res) : NULL;
    if (!m || !*m) m = conn ? PQerrorMessage(conn) : "";
    if (!m || !*m) m = "unknown error";
    snprintf(buf, cap, "%s", m);
    size_t n = strlen(buf);
    while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' ')) buf[--n] = 0;
}

/* Run one setup statement; 0 when the server accepted it. */
static int setup(PGconn *c, const char *sql, char *err, size_t cap)
{
    PGresult *r = PQexec(c, sql);
    int ok = r && PQresultStatus(r) == PGRES_COMMAND_OK;
    if (!ok) data_pg_message(c, r, err, cap);
    PQclear(r);
    return ok ? 0 : -1;
}

PGconn *data_pg_connect(const char *conninfo, char *err, size_t cap)
{
    /* expand_dbname: the first "dbname" value is itself parsed as a conninfo, and the
     * later "options" wins over one it may hold */
    const char *const keys[] = {"dbname", "options", NULL};
    const char *const vals[] = {conninfo, "-c default_transaction_read_only=on", NULL};
    PGconn *c = PQconnectdbParams(keys, vals, 1);
    if (!c) {
        snprintf(err, cap, "out of memory");
        return NULL;
    }
    if (PQstatus(c) != CONNECTION_OK) return c;
    if (setup(c, "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY", err, cap) ||
        setup(c, "SET default_transaction_read_only = on", err, cap) ||
        setup(c, "SET synchronize_seqscans = off", err, cap) || setup(c, "SET client_encoding = 'UTF8'", err, cap)) {
        PQfinish(c);
        return NULL;
    }
    return c;
}

/* Does s contain the words of `phrase` (single blanks in it) with any blanks between, ignoring case? */
static bool has_phrase(const char *s, const char *phrase)
{
    for (; *s; s++) {
        const char *a = s, *b = phrase;
        while (*b) {
            if (*b == ' ') {
                if (!isspace((unsigned char)*a)) break;
                while (isspace((unsigned char)*a)) a++;
                b++;
            } else if (tolower((unsigned char)*a) == *b) {
                a++, b++;
            } else {
                break;
            }
        }
        if (!*b) return true;
    }
    return false;
}

/* sql with the contents of '...' string constants blanked (malloc'ed; NULL when out of memory) */
static char *blank_strings(const char *sql)
{
    char *s = strdup(sql);
    if (!s) return NULL;
    bool in = false;
    for (char *p = s; *p; p++) {
        if (*p == '\'' && in && p[1] == '\'') /* '' inside a constant */
            p[0] = p[1] = ' ', p++;
        else if (*p == '\'')
            in = !in;
        else if (in)
            *p = ' ';
    }
    return s;
}

bool data_pg_refused(const char *sql)
{
    if (!sql) return false;
    if (has_phrase(sql, "transaction_read_only")) /* also as a string: set_config('...', ...) */
        return true;
    char *b = blank_strings(sql); /* the keywords count outside string constants only */
    bool r = !b || has_phrase(b, "read write") || has_phrase(b, "session characteristics");
    free(b);
    return r;
}
