/* pipeline.c: `sympath data` as a library: sources, OUT/build, the read-only database check, build, exploration, replay.conf. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/data.h"
#include "db/db.h"
#include "explore/explorer.h"
#include "instrument/instrument.h"

int data_run(const data_run_opts *r)
{
    FILE *log = r->log ? r->log : stderr;
    const char *out = r->out_dir, *db = r->db;
    size_t nsources = r->nsources;
    char **abs_sources = calloc(nsources ? nsources : 1, sizeof *abs_sources);
    char *db_abs = NULL, *err = NULL;
    db_setup dbs;
    memset(&dbs, 0, sizeof dbs);
    build_stats bs;
    memset(&bs, 0, sizeof bs);
    int rc = 1;
    if (!abs_sources) return 1;
    for (size_t i = 0; i < nsources; i++)
        if (!(abs_sources[i] = realpath(r->sources[i], NULL))) {
            fprintf(log, "sympath data: cannot read %s: %s\n", r->sources[i], strerror(errno));
            goto done;
        }
    explore_paths p;
    if (explore_prepare_out(out, &p, &err)) {
        fprintf(log, "sympath data: %s\n", err ? err : "out of memory");
        goto done;
    }

    /* the database: checked before the build, opened read-only; SQLite also gives the schema
     * the runtime needs for rowid keys and replay needs for its fixtures */
    if (!data_is_postgres(db)) {
        if (!(db_abs = realpath(db, NULL))) {
            fprintf(log, "sympath data: --db %s: %s\n", db, strerror(errno));
            goto done;
        }
        if (db_setup_data(db_abs, db, p.build_dir, &dbs, &err)) {
            fprintf(log, "sympath data: %s\n", err ? err : "out of memory");
            goto done;
        }
    }
    data_source *probe = data_source_open(db_abs ? db_abs : db, &err);
    if (!probe) {
        fprintf(log, "sympath data: --db %s: %s\n", db, err ? err : "cannot open the database");
        goto done;
    }
    data_source_close(probe);

    /* Ctrl-C is armed only after the build (before_explore): during it, it ends the process */
    if ((rc = explore_build_program("sympath data", &p, abs_sources, nsources, r->sources[0], r->cflags, NULL, NULL,
                                    &bs, log)) != 0)
        goto done;
    fprintf(log, "sympath: %u functions, %u branch sites instrumented in %.1f s\n", bs.functions, bs.branch_sites,
            bs.seconds);
    rc = 1;
    if (r->before_explore) r->before_explore();

    data_opts o = r->data;
    o.db = db_abs ? db_abs : db;
    o.out_dir = out;
    o.exe_path = p.exe;
    o.sites_path = p.sites;
    o.work_dir = p.build_dir;
    o.sources = r->sources;
    o.nsources = nsources;
    o.build_seconds = bs.seconds;
    o.interrupted = r->interrupted;
    data_summary sum;
    if (data_explore(&o, &sum, &err)) {
        fprintf(log, "sympath data: %s\n", err ? err : "the exploration failed");
        goto done;
    }
    /* replay: SQLite tests rebuild a database from the schema and their fixture (test-N.sql) */
    dbs.fixture_inputs = 0;
    if (explore_write_replay_conf(out, abs_sources, nsources, r->cflags, NULL, sum.slots_covered, sum.slots_total,
                                  dbs.schema ? &dbs : NULL, data_is_postgres(db), log) == 0)
        rc = 0;
done:
    free(err);
    db_setup_free(&dbs);
    build_stats_free(&bs);
    for (size_t i = 0; i < nsources; i++) free(abs_sources[i]);
    free(abs_sources);
    free(db_abs);
    return rc;
}
