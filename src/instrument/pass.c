/* pass.c: the instrumentation pass's visitor: one handler per instruction kind (integer arithmetic, comparisons, casts, select, phi, branches, switches, returns) and the dispatch by opcode. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "pass.h"
#include "../expr/expr.h"
#include "../proto/trace.h"
#include "../runtime/rt_abi.h"
#include "util/util.h"

/*
 * The scheme is SymCC's: every integer or pointer SSA value V (at most 64 bits) gets
 * a shadow S(V), an i8* SSA value holding the runtime's `struct expr *` for V, or
 * NULL when V is concrete. S(constant) is the null constant, so an operation whose
 * operands are all statically concrete gets no runtime call at all; the others call
 * the rt_abi.h entry point, whose inlined fast path (rt_fast.bc) tests the shadows
 * for NULL at run time. Memory is shadowed by the runtime (__sym_load/__sym_store).
 *
 * Blocks are visited in reverse post-order, so the definition of every value
 * (and therefore its shadow) is seen before its uses; phis are the exception and
 * get their shadow phi's incoming values once the whole function is done. Only the
 * instructions that were in a block before we touched it are instrumented.
 */

/* ---- integer arithmetic, comparisons, casts ---- */

static void do_binop(pass *p, uint32_t op)
{
    LLVMValueRef a = LLVMGetOperand(p->cur, 0), b = LLVMGetOperand(p->cur, 1);
    if (is_vector(p->cur)) {
        count_unsupported(p, "vector integer arithmetic");
        return;
    }
    if (!tracked_type(p, LLVMTypeOf(p->cur))) return; /* wider than 64 bits: its operands have no shadows either */
    LLVMValueRef sa = shadow_of(p, a), sb = shadow_of(p, b);
    if (is_null_shadow(p, sa) && is_null_shadow(p, sb)) return;
    /* Before the instruction: a division by a symbolic zero must be recorded before it traps. */
    at_before(p);
    LLVMValueRef args[6] = {c32(p, op), c32(p, bit_width(p, LLVMTypeOf(a))), sa, as_i64(p, a), sb, as_i64(p, b)};
    set_shadow(p, p->cur, rt_call(p, RT_BINOP, args, 6));
}

/* LLVM's predicate enum starts at 32 and is ordered differently from nothing else,
 * but translate explicitly rather than rely on arithmetic. */
static uint32_t pred_of(LLVMIntPredicate pr)
{
    switch (pr) {
    case LLVMIntEQ: return PRED_EQ;
    case LLVMIntNE: return PRED_NE;
    case LLVMIntUGT: return PRED_UGT;
    case LLVMIntUGE: return PRED_UGE;
    case LLVMIntULT: return PRED_ULT;
    case LLVMIntULE: return PRED_ULE;
    case LLVMIntSGT: return PRED_SGT;
    case LLVMIntSGE: return PRED_SGE;
    case LLVMIntSLT: return PRED_SLT;
    default: return PRED_SLE;
    }
}

static void do_icmp(pass *p)
{
    LLVMValueRef a = LLVMGetOperand(p->cur, 0), b = LLVMGetOperand(p->cur, 1);
    if (is_vector(a)) {
        count_unsupported(p, "vector icmp");
        return;
    }
    if (!tracked_type(p, LLVMTypeOf(a))) return;
    LLVMValueRef sa = shadow_of(p, a), sb = shadow_of(p, b);
    if (is_null_shadow(p, sa) && is_null_shadow(p, sb)) return;
    at_before(p);
    LLVMValueRef args[6] = {c32(p, pred_of(LLVMGetICmpPredicate(p->cur))),
                            c32(p, bit_width(p, LLVMTypeOf(a))),
                            sa,
                            as_i64(p, a),
                            sb,
                            as_i64(p, b)};
    set_shadow(p, p->cur, rt_call(p, RT_ICMP, args, 6));
}

