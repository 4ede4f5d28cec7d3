/* rt_abi.h: every runtime entry point the instrumenter inserts calls to; the one contract between instrument/ and runtime/. */
#ifndef SYMPATH_RT_ABI_H
#define SYMPATH_RT_ABI_H

#include <stdint.h>

/*
 * Conventions (as in SymCC): a shadow expression is a `struct expr *`; NULL means
 * "this value is concrete". Every entry point that builds an expression first
 * checks whether all its symbolic operands are NULL and returns NULL at once:
 * these fast paths live in rt_fast.c, which is compiled to bitcode and linked into
 * the instrumented module, so after -O2 inlining a purely concrete operation costs
 * one compare-and-branch. The slow paths live in libsympath-rt.a.
 *
 * Concrete operand values are passed zero-extended to 64 bits; `width` is the
 * LLVM integer width in bits (1..64). Pointers are 64-bit integers here.
 * Integers wider than 64 bits are never passed: the instrumenter concretizes them
 * (__sym_concretize(CONC_WIDE_INT, ...)).
 */

struct expr;
typedef struct expr *symx; /* shadow expression, NULL = concrete */

/* Integer binary operator. op is an expr_op in EXPR_ADD..EXPR_XOR (add, sub, mul,
 * udiv, sdiv, urem, srem, shl, lshr, ashr, and, or, xor). For the four division
 * operators with a symbolic divisor the runtime also records a BK_CHECK event
 * (divisor == 0, and for sdiv/srem INT_MIN / -1) so the explorer can try to crash. */
symx __sym_binop(uint32_t op, uint32_t width, symx a, uint64_t av, symx b, uint64_t bv);
/* icmp with an expr_pred (LLVM order: eq ne ugt uge ult ule sgt sge slt sle); width of
 * the operands; result has width 1. */
symx __sym_icmp(uint32_t pred, uint32_t width, symx a, uint64_t av, symx b, uint64_t bv);
/* trunc/zext/sext: op is EXPR_EXTRACT (trunc), EXPR_ZEXT or EXPR_SEXT; widths in bits. */
symx __sym_cast(uint32_t op, uint32_t from_width, uint32_t to_width, symx a);
/* select c ? t : e on integers/pointers of `width` bits (c has width 1). */
symx __sym_select(uint32_t width, symx c, uint64_t cv, symx t, uint64_t tv, symx e, uint64_t ev);
/* Overflow flag of llvm.{s,u}{add,sub,mul}.with.overflow: op in EXPR_UADDO..EXPR_SMULO.
 * Result width 1. (The arithmetic result itself is built with __sym_binop.) */
symx __sym_overflow(uint32_t op, uint32_t width, symx a, uint64_t av, symx b, uint64_t bv);

/* Integer intrinsics, modelled by composing expressions. keep in this ORDER. */
enum sym_intrinsic {
    SYM_I_BSWAP = 0,
    SYM_I_CTPOP,
    SYM_I_CTLZ,
    SYM_I_CTTZ,
    SYM_I_BITREVERSE,
    SYM_I_ABS,
    SYM_I_SMIN,
    SYM_I_SMAX,
    SYM_I_UMIN,
    SYM_I_UMAX,
    SYM_I_FSHL,
    SYM_I_FSHR,
    SYM_I_UADD_SAT,
    SYM_I_USUB_SAT,
    SYM_I_SADD_SAT,
    SYM_I_SSUB_SAT,
    SYM_I_COUNT
};
/* Apply intrinsic `which` (enum sym_intrinsic) at `width` bits to up to three operands
 * (unused ones: NULL, 0). For ctlz/cttz/abs the second operand is the LLVM
 * "is_zero_poison"/"is_int_min_poison" flag and is ignored. */
symx __sym_intrinsic(uint32_t which, uint32_t width, symx a, uint64_t av, symx b, uint64_t bv, symx c, uint64_t cv);

/*
 * Floating point (expr.h, "Floating point"). A float or double value travels as its
 * IEEE bit pattern zero-extended to 64 bits, and its shadow is an expression of 32 or
 * 64 bits, so select, phi, load, store, parameters and bitcasts treat it as an integer.
 * keep in this ORDER (the pass emits these numbers).
 */
