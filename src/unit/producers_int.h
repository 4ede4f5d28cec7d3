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
 *   UP_INIT    `void|int|bool f(T *, args...)` for P = `T *` (T a complete struct), named like
 *              an initialiser (init, reset, create, setup, open; any case: `jsmn_init`), its other
 *              arguments fillable as a UP_RETURN producer's (`http_parser_init(&p, HTTP_REQUEST)`):
 *              the harness allocates a T, fills the arguments and calls f on them.
 * A table of callbacks (T a struct whose fields are all function pointers: http-parser's
 * `http_parser_settings`) has no producers (unit_param_producers, unless --init names one): its
 * initialiser only zeroes it, so no callback would run; it is built field by field with stand-ins.
 * Not producers: the target itself; functions taking an argument of P's aliasing class (they
 * need a P first: `sdscat(sds, ...)`; for a struct P such a function may be a modifier, below); variadic
 * ones; ones that take a file's path (a `char *` named like one, or passed to fopen, open, stat, ...
 * in the function's body: iniparser's `iniparser_load(const char *ininame)`: unit_opens_path) unless
 * --init names them; ones with an argument that cannot be filled (a void * without a length, an incomplete
 * type) or is an out-parameter (a pointer to a pointer without a length); static functions of a
 * .c the harness does not include. A buffer paired with a length (`te_compile(expr, variables,
 * var_count, error)`) is a symbolic array as for a target's parameter (its length the element
 * count); such a producer makes no container item. A plain `char *`
 * or a pointer to a scalar has no producer unless P is spelled with a typedef.
 */
/* UP_RETURN: `P f(args)` or `T *f(args)`; UP_INIT: `void|int|bool init(T *, args)`; UP_VALUE: `T f(args)`, a
 * struct by value, for P = `T *` (the test keeps it in a local and passes its address); UP_OUT: `void|int|bool
 * f(args, T *out)`, a text among args and the object last, whatever the name (a parser into the caller's struct:
 * semver's `semver_parse(str, &ver)`, cwalk's `cwk_path_get_first_segment(path, &segment)`); a result that says
 * it failed (false, an int below 0) built no input: the run ends there, as after a UP_RETURN producer's NULL. */
typedef enum unit_producer_kind { UP_RETURN, UP_INIT, UP_VALUE, UP_OUT } unit_producer_kind;

typedef struct unit_producer {
    const ut_func *fn; /* borrowed from the unit_info */
    unit_producer_kind kind;
} unit_producer;

/* At most this many producers per parameter (the first ones in the unit's order; cJSON has 16
 * functions returning a `cJSON *` from fillable arguments, 11 without a buffer; with 8, its
 * containers cJSON_CreateArray and cJSON_CreateObject were never among them). */
#define UNIT_MAX_PRODUCERS 16
/* Modifier calls on a produced object before the call of the target (unit_param_modifiers). */
#define UNIT_MAX_CALLS 3

/*
 * The producers of parameter i of target f (see above), at most max of them in out (in the
 * order of u->defs), honouring o: none when o->raw_inputs; the function named by an
 * `--init TYPE=FUNCTION` whose TYPE is the parameter's unqualified spelling or its pointee's
 * (then discovery is off for that type; a function of the wrong shape gives none). A buffer
 * parameter paired with a length (len_param) and a length have none. For a container (a parameter
 * with adders, unit_param_adders) producers taking a buffer (a pair, or a pointer to numbers) are
 * left out (its contents come from the adders) and the others are ordered by their argument count
 * (stable): the first run builds the simplest value. Returns the count.
 */
size_t unit_param_producers(const unit_info *u, const unit_harness_opts *o, const ut_func *f, size_t i,
                            unit_producer *out, size_t max);

/*
 * Nested producers: the producers of argument k of producer fn (unit_param_producers with fn as
 * the target), keeping the UP_RETURN ones none of whose own arguments could have producers (one
 * level: `json_value_init_object()` for the `const JSON_Value *` of `json_value_get_object(value)`,
 * not `json_object_get_value(object, name)`, which needs an object first). The harness builds such
 * an argument by one of them (a symbolic choice) instead of field by field; none for an argument
 * that is not producible. At most max in out; returns the count.
 */
size_t unit_arg_producers(const unit_info *u, const unit_harness_opts *o, const ut_func *fn, size_t k,
                          unit_producer *out, size_t max);

/* The first `--init TYPE=FUNCTION` of o (the string itself) whose TYPE is pt's unqualified spelling or
 * its pointee's, or NULL. */
const char *unit_init_for(const unit_harness_opts *o, const ut_type *pt);