/* trunc, zext, sext */
static void do_intcast(pass *p, uint32_t op)
{
    LLVMValueRef a = LLVMGetOperand(p->cur, 0);
    if (is_vector(a)) {
        count_unsupported(p, "vector cast");
        return;
    }
    LLVMValueRef s = shadow_of(p, a);
    if (is_null_shadow(p, s)) return;
    unsigned from = bit_width(p, LLVMTypeOf(a)), to = bit_width(p, LLVMTypeOf(p->cur));
    at_before(p);
    if (to > 64) {
        concretize(p, CONC_WIDE_INT, s);
        return;
    }
    set_shadow(p, p->cur, resize_shadow(p, op, from, to, s));
}

/* ptrtoint, inttoptr, bitcast, addrspacecast, freeze: the value is unchanged, so is its shadow
 * (up to a width change between a pointer's 64 bits and the integer's width). */
static void do_passthrough(pass *p)
{
    LLVMValueRef a = LLVMGetOperand(p->cur, 0);
    LLVMTypeRef from_t = LLVMTypeOf(a), to_t = LLVMTypeOf(p->cur);
    LLVMValueRef s = shadow_of(p, a);
    if (is_vector(a) || is_vector(p->cur)) {
        count_unsupported(p, "vector cast");
        at_before(p);
        concretize(p, CONC_UNSUPPORTED, s);
        return;
    }
    if (is_null_shadow(p, s)) return;
    at_before(p);
    if (!tracked_type(p, to_t)) {
        LLVMTypeKind k = LLVMGetTypeKind(to_t);
        int fp = k == LLVMFloatTypeKind || k == LLVMDoubleTypeKind || k == LLVMHalfTypeKind ||
                 k == LLVMX86_FP80TypeKind || k == LLVMFP128TypeKind || k == LLVMBFloatTypeKind;
        concretize(p, fp ? CONC_FLOAT : k == LLVMIntegerTypeKind ? CONC_WIDE_INT : CONC_AGGREGATE, s);
        return;
    }
    unsigned from = bit_width(p, from_t), to = bit_width(p, to_t);
    set_shadow(p, p->cur, resize_shadow(p, to < from ? EXPR_EXTRACT : EXPR_ZEXT, from, to, s));
}

static void do_select(pass *p)
{
    LLVMValueRef c = LLVMGetOperand(p->cur, 0), t = LLVMGetOperand(p->cur, 1), e = LLVMGetOperand(p->cur, 2);
    LLVMValueRef sc = shadow_of(p, c), st = shadow_of(p, t), se = shadow_of(p, e);
    if (is_vector(c) || is_vector(p->cur)) {
        count_unsupported(p, "vector select");
        return;
    }
    if (!tracked_type(p, LLVMTypeOf(p->cur))) {
        /* float/aggregate chosen by a symbolic condition: the dependence is lost */
        at_before(p);
        concretize(p, LLVMGetTypeKind(LLVMTypeOf(p->cur)) == LLVMIntegerTypeKind ? CONC_WIDE_INT : CONC_FLOAT, sc);
        return;
    }
    if (is_null_shadow(p, sc) && is_null_shadow(p, st) && is_null_shadow(p, se)) return;
    at_before(p);
    LLVMValueRef args[7] = {
        c32(p, bit_width(p, LLVMTypeOf(p->cur))), sc, as_i64(p, c), st, as_i64(p, t), se, as_i64(p, e)};
    set_shadow(p, p->cur, rt_call(p, RT_SELECT, args, 7));
}

/* A shadow phi right before the original (phis stay grouped at the block start);
 * its incoming values are added by finish_phis once every block is done. */
static void do_phi(pass *p)
{
    if (!tracked_type(p, LLVMTypeOf(p->cur))) return;
    at_before(p);
    LLVMValueRef sp = LLVMBuildPhi(p->b, p->p8, "sym");
    set_shadow(p, p->cur, sp);
    if (p->nphis + 2 > p->capphis) {
        size_t ncap = p->capphis ? p->capphis * 2 : 64;
        LLVMValueRef *np = realloc(p->phis, ncap * sizeof *np);
        if (!np) {
            p->oom = 1;
            return;
        }
        p->phis = np;
        p->capphis = ncap;
    }
    p->phis[p->nphis++] = p->cur;
    p->phis[p->nphis++] = sp;
}

