/* db_minimize.c: the simplest fixture a kept test's path allows (fewest rows, NULL-free, short texts, small numbers), found greedily with the solver and checked by running it. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../db/db.h"
#include "../emit/emit.h"
#include "explore_state.h"
#include "proto/proto.h"
#include "util/util.h"

/*
 * Emmi et al. synthesize the rows a path needs; the solver's model gives them whatever values
 * satisfy the path condition (an INTEGER PRIMARY KEY of -9223372036854775808, a stock of 2^54,
 * rows no query returned). After the exploration (so that it costs the search nothing), each
 * kept test's inputs are simplified one at a time, in the test vector's order (each table's row count first, then its slots' NULL flags,
 * lengths, bytes and values): for each input, the first preferred value that, together with the
 * run's whole path condition and the choices made so far, is still satisfiable becomes a
 * constraint ("count = 0", "id = 1", "byte = 'a'", ...); an input with no feasible preference
 * keeps its value, pinned too. The new vector is then run: it is kept only if the run follows
 * exactly the same events (kinds, sites, outcomes) and ends the same way, so the test's meaning
 * and coverage are unchanged. A fixed number of solver queries per test bounds the cost.
 */

#define MIN_QUERIES 300  /* solver queries per test at most */
#define MIN_QUERY_MS 500 /* time-out of each */
#define MIN_PREFS 6      /* preferred values tried per input */
#define MIN_SECONDS 1.0  /* per test at most; in all 10% of the budget, 2 s at least */

/* Preferred values of input i (its type, width and name in r; its value now: cur), simplest first,
 * none equal to cur; returns how many. */
static unsigned prefs_of(const run_result *r, uint32_t i, uint64_t cur, uint32_t slot_hint, uint64_t *v)
{
    const char *name = r->inames && r->inames[i] ? r->inames[i] : "";
    size_t nl = strlen(name);
    unsigned n = 0;
    if (nl > 5 && !strcmp(name + nl - 5, ".rows") && !strncmp(name, "db:", 3)) { /* row count: fewest rows */
        for (uint64_t k = 0; k < cur && n < MIN_PREFS; k++) v[n++] = k;
        return n;
    }
    switch (r->itypes[i]) {
    case IT_BOOL: /* NULL flag: not NULL */
        if (cur) v[n++] = 0;
        return n;
    case IT_UCHAR: /* a text's length: short */
        for (uint64_t k = 0; k < cur && n < MIN_PREFS; k++) v[n++] = k;
        return n;
    case IT_BYTE: /* a text's byte: a lower-case letter */
        if (cur && cur != 'a') v[n++] = 'a';
        if (cur && cur != 'b' && n < MIN_PREFS) v[n++] = 'b';
        return n;
    case IT_DOUBLE: { /* 0.0, 1.0, the slot's number */
        static const uint64_t d[] = {0, 0x3ff0000000000000ull, 0x4000000000000000ull, 0x4008000000000000ull};
        for (unsigned k = 0; k < 4; k++)
            if (cur != d[k]) v[n++] = d[k];
        return n;
    }
    case IT_FLOAT: { /* 0.0f, 1.0f, 2.0f, 3.0f */
        static const uint64_t f[] = {0, 0x3f800000u, 0x40000000u, 0x40400000u};
        for (unsigned k = 0; k < 4; k++)
            if (cur != f[k]) v[n++] = f[k];
        return n;
    }
    default: { /* an integer: small, the slot's number + 1 first (keys 1, 2, 3) */
        uint64_t mask = r->iwidths[i] >= 64 ? ~0ull : (1ull << r->iwidths[i]) - 1;
        uint64_t c[] = {slot_hint + 1, 0, 1, 10, 100, 1000};
        for (unsigned k = 0; k < 6; k++) {
            bool dup = (c[k] & mask) == cur;
            for (unsigned j = 0; j < n; j++) dup |= v[j] == (c[k] & mask);
            if (!dup) v[n++] = c[k] & mask;
        }
        return n;
    }
    }
}

