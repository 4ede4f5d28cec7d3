/* expr_int.h: internals shared by the files of the expression module; not part of its interface. */
#ifndef SYMPATH_EXPR_INT_H
#define SYMPATH_EXPR_INT_H

#include "expr/expr.h"

/* Find or create the node (op, width, aux, k0, k1, k2) in cx's intern table.
 * The key is (op, width, aux, kids by pointer), plus `value` for EXPR_CONST only;
 * EXPR_SYMBOL is therefore keyed by (aux = index, width). A new node gets
 * value & mask(width), the next id and depth 1 + max kid depth; an existing
 * node is returned unchanged (its value is that of its first creation).
 * No validation and no simplification: callers (expr_raw, the builders) check
 * the shape first. Never returns NULL; aborts when memory runs out. */
expr *expr_intern_node(expr_ctx *cx, expr_op op, unsigned width, uint32_t aux, expr *k0, expr *k1, expr *k2,
                       uint64_t value);

/* Floating-point half of expr_eval_op (expr_fp.c): op in EXPR_FADD..EXPR_FCVT, same
 * contract (bit patterns in, bit pattern of `width` bits out; kw = kid 0's width). */
uint64_t expr_fp_eval_op(expr_op op, unsigned width, uint32_t aux, unsigned kw, uint64_t a, uint64_t b, uint64_t c);
/* expr_raw's shape rule for the floating-point operators (kids already checked for
 * presence by arity). */
#include <stdbool.h>
bool expr_fp_shape_ok(expr_op op, unsigned width, uint32_t aux, const expr *k0, const expr *k1, const expr *k2);
/* x86-64 cvttsd2si: trunc(x) as a dst_bits-bit (32/64) two's-complement integer, or the
 * integer indefinite 0x80..0 (NaN, out of range). Result masked to dst_bits. */
uint64_t expr_fp_cvtt(double x, unsigned dst_bits);

#endif
