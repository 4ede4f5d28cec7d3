/* expr.c: expression contexts (arena, intern table, id index), expr_raw, concrete evaluation and printing. */
#include "expr/expr_int.h"

#include <stdbool.h>
#include <stdlib.h>

/*
 * Storage of a context.
 *
 * Nodes are carved out of big chunks (the arena) and never freed one by one:
 * a symbolic run builds many thousands of nodes and must not pay a malloc for
 * each. Chunks form a singly linked list freed by expr_ctx_free.
 *
 * The intern table is open addressing with linear probing over a power-of-two
 * array of slots. A slot holds the node and a copy of its hash, so a probe that
 * does not match costs no access to the node itself (building a node is then
 * mostly one cache miss in the table). Nodes are never removed, so there are
 * no tombstones; the table doubles when it would become more than half full,
 * which keeps probe sequences short. expr.chain is not used.
 *
 * by_id[i] is the node with id i (slot 0 unused): ids are handed out densely in
 * creation order, so kids always have smaller ids than their parents.
 */
typedef struct chunk {
    struct chunk *next;
    size_t used, cap; /* in nodes */
    expr nodes[];
} chunk;

typedef struct slot {
    expr *e;       /* NULL: empty */
    uint32_t hash; /* e->hash */
} slot;

struct expr_ctx {
    chunk *chunks; /* newest first; allocation happens in chunks->nodes */
    slot *slots;
    size_t nslots; /* power of two, > 2 * count */
    expr **by_id;
    size_t count;  /* nodes interned; ids are 1..count */
    size_t id_cap; /* capacity of by_id, in entries */
};

enum { FIRST_CHUNK_NODES = 1024, MAX_CHUNK_NODES = 1 << 16, FIRST_SLOTS = 2048 };

expr_ctx *expr_ctx_new(void)
{
    expr_ctx *cx = calloc(1, sizeof *cx);
    if (!cx) return NULL;
    cx->nslots = FIRST_SLOTS;
    cx->slots = calloc(cx->nslots, sizeof *cx->slots);
    cx->id_cap = FIRST_SLOTS;
    cx->by_id = calloc(cx->id_cap, sizeof *cx->by_id);
    if (!cx->slots || !cx->by_id) {
        free(cx->slots);
        free(cx->by_id);
        free(cx);
        return NULL;
    }
    return cx;
}

void expr_ctx_free(expr_ctx *cx)
{
    if (!cx) return;
    for (chunk *c = cx->chunks, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    free(cx->slots);
    free(cx->by_id);
    free(cx);
}

size_t expr_ctx_count(const expr_ctx *cx) { return cx->count; }

expr *expr_by_id(const expr_ctx *cx, uint32_t id) { return (id >= 1 && id <= cx->count) ? cx->by_id[id] : NULL; }

/* ---- interning ---- */

/* 64-bit finaliser (an xor-shift-multiply avalanche); any good mixer will do. */
static inline uint64_t mix64(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 29;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 32;
    return h;
}

static inline uint32_t node_hash(expr_op op, unsigned width, uint32_t aux, const expr *k0, const expr *k1,
                                 const expr *k2, uint64_t value)
{
    uint64_t h = (uint64_t)op | (uint64_t)width << 8 | (uint64_t)aux << 32;
    h = mix64(h ^ (op == EXPR_CONST ? value : 0));
    h = mix64(h ^ (uintptr_t)k0);
    if (k1) h = mix64(h ^ (uintptr_t)k1);
    if (k2) h = mix64(h ^ (uintptr_t)k2);
    return (uint32_t)h;
}

void (*expr_oom_hook)(void);

/* Out of memory: the arena never fails softly (expr.h); the owner may report it first. */
static void out_of_memory(void)
{
    if (expr_oom_hook) expr_oom_hook();
    abort();
}

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n);
    if (!q) out_of_memory();
    return q;
}