void finish_phis(pass *p)
{
    for (size_t i = 0; i < p->nphis; i += 2) {
        LLVMValueRef phi = p->phis[i], sp = p->phis[i + 1];
        unsigned n = LLVMCountIncoming(phi);
        for (unsigned k = 0; k < n; k++) {
            LLVMValueRef s = shadow_of(p, LLVMGetIncomingValue(phi, k));
            LLVMBasicBlockRef bb = LLVMGetIncomingBlock(phi, k);
            LLVMAddIncoming(sp, &s, &bb, 1);
        }
    }
    p->nphis = 0;
}

/* ---- control flow ---- */

static void add_site(pass *p, uint32_t ndirs, const char *kind, uint32_t *id, uint32_t *slot_base)
{
    if (p->concrete) { /* the copy reports its original's site */
        clone_fetch(p, id, slot_base);
        return;
    }
    unsigned line, col;
    const char *file;
    inst_loc(p, p->cur, &line, &col, &file);
    if (sites_add_site(p->sites, ndirs, p->user, line, col, file, p->fname, kind, id, slot_base)) p->oom = 1;
    if (p->user) p->res->user_sites++;
    clone_record(p, *id, *slot_base);
}

/*
 * The last operand of a short-circuit `a && b` / `a || b` whose value is used (clang -O0 gives a
 * `while`'s condition, a `return`'s or an assignment's this shape): block B computes b and jumps
 * unconditionally to a block whose i1 phi takes b from B and constants from the operands before.
 * The phi's own br (if any) merges "b false" with "a false", so a direction covered by one hides
 * the other (`while (s[i] != 0 && i < n)` stopping at the NUL covered the loop's exit, and the
 * search never looked for a text longer than n). Like gcov, which counts each operand, b gets a
 * site of its own here, reported before B's br without changing the control flow.
 */
static void short_circuit_site(pass *p)
{
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(p->cur), succ = LLVMGetSuccessor(p->cur, 0);
    for (LLVMValueRef phi = LLVMGetFirstInstruction(succ); phi && LLVMIsAPHINode(phi);
         phi = LLVMGetNextInstruction(phi)) {
        LLVMTypeRef t = LLVMTypeOf(phi);
        if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(t) != 1) continue;
        LLVMValueRef v = NULL;
        int consts = 0;
        for (unsigned k = 0; k < LLVMCountIncoming(phi); k++) {
            LLVMValueRef in = LLVMGetIncomingValue(phi, k);
            if (LLVMGetIncomingBlock(phi, k) == bb)
                v = in;
            else if (LLVMIsAConstantInt(in))
                consts++;
        }
        if (!v || !consts || !LLVMIsAInstruction(v)) continue;
        LLVMValueRef br = p->cur;
        uint32_t id, slot;
        p->cur = v; /* the site is where b is */
        add_site(p, 2, "br", &id, &slot);
        p->cur = br;
        at_before(p);
        LLVMValueRef args[4] = {c32(p, id), c32(p, slot), LLVMBuildZExt(p->b, v, p->i32, ""), shadow_of(p, v)};
        rt_call(p, RT_BRANCH, args, 4);
        return; /* one site per operand, however many phis take it */
    }
}

/* Conditional br: a site with slots false = slot_base, true = slot_base + 1. */
static void do_br(pass *p)
{
    if (!LLVMIsConditional(p->cur)) {
        short_circuit_site(p);
        return;
    }
    LLVMValueRef c = LLVMGetCondition(p->cur);
    uint32_t id, slot;
    add_site(p, 2, "br", &id, &slot);
    at_before(p);
    LLVMValueRef args[4] = {c32(p, id), c32(p, slot), LLVMBuildZExt(p->b, c, p->i32, ""), shadow_of(p, c)};
    rt_call(p, RT_BRANCH, args, 4);
}

/*
 * switch: one coverage slot per distinct destination block (as gcov counts switch
 * branches), the default's first; cases sharing a destination share its slot. The
 * case values and their slots go into two private constant arrays.
 */
