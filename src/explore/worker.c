/* worker.c: a worker of a parallel exploration: its share of the execution tree, jobs given and taken, results and figures sent to the coordinator. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "explore_state.h"
#include "util/util.h"

/*
 * Ownership (Cloud9, Bucur et al. 2011, sec. 3: the tree is partitioned among workers,
 * work moves as jobs that are paths from the root, never as states). Every open direction
 * of the global execution tree belongs to exactly one worker. Worker 1 starts with the
 * root; a worker that runs dry asks the coordinator, which asks another worker to give
 * some of its open directions. A given direction (node, d) is marked CHILD_REMOTE at the
 * giver; the job carries its path condition (the expressions, par_expr.c), the inputs of
 * the run that reached node (for the symbols the condition leaves free) and the expected
 * outcomes of the events from the root to node plus d. The taker solves it (the solver
 * work moves with the job: Cloud9 replays the path instead, which would run it twice) and
 * runs the model: a new path. If the run followed the prefix, the directions it opens
 * below node are the taker's and the ones it opens at or above node's depth belong to
 * others (CHILD_REMOTE). A job run that left the prefix counts as a divergence and keeps
 * nothing it opened.
 */

typedef struct par_job {
    uint64_t *inputs; /* the parent run's inputs */
    uint32_t n;
    uint32_t depth; /* of the job's node; the prefix has depth + 1 events */
    uint32_t *sites;
    uint8_t *kinds, *taken;
    uint8_t *pc; /* the path condition as par_put_exprs wrote it */
    size_t pc_len;
} par_job;

void worker_job_free(par_job *j)
{
    if (!j) return;
    free(j->inputs);
    free(j->sites);
    free(j->kinds);
    free(j->taken);
    free(j->pc);
    free(j);
}

solve_result worker_solve_job(explore_state *s, const par_job *j, uint64_t **inputs, size_t *n)
{
    par_msg m = {0, j->pc, j->pc_len, j->pc_len, 0, 0};
    expr **pc = NULL;
    size_t npc = par_get_exprs(&m, s->cx, &pc);
    solve_result sr = npc ? explore_solve_pc(s, pc, npc, j->inputs, j->n, inputs, n) : SOLVE_UNKNOWN;
    if (sr == SOLVE_UNSAT && npc == (size_t)j->depth + 1) { /* as explore_solve_direction does */
        for (size_t i = 0; i + 1 < npc; i++)
            if (j->kinds[i] == BK_CONCRETIZE) pc[i] = NULL;
        sr = explore_solve_unpinned(s, pc, npc, j->inputs, j->n, inputs, n);
    }
    free(pc);
    if (sr != SOLVE_SAT) s->jobs_unsolved++;
    return sr;
}

par_job *worker_take_job(explore_state *s)
{
    if (!s->njobq) return NULL;
    par_job *j = s->jobq[0];
    memmove(s->jobq, s->jobq + 1, (s->njobq - 1) * sizeof *s->jobq);
    s->njobq--;
    return j;
}

/* ---- open directions ---- */

/* The shallowest open directions, for giving (a shallow direction roots a big subtree);
 * with `promising`, only those whose coverage slot nobody covered yet. */
typedef struct open_pick {
    tree_node **node;
    uint8_t *dir;
    uint32_t n, cap;
    const explore_state *s; /* promising: s->covered */
    int promising;
    uint64_t count; /* the directions that qualify */
} open_pick;

/* An open direction whose coverage slot is not covered yet: the coverage-guided strategy's
 * first choice (strategy_cov.c, tier 0). */
static int is_promising(const explore_state *s, const tree_node *n, int d)
{
    uint32_t slot = candidate_slot(n, d);
    return slot < s->nslots && !s->covered[slot] && s->slot_user[slot];
}

static void pick_open(void *ctx, const tree_node *cn)
{
    open_pick *p = ctx;
    for (int d = 0; d < 2; d++) {
        if (cn->status[d] != CHILD_OPEN) continue;
        if (p->promising && !is_promising(p->s, cn, d)) continue;
        p->count++;
        if (!p->cap) continue;
        tree_node *n = (tree_node *)cn; /* the walk is read-only; the pick is changed later */
        uint32_t at = p->n < p->cap ? p->n++ : p->cap;
        if (at == p->cap) { /* full: replace the deepest if this one is shallower */
            uint32_t worst = 0;
            for (uint32_t i = 1; i < p->cap; i++)
                if (p->node[i]->depth > p->node[worst]->depth) worst = i;
            if (p->node[worst]->depth <= n->depth) continue;
            at = worst;
        }
        p->node[at] = n;
        p->dir[at] = (uint8_t)d;
    }
}

