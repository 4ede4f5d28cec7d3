/* explorer.c: the concolic exploration loop: pick a direction, solve, run, insert, keep tests, report. */
#define _GNU_SOURCE
#include "explorer.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../emit/emit.h"
#include "../instrument/instrument.h"
#include "../report/report.h"
#include "../solver/solver.h"
#include "executor.h"
#include "explore_state.h"
#include "strategy.h"
#include "tree.h"
#include "util/util.h"
#include "proto/env.h"

/*
 * The loop (Kähkönen et al. 2009, sec. 3: the test selector):
 *
 *   while budget left:
 *     while an executor is idle and the strategy has a candidate (node, d):
 *         PC = path condition of (node, d); solve; SAT -> begin a run on the model
 *         (UNSAT / UNKNOWN mark the direction and take the next candidate)
 *     wait for any executor; insert its run into the tree (divergence check against
 *     the candidate it was aimed at), merge coverage, keep the test if it added
 *     coverage or reached a new error, tell the strategy.
 *
 * With -j N, N executors run concurrently while the explorer solves for the next
 * candidates. The tree is exhausted when no candidate is left and nothing runs.
 */

/* ---- coverage ---- */

static int slot_covered_cb(void *ctx, uint32_t slot)
{
    explore_state *s = ctx;
    return slot < s->nslots ? s->covered[slot] != 0 : 1;
}

/* The number of user slots a run's coverage bytes cover for the first time (nothing marked). */
uint32_t explore_fresh_coverage(const explore_state *s, const uint8_t *cov)
{
    uint32_t fresh = 0;
    for (uint32_t i = 0; i < s->nslots; i++)
        if (cov[i] && !s->covered[i] && s->slot_user[i]) fresh++;
    return fresh;
}

/* Merge a run's coverage bytes; returns the number of user slots covered for the first time. */
uint32_t explore_merge_run_coverage(explore_state *s, const uint8_t *cov)
{
    uint32_t fresh = explore_merge_coverage(s->covered, s->slot_user, s->nslots, cov, &s->user_covered);
    if (fresh) {
        s->last_cov_time = util_now_s() - s->t0;
        s->last_cov_execs = s->execs;
    }
    return fresh;
}

/* ---- test files ---- */

/*
 * A file of the suite could not be written (most often: the disk is full). Every later
 * test would be lost too, so the exploration stops (stop reason "write-error"), the files
 * already written stay complete (each was written atomically), and the run ends with exit
 * code 1. Said once: msg (it names the path) or else what; e is the errno of the failure.
 */
void explore_output_failed(explore_state *s, const char *what, const char *msg, int e)
{
    if (s->write_failed) return;
    s->write_failed = 1;
    char *note = util_strf("sympath: %s%s%s%s; exploration stopped (the %llu tests in %s/tests are complete)",
                           e == ENOSPC || e == EDQUOT ? "disk full: " : "", msg ? "" : what, msg ? "" : ": ",
                           msg ? msg : strerror(e), (unsigned long long)s->tests, s->o->out_dir);
    report_progress_note(s->progress,
                         note ? note : "sympath: a file of the suite could not be written; exploration stopped");
    free(note);
}

/* --db: the fixture of test case number num (file name pattern under out_dir) beside its XML.
 * When it cannot be written, every file of that stem goes (.xml, an error's .txt, a .sql
 * written before a failed .results), so that no test is left without its database; returns
 * -1 then, else 0. */
int explore_write_fixture(explore_state *s, const run_result *r, const char *pattern, int num)
{
    if (!s->o->db_schema) return 0;
    char rel[64], path[4200];
    snprintf(rel, sizeof rel, pattern, num);
    snprintf(path, sizeof path, "%s/%s", s->o->out_dir, rel);
    char *err = NULL;
    errno = 0;
    if (explore_db_write_fixture(s, r, path, &err) == 0) return 0;
    int e = errno;
    char *msg = util_strf("%s: %s", err ? err : "?", strerror(e));
    explore_output_failed(s, "cannot write the fixture of a test", msg, e);
    free(msg);
    free(err);
    size_t n = strlen(path);
    static const char *const exts[] = {".xml", ".txt", ".sql", ".results"};
    for (size_t k = 0; n > 4 && k < sizeof exts / sizeof exts[0]; k++) {
        snprintf(path + n - 4, sizeof path - (n - 4), "%s", exts[k]);
        unlink(path);
    }
    return -1;
}

void explore_fill_test_case(const run_result *r, test_case *tc)
{
    tc->n = r->ninputs;
    tc->values = r->inputs;
    tc->types = r->itypes;
    tc->names = (const char *const *)r->inames;
    tc->covers_error = r->error != ERR_NONE;
}

/* ---- runs ---- */

/* Progress: a sample for OUT/stats and the display (src/report); target = the branch the
 * last candidate given to an executor aimed at. */
static void progress_line(explore_state *s, int final)
{
    if (!report_progress_due(s->progress, final)) return; /* called after every run: nothing due, no work */
    solver_stats ss;
    explore_solver_stats(s, &ss);
    report_sample rs = {util_now_s() - s->t0, s->execs,         s->user_covered, s->user_slots, s->tests,
                        s->nerrors,           s->solve_seconds, ss.queries,      ss.unknown,    s->divergences};
    char target[512] = "";
    for (unsigned i = 0; i < s->nex && !target[0]; i++) {
        const site_info *si = s->pending[i].cand.node ? explore_site(s, s->pending[i].cand.node->site) : NULL;
        if (si) snprintf(target, sizeof target, "%s:%u in %s", si->file, si->line, si->function);
    }
    report_progress_update(s->progress, &rs, target, final);
}

