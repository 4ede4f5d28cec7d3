/* harness_int.h: what the harness generator's files (harness.c, harness_walk.c) share; only src/unit includes it. */
#ifndef SYMPATH_UNIT_HARNESS_INT_H
#define SYMPATH_UNIT_HARNESS_INT_H

#include "util/util.h"
#include "unit.h"

/* Whether the memory a pointer of type ptr points to is walked after the call (a string: plain
 * char; a complete, named struct). ptr: any type (not a pointer: 0). */
int unit_walkable(const ut_type *ptr);

/* ---- walk_shape.c: how the walk reads a struct's shape (pure) ---- */

/* Whether t is a complete, named struct generated code can name (a walker of its own). */
int unit_walk_named(const ut_type *t);
/* Whether pointer field f of struct s is an array the walk follows element by element, with a count
 * field of s (its index in *cnt): `count`, `length`, `len`, `size`, `n`, `num`, `nitems`, `nelems`,
 * `used`, or one named after the array (`n_items`, `items_count`), which comes first; a capacity is
 * none. The elements: strings or pointers to named structs (`char **names`, `JSON_Value **values`),
 * or named structs when f is named as a plural or has a count of its own (a pointer to one struct,
 * `wrapping_value` next to `count`, is no array). */
int unit_walk_counted(const ut_type *s, const ut_field *f, int *cnt);
/* The member of union un the enumerator named en selects: the member whose name en contains, case
 * aside, the longest (JSONNumber -> number), else one abbreviating en's last word after a '_'
 * (json_double -> dbl); a member of fewer than 3 letters, one carrying no value (null, none, nil,
 * empty, undefined, unused) or a union matches none. NULL: none. */
const ut_field *unit_walk_member(const ut_type *un, const char *en);
/* The tag of a tagged union in struct t: its first enum field, else an integer (no char) field named
 * type, kind or tag (parson's `JSON_Value_Type type`, an int). NULL: none. */
const ut_field *unit_walk_tag(const ut_type *t);
/* The enum whose enumerators name the members of union un read by tag: the tag's own type when it
 * is an enum, else the enum of u whose enumerators select the most members (unit_walk_member), at
 * least two (parson's `enum json_value_type` for `typedef int JSON_Value_Type`). NULL: none. */
const ut_type *unit_walk_tag_enum(const unit_info *u, const ut_field *tag, const ut_type *un);
/* Whether t is a complete struct with fields no walker can name (an anonymous struct member,
 * json-parser's `u.object`): its fields are walked in place. */
int unit_walk_anon(const ut_type *t);

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
/* unit_walk_call with the array's length: count, a C expression of type long long (-1: unknown),
 * the value of the out-parameter the call wrote (unit_result_count): when ptr points to a struct,
 * that many elements of the returned array are walked (within its block). count NULL: as
 * unit_walk_call. */
void unit_walk_call_n(strbuf *b, const ut_type *ptr, const char *indent, const char *root, const char *lv,
                      const char *val, const char *count);

/* Whether ptr is a pointer to pointers (`char **`, `sds *`, `node_t **`) whose elements the
 * recorder can walk: to data, not to functions. */
int unit_walkable_ptrs(const ut_type *ptr);

/* Append the statement that walks the returned array of pointers `val` (type ptr,
 * unit_walkable_ptrs) element by element when it is fresh memory (neither NULL nor an input
 * object): count, a C expression of type long long, the element count an out-parameter gives, or
 * NULL (then up to its NULL terminator, within its heap block). Elements: strings for char
 * pointers (with their length and bytes when the string type has a length accessor,
 * unit_length_accessor: sds), a struct's walker for named structs, else pointers. Record mode only. */
/* Whether ptr points to integers (not plain char: a string), enumerators or booleans. */
int unit_walkable_ints(const ut_type *ptr);

/* Append the statement that walks the returned array of integers `val` (type ptr,
 * unit_walkable_ints) element by element when it is fresh memory: count, a C expression of type
 * long long, the element count the out-parameter gives (unit_result_count). Record mode only. */
void unit_walk_ints_call(strbuf *b, const ut_type *ptr, const char *indent, const char *val, const char *count);

void unit_walk_ptrs_call(strbuf *b, const unit_info *u, const ut_type *ptr, const char *indent, const char *val,
                         const char *count);

/* Whether ptr is a pointer to a stdio stream (FILE *, const FILE *): such a parameter is a read
 * stream over symbolic bytes (unit_stream_fill), not an object built field by field. */
int unit_is_stream(const ut_type *ptr);

