/* setup_pg.c: `sympath run --db postgresql://...`: the user's tables read read-only, the scratch database the runs build their schemas in. */
#define _GNU_SOURCE

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libpq-fe.h>

#include "db/db.h"
#include "util/util.h"
#include "proto/env.h"

#define SCRATCH_DB "sympath_scratch"

/* The connection's parameters as a key='value' conninfo with dbname replaced; malloc'ed. */
static char *conninfo_with_db(PGconn *c, const char *dbname)
{
    PQconninfoOption *opts = PQconninfo(c);
    char *s = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&s, &n);
    if (!opts || !m) {
        if (m) fclose(m);
        free(s);
        PQconninfoFree(opts);
        return NULL;
    }
    for (PQconninfoOption *o = opts; o->keyword; o++) {
        const char *v = !strcmp(o->keyword, "dbname") ? dbname : o->val;
        if (!v || !*v || !strcmp(o->keyword, "options")) continue;
        fprintf(m, "%s%s='", n || ftell(m) ? " " : "", o->keyword);
        for (const char *p = v; *p; p++) {
            if (*p == '\'' || *p == '\\') fputc('\\', m);
            fputc(*p, m);
        }
        fputc('\'', m);
    }
    fclose(m);
    PQconninfoFree(opts);
    return s;
}

/* The text of a connection's or result's error, for messages */
static const char *msg_of(PGconn *c, PGresult *r, char *buf, size_t cap)
{
    data_pg_message(c, r, buf, cap);
    return buf;
}

/* Connect to the scratch database, creating sympath_scratch when it is missing (default only). */
static PGconn *open_scratch(PGconn *user, db_setup *d, FILE *notes, char **err)
{
    char m[1024];
    PGconn *s = PQconnectdb(d->scratch_conninfo);
    if (s && PQstatus(s) == CONNECTION_OK) return s;
    if (d->scratch || !s || !strstr(PQerrorMessage(s), "does not exist")) {
        *err = util_strf("cannot connect to the scratch database (%s): %s", d->scratch_conninfo,
                         msg_of(s, NULL, m, sizeof m));
        PQfinish(s);
        return NULL;
    }
    PQfinish(s);
    char *maint = conninfo_with_db(user, "postgres");
    PGconn *c = maint ? PQconnectdb(maint) : NULL;
    free(maint);
    PGresult *r =
        c && PQstatus(c) == CONNECTION_OK
            ? PQexec(c, "CREATE DATABASE " SCRATCH_DB " TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'")
            : NULL;
    /* another sympath run that created it at the same moment: 42P04 duplicate_database, or
     * 23505 unique_violation when both CREATE DATABASEs passed the server's own check */
    const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    bool raced = state && (!strcmp(state, "42P04") || !strcmp(state, "23505"));
    if (!r || (PQresultStatus(r) != PGRES_COMMAND_OK && !raced)) {
        *err = util_strf("the scratch database " SCRATCH_DB " does not exist and cannot be created (%s); "
                         "create it (CREATE DATABASE " SCRATCH_DB ") or name one where this role may create schemas "
                         "with --db-scratch CONNINFO",
                         msg_of(c, r, m, sizeof m));
        PQclear(r);
        PQfinish(c);
        return NULL;
    }
    PQclear(r);
    PQfinish(c);
    if (!raced) fprintf(notes, "sympath: created the scratch database " SCRATCH_DB " on the server\n");
    s = PQconnectdb(d->scratch_conninfo);
    if (s && PQstatus(s) == CONNECTION_OK) return s;
    *err = util_strf("cannot connect to the scratch database: %s", msg_of(s, NULL, m, sizeof m));
    PQfinish(s);
    return NULL;
}

/* Same server and same database name: the scratch database would be the user's. */
static int same_database(PGconn *a, PGconn *b)
{
    PGresult *ra = PQexec(a, "SELECT current_database(), inet_server_addr()::text, current_setting('port'), "
                             "current_setting('data_directory', true)");
    PGresult *rb = PQexec(b, "SELECT current_database(), inet_server_addr()::text, current_setting('port'), "
                             "current_setting('data_directory', true)");
    int same = 1; /* when in doubt: refuse */
    if (ra && rb && PQresultStatus(ra) == PGRES_TUPLES_OK && PQresultStatus(rb) == PGRES_TUPLES_OK) {
        same = !strcmp(PQgetvalue(ra, 0, 0), PQgetvalue(rb, 0, 0));
        /* the database names match: different servers (address/port) make them different */
        if (same &&
            (strcmp(PQgetvalue(ra, 0, 1), PQgetvalue(rb, 0, 1)) || strcmp(PQgetvalue(ra, 0, 2), PQgetvalue(rb, 0, 2))))
            same = 0;
        if (!same && !strcmp(PQgetvalue(ra, 0, 0), PQgetvalue(rb, 0, 0)) && PQgetvalue(ra, 0, 3)[0] &&
            !strcmp(PQgetvalue(ra, 0, 3), PQgetvalue(rb, 0, 3)))
            same = 1;
    }
    PQclear(ra), PQclear(rb);
    return same;
}

