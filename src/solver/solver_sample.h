/* solver_sample.h: candidate sampling for floating-point queries the solver gave up on; private to solver/. */
#ifndef SYMPATH_SOLVER_SAMPLE_H
#define SYMPATH_SOLVER_SAMPLE_H

#include <stddef.h>
#include <stdint.h>
#include "expr/expr.h"

/*
 * Try to satisfy every constraint of cs[0..n) (width 1; the target last) by changing one
 * input symbol at a time, starting from the parent run's values parent[0..parent_n)
 * (missing ones 0), to a candidate built from the floating-point constants of the
 * constraints (solver_sample.c). Only symbols that a floating-point operator reads
 * directly are varied. syms[0..nsyms) are the query's symbol indices: on success
 * vals[i] receives the value of syms[i] (unmasked; the caller masks to the symbol's
 * width) and 1 is returned; 0 when no candidate satisfies them all, when no
 * floating-point operator is involved, or out of memory. At most a few thousand
 * constraint evaluations (each O(DAG size)) and 0.1 s of wall time.
 */
int fp_sample_solve(const expr *const *cs, size_t n, const uint32_t *syms, size_t nsyms, const uint64_t *parent,
                    size_t parent_n, uint64_t *vals);

#endif
