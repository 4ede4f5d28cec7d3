/* db_fault.c: fault injection into a run's database calls: the test vector's db:fault names the one call of the run that fails. */
#include <stdlib.h>
#include <string.h>
#include "db_rt.h"
#include "../core/rt_slow.h"
#include "../../proto/env.h"

/*
 * A database application's error paths (a failed open, prepare, step, exec, bind, connect
 * or query) are branches like any other, but a fixture alone never reaches them: the
 * calls succeed. As KLEE makes system calls fail on demand (Cadar et al., OSDI 2008,
 * "-max-fail"), fixture mode counts the program's fallible database calls (1, 2, ...; the
 * list is in docs/design.md, "Injected faults") and makes call number F fail, F being one
 * 16-bit input read with the fixture (db:fault, after its cells). F = 0 injects nothing.
 * A fallible call's result is ite(F == j, error, its result), so a branch on it puts
 * "F != j" in the path condition and the solver flips it like any other branch (the
 * program's error branch, still uncovered, is what the search wants first). A call that
 * records events of its own before the program can test its result (sqlite3_exec runs a
 * callback; PQexec's rows arrive with the result) would make the failing run leave the
 * predicted path there (a divergence): it gets a node of its own instead
 * (db_fault_node: a BK_FAULT event on "F == j", its true side the failing run) and a
 * concrete result. At most one call fails per run: after call F has failed, later calls
 * are concrete successes.
 * The native replay (src/replay/rt/replay_db.c, replay_pq.c) counts the same calls.
 */

static expr *fault;                  /* F (16 bits), NULL: faults off (SYMPATH_DB_FAULTS=0) or no fixture */
static uint64_t counted;             /* fallible calls so far in this run */
static int held;                     /* > 0 inside sqlite3_exec/get_table, whose inner calls are not the program's */
static uint32_t at_slot, since_slot; /* the last branch direction taken before the call, fallible calls since it */

void db_fault_init(expr *f)
{
    const char *on = getenv(SYMPATH_ENV_DB_FAULTS);
    fault = on && !strcmp(on, "0") ? NULL : f;
}

void db_fault_hold(int delta) { held += delta; }

bool db_fault_next(expr **fails)
{
    *fails = NULL;
    if (!fault || held || db_rt.state != 1) return false;
    uint64_t j = ++counted;
    if (__sym_last_slot != at_slot || j == 1) at_slot = __sym_last_slot, since_slot = 0;
    since_slot++;
    uint64_t f = fault->value & 0xffff;
    if ((f && f < j) || j > 0xffff) return false; /* this run's fault is past (or out of range) */
    expr_ctx *cx = rt_cx();
    *fails = rt_norm(expr_cmp(cx, PRED_EQ, fault, expr_const(cx, j, 16)));
    return f == j;
}

/* One fallible call as a node; null_result: the failure is a NULL result (arg's BK_FAULT_NULL). */
static bool fault_node(uint32_t kind)
{
    expr *fails;
    bool f = db_fault_next(&fails);
    /* site 0 (the tree matches events by kind and site; the last branch site executed also
     * moves with concrete branches, which would make two runs of one symbolic path differ);
     * arg, the call's approximate location for the search strategy: the last branch direction
     * taken (its coverage slot: the site alone would make `if (found) f(); g();` one location
     * for f's first call and g's) and which fallible call after it this is */
    if (fails) rt_trace_event(BK_FAULT, 0, f, fails, at_slot << 12 | kind | (since_slot & 0x7ff));
    return f;
}

bool db_fault_node(void) { return fault_node(0); }

bool db_fault_null_node(bool offered)
{
    if (offered) return fault_node(BK_FAULT_NULL);
    expr *fails;
    return db_fault_next(&fails); /* counted all the same: the numbering never depends on the program */
}

expr *db_fault_ret(expr *fails, uint32_t err, uint32_t other)
{
    if (!fails) return NULL;
    expr_ctx *cx = rt_cx();
    return expr_ite(cx, fails, expr_const(cx, err, 32), expr_const(cx, other, 32));
}
