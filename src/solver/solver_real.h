/* solver_real.h: floating-point queries solved over the reals first (an approximation checked by evaluation); private to solver/. */
#ifndef SYMPATH_SOLVER_REAL_H
#define SYMPATH_SOLVER_REAL_H

#include <stddef.h>
#include <stdint.h>
#include "solver/solver_int.h"

/*
 * Try to satisfy the kept constraints s->kept[0..nkept) (the target last) through their
 * real-arithmetic approximation (solver_real.c): float-valued nodes become Z3 reals,
 * integer-valued ones Z3 integers (overflow ignored), NaN and rounding forgotten; Z3's
 * arithmetic solvers answer such queries in milliseconds where bit-blasting the IEEE
 * operations takes seconds. The model is rounded to the symbols' formats (nearest double
 * or float, integers in their width) and checked against every kept constraint with
 * expr_eval, so an answer is never wrong, only sometimes missing (the approximation
 * idea of UppSAT, Zeljic, Backeman, Wintersteiger and Ruemmer, 2018, without refinement).
 * Shifts by a constant are read as products or floor quotients by 2^k. The same reading
 * serves integer queries with products by wide constants (EXPR_FLAG_WIDE_MUL: a date's day
 * number from its digits), which Z3 bit-blasts slowly; there it is linear integer arithmetic.
 *
 * A node the approximation cannot read (a bit operation, sqrt, a float assembled from bytes)
 * becomes its value in the parent run, with the symbols below it pinned to the parent's
 * values; a prefix constraint that cannot be translated even so (a symbol read both as a
 * float and as an integer) is left out with all its symbols pinned. When the target tests
 * NaN or -0.0, or cannot be translated, nothing is tried. Symbols of s->kept_syms[0..nsyms)
 * take parent[0..parent_n) (missing ones 0) unless the model sets them.
 *
 * On success s->vals[i] holds the value of s->kept_syms[i] masked to its width and 1 is
 * returned; -1 when the approximation is UNSAT (a hint, not a proof); 0 otherwise (not
 * expressible, Z3 unknown within min(s->timeout_ms, 400 ms),
 * or a model that fails the check).
 *
 * When the approximation is UNSAT, its unsat core (indices into s->kept, each < nkept; at
 * most nkept of them, so core[] must hold nkept) is left in core[0..*ncore): a small
 * subset the caller can check bit-precisely, whose UNSAT makes the whole query UNSAT.
 * *ncore is 0 in every other case, and when the core involves a pinned symbol or value.
 */
int fp_real_solve(solver *s, size_t nkept, size_t nsyms, const uint64_t *parent, size_t parent_n, size_t *core,
                  size_t *ncore);

#endif