/* The slot number in a fixture input's name "db:t[3].col" (0 when none). */
static uint32_t slot_of(const run_result *r, uint32_t i, uint32_t *last)
{
    const char *name = r->inames && r->inames[i] ? r->inames[i] : NULL;
    const char *b = name ? strchr(name, '[') : NULL;
    if (b) *last = (uint32_t)strtoul(b + 1, NULL, 10);
    return *last;
}

/* explore_state.h */
bool explore_same_path(const run_result *a, const run_result *b)
{
    if (a->nevents != b->nevents || a->error != b->error || a->exit_code != b->exit_code ||
        a->assume_failed != b->assume_failed)
        return false;
    for (uint32_t i = 0; i < a->nevents; i++)
        if (a->events[i].kind != b->events[i].kind || a->events[i].site != b->events[i].site ||
            a->events[i].taken != b->events[i].taken)
            return false;
    return true;
}

/* Is input i the first of a new group (a table's row count, or the first input of a row slot)? */
static bool group_start(const run_result *r, uint32_t i)
{
    const char *name = r->inames && r->inames[i] ? r->inames[i] : NULL;
    if (!name) return false;
    const char *b = strchr(name, '[');
    if (!b) return true; /* db:t.rows or a program input */
    const char *prev = NULL;
    for (uint32_t j = i; j-- > 0 && !prev;)
        if (r->inames && r->inames[j]) prev = r->inames[j];
    return !prev || strncmp(prev, name, (size_t)(strchr(b, ']') ? strchr(b, ']') - name : b - name) + 1) != 0;
}

int explore_run_path(explore_state *s, const run_result *r, size_t extra, expr ***pc, size_t *npc, uint64_t **cur,
                     expr ***sym)
{
    *npc = 0;
    *pc = malloc(((size_t)r->nevents + extra) * sizeof **pc);
    *cur = malloc(r->ninputs * sizeof **cur + 1);
    *sym = calloc((size_t)r->ninputs + 1, sizeof **sym);
    if (!*pc || !*cur || !*sym) {
        free(*pc), free(*cur), free(*sym);
        *pc = NULL, *cur = NULL, *sym = NULL;
        return -1;
    }
    for (uint32_t i = 0; i < r->nevents; i++)
        if (r->events[i].cond)
            (*pc)[(*npc)++] = r->events[i].taken ? r->events[i].cond : expr_not(s->cx, r->events[i].cond);
    memcpy(*cur, r->inputs, r->ninputs * sizeof **cur);
    for (uint32_t i = 0; i < r->ninputs; i++) (*sym)[i] = expr_symbol(s->cx, i, r->iwidths[i], r->inputs[i]);
    return 0;
}

bool explore_try_solve(explore_state *s, expr **pc, size_t npc, expr *want, uint64_t *cur, uint32_t ncur)
{
    pc[npc] = want;
    uint64_t *sol = NULL;
    size_t nsol = 0;
    bool ok = solver_solve(s->min_solver, pc, npc + 1, cur, ncur, &sol, &nsol) == SOLVE_SAT && sol;
    if (ok)
        for (uint32_t j = 0; j < ncur && j < nsol; j++) cur[j] = sol[j];
    free(sol);
    return ok;
}

/* Minimize r's fixture (see the block comment above) by `deadline` (util_now_s() seconds) on
 * executor idx; 1 with *out when the simpler run follows r's path. *partial: the time or the
 * query limit ended it before every input had its simplest values tried. */
