/* notes.c: a row inserted without its DEFAULT CURRENT_TIMESTAMP and expression columns stays tracked (the engine's values for those), so the COUNT and MAX over it and the fixture's rows are symbolic; an INSERT ... SELECT of expressions read back (tests/e2e/test_db_sql.sh). */
#include <sqlite3.h>
#include <stdio.h>
#include "sympath.h"

int main(void)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    int n = sym_int("n");
    if (n < 0 || n > 1000) return 0;
    if (sqlite3_open("notes.db", &db) != SQLITE_OK) return 1;
    /* INSERT ... SELECT of expressions of the source row and a parameter: the archived rows keep their expressions */
    if (sqlite3_prepare_v2(db, "INSERT INTO archive(body, qty) SELECT body || ?, qty * 2 FROM notes WHERE qty > 5", -1,
                           &st, NULL) != SQLITE_OK)
        return 1;
    sqlite3_bind_text(st, 1, "!", -1, SQLITE_STATIC);
    sqlite3_step(st);
    sqlite3_finalize(st);
    if (sqlite3_prepare_v2(db, "SELECT qty FROM archive", -1, &st, NULL) != SQLITE_OK) return 1;
    while (sqlite3_step(st) == SQLITE_ROW)
        if (sqlite3_column_int(st, 0) == 84) puts("archived 42");
    sqlite3_finalize(st);
    if (sqlite3_prepare_v2(db, "INSERT INTO notes(body, qty) VALUES ('todo', ?)", -1, &st, NULL) != SQLITE_OK) return 1;
    sqlite3_bind_int(st, 1, n);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return 1;
    if (sqlite3_prepare_v2(db, "SELECT COUNT(*), MAX(qty) FROM notes WHERE qty > 5", -1, &st, NULL) != SQLITE_OK)
        return 1;
    if (sqlite3_step(st) == SQLITE_ROW) {
        int count = sqlite3_column_int(st, 0);
        if (count == 2)
            puts("two big notes");
        else if (count == 0)
            puts("no big note");
        if (sqlite3_column_int(st, 1) == 77) puts("77 is the most");
    }
    sqlite3_finalize(st);
    /* the row just inserted, read back: its qty is the program's n */
    if (sqlite3_prepare_v2(db, "SELECT qty, created FROM notes WHERE id = ?", -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, sqlite3_last_insert_rowid(db));
        if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) == 42) puts("42 noted");
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return 0;
}
