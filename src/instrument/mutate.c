/* mutate.c: a mutant-schemata build of a unit: chosen functions get every mutant at once, selected at run time by a global (SYMPATH_MUTANT). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>

#include "instrument_int.h"

/*
 * Mutant schemata (Untch, Offutt and Harrold, ISSTA 1993): instead of one build per mutant,
 * each mutation point computes its mutated value next to the original and a select on
 * `__sym_mutant == K` chooses which one flows on, so one executable runs any mutant. The
 * operators are the classic ones of Mothra / Offutt et al., on LLVM IR at -O0 (as Mull does):
 * relational operator replacement (< <=, > >=, == !=, integer and floating point), arithmetic
 * (+ -, * /, / %  -> *), integer constants of comparisons, arithmetic, call arguments, stores
 * and pointer steps (c -> c+1, c -> 0 or 1), and the sign of a pointer step (p += n -> p -= n).
 * `&&`/`||` in a condition (two conditional branches sharing a target, no phi) get && <-> ||, and so do
 * `&&`/`||` as a value (`x = a && b`: a branch to a merge block whose i1 phi takes a constant from it).
 */

#define MUT_HIT_SLOTS 65536 /* __sym_mut_hit's size (the replay library's): mutants beyond are never filtered */

typedef struct mut_ctx {
    LLVMModuleRef m;
    LLVMContextRef cx;
    LLVMBuilderRef b;
    LLVMValueRef sel; /* @__sym_mutant (i32, defined by the replay library) */
    const char *fn;
    mutant_desc *v;
    size_t n, cap;
    unsigned max;
} mut_ctx;

/* New code goes right after inst, before the schemata built for it earlier (which may come to use it). */
static void at(mut_ctx *c, LLVMValueRef inst) { LLVMPositionBuilderBefore(c->b, LLVMGetNextInstruction(inst)); }

static int add_desc(mut_ctx *c, LLVMValueRef inst, const char *what)
{
    if (c->n == c->cap) {
        size_t nc = c->cap ? 2 * c->cap : 64;
        mutant_desc *nv = realloc(c->v, nc * sizeof *nv);
        if (!nv) return -1;
        c->v = nv;
        c->cap = nc;
    }
    mutant_desc *d = &c->v[c->n];
    d->function = strdup(c->fn);
    d->what = strdup(what);
    d->line = LLVMGetDebugLocLine(inst);
    if (!d->function || !d->what) {
        free(d->function);
        free(d->what);
        return -1;
    }
    c->n++;
    return 0;
}

/* Replace every use of inst, except inside the schema itself (alt, sel), by sel. */
static void redirect_uses(LLVMValueRef inst, LLVMValueRef sel)
{
    LLVMValueRef users[256];
    size_t nu = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(inst); u && nu < 256; u = LLVMGetNextUse(u)) {
        LLVMValueRef us = LLVMGetUser(u);
        if (us != sel) users[nu++] = us;
    }
    for (size_t i = 0; i < nu; i++) {
        int no = LLVMGetNumOperands(users[i]);
        for (int k = 0; k < no; k++)
            if (LLVMGetOperand(users[i], k) == inst) LLVMSetOperand(users[i], k, sel);
    }
}

/* Weak mutation (Howden 1982): __sym_mut_hit[id] |= (alt != orig), at the builder's position: in an
 * infection run (the replay library's batch id -2) it says which mutants changed a value at all, so
 * only those are run to see whether a test kills them. A value of another type marks 1 (reached). */