static void on_open_cb(void *ctx, tree_node *node, int dir)
{
    explore_state *s = ctx;
    if (!s->collect_opens) {
        s->st->add(s->st, node, dir);
        return;
    }
    /* a job run: worker_job_inserted decides which of these are this worker's */
    if (s->nopened == s->opened_cap) {
        uint32_t nc = s->opened_cap ? s->opened_cap * 2 : 64;
        tree_node **nn = realloc(s->opened, nc * sizeof *nn);
        if (nn) s->opened = nn;
        uint8_t *nd = nn ? realloc(s->opened_dir, nc) : NULL;
        if (nd) s->opened_dir = nd;
        if (!nn || !nd) {
            tree_set_status(s->tree, node, dir, CHILD_REMOTE); /* out of memory: leave it to nobody */
            return;
        }
        s->opened_cap = nc;
    }
    s->opened[s->nopened] = node;
    s->opened_dir[s->nopened++] = (uint8_t)dir;
}

/*
 * A run over the time limit is a hang only if it is still running under a longer limit:
 * the instrumented executor is several times slower than the native program, and a slow
 * run reported as a hang would give a reproducer that ends normally under replay. A new
 * time-out is therefore run again with CONFIRM_FACTOR times the limit; if it ends, its
 * result replaces the time-out (counted as a slow run). Known time-outs are not re-run, and
 * none once CONFIRM_HANGS_MAX were confirmed and no run was merely slow (a program that never
 * ends: sv-benchmarks' `while (1)` after the input phase; each run stopped at another of the
 * loop's branches is a new location, which cost a 10 s confirmation each at the default 2 s).
 */
static void confirm_timeout(explore_state *s, unsigned idx, run_result *r)
{
    char *where = NULL, *func = NULL;
    char *key = explore_error_key(s, r, &where, &func);
    int known = key && explore_error_known(s, key);
    free(key);
    free(where);
    free(func);
    if (known) return;
    if (s->hangs_confirmed >= CONFIRM_HANGS_MAX && s->slow_runs == 0) {
        s->timeout_unconfirmed = UNCONFIRMED_HANGS;
        return;
    }
    /* the confirmation must not overrun the exploration's budget */
    double limit_ms = (double)s->o->run_timeout_ms * CONFIRM_FACTOR;
    if (s->o->budget_seconds > 0) {
        double left_ms = (s->o->budget_seconds - (util_now_s() - s->t0)) * 1000.0;
        if (left_ms < limit_ms) limit_ms = left_ms;
    }
    if (limit_ms <= s->o->run_timeout_ms) {
        s->timeout_unconfirmed = UNCONFIRMED_NO_BUDGET;
        return;
    }
    executor *ex = s->ex[idx];
    pending_run *p = &s->pending[idx];
    executor_set_timeout(ex, (unsigned)limit_ms);
    char *err = NULL;
    run_result again;
    memset(&again, 0, sizeof again);
    int ok = executor_begin(ex, p->inputs, p->ninputs, &err) == 0;
    if (ok) {
        executor *one[1] = {ex};
        ok = executor_wait_any(one, 1) == 0;
        if (ok && executor_finish(ex, s->cx, &again, &err) != 0) {
            free(err);
            err = NULL;
        }
    }
    free(err);
    executor_set_timeout(ex, s->o->run_timeout_ms);
    if (!ok) return;
    if (again.error == ERR_TIMEOUT) {
        s->hangs_confirmed++;
        run_result_clear(&again);
        return;
    }
    s->slow_runs++;
    again.seconds += r->seconds;
    run_result_clear(r);
    *r = again;
}

/*
 * A run that ended at its input limit (a program that reads inputs in a loop) may have
 * more to show with more inputs: it is queued to be run again with the inputs it read as
 * its given vector, which doubles its limit (executor_opts.inputs_limit). Continuations
 * run only when the strategy has no candidate left, most recent first; the queue keeps
 * the newest CONT_MAX, and a run already at the input area's capacity is not continued.
 */
#define CONT_MAX 64

static void remember_continuation(explore_state *s, const run_result *r)
{
    if (r->ninputs >= (1u << 20) / 2) {
        s->cont_dropped++;
        return;
    }
    if (s->ncont == CONT_MAX) {
        input_vec_release(s->cont[0]);
        memmove(s->cont, s->cont + 1, (CONT_MAX - 1) * sizeof *s->cont);
        s->ncont--;
        s->cont_dropped++;
    }
    if (s->ncont == s->cont_cap) {
        uint32_t nc = s->cont_cap ? s->cont_cap * 2 : 8;
        input_vec **n = realloc(s->cont, nc * sizeof *n);
        if (!n) {
            s->cont_dropped++;
            return;
        }
        s->cont = n;
        s->cont_cap = nc;
    }
    input_vec *v = input_vec_new(r->inputs, r->ninputs);
    if (v)
        s->cont[s->ncont++] = v;
    else
        s->cont_dropped++;
}

int explore_keep_test(explore_state *s, const run_result *r, const char *comment)
{
    test_case tc;
    explore_fill_test_case(r, &tc);
    char *err = NULL;
    int num = suite_write_test(s->suite, &tc, comment, &err);
    if (num < 0) {
        explore_output_failed(s, "cannot write a test case", err, errno);
        free(err);
        return -1;
    }
    if (explore_write_fixture(s, r, "tests/test-%05d.xml", num) != 0) return -1;
    s->tests++;
    explore_db_layout_keep(s, r); /* with a layout that may grow: its inputs, to run again */
    return num;
}