/* ---- figures ---- */

static void fill_figures(explore_state *s, par_figures *f)
{
    memset(f, 0, sizeof *f);
    f->execs = s->execs;
    f->divergences = s->divergences;
    f->timeouts = s->timeouts;
    f->assume_failed = s->assume_failed;
    f->forks = s->forks;
    f->dropped = s->dropped;
    f->inputs_done = s->inputs_done;
    f->slow_runs = s->slow_runs;
    f->optimistic = s->optimistic;
    f->optimistic_sat = s->optimistic_sat;
    f->events_total = s->events_total;
    f->events_max = s->events_max;
    f->inputs_total = s->inputs_total;
    f->cont_left = s->ncont + s->cont_dropped;
    for (unsigned i = 0; i < s->nex; i++) f->restarts += s->ex[i] ? executor_restarts(s->ex[i]) : 0;
    f->jobs_sent = s->jobs_sent;
    f->jobs_received = s->jobs_received;
    f->jobs_diverged = s->jobs_diverged;
    f->jobs_unsolved = s->jobs_unsolved;
    f->exec_seconds = s->exec_seconds;
    f->solve_seconds = s->solve_seconds;
    f->idle_seconds = s->idle_seconds;
    f->job_seconds = s->job_seconds;
    memcpy(f->conc, s->conc, sizeof f->conc);
    memcpy(f->conc_fn, s->conc_fn, sizeof f->conc_fn);
    tree_get_stats(s->tree, &f->tree);
    solver_get_stats(s->solver, &f->solver);
    f->open = f->tree.by_status[CHILD_OPEN];
    /* a walk of the whole tree (about 10 ms for a million nodes): at most every 2 s, and at
     * once after a change of hands (the coordinator decides on it) */
    double now = util_now_s();
    if (now - s->promising_at >= 2.0 || s->jobs_sent + s->jobs_received != s->promising_jobs) {
        open_pick count = {NULL, NULL, 0, 0, s, 1, 0};
        tree_for_each_node(s->tree, pick_open, &count);
        s->promising = count.count;
        s->promising_at = now;
        s->promising_jobs = s->jobs_sent + s->jobs_received;
    }
    f->promising = s->promising;
    f->complete_local = s->complete;
}

typedef struct reason_list {
    par_msg m;
    uint32_t n;
} reason_list;

static void put_reason(void *ctx, uint32_t site, uint32_t dir, const char *why)
{
    reason_list *rl = ctx;
    par_put_u32(&rl->m, site);
    par_put_u32(&rl->m, dir);
    par_put_str(&rl->m, why);
    rl->n++;
}

static void send_figures(explore_state *s, uint8_t type)
{
    par_msg m;
    par_msg_init(&m, type);
    par_figures f;
    fill_figures(s, &f);
    par_figures_put(&m, &f);
    par_put_u32(&m, s->nnew_hashes);
    for (uint32_t i = 0; i < s->nnew_hashes; i++) {
        par_put_u64(&m, s->new_hashes[i]);
        par_put_u8(&m, s->new_diverged[i]);
    }
    if (type == PAR_BYE) { /* error hit counts: the coordinator's error list counts every worker's runs */
        par_put_u32(&m, s->nerrors);
        for (uint32_t i = 0; i < s->nerrors; i++) {
            par_put_str(&m, s->errors[i].key);
            par_put_u64(&m, s->errors[i].hits);
        }
        /* why this worker's directions stay uncovered (reasons.tsv) */
        reason_list rl;
        memset(&rl, 0, sizeof rl);
        par_msg_init(&rl.m, 0);
        explore_walk_reasons(s, put_reason, &rl);
        par_put_u32(&m, rl.n);
        par_put_bytes(&m, rl.m.buf, rl.m.len);
        par_msg_free(&rl.m);
    }
    if (par_send(s->link, 0, &m) == 0) s->nnew_hashes = 0;
    par_msg_free(&m);
    s->last_stats_sent = util_now_s();
}

