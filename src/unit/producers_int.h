/* producers_int.h: the unit's own producers and destructors of a parameter's type (call sequences for valid object states); only src/unit includes it. */
#ifndef SYMPATH_UNIT_PRODUCERS_INT_H
#define SYMPATH_UNIT_PRODUCERS_INT_H

#include <stddef.h>

#include "unit.h"

/*
 * A producer of a parameter type P is a function of the unit whose call gives a value of P in a
 * state the unit's own API produces (EvoSuite's and Randoop's call sequences of the class's own
 * constructors; the LIME Concolic Tester's lazy initialisation, here eager: the object is built
 * before the call). Two kinds:
 *   UP_RETURN  `P f(args)`: f returns P as it is spelled (unqualified): a function returning
 *              `sds` produces an `sds` parameter, one returning `char *` does not; for P = `T *`
 *              with T a struct, any function returning `T *` (`cJSON_Parse`). The harness writes
 *              `p = f(args)`, each argument filled like a parameter (solver-chosen).
 *   UP_INIT    `void|int|bool f(T *)` for P = `T *` (T a complete struct), named like an
 *              initialiser (init, reset, create, setup; any case: `jsmn_init`): the harness
 *              allocates a T and calls f on it.
 * Not producers: the target itself; functions taking an argument of P's aliasing class (they
 * need a P first: `sdscat(sds, ...)`; for a struct P such a function may be a modifier, below); variadic
 * ones; ones with an argument that cannot be filled (a void * without a length, an incomplete
 * type) or is an out-parameter (a pointer to a pointer without a length); static functions of a
 * .c the harness does not include. A buffer paired with a length (`te_compile(expr, variables,
 * var_count, error)`) is a symbolic array as for a target's parameter (its length the element
 * count); such a producer makes no container item. A plain `char *`
 * or a pointer to a scalar has no producer unless P is spelled with a typedef.
 */
typedef enum unit_producer_kind { UP_RETURN, UP_INIT } unit_producer_kind;

typedef struct unit_producer {
    const ut_func *fn; /* borrowed from the unit_info */
    unit_producer_kind kind;
} unit_producer;

/* At most this many producers per parameter (the first ones in the unit's order). */
#define UNIT_MAX_PRODUCERS 8

/*
 * The producers of parameter i of target f (see above), at most max of them in out (in the
 * order of u->defs), honouring o: none when o->raw_inputs; the function named by an
 * `--init TYPE=FUNCTION` whose TYPE is the parameter's unqualified spelling or its pointee's
 * (then discovery is off for that type; a function of the wrong shape gives none). A buffer
 * parameter paired with a length (len_param) and a length have none. Returns the count.
 */
size_t unit_param_producers(const unit_info *u, const unit_harness_opts *o, const ut_func *f, size_t i,
                            unit_producer *out, size_t max);

/* The first `--init TYPE=FUNCTION` of o (the string itself) whose TYPE is pt's unqualified spelling or
 * its pointee's, or NULL. */
const char *unit_init_for(const unit_harness_opts *o, const ut_type *pt);

/*
 * Containers: the adders of parameter i of f, P = `T *` with T a struct: functions of the unit
 * `void|int|bool f(T *container, T *item)` (neither const) named like an adder (add, append, push,
 * insert; any case: `cJSON_AddItemToArray`; not one named like a reference adder,
 * `cJSON_AddItemReferenceToArray`), not the target; at most max in out. None with o->raw_inputs or
 * when an --init names P. After a UP_RETURN producer the harness adds 0..2 items (a symbolic count),
 * each made by a UP_RETURN producer of P, to a container that is not NULL; the container owns what
 * it was given (released with it); an add that returns zero failed and is not recorded (the test does
 * not make that item). Returns the count.
 */
size_t unit_param_adders(const unit_info *u, const unit_harness_opts *o, const ut_func *f, size_t i,
                         const ut_func **out, size_t max);

/*
 * State changers: the modifiers of parameter i of f, P = `T *` with T a struct: functions of the
 * unit's interface (not static; declared in a header when the unit has one: ut_func.in_header)
 * `void|int|bool|enum f(T *obj, args...)` (T not const, obj no buffer of a pair) that are
 * not the target, not named like a destructor or an initialiser, whose other arguments a
 * producer's could be (arg_ok: none of P's type, so no adder); at most max in out. None with
 * o->raw_inputs or when an --init names P. After the producer (either kind) the harness calls 0 or
 * 1 of them on a non-NULL object (two symbolic choices: whether, which), its arguments filled from
 * inputs (objects of flag m), recorded as `seq ID FUNC ARG...` (ID the parameter object): a
 * context fed before it is finished, `sha256_update(&ctx, data, 40)` before `sha256_final` —
 * EvoSuite's and Randoop's call sequences, of length two here. Returns the count.
 */
size_t unit_param_modifiers(const unit_info *u, const unit_harness_opts *o, const ut_func *f, size_t i,
                            const ut_func **out, size_t max);

/* Whether fn can produce a value of parameter type pt (either kind; *kind gets which). The
 * rule above without the name rule for `--init`: named is nonzero when the user named fn. */
int unit_producer_fits(const unit_info *u, const ut_func *fn, const ut_type *pt, int named, unit_producer_kind *kind);

/*
 * The unit's destructor of type t: a function defined in the unit (u->defs) taking exactly one
 * parameter and returning void, named like a destructor (free, delete, destroy, release; any
 * case: `sdsfree`, `cJSON_Delete`), whose parameter is spelled like t (unqualified), else one
 * whose parameter has t's canonical type; among several, one whose name ends with the word
 * (`te_free` before `te_free_parameters`), then the shortest. Returns its name (borrowed from
 * u) or NULL.
 */
const char *unit_destructor(const unit_info *u, const ut_type *t);

/*
 * The unit's destructor of an array of type t with its element count: a function defined in the
 * unit taking exactly (t, an integer) and returning void, named like a destructor
 * (`void sdsfreesplitres(sds *tokens, int count)`, `void split_free(char **v, int n)`), its first
 * parameter spelled like t or of t's canonical type; among several, ranked as unit_destructor.
 * Returns its name (borrowed from u) or NULL. The caller passes the count the call gave
 * (unit_result_count).
 */
const char *unit_array_destructor(const unit_info *u, const ut_type *t);

/*
 * The length accessor of a string type t with its own name (a typedef of `char *`: `sds`; not a
 * plain `char *`, whose length is its NUL): a function of the unit (u->defs) or of a header it
 * includes (u->hfuncs: `static inline size_t sdslen(const sds s)`) taking exactly one t (const
 * ignored), returning an integer, with "len" in its name (any case); the shortest name of
 * several. The string may hold NUL bytes: the length, not the NUL, ends it. Returns the function
 * (borrowed from u) or NULL.
 */
const ut_func *unit_length_accessor(const unit_info *u, const ut_type *t);

/*
 * Whether target f consumes its parameter i when that parameter was built by a UP_RETURN
 * producer: f returns the parameter's own type (unqualified spelling: `sds sdscat(sds, ...)`;
 * the result replaces the input, which may have moved — sds's convention), or f is itself a
 * destructor (named like one, returning void). The test then releases the result, never the
 * input, and asserts nothing on the input after the call.
 */
int unit_param_consumed(const ut_func *f, size_t i);

/* Whether name looks like a destructor's: contains free, delete, destroy or release (any case). */
int unit_destructor_name(const char *name);

#endif