/*
 * Containers: the adders of parameter i of f, P = `T *` with T a struct: functions of the unit
 * `void|int|bool f(T *container, ..., T *item, ...)` (neither const; the other arguments filled like
 * a producer's, one by one: a key, `cJSON_AddItemToObject(object, const char *string, item)`, a
 * position, `cJSON_InsertItemInArray(array, int which, newitem)`; none of P's type, no
 * buffer/length pair) named like an adder (add, append, push, insert; any case), or like a setter of
 * a keyed slot (set, put) with an argument besides the item (`map_set(map, key, val)`, not
 * `node_set_next(n, next)`); not one named like a reference adder, `cJSON_AddItemReferenceToArray`;
 * not the target; at most max in out. None with
 * o->raw_inputs or when an --init names P. After a UP_RETURN producer the harness builds a tree of
 * items (harness_producer.c): 0..UNIT_MAX_ITEMS items (a symbolic count) on the container, each made
 * by a UP_RETURN producer of P (adder and producer symbolic choices; an add that fails is tried with
 * the next adder); an item whose producer takes no argument (an empty container:
 * `cJSON_CreateArray()`) at depth < UNIT_MAX_DEPTH gets 0..UNIT_MAX_ITEMS items of its own. The
 * container owns what it was given (released with it); an add that returns zero failed and is not
 * recorded, nor anything added below it (the test does not make those items). Returns the count.
 */
size_t unit_param_adders(const unit_info *u, const unit_harness_opts *o, const ut_func *f, size_t i,
                         const ut_func **out, size_t max);

/* Items per container and depth of the item tree of a container parameter (unit_param_adders):
 * at most 2 + 4 items besides the parameter's own object. */
#define UNIT_MAX_ITEMS 2
#define UNIT_MAX_DEPTH 2

/* Whether fn adds a value to its first argument, a struct container, and returns the element it made
 * for it, which the container keeps and frees (`node *intlist_push(intlist *l, int v)`, clibs/list's
 * list_rpush): named like an adder (add, append, push, insert), no other pointer argument, a pointer to
 * a struct of another type back. Such a call is a construction step (its result dropped), and an
 * element made by it is released with its container, not on its own (emit_producer.c). */
int unit_adds_element(const ut_func *fn);

/* Whether fn is an adder of parameter type pt (see unit_param_adders, without the target and
 * --init rules): the index (> 0) of its item argument, else -1. */
int unit_adder_item(const ut_func *fn, const ut_type *pt);

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

/* Whether parameter k of producer fn is storage for its result: an array of the struct fn returns a
 * pointer to, paired with its count (`json_t const *json_create(char *str, json_t mem[], unsigned qty)`).
 * The harness gives it as a capacity pair (zeroed elements, a few sizes), not as symbolic structs. */
int unit_producer_storage(const ut_func *fn, size_t k);

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
 * The unit's destructor of a value of type t made by producer (a UP_RETURN one; NULL: none
 * known), when it may take more than the value: a void function of the unit named like a
 * destructor whose first parameter has t's type (spelling or canonical type) and each further
 * parameter (at most max of them) either shares a pointer-to-struct type with an argument of the
 * producer (unit_destructor_shared: that argument is passed again, the state the value was made
 * with: `expr_destroy(e, vars)` after `expr_create(s, len, vars, funcs)`) or is a pointer whose
 * name the unit checks for NULL (unit_null_checked, a syntactic approximation: NULL is passed).
 * Among several: a name that ends with the word first (`expr_destroy` before `expr_destroy_args`,
 * which frees what the value holds but not its block), then fewer NULL arguments, then the shorter
 * name. Returns the function (borrowed from u) or NULL; extra[k] gets, for its parameter k + 1,
 * the producer's argument index passed there, or -1 for NULL.
 */
#define UNIT_MAX_DESTRUCTOR_ARGS 4
const ut_func *unit_destructor_for(const unit_info *u, const ut_type *t, const ut_func *producer, int *extra,
                                   size_t max);

/*
 * Whether a producer's argument of type at is passed again to a destructor's parameter of type
 * dt: both the same pointer to a complete, non-const struct. Such an argument holds state the
 * unit manages and frees (a list of variables the producer adds to), so the harness builds it
 * zeroed — `struct expr_var_list vars = {0};`, the state a developer starts from —, not from
 * inputs: the destructor would free objects the test declared on the stack.
 */
int unit_destructor_shared(const ut_type *dt, const ut_type *at);

/*
 * Whether argument k of producer fn is a table of named functions the caller passes (a pointer to a
 * non-const complete struct with a function-pointer field among others, not paired: zserge/expr's
 * `expr_create(s, len, vars, struct expr_func *funcs)`, whose funcs the unit walks up to an entry with
 * a NULL name). The harness passes it zeroed — `struct expr_func funcs = {0};`, the empty table, its
 * own end —, not filled field by field (an entry of stand-ins with a text name, and the walk went past
 * it); such an argument does not keep the producer from being one.
 */
int unit_empty_table_arg(const ut_func *fn, size_t k);

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