void worker_note_path(explore_state *s, uint64_t h, int diverged)
{
    if (s->nnew_hashes == s->new_hashes_cap) {
        uint32_t nc = s->new_hashes_cap ? s->new_hashes_cap * 2 : 256;
        uint64_t *n = realloc(s->new_hashes, nc * sizeof *n);
        if (n) s->new_hashes = n;
        uint8_t *d = n ? realloc(s->new_diverged, nc) : NULL;
        if (d) s->new_diverged = d;
        if (!n || !d) return;
        s->new_hashes_cap = nc;
    }
    s->new_diverged[s->nnew_hashes] = (uint8_t)(diverged != 0);
    s->new_hashes[s->nnew_hashes++] = h;
}

void worker_bye(explore_state *s) { send_figures(s, PAR_BYE); }

/* ---- results ---- */

void worker_send_result(explore_state *s, const run_result *r, const uint8_t *cov)
{
    par_msg m;
    par_msg_init(&m, PAR_RESULT);
    par_put_u32(&m, r->ninputs);
    for (uint32_t i = 0; i < r->ninputs; i++) {
        par_put_u64(&m, r->inputs[i]);
        par_put_u8(&m, r->itypes ? r->itypes[i] : 0);
        par_put_u8(&m, r->iwidths ? r->iwidths[i] : 0);
        par_put_str(&m, r->inames ? r->inames[i] : NULL);
    }
    par_put_u32(&m, (uint32_t)r->error);
    par_put_u32(&m, (uint32_t)r->signo);
    par_put_u32(&m, r->error_loc);
    par_put_u64(&m, r->error_pc);
    for (unsigned k = 0; k < TRACE_CRASH_FRAMES; k++) par_put_u64(&m, r->crash_frames[k]);
    par_put_u32(&m, r->last_site);
    par_put_f64(&m, r->seconds);
    par_put_u32(&m, (uint32_t)s->timeout_unconfirmed);
    par_put_u64(&m, s->execs);
    /* coverage as a bitmap of the run's slots */
    uint32_t nb = (s->nslots + 7) / 8;
    uint8_t *bits = calloc(nb ? nb : 1, 1);
    if (!bits) {
        par_msg_free(&m);
        return;
    }
    for (uint32_t i = 0; i < s->nslots; i++)
        if (cov[i]) bits[i / 8] |= (uint8_t)(1u << (i % 8));
    par_put_bytes(&m, bits, nb);
    free(bits);
    /* PostgreSQL fixture mode: the results the run recorded travel with it (the coordinator
     * writes them beside the test; this worker's next run overwrites the file) */
    char *text = NULL;
    size_t tn = 0;
    if (s->o->db_results_dir) {
        char rp[4200];
        snprintf(rp, sizeof rp, "%s/results-%u.txt", s->o->db_results_dir, s->cur_exec);
        text = util_read_file(rp, &tn);
    }
    par_put_u8(&m, text != NULL);
    if (text) par_put_bytes(&m, text, tn);
    free(text);
    par_send(s->link, 0, &m);
    par_msg_free(&m);
}

/* ---- giving jobs ---- */

static void job_put(par_msg *m, const tree_node *node, int dir, expr *const *pc, size_t npc)
{
    const input_vec *in = node->inputs;
    par_put_u32(m, in ? in->n : 0);
    for (uint32_t i = 0; in && i < in->n; i++) par_put_u64(m, in->values[i]);
    par_put_u32(m, node->depth);
    /* the prefix from the root */
    uint32_t d = node->depth;
    const tree_node **chain = malloc((d + 1) * sizeof *chain);
    if (!chain) {
        m->bad = 1;
        return;
    }
    for (const tree_node *x = node; x; x = x->parent) chain[x->depth] = x;
    for (uint32_t i = 0; i <= d; i++) {
        par_put_u32(m, chain[i]->site);
        par_put_u8(m, chain[i]->kind);
        par_put_u8(m, (uint8_t)(i < d ? chain[i + 1]->parent_dir : dir));
    }
    free(chain);
    par_msg pm;
    par_msg_init(&pm, 0);
    par_put_exprs(&pm, pc, npc);
    if (pm.bad) m->bad = 1;
    par_put_bytes(m, pm.buf, pm.len);
    par_msg_free(&pm);
}

