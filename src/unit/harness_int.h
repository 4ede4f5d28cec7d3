/* harness_int.h: what the harness generator's files (harness.c, harness_walk.c) share; only src/unit includes it. */
#ifndef SYMPATH_UNIT_HARNESS_INT_H
#define SYMPATH_UNIT_HARNESS_INT_H

#include "util/util.h"
#include "unit.h"

/* Whether the memory a pointer of type ptr points to is walked after the call (a string: plain
 * char; a complete, named struct). ptr: any type (not a pointer: 0). */
int unit_walkable(const ut_type *ptr);

/*
 * Append to b the record-mode walkers (inside #ifdef SYMPATH_UNIT_RECORD): one
 * `sympu_walk_ID(const void *o, const char *prefix, int hops, int steps)` per walkable struct
 * type whose need[ID] is set, writing each field of *o as a `walk` record line (scalars and
 * enumerator names, strings, pointers followed within the runtime's bounds, nested structs and
 * arrays). Every type a walker refers to must be needed too (the harness marks types
 * recursively) and the enums' sympu_enum_ID defined before. need: one flag per u->types.
 */
void unit_walk_defs(strbuf *b, const unit_info *u, const char *need);

/*
 * Append the statement that walks the pointer value `val` (a C expression of type ptr,
 * unit_walkable) when it points to neither NULL nor an input object: from the return value
 * (root "0", lv "\"\"") or from an input object's entry (root "id", lv "lv": the dump
 * function's own variables). Record mode only (the caller guards it).
 */
void unit_walk_call(strbuf *b, const ut_type *ptr, const char *indent, const char *root, const char *lv,
                    const char *val);

/* ---- shared with harness_producer.c (defined in harness.c) ---- */

/* Whether an object of type t can be allocated and filled from inputs (harness.c's rule: scalars,
 * pointers, complete structs, arrays of those; no anonymous type). */
int harness_fillable(const ut_type *t);
/* t's spelling without a top-level const ("const int" -> "int", "char *const" -> "char *"); malloc'ed. */
char *harness_unqual(const ut_type *t);

/*
 * Append to b the statements of a driver that build parameter i of f (the variable sympu_aI)
 * through the unit's own producers (producers_int.h; EvoSuite/Randoop call sequences, LCT's
 * lazy initialisation made eager): a symbolic choice among the producers (and NULL, when the unit
 * checks the parameter for NULL) the explorer flips like a branch; a UP_RETURN producer's
 * arguments are registered as objects of flag m and filled by the fill functions, a UP_INIT
 * producer initialises a fresh registered object; a `make` record line says which. The
 * parameter object is registered (flag p) in every branch, after the producer's arguments.
 * Returns 1 when the parameter has producers (code written), 0 when it has none (nothing
 * written: the caller builds it field by field; when an --init names the type, a line on warn). The fill and dump functions of the producers'
 * argument types must exist (unit_harness marks them).
 */
int harness_producer_param(strbuf *b, const unit_info *u, const unit_harness_opts *o, const ut_func *f, size_t i,
                           strbuf *warn);

#endif