int db_setup_pg(const char *conninfo, const char *abs, db_setup *d, char **ddl, FILE *notes, char **err_out)
{
    *err_out = NULL;
    char err[1024];
    d->pg = 1;
    PGconn *user = data_pg_connect(conninfo, err, sizeof err);
    if (!user) {
        *err_out = util_strf("--db: cannot make the connection read-only: %s", err);
        return -1;
    }
    if (PQstatus(user) != CONNECTION_OK) {
        *err_out = util_strf("--db: cannot connect to %s: %s", conninfo, msg_of(user, NULL, err, sizeof err));
        PQfinish(user);
        return -1;
    }
    char *pg_ddl = NULL, *e = NULL;
    if (db_pg_read_schema(user, ddl, &pg_ddl, &e)) {
        *err_out = util_strf("--db %s: %s", conninfo, e ? e : "cannot read the tables");
        free(e);
        PQfinish(user);
        return -1;
    }
    snprintf(d->pg_ddl_path, sizeof d->pg_ddl_path, "%s/schema_pg.sql", abs);
    if (util_write_atomic(d->pg_ddl_path, pg_ddl, strlen(pg_ddl))) {
        *err_out = util_strf("cannot write %s: %s", d->pg_ddl_path, strerror(errno));
        free(pg_ddl), free(*ddl);
        PQfinish(user);
        return -1;
    }
    free(pg_ddl);
    d->scratch_conninfo = d->scratch ? strdup(d->scratch) : conninfo_with_db(user, SCRATCH_DB);
    PGconn *s = d->scratch_conninfo ? open_scratch(user, d, notes, err_out) : NULL;
    if (!d->scratch_conninfo) *err_out = util_strf("out of memory");
    int rc = s ? 0 : -1;
    if (!rc && same_database(user, s)) {
        *err_out = util_strf("the scratch database is the database of --db: sympath never writes there; "
                             "name another one with --db-scratch CONNINFO");
        rc = -1;
    }
    if (!rc) {
        PGresult *r = PQexec(s, "SELECT has_database_privilege(current_database(), 'CREATE')");
        if (!r || PQresultStatus(r) != PGRES_TUPLES_OK || PQgetvalue(r, 0, 0)[0] != 't') {
            *err_out = util_strf("this role may not create schemas in the scratch database (%s): grant it "
                                 "CREATE on that database or name another one with --db-scratch CONNINFO",
                                 PQdb(s));
            rc = -1;
        }
        PQclear(r);
    }
    PQfinish(s);
    PQfinish(user);
    if (rc) {
        free(*ddl);
        *ddl = NULL;
        return -1;
    }
    snprintf(d->prefix, sizeof d->prefix, "sympath_%d", (int)getpid());
    setenv(SYMPATH_ENV_DB_PG_SCRATCH, d->scratch_conninfo, 1);
    setenv(SYMPATH_ENV_DB_PG_DDL, d->pg_ddl_path, 1);
    setenv(SYMPATH_ENV_DB_PG_PREFIX, d->prefix, 1);
    return 0;
}

void db_cleanup_pg(const db_setup *d, FILE *notes)
{
    if (!d->pg || !d->scratch_conninfo) return;
    PGconn *c = PQconnectdb(d->scratch_conninfo);
    char m[1024];
    if (!c || PQstatus(c) != CONNECTION_OK) {
        fprintf(notes, "sympath: warning: cannot drop the runs' schemas %s_*: %s\n", d->prefix,
                msg_of(c, NULL, m, sizeof m));
        PQfinish(c);
        return;
    }
    char like[100];
    snprintf(like, sizeof like, "%s\\_%%", d->prefix);
    const char *p[1] = {like};
    PGresult *r = PQexecParams(c, "SELECT quote_ident(nspname) FROM pg_namespace WHERE nspname LIKE $1", 1, NULL, p,
                               NULL, NULL, 0);
    for (int i = 0; r && PQresultStatus(r) == PGRES_TUPLES_OK && i < PQntuples(r); i++) {
        char *sql = NULL;
        if (asprintf(&sql, "SET client_min_messages = warning; DROP SCHEMA IF EXISTS %s CASCADE", PQgetvalue(r, i, 0)) <
            0)
            continue;
        PGresult *x = PQexec(c, sql);
        if (!x || PQresultStatus(x) != PGRES_COMMAND_OK)
            fprintf(notes, "sympath: warning: %s: %s\n", sql, msg_of(c, x, m, sizeof m));
        PQclear(x);
        free(sql);
    }
    PQclear(r);
    PQfinish(c);
}
