/* assume_retry.c: a run that ended on a false assumption before reaching its target direction: the target solved again with that assumption added. */
#include <stdlib.h>
#include <string.h>
#include "explore/explore_state.h"

/*
 * Why. A run's inputs can satisfy the path condition of the direction it was solved for and
 * still break an assumption the run meets *before* that direction: the typical case is a
 * database fixture row that the engine rejects on a CHECK sympath does not model, at the
 * program's first open (the runtime then ends the run on the assumption "this row differs
 * from the rejected one", db_fixture_rt.c). The tree records that assumption on the run's own
 * prefix, which does not hold the lost target, so flipping it never brings the target back.
 * Here the target's path condition is solved once more with the failed assumption as one
 * more constraint, up to ASSUME_RETRIES times per target (each retry's failure adds its own
 * assumption to the next), and the run is queued ahead of the strategy's next candidate.
 */
#define ASSUME_RETRIES 4
#define RETRY_QUEUE_MAX 64

void explore_retry_after_assumption(explore_state *s, const pending_run *p, const run_result *r)
{
    if (!r->assume_failed || !p->has_cand || p->assume_retries >= ASSUME_RETRIES) return;
    if (s->nretry >= RETRY_QUEUE_MAX) return;
    tree_node *node = p->cand.node;
    if (node->status[p->cand.dir] == CHILD_VISITED) return; /* reached after all */
    expr *failed = NULL;
    for (uint32_t i = r->nevents; i-- > 0 && !failed;)
        if (r->events[i].kind == BK_ASSUME && !r->events[i].taken) failed = r->events[i].cond;
    if (!failed) return;
    expr **pc = NULL;
    size_t npc = tree_path_condition(node, p->cand.dir, s->cx, &pc);
    if (!npc) return;
    /* the assumptions of the earlier failed attempts at this target, then this one, before the target */
    size_t nextra = p->assume_retries + 1;
    expr **all = realloc(pc, (npc + nextra) * sizeof *all);
    if (!all) {
        free(pc);
        return;
    }
    pc = all;
    expr *target = pc[npc - 1];
    for (unsigned k = 0; k < p->assume_retries; k++) pc[npc - 1 + k] = p->assumed[k];
    pc[npc - 1 + p->assume_retries] = failed;
    pc[npc + p->assume_retries] = target;
    size_t n = npc + nextra;
    const input_vec *parent = node->inputs;
    uint64_t *inputs = NULL;
    size_t ni = 0;
    double t0 = util_now_s();
    solve_result sr = explore_solve_pc(s, pc, n, parent ? parent->values : NULL, parent ? parent->n : 0, &inputs, &ni);
    s->solve_seconds += util_now_s() - t0;
    free(pc);
    if (sr != SOLVE_SAT) {
        free(inputs);
        return;
    }
    assume_retry *q = &s->retry[s->nretry++];
    memset(q, 0, sizeof *q);
    q->cand = p->cand;
    q->inputs = inputs;
    q->ninputs = ni;
    q->tries = p->assume_retries + 1;
    memcpy(q->assumed, p->assumed, p->assume_retries * sizeof *q->assumed);
    q->assumed[p->assume_retries] = failed;
    tree_set_status(s->tree, node, p->cand.dir, CHILD_PENDING);
    s->assume_retries++;
}

int explore_take_retry(explore_state *s, assume_retry *out)
{
    if (!s->nretry) return 0;
    *out = s->retry[0];
    memmove(s->retry, s->retry + 1, (s->nretry - 1) * sizeof *s->retry);
    s->nretry--;
    return 1;
}
