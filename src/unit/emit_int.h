/* emit_int.h: what the test emitter's files (emit_locals.c, emit_tests.c) share; only src/unit includes it. */
#ifndef SYMPATH_UNIT_EMIT_INT_H
#define SYMPATH_UNIT_EMIT_INT_H

#include <stddef.h>

#include "util/util.h"
#include "unit.h"

/* Per-test naming state: local name of each object id. */
typedef struct names {
    const unit_info *u;
    const unit_record *r;
    char **local; /* by object index in r->objs */
    int heap;     /* input objects are malloc'ed (the unit frees or reallocates them) */
    int unowned;  /* unit_test.unowned */
    /* by object index: 1 for what only a dropped construction's queue refers to (not declared), or NULL */
    const char *skip;
    /* the function under test (emit_producer.c's consumed rule); may be NULL */
    const ut_func *fn;
    /* globals no test of the file changes or starts from another value: not set by the test
     * (NULL-terminated names; NULL: every global is set) */
    char *const *quiet;
    /* the function releasing the call's result (unit_test.release), or NULL */
    const char *release;
} names;

/* The object of record r with id id (its index in *idx when idx is not NULL), NULL when none. */
const ur_object *obj_by_id(const unit_record *r, int id, size_t *idx);
/* Local names of r's objects in n->local (the suggested input path, made unique); 0, or -1 when out of memory. */
int assign_names(names *n, const unit_record *r);
/* The lvalue of object index k with a suffix (".f.g", "[3]", ""): "x.f", or for a heap
 * object "x->f" / "*x". Writes into buf (cap bytes). */
const char *lvalue(const names *n, size_t k, const char *suffix, char *buf, size_t cap);
/* Free the names assign_names gave. */
void free_names(names *n);
/* Address expression of object id: "&x" or "x" (arrays), "NULL" for 0; -1 when it cannot be written. */
int addr_of(strbuf *b, const names *n, const char *idtext);
/* The C expression of a recorded value (as a character literal when as_char and printable); 0, or -1. */
int value_expr(strbuf *b, const names *n, const ur_value *v, int as_char);
/* A union's recorded bytes (kind x: hex, two lowercase or uppercase digits per byte) as a C
 * expression of their array, `((const unsigned char[N]){0x01, 0x00})`, appended to b (the
 * parentheses keep its commas out of a macro's arguments). Returns the byte count N, 0 when
 * every byte is zero (nothing appended), -1 when hex is empty, of odd length or not hex. */
int emit_union_bytes(strbuf *b, const char *hex);
/* Whether ctype is an 8-bit character type (char, uint8_t, ...), or an array of one (`char[6]`, an array parameter). */
int is_chartype(const unit_info *u, const char *ctype);
/* The declaration of object index k with its initialiser, pointers to objects not declared yet set
 * afterwards in fix; -1 when a value cannot be written in C. */
int declare_object(const unit_info *u, strbuf *b, strbuf *fix, const names *n, size_t k, const char *declared);
/* Heap mode: `free(x);` for every input object the test malloc'ed and the call did not free. */
void emit_heap_frees(strbuf *b, const names *n);
/* The blocks the call allocated and stored in input entries (`heapat` lines: an out-parameter it
 * filled), released after the assertions with the recorded function, `free((void *)v.name);` or
 * `cJSON_Delete(out);`; not in globals, results, producers' arguments or objects a producer made
 * (their destructor releases what they hold). */
void emit_heapat_releases(strbuf *b, const names *n);

/* Whether object o is one a heap-mode test malloc's (a fresh input: no parameter, global, result,
 * handle or producer argument). */
int emit_heapable(const ur_object *o);

/* ---- emit_producer.c: inputs built by the unit's producers (EvoSuite/Randoop call sequences) ---- */

/* Declaration hook of declare_object for object index k: a parameter a `make ... r` line built is
 * declared with the producer's call as initialiser (`str s = strnew("ab");`), an object a `make ... i`
 * line built is declared and initialised by the call (`parser p_obj;` `parser_init(&p_obj);`), a
 * producer's argument or string written inline in that call is not declared. Returns 1 when it
 * handled k (written or left out on purpose), 0 when k is an ordinary object, -1 when an argument
 * cannot be written in C. */
int emit_made_decl(strbuf *b, const names *n, size_t k);
/* Whether object index k is not declared by the test because a producer's call holds it inline, or only
 * a dropped construction's queue refers to it (names.skip) (assertions must not name it). */
