/* source.c: data_source: the user's database, read-only, dispatched to SQLite (source_sqlite.c) or PostgreSQL (source_pg.c). */
#define _GNU_SOURCE
#include "source_int.h"

#include "db/db.h" /* data_is_postgres */

#include <stdlib.h>
#include <string.h>

struct data_source {
    const source_ops *ops;
    data_dialect dialect;
    void *h;
};

data_source *data_source_open(const char *db, char **err)
{
    data_source *ds = calloc(1, sizeof *ds);
    if (!ds) {
        *err = strdup("out of memory");
        return NULL;
    }
    ds->dialect = data_is_postgres(db) ? DATA_PG : DATA_SQLITE;
    ds->ops = ds->dialect == DATA_PG ? &source_pg_ops : &source_sqlite_ops;
    ds->h = ds->ops->open(db, err);
    if (!ds->h) {
        free(ds);
        return NULL;
    }
    return ds;
}

data_dialect data_source_dialect(const data_source *ds) { return ds->dialect; }

int data_source_estimate(data_source *ds, const char *sql, const char *const *params, int nparams, uint64_t limit,
                         uint64_t bound, double table_rows, data_estimate *out, char **err)
{
    if (!ds->ops->estimate) {
        *err = strdup("this database gives no row estimates");
        return -1;
    }
    return ds->ops->estimate(ds->h, sql, params, nparams, limit, bound, table_rows, out, err);
}

int64_t data_source_count(data_source *ds, const char *sql, const char *const *params, int nparams, char **err)
{
    return ds->ops->count(ds->h, sql, params, nparams, err);
}

char *data_source_fixture(data_source *ds, const char *const *keys, size_t nkeys, char **err)
{
    if (!ds->ops->fixture) {
        *err = strdup("this database keeps no row keys for a fixture");
        return NULL;
    }
    return ds->ops->fixture(ds->h, keys, nkeys, err);
}

void data_source_close(data_source *ds)
{
    if (!ds) return;
    ds->ops->close(ds->h);
    free(ds);
}
