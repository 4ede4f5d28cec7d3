/* concrete.c: concrete-mode clones: which functions are input-free, and a copy F.sym_concrete of each of them. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Comdat.h>
#include <llvm-c/Core.h>
#include <llvm-c/Linker.h>

#include "pass.h"
#include "util/util.h"

/*
 * A function F is *input-free* when neither F nor anything it can call directly
 * (transitively, through the callees the pass will make it call: models included)
 * reads an input or assumes (the runtime input API), calls through a pointer, or
 * names a function other than as a direct callee. Started with no symbolic
 * parameter and no symbolic byte anywhere in memory, such a call cannot produce a
 * symbolic value: every value it computes is concrete, so a copy of it that
 * carries no shadows at all computes the same events (concrete mode: pass.c
 * instruments the copy, pass_dispatch.c makes F call it).
 *
 * Callbacks are the one way out of that reasoning: uninstrumented code (qsort,
 * signal delivery) may call the *original* of a function whose address was taken.
 * If any such function can read an input, no function is input-free.
 *
 * The C API has no CloneFunction, so the copies are made by cloning the whole
 * module: in the copy every global variable becomes a declaration of the
 * original, every input-free function definition is renamed F.sym_concrete and
 * every other definition loses its body (a declaration of the original), and the
 * copy is linked back. Local globals of the original are made external (hidden)
 * for the link, so the copy's declarations resolve to them, then restored.
 *
 * The copy is made through bitcode (written, then read back into the same context),
 * not with LLVMCloneModule: a clone shares the original's named struct types, and
 * the linker, which expects a source module with types of its own, maps a shared
 * recursive type (struct node { struct node *next; }) to a fresh anonymous one, so
 * the copies' signatures no longer match their callers. Read back, the copy has
 * renamed types (struct.node.0) that the linker maps onto the originals by name.
 */

static int starts(const char *s, const char *prefix) { return !strncmp(s, prefix, strlen(prefix)); }

static int in_list(const char *name, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(name, list[i])) return 1;
    return 0;
}

static const char *name_of(LLVMValueRef v)
{
    size_t len;
    return LLVMGetValueName2(v, &len);
}

/* The function analysed: index in the graph, its direct callees, and the two properties. */
typedef struct fnode {
    LLVMValueRef f;
    int user;  /* not one of sympath's models (calls to libc are redirected to models) */
    int bad;   /* input-free is impossible for F itself (see above) */
    int reads; /* F itself reads inputs, or calls through a pointer (anything may happen) */
    int free_; /* result: input-free */
    int *callees;
    size_t ncallees, capcallees;
} fnode;

typedef struct graph {
    const instr_config *cfg;
    LLVMModuleRef m;
    fnode *n;
    size_t nn;
    ptrmap index; /* function -> node index + 1 */
    int oom;
} graph;

static int node_of(graph *g, LLVMValueRef f)
{
    ptrmap_ent *e = ptrmap_get(&g->index, f);
    return e ? (int)(uintptr_t)e->a - 1 : -1;
}

static void add_edge(graph *g, fnode *n, int to)
{
    if (n->ncallees == n->capcallees) {
        size_t cap = n->capcallees ? 2 * n->capcallees : 8;
        int *nc = realloc(n->callees, cap * sizeof *nc);
        if (!nc) {
            g->oom = 1;
            return;
        }
        n->callees = nc;
        n->capcallees = cap;
    }
    n->callees[n->ncallees++] = to;
}

/* Does constant operand v name a function (directly or inside a constant expression
 * or aggregate)? Global variables are not looked into: a function pointer stored in
 * one can only be used by an indirect call or by uninstrumented code (callbacks). */
static int mentions_function(LLVMValueRef v, int depth)
{
    if (LLVMIsAFunction(v)) return 1;
    if (depth > 16 || !LLVMIsAConstant(v) || LLVMIsAGlobalValue(v)) return 0;
    int n = LLVMGetNumOperands(v);
    for (int i = 0; i < n; i++)
        if (mentions_function(LLVMGetOperand(v, i), depth + 1)) return 1;
    return 0;
}

/* The function a call targets directly (through a pointer cast), or NULL. As in calls.c. */
static LLVMValueRef direct_callee(LLVMValueRef call)
{
    LLVMValueRef v = LLVMGetCalledValue(call);
    if (LLVMIsAConstantExpr(v) && LLVMGetConstOpcode(v) == LLVMBitCast) v = LLVMGetOperand(v, 0);
    return LLVMIsAFunction(v) ? v : NULL;
}