enum sym_fp {
    SYM_F_ADD = 0,
    SYM_F_SUB,
    SYM_F_MUL,
    SYM_F_DIV,
    SYM_F_REM, /* fadd fsub fmul fdiv frem */
    SYM_F_NEG,
    SYM_F_ABS,
    SYM_F_COPYSIGN, /* sign-bit operations */
    SYM_F_SQRT,
    SYM_F_FMA,
    SYM_F_FMULADD, /* fmuladd: fmul then fadd (no FMA unit assumed) */
    SYM_F_MINNUM,
    SYM_F_MAXNUM, /* llvm.minnum/maxnum, fmin/fmax */
    SYM_F_FLOOR,
    SYM_F_CEIL,
    SYM_F_TRUNC,
    SYM_F_ROUND,
    SYM_F_RINT, /* rint = nearbyint = roundeven */
    SYM_F_FPTOSI,
    SYM_F_FPTOUI,
    SYM_F_SITOFP,
    SYM_F_UITOFP,
    SYM_F_FPCONV, /* conversions; fpconv = fpext/fptrunc */
    /* glibc's classification functions (what older math.h macros call), integer results:
     * __isnan 1/0, __isinf 1/-1/0, __finite 1/0, __fpclassify FP_NAN 0, FP_INFINITE 1,
     * FP_ZERO 2, FP_SUBNORMAL 3, FP_NORMAL 4 */
    SYM_F_ISNAN,
    SYM_F_ISINF,
    SYM_F_FINITE,
    SYM_F_FPCLASSIFY,
    SYM_F_LRINT,
    SYM_F_LROUND, /* lrint/llrint, lround/llround: integer results */
    SYM_F_COUNT
};
/* Floating-point operation `which` (enum sym_fp) with result width `width` bits (32/64;
 * for fptosi/fptoui the integer width 1..64) on up to three operands (unused: NULL, 0).
 * from_width is the operand width (the integer width for sitofp/uitofp, 32/64 for the
 * others). Unknown `which`: the operands are counted as CONC_FLOAT and NULL returned. */
symx __sym_fp(uint32_t which, uint32_t width, uint32_t from_width, symx a, uint64_t av, symx b, uint64_t bv, symx c,
              uint64_t cv);
/* fcmp with an LLVM real predicate (expr_fpred: 0 false .. 15 true) on floats of `width`
 * bits (32/64); result has width 1. */
symx __sym_fcmp(uint32_t pred, uint32_t width, symx a, uint64_t av, symx b, uint64_t bv);

/* Pointer arithmetic step (one GEP index, or a constant offset with idx == NULL, idxv = offset,
 * scale = 1): returns the expression of base + sext(idx, 64) * scale, or NULL when both are concrete.
 * idx_width is the index's width in bits. */
symx __sym_ptr_add(symx base, uint64_t basev, symx idx, uint64_t idxv, uint32_t idx_width, uint64_t scale);

/* Shadow memory. size in bytes (1..8 for loads that return an expression). If addr_e
 * is not NULL the address is concretized: the runtime records a BK_CONCRETIZE event
 * (addr_e == addr) and counts CONC_SYM_POINTER. __sym_load returns an expression of
 * 8*size bits, or NULL when every byte is concrete. __sym_store with val NULL marks the
 * bytes concrete; size may be any byte count there (aggregates, floats). */
symx __sym_load(const void *addr, uint64_t size, symx addr_e);
void __sym_store(void *addr, uint64_t size, symx val, symx addr_e);
/* Shadow side of memcpy/memmove (call BEFORE the real copy; overlapping is handled) and
 * memset (val_e: 8-bit expression of the fill byte, or NULL). n_e: symbolic length, which
 * is concretized (BK_CONCRETIZE, CONC_SYM_SIZE). */
void __sym_memcpy(void *dst, const void *src, uint64_t n, symx n_e);
void __sym_memset(void *dst, symx val_e, uint64_t n, symx n_e);

/* Passing expressions across calls between instrumented functions. Before a call the
 * caller sets every integer/pointer argument's shadow (index = argument position) and
 * clears the return slot; the callee reads its parameters at entry and sets the return
 * slot before each `ret`; the caller reads it right after the call. Up to 64 params
 * (higher indexes: set is ignored, get returns NULL).
 * The getters take the actual concrete value (zero-extended) and its width in bits, and
 * return NULL when the slot's expression has another concrete value: a stale slot (e.g.
 * a callback called from uninstrumented code such as qsort) then reads as concrete
 * instead of wrong. An expression of another width (caller and callee disagree on the
 * type, e.g. `int __VERIFIER_nondet_bool()` against the runtime's _Bool) is resized to
 * `width`: truncated, or zero- or sign-extended, whichever gives the concrete value;
 * NULL when none does. The result always has `width` bits. */