static void grow_slots(expr_ctx *cx)
{
    size_t n = cx->nslots * 2;
    slot *t = calloc(n, sizeof *t);
    if (!t) out_of_memory();
    for (size_t i = 1; i <= cx->count; i++) {
        expr *e = cx->by_id[i];
        size_t j = e->hash & (n - 1);
        while (t[j].e) j = (j + 1) & (n - 1);
        t[j] = (slot){e, e->hash};
    }
    free(cx->slots);
    cx->slots = t;
    cx->nslots = n;
}

static expr *alloc_node(expr_ctx *cx)
{
    chunk *c = cx->chunks;
    if (!c || c->used == c->cap) {
        size_t cap = c ? c->cap * 2 : FIRST_CHUNK_NODES;
        if (cap > MAX_CHUNK_NODES) cap = MAX_CHUNK_NODES;
        chunk *n = malloc(sizeof *n + cap * sizeof(expr));
        if (!n) out_of_memory();
        n->next = c;
        n->used = 0;
        n->cap = cap;
        cx->chunks = c = n;
    }
    return &c->nodes[c->used++];
}

expr *expr_intern_node(expr_ctx *cx, expr_op op, unsigned width, uint32_t aux, expr *k0, expr *k1, expr *k2,
                       uint64_t value)
{
    value &= expr_mask(width);
    uint32_t h = node_hash(op, width, aux, k0, k1, k2, value);
    size_t mask = cx->nslots - 1, i = h & mask;
    for (; cx->slots[i].e; i = (i + 1) & mask) {
        expr *e = cx->slots[i].e;
        if (cx->slots[i].hash == h && e->op == op && e->width == width && e->aux == aux && e->kid[0] == k0 &&
            e->kid[1] == k1 && e->kid[2] == k2 && (op != EXPR_CONST || e->value == value))
            return e;
    }
    if (cx->count + 1 >= UINT32_MAX) abort(); /* ids are 32-bit */
    expr *e = alloc_node(cx);
    e->op = (uint8_t)op;
    e->width = (uint8_t)width;
    e->nkids = (uint8_t)(k2 ? 3 : k1 ? 2 : k0 ? 1 : 0);
    e->flags = (uint8_t)(expr_op_is_fp(op) ? EXPR_FLAG_FP : 0);
    if (op == EXPR_MUL && width >= 16) { /* by a constant of 9 bits or more that is not a negative factor */
        const expr *c = k1 && k1->op == EXPR_CONST ? k1 : k0 && k0->op == EXPR_CONST ? k0 : NULL;
        if (c && c->value > 255 && c->value < (1ull << (width - 1))) e->flags |= EXPR_FLAG_WIDE_MUL;
    }
    for (int k = 0; k < 3; k++) {
        const expr *kid = k == 0 ? k0 : k == 1 ? k1 : k2;
        if (kid) e->flags |= kid->flags & (EXPR_FLAG_FP | EXPR_FLAG_WIDE_MUL);
    }
    e->aux = aux;
    e->hash = h;
    e->mark = 0;
    uint32_t d = 0;
    for (int i = 0; i < 3; i++) {
        expr *k = i == 0 ? k0 : i == 1 ? k1 : k2;
        if (k && k->depth > d) d = k->depth;
    }
    e->depth = d + 1;
    e->kid[0] = k0;
    e->kid[1] = k1;
    e->kid[2] = k2;
    e->value = value;
    e->chain = NULL;
    cx->slots[i] = (slot){e, h};
    if (cx->count + 1 >= cx->id_cap) {
        cx->id_cap *= 2;
        cx->by_id = xrealloc(cx->by_id, cx->id_cap * sizeof *cx->by_id);
    }
    e->id = (uint32_t)++cx->count;
    cx->by_id[e->id] = e;
    if (2 * cx->count >= cx->nslots) grow_slots(cx);
    return e;
}

/* ---- operator table ---- */