static int is_input_api(const char *name)
{
    /* sym_model_vararg*, the models' vararg shadows, are not inputs: a symbolic vararg slot
     * sets __sym_shadow_active (rt_libc.c), so no copy runs while one may be read */
    return starts(name, "__VERIFIER_nondet_") || (starts(name, "sym_") && !starts(name, "sym_model_")) ||
           starts(name, "__sym_input_") || !strcmp(name, "__VERIFIER_assume");
}

static int is_error_hook(const char *name)
{
    return !strcmp(name, "reach_error") || !strcmp(name, "__VERIFIER_error") || !strcmp(name, "__assert_fail") ||
           !strcmp(name, "__assert_perror_fail") || !strcmp(name, "__assert") || !strcmp(name, "abort");
}

/* One call of node n, classified in do_call's order (calls.c), so that the edges are
 * the calls the instrumented program will really make. */
static void scan_call(graph *g, fnode *n, LLVMValueRef call)
{
    if (LLVMIsAInlineAsm(LLVMGetCalledValue(call))) return;
    LLVMValueRef fn = direct_callee(call);
    if (!fn) {
        n->bad = n->reads = 1; /* indirect */
        return;
    }
    if (LLVMGetIntrinsicID(fn)) return;
    const char *name = name_of(fn);
    if (is_error_hook(name) || !strcmp(name, "fork"))
        return; /* the run ends at the hook; fork is redirected to the runtime */
    if (model_redirect_ok(name_of(n->f), name)) {
        char *mname = util_strf("__sym_model_%s", name);
        if (!mname) {
            g->oom = 1;
            return;
        }
        LLVMValueRef model = LLVMGetNamedFunction(g->m, mname);
        free(mname);
        /* as calls.c's model_of: a function the program defines itself is not redirected */
        if (model && !LLVMIsDeclaration(model) && LLVMIsDeclaration(fn)) {
            if (model_is_libc_when_concrete(name)) return; /* the copy calls libc itself (calls.c) */
            int k = node_of(g, model);
            if (k < 0)
                n->bad = 1;
            else
                add_edge(g, n, k);
            return;
        }
    }
    if (!strcmp(name, "memcpy") || !strcmp(name, "memmove") || !strcmp(name, "memset")) return;
    if (is_input_api(name)) {
        n->bad = n->reads = 1;
        return;
    }
    if (!LLVMIsDeclaration(fn)) {
        int k = node_of(g, fn);
        if (k < 0)
            n->bad = 1; /* a runtime fast path called by the program: not ours to reason about */
        else
            add_edge(g, n, k);
    }
    /* anything else is external: it cannot reach instrumented code except through callbacks */
}

static void scan_function(graph *g, fnode *n)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(n->f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            int nops = LLVMGetNumOperands(i);
            if (LLVMIsACallInst(i) || LLVMIsAInvokeInst(i) || LLVMIsACallBrInst(i)) {
                if (!LLVMIsACallInst(i)) n->bad = 1;
                scan_call(g, n, i);
                nops--; /* the callee is the last operand */
            }
            if (LLVMGetInstructionOpcode(i) == LLVMIndirectBr) n->bad = 1;
            for (int k = 0; k < nops; k++)
                if (mentions_function(LLVMGetOperand(i, k), 0)) n->bad = 1;
        }
}

/* Is v used other than as the callee of calls (through pointer casts)? */
static int address_taken(LLVMValueRef v, int depth)
{
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsACallInst(user) && LLVMGetCalledValue(user) == v) {
            unsigned nargs = LLVMGetNumArgOperands(user);
            for (unsigned k = 0; k < nargs; k++)
                if (LLVMGetOperand(user, k) == v) return 1;
            continue;
        }
        if (depth < 4 && LLVMIsAConstantExpr(user) && LLVMGetConstOpcode(user) == LLVMBitCast) {
            if (address_taken(user, depth + 1)) return 1;
            continue;
        }
        return 1;
    }
    return 0;
}