void __sym_set_param(uint32_t index, symx e);
symx __sym_get_param(uint32_t index, uint64_t value, uint32_t width);
void __sym_set_ret(symx e);
symx __sym_get_ret(uint64_t value, uint32_t width);
/* The same for a result that is a struct of scalars returned in registers ({i64, i8*},
 * {double, double}, ...: a C struct of at most 16 bytes): one slot per top-level field
 * (index 0..7; higher indexes: set is ignored, get returns NULL). The caller clears the
 * fields before the call (set NULL), the callee sets them before `ret`, the caller reads
 * each field's shadow after the call with its concrete value (as an integer, a float as
 * its bits, zero-extended) and width in bits, checked as __sym_get_ret checks. */
void __sym_set_ret_field(uint32_t index, symx e);
symx __sym_get_ret_field(uint32_t index, uint64_t value, uint32_t width);
/* A struct passed by value in memory (a `byval` pointer argument, index = argument
 * position < 64): the code generator copies it into the callee's frame without its shadow,
 * so the caller names the source (set, right before the call) and the callee copies the
 * source's shadow bytes over its copy at entry (get: size in bytes; the slot is cleared;
 * nothing happens when it is not set). A stale source (a callee entered from uninstrumented
 * code) copies shadows whose concrete bytes differ, which loads then drop (as for any
 * shadow byte whose value is not the byte in memory). */
void __sym_set_byval(uint32_t index, const void *src);
void __sym_get_byval(uint32_t index, void *dst, uint64_t size);

/* Conditional branch at branch site `site` whose direction slots are slot_base (false)
 * and slot_base+1 (true); taken is 0 or 1; cond is the shadow of the i1 condition.
 * Always called (it records coverage); records a BK_BRANCH event when cond != NULL. */
void __sym_branch(uint32_t site, uint32_t slot_base, uint32_t taken, symx cond);
/* switch on `value` (width bits) at `site`. cases[i] / slots[i] (i < ncases) are the case
 * values and the coverage slot of each case's destination; default_slot is the default's.
 * Records coverage; if e != NULL records one BK_SWITCH event per case tested, in order,
 * up to the matching one (cond = (e == cases[i])). */
void __sym_switch(uint32_t site, uint32_t width, uint64_t value, symx e, const uint64_t *cases, const uint32_t *slots,
                  uint32_t ncases, uint32_t default_slot);

/* Count a concretization of kind conc_kind when e != NULL (external call argument,
 * float conversion, aggregate, wide integer, vararg, unsupported instruction). */
void __sym_concretize(uint32_t kind, symx e);

/* Called before a call into uninstrumented code for each pointer argument: counts a
 * CONC_EXTERNAL_CALL when the memory behind it holds symbolic bytes (the callee reads them
 * as plain values; what it computes from them is concrete). */
void __sym_external_ptr(const void *p);

/* The same two for a call of the external function whose id in the site table is fn
 * ("callee" records): also counted per function (trace_header.conc_fn). */
void __sym_concretize_call(uint32_t fn, symx e);
void __sym_external_ptr_call(const void *p, uint32_t fn);

/* Before a call of a variadic libc model (src/runtime/models.h): the shadow of its
 * variadic argument k (0-based after the fixed parameters), NULL when concrete. The model
 * reads it back with sym_model_vararg32/64 (rt_libc.c). */
void __sym_set_vararg(uint32_t k, symx e);

/* Called right before a call to reach_error/__VERIFIER_error (ERR_REACH), __assert_fail
 * (ERR_ASSERT) or abort (ERR_ABORT); loc is a location id from the site table.
 * Records REC_ERROR and ends the run with _exit(SYM_ERROR_EXIT_CODE); never returns. */
void __sym_error(uint32_t kind, uint32_t loc) __attribute__((noreturn));

/* Replacement for fork() in the program: forks for real, but the child stops writing the
 * trace (it would corrupt the parent's) and the count is reported. Same return as fork(). */
int __sym_fork(void);

/* Coverage bytes (slot-indexed) and the last branch site, used by the inline fast paths. */
extern uint8_t *__sym_cov;
extern uint32_t __sym_cov_cap;
/* The bit the fast paths OR into a coverage byte: COV_BIT_SETUP, then COV_BIT_TARGET after the unit
 * harness's mark (__sym_unit_target; proto/trace.h). */
extern uint8_t __sym_cov_phase;

#endif