/*
 * Append to b the body of a fill function (variables o and name in scope) that sets *o to a
 * read stream over at most max symbolic bytes: sympu_stream (sympath_unit_rt.h), whose inputs
 * are a length and max bytes, as --sym-file's; recorded as a `stream` line for the test's
 * fmemopen. Never NULL, not even lazily (the libc models compare a stream with NULL, which is
 * no check of the unit's). Anchor: --sym-file (src/runtime/libc/models_io.c). A parameter the unit
 * writes to (sympu_writes_stream, from unit_scan_written_streams) is an output stream instead
 * (sympu_ostream: open_memstream), its text recorded after the call as an `ostream` line.
 */
void unit_stream_fill(strbuf *b, unsigned max);

/*
 * Append to b, inside a function-pointer stand-in's body (arguments a0, a1, ...), the record-mode
 * statements that write each argument unit_callback_arg_kind asserts as an `arg NAME K KIND
 * VALUE` line (sympu_arg_* in sympath_unit_rt.h), so the test can check the count and the
 * arguments of the calls the unit makes to its callbacks (Dsc+Mock, section 4; EvoSuite's
 * assertions on what the code under test did). need: the harness's per-type flags (an enum's
 * sympu_enum_ID exists when set; else the enum is written as an integer).
 */
void unit_callback_record_args(strbuf *b, const char *name, const ut_type *f, const char *need);

/*
 * Append to b the rest of a reader stand-in's body (unit_callback_is_reader; arguments a0 the
 * buffer, a1 its size): a choice input NAME_more, 0 = the end of the input (NULL, the default, so
 * the all-zero input ends the unit's read loop), 1 = a line of at most min(a1 - 1, max) fresh
 * symbolic bytes (NAME_line) written to a0 and a0 returned; recorded as `mock NAME p 0` or `mock
 * NAME s TEXT`. Each further call the explorer asks for adds inputs (the test case grows by a
 * line) instead of the run reading forever. Anchor: Dsc+Mock (section 4), --sym-file's reads.
 */
void unit_callback_reader_body(strbuf *b, const char *name, unsigned max);

/*
 * Append to b the rest of a byte reader's stand-in body (unit_callback_fill_arg(f) = k: ak the buffer,
 * ak+1 its count n): a choice input NAME_fail, 0 = the read succeeds (the default: the all-zero input reads
 * zero bytes), when ak is not NULL and n <= max: n fresh symbolic bytes (NAME_data) into ak, recorded as
 * `mock NAME s BYTES` (NULs as \x00), and 1 (a bool result) or n returned; 1 = the read fails, recorded
 * as `mock NAME p 0`, 0 returned. A read the unit needs is then a branch the explorer flips, its bytes
 * inputs (the test case grows by a read per call). Anchor: Dsc+Mock (section 4), --sym-file's reads.
 */
void unit_callback_fill_body(strbuf *b, const char *name, const ut_type *f, unsigned max);

/*
 * Append to b the rest of an allocator stand-in's body (unit_callback_alloc_sizes: a callback
 * returning void * or char * with a size_t argument, json-parser's `void *(*mem_alloc)(size_t,
 * int zero, void *user_data)`): a choice input NAME_null, 0 = a zeroed block of the size asked
 * for (the product of a calloc-like pair), the default, 1 = NULL (out of memory, so the unit's
 * failure paths are reached only as the explorer's choice; a size past SYMPU_ALLOC_MAX is NULL
 * too); recorded as `mock NAME i 0|1`, the emitted stand-in (emit_callback_alloc_return) does the
 * same with calloc. Returns 1 when written, 0 when f is no allocator (nothing appended).
 */
int unit_callback_alloc_body(strbuf *b, const char *name, const ut_type *f);

/* ---- shared with harness_producer.c (defined in harness.c) ---- */

/* Whether an object of type t can be allocated and filled from inputs (harness.c's rule: scalars,
 * pointers, complete structs, arrays of those; no anonymous type). */
int harness_fillable(const ut_type *t);

/*
 * The buffer of a buffer/length pair (EvoSuite's symbolic array), shared by the driver and the
 * producers' arguments. harness_pair_buffer writes, each line prefixed with ind: when read_len,
 * `size_t NN = sym_size_t("LEN_NAME")` bounded by o->buf_len (read_len 2, the target's own: the
 * longest first, harness_pair_length; else NN was declared earlier), then
 * `E *BN = malloc(...)` of NN elements of t's pointee (unsigned char for void; NN + HARNESS_TEXT_MORE + 1 for text,
 * harness_pair_text). After the caller has registered its pointer object, harness_pair_elems
 * registers the array (flag a, record path path; NN + HARNESS_TEXT_MORE + 1 elements for text, the last one the NUL)
 * and fills its NN elements from inputs named `PATH[]`. Nothing is returned; b grows.
 * A capacity pair (cap, ut_param.capacity): NN is the choice LEN_NAME.cap among
 * HARNESS_CAPACITIES (the first, the default, min(8, o->buf_len)), the buffer zeroed, and
 * harness_pair_elems registers it without filling it (the function writes it before reading).
 */
