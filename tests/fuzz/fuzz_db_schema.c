/* fuzz_db_schema.c (links sympath_db): the schema loader on arbitrary DDL, then the fixture layout and constraints of what it loaded. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/db.h"

/*
 * The input is the text of a --db schema file. SQLite executes it into an in-memory
 * database, so statements that touch files (ATTACH, VACUUM INTO) are refused before
 * they run; the target also works in a directory of its own. A schema that loads must
 * give the same tables and columns again from its own DDL (db_schema.ddl), and its
 * fixture layout, INSERT text and slot constraints are computed for two row slots.
 */
static char work_dir[] = "/tmp/sympath-fuzz-schemaXXXXXX";

/* at exit: the directory goes (empty: the database is in memory) */
static void remove_work_dir(void)
{
    if (chdir("/") == 0) rmdir(work_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    if (!mkdtemp(work_dir) || chdir(work_dir) != 0) abort();
    atexit(remove_work_dir);
    return 0;
}

static int touches_files(const char *s)
{
    static const char *const words[] = {"attach", "vacuum"};
    for (const char *p = s; *p; p++)
        for (size_t w = 0; w < 2; w++)
            if (!strncasecmp(p, words[w], strlen(words[w]))) return 1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *ddl = malloc(size + 1);
    if (!ddl) return 0;
    memcpy(ddl, data, size);
    ddl[size] = '\0';
    if (touches_files(ddl)) {
        free(ddl);
        return 0;
    }
    db_schema *s = NULL;
    char *err = NULL;
    if (db_schema_from_ddl(ddl, &s, &err) != 0) {
        if (!err) abort(); /* a failure comes with its message */
        free(err);
        free(ddl);
        return 0;
    }
    /* the DDL it keeps recreates it */
    db_schema *again = NULL;
    if (db_schema_from_ddl(s->ddl, &again, &err) != 0) {
        fprintf(stderr, "schema DDL does not load again: %s\n--- DDL\n%s\n", err, s->ddl);
        abort();
    }
    if (again->ntables != s->ntables) abort();
    for (int t = 0; t < s->ntables; t++)
        if (again->tables[t].ncols != s->tables[t].ncols || strcmp(again->tables[t].name, s->tables[t].name)) abort();
    db_schema_free(again);

    /* a fixture of two row slots per table, values from the input bytes */
    db_limits l = {.rows = 2, .text = 3};
    size_t n = db_fixture_ninputs(s, &l);
    if (n < 100000) {
        uint64_t *vals = calloc(n + 1, sizeof *vals);
        for (size_t i = 0; i < n && size; i++) vals[i] = data[i % size];
        free(db_fixture_sql(s, &l, vals, n, 0));
        free(vals);

        expr_ctx *cx = expr_ctx_new();
        expr **counts = calloc((size_t)s->ntables, sizeof *counts);
        db_val **cells = calloc((size_t)s->ntables, sizeof *cells);
        uint32_t sym = 0;
        for (int t = 0; t < s->ntables; t++) {
            const db_table *tb = &s->tables[t];
            counts[t] = expr_symbol(cx, sym++, 8, 0);
            cells[t] = calloc((size_t)l.rows * (size_t)tb->ncols + 1, sizeof **cells);
            for (unsigned r = 0; r < l.rows; r++)
                for (int c = 0; c < tb->ncols; c++) {
                    db_val *v = &cells[t][r * (unsigned)tb->ncols + (unsigned)c];
                    v->null = expr_symbol(cx, sym++, 1, 0);
                    if (db_column_is_text(&tb->cols[c])) {
                        v->is_text = true;
                        v->len = expr_symbol(cx, sym++, 8, 0);
                        v->nbytes = l.text;
                        v->bytes = calloc(l.text, sizeof *v->bytes);
                        for (unsigned b = 0; b < l.text; b++) v->bytes[b] = expr_symbol(cx, sym++, 8, 0);
                    } else {
                        v->v = expr_symbol(cx, sym++, 64, 0);
                    }
                }
        }
        for (int t = 0; t < s->ntables; t++)
            for (unsigned r = 0; r < l.rows; r++)
                if (!db_slot_constraints(cx, s, &l, t, r, counts, cells)) abort();
        for (int t = 0; t < s->ntables; t++) {
            for (unsigned i = 0; i < l.rows * (unsigned)s->tables[t].ncols; i++) free(cells[t][i].bytes);
            free(cells[t]);
        }
        free(cells);
        free(counts);
        expr_ctx_free(cx);
    }
    db_schema_free(s);
    free(ddl);
    return 0;
}