static void infected(mut_ctx *c, uint32_t id, LLVMValueRef alt, LLVMValueRef orig)
{
    if (id >= MUT_HIT_SLOTS) return;
    LLVMTypeRef i8 = LLVMInt8TypeInContext(c->cx), i32 = LLVMInt32TypeInContext(c->cx);
    LLVMTypeRef at = LLVMArrayType(i8, MUT_HIT_SLOTS);
    LLVMValueRef hit = LLVMGetNamedGlobal(c->m, "__sym_mut_hit");
    if (!hit) hit = LLVMAddGlobal(c->m, at, "__sym_mut_hit");
    LLVMValueRef idx[2] = {LLVMConstInt(i32, 0, 0), LLVMConstInt(i32, id, 0)};
    LLVMValueRef p = LLVMConstInBoundsGEP2(at, hit, idx, 2);
    LLVMValueRef ne = NULL;
    LLVMTypeKind k = orig ? LLVMGetTypeKind(LLVMTypeOf(orig)) : LLVMVoidTypeKind;
    if (k == LLVMIntegerTypeKind || k == LLVMPointerTypeKind)
        ne = LLVMBuildICmp(c->b, LLVMIntNE, alt, orig, "mut.ne");
    else if (k == LLVMFloatTypeKind || k == LLVMDoubleTypeKind)
        ne = LLVMBuildFCmp(c->b, LLVMRealUNE, alt, orig, "mut.ne");
    LLVMValueRef v = ne ? LLVMBuildZExt(c->b, ne, i8, "mut.hit") : LLVMConstInt(i8, 1, 0);
    LLVMValueRef old = LLVMBuildLoad2(c->b, i8, p, "mut.old");
    LLVMBuildStore(c->b, LLVMBuildOr(c->b, old, v, "mut.or"), p);
}

/* Schema for one mutant: after inst, `sel = (__sym_mutant == id) ? alt : inst`, uses of inst
 * moved to sel. alt was built at the builder's position (right after inst). */
static int schema(mut_ctx *c, LLVMValueRef inst, LLVMValueRef alt, const char *what)
{
    if (c->n >= c->max) return 0;
    uint32_t id = (uint32_t)c->n;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c->cx);
    LLVMValueRef cur = LLVMBuildLoad2(c->b, i32, c->sel, "mut.id");
    LLVMValueRef on = LLVMBuildICmp(c->b, LLVMIntEQ, cur, LLVMConstInt(i32, id, 0), "mut.on");
    LLVMValueRef sel = LLVMBuildSelect(c->b, on, alt, inst, "mut.sel");
    redirect_uses(inst, sel);
    infected(c, id, alt, inst); /* after: its comparison keeps the original value */
    if (add_desc(c, inst, what)) return -1;
    /* the next schema of the same instruction wraps this one */
    return 0;
}

static const char *pred_name(LLVMIntPredicate p)
{
    switch (p) {
    case LLVMIntEQ: return "==";
    case LLVMIntNE: return "!=";
    case LLVMIntSLT:
    case LLVMIntULT: return "<";
    case LLVMIntSLE:
    case LLVMIntULE: return "<=";
    case LLVMIntSGT:
    case LLVMIntUGT: return ">";
    default: return ">=";
    }
}

static LLVMIntPredicate ror(LLVMIntPredicate p)
{
    switch (p) {
    case LLVMIntEQ: return LLVMIntNE;
    case LLVMIntNE: return LLVMIntEQ;
    case LLVMIntSLT: return LLVMIntSLE;
    case LLVMIntSLE: return LLVMIntSLT;
    case LLVMIntSGT: return LLVMIntSGE;
    case LLVMIntSGE: return LLVMIntSGT;
    case LLVMIntULT: return LLVMIntULE;
    case LLVMIntULE: return LLVMIntULT;
    case LLVMIntUGT: return LLVMIntUGE;
    default: return LLVMIntUGT;
    }
}

static LLVMRealPredicate ror_real(LLVMRealPredicate p)
{
    switch (p) {
    case LLVMRealOLT: return LLVMRealOLE;
    case LLVMRealOLE: return LLVMRealOLT;
    case LLVMRealOGT: return LLVMRealOGE;
    case LLVMRealOGE: return LLVMRealOGT;
    case LLVMRealOEQ: return LLVMRealUNE;
    case LLVMRealUNE: return LLVMRealOEQ;
    case LLVMRealULT: return LLVMRealULE;
    case LLVMRealULE: return LLVMRealULT;
    case LLVMRealUGT: return LLVMRealUGE;
    case LLVMRealUGE: return LLVMRealUGT;
    case LLVMRealONE: return LLVMRealUEQ;
    case LLVMRealUEQ: return LLVMRealONE;
    default: return p;
    }
}