/* Process one finished run: tree, coverage, tests, errors, strategy feedback. */
static void process_run(explore_state *s, unsigned idx, run_result *r)
{
    pending_run *p = &s->pending[idx];
    s->cur_exec = s->exec_base + idx; /* whose recorded results a kept test gets (PostgreSQL fixture mode) */
    s->timeout_unconfirmed = 0;
    if (r->error == ERR_TIMEOUT) confirm_timeout(s, idx, r);
    s->execs++;
    s->exec_seconds += r->seconds;
    s->events_total += r->nevents;
    if (r->nevents > s->events_max) s->events_max = r->nevents;
    s->inputs_total += r->ninputs;
    for (int k = 0; k < CONC_KIND_COUNT; k++) s->conc[k] += r->conc[k];
    for (unsigned k = 0; k < TRACE_CONC_FN_SLOTS; k++) s->conc_fn[k] += r->conc_fn[k];
    s->forks += r->forks;
    s->dropped += r->dropped;
    if (r->error == ERR_TIMEOUT) s->timeouts++;
    if (r->assume_failed) s->assume_failed++;
    if (r->inputs_done) {
        s->inputs_done++;
        remember_continuation(s, r);
    }

    input_vec *iv = input_vec_new(r->inputs, r->ninputs);
    tree_insert_result tr;
    memset(&tr, 0, sizeof tr);
    s->collect_opens = p->job != NULL;
    if (tree_insert(s->tree, r->events, r->nevents, iv, p->has_cand ? p->cand.node : NULL,
                    p->has_cand ? p->cand.dir : 0, on_open_cb, s, &tr) != 0)
        fprintf(stderr, "sympath: out of memory inserting a run into the execution tree\n");
    s->collect_opens = 0;
    if (tr.diverged) s->divergences++;
    if (tr.diverged && p->has_cand && s->st->on_failed) s->st->on_failed(s->st, p->cand.node, p->cand.dir);
    if (tr.diverged && p->job == NULL) explore_retry_after_assumption(s, p, r);
    int diverged = tr.diverged;
    if (p->job) {
        if (!worker_job_inserted(s, p->job, r)) diverged = 1;
        worker_job_free(p->job);
        p->job = NULL;
    }
    uint64_t ph = par_path_hash(r->events, r->nevents);
    pathset_add(&s->paths, ph, diverged);
    if (s->par_role == PAR_WORKER) worker_note_path(s, ph, diverged);

    /* coverage is merged once the test that shows it is on disk: a test lost to a full disk
     * must not count in report.json's coverage */
    const uint8_t *cov = executor_coverage(s->ex[idx]);
    uint32_t fresh = explore_fresh_coverage(s, cov);
    int new_error = explore_handle_error(s, r);
    bool keep = (fresh > 0 || new_error) &&
                (s->par_role == PAR_WORKER || (!s->write_failed && !(s->o->max_tests && s->tests >= s->o->max_tests)));
    if (s->par_role == PAR_WORKER) {
        /* the coordinator keeps it if it is new to the whole exploration */
        if (keep) worker_send_result(s, r, cov);
        explore_merge_run_coverage(s, cov);
    } else {
        if (keep) {
            char comment[128];
            snprintf(comment, sizeof comment, "execution %llu: %u new branch directions%s",
                     (unsigned long long)s->execs, fresh, new_error ? ", new error" : "");
            int num = explore_keep_test(s, r, comment);
            if (num > 0) explore_db_queue_kept(s, num, r);       /* its fixture is simplified at the end */
            if (num > 0) explore_div_queue_kept(s, num, r, cov); /* its inputs diversified (diversify.c) */
        }
        if (!keep) explore_candidate_consider(s, r, cov, diverged);
        if (!s->write_failed) explore_merge_run_coverage(s, cov);
    }

    /* strategy feedback */
    if (tr.npath > s->taken_cap) {
        uint8_t *nt = realloc(s->taken, tr.npath);
        if (nt) {
            s->taken = nt;
            s->taken_cap = tr.npath;
        }
    }
    uint32_t np = tr.npath <= s->taken_cap ? tr.npath : 0;
    for (uint32_t i = 0; i < np; i++) s->taken[i] = r->events[i].taken;
    run_feedback fb = {tr.path,   s->taken,        np, p->has_cand ? p->cand.bound : 0, fresh, r->error != ERR_NONE,
                       r->marked, r->assume_failed};
    s->st->on_run(s->st, &fb);

    input_vec_release(iv);
    p->has_cand = 0;
}

/*
 * explore_opts.stop_when_saturated (`sympath unit`): every branch direction of the function under
 * test itself is covered, the search strategy has no open direction left that it ranks above
 * "covers nothing new" (strategy.h, promising: a direction towards an uncovered slot, a safety
 * check's crash side, an untried fault), and no run covered a new direction for as long as it took
 * to cover the last one. The wait matters: the cov strategy demotes an uncovered slot whose
 * directions kept failing, and such a slot is often covered later by a run of the "nothing new"
 * tier (tests/programs/unit/arena.c: the last 4 of list_parse_ex's 38 directions came at 1.6 s,
 * after 0.5 s with nothing promising), and those runs are the mutation analysis' candidate tests
 * (candidates.c). Callees' directions do not count: a callee's defensive check (`if (!l) return`
 * in a release function the target calls with a list it made) is never taken from the target.
 * Without this an exploration whose reachable code was covered in a second ran for its whole share.
 */
static bool saturated(explore_state *s)
{
    if (!s->o->stop_when_saturated || !s->target_slots || s->par_role != PAR_ALONE || !s->st->promising) return false;
    if (s->execs == 0 || s->running) return false; /* a run in flight may open promising directions */
    if (util_now_s() - s->t0 < 2 * s->last_cov_time) return false;
    for (uint32_t i = 0; i < s->nslots; i++)
        if (s->slot_target[i] && !s->covered[i]) return false;
    return !s->st->promising(s->st);
}

