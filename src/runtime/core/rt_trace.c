/* rt_trace.c: the trace writer, appending records to the shared region and publishing them crash-safely. */
#include <stdlib.h>
#include <string.h>
#include "rt_internal.h"

/*
 * Publication: a record is copied completely into its slot, then hdr->nrecs is
 * advanced with a release store. Whatever happens to the process afterwards, the
 * explorer reads only published, complete records.
 *
 * Capacity: the last slot of the area is reserved for the run's final record
 * (REC_END or REC_ERROR). Once an ordinary record does not fit, the trace is
 * "full": no further event is written (each dropped event counts hdr->dropped and
 * conc[CONC_TRACE_FULL]) but the outcome still is.
 */
int rt_trace_append(const trace_rec *r, int final)
{
    if (rt.trace_off) return -1;
    trace_header *h = rt.hdr;
    uint64_t n = h->nrecs, cap = h->recs_cap;
    uint64_t limit = final ? cap : (cap ? cap - 1 : 0);
    if (n >= limit || (!final && rt.trace_full)) {
        if (!final && !rt.trace_full) {
            rt.trace_full = 1;
            /* Nothing symbolic can be recorded any more: the rest of the run goes concrete.
             * Shadow memory is forgotten (loads read concrete, no new symbolic byte is
             * stored, input functions return concrete values), so the run is not slowed by
             * building expressions nobody will see; concrete-mode clones apply again. */
            __sym_shadow_active = 0;
        }
        return -1;
    }
    memcpy(&rt.recs[n], r, sizeof *r);
    __atomic_store_n(&h->nrecs, n + 1, __ATOMIC_RELEASE);
    return 0;
}

/*
 * Lazy expression output. expr->mark holds the node's trace id in this run (0 =
 * not written yet); ids are dense from 1 in writing order. The DAG is walked
 * iteratively in post-order with an explicit stack (expressions can be thousands
 * of levels deep, e.g. a checksum loop), pushing every unwritten kid of the top
 * node before writing it, so kids always precede their parents in the trace.
 * A node reachable twice may be pushed twice; the second visit finds it marked.
 */
static expr **wstack;
static size_t wstack_cap;

static int push(size_t *sp, expr *e)
{
    if (*sp == wstack_cap) {
        size_t ncap = wstack_cap ? 2 * wstack_cap : 256;
        expr **ns = realloc(wstack, ncap * sizeof *ns);
        if (!ns) return -1;
        wstack = ns;
        wstack_cap = ncap;
    }
    wstack[(*sp)++] = e;
    return 0;
}

uint32_t rt_trace_expr(expr *e)
{
    if (e->mark) return e->mark;
    if (rt.trace_off || rt.trace_full) return 0;
    size_t sp = 0;
    if (push(&sp, e)) return 0;
    while (sp) {
        expr *t = wstack[sp - 1];
        if (t->mark) {
            sp--;
            continue;
        }
        int pushed = 0;
        for (unsigned k = 0; k < t->nkids; k++)
            if (!t->kid[k]->mark) {
                if (push(&sp, t->kid[k])) return 0;
                pushed = 1;
            }
        if (pushed) continue;
        trace_rec r;
        memset(&r, 0, sizeof r);
        r.type = REC_EXPR;
        r.u.e.op = t->op;
        r.u.e.width = t->width;
        r.u.e.id = rt.next_trace_id + 1;
        for (unsigned k = 0; k < t->nkids; k++) r.u.e.kid[k] = t->kid[k]->mark;
        r.u.e.aux = t->aux;
        r.u.e.value = t->value;
        if (rt_trace_append(&r, 0)) return 0;
        t->mark = ++rt.next_trace_id;
        sp--;
    }
    return e->mark;
}

void rt_count_conc(uint32_t kind)
{
    if (kind < CONC_KIND_COUNT && !rt.trace_off) rt.hdr->conc[kind]++;
}

static void drop_event(void)
{
    if (rt.trace_off) return;
    rt.hdr->dropped++;
    rt.hdr->conc[CONC_TRACE_FULL]++;
}

