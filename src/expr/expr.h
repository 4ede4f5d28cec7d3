/* expr.h: bit-precise symbolic expressions, a hash-consed DAG shared by the runtime and the explorer. */
#ifndef SYMPATH_EXPR_H
#define SYMPATH_EXPR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * A symbolic expression is an immutable node of a DAG. Every node is interned in
 * an expr_ctx: two calls that build the same (op, width, aux, kids) — and for
 * EXPR_CONST the same value — return the same pointer, so pointer equality is
 * structural equality. This is what makes the explorer's query cache and the
 * syntactic negation check cheap.
 *
 * Widths are 1..64 bits. Values are stored in a uint64_t masked to the width;
 * arithmetic is two's complement exactly as C on x86-64 (LLVM semantics), with
 * the SMT-LIB convention for division by zero (udiv x 0 = all ones, urem x 0 = x;
 * sdiv/srem follow SMT-LIB bvsdiv/bvsrem). Shifts by >= width give 0 (ashr: sign fill).
 *
 * Each node carries `value`: its concrete value in the run that built it (the
 * runtime computes it bottom-up from the kids; for EXPR_SYMBOL it is the input
 * value). In the explorer, which merges nodes from many runs, `value` is the value
 * of the first run that produced the node and is only a hint.
 *
 * Comparisons are canonical: only EQ, ULT and SLT exist as nodes; the builder
 * expresses NE, UGT, UGE, ULE, SGT, SGE, SLE through NOT and operand swap, so
 * that a condition and its negation are always X and NOT(X).
 */

typedef enum expr_op {
    /* keep in this ORDER: the numeric values are stored in traces */
    EXPR_CONST = 0, /* value = the constant */
    EXPR_SYMBOL,    /* input symbol number aux (0-based, call order); value = its input value */
    EXPR_ADD,
    EXPR_SUB,
    EXPR_MUL,
    EXPR_UDIV,
    EXPR_SDIV,
    EXPR_UREM,
    EXPR_SREM,
    EXPR_SHL,
    EXPR_LSHR,
    EXPR_ASHR,
    EXPR_AND,
    EXPR_OR,
    EXPR_XOR,
    EXPR_NOT, /* bitwise complement; at width 1 it is logical negation */
    EXPR_EQ,
    EXPR_ULT,
    EXPR_SLT, /* width-1 results */
    EXPR_ZEXT,
    EXPR_SEXT,    /* kid[0] widened to `width` */
    EXPR_EXTRACT, /* bits [aux, aux+width) of kid[0] */
    EXPR_CONCAT,  /* kid[0] is the high part, kid[1] the low part */
    EXPR_ITE,     /* kid[0] (width 1) ? kid[1] : kid[2] */
    EXPR_UADDO,
    EXPR_SADDO,
    EXPR_USUBO,
    EXPR_SSUBO,
    EXPR_UMULO,
    EXPR_SMULO, /* overflow flags, width 1 */
    /* Floating point (see "Floating point" below): operands and results of width 32 are
     * IEEE-754 binary32 bit patterns, of width 64 binary64. */
    EXPR_FADD,
    EXPR_FSUB,
    EXPR_FMUL,
    EXPR_FDIV,  /* round to nearest even */
    EXPR_FREM,  /* C fmod = LLVM frem (exact) */
    EXPR_FSQRT, /* 1 kid */
    EXPR_FMA,   /* kid0 * kid1 + kid2 with one rounding */
    EXPR_FMIN,
    EXPR_FMAX,  /* IEEE minNum/maxNum (C fmin/fmax): a NaN operand yields the other */
    EXPR_FRINT, /* round to an integral value in mode aux (fp_rm) */
    EXPR_FOEQ,
    EXPR_FOLT,
    EXPR_FOLE, /* ordered ==, <, <= (false if either is NaN); width 1 */
    EXPR_FUNO, /* unordered: either operand is NaN; width 1 */
    EXPR_FTOSI,
    EXPR_FTOUI, /* kid0 float -> integer of `width` bits, as x86-64 SSE code does */
    EXPR_SITOF,
    EXPR_UITOF, /* kid0 integer (1..64 bits) -> float of `width` (32/64), RNE */
    EXPR_FCVT,  /* float <-> double: fpext (exact) / fptrunc (RNE) */
    EXPR_OP_COUNT
} expr_op;