static int minimize_run(explore_state *s, unsigned idx, const run_result *r, run_result *out, double deadline,
                        bool *partial)
{
    *partial = false;
    const db_schema *sc = s->o->db_schema;
    if (!sc || !r->ninputs) return 0;
    char first[300];
    snprintf(first, sizeof first, "db:%s.rows", sc->tables[0].name);
    bool has_fixture = false;
    for (uint32_t i = 0; i < r->ninputs && !has_fixture; i++)
        has_fixture = r->inames && r->inames[i] && !strcmp(r->inames[i], first);
    if (!has_fixture) return 0; /* the run never opened its database */

    double t0 = util_now_s();
    if (deadline > t0 + MIN_SECONDS) deadline = t0 + MIN_SECONDS;
    /* the path condition: every event's condition as it went, then one constraint per input */
    size_t npc;
    expr **pc, **sym;
    uint64_t *cur;
    if (explore_run_path(s, r, (size_t)r->ninputs + 2, &pc, &npc, &cur, &sym)) return 0;
    if (!s->min_solver && !(s->min_solver = solver_new(MIN_QUERY_MS))) {
        free(pc), free(cur), free(sym);
        return 0;
    }
    unsigned queries = 0;
    uint32_t slot = 0;
    /* every input of the test (program inputs too: a price above a huge budget is no simpler),
     * a group (a table's row count, a row slot, a program input) at a time: first all its
     * inputs' simplest values in one query, then input by input */
    for (uint32_t g = 0; g < r->ninputs;) {
        uint32_t ge = g + 1;
        while (ge < r->ninputs && !group_start(r, ge)) ge++;
        expr *all = expr_const(s->cx, 1, 1);
        bool any = false;
        for (uint32_t i = g; i < ge; i++) {
            uint64_t v[MIN_PREFS];
            if (prefs_of(r, i, cur[i], slot_of(r, i, &slot), v)) {
                all = expr_and1(s->cx, all, expr_cmp(s->cx, PRED_EQ, sym[i], expr_const(s->cx, v[0], r->iwidths[i])));
                any = true;
            }
        }
        if (util_now_s() > deadline) queries = MIN_QUERIES; /* out of time: the rest stays as it is */
        if (any && queries >= MIN_QUERIES) *partial = true;
        bool done = !any || (queries++ < MIN_QUERIES && explore_try_solve(s, pc, npc, all, cur, r->ninputs));
        for (uint32_t i = g; i < ge; i++) {
            uint64_t v[MIN_PREFS];
            unsigned nv = done ? 0 : prefs_of(r, i, cur[i], slot_of(r, i, &slot), v);
            for (unsigned k = 0; k < nv && queries < MIN_QUERIES; k++) {
                if (util_now_s() > deadline) { /* out of time: the rest stays as it is */
                    queries = MIN_QUERIES;
                    *partial = true;
                    break;
                }
                queries++;
                if (explore_try_solve(s, pc, npc,
                                      expr_cmp(s->cx, PRED_EQ, sym[i], expr_const(s->cx, v[k], r->iwidths[i])), cur,
                                      r->ninputs))
                    break;
            }
            /* later choices keep this one */
            pc[npc++] = expr_cmp(s->cx, PRED_EQ, sym[i], expr_const(s->cx, cur[i], r->iwidths[i]));
        }
        g = ge;
    }
    free(pc), free(sym);
    s->db_min_queries += queries;
    bool changed = memcmp(cur, r->inputs, r->ninputs * sizeof *cur) != 0;
    int kept = 0;
    if (changed) {
        /* run it: the recorded results (PostgreSQL) of r are put back if the run is not kept */
        char rp[4200];
        char *saved = NULL;
        size_t saved_n = 0;
        if (s->o->db_results_dir) {
            snprintf(rp, sizeof rp, "%s/results-%u.txt", s->o->db_results_dir, s->cur_exec);
            saved = util_read_file(rp, &saved_n);
        }
        executor *ex = s->ex[idx];
        char *err = NULL;
        memset(out, 0, sizeof *out);
        if (executor_begin(ex, cur, r->ninputs, &err) == 0) {
            executor *one[1] = {ex};
            if (executor_wait_any(one, 1) == 0 && executor_finish(ex, s->cx, out, &err) == 0)
                kept = explore_same_path(r, out);
        }
        free(err);
        if (!kept) {
            run_result_clear(out);
            if (saved) write_file_atomic(rp, saved, saved_n);
        }
        free(saved);
    }
    free(cur);
    s->db_min_seconds += util_now_s() - t0;
    if (!kept && changed) s->db_min_rejected++;
    return kept;
}

