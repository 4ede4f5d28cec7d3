/* pass_func.c: the pass over a module: functions in turn, blocks in reverse post-order, parameters' shadows at entry, each function followed by its concrete-mode copy. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "pass.h"
#include "../expr/expr.h"
#include "../proto/trace.h"
#include "../runtime/rt_abi.h"
#include "util/util.h"

#include <llvm-c/DebugInfo.h>

static int in_list(const char *name, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(name, list[i])) return 1;
    return 0;
}

/* Blocks in reverse post-order from the entry, then unreachable blocks in layout order.
 * Returns a malloc'ed array of n blocks, or NULL when out of memory. */
static LLVMBasicBlockRef *rpo_blocks(LLVMValueRef fn, unsigned *count)
{
    unsigned n = LLVMCountBasicBlocks(fn);
    LLVMBasicBlockRef *bbs = malloc(n * sizeof *bbs), *out = malloc(n * sizeof *out);
    LLVMBasicBlockRef *stack = malloc(n * sizeof *stack);
    unsigned *next = calloc(n, sizeof *next);
    char *seen = calloc(n, 1);
    ptrmap index = {0};
    int ok = bbs && out && stack && next && seen;
    unsigned nout = 0;
    if (ok) {
        LLVMGetBasicBlocks(fn, bbs);
        for (unsigned i = 0; i < n && ok; i++) ok = !ptrmap_put(&index, bbs[i], (void *)(uintptr_t)i, NULL);
    }
    if (ok) {
        /* iterative DFS; a block is emitted (post-order) when all its successors are done */
        unsigned sp = 0;
        stack[sp++] = bbs[0];
        seen[0] = 1;
        while (sp) {
            LLVMBasicBlockRef bb = stack[sp - 1];
            unsigned bi = (unsigned)(uintptr_t)ptrmap_get(&index, bb)->a;
            LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
            unsigned ns = term ? LLVMGetNumSuccessors(term) : 0;
            if (next[bi] < ns) {
                LLVMBasicBlockRef s = LLVMGetSuccessor(term, next[bi]++);
                unsigned si = (unsigned)(uintptr_t)ptrmap_get(&index, s)->a;
                if (!seen[si]) {
                    seen[si] = 1;
                    stack[sp++] = s;
                }
            } else {
                out[nout++] = bb;
                sp--;
            }
        }
        for (unsigned i = 0; i < nout / 2; i++) {
            LLVMBasicBlockRef t = out[i];
            out[i] = out[nout - 1 - i];
            out[nout - 1 - i] = t;
        }
        for (unsigned i = 0; i < n; i++)
            if (!seen[i]) out[nout++] = bbs[i];
    }
    free(bbs), free(stack), free(next), free(seen);
    ptrmap_clear(&index);
    if (!ok) {
        free(out);
        return NULL;
    }
    *count = n;
    return out;
}

/* Parameters' shadows at entry (not in main: its arguments come from libc). */
static void entry_params(pass *p, LLVMValueRef first)
{
    unsigned n = LLVMCountParams(p->fn);
    LLVMPositionBuilderBefore(p->b, first);
    unsigned byval = LLVMGetEnumAttributeKindForName("byval", 5);
    for (unsigned i = 0; i < n; i++) {
        LLVMValueRef a = LLVMGetParam(p->fn, i);
        if (LLVMGetEnumAttributeAtIndex(p->fn, i + 1, byval)) {
            /* the code generator made this copy without its shadow: copy it from the
             * caller's source (rt_abi.h, __sym_get_byval) */
            uint64_t size = LLVMABISizeOfType(p->td, LLVMGetElementType(LLVMTypeOf(a)));
            LLVMValueRef args[3] = {c32(p, i), LLVMBuildPointerCast(p->b, a, p->p8, ""), c64(p, size)};
            rt_call(p, RT_GET_BYVAL, args, 3);
            continue;
        }
        if (p->is_main || !tracked_type(p, LLVMTypeOf(a))) continue;
        LLVMValueRef args[3] = {c32(p, i), as_i64(p, a), c32(p, bit_width(p, LLVMTypeOf(a)))};
        set_shadow(p, a, rt_call(p, RT_GET_PARAM, args, 3));
    }
    /* where the dispatch to the concrete copy may split the entry block */
    p->prologue_end = LLVMGetPreviousInstruction(first);
}