int emit_made_undeclared(const names *n, size_t k);
/* Whether object index k is a string a producer's argument points to that the object the producer
 * made holds too (`buffer_new_with_string(str)` keeping str as its data: the unit's destructor frees
 * it), or in heap mode one the block the call returned holds when a unit destructor releases that
 * block (`strbox_wrap(s)`, `strbox_free(ret)`): the test allocates
 * it (calloc and its literal, as in heap mode) and never frees it itself. */
int emit_made_owned(const names *n, size_t k);
/* Whether the object with id id is a parameter a producer built that the function consumes
 * (unit_param_consumed): nothing is asserted on it after the call. */
int emit_made_consumed(const names *n, int id);
/* The modifiers the harness called on produced parameters (`seq` lines, in record order), one
 * statement each after the declarations, `sha256_update(ctx, ctx_data, 40);`: the parameter's
 * local, then the arguments as a producer's are written (inline values, literals, locals); those of a
 * parameter another parameter's construction takes come before that construction instead
 * (emit_made_decl). 0, or -1 when a line does not fit the unit's function (n->fn, the function under
 * test). */
int emit_made_calls(strbuf *b, const names *n);
/* After the assertions (called: the call ran in this process) or after a failing call in a child
 * (called 0: the test's own copies are intact): release each parameter a producer built with the
 * unit's destructor of its type (unit_destructor), else free; a consumed one's result instead.
 * Returns 1 when it released `ret` (the caller then does not release it again). */
int emit_made_releases(strbuf *b, const names *n, const unit_test *t, int called);
/* With unit_test.keep_made: the blocks the producers allocated for the parameters (make kind h), freed
 * with free, not the destructor (which calls a mock nothing was queued for); what the mocks returned
 * inside them is the test's own. */
void emit_made_frees(strbuf *b, const names *n);

/* ---- emit_walk.c ---- */

/* A C string literal for the len bytes of s, quotes included: \n \t \r \\ \" \? escaped, other
 * unprintable bytes \xNN, the literal split ("\x01" "a") where a hex digit follows \xNN. */
void emit_c_string(strbuf *b, const unsigned char *s, size_t len);
/* The values of character array object o (its pre or post entries) as a C string literal whose
 * bytes, with the implicit NUL and zero fill, are the array's: the bytes before the trailing zeros
 * (at stop_at_nul: before the first zero). Returns 0, or -1 (nothing written) when o is no array,
 * a value is missing or not an integer, or no zero byte ends the text within the array. */
int emit_char_array_literal(strbuf *b, const names *n, const ur_object *o, int post, int stop_at_nul);
/* Assertion that floating-point lvalue lv holds recorded value v exactly (== with its hexadecimal
 * literal; a NaN as lv != lv). */
void emit_float_assert(strbuf *b, const char *lv, const ur_value *v);
int emit_value_assert(strbuf *b, const names *n, const ur_object *o, const ur_value *v, const char *lv);
/* Assertions on the record's walk lines: the fields of the struct the call returned and of fresh
 * memory it stored in input pointers (`ret->next->text`), strings with assert_string_equal after
 * assert_non_null, back pointers with assert_ptr_equal. Returns the number of assertions. */
int emit_walk_asserts(strbuf *b, const names *n);
/* The type at suffix[0..len) (".f.g[2]") inside object o (an array object's first "[k]" picks its
 * element), found through u's types by o's type spelling; NULL when unknown. */
const ut_type *emit_suffix_type(const unit_info *u, const ur_object *o, const char *suffix, size_t len);
/* When suffix names an element of a char array inside object o (".first[2]"), the length of the
 * array's part (".first"); else 0 (an element of an array object itself is 0 too). */
size_t emit_char_field_prefix(const unit_info *u, const ur_object *o, const char *suffix);
/* The assertion on the char array at suffix[0..pl) of object index k after the call, as one value:
 * assert_string_equal with a literal when a NUL ends its text and only zeros follow, else
 * assert_memory_equal with all its bytes; written only when an element changed or force is set.
 * Returns 1 when the array's elements are all recorded as integers (the caller skips them one by
 * one then), 0 otherwise (nothing written). */
int emit_char_field(strbuf *b, const names *n, size_t k, const char *suffix, size_t pl, int force);
/* For a test that asserts nothing else: assertions on what the call left in the input objects
 * (unchanged values: a char array as a string, else each recorded value; at most 8), and the
 * globals. Returns the number of assertions written. */