/* A small integer constant operand (the ones a developer wrote), or 0. */
static int small_const(LLVMValueRef v, long long *out)
{
    if (!LLVMIsAConstantInt(v)) return 0;
    unsigned w = LLVMGetIntTypeWidth(LLVMTypeOf(v));
    if (w < 2 || w > 64) return 0; /* i1: a boolean */
    *out = LLVMConstIntGetSExtValue(v);
    return 1;
}

/* The constant mutants of operand k of inst (c -> c+1, c -> 0, or 0 -> 1): rebuild(inst, k, c') builds the
 * alternative instruction. */
typedef LLVMValueRef (*rebuild_fn)(mut_ctx *c, LLVMValueRef inst, unsigned k, LLVMValueRef nv);

static int const_mutants(mut_ctx *c, LLVMValueRef inst, unsigned k, rebuild_fn rebuild, int allow_zero)
{
    long long v;
    LLVMValueRef op = LLVMGetOperand(inst, k);
    if (!small_const(op, &v)) return 0;
    LLVMTypeRef t = LLVMTypeOf(op);
    long long alts[2] = {v + 1, v == 0 ? 1 : 0};
    int nalt = v == 0 || !allow_zero ? 1 : 2;
    for (int a = 0; a < nalt; a++) {
        char what[96];
        snprintf(what, sizeof what, "constant %lld -> %lld", v, alts[a]);
        at(c, inst);
        LLVMValueRef alt = rebuild(c, inst, k, LLVMConstInt(t, (unsigned long long)alts[a], 1));
        if (alt && schema(c, inst, alt, what)) return -1;
    }
    return 0;
}

static LLVMValueRef rebuild_icmp(mut_ctx *c, LLVMValueRef inst, unsigned k, LLVMValueRef nv)
{
    LLVMValueRef a = k == 0 ? nv : LLVMGetOperand(inst, 0), b = k == 1 ? nv : LLVMGetOperand(inst, 1);
    return LLVMBuildICmp(c->b, LLVMGetICmpPredicate(inst), a, b, "mut.alt");
}

static LLVMValueRef rebuild_binop(mut_ctx *c, LLVMValueRef inst, unsigned k, LLVMValueRef nv)
{
    LLVMValueRef a = k == 0 ? nv : LLVMGetOperand(inst, 0), b = k == 1 ? nv : LLVMGetOperand(inst, 1);
    return LLVMBuildBinOp(c->b, LLVMGetInstructionOpcode(inst), a, b, "mut.alt");
}

/* A one-index GEP (pointer arithmetic p + n, p[n]) with its index replaced. */
static LLVMValueRef gep_with(mut_ctx *c, LLVMValueRef inst, LLVMValueRef idx)
{
    LLVMTypeRef et = LLVMGetGEPSourceElementType(inst);
    LLVMValueRef base = LLVMGetOperand(inst, 0);
    return LLVMBuildGEP2(c->b, et, base, &idx, 1, "mut.alt");
}

static LLVMValueRef rebuild_gep(mut_ctx *c, LLVMValueRef inst, unsigned k, LLVMValueRef nv)
{
    (void)k;
    return gep_with(c, inst, nv);
}