/* Whether sympath's own heap passed o->max_memory_mb (measured at most every 0.25 s: mallinfo2 walks the
 * arenas); said once on the progress line. An exploration that keeps every path it ran grows with the
 * runs (2.6 GB after 50 thousand runs of stb_c_lexer_get_token): past the bound it stops as on its
 * budget, its tests complete. */
static int memory_over(explore_state *s)
{
    double now = util_now_s();
    if (!s->o->max_memory_mb || s->execs == 0 || now - s->mem_checked < 0.25) return 0;
    s->mem_checked = now;
    uint64_t used = util_heap_in_use();
    if (used > s->mem_peak) s->mem_peak = used;
    if (used < (uint64_t)s->o->max_memory_mb << 20) return 0;
    char *note = util_strf("sympath: %llu MiB of memory in use (the execution tree and the solver) passes --max-memory "
                           "%u: exploration stopped",
                           (unsigned long long)(used >> 20), s->o->max_memory_mb);
    if (note) report_progress_note(s->progress, note);
    free(note);
    return 1;
}

/* Stop conditions other than exhaustion; returns a static reason or NULL. */
static const char *budget_reason(explore_state *s)
{
    if (s->write_failed) return "write-error";
    if (s->o->interrupted && *s->o->interrupted) return "interrupted";
    if (s->par_stop[0]) return s->par_stop; /* a worker stopped by the coordinator */
    if (s->o->budget_seconds > 0 && util_now_s() - s->t0 >= s->o->budget_seconds) return "budget";
    if (s->o->max_execs && s->execs + s->running >= s->o->max_execs) return "max-execs";
    if (s->o->max_tests && s->tests >= s->o->max_tests) return "max-tests";
    if (memory_over(s)) return "memory";
    if (explore_db_layout_stalled(s, 0)) return "db-layout"; /* to start again with a larger layout */
    if (saturated(s)) return "saturated";
    return NULL;
}

/* An UNSAT answer that took this long (seconds) is reported to the strategy as a failure
 * (strategy.h, on_failed): cheap ones are the normal cost of a search, slow ones repeat. */
#define COSTLY_UNSAT_S 0.1

/* How far up the tree boost_model_flips looks for a library model's branches (nodes). */
#define BOOST_DEPTH 256

/*
 * The program's direction (node, dir) towards an uncovered slot was proven infeasible. When the
 * branch tests what a library model computed (`strcmp(c, "SE") == 0`, `strchr(...) != NULL`), the
 * model's own loop already fixed the answer (where the texts differ), so the flip that can
 * reach the slot is one of the model's byte comparisons on the way there. Those directions, back
 * to the program's previous branch, are handed to the strategy as serving that slot
 * (strategy.h, boost).
 */
static void boost_model_flips(explore_state *s, tree_node *node, int dir)
{
    uint32_t slot = candidate_slot(node, dir);
    const site_info *si = node->kind == BK_BRANCH ? explore_site(s, node->site) : NULL;
    if (!s->st->boost || !si || !si->user || slot >= s->nslots || s->covered[slot]) return;
    tree_node *c = node;
    for (tree_node *a = node->parent; a && node->depth - a->depth <= BOOST_DEPTH; c = a, a = a->parent) {
        if (a->kind != BK_BRANCH) continue;
        const site_info *ai = explore_site(s, a->site);
        if (!ai || ai->user) break; /* the program's previous branch: its flips are its own */
        int other = !c->parent_dir;
        if (a->status[other] == CHILD_OPEN) s->st->boost(s->st, a, other, slot);
    }
}

/* Find the next candidate and its inputs. Returns 1 with *inputs (malloc'ed) set, 0 when
 * the strategy has no candidate left or a budget ran out while solving (a long series of
 * UNSAT candidates must not overrun the time budget). */
static int next_inputs(explore_state *s, candidate *c, uint64_t **inputs, size_t *n)
{
    while (!budget_reason(s) && s->st->next(s->st, c)) {
        tree_node *node = c->node;
        if (node->status[c->dir] != CHILD_OPEN) continue;
        progress_line(s, 0); /* a long series of queries keeps the line alive (rate-limited) */
        tree_set_status(s->tree, node, c->dir, CHILD_PENDING);
        double t0 = util_now_s();
        solve_result sr = explore_solve_direction(s, node, c->dir, inputs, n);
        if (sr == SOLVE_SAT) return 1;
        tree_set_status(s->tree, node, c->dir, sr == SOLVE_UNSAT ? CHILD_INFEASIBLE : CHILD_UNKNOWN);
        if (sr == SOLVE_UNSAT) boost_model_flips(s, node, c->dir);
        if ((sr != SOLVE_UNSAT || util_now_s() - t0 >= COSTLY_UNSAT_S) && s->st->on_failed)
            s->st->on_failed(s->st, node, c->dir);
    }
    return 0;
}

/*
 * A concretization (BK_CONCRETIZE: e == the value it had, e.g. the address of a store
 * through a symbolic pointer) is a choice the run made, not a condition of its path. Kept
 * in the path condition, it forbids every other value of e beyond it: in the sv-benchmarks
 * harness `argv = malloc((argc + 1) * 8); argv[argc] = 0; for (i = 0; i < argc; i++) ...`
 * the store pins argc, and `i < argc` can never be flipped to give one more argument. So
 * when the condition with its pins is UNSAT, it is solved once more without them: the
 * run then concretizes e at another value, a change the divergence check does not count
 * (a pin is always taken).
 */