static void do_switch(pass *p)
{
    LLVMValueRef I = p->cur, v = LLVMGetOperand(I, 0);
    if (!tracked_type(p, LLVMTypeOf(v))) {
        count_unsupported(p, "switch on integer wider than 64 bits");
        return;
    }
    unsigned ncases = ((unsigned)LLVMGetNumOperands(I) - 2) / 2;
    LLVMBasicBlockRef *dests = malloc((ncases + 1) * sizeof *dests);
    LLVMValueRef *vals = malloc((ncases + 1) * sizeof *vals), *slots = malloc((ncases + 1) * sizeof *slots);
    if (!dests || !vals || !slots) {
        free(dests), free(vals), free(slots);
        p->oom = 1;
        return;
    }
    unsigned ndest = 0;
    dests[ndest++] = LLVMGetSwitchDefaultDest(I);
    unsigned *which = (unsigned *)malloc((ncases + 1) * sizeof *which);
    if (!which) {
        free(dests), free(vals), free(slots);
        p->oom = 1;
        return;
    }
    for (unsigned i = 0; i < ncases; i++) {
        LLVMBasicBlockRef d = LLVMGetSuccessor(I, i + 1);
        unsigned k = 0;
        while (k < ndest && dests[k] != d) k++;
        if (k == ndest) dests[ndest++] = d;
        which[i] = k;
    }
    uint32_t id, slot;
    add_site(p, ndest, "switch", &id, &slot);
    for (unsigned i = 0; i < ncases; i++) {
        vals[i] = LLVMConstInt(p->i64, LLVMConstIntGetZExtValue(LLVMGetOperand(I, 2 + 2 * i)), 0);
        slots[i] = c32(p, slot + which[i]);
    }
    LLVMValueRef gcases = p->null, gslots = p->null;
    if (ncases) {
        gcases = LLVMAddGlobal(p->m, LLVMArrayType(p->i64, ncases), "__sym_switch_cases");
        LLVMSetInitializer(gcases, LLVMConstArray(p->i64, vals, ncases));
        gslots = LLVMAddGlobal(p->m, LLVMArrayType(p->i32, ncases), "__sym_switch_slots");
        LLVMSetInitializer(gslots, LLVMConstArray(p->i32, slots, ncases));
        LLVMValueRef g[2] = {gcases, gslots};
        for (int k = 0; k < 2; k++) {
            LLVMSetGlobalConstant(g[k], 1);
            LLVMSetLinkage(g[k], LLVMPrivateLinkage);
            LLVMSetUnnamedAddress(g[k], LLVMGlobalUnnamedAddr);
        }
    }
    at_before(p);
    LLVMValueRef args[8] = {
        c32(p, id),  c32(p, bit_width(p, LLVMTypeOf(v))), as_i64(p, v), shadow_of(p, v), gcases, gslots, c32(p, ncases),
        c32(p, slot)};
    rt_call(p, RT_SWITCH, args, 8);
    free(dests), free(vals), free(slots), free(which);
}

static void do_ret(pass *p)
{
    if (LLVMGetNumOperands(p->cur) < 1) return;
    LLVMValueRef v = LLVMGetOperand(p->cur, 0);
    if (agg_tracked_type(p, LLVMTypeOf(v))) {
        agg_ret(p, v);
        return;
    }
    if (!tracked_type(p, LLVMTypeOf(v))) return;
    at_before(p);
    LLVMValueRef s = shadow_of(p, v);
    rt_call(p, RT_SET_RET, &s, 1);
}

/* ---- dispatch ---- */