static int mutate_inst(mut_ctx *c, LLVMValueRef inst)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(inst);
    if (!LLVMGetNextInstruction(inst)) return 0;
    at(c, inst);
    char what[96];
    switch (op) {
    case LLVMICmp: {
        LLVMIntPredicate p = LLVMGetICmpPredicate(inst), q = ror(p);
        snprintf(what, sizeof what, "relational %s -> %s", pred_name(p), pred_name(q));
        LLVMValueRef alt = LLVMBuildICmp(c->b, q, LLVMGetOperand(inst, 0), LLVMGetOperand(inst, 1), "mut.alt");
        if (schema(c, inst, alt, what)) return -1;
        for (unsigned k = 0; k < 2; k++)
            if (const_mutants(c, inst, k, rebuild_icmp, 1)) return -1;
        return 0;
    }
    case LLVMFCmp: {
        LLVMRealPredicate p = LLVMGetFCmpPredicate(inst), q = ror_real(p);
        if (q == p) return 0;
        LLVMValueRef alt = LLVMBuildFCmp(c->b, q, LLVMGetOperand(inst, 0), LLVMGetOperand(inst, 1), "mut.alt");
        return schema(c, inst, alt, "relational (floating point)");
    }
    case LLVMAdd:
    case LLVMSub:
    case LLVMMul:
    case LLVMSDiv:
    case LLVMUDiv:
    case LLVMSRem:
    case LLVMURem: {
        LLVMValueRef a = LLVMGetOperand(inst, 0), b = LLVMGetOperand(inst, 1), alt = NULL;
        LLVMTypeRef t = LLVMTypeOf(inst);
        if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind) return 0;
        const char *w = NULL;
        if (op == LLVMAdd) alt = LLVMBuildSub(c->b, a, b, "mut.alt"), w = "arithmetic + -> -";
        if (op == LLVMSub) alt = LLVMBuildAdd(c->b, a, b, "mut.alt"), w = "arithmetic - -> +";
        if (op == LLVMMul) {
            /* a / b with a divisor that cannot trap: 0 and -1 become 1 */
            LLVMValueRef one = LLVMConstInt(t, 1, 0), neg = LLVMConstAllOnes(t);
            LLVMValueRef bad = LLVMBuildOr(c->b, LLVMBuildICmp(c->b, LLVMIntEQ, b, LLVMConstNull(t), "mut.z"),
                                           LLVMBuildICmp(c->b, LLVMIntEQ, b, neg, "mut.m1"), "mut.bad");
            alt = LLVMBuildSDiv(c->b, a, LLVMBuildSelect(c->b, bad, one, b, "mut.d"), "mut.alt");
            w = "arithmetic * -> /";
        }
        if (op == LLVMSDiv || op == LLVMUDiv) alt = LLVMBuildMul(c->b, a, b, "mut.alt"), w = "arithmetic / -> *";
        if (op == LLVMSRem || op == LLVMURem) alt = LLVMBuildMul(c->b, a, b, "mut.alt"), w = "arithmetic % -> *";
        if (alt && schema(c, inst, alt, w)) return -1;
        at(c, inst);
        int divisor = op == LLVMSDiv || op == LLVMUDiv || op == LLVMSRem || op == LLVMURem;
        if (const_mutants(c, inst, 0, rebuild_binop, 1)) return -1;
        return const_mutants(c, inst, 1, rebuild_binop, !divisor);
    }
    case LLVMAnd:
    case LLVMOr:
    case LLVMXor:
    case LLVMShl:
    case LLVMLShr:
    case LLVMAShr: {
        if (LLVMGetTypeKind(LLVMTypeOf(inst)) != LLVMIntegerTypeKind) return 0;
        if (LLVMGetIntTypeWidth(LLVMTypeOf(inst)) == 1) return 0; /* a boolean of the front end */
        for (unsigned k = 0; k < 2; k++)
            if (const_mutants(c, inst, k, rebuild_binop, 1)) return -1;
        return 0;
    }
    case LLVMFAdd:
    case LLVMFSub:
    case LLVMFMul:
    case LLVMFDiv: {
        LLVMValueRef a = LLVMGetOperand(inst, 0), b = LLVMGetOperand(inst, 1), alt;
        const char *w;
        if (op == LLVMFAdd)
            alt = LLVMBuildFSub(c->b, a, b, "mut.alt"), w = "arithmetic + -> - (floating point)";
        else if (op == LLVMFSub)
            alt = LLVMBuildFAdd(c->b, a, b, "mut.alt"), w = "arithmetic - -> + (floating point)";
        else if (op == LLVMFMul)
            alt = LLVMBuildFDiv(c->b, a, b, "mut.alt"), w = "arithmetic * -> / (floating point)";
        else
            alt = LLVMBuildFMul(c->b, a, b, "mut.alt"), w = "arithmetic / -> * (floating point)";
        return schema(c, inst, alt, w);
    }
    case LLVMGetElementPtr: {
        if (LLVMGetNumOperands(inst) != 2) return 0; /* a field or a row of an array: not arithmetic */
        LLVMValueRef idx = LLVMGetOperand(inst, 1);
        long long v;
        if (small_const(idx, &v)) {
            if (v != 0) {
                at(c, inst);
                snprintf(what, sizeof what, "pointer step %lld -> %lld", v, -v);
                LLVMValueRef alt = gep_with(c, inst, LLVMConstInt(LLVMTypeOf(idx), (unsigned long long)-v, 1));
                if (schema(c, inst, alt, what)) return -1;
            }
            return const_mutants(c, inst, 1, rebuild_gep, 0);
        }
        at(c, inst);
        LLVMValueRef neg = LLVMBuildNeg(c->b, idx, "mut.neg");
        return schema(c, inst, gep_with(c, inst, neg), "pointer step +n -> -n");
    }
    default: return 0;
    }
}