static const struct {
    const char *name;
    uint8_t arity;
} op_info[EXPR_OP_COUNT] = {
    [EXPR_CONST] = {"const", 0},     [EXPR_SYMBOL] = {"sym", 0},    [EXPR_ADD] = {"add", 2},
    [EXPR_SUB] = {"sub", 2},         [EXPR_MUL] = {"mul", 2},       [EXPR_UDIV] = {"udiv", 2},
    [EXPR_SDIV] = {"sdiv", 2},       [EXPR_UREM] = {"urem", 2},     [EXPR_SREM] = {"srem", 2},
    [EXPR_SHL] = {"shl", 2},         [EXPR_LSHR] = {"lshr", 2},     [EXPR_ASHR] = {"ashr", 2},
    [EXPR_AND] = {"and", 2},         [EXPR_OR] = {"or", 2},         [EXPR_XOR] = {"xor", 2},
    [EXPR_NOT] = {"not", 1},         [EXPR_EQ] = {"eq", 2},         [EXPR_ULT] = {"ult", 2},
    [EXPR_SLT] = {"slt", 2},         [EXPR_ZEXT] = {"zext", 1},     [EXPR_SEXT] = {"sext", 1},
    [EXPR_EXTRACT] = {"extract", 1}, [EXPR_CONCAT] = {"concat", 2}, [EXPR_ITE] = {"ite", 3},
    [EXPR_UADDO] = {"uaddo", 2},     [EXPR_SADDO] = {"saddo", 2},   [EXPR_USUBO] = {"usubo", 2},
    [EXPR_SSUBO] = {"ssubo", 2},     [EXPR_UMULO] = {"umulo", 2},   [EXPR_SMULO] = {"smulo", 2},
    [EXPR_FADD] = {"fadd", 2},       [EXPR_FSUB] = {"fsub", 2},     [EXPR_FMUL] = {"fmul", 2},
    [EXPR_FDIV] = {"fdiv", 2},       [EXPR_FREM] = {"frem", 2},     [EXPR_FSQRT] = {"fsqrt", 1},
    [EXPR_FMA] = {"fma", 3},         [EXPR_FMIN] = {"fmin", 2},     [EXPR_FMAX] = {"fmax", 2},
    [EXPR_FRINT] = {"frint", 1},     [EXPR_FOEQ] = {"foeq", 2},     [EXPR_FOLT] = {"folt", 2},
    [EXPR_FOLE] = {"fole", 2},       [EXPR_FUNO] = {"funo", 2},     [EXPR_FTOSI] = {"ftosi", 1},
    [EXPR_FTOUI] = {"ftoui", 1},     [EXPR_SITOF] = {"sitof", 1},   [EXPR_UITOF] = {"uitof", 1},
    [EXPR_FCVT] = {"fcvt", 1},
};

const char *expr_op_name(expr_op op) { return (unsigned)op < EXPR_OP_COUNT ? op_info[op].name : "?"; }

unsigned expr_op_arity(expr_op op) { return (unsigned)op < EXPR_OP_COUNT ? op_info[op].arity : 0; }

/* ---- expr_raw ---- */

/* Does (op, width, aux, kids) have a shape expr.h allows? See expr_raw's contract. */
static bool raw_shape_ok(expr_op op, unsigned width, uint32_t aux, const expr *k0, const expr *k1, const expr *k2)
{
    if ((unsigned)op >= EXPR_OP_COUNT || width < 1 || width > 64) return false;
    unsigned n = op_info[op].arity;
    const expr *k[3] = {k0, k1, k2};
    for (unsigned i = 0; i < 3; i++)
        if ((k[i] != NULL) != (i < n)) return false;
    if (expr_op_is_fp(op)) return expr_fp_shape_ok(op, width, aux, k0, k1, k2);
    if (aux != 0 && op != EXPR_SYMBOL && op != EXPR_EXTRACT) return false;
    switch (op) {
    case EXPR_CONST:
    case EXPR_SYMBOL: return true;
    case EXPR_ADD:
    case EXPR_SUB:
    case EXPR_MUL:
    case EXPR_UDIV:
    case EXPR_SDIV:
    case EXPR_UREM:
    case EXPR_SREM:
    case EXPR_SHL:
    case EXPR_LSHR:
    case EXPR_ASHR:
    case EXPR_AND:
    case EXPR_OR:
    case EXPR_XOR: return k0->width == width && k1->width == width;
    case EXPR_NOT: return k0->width == width;
    case EXPR_EQ:
    case EXPR_ULT:
    case EXPR_SLT:
    case EXPR_UADDO:
    case EXPR_SADDO:
    case EXPR_USUBO:
    case EXPR_SSUBO:
    case EXPR_UMULO:
    case EXPR_SMULO: return width == 1 && k0->width == k1->width;
    case EXPR_ZEXT:
    case EXPR_SEXT: return width > k0->width;
    case EXPR_EXTRACT: return (uint64_t)aux + width <= k0->width;
    case EXPR_CONCAT: return (unsigned)k0->width + k1->width == width;
    case EXPR_ITE: return k0->width == 1 && k1->width == width && k2->width == width;
    default: return false;
    }
}