static void instrument_block(pass *p, LLVMBasicBlockRef bb, int is_entry)
{
    size_t n = 0, cap = 64;
    LLVMValueRef *insts = malloc(cap * sizeof *insts);
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && insts; i = LLVMGetNextInstruction(i)) {
        if (n == cap) {
            LLVMValueRef *ni = realloc(insts, 2 * cap * sizeof *ni);
            if (!ni) {
                free(insts);
                insts = NULL;
                break;
            }
            insts = ni;
            cap *= 2;
        }
        insts[n++] = i;
    }
    if (!insts) {
        p->oom = 1;
        return;
    }
    if (is_entry && n && !p->concrete) entry_params(p, insts[0]);
    for (size_t k = 0; k < n; k++) {
        p->cur = insts[k];
        p->next = k + 1 < n ? insts[k + 1] : NULL;
        /* inserted code carries the original instruction's line (backtraces, and the
         * verifier wants locations on inlinable calls) */
        LLVMSetCurrentDebugLocation2(p->b, LLVMInstructionGetDebugLoc(p->cur));
        instrument_inst(p);
    }
    LLVMSetCurrentDebugLocation2(p->b, NULL);
    free(insts);
}

/* Name, kind and fallback location of the function about to be instrumented. */
static void begin_function(pass *p, LLVMValueRef fn, const char *name)
{
    p->fn = fn;
    /* the helpers of a `sympath unit` harness (sympu_*) are not the program's own code */
    p->harness = strncmp(name, "sympu_", 6) == 0;
    p->user = !in_list(name, p->cfg->model_names, p->cfg->n_models) && !p->harness;
    p->is_main = !strcmp(name, "main");
    /* the program's main under --sym-args/--sym-stdin/--sym-file (build.c) keeps its name in reports */
    p->fname = !strcmp(name, "__sym_user_main") ? "main" : name;
    p->in_reach_error = !strcmp(p->fname, "reach_error");
    p->fb_line = p->fb_col = 0;
    p->fb_file = "?";
    p->prologue_end = NULL;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb && !p->fb_line; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            if (LLVMGetDebugLocLine(i)) {
                unsigned flen = 0;
                const char *f = LLVMGetDebugLocFilename(i, &flen);
                p->fb_line = LLVMGetDebugLocLine(i);
                p->fb_col = LLVMGetDebugLocColumn(i);
                p->fb_file = f && flen ? f : "?";
                break;
            }
}

static void instrument_body(pass *p, LLVMValueRef fn)
{
    unsigned nb;
    LLVMBasicBlockRef *order = rpo_blocks(fn, &nb);
    if (!order) {
        p->oom = 1;
        return;
    }
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
    for (unsigned i = 0; i < nb && !p->oom; i++) instrument_block(p, order[i], order[i] == entry);
    free(order);
    finish_phis(p);
}

/*
 * F, then its concrete-mode copy if it has one (same sites: the copy's branches are
 * looked up through the instruction pairing), then the dispatch. The shadows of F's
 * parameters are still in p->shadow for the dispatch, so it is built before clearing.
 */
