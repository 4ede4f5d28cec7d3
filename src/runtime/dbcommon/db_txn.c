/* db_txn.c: a program's transactions in fixture mode: the model of the rows is saved at BEGIN/SAVEPOINT and put back at ROLLBACK, so what the program reads afterwards keeps its meaning. */
#include <stdlib.h>
#include <string.h>
#include "db_rt.h"

/*
 * The model a write changes is: each slot's cells and "alive" flag, each table's dirty flag
 * and rowids (PostgreSQL's UPDATE moves rows to new ctids), and the rows the program inserted
 * (a list, newest first; their cells and alive flags change too). Writes never change a
 * db_val in place (they assign new ones, whose text bytes are new storage), so a snapshot is a
 * shallow copy of these arrays. Snapshots nest (SAVEPOINT); names are not tracked: RELEASE and
 * ROLLBACK TO act on the newest, COMMIT and ROLLBACK on all of them.
 */
typedef struct ins_state {
    inserted *row;
    int64_t rowid;
    expr *alive;
    db_val *cells; /* copy of row->cells */
} ins_state;

typedef struct snapshot {
    struct snapshot *older;
    db_val **cells;   /* per table: rows * ncols */
    expr ***alive;    /* per table: rows */
    int64_t **rowids; /* per table: rows */
    bool *dirty;      /* per table */
    inserted **ins;   /* per table: list head */
    ins_state *rows;  /* every inserted row then */
    size_t nrows;
} snapshot;

static snapshot *top; /* newest */

static void snap_free(snapshot *p)
{
    if (!p) return;
    int nt = db_rt.schema ? db_rt.schema->ntables : 0;
    for (int ti = 0; ti < nt; ti++) {
        if (p->cells) free(p->cells[ti]);
        if (p->alive) free(p->alive[ti]);
        if (p->rowids) free(p->rowids[ti]);
    }
    for (size_t i = 0; i < p->nrows; i++) free(p->rows[i].cells);
    free(p->cells), free(p->alive), free(p->rowids), free(p->dirty), free(p->ins), free(p->rows), free(p);
}

/* Save the model; NULL when out of memory. */
static snapshot *snap_take(void)
{
    int nt = db_rt.schema->ntables;
    unsigned rows = db_rt.lim.rows;
    snapshot *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->cells = calloc((size_t)nt, sizeof *p->cells);
    p->alive = calloc((size_t)nt, sizeof *p->alive);
    p->rowids = calloc((size_t)nt, sizeof *p->rowids);
    p->dirty = calloc((size_t)nt, sizeof *p->dirty);
    p->ins = calloc((size_t)nt, sizeof *p->ins);
    bool ok = p->cells && p->alive && p->rowids && p->dirty && p->ins;
    size_t nins = 0;
    for (int ti = 0; ok && ti < nt; ti++) {
        size_t ncells = (size_t)rows * (size_t)db_rt.schema->tables[ti].ncols;
        p->cells[ti] = malloc((ncells + 1) * sizeof **p->cells);
        p->alive[ti] = malloc((rows + 1) * sizeof **p->alive);
        p->rowids[ti] = malloc((rows + 1) * sizeof **p->rowids);
        ok = p->cells[ti] && p->alive[ti] && p->rowids[ti];
        if (!ok) break;
        memcpy(p->cells[ti], db_rt.cells[ti], ncells * sizeof **p->cells);
        memcpy(p->alive[ti], db_rt.alive[ti], rows * sizeof **p->alive);
        memcpy(p->rowids[ti], db_rt.rowids[ti], rows * sizeof **p->rowids);
        p->dirty[ti] = db_rt.dirty[ti];
        p->ins[ti] = db_rt.ins[ti];
        for (inserted *r = db_rt.ins[ti]; r; r = r->next) nins++;
    }
    if (ok && nins && !(p->rows = calloc(nins, sizeof *p->rows))) ok = false;
    for (int ti = 0; ok && ti < nt; ti++) {
        int ncols = db_rt.schema->tables[ti].ncols;
        for (inserted *r = db_rt.ins[ti]; ok && r; r = r->next) {
            ins_state *st = &p->rows[p->nrows++];
            st->row = r, st->rowid = r->rowid, st->alive = r->alive;
            if ((st->cells = malloc(((size_t)ncols + 1) * sizeof *st->cells)))
                memcpy(st->cells, r->cells, (size_t)ncols * sizeof *st->cells);
            else
                ok = false;
        }
    }
    if (!ok) {
        snap_free(p);
        return NULL;
    }
    return p;
}

/* Put the model back as p saved it (rows inserted since are forgotten: their storage stays). */
static void snap_restore(const snapshot *p)
{
    int nt = db_rt.schema->ntables;
    unsigned rows = db_rt.lim.rows;
    for (int ti = 0; ti < nt; ti++) {
        memcpy(db_rt.cells[ti], p->cells[ti], (size_t)rows * db_rt.schema->tables[ti].ncols * sizeof **p->cells);
        memcpy(db_rt.alive[ti], p->alive[ti], rows * sizeof **p->alive);
        memcpy(db_rt.rowids[ti], p->rowids[ti], rows * sizeof **p->rowids);
        db_rt.dirty[ti] = p->dirty[ti];
        db_rt.ins[ti] = p->ins[ti];
    }
    for (size_t i = 0; i < p->nrows; i++) {
        const ins_state *st = &p->rows[i];
        st->row->rowid = st->rowid;
        st->row->alive = st->alive;
    }
    for (int ti = 0; ti < nt; ti++) { /* the cells of the rows inserted before the snapshot */
        int ncols = db_rt.schema->tables[ti].ncols;
        for (size_t i = 0; i < p->nrows; i++)
            for (inserted *r = p->ins[ti]; r; r = r->next)
                if (r == p->rows[i].row) memcpy(r->cells, p->rows[i].cells, (size_t)ncols * sizeof *r->cells);
    }
    db_rt.changes = NULL;
}

void db_rt_txn(db_txn t)
{
    if (db_rt.state != 1 || !db_rt.schema) return;
    switch (t) {
    case DB_TXN_BEGIN:
    case DB_TXN_SAVEPOINT: {
        snapshot *p = snap_take();
        if (!p) { /* nothing can be put back: every table concrete from here */
            for (int ti = 0; ti < db_rt.schema->ntables; ti++) db_rt.dirty[ti] = true;
            return;
        }
        p->older = top;
        top = p;
        return;
    }
    case DB_TXN_RELEASE:
        if (top) {
            snapshot *p = top;
            top = p->older;
            snap_free(p);
        }
        return;
    case DB_TXN_ROLLBACK_TO:
        if (top) snap_restore(top);
        return;
    case DB_TXN_COMMIT:
    case DB_TXN_ROLLBACK: {
        snapshot *oldest = top;
        while (oldest && oldest->older) oldest = oldest->older;
        if (t == DB_TXN_ROLLBACK && oldest) snap_restore(oldest);
        while (top) {
            snapshot *p = top;
            top = p->older;
            snap_free(p);
        }
        return;
    }
    default: return;
    }
}