expr *expr_raw(expr_ctx *cx, expr_op op, unsigned width, uint32_t aux, expr *k0, expr *k1, expr *k2, uint64_t value)
{
    if (!raw_shape_ok(op, width, aux, k0, k1, k2)) return NULL;
    return expr_intern_node(cx, op, width, aux, k0, k1, k2, value);
}

/* ---- concrete semantics ---- */

/* Is the (full-precision) signed value p representable in `width` bits? */
static inline bool fits_signed(__int128 p, unsigned width)
{
    __int128 lim = (__int128)1 << (width - 1);
    return p >= -lim && p < lim;
}

uint64_t expr_eval_op(expr_op op, unsigned width, uint32_t aux, unsigned kid0_width, uint64_t a, uint64_t b, uint64_t c)
{
    const uint64_t m = expr_mask(width);
    const unsigned kw = kid0_width; /* operand width for comparisons, flags, casts */
    const uint64_t km = expr_mask(kw);
    int64_t sa, sb;
    switch (op) {
    case EXPR_CONST:
    case EXPR_SYMBOL: return a & m;
    case EXPR_ADD: return (a + b) & m;
    case EXPR_SUB: return (a - b) & m;
    case EXPR_MUL: return (a * b) & m;
    case EXPR_UDIV: a &= m, b &= m; return b == 0 ? m : a / b;
    case EXPR_UREM: a &= m, b &= m; return b == 0 ? a : a % b;
    case EXPR_SDIV:
        sa = expr_sext64(a, width), sb = expr_sext64(b, width);
        if (sb == 0) return sa < 0 ? 1 : m;          /* SMT-LIB bvsdiv */
        if (sb == -1) return (0 - (uint64_t)sa) & m; /* INT_MIN / -1 wraps to INT_MIN */
        return (uint64_t)(sa / sb) & m;
    case EXPR_SREM:
        sa = expr_sext64(a, width), sb = expr_sext64(b, width);
        if (sb == 0) return a & m;
        if (sb == -1) return 0;
        return (uint64_t)(sa % sb) & m;
    case EXPR_SHL: b &= m; return b >= width ? 0 : (a << b) & m;
    case EXPR_LSHR: a &= m, b &= m; return b >= width ? 0 : a >> b;
    case EXPR_ASHR:
        sa = expr_sext64(a, width);
        b &= m;
        return (uint64_t)(sa >> (b >= width ? 63 : b)) & m;
    case EXPR_AND: return a & b & m;
    case EXPR_OR: return (a | b) & m;
    case EXPR_XOR: return (a ^ b) & m;
    case EXPR_NOT: return ~a & m;
    case EXPR_EQ: return (a & km) == (b & km);
    case EXPR_ULT: return (a & km) < (b & km);
    case EXPR_SLT: return expr_sext64(a, kw) < expr_sext64(b, kw);
    case EXPR_ZEXT: return a & km;
    case EXPR_SEXT: return (uint64_t)expr_sext64(a, kw) & m;
    case EXPR_EXTRACT: return aux >= 64 ? 0 : (a >> aux) & m;
    case EXPR_CONCAT: {
        unsigned lw = width - kw; /* width of the low part */
        return lw == 0 ? a & m : lw >= 64 ? b : (((a & km) << lw) | (b & expr_mask(lw))) & m;
    }
    case EXPR_ITE: return (a & 1) ? b & m : c & m;
    case EXPR_UADDO: a &= km, b &= km; return ((a + b) & km) < a;
    case EXPR_USUBO: return (a & km) < (b & km);
    case EXPR_SADDO: return !fits_signed((__int128)expr_sext64(a, kw) + expr_sext64(b, kw), kw);
    case EXPR_SSUBO: return !fits_signed((__int128)expr_sext64(a, kw) - expr_sext64(b, kw), kw);
    case EXPR_UMULO: {
        unsigned __int128 p = (unsigned __int128)(a & km) * (b & km);
        return (p >> kw) != 0;
    }
    case EXPR_SMULO: return !fits_signed((__int128)expr_sext64(a, kw) * expr_sext64(b, kw), kw);
    default:
        if (expr_op_is_fp(op)) return expr_fp_eval_op(op, width, aux, kw, a, b, c) & m;
        return 0;
    }
}