static void instrument_function(pass *p, LLVMValueRef fn)
{
    size_t len;
    const char *name = LLVMGetValueName2(fn, &len);
    char *cname = util_strf("%s%s", name, CONCRETE_SUFFIX);
    if (!cname) {
        p->oom = 1;
        return;
    }
    LLVMValueRef copy = LLVMGetNamedFunction(p->m, cname);
    free(cname);
    if (copy && LLVMIsDeclaration(copy)) copy = NULL;
    if (copy && pair_instructions(p, fn, copy)) {
        p->mismatch = 1;
        return;
    }
    begin_function(p, fn, name);
    instrument_body(p, fn);
    if (copy && !p->oom) {
        ptrmap saved = p->shadow; /* F's parameter shadows, for the dispatch */
        memset(&p->shadow, 0, sizeof p->shadow);
        LLVMValueRef prologue_end = p->prologue_end;
        p->concrete = 1;
        p->fn = copy;
        instrument_body(p, copy);
        ptrmap_clear(&p->shadow);
        p->concrete = 0;
        p->fn = fn;
        p->shadow = saved;
        p->prologue_end = prologue_end;
        if (can_dispatch(p, fn)) insert_dispatch(p, fn, libc_target(p, name, fn, copy));
    }
    ptrmap_clear(&p->shadow);
    ptrmap_clear(&p->agg);
    ptrmap_clear(&p->pair);
    ptrmap_clear(&p->cmap);
    p->res->functions++;
}

int instrument_module(LLVMModuleRef m, const instr_config *cfg, site_table *sites, instr_result *res, char **err)
{
    pass P = {0}, *p = &P;
    memset(res, 0, sizeof *res);
    p->m = m;
    p->cx = LLVMGetModuleContext(m);
    p->b = LLVMCreateBuilderInContext(p->cx);
    p->td = LLVMCreateTargetData(LLVMGetDataLayoutStr(m));
    p->cfg = cfg;
    p->sites = sites;
    p->res = res;
    p->i1 = LLVMInt1TypeInContext(p->cx);
    p->i8 = LLVMInt8TypeInContext(p->cx);
    p->i32 = LLVMInt32TypeInContext(p->cx);
    p->i64 = LLVMInt64TypeInContext(p->cx);
    p->p8 = LLVMPointerType(p->i8, 0);
    p->vd = LLVMVoidTypeInContext(p->cx);
    p->null = LLVMConstPointerNull(p->p8);

    redirect_model_addresses(m);
    /* The function list first: the pass adds declarations while it runs. */
    size_t nf = 0, capf = 64;
    LLVMValueRef *fns = malloc(capf * sizeof *fns);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f && fns; f = LLVMGetNextFunction(f)) {
        size_t len;
        const char *name = LLVMGetValueName2(f, &len);
        if (!LLVMIsDeclaration(f) && !LLVMGetIntrinsicID(f) && !in_list(name, cfg->rt_fast_names, cfg->n_rt_fast))
            strip_function_memory_attrs(f);
        /* concrete-mode copies are instrumented together with their originals */
        size_t ls = strlen(CONCRETE_SUFFIX);
        if (LLVMIsDeclaration(f) || LLVMGetIntrinsicID(f) || in_list(name, cfg->rt_fast_names, cfg->n_rt_fast) ||
            (len > ls && !strcmp(name + len - ls, CONCRETE_SUFFIX)))
            continue;
        if (nf == capf) {
            LLVMValueRef *nfns = realloc(fns, 2 * capf * sizeof *nfns);
            if (!nfns) {
                free(fns);
                fns = NULL;
                break;
            }
            fns = nfns;
            capf *= 2;
        }
        fns[nf++] = f;
    }
    if (!fns) p->oom = 1;
    for (size_t i = 0; i < nf && !p->oom && !p->mismatch; i++) instrument_function(p, fns[i]);
    free(fns);
    free(p->phis);
    ptrmap_clear(&p->shadow);
    ptrmap_clear(&p->agg);
    ptrmap_clear(&p->pair);
    ptrmap_clear(&p->cmap);
    LLVMDisposeTargetData(p->td);
    LLVMDisposeBuilder(p->b);
    if (p->oom) {
        *err = util_strf("instrumentation: out of memory");
        return -1;
    }
    if (p->mismatch) {
        *err = util_strf("internal error (a bug in sympath's instrumenter): a concrete-mode copy does not "
                         "match its original, or makes a call that needs shadows");
        return -1;
    }
    return 0;
}