/* Constants stored (`size_t i = 0;`, `n = 5;`) and passed to calls: c -> c+1 (0 -> 1). The
 * schema selects the value operand. */
static int mutate_operand_const(mut_ctx *c, LLVMValueRef inst, unsigned k)
{
    long long v;
    LLVMValueRef op = LLVMGetOperand(inst, k);
    if (!small_const(op, &v)) return 0;
    if (c->n >= c->max) return 0;
    LLVMPositionBuilderBefore(c->b, inst);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c->cx);
    LLVMValueRef cur = LLVMBuildLoad2(c->b, i32, c->sel, "mut.id");
    LLVMValueRef on = LLVMBuildICmp(c->b, LLVMIntEQ, cur, LLVMConstInt(i32, (unsigned long long)c->n, 0), "mut.on");
    LLVMValueRef alt = LLVMConstInt(LLVMTypeOf(op), (unsigned long long)(v + 1), 1);
    LLVMValueRef sel = LLVMBuildSelect(c->b, on, alt, op, "mut.sel");
    infected(c, (uint32_t)c->n, NULL, NULL); /* c+1 differs from c: reached is infected */
    LLVMSetOperand(inst, k, sel);
    char what[96];
    snprintf(what, sizeof what, "constant %lld -> %lld", v, v + 1);
    return add_desc(c, inst, what);
}

static int is_intrinsic_call(LLVMValueRef inst)
{
    LLVMValueRef callee = LLVMGetCalledValue(inst);
    if (!callee || !LLVMIsAFunction(callee)) return 1; /* through a pointer: left alone */
    size_t len = 0;
    const char *name = LLVMGetValueName2(callee, &len);
    return !strncmp(name, "llvm.", 5) || !strncmp(name, "__sym", 5);
}

/* ---- && and ||: at -O0 `if (a && b)` is `A: br a, B, F` and `B: br b, T, F`; `a || b` is `A: br a, T, B`
 * and `B: br b, T, F` ---- */

typedef struct logic_site {
    LLVMValueRef term;         /* A's terminator */
    LLVMBasicBlockRef b, t, f; /* the second condition's block, the then and else blocks */
    int is_and;
} logic_site;

static int has_phi(LLVMBasicBlockRef bb)
{
    LLVMValueRef i = LLVMGetFirstInstruction(bb);
    return i && LLVMIsAPHINode(i);
}

static unsigned npreds(LLVMBasicBlockRef bb)
{
    unsigned n = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(bb)); u; u = LLVMGetNextUse(u)) n++;
    return n;
}

/* Whether br (a terminator) is the A of an && or || whose blocks have no phi (an if's condition, not a value). */
static int logic_site_of(LLVMValueRef br, logic_site *ls)
{
    if (LLVMGetInstructionOpcode(br) != LLVMBr || !LLVMIsConditional(br)) return 0;
    LLVMBasicBlockRef s0 = LLVMGetSuccessor(br, 0), s1 = LLVMGetSuccessor(br, 1);
    for (int is_and = 1; is_and >= 0; is_and--) {
        LLVMBasicBlockRef b = is_and ? s0 : s1, other = is_and ? s1 : s0;
        LLVMValueRef bt = LLVMGetBasicBlockTerminator(b);
        if (!bt || LLVMGetInstructionOpcode(bt) != LLVMBr || !LLVMIsConditional(bt) || npreds(b) != 1) continue;
        LLVMBasicBlockRef t = LLVMGetSuccessor(bt, 0), f = LLVMGetSuccessor(bt, 1);
        if (t == f || (is_and ? f : t) != other || has_phi(b) || has_phi(t) || has_phi(f)) continue;
        ls->term = br, ls->b = b, ls->t = t, ls->f = f, ls->is_and = is_and;
        return 1;
    }
    return 0;
}