/* Fill g->n[*].free_. Returns the number of input-free functions, or -1 when out of memory. */
static int analyse(graph *g)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(g->m); f; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f) || LLVMGetIntrinsicID(f) ||
            in_list(name_of(f), g->cfg->rt_fast_names, g->cfg->n_rt_fast))
            continue;
        if (g->nn % 64 == 0) {
            fnode *nn = realloc(g->n, (g->nn + 64) * sizeof *nn);
            if (!nn) return -1;
            g->n = nn;
        }
        memset(&g->n[g->nn], 0, sizeof g->n[g->nn]);
        g->n[g->nn].f = f;
        g->n[g->nn].user = !in_list(name_of(f), g->cfg->model_names, g->cfg->n_models);
        if (ptrmap_put(&g->index, f, (void *)(uintptr_t)(g->nn + 1), NULL)) return -1;
        g->nn++;
    }
    for (size_t i = 0; i < g->nn; i++) scan_function(g, &g->n[i]);
    if (g->oom) return -1;
    /* reads: least fixpoint over the callees */
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < g->nn; i++)
            for (size_t k = 0; k < g->n[i].ncallees && !g->n[i].reads; k++)
                if (g->n[g->n[i].callees[k]].reads) g->n[i].reads = changed = 1;
    }
    int callbacks_read = 0;
    for (size_t i = 0; i < g->nn; i++)
        if (g->n[i].reads && address_taken(g->n[i].f, 0)) callbacks_read = 1;
    /* input-free: greatest fixpoint (recursion among input-free functions stays input-free) */
    for (size_t i = 0; i < g->nn; i++) g->n[i].free_ = !callbacks_read && !g->n[i].bad;
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < g->nn; i++)
            for (size_t k = 0; k < g->n[i].ncallees && g->n[i].free_; k++)
                if (!g->n[g->n[i].callees[k]].free_) {
                    g->n[i].free_ = 0;
                    changed = 1;
                }
    }
    int count = 0;
    for (size_t i = 0; i < g->nn; i++) count += g->n[i].free_;
    return count;
}

/* Turn a definition of the copy into a declaration (of the original, once linked). */
/* A copy of m with types of its own (see above); NULL when out of memory. */
static LLVMModuleRef copy_module(LLVMModuleRef m)
{
    LLVMMemoryBufferRef buf = LLVMWriteBitcodeToMemoryBuffer(m);
    if (!buf) return NULL;
    LLVMModuleRef c = NULL;
    if (LLVMParseBitcodeInContext2(LLVMGetModuleContext(m), buf, &c)) c = NULL;
    LLVMDisposeMemoryBuffer(buf);
    return c;
}

static void drop_body(LLVMValueRef f)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            if (LLVMGetTypeKind(LLVMTypeOf(i)) != LLVMVoidTypeKind)
                LLVMReplaceAllUsesWith(i, LLVMGetUndef(LLVMTypeOf(i)));
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i; (i = LLVMGetFirstInstruction(bb));) LLVMInstructionEraseFromParent(i);
    for (LLVMBasicBlockRef bb; (bb = LLVMGetFirstBasicBlock(f));) LLVMDeleteBasicBlock(bb);
    if (LLVMHasPersonalityFn(f)) LLVMSetPersonalityFn(f, NULL);
    LLVMGlobalClearMetadata(f); /* a declaration may not carry its own DISubprogram */
    LLVMSetLinkage(f, LLVMExternalLinkage);
    LLVMSetComdat(f, NULL);
}

/* Linkage and visibility of an original global changed for the link, to restore. */
typedef struct saved_link {
    LLVMValueRef v;
    LLVMLinkage l;
    LLVMVisibility vis;
} saved_link;

static int expose(LLVMValueRef v, saved_link **sv, size_t *n, size_t *cap)
{
    LLVMLinkage l = LLVMGetLinkage(v);
    if (LLVMIsDeclaration(v) || (l != LLVMInternalLinkage && l != LLVMPrivateLinkage)) return 0;
    if (*n == *cap) {
        size_t nc = *cap ? 2 * *cap : 64;
        saved_link *ns = realloc(*sv, nc * sizeof *ns);
        if (!ns) return -1;
        *sv = ns;
        *cap = nc;
    }
    (*sv)[(*n)++] = (saved_link){v, l, LLVMGetVisibility(v)};
    size_t len;
    LLVMGetValueName2(v, &len);
    if (!len) LLVMSetValueName2(v, "__sym_anon", 10); /* a declaration links by name */
    LLVMSetLinkage(v, LLVMExternalLinkage);
    LLVMSetVisibility(v, LLVMHiddenVisibility);
    return 0;
}