/*
 * Whether a buffer of pointer type t paired with a length is text (plain `char`: `expr_create(const char
 * *s, size_t len, ...)`): its NN symbolic bytes are followed by HARNESS_TEXT_MORE more (inputs
 * `PATH.more[]`, zero on the first run and never diversified: a text longer than its length, for a
 * function that stops at the length or at a NUL, `utf8ndup(s, n)`) and a NUL, registered as
 * NN + HARNESS_TEXT_MORE + 1 elements, so the test declares it as a developer writes it, a string literal and its length
 * (`expr_create("1+2", 3, ...)`), and code that looks one byte ahead of len (zserge/expr's
 * tokenizer) reads the NUL, not past the block: every such test was dropped by the sanitizer
 * check as a read past an input the test built. Byte buffers (`unsigned char`, `uint8_t`) stay
 * NN bytes. A capacity pair is never text.
 */
int harness_pair_text(const ut_type *t);
#define HARNESS_ROOM_BEFORE 4 /* bytes before a string a function walks backwards (unit_reads_before) */
#define HARNESS_TEXT_MORE 4   /* bytes of a text pair past its length (harness_pair_text) */
void harness_pair_buffer(strbuf *b, const unit_harness_opts *o, const ut_type *t, const char *len_name, const char *bn,
                         const char *nn, int read_len, int cap, const char *ind);
void harness_pair_elems(strbuf *b, const unit_harness_opts *o, const ut_type *t, const char *path, const char *bn,
                        const char *nn, int cap, const char *ind);
/* Inputs nothing reads after the nn elements (a C expression) of a buffer of at most max: bytes (void, char
 * types) by sympu_pad_bytes, scalar elements (integers, bools, enums, floats) by their fill into a scratch
 * element, named NAME.pad (name a C expression of type const char *), so the buffer consumes the inputs of
 * max elements whatever nn is and the inputs after it keep their positions (inputs are positional).
 * Elements of other types (their fill's inputs vary) get no pad. */
void harness_pad_elems(strbuf *b, const ut_type *e, const char *nn, const char *name, unsigned max, const char *ind);
/* `size_t NN` of a buffer/length pair read from the input LEN_NAME (K): o->buf_len for K = 0 (the
 * all-zero first run passes the longest buffer), else K - 1; at most o->buf_len. For the target's
 * own parameters (harness_pair_buffer's read_len 2); a producer's buffer (read_len 1) starts empty:
 * its loops over the elements drew the search away from the target. */
void harness_pair_length(strbuf *b, const unit_harness_opts *o, const char *nn, const char *len_name, const char *ind);
/*
 * A list type: `T **` (T a pointer to a fillable type, no function, no stream) or `S *` (S a complete
 * struct, no buffer struct). A parameter of a list type with no length paired that the unit walks as an
 * array (ut_param.walked, unit_walks_array) is built as a list ended by NULL, argv's shape (cwalk's
 * `cwk_path_join_multiple(const char **paths, ...)`), or a table ended by a zeroed entry (argparse's
 * options, OPT_END = 0); so is a struct field of a list type that the unit walks (unit_member_walked). One
 * element and no end, which the generic fill gave, was read past: every test was dropped by the sanitizer
 * check. harness_null_list: f a target or a producer, i the parameter's index; 1 for such a parameter.
 */
int harness_list_type(const ut_type *t);
int harness_null_list(const unit_info *u, const ut_func *f, size_t i);
#define HARNESS_LIST_MAX 3 /* the most elements before the end of a list parameter (harness_null_list) */
/* The lines (each prefixed with ind) that make the list of type t in variable vn (a C lvalue), declared and
 * registered by the caller: K + 1 elements calloc'ed, K = 1 + the choice NAME.count below HARNESS_LIST_MAX (1 on
 * the first run), registered as an array of K + 1 (flag a, the last zero), its K elements filled by their type's
 * fill at depth (a C expression) from inputs NAME[] (pointers assumed not NULL: the end is the count's). name: a C
 * expression of type const char * (a quoted literal, or the fill's runtime name). b grows. */
void harness_null_list_elems(strbuf *b, const ut_type *t, const char *name, const char *depth, const char *vn,
                             const char *ind);
/* A target's list parameter named name in variable vn: `T vn = NULL;` registered as the parameter (flag
 * p), harness_null_list_elems, then the list itself NULL lazily (sympu_lazy_null) unless o->null_all. */
void harness_null_list_fill(strbuf *b, const unit_harness_opts *o, const ut_type *t, const char *name, const char *vn,
                            const char *ind);
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