/*
 * expr_eval: iterative post-order walk with a memo.
 *
 * Expressions built inside long loops can be hundreds of thousands of nodes
 * deep, so recursion is out. The walk keeps an explicit stack of (node,
 * expanded) entries: the first time a node is popped it is re-pushed as
 * expanded, above its kids that are not yet evaluated; when it surfaces again
 * all its kids are in the memo (the graph is acyclic, so no kid can be waiting
 * below it). A node reachable along many paths may be pushed more than once;
 * the memo check on its first pop makes the extra copies free, so the cost is
 * O(nodes + edges).
 *
 * The memo is an open-addressing table keyed by node address (linear probing,
 * load <= 1/2), so it is correct for nodes of any context and for DAGs mixing
 * nodes whose ids collide.
 */
typedef struct memo {
    const expr **keys;
    uint64_t *vals;
    size_t cap, n; /* cap is a power of two */
} memo;

static inline size_t memo_slot(const memo *mo, const expr *e) { return (size_t)mix64((uintptr_t)e) & (mo->cap - 1); }

static bool memo_get(const memo *mo, const expr *e, uint64_t *v)
{
    for (size_t i = memo_slot(mo, e);; i = (i + 1) & (mo->cap - 1)) {
        if (mo->keys[i] == e) {
            *v = mo->vals[i];
            return true;
        }
        if (!mo->keys[i]) return false;
    }
}

static void memo_put(memo *mo, const expr *e, uint64_t v);

static void memo_grow(memo *mo)
{
    memo old = *mo;
    mo->cap *= 2;
    mo->n = 0;
    mo->keys = calloc(mo->cap, sizeof *mo->keys);
    mo->vals = malloc(mo->cap * sizeof *mo->vals);
    if (!mo->keys || !mo->vals) abort();
    for (size_t i = 0; i < old.cap; i++)
        if (old.keys[i]) memo_put(mo, old.keys[i], old.vals[i]);
    free(old.keys);
    free(old.vals);
}

static void memo_put(memo *mo, const expr *e, uint64_t v)
{
    if (2 * (mo->n + 1) > mo->cap) memo_grow(mo);
    size_t i = memo_slot(mo, e);
    while (mo->keys[i] && mo->keys[i] != e) i = (i + 1) & (mo->cap - 1);
    if (!mo->keys[i]) mo->n++;
    mo->keys[i] = e;
    mo->vals[i] = v;
}

static inline uint64_t leaf_value(const expr *e, const uint64_t *inputs, size_t n)
{
    if (e->op == EXPR_CONST) return e->value;
    return e->aux < n ? inputs[e->aux] & expr_mask(e->width) : 0;
}

typedef struct walk_item {
    const expr *e;
    uintptr_t expanded;
} walk_item;