static const char *opcode_name(LLVMOpcode op)
{
    switch (op) {
    case LLVMIndirectBr: return "indirectbr";
    case LLVMInvoke: return "invoke";
    case LLVMCallBr: return "callbr";
    case LLVMResume: return "resume";
    case LLVMLandingPad: return "landingpad";
    case LLVMCleanupRet: return "cleanupret";
    case LLVMCatchRet: return "catchret";
    case LLVMCatchPad: return "catchpad";
    case LLVMCleanupPad: return "cleanuppad";
    case LLVMCatchSwitch: return "catchswitch";
    case LLVMVAArg: return "va_arg";
    case LLVMExtractElement: return "extractelement";
    case LLVMInsertElement: return "insertelement";
    case LLVMShuffleVector: return "shufflevector";
    case LLVMUserOp1:
    case LLVMUserOp2: return "userop";
    default: return "unknown instruction";
    }
}

/* Concrete mode: no value is symbolic, so only coverage, error hooks and the calls'
 * targets remain; everything else of the copy runs as compiled. */
static void instrument_inst_concrete(pass *p)
{
    switch (LLVMGetInstructionOpcode(p->cur)) {
    case LLVMBr: do_br(p); break;
    case LLVMSwitch: do_switch(p); break;
    case LLVMCall: do_call_concrete(p); break;
    default: break;
    }
}

void instrument_inst(pass *p)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(p->cur);
    if (p->concrete) {
        instrument_inst_concrete(p);
        return;
    }
    switch (op) {
    case LLVMAdd: do_binop(p, EXPR_ADD); break;
    case LLVMSub: do_binop(p, EXPR_SUB); break;
    case LLVMMul: do_binop(p, EXPR_MUL); break;
    case LLVMUDiv: do_binop(p, EXPR_UDIV); break;
    case LLVMSDiv: do_binop(p, EXPR_SDIV); break;
    case LLVMURem: do_binop(p, EXPR_UREM); break;
    case LLVMSRem: do_binop(p, EXPR_SREM); break;
    case LLVMShl: do_binop(p, EXPR_SHL); break;
    case LLVMLShr: do_binop(p, EXPR_LSHR); break;
    case LLVMAShr: do_binop(p, EXPR_ASHR); break;
    case LLVMAnd: do_binop(p, EXPR_AND); break;
    case LLVMOr: do_binop(p, EXPR_OR); break;
    case LLVMXor: do_binop(p, EXPR_XOR); break;
    case LLVMICmp: do_icmp(p); break;
    case LLVMTrunc: do_intcast(p, EXPR_EXTRACT); break;
    case LLVMZExt: do_intcast(p, EXPR_ZEXT); break;
    case LLVMSExt: do_intcast(p, EXPR_SEXT); break;
    case LLVMPtrToInt:
    case LLVMIntToPtr:
    case LLVMBitCast:
    case LLVMAddrSpaceCast:
    case LLVMFreeze: do_passthrough(p); break;
    case LLVMFNeg:
    case LLVMFAdd:
    case LLVMFSub:
    case LLVMFMul:
    case LLVMFDiv:
    case LLVMFRem:
    case LLVMFCmp:
    case LLVMFPToSI:
    case LLVMFPToUI:
    case LLVMSIToFP:
    case LLVMUIToFP:
    case LLVMFPTrunc:
    case LLVMFPExt: do_fp_inst(p); break;
    case LLVMSelect: do_select(p); break;
    case LLVMPHI: do_phi(p); break;
    case LLVMGetElementPtr: do_gep(p); break;
    case LLVMLoad: do_load(p); break;
    case LLVMStore: do_store(p); break;
    case LLVMAlloca: do_alloca(p); break;
    case LLVMBr: do_br(p); break;
    case LLVMSwitch: do_switch(p); break;
    case LLVMRet: do_ret(p); break;
    case LLVMCall: do_call(p); break;
    case LLVMExtractValue: do_extractvalue(p); break;
    case LLVMInsertValue: do_insertvalue(p); break;
    case LLVMAtomicRMW: do_atomic(p, "atomicrmw", 0, 1); break;
    case LLVMAtomicCmpXchg: do_atomic(p, "cmpxchg", 0, 1); break;
    /* instructions without values */
    case LLVMUnreachable:
    case LLVMFence: break;
    default:
        count_unsupported(p, opcode_name(op));
        lose_operands(p, CONC_UNSUPPORTED);
        break;
    }
}