int rt_trace_event(uint32_t kind, uint32_t site, uint32_t taken, expr *cond, uint32_t arg)
{
    if (rt.trace_off) return -1;
    uint32_t id = rt.trace_full ? 0 : rt_trace_expr(cond);
    if (!id) {
        drop_event();
        return -1;
    }
    trace_rec r;
    memset(&r, 0, sizeof r);
    r.type = REC_BRANCH;
    r.u.br.kind = (uint8_t)kind;
    r.u.br.taken = (uint8_t)(taken != 0);
    /* Events that belong to no branch site (checks, assumptions, concretizations) carry the
     * last branch site executed: an approximate location that keeps the explorer's per-site
     * loop bound from lumping every such event of a path together. Not an injected fault's:
     * the last site also moves with concrete branches, and the tree matches events by kind
     * and site (its arg carries the location instead, db_fault.c). */
    r.u.br.site = (site == 0 && kind != BK_BRANCH && kind != BK_SWITCH && kind != BK_FAULT) ? *__sym_last_site : site;
    r.u.br.cond = id;
    r.u.br.arg = arg;
    if (rt_trace_append(&r, 0)) {
        drop_event();
        return -1;
    }
    return 0;
}

/*
 * sympath unit builds a pointer input whose NULL is decided lazily (LCT's lazy initialisation,
 * sympath_unit_rt.h sympu_lazy_null) as A & M: A the object's address, M a mask that is all
 * ones unless the input NAME.null is set. An access through such a pointer (plus any offset)
 * means the object exists: the runtime records the assumption A & M == A (the explorer never
 * opens its other side, so there is no NULL after a dereference) and goes on with A in its
 * place, so a symbolic index still gets its symbolic read and its own pin.
 */
static int lazy_node(const expr *e)
{
    if (e->op != EXPR_AND) return 0;
    const expr *a = e->kid[0], *m = e->kid[1];
    if (a->op != EXPR_CONST) {
        const expr *t = a;
        a = m;
        m = t;
    }
    return a->op == EXPR_CONST && a->value != 0 && m->op != EXPR_CONST && m->value == expr_mask(m->width);
}

static expr *lazy_rewrite(expr *e, int depth)
{
    if (lazy_node(e)) {
        expr_ctx *cx = rt_cx();
        expr *a = expr_const(cx, e->value, e->width);
        rt_trace_event(BK_ASSUME, 0, 1, expr_cmp(cx, PRED_EQ, e, a), 0);
        return a;
    }
    if (depth > 8 || (e->op != EXPR_ADD && e->op != EXPR_SUB)) return e;
    expr *k0 = lazy_rewrite(e->kid[0], depth + 1);
    expr *k1 = e->op == EXPR_ADD ? lazy_rewrite(e->kid[1], depth + 1) : e->kid[1];
    if (k0 == e->kid[0] && k1 == e->kid[1]) return e;
    return expr_binary(rt_cx(), (expr_op)e->op, k0, k1);
}

expr *rt_lazy_null_pin(expr *addr_e)
{
    if (!addr_e) return NULL;
    expr *r = lazy_rewrite(addr_e, 0);
    return r->op == EXPR_CONST ? NULL : r;
}

void rt_concretize_pin(expr *e, uint64_t value, uint32_t kind)
{
    rt_count_conc(kind);
    if (e->op == EXPR_CONST) return;
    expr_ctx *cx = rt_cx();
    expr *cond = expr_cmp(cx, PRED_EQ, e, expr_const(cx, value & expr_mask(e->width), e->width));
    if (cond->op != EXPR_CONST) rt_trace_event(BK_CONCRETIZE, 0, 1, cond, kind);
}

/* sympath unit's harness calls this just before the call of the function under test: a REC_MARK
 * record splits the run's events into the setup phase (inputs, producers) and the target phase
 * (the explorer's search prefers the latter's directions, strategy_cov.c; the coverage bytes taken
 * after it carry COV_BIT_TARGET, which the tests' coverage lists keep). Declared by the
 * harness (src/unit/sympath_unit_rt.h), once per run. */
void __sym_unit_target(void)
{
    trace_rec r;
    memset(&r, 0, sizeof r);
    r.type = REC_MARK;
    (void)rt_trace_append(&r, 0);     /* a full trace records no event after it anyway */
    __sym_cov_phase = COV_BIT_TARGET; /* the coverage bytes tell the call's directions apart */
}