solve_result explore_solve_unpinned(explore_state *s, expr **pc, size_t npc, const uint64_t *pv, size_t pn,
                                    uint64_t **inputs, size_t *n)
{
    size_t k = 0;
    for (size_t i = 0; i < npc; i++)
        if (pc[i]) pc[k++] = pc[i];
    if (k == npc) return SOLVE_UNSAT; /* no pin: the answer stands */
    solve_result sr = explore_solve_pc(s, pc, k, pv, pn, inputs, n);
    if (sr == SOLVE_SAT) s->pins_dropped++;
    return sr;
}

solve_result explore_solve_direction(explore_state *s, tree_node *node, int dir, uint64_t **inputs, size_t *n)
{
    expr **pc = NULL;
    size_t npc = tree_path_condition(node, dir, s->cx, &pc);
    if (!npc) return SOLVE_UNKNOWN;
    const input_vec *parent = node->inputs;
    const uint64_t *pv = parent ? parent->values : NULL;
    size_t pn = parent ? parent->n : 0;
    solve_result sr = explore_solve_pc(s, pc, npc, pv, pn, inputs, n);
    if (sr == SOLVE_UNSAT) {
        for (const tree_node *c = node; c->parent; c = c->parent)
            if (c->parent->kind == BK_CONCRETIZE) pc[c->parent->depth] = NULL;
        sr = explore_solve_unpinned(s, pc, npc, pv, pn, inputs, n);
    }
    free(pc);
    return sr;
}

solve_result explore_solve_pc(explore_state *s, expr **pc, size_t npc, const uint64_t *pv, size_t pn, uint64_t **inputs,
                              size_t *n)
{
    /* a query never runs past the budget */
    unsigned tmo = s->o->solver_timeout_ms;
    if (s->o->budget_seconds > 0 && tmo) {
        double left_ms = (s->o->budget_seconds - (util_now_s() - s->t0)) * 1000.0;
        if (left_ms < tmo) tmo = left_ms > 10 ? (unsigned)left_ms : 10;
    }
    solver_set_timeout(s->solver, tmo);
    solve_result sr = solver_solve(s->solver, pc, npc, pv, pn, inputs, n);
    if (sr == SOLVE_UNKNOWN && npc > 1) {
        /* Optimistic solving (QSYM, Yun et al. 2018): the whole path condition was too
         * hard; ask for the negated branch alone, the parent's values elsewhere. The run
         * may not follow the prefix: the divergence check then says so. */
        s->optimistic++;
        sr = solver_solve(s->solver, &pc[npc - 1], 1, pv, pn, inputs, n);
        if (sr == SOLVE_SAT) s->optimistic_sat++; /* UNSAT alone: the whole condition is UNSAT too */
    }
    return sr;
}

static int find_idle(explore_state *s)
{
    for (unsigned i = 0; i < s->nex; i++)
        if (!executor_busy(s->ex[i])) return (int)i;
    return -1;
}

static int start_run(explore_state *s, unsigned idx, const uint64_t *inputs, size_t n, const candidate *c,
                     struct par_job *job)
{
    char *err = NULL;
    pending_run *p = &s->pending[idx];
    free(p->inputs);
    p->inputs = n ? malloc(n * sizeof *inputs) : NULL;
    p->ninputs = p->inputs ? n : 0;
    if (p->inputs) memcpy(p->inputs, inputs, n * sizeof *inputs);
    if (s->o->db_results_dir) { /* a run that never connects must not leave the previous run's results */
        char rp[4200];
        snprintf(rp, sizeof rp, "%s/results-%u.txt", s->o->db_results_dir, s->exec_base + idx);
        unlink(rp);
    }
    if (executor_begin(s->ex[idx], inputs, n, &err) != 0) {
        fprintf(stderr, "sympath: cannot start a run: %s\n", err ? err : "?");
        free(err);
        return -1;
    }
    s->pending[idx].has_cand = c != NULL;
    if (c) s->pending[idx].cand = *c;
    s->pending[idx].assume_retries = 0;
    s->pending[idx].job = job;
    s->running++;
    return 0;
}