/* A becomes `br (__sym_mutant == id), M, O` with O the original branch and M the other operator's. */
static int mutate_logic(mut_ctx *c, LLVMValueRef f, const logic_site *ls)
{
    if (c->n >= c->max) return 0;
    uint32_t id = (uint32_t)c->n;
    LLVMValueRef cond = LLVMGetCondition(ls->term);
    LLVMBasicBlockRef m = LLVMAppendBasicBlockInContext(c->cx, f, "mut.logic");
    LLVMBasicBlockRef o = LLVMAppendBasicBlockInContext(c->cx, f, "mut.orig");
    LLVMPositionBuilderAtEnd(c->b, m);
    if (ls->is_and)
        LLVMBuildCondBr(c->b, cond, ls->t, ls->b); /* a || b */
    else
        LLVMBuildCondBr(c->b, cond, ls->b, ls->f); /* a && b */
    LLVMPositionBuilderAtEnd(c->b, o);
    if (ls->is_and)
        LLVMBuildCondBr(c->b, cond, ls->b, ls->f);
    else
        LLVMBuildCondBr(c->b, cond, ls->t, ls->b);
    LLVMPositionBuilderBefore(c->b, ls->term);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c->cx);
    LLVMValueRef cur = LLVMBuildLoad2(c->b, i32, c->sel, "mut.id");
    LLVMValueRef on = LLVMBuildICmp(c->b, LLVMIntEQ, cur, LLVMConstInt(i32, id, 0), "mut.on");
    infected(c, id, NULL, NULL); /* reached: the other operator may take another way */
    LLVMBuildCondBr(c->b, on, m, o);
    if (add_desc(c, ls->term, ls->is_and ? "logical && -> ||" : "logical || -> &&")) return -1;
    LLVMInstructionEraseFromParent(ls->term);
    return 0;
}

/* ---- && and || as a value: at -O0 `x = a && b` is `A: br a, R, M` with `M: phi i1 [false, A], [b, ...]`;
 * `a || b` is `A: br a, M, R` with `phi i1 [true, A], ...` ---- */

typedef struct logic_value_site {
    LLVMValueRef term; /* A's terminator */
    LLVMValueRef phi;  /* M's phi of the operator's value */
    unsigned in;       /* the phi's incoming index from A */
    int is_and;
} logic_value_site;

/* Whether br (a terminator) is the A of an && or || whose value a phi at the merge block takes. */
static int logic_value_site_of(LLVMValueRef br, logic_value_site *lv)
{
    if (LLVMGetInstructionOpcode(br) != LLVMBr || !LLVMIsConditional(br)) return 0;
    LLVMBasicBlockRef a = LLVMGetInstructionParent(br);
    for (int is_and = 1; is_and >= 0; is_and--) {
        LLVMBasicBlockRef m = LLVMGetSuccessor(br, is_and ? 1 : 0), r = LLVMGetSuccessor(br, is_and ? 0 : 1);
        if (m == r) continue;
        for (LLVMValueRef phi = LLVMGetFirstInstruction(m); phi && LLVMIsAPHINode(phi);
             phi = LLVMGetNextInstruction(phi)) {
            if (LLVMTypeOf(phi) != LLVMInt1TypeInContext(LLVMGetTypeContext(LLVMTypeOf(phi)))) continue;
            unsigned n = LLVMCountIncoming(phi);
            for (unsigned k = 0; k < n; k++) {
                LLVMValueRef v = LLVMGetIncomingValue(phi, k);
                if (LLVMGetIncomingBlock(phi, k) != a || !LLVMIsAConstantInt(v)) continue;
                if (LLVMConstIntGetZExtValue(v) != (is_and ? 0u : 1u)) continue;
                lv->term = br, lv->phi = phi, lv->in = k, lv->is_and = is_and;
                return 1;
            }
        }
    }
    return 0;
}

