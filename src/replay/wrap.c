/* wrap.c: the one list of functions the replay library replaces with the linker's --wrap. */
#include <stdlib.h>

#include "replay/replay.h"
#include "util/util.h"

/* Keep each list equal to the __wrap_ functions of its rt/ file (tests/unit/test_replay_wrap.c). */
static const char *const posix_names[] = {"main", "fopen", "open", "fopen64", "open64", NULL};
static const char *const sqlite_names[] = {
    "sqlite3_open",       "sqlite3_open_v2",   "sqlite3_prepare",    "sqlite3_prepare_v2",
    "sqlite3_prepare_v3", "sqlite3_bind_int",  "sqlite3_bind_int64", "sqlite3_bind_double",
    "sqlite3_bind_null",  "sqlite3_bind_text", "sqlite3_step",       "sqlite3_reset",
    "sqlite3_finalize",   "sqlite3_exec",      "sqlite3_get_table",  NULL,
};
static const char *const pq_names[] = {
    "PQconnectdb",
    "PQconnectdbParams",
    "PQsetdbLogin",
    "PQstatus",
    "PQerrorMessage",
    "PQfinish",
    "PQexec",
    "PQexecParams",
    "PQprepare",
    "PQexecPrepared",
    "PQresultErrorMessage",
    "PQcmdTuples",
    "PQclear",
    NULL,
};

static const struct {
    const char *const *names;
    const char *file;
} groups[REPLAY_WRAP_NGROUPS] = {
    [REPLAY_WRAP_POSIX] = {posix_names, "replay.c"},
    [REPLAY_WRAP_SQLITE] = {sqlite_names, "replay_db.c"},
    [REPLAY_WRAP_PQ] = {pq_names, "replay_pq.c"},
};

const char *const *replay_wrap_names(replay_wrap_group g) { return groups[g].names; }

const char *replay_wrap_file(replay_wrap_group g) { return groups[g].file; }

char *replay_wrap_option(replay_wrap_group g)
{
    strbuf b = STRBUF_INIT;
    sb_puts(&b, "-Wl");
    for (const char *const *n = groups[g].names; *n; n++) sb_printf(&b, ",--wrap=%s", *n);
    if (b.failed) {
        sb_free(&b);
        return NULL;
    }
    return b.s;
}