static void explore_loop(explore_state *s)
{
    int started_first = 0;
    const char *reason = NULL;
    int exhausted = 0;
    for (;;) {
        /* fill idle executors */
        int idle;
        while (!exhausted && (idle = find_idle(s)) >= 0) {
            if (started_first && explore_seeds_left(s) && !s->write_failed) {
                /* a kept test of the layout before, laid out anew: run even after Ctrl-C, so
                 * that no test the exploration had found is lost */
                const explore_seed *e = &s->o->seeds[s->seed_next++];
                if (start_run(s, idle, e->values, e->n, NULL, NULL) != 0) {
                    reason = "executor-failure";
                    break;
                }
                continue;
            }
            if ((reason = budget_reason(s)) != NULL) break;
            if (s->par_role == PAR_WORKER) worker_poll(s, 0);
            if (!started_first) {
                started_first = 1;
                /* in a parallel exploration worker 1 runs the root; the others wait for jobs */
                if (s->par_role != PAR_WORKER || s->link->self == 1) {
                    if (start_run(s, idle, NULL, 0, NULL, NULL) != 0) {
                        reason = "executor-failure";
                        break;
                    }
                    continue;
                }
            }
            struct par_job *job = s->par_role == PAR_WORKER ? worker_take_job(s) : NULL;
            if (job) { /* a direction another worker gave: solve it here, run it */
                uint64_t *jin = NULL;
                size_t jn = 0;
                double ts = util_now_s();
                solve_result jr = worker_solve_job(s, job, &jin, &jn);
                s->solve_seconds += util_now_s() - ts;
                if (jr != SOLVE_SAT) {
                    worker_job_free(job);
                    continue;
                }
                int jrc = start_run(s, idle, jin, jn, NULL, job);
                free(jin);
                if (jrc != 0) {
                    worker_job_free(job);
                    reason = "executor-failure";
                    break;
                }
                continue;
            }
            assume_retry q;
            if (explore_take_retry(s, &q)) { /* a target lost to a false assumption, solved again */
                int qrc = start_run(s, idle, q.inputs, q.ninputs, &q.cand, NULL);
                free(q.inputs);
                if (qrc != 0) {
                    tree_set_status(s->tree, q.cand.node, q.cand.dir, CHILD_UNKNOWN);
                    reason = "executor-failure";
                    break;
                }
                s->pending[idle].assume_retries = q.tries;
                memcpy(s->pending[idle].assumed, q.assumed, sizeof q.assumed);
                continue;
            }
            candidate c;
            uint64_t *inputs = NULL;
            size_t n = 0;
            double ts = util_now_s();
            int got = next_inputs(s, &c, &inputs, &n);
            s->solve_seconds += util_now_s() - ts;
            if (!got) {
                if ((reason = budget_reason(s)) != NULL) break;
                if (s->ncont > 0) {
                    /* no candidate left: continue the most recent run cut by the input limit */
                    input_vec *v = s->cont[--s->ncont];
                    int rc = start_run(s, idle, v->values, v->n, NULL, NULL);
                    input_vec_release(v);
                    if (rc != 0) {
                        reason = "executor-failure";
                        break;
                    }
                    continue;
                }
                if (s->running == 0) {
                    /* a worker's part is done: ask for more, or learn that all is done */
                    if (s->par_role == PAR_WORKER && worker_wait_for_work(s)) continue;
                    if (s->par_role != PAR_WORKER || !strcmp(s->par_stop, "exhausted"))
                        exhausted = 1;
                    else
                        reason = budget_reason(s);
                    if (!exhausted && !reason) reason = "stopped";
                }
                break;
            }
            int rc = start_run(s, idle, inputs, n, &c, NULL);
            free(inputs);
            if (rc != 0) {
                tree_set_status(s->tree, c.node, c.dir, CHILD_UNKNOWN);
                reason = "executor-failure";
                break;
            }
        }
        if (s->running == 0) {
            if ((exhausted || reason) && (!explore_seeds_left(s) || s->write_failed || exhausted)) break;
            continue; /* the strategy may have new candidates after the last run */
        }
        int idx = executor_wait_any(s->ex, s->nex);
        if (idx < 0) {
            s->running = 0;
            continue;
        }
        s->running--;
        run_result r;
        memset(&r, 0, sizeof r);
        char *err = NULL;
        if (executor_finish(s->ex[idx], s->cx, &r, &err) != 0) {
            fprintf(stderr, "\nsympath: warning: %s\n", err ? err : "malformed trace");
            free(err);
        }
        process_run(s, (unsigned)idx, &r);
        run_result_clear(&r);
        progress_line(s, 0);
        if (!reason) reason = budget_reason(s);
        if (reason && s->running == 0 && (!explore_seeds_left(s) || s->write_failed)) break;
    }
    if (!reason && exhausted && explore_db_layout_stalled(s, 1)) reason = "db-layout";
    if (!reason) reason = exhausted ? "exhausted" : "stopped";
    s->stop_reason = reason;
    s->exhausted = exhausted;
}

/* Why directions stay uncovered (OUT/build/reasons.tsv, src/report): the status of every
 * direction no run took, by branch site and direction index; concretizations by the site
 * executed last before them. */
typedef struct reason_walk {
    explore_state *s;
    explore_reason_fn *add;
    void *ctx;
} reason_walk;

static void reason_of_node(void *ctx, const tree_node *n)
{
    reason_walk *w = ctx;
    const site_info *si = explore_site(w->s, n->site);
    if (!si || !si->user) return;
    if (n->kind == BK_CONCRETIZE) w->add(w->ctx, n->site, REPORT_DIR_ANY, "concretization");
    for (int d = 0; d < 2 && (n->kind == BK_BRANCH || n->kind == BK_SWITCH); d++)
        /* a remote direction is another worker's: that worker says what became of it */
        if (n->status[d] != CHILD_VISITED && n->status[d] != CHILD_REMOTE && (n->kind == BK_BRANCH || d == 1))
            w->add(w->ctx, n->site, n->kind == BK_BRANCH ? (uint32_t)d : n->arg - si->slot_base,
                   child_status_name((child_status)n->status[d]));
}

void explore_walk_reasons(explore_state *s, explore_reason_fn *add, void *ctx)
{
    reason_walk w = {s, add, ctx};
    tree_for_each_node(s->tree, reason_of_node, &w);
}

static void add_reason(void *ctx, uint32_t site, uint32_t dir, const char *why)
{
    report_reasons_add(ctx, site, dir, why);
}

/* ---- setup ---- */

suite_writer *explore_open_suite(const char *out_dir, const char *source, char **err)
{
    char hash[65];
    suite_meta meta = {source, sha256_file_hex(source, hash) == 0 ? hash : NULL, "main",
                       "COVER( init(main()), FQL(COVER EDGES(@DECISIONEDGE)) )", "sympath " SYMPATH_VERSION};
    return suite_open(out_dir, &meta, err);
}

static int setup_executors(explore_state *s, const explore_opts *o, unsigned first, char **err);