/*
 * Floating point. A float value is its IEEE bit pattern, so shadow memory, loads and
 * stores, bitcasts and the trace need nothing new; only the operators above know the
 * format, which their width implies (32: binary32, 64: binary64; x87 long double stays
 * concrete). fneg, fabs and copysign are exact bit operations (XOR / AND / OR on the
 * sign bit) and are built as such. Semantics are those of the program compiled by
 * clang-14 for x86-64 with SSE2 (IEEE 754 round-to-nearest-even; the host's C
 * arithmetic computes them, which is that same hardware):
 *   - FTOSI to w <= 32 bits: cvttss2si to 32 bits, then the low w bits; to 64 bits:
 *     the 64-bit cvtt. cvtt gives the "integer indefinite" 0x80..0 for NaN and values
 *     whose truncation does not fit.
 *   - FTOUI to w <= 16 bits: as FTOSI; to 32 bits: the 64-bit cvtt, low 32 bits;
 *     to 64 bits: r1 | (r2 & (r1 >>s 63)) with r1 = cvtt64(x), r2 = cvtt64(x - 2^63)
 *     (clang's branch-free lowering).
 *   - A NaN computed by an operation has the hardware's default pattern; the solver
 *     may pick another NaN pattern, so a program that inspects the bits of a computed
 *     NaN can diverge (branches on isnan / x != x never do).
 * Comparisons are canonical too: FOEQ, FOLT, FOLE, FUNO under at most one NOT (see
 * expr_fcmp), so a condition and its negation are X and NOT(X).
 */
typedef enum fp_rm { FRM_RNE = 0, FRM_RNA, FRM_RTP, FRM_RTN, FRM_RTZ } fp_rm;

/* LLVM's fcmp predicates, numbered as LLVMRealPredicate (false oeq ogt oge olt ole one ord
 * uno ueq ugt uge ult ule une true). */
typedef enum expr_fpred {
    FPRED_FALSE = 0,
    FPRED_OEQ,
    FPRED_OGT,
    FPRED_OGE,
    FPRED_OLT,
    FPRED_OLE,
    FPRED_ONE,
    FPRED_ORD,
    FPRED_UNO,
    FPRED_UEQ,
    FPRED_UGT,
    FPRED_UGE,
    FPRED_ULT,
    FPRED_ULE,
    FPRED_UNE,
    FPRED_TRUE
} expr_fpred;

/* Comparison predicates as in LLVM's icmp; the builder maps them to canonical nodes. */
typedef enum expr_pred {
    PRED_EQ = 0,
    PRED_NE,
    PRED_UGT,
    PRED_UGE,
    PRED_ULT,
    PRED_ULE,
    PRED_SGT,
    PRED_SGE,
    PRED_SLT,
    PRED_SLE
} expr_pred;

typedef struct expr {
    uint8_t op;    /* expr_op */
    uint8_t width; /* 1..64 bits */
    uint8_t nkids; /* 0..3 */
    uint8_t flags; /* EXPR_FLAG_* (set when the node is interned) */
    uint32_t id;   /* dense per-context id, 1..n (0 is never used) */
    uint32_t aux;  /* EXTRACT: low bit; SYMBOL: input index; else 0 */
    uint32_t hash;
    uint32_t mark;  /* free for the context's owner (the runtime stores the trace id here) */
    uint32_t depth; /* 1 + max depth of kids (leaves: 1) */
    struct expr *kid[3];
    uint64_t value;     /* concrete value, masked to width (see above) */
    struct expr *chain; /* hash-table chain, private to expr.c */
} expr;

/* expr.flags: the node has a floating-point operator (EXPR_FADD..EXPR_FCVT) at or below it. */
#define EXPR_FLAG_FP 1u
/* expr.flags: a product of 16 bits or more by a constant in 256 .. 2^(width-1) - 1 at or below the node (the day number
 * of a date from its digits, a number parsed from text): what Z3 bit-blasts slowly and the solver's integer reading
 * (solver_real.h) answers in milliseconds. */
#define EXPR_FLAG_WIDE_MUL 2u

typedef struct expr_ctx expr_ctx;

/* Called (when set) before the process aborts because an expression context ran out of
 * memory; the runtime sets it to report the run as out of memory (ERR_OOM) instead of
 * as an abort() of the program. It should not return. */
extern void (*expr_oom_hook)(void);

/* Create an empty context. Nodes live until expr_ctx_free; memory comes from
 * an arena, so building a node costs no malloc. Returns NULL when out of memory. */
expr_ctx *expr_ctx_new(void);
/* Free a context and every node in it. NULL is accepted. */
void expr_ctx_free(expr_ctx *cx);
/* Number of distinct nodes interned so far. */
size_t expr_ctx_count(const expr_ctx *cx);
/* Node with id `id` (1..expr_ctx_count), or NULL when out of range. */
expr *expr_by_id(const expr_ctx *cx, uint32_t id);

/* Mask for a width in bits (1..64): the low `width` bits set. */
static inline uint64_t expr_mask(unsigned width) { return width >= 64 ? ~0ull : ((1ull << width) - 1); }
/* Sign-extend the low `width` bits of v to 64 bits. */
static inline int64_t expr_sext64(uint64_t v, unsigned width)
{
    return width >= 64 ? (int64_t)v : (int64_t)(v << (64 - width)) >> (64 - width);
}