static par_job *job_get(par_msg *m)
{
    par_job *j = calloc(1, sizeof *j);
    if (!j) return NULL;
    j->n = par_get_u32(m);
    if (m->bad || j->n > (1u << 24)) goto bad;
    j->inputs = malloc((j->n ? j->n : 1) * sizeof *j->inputs);
    if (!j->inputs) goto bad;
    for (uint32_t i = 0; i < j->n; i++) j->inputs[i] = par_get_u64(m);
    j->depth = par_get_u32(m);
    if (m->bad || j->depth > (1u << 26)) goto bad;
    j->sites = malloc((j->depth + 1) * sizeof *j->sites);
    j->kinds = malloc(j->depth + 1);
    j->taken = malloc(j->depth + 1);
    if (!j->sites || !j->kinds || !j->taken) goto bad;
    for (uint32_t i = 0; i <= j->depth; i++) {
        j->sites[i] = par_get_u32(m);
        j->kinds[i] = par_get_u8(m);
        j->taken[i] = par_get_u8(m);
    }
    size_t len;
    const uint8_t *pc = par_get_bytes(m, &len);
    if (m->bad || !pc || !(j->pc = malloc(len ? len : 1))) goto bad;
    memcpy(j->pc, pc, len);
    j->pc_len = len;
    return j;
bad:
    worker_job_free(j);
    return NULL;
}

/* A steal request for `thief`: give half of the open directions (at most GIVE_MAX), taken
 * alternately from the shallowest, each with its path condition (the thief solves it); answer with the
 * jobs, possibly none. promising: only directions toward slots nobody covered, for a
 * thief that has none (coordinator.c: balance). */
enum { GIVE_MAX = 64 };

static void give_jobs(explore_state *s, uint32_t thief, int promising)
{
    double t0 = util_now_s();
    uint64_t open;
    if (promising) {
        open_pick count = {NULL, NULL, 0, 0, s, 1, 0};
        tree_for_each_node(s->tree, pick_open, &count);
        open = count.count >= 2 ? count.count : 0; /* the giver keeps its last one */
    } else {
        tree_stats ts;
        tree_get_stats(s->tree, &ts);
        open = ts.by_status[CHILD_OPEN];
    }
    uint32_t want = open >= 2 * GIVE_MAX ? GIVE_MAX : (uint32_t)((open + 1) / 2);
    /* The 2 x want shallowest, in depth order, and every other one of them given: each side
     * keeps a share of every depth, so that two breadth-first (or coverage-then-depth)
     * searches in the two parts together follow the order one search of the whole would. */
    tree_node *pn[2 * GIVE_MAX];
    uint8_t pd[2 * GIVE_MAX];
    open_pick p = {pn, pd, 0, 2 * want, s, promising, 0};
    if (want) tree_for_each_node(s->tree, pick_open, &p);
    for (uint32_t i = 1; i < p.n; i++)
        for (uint32_t k = i; k > 0 && pn[k]->depth < pn[k - 1]->depth; k--) {
            tree_node *tn = pn[k];
            pn[k] = pn[k - 1];
            pn[k - 1] = tn;
            uint8_t td = pd[k];
            pd[k] = pd[k - 1];
            pd[k - 1] = td;
        }
    par_msg jobs;
    par_msg_init(&jobs, 0);
    uint32_t given = 0;
    for (uint32_t i = p.n == 1 ? 0 : 1; i < p.n; i += 2) {
        tree_node *node = pn[i];
        int dir = pd[i];
        if (node->status[dir] != CHILD_OPEN) continue;
        expr **pc = NULL;
        size_t npc = tree_path_condition(node, dir, s->cx, &pc);
        if (!npc) continue;
        job_put(&jobs, node, dir, pc, npc);
        free(pc);
        tree_set_status(s->tree, node, dir, CHILD_REMOTE);
        given++;
    }
    par_msg m;
    par_msg_init(&m, PAR_JOBS);
    par_put_u32(&m, thief);
    par_put_u32(&m, given);
    if (jobs.len) par_put_bytes(&m, jobs.buf, jobs.len);
    if (jobs.bad) m.bad = 1;
    if (par_send(s->link, 0, &m) == 0) {
        s->jobs_sent += given;
    } else if (given) { /* not sent: nobody else has them, so they are this worker's again */
        for (uint32_t i = 0; i < p.n; i++)
            if (pn[i]->status[pd[i]] == CHILD_REMOTE) {
                tree_set_status(s->tree, pn[i], pd[i], CHILD_OPEN);
                s->st->add(s->st, pn[i], pd[i]);
            }
    }
    par_msg_free(&m);
    par_msg_free(&jobs);
    s->job_seconds += util_now_s() - t0;
}

/* ---- taking jobs ---- */

