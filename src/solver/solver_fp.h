/* solver_fp.h: translation of sympath's floating-point operators to Z3's floating-point theory (QF_FPBV); private to solver/. */
#ifndef SYMPATH_SOLVER_FP_H
#define SYMPATH_SOLVER_FP_H

#include <stdbool.h>
#include <z3.h>
#include "expr/expr.h"

/*
 * Floating-point values are bit-vectors in sympath's expressions (expr.h, "Floating
 * point"); the solver gives each float-valued node a second translation, a term of
 * Z3's FloatingPoint sort (IEEE 754-2008 as SMT-LIB's FP theory, Brain et al. 2015),
 * and converts only at the edges: fp.to_ieee_bv where an integer operator reads a float,
 * (_ to_fp 8 24) of a bit-vector where a float operator reads bits (an input symbol, a
 * loaded or selected value). Chains of float operations thus stay in the FP theory.
 *
 * The context is reference-counted (Z3_mk_context_rc): intermediate terms of one
 * node are held by fpz until fpz_release; the caller references the results it keeps.
 */
typedef struct fpz {
    Z3_context z;
    Z3_sort sort32, sort64; /* Float32, Float64 (referenced) */
    Z3_ast rm[5];           /* rounding-mode terms, indexed by fp_rm (referenced) */
    Z3_ast held[96];
    unsigned nheld;
    bool failed; /* a Z3 call returned NULL or the hold area overflowed */
} fpz;

/* Create the sorts and rounding modes in z. Returns false on a Z3 failure (then
 * fpz_fini is still safe). */
bool fpz_init(fpz *f, Z3_context z);
/* Release the sorts and rounding modes. */
void fpz_fini(fpz *f);
/* Float32 for width 32, Float64 for 64, NULL otherwise. */
Z3_sort fpz_sort(fpz *f, unsigned width);
/* The float held in bit-vector bv (width 32/64): ((_ to_fp e s) bv), unreferenced and held. */
Z3_ast fpz_from_bits(fpz *f, Z3_ast bv, unsigned width);

/*
 * Translate node e (op EXPR_FADD..EXPR_FCVT). fk[i] is the FP term of kid i when that
 * kid is read as a float (every operator but SITOF/UITOF), bk[i] the bit-vector term of
 * kid i. Sets *bv to the node's bit-vector translation (width e->width; comparisons give
 * a BV1 with one = true, zero = false) and returns the node's FP term for float-valued
 * operators, NULL otherwise. Both are held: the caller references what it keeps, then
 * calls fpz_release. On failure *bv is NULL and f->failed is set.
 * Semantics as in expr.h: x86-64 conversions to integers with the integer indefinite,
 * C fmod from IEEE remainder (binary32 only: a binary64 EXPR_FREM fails, see
 * solver_fp.c), round-to-nearest-even elsewhere.
 */
Z3_ast fpz_node(fpz *f, const expr *e, Z3_ast const fk[3], Z3_ast const bk[3], Z3_ast one, Z3_ast zero, Z3_ast *bv);
/* Drop the holds on the intermediate terms of the last fpz_node / fpz_from_bits. */
void fpz_release(fpz *f);

#endif