/* ---- simplifying constructors (both runtime and explorer use these) ----
 * All return an interned node, never NULL (an out-of-memory arena aborts the process:
 * the runtime runs in a child whose crash the explorer reports).
 * Operand widths must agree as LLVM requires; a mismatch is a caller bug (asserted).
 * Constant operands are folded, so building on two constants yields EXPR_CONST. */
expr *expr_const(expr_ctx *cx, uint64_t value, unsigned width);
expr *expr_symbol(expr_ctx *cx, uint32_t index, unsigned width, uint64_t value);
/* op in EXPR_ADD..EXPR_XOR, EXPR_EQ, EXPR_ULT, EXPR_SLT, EXPR_UADDO..EXPR_SMULO. */
expr *expr_binary(expr_ctx *cx, expr_op op, expr *a, expr *b);
expr *expr_not(expr_ctx *cx, expr *a);
/* Comparison by LLVM predicate; result width 1, canonicalised (see above). */
expr *expr_cmp(expr_ctx *cx, expr_pred pred, expr *a, expr *b);
expr *expr_zext(expr_ctx *cx, expr *a, unsigned width);
expr *expr_sext(expr_ctx *cx, expr *a, unsigned width);
/* Bits [lo, lo+width) of a; lo+width <= a->width. extract(a, 0, a->width) == a. */
expr *expr_extract(expr_ctx *cx, expr *a, unsigned lo, unsigned width);
/* Zero-extend or truncate a to `width` (the C conversion between unsigned types). */
expr *expr_resize(expr_ctx *cx, expr *a, unsigned width);
/* hi:lo; hi->width + lo->width <= 64. Adjacent extracts of one node merge back. */
expr *expr_concat(expr_ctx *cx, expr *hi, expr *lo);
expr *expr_ite(expr_ctx *cx, expr *c, expr *t, expr *e);
/* Logical and/or of width-1 expressions. */
expr *expr_and1(expr_ctx *cx, expr *a, expr *b);

/* Floating-point operator op (EXPR_FADD..EXPR_FCVT except the comparisons) producing
 * `width` bits (32/64 for float results; 1..64 for FTOSI/FTOUI); aux is the fp_rm of
 * EXPR_FRINT, else 0; unused kids NULL. Kids' widths as the operator requires (asserted):
 * float operands 32/64 and equal to `width` for arithmetic. All-constant operands fold. */
expr *expr_fp(expr_ctx *cx, expr_op op, unsigned width, uint32_t aux, expr *a, expr *b, expr *c);
/* fcmp by predicate on two floats of one width (32/64); result width 1, canonical
 * (FOEQ/FOLT/FOLE/FUNO, possibly under NOT, ORs for one/ueq). */
expr *expr_fcmp(expr_ctx *cx, expr_fpred pred, expr *a, expr *b);
/* Is op any floating-point operator (EXPR_FADD..EXPR_FCVT)? */
static inline int expr_op_is_fp(unsigned op) { return op >= EXPR_FADD && op <= EXPR_FCVT; }
/* The value of the IEEE-754 bit pattern `bits` of width w (32: float, else double), as a
 * double (exact: a float widens without loss). */
double expr_fp_value(uint64_t bits, unsigned w);
/* The bit pattern of v as a float (w == 32: v rounded to nearest even) or a double (else). */
uint64_t expr_fp_bits(double v, unsigned w);

/* Intern a node exactly as given, without simplification: used by the explorer to
 * rebuild the runtime's DAG from a trace. value is stored as given (masked).
 * Returns NULL if the shape is invalid (bad op, width, arity or kid widths). */
expr *expr_raw(expr_ctx *cx, expr_op op, unsigned width, uint32_t aux, expr *k0, expr *k1, expr *k2, uint64_t value);

/* Concrete semantics of one operator on already-evaluated operands (masked to their
 * widths); result masked to `width`. aux as in the node. */
uint64_t expr_eval_op(expr_op op, unsigned width, uint32_t aux, unsigned kid0_width, uint64_t a, uint64_t b,
                      uint64_t c);
/* Evaluate e under an input assignment: symbol i has value inputs[i] (masked to the
 * symbol's width) or 0 when i >= n. Iterative with memo; cost O(DAG size). */
uint64_t expr_eval(const expr *e, const uint64_t *inputs, size_t n);

/* Name of an operator ("add", "ult", ...), for printing and reports. */
const char *expr_op_name(expr_op op);
/* Arity of an operator (0..3). */
unsigned expr_op_arity(expr_op op);
/* Print e as an S-expression, sharing-unaware, truncated after max_nodes nodes. */
void expr_print(FILE *f, const expr *e, size_t max_nodes);

#endif