/* ---------------------------------------------------------------- the queue of kept tests */

typedef struct min_entry {
    struct min_entry *next;
    int num;      /* test-NNNNN */
    run_result r; /* a copy: inputs, their types, widths and names, events */
} min_entry;

static void entry_free(min_entry *e)
{
    run_result_clear(&e->r);
    free(e);
}

void explore_db_queue_kept(explore_state *s, int num, const run_result *r)
{
    if (!s->o->db_schema || s->o->no_db_minimize || r->error != ERR_NONE || !r->ninputs) return;
    min_entry *e = calloc(1, sizeof *e);
    if (!e) return;
    e->num = num;
    if (run_result_copy(&e->r, r)) {
        entry_free(e);
        return;
    }
    e->next = s->min_queue;
    s->min_queue = e;
}

/* INSERT statements in a fixture file (0 when there is none). */
static uint64_t fixture_rows(const char *path)
{
    char *t = util_read_file(path, NULL);
    uint64_t n = 0;
    for (const char *p = t; p && (p = strstr(p, "INSERT INTO ")); p++) n++;
    free(t);
    return n;
}

/* Replace test num's files with run m's inputs and fixture. 0, or -1 (the old files stay). */
static int rewrite_test(explore_state *s, int num, const run_result *m, bool partial)
{
    test_case tc;
    explore_fill_test_case(m, &tc);
    char *err = NULL;
    const char *note = partial ? "fixture partly minimized (db_minimize.c: out of time or queries)"
                               : "fixture minimized (db_minimize.c)";
    if (suite_rewrite_test(s->suite, num, &tc, note, &err)) {
        free(err);
        return -1;
    }
    char sql[4200];
    snprintf(sql, sizeof sql, "%s/tests/test-%05d.sql", s->o->out_dir, num);
    uint64_t old_rows = fixture_rows(sql);
    char *old = util_read_file(sql, NULL);
    if (old && strstr(old, DB_FAULT_COMMENT)) s->db_fault_tests--;
    free(old);
    s->db_fixtures--;
    s->db_fixture_rows -= old_rows;
    return explore_write_fixture(s, m, "tests/test-%05d.xml", num);
}

void explore_db_minimize_kept(explore_state *s)
{
    /* oldest first: the tests that show the most common paths */
    min_entry *rev = NULL;
    while (s->min_queue) {
        min_entry *e = s->min_queue;
        s->min_queue = e->next;
        e->next = rev;
        rev = e;
    }
    s->cur_exec = s->exec_base; /* executor 0 runs them */
    double t0 = util_now_s();
    double limit = s->o->budget_seconds > 0 ? 0.1 * s->o->budget_seconds : 0.1 * (t0 - s->t0);
    if (limit < 2 * MIN_SECONDS) limit = 2 * MIN_SECONDS;
    bool stop = s->write_failed || !s->nex || (s->o->interrupted && *s->o->interrupted);
    while (rev) {
        min_entry *e = rev;
        rev = e->next;
        stop = stop || (s->o->interrupted && *s->o->interrupted);
        if (stop || util_now_s() - t0 > limit) {
            s->db_min_skipped += !stop;
        } else {
            run_result m;
            bool partial = false;
            if (minimize_run(s, 0, &e->r, &m, t0 + limit, &partial)) {
                if (rewrite_test(s, e->num, &m, partial) == 0) {
                    s->db_minimized++;
                    s->db_min_partial += partial;
                } else {
                    stop = true; /* a file could not be written: leave the rest as they are */
                }
                run_result_clear(&m);
            }
        }
        entry_free(e);
    }
}
