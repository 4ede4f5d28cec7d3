/* trace_read.c: decoding a run's shared-memory trace records into a run_result, interning its expressions. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trace_read.h"

/* Longest input name kept, in bytes without the terminating NUL. */
#define NAME_MAX_LEN 255u
/* Largest gap of missing input indexes filled with zeros before the trace is
 * considered malformed (a wild index would otherwise allocate gigabytes). */
#define INPUT_GAP_MAX (1u << 20)

/*
 * Decoding state of one trace. The runtime numbers the expressions it writes with
 * dense trace ids 1, 2, ... in the order it writes them (kids first), so `ids` maps
 * a trace id straight to the node interned in the explorer's context: ids[id] is
 * NULL until the EXPR record defining id has been read. Every array grows by
 * doubling, so decoding costs amortized O(1) per record and no malloc per record
 * except for input names.
 */
typedef struct reader {
    run_result *out;
    expr **ids;      /* trace id -> node; ids[0] unused */
    uint32_t idcap;  /* allocated entries of ids */
    uint32_t nexprs; /* EXPR records read so far */
    uint32_t icap;   /* allocated entries of the four input arrays */
    uint32_t ecap;   /* allocated entries of out->events */
    char **err;
    uint64_t recno; /* index of the record being decoded, for messages */
    uint8_t marked; /* a REC_MARK was read: later events are of the target phase */
} reader;

/* Set *err (if err is not NULL) to a formatted message prefixed with the record number. */
static int fail(reader *rd, const char *fmt, ...)
{
    if (rd->err) {
        char *msg = NULL, *full = NULL;
        va_list ap;
        va_start(ap, fmt);
        if (vasprintf(&msg, fmt, ap) < 0) msg = NULL;
        va_end(ap);
        if (msg && asprintf(&full, "malformed trace: record %llu: %s", (unsigned long long)rd->recno, msg) < 0)
            full = NULL;
        free(msg);
        *rd->err = full;
    }
    return -1;
}

static int oom(reader *rd)
{
    if (rd->err) *rd->err = strdup("trace_read: out of memory");
    return -1;
}

/* Make room for input number `need` (0-based) in the four parallel input arrays. */
static int grow_inputs(reader *rd, uint32_t need)
{
    if (need < rd->icap) return 0;
    uint32_t cap = rd->icap ? rd->icap : 16;
    while (cap <= need) cap *= 2;
    run_result *o = rd->out;
    uint64_t *v = realloc(o->inputs, (size_t)cap * sizeof *v);
    if (!v) return -1;
    o->inputs = v;
    uint8_t *t = realloc(o->itypes, cap);
    if (!t) return -1;
    o->itypes = t;
    uint8_t *w = realloc(o->iwidths, cap);
    if (!w) return -1;
    o->iwidths = w;
    char **nm = realloc(o->inames, (size_t)cap * sizeof *nm);
    if (!nm) return -1;
    o->inames = nm;
    rd->icap = cap;
    return 0;
}

/* Append input `index`; indexes below it that never appeared read as 0 of width 0. */
static int add_input(reader *rd, const trace_rec *r)
{
    run_result *o = rd->out;
    uint32_t index = r->u.in.index, width = r->u.in.width;
    if (index < o->ninputs) return fail(rd, "input index %u repeats (already %u inputs)", index, o->ninputs);
    if (index - o->ninputs > INPUT_GAP_MAX)
        return fail(rd, "input index %u leaves a gap after %u inputs", index, o->ninputs);
    if (width < 1 || width > 64) return fail(rd, "input %u has width %u", index, width);
    if (grow_inputs(rd, index) < 0) return oom(rd);
    for (uint32_t i = o->ninputs; i < index; i++) {
        o->inputs[i] = 0;
        o->itypes[i] = 0;
        o->iwidths[i] = 0;
        o->inames[i] = NULL;
    }
    o->inputs[index] = r->u.in.value & expr_mask(width);
    o->itypes[index] = r->u.in.itype;
    o->iwidths[index] = (uint8_t)width;
    o->inames[index] = NULL;
    o->ninputs = index + 1;
    return 0;
}

/* Append a chunk of name text to the last input's name, capped at NAME_MAX_LEN. */
static int add_name(reader *rd, const trace_rec *r)
{
    run_result *o = rd->out;
    if (o->ninputs == 0) return 0; /* a name without an input: nothing to attach it to */
    char **slot = &o->inames[o->ninputs - 1];
    size_t have = *slot ? strlen(*slot) : 0;
    size_t add = strnlen(r->u.name.text, sizeof r->u.name.text);
    if (have + add > NAME_MAX_LEN) add = NAME_MAX_LEN - have;
    if (add == 0 && *slot) return 0;
    char *s = realloc(*slot, have + add + 1);
    if (!s) return oom(rd);
    memcpy(s + have, r->u.name.text, add);
    s[have + add] = '\0';
    *slot = s;
    return 0;
}

/* Node for trace id `id`, or NULL when it has not been defined. */
static expr *lookup(const reader *rd, uint32_t id) { return id < rd->idcap ? rd->ids[id] : NULL; }