static void take_jobs(explore_state *s, par_msg *m)
{
    (void)par_get_u32(m); /* thief: this worker */
    uint32_t n = par_get_u32(m);
    if (!n || m->bad) return;
    size_t len;
    const uint8_t *body = par_get_bytes(m, &len);
    if (!body) return;
    par_msg b = {0, (uint8_t *)body, len, len, 0, 0};
    for (uint32_t i = 0; i < n; i++) {
        par_job *j = job_get(&b);
        if (!j) break;
        if (s->njobq == s->jobq_cap) {
            uint32_t nc = s->jobq_cap ? s->jobq_cap * 2 : 8;
            par_job **q = realloc(s->jobq, nc * sizeof *q);
            if (!q) {
                worker_job_free(j);
                break;
            }
            s->jobq = q;
            s->jobq_cap = nc;
        }
        s->jobq[s->njobq++] = j;
        s->jobs_received++;
    }
}

int worker_job_inserted(explore_state *s, const par_job *j, const run_result *r)
{
    int follows = r->nevents > j->depth;
    for (uint32_t i = 0; follows && i <= j->depth; i++)
        follows = r->events[i].site == j->sites[i] && r->events[i].kind == j->kinds[i] &&
                  (r->events[i].taken ? 1 : 0) == j->taken[i];
    if (!follows) {
        s->jobs_diverged++;
        s->divergences++;
    }
    for (uint32_t i = 0; i < s->nopened; i++) {
        tree_node *n = s->opened[i];
        int d = s->opened_dir[i];
        if (n->status[d] != CHILD_OPEN) continue;
        if (follows && n->depth > j->depth)
            s->st->add(s->st, n, d);
        else
            tree_set_status(s->tree, n, d, CHILD_REMOTE);
    }
    s->nopened = 0;
    return follows;
}

/* ---- messages ---- */

static void on_coverage(explore_state *s, par_msg *m)
{
    uint32_t ns = par_get_u32(m);
    size_t nb;
    const uint8_t *bits = par_get_bytes(m, &nb);
    if (!bits || ns != s->nslots || nb < (ns + 7) / 8) return;
    for (uint32_t i = 0; i < ns; i++)
        if ((bits[i / 8] >> (i % 8)) & 1 && !s->covered[i]) {
            s->covered[i] = 1;
            if (s->slot_user[i]) s->user_covered++;
        }
}

void worker_poll(explore_state *s, int timeout_ms)
{
    par_msg m;
    par_msg_init(&m, 0);
    int src, rc;
    while ((rc = par_recv(s->link, &src, &m, timeout_ms)) == 1) {
        timeout_ms = 0;
        if (m.bad && m.len == 0 && !s->par_stop[0]) /* the coordinator is gone */
            snprintf(s->par_stop, sizeof s->par_stop, "coordinator-gone");
        if (m.bad) continue;
        switch (m.type) {
        case PAR_COVERAGE: on_coverage(s, &m); break;
        case PAR_STEAL: {
            uint32_t thief = par_get_u32(&m);
            give_jobs(s, thief, par_get_u8(&m));
            break;
        }
        case PAR_JOBS: take_jobs(s, &m); break;
        case PAR_STOP: {
            char *why = par_get_str(&m);
            snprintf(s->par_stop, sizeof s->par_stop, "%s", why && *why ? why : "stopped");
            free(why);
            break;
        }
        default: break;
        }
    }
    par_msg_free(&m);
    if (rc < 0 && !s->par_stop[0]) snprintf(s->par_stop, sizeof s->par_stop, "coordinator-gone");
    if (!s->par_stop[0] && util_now_s() - s->last_stats_sent >= 0.5) send_figures(s, PAR_STATS);
}

int worker_wait_for_work(explore_state *s)
{
    double t0 = util_now_s();
    send_figures(s, PAR_STATS); /* the coordinator sees the figures of an idle worker */
    par_msg m;
    par_msg_init(&m, PAR_IDLE);
    par_send(s->link, 0, &m);
    par_msg_free(&m);
    while (!s->njobq && !s->par_stop[0] && !(s->o->interrupted && *s->o->interrupted)) worker_poll(s, 200);
    s->idle_seconds += util_now_s() - t0;
    return s->njobq > 0;
}

void worker_free(explore_state *s)
{
    while (s->njobq) worker_job_free(worker_take_job(s));
    free(s->jobq);
    free(s->new_hashes);
    free(s->new_diverged);
    free(s->opened);
    free(s->opened_dir);
}