int explore_setup(explore_state *s, const explore_opts *o, char **err)
{
    s->o = o;
    if (site_table_load(o->sites_path, &s->sites, err) != 0) return -1;
    s->nslots = s->sites.nslots;
    s->covered = calloc(s->nslots + 1, 1);
    s->slot_user = calloc(s->nslots + 1, 1);
    if (!s->covered || !s->slot_user) {
        *err = strdup("out of memory");
        return -1;
    }
    s->user_slots = explore_user_slots(&s->sites, s->slot_user, s->nslots);
    if (o->unit_target) { /* the function under test's own slots (saturated, explore_cov_list) */
        s->slot_target = calloc(s->nslots + 1, 1);
        if (!s->slot_target) {
            *err = strdup("out of memory");
            return -1;
        }
        for (uint32_t i = 0; i < s->sites.nsites; i++) {
            const site_info *si = &s->sites.sites[i];
            if (!si->user || !si->function || strcmp(si->function, o->unit_target)) continue;
            for (uint32_t d = 0; d < si->ndirs && si->slot_base + d < s->nslots; d++, s->target_slots++)
                s->slot_target[si->slot_base + d] = 1;
        }
    }
    s->cx = expr_ctx_new();
    s->tree = tree_new(o->loop_bound, o->max_depth);
    s->solver = solver_new(o->solver_timeout_ms);
    if (!s->cx || !s->tree || !s->solver) {
        *err = strdup("cannot initialise the expression context, tree or solver (out of memory or Z3 failure)");
        return -1;
    }
    solver_stop_on(s->solver, o->interrupted); /* Ctrl-C does not wait out a long query */
    s->st = strategy_new(o->strategy ? o->strategy : "cov", o->seed, slot_covered_cb, s);
    if (!s->st) {
        *err = util_strf("unknown strategy '%s'", o->strategy);
        return -1;
    }
    s->nex = s->par_role == PAR_COORDINATOR ? 0 : o->jobs && !o->link ? o->jobs : 1;
    if (s->par_role == PAR_WORKER)
        return setup_executors(s, o, (unsigned)o->link->self, err); /* no suite, no display */
    s->suite = explore_open_suite(o->out_dir, o->sources[0], err);
    if (!s->suite) return -1;
    /* a report of an earlier run must not pass for this run's when this one cannot write its
     * own (errors.sarif is made from report.json: it goes with it) */
    static const char *const reports[] = {"report.json", "errors.sarif"};
    for (size_t k = 0; k < sizeof reports / sizeof reports[0]; k++) {
        char old_report[4200], tmp_glob[64];
        snprintf(old_report, sizeof old_report, "%s/%s", o->out_dir, reports[k]);
        if (unlink(old_report) != 0 && errno != ENOENT) {
            *err = util_strf("cannot remove the old %s: %s", old_report, strerror(errno));
            return -1;
        }
        snprintf(tmp_glob, sizeof tmp_glob, ".%s.tmp.*", reports[k]);
        char **stale = util_list_dir(o->out_dir, tmp_glob, NULL); /* left by a killed run */
        for (size_t i = 0; stale && stale[i]; i++) unlink(stale[i]);
        util_free_strv(stale);
    }
    if (s->par_role != PAR_COORDINATOR && setup_executors(s, o, 0, err) != 0) return -1;
    char title[4200];
    char workers[32] = "";
    if (s->par_role == PAR_COORDINATOR) snprintf(workers, sizeof workers, ", %d workers", o->link->nworkers);
    snprintf(title, sizeof title, "sympath: %s -> %s   strategy %s%s", o->sources[0], o->out_dir,
             o->strategy ? o->strategy : "cov", workers);
    s->progress = report_progress_open(o->out_dir, report_display_auto(o->progress), title, o->budget_seconds);
    return 0;
}

/* Start s->nex executors numbered first.. (the number names their files in work_dir). */
static int setup_executors(explore_state *s, const explore_opts *o, unsigned first, char **err)
{
    s->exec_base = first;
    s->ex = calloc(s->nex, sizeof *s->ex);
    s->pending = calloc(s->nex, sizeof *s->pending);
    s->retry = calloc(RETRY_QUEUE_MAX, sizeof *s->retry);
    if (!s->ex || !s->pending || !s->retry) {
        *err = strdup("out of memory");
        return -1;
    }
    for (unsigned i = 0; i < s->nex; i++) {
        if (o->db_results_dir) { /* the executor's environment is taken at its start: its own results file */
            char rp[4200];
            snprintf(rp, sizeof rp, "%s/results-%u.txt", o->db_results_dir, first + i);
            setenv(SYMPATH_ENV_DB_RESULTS, rp, 1);
        }
        executor_opts eo = {o->exe_path, o->work_dir, first + i, o->run_timeout_ms, o->mem_mb, o->out_kb,
                            s->nslots,   0,           0,         o->inputs_limit};
        s->ex[i] = executor_start(&eo, err);
        if (!s->ex[i]) return -1;
    }
    return 0;
}

void explore_teardown(explore_state *s)
{
    report_progress_close(s->progress);
    for (unsigned i = 0; s->ex && i < s->nex; i++) executor_stop(s->ex[i]);
    for (unsigned i = 0; s->pending && i < s->nex; i++) {
        free(s->pending[i].inputs);
        worker_job_free(s->pending[i].job);
    }
    free(s->ex);
    free(s->pending);
    if (s->suite) suite_close(s->suite);
    if (s->st) s->st->destroy(s->st);
    solver_free(s->solver);
    if (s->min_solver) solver_free(s->min_solver);
    tree_free(s->tree);
    expr_ctx_free(s->cx);
    for (uint32_t i = 0; i < s->nerrors; i++) {
        free(s->errors[i].key);
        free(s->errors[i].where);
        free(s->errors[i].function);
    }
    free(s->errors);
    explore_crash_locs_free(s);
    for (uint32_t i = 0; i < s->ncont; i++) input_vec_release(s->cont[i]);
    free(s->cont);
    for (uint32_t i = 0; i < s->nretry; i++) free(s->retry[i].inputs);
    free(s->retry);
    free(s->cand_seen);
    s->cand_seen = NULL;
    explore_seeds_free(s->kept_seeds, s->nkept_seeds);
    s->kept_seeds = NULL;
    s->nkept_seeds = 0;
    free(s->covered);
    free(s->slot_user);
    free(s->slot_target);
    free(s->taken);
    site_table_free(&s->sites);
    pathset_free(&s->paths);
    worker_free(s);
    report_reasons_free(s->reasons);
    s->reasons = NULL;
}