/* The mutant takes the other operator: A branches on `a xor on` and gives the phi `const xor on` (on:
 * __sym_mutant == id); `a || b` then goes on to b when a is false and is true when a is. */
static int mutate_logic_value(mut_ctx *c, const logic_value_site *lv)
{
    if (c->n >= c->max) return 0;
    uint32_t id = (uint32_t)c->n;
    LLVMValueRef cond = LLVMGetCondition(lv->term);
    LLVMPositionBuilderBefore(c->b, lv->term);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c->cx);
    LLVMValueRef cur = LLVMBuildLoad2(c->b, i32, c->sel, "mut.id");
    LLVMValueRef on = LLVMBuildICmp(c->b, LLVMIntEQ, cur, LLVMConstInt(i32, id, 0), "mut.on");
    infected(c, id, NULL, NULL); /* reached: the other operator may take another way */
    LLVMSetCondition(lv->term, LLVMBuildXor(c->b, cond, on, "mut.cond"));
    LLVMValueRef k = LLVMGetIncomingValue(lv->phi, lv->in);
    LLVMSetOperand(lv->phi, lv->in, LLVMBuildXor(c->b, k, on, "mut.val"));
    return add_desc(c, lv->term, lv->is_and ? "logical && -> ||" : "logical || -> &&");
}

static int mutate_function(mut_ctx *c, LLVMValueRef f)
{
    /* the instructions as they were: the schemata add new ones */
    size_t cap = 256, n = 0;
    LLVMValueRef *insts = malloc(cap * sizeof *insts);
    if (!insts) return -1;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            if (n == cap) {
                LLVMValueRef *ni = realloc(insts, 2 * cap * sizeof *ni);
                if (!ni) {
                    free(insts);
                    return -1;
                }
                insts = ni;
                cap *= 2;
            }
            insts[n++] = i;
        }
    /* the && and || sites, found before any branch changes */
    logic_site *ls = calloc(n + 1, sizeof *ls);
    logic_value_site *lvs = calloc(n + 1, sizeof *lvs);
    size_t nls = 0, nlv = 0;
    for (size_t k = 0; ls && lvs && k < n; k++) {
        if (logic_site_of(insts[k], &ls[nls]))
            nls++;
        else if (logic_value_site_of(insts[k], &lvs[nlv]))
            nlv++;
    }
    int rc = 0;
    for (size_t k = 0; k < n && !rc; k++) {
        LLVMValueRef i = insts[k];
        LLVMOpcode op = LLVMGetInstructionOpcode(i);
        if (op == LLVMBr) {
            for (size_t q = 0; q < nls && !rc; q++)
                if (ls[q].term == i) rc = mutate_logic(c, f, &ls[q]);
            for (size_t q = 0; q < nlv && !rc; q++)
                if (lvs[q].term == i) rc = mutate_logic_value(c, &lvs[q]);
        } else if (op == LLVMStore)
            rc = mutate_operand_const(c, i, 0);
        else if (op == LLVMCall) {
            if (is_intrinsic_call(i)) continue;
            unsigned na = (unsigned)LLVMGetNumArgOperands(i);
            for (unsigned a = 0; a < na && !rc; a++) rc = mutate_operand_const(c, i, a);
        } else
            rc = mutate_inst(c, i);
    }
    free(ls);
    free(lvs);
    free(insts);
    return rc;
}

static int wanted(const mutant_build_opts *o, const char *name)
{
    for (size_t i = 0; i < o->nfunctions; i++) {
        if (!strcmp(name, o->functions[i])) return 1;
        if (!strncmp(name, "__real_", 7) && !strcmp(name + 7, o->functions[i])) return 1;
    }
    return 0;
}

void mutant_descs_free(mutant_desc *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(v[i].function);
        free(v[i].what);
    }
    free(v);
}