static int add_expr(reader *rd, expr_ctx *cx, const trace_rec *r)
{
    uint32_t id = r->u.e.id;
    unsigned op = r->u.e.op;
    rd->nexprs++;
    /* With dense ids, the id of the k-th EXPR record is k; anything larger cannot come
     * from a well-formed writer, and bounding it keeps the map small. */
    if (id == 0 || id > rd->nexprs)
        return fail(rd, "expression id %u out of order (expected at most %u)", id, rd->nexprs);
    if (lookup(rd, id)) return fail(rd, "expression id %u defined twice", id);
    if (op >= EXPR_OP_COUNT) return fail(rd, "expression %u has unknown operator %u", id, op);
    expr *k[3] = {NULL, NULL, NULL};
    unsigned arity = expr_op_arity((expr_op)op);
    for (unsigned i = 0; i < arity && i < 3; i++) {
        k[i] = lookup(rd, r->u.e.kid[i]);
        if (!k[i])
            return fail(rd, "expression %u (%s) refers to unknown id %u", id, expr_op_name((expr_op)op), r->u.e.kid[i]);
    }
    expr *e = expr_raw(cx, (expr_op)op, r->u.e.width, r->u.e.aux, k[0], k[1], k[2], r->u.e.value);
    if (!e)
        return fail(rd, "expression %u has an invalid shape (%s, width %u, aux %u)", id, expr_op_name((expr_op)op),
                    r->u.e.width, r->u.e.aux);
    if (id >= rd->idcap) {
        uint32_t cap = rd->idcap ? rd->idcap : 1024;
        while (cap <= id) cap *= 2;
        expr **m = realloc(rd->ids, (size_t)cap * sizeof *m);
        if (!m) return oom(rd);
        memset(m + rd->idcap, 0, (size_t)(cap - rd->idcap) * sizeof *m);
        rd->ids = m;
        rd->idcap = cap;
    }
    rd->ids[id] = e;
    return 0;
}

static int add_branch(reader *rd, const trace_rec *r)
{
    run_result *o = rd->out;
    expr *c = lookup(rd, r->u.br.cond);
    if (!c) return fail(rd, "branch condition refers to unknown id %u", r->u.br.cond);
    if (c->width != 1) return fail(rd, "branch condition %u has width %u", r->u.br.cond, c->width);
    if (r->u.br.kind >= BK_KIND_COUNT) return fail(rd, "unknown branch kind %u", r->u.br.kind);
    if (r->u.br.taken > 1) return fail(rd, "branch direction %u", r->u.br.taken);
    if (o->nevents == rd->ecap) {
        uint32_t cap = rd->ecap ? rd->ecap * 2 : 64;
        sym_event *ev = realloc(o->events, (size_t)cap * sizeof *ev);
        if (!ev) return oom(rd);
        o->events = ev;
        rd->ecap = cap;
    }
    sym_event *ev = &o->events[o->nevents++];
    ev->kind = r->u.br.kind;
    ev->taken = r->u.br.taken;
    ev->site = r->u.br.site;
    ev->arg = r->u.br.arg;
    ev->cond = c;
    ev->phase = rd->marked;
    return 0;
}

int trace_read(const trace_header *h, const void *region_base, expr_ctx *cx, run_result *out, char **err)
{
    reader rd = {.out = out, .err = err};
    memset(out, 0, sizeof *out);
    out->exit_code = -1;
    if (err) *err = NULL;

    if (h->magic != TRACE_MAGIC || h->version != 1)
        return fail(&rd, "bad header magic/version %#x/%u", h->magic, h->version);
    uint64_t cap = h->recs_cap;
    if (h->recs_off < sizeof *h || h->recs_off > h->total_size ||
        cap > (h->total_size - h->recs_off) / sizeof(trace_rec))
        return fail(&rd, "record area [%llu, +%llu records) outside the region of %llu bytes",
                    (unsigned long long)h->recs_off, (unsigned long long)cap, (unsigned long long)h->total_size);

    for (int k = 0; k < CONC_KIND_COUNT; k++) out->conc[k] = h->conc[k];
    for (unsigned k = 0; k < TRACE_CONC_FN_SLOTS; k++) out->conc_fn[k] = h->conc_fn[k];
    for (unsigned k = 0; k < TRACE_CRASH_FRAMES; k++) out->crash_frames[k] = h->crash_frames[k];
    out->forks = h->forks;
    out->dropped = h->dropped;
    out->last_site = h->last_site;

    uint64_t n = __atomic_load_n(&h->nrecs, __ATOMIC_ACQUIRE);
    if (n > cap) n = cap;
    const trace_rec *recs = (const trace_rec *)((const char *)region_base + h->recs_off);
    int rc = 0;
    for (uint64_t i = 0; i < n && rc == 0; i++) {
        /* A copy, so that a process still attached to the region (a grandchild the
         * program forked) cannot change a field between its check and its use. */
        trace_rec r = recs[i];
        rd.recno = i;
        switch (r.type) {
        case REC_EXPR: rc = add_expr(&rd, cx, &r); break;
        case REC_INPUT: rc = add_input(&rd, &r); break;
        case REC_NAME: rc = add_name(&rd, &r); break;
        case REC_BRANCH: rc = add_branch(&rd, &r); break;
        case REC_ERROR:
            if (r.u.err.kind == ERR_NONE || r.u.err.kind >= ERR_KIND_COUNT) {
                rc = fail(&rd, "unknown error kind %u", r.u.err.kind);
                break;
            }
            if (out->error == ERR_NONE) { /* the first error is the one that ended the run */
                out->error = (error_kind)r.u.err.kind;
                out->signo = r.u.err.signo;
                out->error_loc = r.u.err.loc;
                out->error_pc = r.u.err.pc;
            }
            break;
        case REC_MARK: rd.marked = 1, out->marked = true; break;
        case REC_END:
            out->ended = true;
            out->exit_code = r.u.end.status;
            break;
        default: rc = fail(&rd, "unknown record type %u", r.type); break;
        }
    }
    out->inputs_done = out->ended && out->exit_code == SYM_INPUTS_DONE_EXIT_CODE && out->error == ERR_NONE;
    out->assume_failed = out->ended && out->exit_code == SYM_ASSUME_EXIT_CODE && out->error == ERR_NONE;
    free(rd.ids);
    return rc;
}
