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
expr *expr_intern_node(expr_ctx *cx, expr_op op, unsigned width, uint32_t aux,
                       expr *k0, expr *k1, expr *k2, uint64_t value);

#endif