int emit_unchanged_asserts(strbuf *b, const names *n);

/* ---- emit_stream.c ---- */

/* The declaration of stream object index k (record flag F): its recorded bytes as a char array
 * and `FILE *NAME = fmemopen(NAME_text, LEN, "r")`, or tmpfile() for an empty stream (glibc's
 * fmemopen refuses size 0), then assert_non_null; an output stream (flag O) is `char *NAME_text =
 * NULL; size_t NAME_len = 0; FILE *NAME = open_memstream(&NAME_text, &NAME_len);`. The test closes it
 * (emit_stream_closes). Returns 0. */
int emit_stream_decl(strbuf *b, const names *n, size_t k);
/* `fclose(NAME);` for every stream object of the test, after its assertions (and `free(NAME_text);` for an
 * output stream). */
void emit_stream_closes(strbuf *b, const names *n);
/* For each output stream of the test (flag O): fflush, then its recorded text asserted (assert_string_equal;
 * assert_memory_equal with a length check for text holding a NUL or cut at 1000 bytes; an empty one by its
 * length). */
void emit_ostream_asserts(strbuf *b, const names *n);
/* Whether test t captures its call's standard output: the record says the call wrote some (`stdout` line). */
int emit_captures_stdout(const unit_test *t);
/* The test file's stdout_capture_begin and stdout_capture_end: fd 1 redirected to an unlinked temporary file
 * (mkstemp, no heap block before the call) around the call, the text it received returned (malloc'ed,
 * NUL-terminated; its length in stdout_len). */
void emit_stdout_capture_helpers(strbuf *b);
/* The recorded standard output of the call asserted on stdout_text (assert_string_equal; with a NUL or past the
 * recorded 1000 bytes, its length and the first bytes), then freed. Nothing when the test does not capture. */
void emit_stdout_asserts(strbuf *b, const names *n);

/* ---- emit_callbacks.c ---- */

/* In a function-pointer stand-in of the test file: check_expected (check_expected_ptr for
 * pointers) for every argument unit_callback_arg_kind asserts, so each call must match the next
 * expectation the test queued and a call without one fails the test. */
void emit_callback_checks(strbuf *b, const ut_type *ft);
/* The test's expectations, one per recorded `arg` line in call order: expect_value (integers,
 * enumerators by name, NULL, an input object's address), expect_string (a const char *'s text),
 * expect_any (an address the unit made, a text too long to record). CMocka fails the test when
 * a queued expectation is left over or missing: the count of calls is asserted too. Only the
 * lines whose ur_arg.make is make: 0 the calls during the call under test, 1 + K those during
 * construction K (r->makes[K]). 0, or -1 when a value cannot be written. */
int emit_callback_expects(strbuf *b, const names *n, const char *indent, size_t make);
/* The will_return of every recorded mock return with ur_mock.make == make, then its expectations
 * (emit_callback_expects): queued before construction make - 1 (a producer that calls a mock or a
 * stand-in: iniparser_load_file calling dictionary_new), or, for 0, before the call under test.
 * 0, or -1 when a value cannot be written. */
int emit_mock_queue(strbuf *b, const names *n, const char *indent, size_t make);
/* In a reader's stand-in (unit_callback_is_reader): the statements that take the next queued
 * line (will_return with a string literal, or NULL for the end of the input), copy it into the
 * buffer a0 of size a1 and return a0 (NULL at the end). Returns 1 when written, 0 when ft is no
 * reader. */
int emit_callback_reader_return(strbuf *b, const ut_type *ft);
/* In a byte reader's stand-in (unit_callback_fill_arg: ak the buffer, ak+1 its count): the statements that
 * take the next queued bytes (a string literal of exactly the count, or NULL for a failed read), copy them
 * into ak and return 1 (a bool result) or the count; 0 on a failed read. Returns 1 when written, 0 when ft
 * is no byte reader. */
int emit_callback_fill_return(strbuf *b, const ut_type *ft);
/* In a memory callback's stand-in: `free(aK);` for a releaser (unit_callback_freed_arg), and for
 * an allocator (unit_callback_alloc_sizes) the statements that return NULL when the test queued 1
 * (out of memory) and else a zeroed block of the size asked for (calloc), as the harness's
 * stand-in did. Returns 1 when the return statements were written, else 0. */
int emit_callback_alloc_return(strbuf *b, const char *name, const ut_type *ft);

#endif