/* Run the compiler: o->compile, then words[0..n); 0, or -1 with *err "cannot WHAT:" and its diagnostics. */
static int run_compiler(const mutant_build_opts *o, const char *const *words, size_t n, const char *log,
                        const char *what, char **err)
{
    char **argv = calloc(o->ncompile + n + 1, sizeof *argv);
    if (!argv) return -1;
    size_t k = 0;
    for (size_t j = 0; j < o->ncompile; j++) argv[k++] = (char *)o->compile[j];
    for (size_t j = 0; j < n; j++) argv[k++] = (char *)words[j];
    char *output = NULL;
    int st = run_logged(argv, log, &output);
    free(argv);
    if (st != 0) *err = util_strf("cannot %s:\n%s", what, output ? output : "");
    free(output);
    return st != 0 ? -1 : 0;
}

/* Give the wanted functions of bitcode file bc their schemata (c->n counts on), and write it back. */
static int mutate_module(mut_ctx *c, const mutant_build_opts *o, const char *bc, char **err)
{
    LLVMContextRef cx = LLVMContextCreate();
    LLVMMemoryBufferRef buf;
    char *msg = NULL;
    LLVMModuleRef m = NULL;
    if (LLVMCreateMemoryBufferWithContentsOfFile(bc, &buf, &msg) || LLVMParseBitcodeInContext2(cx, buf, &m)) {
        *err = util_strf("cannot read %s: %s", bc, msg ? msg : "?");
        LLVMDisposeMessage(msg);
        LLVMContextDispose(cx);
        return -1;
    }
    LLVMDisposeMemoryBuffer(buf);
    c->m = m;
    c->cx = cx;
    c->b = LLVMCreateBuilderInContext(cx);
    c->sel = LLVMGetNamedGlobal(m, "__sym_mutant");
    if (!c->sel) c->sel = LLVMAddGlobal(m, LLVMInt32TypeInContext(cx), "__sym_mutant");
    int rc = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f && !rc; f = LLVMGetNextFunction(f)) {
        size_t len = 0;
        const char *name = LLVMGetValueName2(f, &len);
        if (LLVMCountBasicBlocks(f) == 0 || !wanted(o, name)) continue;
        c->fn = !strncmp(name, "__real_", 7) ? name + 7 : name;
        rc = mutate_function(c, f);
    }
    LLVMDisposeBuilder(c->b);
    if (rc == 0 && write_bitcode_file(m, bc) != 0) rc = -1;
    if (rc) *err = util_strf("cannot write the mutants of %s", bc);
    LLVMDisposeModule(m);
    LLVMContextDispose(cx);
    return rc;
}

int build_mutants(const mutant_build_opts *o, mutant_desc **out, size_t *nout, char **err)
{
    *out = NULL;
    *nout = 0;
    *err = NULL;
    mut_ctx c;
    memset(&c, 0, sizeof c);
    c.max = o->max_mutants ? o->max_mutants : 1000;
    char **bcs = calloc(o->nsources + 1, sizeof *bcs);
    const char **link = calloc(o->nsources + o->nlink + 3, sizeof *link);
    char *log = util_strf("%s/mutants.log", o->work_dir);
    int rc = -1;
    if (!bcs || !link || !log) goto out;
    for (size_t i = 0; i < o->nsources; i++) {
        bcs[i] = util_strf("%s/mutant_%zu.bc", o->work_dir, i);
        if (!bcs[i]) goto out;
        const char *words[] = {"-c", "-emit-llvm", o->sources[i], "-o", bcs[i]};
        char *what = util_strf("compile %s for the mutants", o->sources[i]);
        int crc = what ? run_compiler(o, words, 5, log, what, err) : -1;
        free(what);
        if (crc || mutate_module(&c, o, bcs[i], err)) goto out;
    }
    size_t k = 0;
    for (size_t j = 0; j < o->nsources; j++) link[k++] = bcs[j];
    for (size_t j = 0; j < o->nlink; j++) link[k++] = o->link[j];
    link[k++] = "-o";
    link[k++] = o->exe_path;
    if (run_compiler(o, link, k, log, "link the mutants", err)) goto out;
    rc = 0;
    *out = c.v;
    *nout = c.n;
    c.v = NULL;
out:
    if (rc) mutant_descs_free(c.v, c.n);
    for (size_t i = 0; bcs && i < o->nsources; i++) free(bcs[i]);
    free(bcs);
    free(link);
    free(log);
    return rc;
}