/* Whether the exploration saw every feasible path: exhausted, and nothing bounded, unknown,
 * diverged, dropped or concretized without a tree node that keeps its other values
 * reachable (symbolic pointers and sizes have such nodes; floats, external calls, wide
 * integers, ... do not), and no run cut by the input limit left. */
int explore_is_complete(const explore_state *s, const tree_stats *ts)
{
    uint64_t lost = 0;
    for (int k = 0; k < CONC_KIND_COUNT; k++)
        if (k != CONC_SYM_POINTER && k != CONC_SYM_SIZE) lost += s->conc[k];
    return s->exhausted && ts->by_status[CHILD_BOUNDED] == 0 && ts->by_status[CHILD_UNKNOWN] == 0 &&
           ts->by_status[CHILD_DIVERGED] == 0 && s->divergences == 0 && s->dropped == 0 && lost == 0 && s->ncont == 0 &&
           s->cont_dropped == 0;
}

/* A worker of a parallel exploration: explore its share, then send its figures. */
static int explore_as_worker(explore_state *s, explore_summary *sum)
{
    explore_loop(s);
    tree_stats ts;
    tree_get_stats(s->tree, &ts);
    s->complete = explore_is_complete(s, &ts);
    worker_bye(s);
    if (sum) {
        memset(sum, 0, sizeof *sum);
        sum->execs = s->execs;
        sum->stop_reason = s->stop_reason;
        sum->seconds = util_now_s() - s->t0;
    }
    explore_teardown(s);
    return 0;
}

int explore_program(const explore_opts *o, explore_summary *sum, char **err)
{
    if (!o->link && o->jobs > 1) return explore_parallel_local(o, sum, err);
    if (o->link && o->link->self == 0) return explore_coordinate(o, sum, err);
    explore_state s;
    memset(&s, 0, sizeof s);
    s.t0 = util_now_s();
    s.last_progress = 0;
    if (o->link) {
        s.par_role = PAR_WORKER;
        s.link = o->link;
    }
    int rc = 0;
    if (explore_setup(&s, o, err) != 0) {
        explore_teardown(&s);
        return -1;
    }
    if (s.par_role == PAR_WORKER) return explore_as_worker(&s, sum);
    explore_loop(&s);
    if (!strcmp(s.stop_reason, "db-layout")) { /* the caller starts again with a larger layout */
        progress_line(&s, 1);
        if (sum) {
            memset(sum, 0, sizeof *sum);
            sum->slots_total = s.user_slots;
            sum->slots_covered = s.user_covered;
            sum->tests = s.tests;
            sum->execs = s.execs;
            sum->stop_reason = s.stop_reason;
            sum->seconds = util_now_s() - s.t0;
            sum->seeds = s.kept_seeds;
            sum->nseeds = s.nkept_seeds;
            s.kept_seeds = NULL;
            s.nkept_seeds = 0;
        }
        explore_teardown(&s);
        return 0;
    }
    explore_db_minimize_kept(&s); /* the kept tests' fixtures, simplified (db_minimize.c) */
    explore_diversify_kept(&s);   /* the kept tests' free inputs, varied (diversify.c) */
    tree_stats ts;
    tree_get_stats(s.tree, &ts);
    s.complete = explore_is_complete(&s, &ts);
    rc = explore_finish(&s, sum, err);
    explore_teardown(&s);
    return rc;
}

void explore_progress(explore_state *s, int final) { progress_line(s, final); }

int explore_finish(explore_state *s, explore_summary *sum, char **err)
{
    const explore_opts *o = s->o;
    int rc = 0;
    progress_line(s, 1);
    report_progress_close(s->progress);
    s->progress = NULL;
    s->total_seconds = util_now_s() - s->t0;
    if (!s->reasons) s->reasons = report_reasons_new(); /* the coordinator's holds its workers' already */
    explore_walk_reasons(s, add_reason, s->reasons);
    report_reasons_write(s->reasons, o->out_dir);
    report_reasons_free(s->reasons);
    s->reasons = NULL;
    char *rerr = NULL;
    if (explore_write_report(s, &rerr) != 0) {
        fprintf(stderr, "sympath: cannot write report.json: %s (no report.json is left)\n",
                rerr ? rerr : strerror(errno));
        free(rerr);
        s->report_failed = 1;
    } else if (report_write_sarif(o->out_dir, &rerr) != 0) { /* errors.sarif next to report.json */
        fprintf(stderr, "sympath: cannot write errors.sarif: %s\n", rerr ? rerr : "?");
        free(rerr);
    }
    explore_print_summary(s, stderr);
    if (s->write_failed) {
        *err = util_strf("the exploration stopped early because a file could not be written (above); "
                         "%llu tests kept",
                         (unsigned long long)s->tests);
        rc = -1;
    }
    if (sum) {
        sum->slots_total = s->user_slots;
        sum->slots_covered = s->user_covered;
        sum->tests = s->tests;
        sum->execs = s->execs;
        sum->errors_property = s->errors_property;
        sum->errors_other = s->errors_other;
        sum->complete = s->complete;
        sum->stop_reason = s->stop_reason;
        sum->seconds = s->total_seconds;
        sum->diversified = s->diversified;
        sum->div_rejected = s->div_rejected;
        sum->div_skipped = s->div_skipped;
        sum->cands_diversified = s->cands_diversified;
        sum->div_seconds = s->div_seconds;
    }
    return rc;
}