int make_concrete_clones(LLVMModuleRef m, const instr_config *cfg, uint32_t *nclones, char **err)
{
    *nclones = 0;
    /* Aliases and ifuncs would be duplicated by the copy; C programs rarely have them: no clones. */
    if (LLVMGetFirstGlobalAlias(m) || LLVMGetFirstGlobalIFunc(m)) return 0;
    graph G = {cfg, m, NULL, 0, {0}, 0}, *g = &G;
    saved_link *sv = NULL;
    size_t nsv = 0, capsv = 0;
    char **names = NULL;
    size_t nn = 0;
    LLVMModuleRef c = NULL;
    int rc = -1, count = analyse(g);
    if (count < 0) goto oom;
    if (count == 0) {
        rc = 0;
        goto done;
    }
    /* names of the input-free functions, to find them in the copy */
    names = calloc((size_t)count, sizeof *names);
    if (!names) goto oom;
    for (size_t i = 0; i < g->nn; i++)
        if (g->n[i].free_ && !(names[nn++] = strdup(name_of(g->n[i].f)))) goto oom;

    for (LLVMValueRef v = LLVMGetFirstGlobal(m); v; v = LLVMGetNextGlobal(v))
        if (expose(v, &sv, &nsv, &capsv)) goto oom;
    for (LLVMValueRef v = LLVMGetFirstFunction(m); v; v = LLVMGetNextFunction(v))
        if (expose(v, &sv, &nsv, &capsv)) goto oom;

    c = copy_module(m);
    if (!c) goto oom;
    for (LLVMValueRef v = LLVMGetFirstGlobal(c), next; v; v = next) {
        next = LLVMGetNextGlobal(v);
        if (LLVMGetLinkage(v) == LLVMAppendingLinkage) { /* llvm.used, constructors: the original's count */
            LLVMDeleteGlobal(v);
            continue;
        }
        if (LLVMIsDeclaration(v)) continue;
        LLVMSetInitializer(v, NULL);
        LLVMSetLinkage(v, LLVMExternalLinkage);
        LLVMGlobalClearMetadata(v);
        LLVMSetComdat(v, NULL);
    }
    for (LLVMValueRef f = LLVMGetFirstFunction(c); f; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f)) continue;
        const char *name = name_of(f);
        if (!in_list(name, (const char *const *)names, nn)) {
            drop_body(f);
            continue;
        }
        char *cname = util_strf("%s%s", name, CONCRETE_SUFFIX);
        if (!cname) {
            LLVMDisposeModule(c);
            goto oom;
        }
        LLVMSetValueName2(f, cname, strlen(cname));
        free(cname);
        /* external for the link (a local function nobody references yet would be left
         * behind by the linker); made internal below */
        LLVMSetLinkage(f, LLVMExternalLinkage);
        LLVMSetVisibility(f, LLVMHiddenVisibility);
        LLVMSetComdat(f, NULL);
    }
    if (LLVMLinkModules2(m, c)) { /* consumes c */
        *err = util_strf("internal error (a bug in sympath's instrumenter): linking the concrete-mode clones failed");
        goto done;
    }
    for (size_t i = 0; i < nsv; i++) {
        LLVMSetLinkage(sv[i].v, sv[i].l);
        LLVMSetVisibility(sv[i].v, sv[i].vis);
    }
    nsv = 0;
    for (size_t i = 0; i < nn; i++) {
        char *cname = util_strf("%s%s", names[i], CONCRETE_SUFFIX);
        LLVMValueRef f = cname ? LLVMGetNamedFunction(m, cname) : NULL;
        free(cname);
        if (!f || LLVMIsDeclaration(f)) {
            *err = util_strf("internal error (a bug in sympath's instrumenter): the concrete-mode clone of %s "
                             "is missing",
                             names[i]);
            goto done;
        }
        LLVMSetLinkage(f, LLVMInternalLinkage);
        LLVMSetVisibility(f, LLVMDefaultVisibility);
    }
    *nclones = (uint32_t)nn;
    rc = 0;
    goto done;
oom:
    *err = util_strf("concrete-mode clones: out of memory");
done:
    for (size_t i = 0; i < nsv; i++) {
        LLVMSetLinkage(sv[i].v, sv[i].l);
        LLVMSetVisibility(sv[i].v, sv[i].vis);
    }
    free(sv);
    for (size_t i = 0; names && i < (size_t)count; i++) free(names[i]);
    free(names);
    for (size_t i = 0; i < g->nn; i++) free(g->n[i].callees);
    free(g->n);
    ptrmap_clear(&g->index);
    return rc;
}
