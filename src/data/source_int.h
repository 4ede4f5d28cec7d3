/* source_int.h: the per-DBMS halves of data_source (source_sqlite.c, source_pg.c), dispatched by source.c. */
#ifndef SYMPATH_DATA_SOURCE_INT_H
#define SYMPATH_DATA_SOURCE_INT_H

#include "data.h"

/* Each DBMS implements these with the contracts of the data_source_* functions in data.h;
 * `h` is the handle its open returned. */
typedef struct source_ops {
    void *(*open)(const char *db, char **err);
    int (*estimate)(void *h, /* NULL: no estimates (SQLite) */ const char *sql, const char *const *params, int nparams,
                    uint64_t limit, uint64_t bound, double table_rows, data_estimate *out, char **err);
    int64_t (*count)(void *h, const char *sql, const char *const *params, int nparams, char **err);
    char *(*fixture)(void *h, const char *const *keys, size_t nkeys, char **err); /* NULL: unsupported */
    void (*close)(void *h);
} source_ops;

extern const source_ops source_sqlite_ops; /* source_sqlite.c */
extern const source_ops
    source_pg_ops; /* source_pg.c; its handle is the PGconn (read-only, data_pg_connect in db/db.h) */

#endif
