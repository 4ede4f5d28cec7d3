/* source_pg.c: placeholder until the PostgreSQL source lands (branch pg): says so instead of connecting. */
#include <stdlib.h>
#include <string.h>
#include "source_int.h"

static void *pg_open(const char *db, char **err)
{
    (void)db;
    *err = strdup("PostgreSQL is not supported by this build yet");
    return NULL;
}

const source_ops source_pg_ops = {pg_open, NULL, NULL, NULL, NULL, NULL};