uint64_t expr_eval(const expr *e, const uint64_t *inputs, size_t n)
{
    if (e->nkids == 0) return leaf_value(e, inputs, n);
    memo mo = {0};
    mo.cap = 64;
    mo.keys = calloc(mo.cap, sizeof *mo.keys);
    mo.vals = malloc(mo.cap * sizeof *mo.vals);
    size_t sp = 0, scap = 64;
    walk_item *st = malloc(scap * sizeof *st);
    if (!mo.keys || !mo.vals || !st) abort();
    st[sp++] = (walk_item){e, 0};
    uint64_t v = 0;
    while (sp > 0) {
        walk_item it = st[--sp];
        const expr *x = it.e;
        if (!it.expanded) {
            if (memo_get(&mo, x, &v)) continue;
            if (x->nkids == 0) {
                memo_put(&mo, x, leaf_value(x, inputs, n));
                continue;
            }
            if (sp + 4 > scap) {
                scap *= 2;
                st = xrealloc(st, scap * sizeof *st);
            }
            st[sp++] = (walk_item){x, 1};
            for (unsigned i = 0; i < x->nkids; i++)
                if (!memo_get(&mo, x->kid[i], &v)) st[sp++] = (walk_item){x->kid[i], 0};
            continue;
        }
        uint64_t kv[3] = {0, 0, 0};
        for (unsigned i = 0; i < x->nkids; i++) {
            const expr *k = x->kid[i];
            if (k->nkids == 0)
                kv[i] = leaf_value(k, inputs, n);
            else
                memo_get(&mo, k, &kv[i]);
        }
        memo_put(&mo, x, expr_eval_op((expr_op)x->op, x->width, x->aux, x->kid[0]->width, kv[0], kv[1], kv[2]));
    }
    memo_get(&mo, e, &v);
    free(st);
    free(mo.keys);
    free(mo.vals);
    return v;
}

/* ---- printing ---- */

/*
 * Iterative pre-order printer: each stack entry is a node whose opening
 * "(op:width ..." has been printed and the index of the next kid to print.
 * Sharing is ignored (a shared node prints once per use), which is why the
 * output is capped at max_nodes nodes; the rest prints as "...".
 */
typedef struct print_item {
    const expr *e;
    unsigned next;
} print_item;

static size_t print_open(FILE *f, const expr *e)
{
    fprintf(f, "(%s:%u", expr_op_name((expr_op)e->op), (unsigned)e->width);
    if (e->op == EXPR_CONST)
        fprintf(f, " %llu", (unsigned long long)e->value);
    else if (e->op == EXPR_SYMBOL)
        fprintf(f, " #%lu", (unsigned long)e->aux);
    else if (e->op == EXPR_EXTRACT)
        fprintf(f, " @%lu", (unsigned long)e->aux);
    else if (e->op == EXPR_FRINT)
        fprintf(f, " rm%lu", (unsigned long)e->aux);
    return 1;
}

void expr_print(FILE *f, const expr *e, size_t max_nodes)
{
    if (!e) {
        fputs("null", f);
        return;
    }
    if (max_nodes == 0) {
        fputs("...", f);
        return;
    }
    size_t printed = print_open(f, e), sp = 0, scap = 32;
    print_item *st = malloc(scap * sizeof *st);
    if (!st) abort();
    st[sp++] = (print_item){e, 0};
    while (sp > 0) {
        print_item *top = &st[sp - 1];
        if (top->next == top->e->nkids) {
            fputc(')', f);
            sp--;
            continue;
        }
        const expr *k = top->e->kid[top->next++];
        fputc(' ', f);
        if (printed >= max_nodes) {
            fputs("...", f);
            /* nothing more will be printed below this node: close it */
            top->next = top->e->nkids;
            continue;
        }
        printed += print_open(f, k);
        if (sp == scap) {
            scap *= 2;
            st = xrealloc(st, scap * sizeof *st);
        }
        st[sp++] = (print_item){k, 0};
    }
    free(st);
}
