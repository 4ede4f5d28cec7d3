/* unit.h: `sympath unit`: the whole pipeline (unit_run), C function signatures (libclang), harness generation, CMocka test emission. */
#ifndef SYMPATH_UNIT_H
#define SYMPATH_UNIT_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * The unit-test generator turns the functions of a C unit into CMocka tests. It follows
 * the LIME Concolic Tester (Kähkönen et al. 2009, sections 3-6: input objects initialised
 * as NULL, a fresh object or an alias of an earlier object of the same type) and Dsc+Mock
 * (Islam & Csallner 2014, section 4: the i-th call of a mocked function returns a fresh
 * symbolic value). The pieces:
 *   unit_parse      libclang: functions with external linkage, parameter/return types,
 *                   functions called but not defined (mock candidates), the text a test
 *                   file needs to see the unit's types (the "prelude");
 *   unit_harness    a C file whose main builds every parameter from sympath inputs and calls
 *                   the function; explored by the normal build + explorer. Built natively with
 *                   -DSYMPATH_UNIT_RECORD and the replay library, the same harness records the
 *                   object graph, mock returns and the state after the call (the "record");
 *   unit_emit       the record of each kept test case as a readable CMocka test.
 */

typedef enum ut_kind {
    UT_VOID,
    UT_INT,
    UT_BOOL,
    UT_ENUM,
    UT_FLOAT,
    UT_PTR,
    UT_STRUCT,
    UT_UNION,
    UT_ARRAY,
    UT_FUNC,
    UT_OTHER
} ut_kind;

typedef struct ut_type ut_type;

typedef struct ut_field {
    char *name;
    ut_type *type;
    int bitfield; /* nonzero: a bit-field (no address can be taken) */
    char *stub;   /* a function-pointer field's own stand-in, `stub_<field>`, when its type's stand-in is
                     named after another field (callbacks of one type told apart: http-parser's
                     on_url and on_status); NULL: the type's (name_stubs) */
} ut_field;

typedef struct ut_enumerator {
    char *name;
    int64_t value;
} ut_enumerator;

/* A C type as the harness needs it. Types are interned per unit_info (one object per
 * spelling as written), so a recursive struct refers to itself and the harness generates
 * one builder per type. */
struct ut_type {
    ut_kind kind;
    int id;            /* index in unit_info.types */
    int alias_id;      /* id of the first type with the same canonical type (aliasing class) */
    char *spelling;    /* as written (typedef name kept): "node_t", "const char *", "int (*)(int)" */
    char *canonical;   /* canonical spelling (typedefs resolved) */
    uint64_t size;     /* sizeof in bytes (0 for incomplete / void / function) */
    unsigned bits;     /* UT_INT/UT_ENUM/UT_BOOL: width in bits */
    int is_signed;     /* UT_INT/UT_ENUM */
    int is_char;       /* UT_INT: char, signed char or unsigned char (bytes, shown as 'c') */
    int is_plain_char; /* UT_INT: plain char: a pointer to it is a string input */
    int is_const;      /* the type is const-qualified */
    ut_type *pointee;  /* UT_PTR: pointed-to type; UT_ARRAY: element type */
    uint64_t count;    /* UT_ARRAY: element count */
    int complete;      /* UT_STRUCT/UT_UNION: has a definition */
    ut_field *fields;  /* UT_STRUCT/UT_UNION */
    size_t nfields;
    ut_enumerator *enums; /* UT_ENUM */
    size_t nenums;
    ut_type *ret;   /* UT_FUNC: return type */
    ut_type **args; /* UT_FUNC: parameter types */
    size_t nargs;
    int variadic; /* UT_FUNC */
    char *stub;   /* UT_PTR to UT_FUNC: name of its stand-in ("stub_read" after the first field
                                   or parameter of this type), set by unit_parse; NULL: unit_stub_name decides */
};

typedef struct ut_param {
    char *name; /* as declared, or "argN" when unnamed */
    ut_type *type;
    int len_param; /* buffer pointer: index of the length parameter paired with it, or -1 */
    int buf_param; /* length parameter: index of the buffer it measures, or -1 */
    int capacity;  /* buffer pointer of a capacity pair (unit_pair_buffers): an array the function fills,
                      its length by value the array's capacity, chosen from a small set, the elements zero */
    int walked;    /* a pointer the function walks as an array (unit_walks_array; set by unit_mark_walked) */
} ut_param;

typedef struct ut_func {
    char *name;
    char *file; /* source file of the definition (as given) or of the declaration */
    unsigned line;
    ut_type *type; /* UT_FUNC */
    ut_param *params;
    size_t nparams;
    char *decl;    /* prototype rebuilt from libclang's types (unit_prototype): "int f(struct
                                   node *n)" without ';', NULL when not available */
    int is_static; /* defined with internal linkage (static, static inline): testable only by
                                   compiling its file inside the harness and the test (unit_include_sources) */
    int in_header; /* part of the library's interface: first declared in another file than its
                                   definition (the library's header), or defined in a header */
} ut_func;

typedef struct unit_info {
    ut_func *defs; /* functions with external linkage defined in the sources; for a header given
                                   as a source (a header-only library), every function defined in it, static
                                   ones too (--all takes them all) */
    size_t ndefs;
    ut_func *statics; /* functions with internal linkage defined in a .c source: targets by name */
    size_t nstatics;
    char **sources; /* the sources as given to unit_parse (one per source) */
    size_t nsources;
    char **src_prelude;  /* per source: its part of the prelude when it is linked separately */
    int *included;       /* per source: the harness and the tests #include it (a header, or a .c
                                   defining a static target) instead of linking it; see unit_include_sources */
    char **header_defs;  /* pairs name, header path: functions defined in a non-system header a
                                   source includes (not targets: see unit_header_of) */
    size_t nheader_defs; /* strings in header_defs (twice the pairs) */
    ut_func *externs;    /* called (or declared) in the sources, defined in none of them, declared
                                   outside system headers: mock candidates */
    size_t nexterns;
    ut_func *system; /* called, declared in a system header (libc, libm): not mocked unless asked */
    size_t nsystem;
    ut_type **types;
    size_t ntypes;
    char *prelude;     /* includes, macros, type definitions and prototypes of the sources'
                                   own text, in source order, deduplicated; for the harness and tests.
                                   Prototypes are rebuilt from libclang's types (a declaration spelled with
                                   an export macro, `API(int) f(void)`, is fine), and left out when an
                                   included header declares the function. An included source is one
                                   `#include "FILE"` instead (unit_include_block) */
    char *diagnostics; /* clang's warnings and errors, "file:line:col: severity: text\n" each */
    int has_main;      /* a source defines main */
    ut_param *globals; /* variables with external linkage defined in the sources (name, type):
                                   recorded before/after each call, restored at each test's start */
    size_t nglobals;
    char **null_checked; /* identifiers the unit compares with NULL or tests for truth anywhere
                                   ("p", "next" for b->next, "*p" for *p); see unit_null_checked */
    size_t nnull_checked;
    char **written_streams; /* names a function of the unit writes to as a stream: `fprintf(out, ...)`, `fputs(s,
                               out)` (unit_scan_written_streams) */
    size_t nwritten_streams;
    char **opened_paths; /* "FUNC PARAM": a parameter a function of the unit passes to fopen, open, ... as
                            the path (unit_opens_path) */
    size_t nopened_paths;
    char **backward; /* "FUNC PARAM": a pointer parameter the function only walks backwards (unit_reads_before) */
    size_t nbackward;
    char **walked_params; /* "FUNC PARAM": a pointer parameter the function walks as an array (unit_walks_array) */
    size_t nwalked_params;
    char **passed_params; /* "FUNC PARAM CALLEE K": the function passes the parameter whole to CALLEE as argument K */
    size_t npassed_params;
    char **neg_failures; /* functions with a `return -N` (0 or more is success): unit_fails_negative */
    size_t nneg_failures;
    char **null_flow; /* pairs "lhs\trhs" of assignments `lhs = ...rhs;` (rhs: the last identifier
                                   of an access path): a checked lhs makes rhs checked (unit_null_propagate) */
    size_t nnull_flow;
    int mock_outputs;           /* set by the caller (--mock-outputs): the mocks' stand-ins also write a fresh
                                   value through each output parameter (unit_mock_out_param) on every call */
    const char *const *wrapped; /* set by the caller (--mock NAME of a function defined in the unit): calls
                                   from the other files go to a stand-in (the harness renames the definition
                                   to __real_NAME in its own file; the tests link with -Wl,--wrap=NAME and
                                   define __wrap_NAME) */
    size_t nwrapped;
    ut_func *hfuncs; /* functions defined in a non-system header a source includes (sds.h's
                        `static inline size_t sdslen(const sds s)`), with their signatures: the
                        tests can call them (not targets; see unit_length_accessor) */
    size_t nhfuncs;
} unit_info;

/*
 * Parse the C sources with libclang (clang-14 C API, -std=gnu11 plus the words of cflags,
 * split on blanks, quotes honoured) and describe them. Returns 0, or -1 with *err
 * (malloc'ed) when a source cannot be parsed or has errors (clang's diagnostics in *err).
 * A source named *.h (*.hh, *.hpp, *.inc) is parsed as C (`-x c`): a header-only library is
 * the unit, every function defined in it (static ones too) goes to u->defs, and it is
 * included (u->included) from the start. The caller frees u with unit_info_free.
 */
int unit_parse(const char *const *sources, size_t nsources, const char *cflags, unit_info *u, char **err);
/* Free everything u owns (also after a failed unit_parse) and zero it; wrapped is the caller's. */
void unit_info_free(unit_info *u);

/* Whether path (as given to unit_parse) names a header: .h, .hh, .hpp, .hxx, .inc. */
int unit_is_header(const char *path);

/*
 * Mark every source defining one of the targets with internal linkage (u->statics) as
 * included, and rebuild u->prelude: an included source's part is unit_include_block
 * (the file is compiled inside the harness and inside each emitted test, so its static
 * functions are reachable), the others keep their declarations. The caller builds the
 * unit without the included sources (unit_source_included) and leaves them off the test's
 * build line. Returns the number of included sources.
 */
size_t unit_include_sources(unit_info *u, const ut_func *const *targets, size_t ntargets);

/* Whether path (one of the sources given to unit_parse) is included by the harness and the
 * tests instead of being compiled and linked on its own. */
int unit_source_included(const unit_info *u, const char *path);

/* The prelude text that includes source path: `#include "BASE"` (found through the -I of the
 * source's directory every build of the unit has), between pragmas that silence unused-function
 * and unused-variable warnings for the static functions and data the test does not use.
 * Malloc'ed. */
char *unit_include_block(const char *path);

/* The lines of prelude that define a feature-test macro (`#define _POSIX_C_SOURCE
 * 200112L`, _GNU_SOURCE, _XOPEN_SOURCE, ... : POSIX.1-2008 2.2.1 and glibc's <features.h>). A
 * generated file writes them before its first #include: after a system header a different value
 * is a redefinition (-Werror), and too late to select declarations. The prelude keeps them (the
 * same definition again is no redefinition). Malloc'ed ("" when none), NULL when out of memory. */
char *unit_feature_macros(const char *prelude);

/* A single-header library's implementation switch: the first macro the header at path tests with
 * `#ifdef NAME`, `#if defined(NAME)` or `#if defined NAME` whose name holds IMPL (rxi's sj.h `SJ_IMPL`,
 * the stb headers' `STB_*_IMPLEMENTATION`). The pipeline defines it when the header, parsed as the
 * unit, defines no function. Malloc'ed; NULL when there is none (or the file cannot be read). */
char *unit_header_impl_macro(const char *path);

/*
 * Prototype of f rebuilt from libclang's types: "int f(const char *s, size_t n)",
 * "void g(void)", "int (*h(int k))(int)", "int v(int a, ...)" (no ';'). Types are spelled as
 * clang spells them after preprocessing (typedef names kept, macros expanded); one clang cannot
 * spell as C (an anonymous struct) is replaced by its canonical spelling, and when that fails
 * too the result is NULL. Malloc'ed.
 */
char *unit_prototype(const ut_func *f);

/*
 * Compiler flags for the sources from a compilation database (compile_commands.json, written
 * by CMake's CMAKE_EXPORT_COMPILE_COMMANDS or by Bear): db is the file (any name) or its
 * directory, read with libclang's CXCompilationDatabase. The flags that matter for parsing and
 * building the unit are kept: -I, -isystem, -iquote, -idirafter, -D, -U, -std=, -include,
 * -imacros (relative paths made absolute against the command's directory), the union over
 * the sources in order without repeats, as one string for --cflags (words quoted for
 * util_split_words; a strict -std=cNN becomes -std=gnuNN, as the harness and the replay library
 * built with these flags need glibc's extensions). A file without an entry (a header) takes the entry of a file in the same
 * directory, else the first entry. Returns the malloc'ed string (possibly ""), or NULL with
 * *err (malloc'ed) when the database cannot be read.
 */
char *unit_compdb_flags(const char *db, const char *const *sources, size_t nsources, char **err);

/* word quoted so that util_split_words gives it back unchanged ("..." with \ and \" escaped
 * when it holds anything but letters, digits and -_=./,:+@%); malloc'ed. */
char *unit_quote_word(const char *word);

/*
 * Whether the unit checks a pointer named `name` (a parameter or variable name, or a field
 * name: the last member of `a->b->name`) for NULL anywhere (`x == NULL`, `x != 0`, `!x`,
 * `if (x)`, `x && ...`), or with deref nonzero, `*name`. Found on the token stream of every
 * function body of the sources. A syntactic approximation (names are not scoped) that no longer
 * decides NULL: the harness makes a pointer NULL lazily, where the run compares it with NULL
 * before a dereference (sympu_lazy_null in sympath_unit_rt.h). Kept for the parser's tests.
 */
int unit_null_checked(const unit_info *u, const char *name, int deref);

/* Scan one function body's tokens (spellings, n of them) for NULL checks and add the
 * checked names to u->null_checked. Called by unit_parse; exposed for tests. */
void unit_scan_null_checks(unit_info *u, const char *const *tok, size_t n);

/* Scan the body of function fn (its tokens: spellings, n of them) for a call that opens a file by a
 * name, `fopen(NAME, ...)` (also freopen, open, openat's second, opendir, stat, lstat, access), and
 * add "fn NAME" to u->opened_paths. Called by unit_parse; exposed for tests. */
void unit_scan_opened_paths(unit_info *u, const char *fn, const char *const *tok, size_t n);

/* Scan a function body's tokens (spellings, n of them) for the stream argument of a call that writes to a
 * stdio stream (fprintf's, vfprintf's first; fputs', fputc's, putc's, fwrite's last, and their wide and
 * _unlocked forms) and add its name to u->written_streams: a `FILE *` parameter of that name is an output
 * stream in the harness (open_memstream), its text asserted (iniparser_dump(d, FILE *f)). */
void unit_scan_written_streams(unit_info *u, const char *const *tok, size_t n);

/* Whether name is in u->written_streams. */
int unit_writes_stream(const unit_info *u, const char *name);

/* Whether the body of fn (tokens, n) returns a negative constant (`return -1;`, or an enumerator of the unit
 * whose value is negative: parson's `return JSONFailure;`, JSONFailure = -1): an int-returning
 * function of the 0-or-more-on-success convention. Adds fn to u->neg_failures. */
void unit_scan_negative_returns(unit_info *u, const char *fn, const char *const *tok, size_t n);

/* The parameter names of a function definition's tokens (tok, n): the identifiers before `,` or `)` at depth 1
 * of its first parenthesis, at most max of them into params (pointers into tok); *body: the index of the body's
 * `{` (n when none). Returns the count. */
size_t unit_tok_params(const char *const *tok, size_t n, char **params, size_t max, size_t *body);
/* The index of the token after `x = ` when tok[j] is x and tok[j + 1] `=`, past a cast `(T *)`. */
size_t unit_tok_rhs(const char *const *tok, size_t n, size_t j);
/* Grow an alias group (*ng names of at most 16 in group, pointers into tok) with what the body (tokens from
 * body) assigns from one of them: `x = P;`, `x = (T)P;`, a member `s->m = P;` by the member's name. */
void unit_tok_group(const char *const *tok, size_t n, size_t body, char **group, size_t *ng);

/* The pointer parameters of fn (tokens, n: its definition) that the body walks backwards and never
 * forwards, itself or through an alias `s = (T *)param;` (`s--`, `--s`, `s -= k`, `s[-1]`, `s = s - k`;
 * forwards: `s++`, `++s`, `s += k`, `s = s + k`): utf8.h's utf8rcodepoint reads before the pointer it is
 * given, the middle of a text. Adds "fn PARAM" to u->backward. A heuristic on tokens, not a proof. */
void unit_scan_backward_params(unit_info *u, const char *fn, const char *const *tok, size_t n);

/* Whether parameter param of fn is in u->backward (unit_scan_backward_params): the harness gives a
 * string there HARNESS_ROOM_BEFORE symbolic bytes before the pointer it passes. */
int unit_reads_before(const unit_info *u, const char *fn, const char *param);

/*
 * The pointer parameters of fn (tokens, n: its definition) the body walks as an array, itself or through
 * an alias (`x = P;`, a member `s->m = P;`): indexed by anything but a literal 0 (`P[i]`, `s->m[s->at]`) or
 * stepped forward (`P++`, `++P`, `P += k`, `P = P + k`); adds "fn P" to u->walked_params. The calls that
 * pass such a parameter whole to another function (`g(x, P)`) are kept too ("fn P g 1" in
 * u->passed_params) for unit_walks_array, and so are the members it is kept in (`c->m = P;`: "fn P .m -1"); the
 * members any function walks (`c->m[c->at]`, `c->m++`) are "* .m" in u->walked_params. A cursor (`(*s)++`, `*s`) is not walked. A heuristic on
 * tokens, not a proof.
 */
void unit_scan_walked_params(unit_info *u, const char *fn, const char *const *tok, size_t n);

/* Whether parameter param of fn is walked as an array by fn, by a function of the unit fn passes it
 * to whole (u->passed_params followed up to 4 calls deep; the callee's parameter by its position), or
 * through a member it is kept in that some function walks (the walk need not be where it is stored):
 * cwalk's cwk_path_join_multiple(paths) hands paths on to a function that reads paths[sj->path_index].
 * The harness then builds a `T **` parameter as a NULL-terminated array (harness_null_list). */
int unit_walks_array(const unit_info *u, const char *fn, const char *param);

/* Set ut_param.walked of every parameter of u's functions (defs, statics, hfuncs) by unit_walks_array, once
 * every body was scanned (unit_parse does). */
void unit_mark_walked(unit_info *u);

/* Whether member name (a struct field's name) is walked as an array by some function of the unit (`c->m[c->at]`,
 * `x = c->m; x++`): a field of a list's type is then built as a list (harness_null_list). */
int unit_member_walked(const unit_info *u, const char *name);

/* Whether fn returns a negative constant somewhere (unit_scan_negative_returns): its success is a
 * result >= 0 (tnode's tn_add: 0 or -1), not a nonzero one (node_list_add: 1 or 0). */
int unit_fails_negative(const unit_info *u, const char *fn);

/* "FUNC PARAM" lists (u->opened_paths, u->backward): whether v (n entries) holds fn's parameter param, and
 * adding it to *v (*n entries, malloc'ed; a duplicate or an allocation failure adds nothing). */
int unit_fn_param_in(char *const *v, size_t n, const char *fn, const char *param);
void unit_fn_param_add(char ***v, size_t *n, const char *fn, const char *param);

/* Whether function fn passes its parameter param to a call that opens a file by that name
 * (unit_scan_opened_paths): iniparser's `iniparser_load(const char *ininame)`. */
int unit_opens_path(const unit_info *u, const char *fn, const char *param);

/* Close u->null_checked under u->null_flow: `p = head` or `p = p->next` with p checked
 * makes head / next checked, until nothing changes. Called by unit_parse. */
void unit_null_propagate(unit_info *u);

/* Whether name is one of u->wrapped. */
int unit_is_wrapped(const unit_info *u, const char *name);

/* The header (path) defining function name when a source only includes it (a header-only
 * library included by a .c: the header itself is the unit to give), or NULL. */
const char *unit_header_of(const unit_info *u, const char *name);

/* The function named name among u->defs, then u->statics, or NULL. */
const ut_func *unit_find_def(const unit_info *u, const char *name);

/*
 * Declarator text for a variable `name` of type spelling `spelling`: "int x",
 * "char x[9]" (spelling "char [9]"), "int (*x)(int)" (spelling "int (*)(int)").
 * Returns a malloc'ed string (NULL when out of memory).
 */
char *unit_declarator(const char *spelling, const char *name);

/* Identifier-safe form of text ("struct node *" -> "struct_node_p"), malloc'ed. */
char *unit_ident(const char *text);

/* Name of the stand-in shared by every function pointer of type fp, malloc'ed: fp->stub
 * ("stub_read", after the first struct field or parameter of that type), else one made of
 * the type ("int (*)(int)" -> "stub_int_p_int"). The harness and the tests use the same name. */
char *unit_stub_name(const ut_type *fp);

/* Append the words of s to *v by util_split_words' quoting rule (util.h); *v stays
 * NULL-terminated, *n counts the words, strings are malloc'ed. A malformed s (an
 * unterminated quote) adds the words before the error: callers check --cflags first. */
void unit_split_words(const char *s, char ***v, size_t *n);

/*
 * Pair buffer parameters with their length: a pointer parameter to a scalar, complete
 * struct, pointer or void, next to an integer parameter named like a length (n, len,
 * length, size, sz, count, cnt, num, nbytes, argc, or ending in len/size/count) — after it
 * (`buf, n`) or, for pointers left unpaired, before it (`argc, argv`) — gets len_param = the
 * length's index, and the length buf_param = the pointer's index. A length whose name has a word
 * before its tail must be about the buffer or any buffer (`inlen`, `max_len`; not `last_len` after
 * `num_headers`). A length may also be a pointer to an integer (unit_count_ptr) after an array
 * the function fills, not const and of no pointers (`headers, size_t *num_headers`: the capacity
 * in, the count out; there `num_` + the buffer's name is a length name too). `num_` or `max_` +
 * the buffer's name, by value or by such a pointer, after a non-const array of complete structs or
 * non-char integers (of pointers too after `max_`) is a *capacity pair* (`jsmntok_t *tokens,
 * unsigned num_tokens`, `struct yuarel_param *params, int max_params`, `struct phr_header
 * *headers, size_t *num_headers`; ut_param.capacity set on the buffer): the harness makes the
 * count one of a few capacities and leaves the elements zero.
 * Called by unit_parse; exposed for tests.
 */
void unit_pair_buffers(ut_func *f);

/* Whether t is a pointer to a non-const, non-char integer: a length passed by pointer when
 * unit_pair_buffers paired it (`size_t *num_headers`). */
int unit_count_ptr(const ut_type *t);

/*
 * The out-parameter holding the element count of the array f returns: the first parameter that is a
 * pointer to a non-const integer (unit_count_ptr), paired with no buffer, named like a length (n,
 * len, count, size, argc, ... or n_ + a word: `sds *sdssplitargs(const char *line, int *argc)`,
 * `char **split(const char *s, size_t *count)`). f must return a data pointer. Returns its index,
 * -1 when none. After unit_pair_buffers.
 */
int unit_result_count(const ut_func *f);

/*
 * A second length of a buffer: parameter i of f, an unpaired integer named like a length, after a
 * buffer/length pair (`phr_parse_request(buf, len, ..., size_t last_len)`: the length of an earlier
 * read of the same buffer), is at most that buffer's length (the harness assumes it; a larger one
 * only reads past the buffer, a test the unit's callers never write). Returns the buffer's
 * parameter index, -1 when i is no such length. After unit_pair_buffers.
 */
int unit_length_within(const ut_func *f, size_t i);

/*
 * A position in a text or buffer: parameter i of f, an unpaired integer by value named like a position
 * (i, pos, idx, index, off, offset, start, begin, end, from, at, cursor, or ending in off, pos, idx,
 * index), after a plain `char *` string or a buffer whose length comes before i. The harness assumes it
 * is at most --str-len (the string object's last byte) or the buffer's length: a larger one only reads
 * past the input (cutef8's u8_escape got `end` near 2^64), a call its callers never make. Returns the
 * string's or buffer's parameter index (the nearest before i), -1 when i is no such position. After
 * unit_pair_buffers.
 */
int unit_position_within(const ut_func *f, size_t i);

/*
 * A pointer to a position in another input: parameter i of f (not the first), a pointer to an
 * integer type, unpaired and no range end (unit_range_begin), named like a position (where, pos,
 * position, cur, curr, current, cursor, here, at, point, mark, or ending in _pos:
 * `stb_c_lexer_get_location(lexer, where, loc)`, where points into the text the lexer reads). The
 * harness points it into an array built before it (a parameter's text or buffer, a producer's
 * argument) first, `where = &lexer_input_stream[3]` in the test, and into a fresh object of its own
 * as the other choice: as a separate object the function compared unrelated pointers (`p < where`)
 * and the test passed or not by where the compiler put the arrays. Returns 1 or 0.
 */
int unit_position_param(const ut_func *f, size_t i);

/*
 * The end of a range: parameter i of f, a pointer to the same integer element type (const aside) as
 * the parameter right before it, named like an end (end, *_end, endp, last, limit, lim, stop, eof,
 * e, pe: `ini_rstrip(char *s, char *end)`, `parse(const char *p, const char *end)`), not paired with
 * a length. The harness points it into that parameter's object, `end = s + k` with k an input below
 * the object's element count (`char *end = &s_obj[5];` in the test): as two separate objects, the
 * function compared unrelated pointers and read before the second (ASan dropped every test).
 * Returns the begin parameter's index, or -1.
 */
int unit_range_begin(const ut_func *f, size_t i);
/* The same for field i of struct t and the field before it (rxi/ini's `struct ini_t { char *data;
 * char *end; }`): the harness points the end into the begin's object. Returns the begin field's
 * index, or -1. */
int unit_field_range_begin(const ut_type *t, size_t i);

/*
 * A *buffer struct*: struct t holds exactly one data pointer (to elements the harness can fill,
 * not a function) and an integer field named like its length (l, len, length, n, size, count,
 * used, ...) or a position (pos, *_pos: the used length; a length-named field beside it is then the
 * capacity, libcsv's `entry_buf, entry_pos, entry_size`), perhaps also one named like its capacity (m, cap, capacity, alloc, max, room;
 * `size` when another field is the length): klib's `kstring_t { size_t l, m; char *s; }`, a
 * vector's `{ T *data; size_t len, cap; }`. Its valid states have the data a heap block of cap
 * elements (at least len, and len + 1 for characters: the text's NUL), or NULL with both zero;
 * built field by field the three were unrelated (`.l = 2147483647, .m = 19` over 17 bytes) and
 * every test that used them was out of bounds. Field indexes into *data, *len, *cap (-1: none).
 * Returns 1 when t is one, else 0.
 */
int unit_buffer_struct(const ut_type *t, int *data, int *len, int *cap);

/* Whether f's last parameter is a va_list after at least one other (`int vsnprintf_(char *buffer, size_t
 * count, const char *format, va_list va)`, C11 7.16): the harness and the test call it through a variadic
 * wrapper, `call_F(buffer, count, format, ...)` (va_start, F(..., ap), va_end), with the variadic blocks of a
 * variadic target (UNIT_VARARG_BLOCKS); the va_list is no input. */
int unit_va_list_last(const ut_func *f);

/* Whether the call of f passes the variadic blocks: f is variadic or unit_va_list_last. */
int unit_takes_varargs(const ut_func *f);

/* Append to b the definition of f's variadic wrapper `static R call_F(params but the va_list, ...)` when
 * unit_va_list_last(f), else nothing (the harness and the emitted test both define it). */
struct strbuf;
void unit_va_wrapper(struct strbuf *b, const ut_func *f);

/* Whether a parameter of this type is an output parameter a mock's stand-in writes with
 * --mock-outputs: a pointer to a non-const integer (uint8_t included), bool, enum, pointer or
 * complete struct (not plain char or void: strings and raw buffers have no size the stand-in
 * could know). */
int unit_mock_out_param(const ut_type *t);

/* Bytes at the start of union type t that a pointer may occupy: the size of its largest member
 * holding a pointer anywhere (a pointer, a function pointer, an array or struct or union with
 * one; every member of a union starts at offset 0). The harness makes the union's bytes from
 * there to sizeof symbolic and keeps these zero (a pointer member reads NULL, never a wild
 * address). 0 for a union without pointers; t->size when every byte may be a pointer's; 0 for
 * a type that is not a complete union. Pure (harness.c). */
uint64_t unit_union_ptr_extent(const ut_type *t);

/* Whether every byte of union type t is the value of whichever member was stored last: each
 * member (at least one, no bit-field) is sizeof t bytes long. Then a union a function built
 * and returned has no indeterminate bytes, and the test compares all of them. Pure (harness.c). */
int unit_union_uniform(const ut_type *t);

/* How a function-pointer stand-in's argument of type t is recorded and asserted (callbacks: the
 * count and arguments of the calls the unit makes, harness_callbacks.c): 'i' / 'u' a signed /
 * unsigned integer or bool, 'e' an enum, 's' a const char * (its text), 'p' another pointer;
 * 0: not asserted (floating point, struct, union). */
int unit_callback_arg_kind(const ut_type *t);

/* Whether argument i of function type f is text with its length in argument i + 1 (kind 's'
 * followed by a size_t (unsigned, of a pointer's width; the parameter names of a function type are not kept): http-parser's `int (*)(http_parser *, const char *at, size_t
 * length)`): recorded as those bytes (value kind m), asserted with expect_memory, never read as a
 * C string (the parser's buffer has no NUL after them: reading one was past the test's array). */
int unit_callback_text_len(const ut_type *f, size_t i);

/* Whether argument i of function type f (kind 'p', a void or char pointer) is bytes the unit hands
 * over with their length in argument i + 1 (a size_t): its pointee const, or f returns void, so the
 * callee does not fill it (libcsv's `void (*cb1)(void *field, size_t len, void *data)`). Recorded as
 * those bytes at the time of the call (value kind m, at most 200) and asserted with expect_memory. */
int unit_callback_bytes_len(const ut_type *f, size_t i);

/* Whether function type f is a reader callback shaped like fgets, `char *(*)(char *buf, int n,
 * ...)`: its stand-in ends the input (NULL) or writes a line of fresh symbolic text (at most
 * n - 1 bytes and --str-len) into buf and returns buf; the test's stand-in copies the queued line
 * (harness_callbacks.c, emit_callbacks.c). */
int unit_callback_is_reader(const ut_type *f);

/* The index of the buffer a byte-reader callback fills, or -1: function type f returns an integer or bool
 * and takes a non-const pointer to bytes followed by its count, `void *` with a size_t, or a `char *` (any
 * char type) with any integer (camgunz/cmp's `bool (*)(cmp_ctx_t *ctx, void *data, size_t limit)`,
 * stb_image's `int (*)(void *user, char *data, int size)`); the last such pointer (a user pointer comes
 * first). Its stand-in fills the count's bytes (harness_callbacks.c, emit_callbacks.c). Not the fgets shape
 * (unit_callback_is_reader). */
int unit_callback_fill_arg(const ut_type *f);

/* Whether function type f is an allocator callback: it returns void * or a char pointer (a block
 * of bytes, not a node) and takes a size_t (unsigned, of a pointer's width); returns the number of
 * such arguments, at most 2 (a calloc-like count and size), their indexes in idx[0..1]; 0: none.
 * Its stand-ins return a zeroed block of the size (the product) asked for, or NULL as a choice
 * (harness_callbacks.c, emit_callbacks.c). */
size_t unit_callback_alloc_sizes(const ut_type *f, size_t idx[2]);

/* Whether the stand-in name of allocator type f (unit_callback_alloc_sizes, one size) moves a block:
 * name contains "realloc" and f takes a `void *` (`void *(*mem_realloc)(void *ptr, size_t size, void
 * *user)`); returns the index of the first such argument before the size, the block the stand-ins realloc() (its
 * bytes kept, the old block freed; a size of 0 frees it and gives NULL, as Lua's lua_Alloc), or -1: a
 * fresh zeroed block instead. */
int unit_callback_realloc_arg(const char *name, const ut_type *f);

/* Whether the stand-in name of function type f releases a block: f returns void, its first
 * argument is a `void *` and name contains "free" or "dealloc" (json-parser's `mem_free(void *,
 * void *user_data)` as stub_mem_free). Returns the index of that argument (0), which the
 * stand-ins free(); -1: none. */
int unit_callback_freed_arg(const char *name, const ut_type *f);

/* Options of the harness. */
typedef struct unit_harness_opts {
    unsigned depth;                /* fresh objects at most this many pointers deep (LCT's bound k), >= 1 */
    unsigned str_len;              /* strings: bytes before the terminating NUL, at most */
    unsigned buf_len;              /* buffer/length pairs: elements, at most */
    int enum_any;                  /* nonzero: enums take any value, not only the declared ones */
    int null_all;                  /* nonzero: every pointer may be NULL, checked or not */
    int cycles;                    /* nonzero: a pointer may alias an object still being built (cyclic inputs) */
    int global_inputs;             /* nonzero: the unit's global variables are inputs too (else their initial values) */
    const char *rt_header;         /* absolute path of sympath_unit_rt.h */
    const char *const *mock_names; /* --mock names: also replaced when declared in a system header */
    size_t nmock_names;
    /* nonzero (--raw-inputs): no producers, every parameter built field by field */
    int raw_inputs;
    /* --init TYPE=FUNCTION (repeatable): FUNCTION produces TYPE (a parameter's spelling or its
     * pointee's); no discovery for that TYPE (producers_int.h) */
    const char *const *inits;
    size_t ninits;
} unit_harness_opts;

/*
 * Generate the harness C file: the prelude, a stand-in for each mock (u->externs, and
 * u->system functions named in o->mock_names), a builder per type reachable from the
 * targets' parameters, one driver per target function, and a main that runs the driver
 * named by the environment variable SYMPATH_UNIT_FUNCTION. Returns a malloc'ed text, or
 * NULL with *err. *warnings (malloc'ed, may be "") lists parameters that cannot be built
 * and are fixed to a default value (zero / NULL), one line each.
 */
char *unit_harness(const unit_info *u, const ut_func *const *targets, size_t ntargets, const unit_harness_opts *o,
                   char **warnings, char **err);

/*
 * The variadic arguments a harness and an emitted test pass to a variadic function under test
 * (`bool scan(const char *s, const char *fmt, ...)`): UNIT_VARARG_BLOCKS pointers to zeroed,
 * 16-byte aligned blocks of UNIT_VARARG_BYTES bytes each, then a NULL pointer — memory for what a
 * format asks to write or read (an empty string), and an end for a NULL-terminated list. What the
 * function reads there as an integer is an address: such a test is not reproducible and the
 * native verification drops it.
 */
#define UNIT_VARARG_BLOCKS 6
#define UNIT_VARARG_BYTES 64

/* ---- the record of one harness run (written by sympath_unit_rt.h in record mode) ----
 * Text lines, each one event:
 *   obj ID FLAGS COUNT LOCAL CTYPE       a new object; FLAGS: p = parameter (by value), a = array
 *                                        of COUNT elements of CTYPE (else COUNT is 1), s = string,
 *                                        g = a global variable (LOCAL is its name), r = the struct
 *                                        the call returned (recorded after the call only), h = an
 *                                        opaque handle (COUNT zero bytes standing for an unknown type),
 *                                        F = a FILE * read stream (CTYPE FILE; its bytes on a stream line)
 *                                        O = a FILE * output stream (its text after the call on an ostream line)
 *   stream ID LEN HEX                    the LEN bytes stream object ID holds, two hex digits each
 *   ostream ID LEN HEX                   after the call, output stream ID (flag O: open_memstream, a FILE * the
 *                                        unit writes to) holds these LEN bytes (the first 1000)
 *   stdout LEN HEX                       after the call: it wrote LEN bytes to standard output, the first
 *                                        1000 in HEX (sympu_stdout_begin/end)
 *                                        m = an argument of a producer's call (see make)
 *   pre ID SUFFIX KIND VALUE             a value inside object ID before the call (SUFFIX "" is
 *   post ID SUFFIX KIND VALUE            written "-"; ".f.g", "[3]"); after the call
 *   mock NAME KIND VALUE                 a stand-in's return value, in call order
 *   arg NAME K KIND VALUE                argument K of a call to function-pointer stand-in NAME (before
 *                                        the call's mock line; KIND s: a const char *'s text, v: any)
 *   call                                 the function is called now
 *   ret KIND VALUE                       it returned this value
 *   walk ROOT LV TAIL KIND VALUE         after the call, a value in fresh memory the call returned
 *                                        (ROOT 0, LV "-") or stored in the pointer at entry LV of input
 *                                        object ROOT; TAIL is the access path from there ("->next->text",
 *                                        "-" for the pointer itself); KIND as below, or q: the same block
 *                                        as the path VALUE of the same root (a cycle, a back pointer), or
 *                                        a: the text of a char array (a literal body, up to its NUL)
 *   retheap                              the returned pointer is the start of a block malloc, calloc or
 *                                        realloc gave during the call (not freed): the test releases it
 *   heapat ID LV REL                     after the call, the pointer at entry LV of input object ID
 *                                        starts a block the call allocated (not freed, not the result
 *                                        nor named by an earlier heapat line): the test releases it
 *                                        with REL (the unit's destructor of the entry's type, or free)
 *   freed ID                             the call freed or reallocated object ID (no post values)
 *   vararg K HEX                         after the call, block K of the variadic arguments (unit.h)
 *                                        holds these bytes (two hex digits each), then zeros; a
 *                                        block left all zero has no line
 *   varheap K OFF HEX                    after the call, the pointer at byte OFF (a multiple of 8) of
 *                                        vararg block K starts a block the call allocated (frozen's
 *                                        json_scanf `%Q`) holding HEX (its first 64 bytes at most, "-":
 *                                        none): the pointer is not asserted, the bytes are, the test frees it
 *   make ID r FUNC ARG...                parameter object ID was built by the call ID = FUNC(ARG...), each
 *                                        ARG the id of an object of flag m holding that argument; kind h
 *                                        instead of r: the value is the start of a heap block FUNC allocated
 *   make ID i FUNC ARG...                fresh object ID was initialised by FUNC(&ID, ARG...), each ARG an
 *                                        object of flag m (producers_int.h)
 *   make ID v FUNC ARG...                fresh object ID holds the struct FUNC(ARG...) returned by value
 *   make ID o FUNC ARG...                fresh object ID was filled by FUNC(ARG..., &ID) (a parser into the
 *                                        caller's struct, UP_OUT in producers_int.h)
 *   add ID NODE PARENT ADDER NA ADARG... ITEM ARG...
 *                                        then ADDER(C, ADARG..., ITEM(ARG...)) added item NODE (1, 2, ...,
 *                                        numbered from the container down) of parameter object ID's
 *                                        item tree to C: ID itself when PARENT is 0, else item PARENT;
 *                                        the NA ADARGs are the adder's other arguments in its order (a
 *                                        key, `cJSON_AddItemToObject(C, key, item)`), objects of flag m;
 *                                        an item's own items come before it (producers_int.h)
 *   seq ID FUNC ARG...                   then FUNC(ID, ARG...) changed parameter object ID (a modifier)
 *   retown TAIL                          the pointer at TAIL below the return value (a walk line's tail)
 *                                        starts a block the call allocated that no earlier line named
 *   done                                 the harness ended normally after the call
 * KIND: i signed decimal, u unsigned decimal, e enumerator name or decimal, p object ID (0 =
 * NULL, ID[K] = element K of array object ID, -1 = any other address), f stand-in name or
 * NULL, d floating point (C99 hexadecimal), s the text of a returned string that is no input
 * object (a C string literal body: \n \t \\ \" \? and \xNN escapes), v void / not recorded,
 * x the bytes of a union (two lowercase hexadecimal digits per byte, sizeof of them), m (arg lines
 * only) a callback's text argument with a length, the bytes as a literal body (\x00 for a NUL), b (walk lines
 * only) a string with its length: "LEN N BODY", LEN the unit's length accessor (sdslen), N its
 * value, BODY the N bytes as a literal body (a NUL as \x00).
 */
typedef struct ur_value {
    char kind;  /* i u e p f v d s q a x b m (above) */
    char *text; /* as recorded */
} ur_value;

typedef struct ur_entry {
    int obj;
    char *suffix;       /* "" for the whole object */
    ur_value pre, post; /* post.kind 0 when not recorded */
} ur_entry;

typedef struct ur_object {
    int id;
    int param, array, string, global, result, handle;
    int freed;           /* the call freed (or moved) it: no values after the call */
    int pointee_freed;   /* a pointer the call freed the block of (`pfreed ID`: list_remove(l, n) frees n): the
                            test does not release it */
    int stream;          /* flag F: a FILE * read stream (its bytes in data, from the `stream` line) */
    int ostream;         /* flag O: a FILE * output stream (the text the call wrote in data, from the `ostream`
                            line) */
    unsigned char *data; /* stream: the bytes it holds (malloc'ed; NULL when none) */
    size_t ndata;
    /* flag m: holds an argument of a producer's call (`make`), not declared on its own when its value
     * can be written inline */
    int make_arg;
    uint64_t count;
    char *local; /* suggested local name (sanitised, unique per record) */
    char *ctype; /* element / object type spelling */
} ur_object;

/* A `walk` line: the value at the path TAIL below the return value (obj 0) or below entry
 * (obj, suffix) of an input object. */
typedef struct ur_walk {
    int obj;
    char *suffix; /* "" for the whole object (and for the return value) */
    char *tail;   /* "" for the pointer itself */
    ur_value value;
} ur_walk;

/* A `heapat` line: the pointer at entry (obj, suffix) is a block the call allocated for the
 * caller, released by the test with release after its assertions (an out-parameter the call
 * filled: `semver_parse(s, &v)` allocating v.prerelease). */
typedef struct ur_heapat {
    int obj;
    char *suffix;  /* "" for the whole object */
    char *release; /* "free" or the unit's destructor of the entry's type */
} ur_heapat;

typedef struct ur_mock {
    char *name;
    ur_value value;
    size_t make; /* 1 + the index in makes of the construction this call happened in (a producer calling a
                    mock or a stand-in: recorded before its make, add or seq line, and before `call`);
                    0: during the call; UNIT_MAKE_DROPPED: in a construction the test leaves out
                    (unit_record_prune: its parameter is NULL) */
} ur_mock;

/* ur_mock.make and ur_arg.make of a call made in a construction unit_record_prune dropped. */
#define UNIT_MAKE_DROPPED ((size_t)-1)

/* An `arg` line: argument index of a call to the function-pointer stand-in name. */
typedef struct ur_arg {
    char *name;
    int index;
    ur_value value; /* kind i u e s p, or v (not asserted) */
    size_t make;    /* as ur_mock's */
} ur_arg;
/* A `make` line: how an input was built by the unit's own producer (EvoSuite/Randoop call
 * sequences of length one, or two with a `seq` modifier). */
typedef struct ur_make {
    int obj;    /* the object built: a parameter (kind 'r') or a fresh object (kinds 'i', 'o', 'v') */
    char kind;  /* 'r': obj = func(args); 'h': the same, the value a heap block's start; 'i': func(&obj);
                   'o': func(args, &obj);
                   'v': obj = func(args), a struct returned by value, the parameter its address;
                   'a': func(obj, item(args)) (an `add` line: func the adder); 'c': func(obj, args) (a
                   `seq` line: a modifier called on the parameter object obj after it was made) */
    char *func; /* the producer (the adder) */
    char *item; /* kind 'a': the producer of the item; else NULL */
    int *args;  /* kind 'r' (and 'i', after the object): ids of the m objects holding the arguments,
                   in order; kind 'a': the adder's own arguments (nadder of them), then the item
                   producer's */
    size_t nargs;
    int node, parent; /* kind 'a': the item's number in obj's item tree, and its container's (0: obj) */
    size_t nadder;    /* kind 'a': how many of args are the adder's */
} ur_make;

typedef struct unit_record {
    ur_object *objs;
    size_t nobjs;
    ur_entry *entries;
    size_t nentries;
    ur_mock *mocks;
    size_t nmocks;
    ur_arg *args; /* the callbacks' arguments, in call order */
    size_t nargs;
    ur_walk *walks; /* in record order */
    size_t nwalks;
    ur_make *makes; /* in record order */
    size_t nmakes;
    ur_heapat *heapats; /* in record order */
    size_t nheapats;
    char *varargs[UNIT_VARARG_BLOCKS];   /* `vararg` lines: block K's bytes in hex (malloc'ed), NULL when all zero */
    uint8_t varheap[UNIT_VARARG_BLOCKS]; /* `varheap` lines: bit W set when the pointer at byte 8*W of block K is a
                                            block the call allocated */
    char *varheap_bytes[UNIT_VARARG_BLOCKS][8]; /* that block's first bytes in hex (malloc'ed), NULL: none */
    int ret_heap;   /* "retheap" seen: the returned pointer is a block the call allocated and did not free */
    char **retowns; /* `retown` lines: tails below the return value ("->data", "[2]") of pointers that start a
                       block the call allocated, in walk order (malloc'ed strings) */
    size_t nretowns;
    /* `stdout` line: the first bytes the call wrote to standard output (malloc'ed), NULL: no line */
    unsigned char *out;
    size_t nout;    /* how many of them out holds (at most 1000) */
    size_t out_len; /* how many it wrote in all */
    int called;     /* "call" seen */
    int done;       /* "done" seen */
    ur_value ret;   /* kind 0 when not returned */
} unit_record;

/* Parse a record (text: the whole file; NULL reads as empty). Returns 0 with *r filled (the
 * caller frees it with unit_record_free), or -1 with *err (malloc'ed, names the malformed
 * line) and *r empty. A record that ends early (the run crashed) is valid: called/done tell. */
int unit_record_parse(const char *text, unit_record *r, char **err);
/* Free everything r owns and zero it. */
void unit_record_free(unit_record *r);
/* Remove from r the objects that no parameter, global, result, stand-in value or walk line
 * reaches through recorded pointer values (the object of a pointer the run made NULL lazily),
 * with their entries, and first the producers' calls (make, add, seq lines) of a parameter the
 * run made NULL lazily after its construction (record_reach.c). Out of memory: r stays whole. */
void unit_record_prune(unit_record *r);

/* How a recorded test ended natively. */
typedef enum unit_outcome { UO_NORMAL, UO_SIGNAL, UO_EXIT } unit_outcome;

/* Assertions a test may lose to the native re-run (unit_test.flaky) before it is dropped instead. */
#define UNIT_MAX_FLAKY 2

typedef struct unit_test {
    char *name; /* test function name, e.g. "test_parse_3" */
    const ut_func *fn;
    unit_record rec;
    unit_outcome outcome;
    int signo;           /* UO_SIGNAL */
    int exit_code;       /* UO_EXIT */
    char *origin;        /* file name of the test vector it came from (for a comment), or NULL */
    int heap;            /* input objects are malloc'ed in the test instead of locals (set when the
                                   test with locals fails natively: the unit frees or reallocates them);
                                   the test frees those the call did not free */
    int keep_made;       /* what the producers made is not released with the unit's destructors: set when
                                   the test failed natively on a mock call nothing was queued for (the
                                   destructor calls a function the test mocks: iniparser_freedict calling
                                   dictionary_del when dictionary.c is not given); the mock's results are the
                                   test's own and it frees them */
    int release_stubs;   /* before the releases, each stand-in returning void the test uses accepts any further
                                   calls (unit_emit_release_standins): set when a release called one with nothing
                                   queued (pdjson's json_close calling the free of the allocator the test set) */
    int items_kept;      /* of what the producers made for the call's arguments, only the first argument's is
                                   released: set when the test died natively of a double free (the call linked
                                   the others into the first: parson's json_object_dotset_value(object, name,
                                   value) keeps value, which the object's destructor frees with it) */
    int unowned;         /* no string is handed to a made object's destructor (emit_made_owned): set when
                                   the sanitizer check found the test's own allocation of one leaked (cJSON's
                                   AddItemToObjectCS keeps a key cJSON_Delete does not free) */
    int release_owned;   /* before releasing the result with free, the test frees the blocks its fields own
                                   (rec.retowns, last first): set when LeakSanitizer found them leaked (a loader
                                   without a destructor: cfg_load's `ret->data`) */
    const char *release; /* the test releases the pointer the call returned with this function ("free", or
                                   the unit's destructor) after its assertions; NULL: it does not (set when the
                                   record says the result is heap memory the call allocated, "retheap", and by
                                   the sanitizer check when LeakSanitizer reports the result leaked) */
    char **flaky;        /* assertion statements (trimmed text) left out: each failed natively on a value that
                                   differs from the recorded one (uninitialised memory: sj_read's `res.depth`),
                                   EvoSuite's removal of unstable assertions; at most UNIT_MAX_FLAKY (malloc'ed) */
    size_t nflaky;
    uint32_t *kills; /* the mutants (build_mutants ids) the mutation analysis saw it kill (malloc'ed), or NULL */
    size_t nkills;
    char *note; /* a comment written before the test (the sanitizer's report in test_<stem>_bugs.c),
                                   without comment delimiters; NULL: none */
} unit_test;

/*
 * The CMocka test file for the given tests: the prelude, CMocka's headers, a stand-in per
 * mock returning mock() values, one static test function per test (locals with
 * initialisers, will_return sequences, the call, assertions on the return value and on
 * every recorded value the call changed; a failing outcome is checked in a forked child),
 * and main running them (an optional argv[1] filters by name). Returns malloc'ed text or NULL.
 */
char *unit_emit_tests(const unit_info *u, const unit_test *tests, size_t ntests, const char *const *mocked,
                      size_t nmocked, const char *source_name);
/* (mocked: names of the functions to define as stand-ins, from u->externs and u->system;
 * source_name: the file the tests are for, named in the header comment.) */

/*
 * The stand-ins returning void (releasers: an allocator table's free) that test t uses, each with
 * CMocka's `expect_any_count(NAME, aK, -2);` per argument it checks appended to b: zero or more
 * calls accepted, so the releases after the assertions (json_close freeing through the allocator
 * the test set) do not fail on a call nothing was queued for. Returns how many stand-ins (b may be
 * NULL: only counted).
 */
size_t unit_emit_release_standins(const unit_info *u, const unit_test *t, struct strbuf *b);

/* One test's C statements (without the function frame), malloc'ed; NULL when the record
 * holds a value C locals cannot express (an input pointing inside an object) or on ENOMEM.
 * The caller drops such a test before unit_emit_tests. */
char *unit_emit_test_body(const unit_info *u, const unit_test *t);

/* ---- the sanitizer check of the emitted tests (step_sanitize.c) ---- */

/* What a sanitizer report says about a test (unit_san_classify). */
typedef enum unit_san_kind {
    USAN_NONE,    /* no report: the test passes under ASan+UBSan+LSan */
    USAN_HARNESS, /* a harness defect: the fault is on an input the test built in a state the unit's own
                     API would not produce (dropped) */
    USAN_BUG,     /* a bug in the unit reached from a valid input (moved to test_<stem>_bugs.c) */
    USAN_LEAK,    /* LeakSanitizer: memory allocated during the test is not released */
    USAN_UNKNOWN  /* a report the classifier cannot place (dropped, the report's first line as reason) */
} unit_san_kind;

/* What the classifier knows about the test besides the report; all borrowed. */
typedef struct unit_san_ctx {
    const char *test_file;         /* base name of the emitted test file: frames there are the test's */
    const char *test_text;         /* its text (names the object a heap allocation line creates); may be NULL */
    const char *const *unit_files; /* the unit's sources (any path: matched by base name) */
    size_t nunit_files;
    const char *const *sized_inputs; /* parameters whose extent the function is told: a buffer with a length
                                        parameter, a NUL-terminated string (an access past their end is the
                                        unit's fault) */
    size_t nsized_inputs;
    int null_input;                 /* the test passes a NULL pointer among its inputs */
    const char *const *out_strings; /* of the sized inputs, the plain `char *` strings without a length
                                       parameter and not const: output buffers the caller sizes
                                       (`base64_encode(in, inlen, char *out)`), so a WRITE past their end
                                       means the unit wanted a larger buffer than the test built */
    size_t nout_strings;
    const char *const *whole_buffers; /* of the sized inputs, those with a length parameter whose type is written
                                         as a pointer (`const char *s, int len`, no typedef that may hide a
                                         header): they start where the caller's data starts, so an access
                                         before them is the unit's fault */
    size_t nwhole_buffers;
} unit_san_ctx;

/* The verdict: kind, a one-line reason ("sanitizer: stack-buffer-underflow on input s (built by the
 * test, not by the unit)"), and the excerpt of the report a _bugs.c comment shows (its first line,
 * where the object is, the frames in the unit, the SUMMARY line). Strings malloc'ed, NULL for
 * USAN_NONE; freed by unit_san_verdict_free. */
typedef struct unit_san_verdict {
    unit_san_kind kind;
    char *reason;
    char *excerpt;
} unit_san_verdict;

/*
 * Classify the output of one test run under AddressSanitizer, UndefinedBehaviorSanitizer and
 * LeakSanitizer (report: everything the run printed; NULL reads as empty). A heuristic, stated in
 * step_sanitize.c: the faulting object's owner (the test's frame or allocation, the unit's, a
 * global of the unit) and the side of the access (before the start: underflow; after the end)
 * decide between USAN_HARNESS and USAN_BUG. Always fills *v (USAN_NONE when there is no report).
 */
void unit_san_classify(const char *report, const unit_san_ctx *c, unit_san_verdict *v);
/* Free what v holds and zero it. */
void unit_san_verdict_free(unit_san_verdict *v);

/* ---- the pipeline (pipeline.c, step_*.c) ---- */

/* What `sympath unit` was asked to do: the parsed command line. All borrowed. */
typedef struct unit_run_opts {
    const char *out_dir;        /* OUT: test_<stem>.c, BUILD.txt, tests.cmake, report.json, build/ */
    const char *const *sources; /* the unit's C files as given (>= 1) */
    size_t nsources;
    const char *const *functions; /* --function names (may repeat) */
    size_t nfunctions;
    int all;                  /* --all: every function with external linkage */
    const char *cflags;       /* the user's flags, -I dirs and --define's -DNAME[=V] included (util_split_words;
                                   checked by the caller) */
    const char *const *mocks; /* --mock names */
    size_t nmocks;
    int mock_outputs;                   /* --mock-outputs */
    double budget_s;                    /* exploration budget shared by the functions, seconds (0: none) */
    double timeout_s;                   /* time limit of one run, seconds, > 0 */
    unit_harness_opts harness;          /* depth, str_len, buf_len, enum_any, null_all, cycles, global_inputs,
                                   raw_inputs (--raw-inputs), inits (--init TYPE=FUNCTION);
                                   rt_header and mock_names are set by the pipeline */
    int progress;                       /* live progress line of the explorations */
    volatile sig_atomic_t *interrupted; /* set (by a signal handler) to stop after the run in flight; may be NULL */
    void (*before_explore)(
        void); /* called once before the first exploration (the CLI arms Ctrl-C there); may be NULL */
    FILE *log; /* progress, warnings, errors and the summary ("sympath unit: ..." lines); NULL: stderr */
    const char *compile_commands; /* --compile-commands: compile_commands.json or its directory; its flags for the
                                   sources (unit_compdb_flags) go before cflags. NULL: none */
    unsigned jobs;                /* -j: parallel workers per function's exploration (explore_opts.jobs); 0 or 1: one */
    int no_diversify;             /* --no-diversify: each test's inputs as the solver first wrote them (diversify.c) */
    int no_minimize;              /* --no-minimize: every recorded test is emitted (minimize.c) */
    int no_mutants;               /* --no-mutants: no mutation analysis (step_mutate.c): no candidate tests added */
    int full_budget; /* --full-budget: each exploration runs for its whole share of the budget (default: it stops once
                        the search is saturated, explore_opts.stop_when_saturated) */
    uint64_t max_execs; /* --max-execs: each function's exploration stops after this many runs (explore_opts.max_execs;
                           0: no limit). The budget still applies; under it, a run count makes the suite independent
                           of the machine's speed (one job: the same runs in the same order) */
    unsigned max_memory_mb; /* --max-memory: each function's exploration stops when sympath's own heap passes this
                               many MiB (explore_opts.max_memory_mb; 0: no limit) */
} unit_run_opts;

/* ---- input diversification and suite minimisation (diversify.c, minimize.c) ---- */

/*
 * The values `sympath unit` prefers for an input its test's path leaves free, most preferred
 * first (explore_opts.diversify_prefs): name, type (input_type, proto/trace.h) and width (bits)
 * of input number i, value its current one. Writes at most max values, none equal to value, into
 * v and returns how many: for a byte (width <= 8) distinct printable characters varying with i,
 * for a wider integer 37 + 6 * (i % 10), then 7 and 3 (away from 0 and 1), for floating point
 * 2.5 and -3.5; none (0) for the harness's own decisions: booleans (lazy NULL flags), pointers and
 * inputs named "*.null".
 */
unsigned unit_diversify_prefs(const char *name, unsigned type, unsigned width, uint64_t value, uint32_t i, uint64_t *v,
                              unsigned max);

/* What suite minimisation knows of one test of a function (borrowed). */
typedef struct unit_min_item {
    const uint32_t *cov; /* the coverage slots its exploration run covered, in any order */
    size_t ncov;
    int cov_known;      /* 0: no coverage file (an error reproducer, -j): the test is always kept */
    int failing;        /* it expects a crash, abort or exit (gcov does not see its child): chosen last */
    size_t cost;        /* the size of its inputs: smaller is simpler, chosen first */
    const char *result; /* what it asserts that sets it apart: outcome, returned value, values changed */
} unit_min_item;

/*
 * Choose the tests to emit among items[0..n) (the tests of one function): every test whose
 * coverage is unknown; then, greedily, the test covering the most slots not yet covered (ties:
 * a passing test before a failing one, then the simpler, then the earlier), passing tests first
 * and failing ones for what is left, until the union of all the coverage is reached; a chosen
 * test whose slots the others cover is dropped again (most expensive first); finally, simplest
 * first, a test whose result no chosen test has (a cheap proxy for mutation-kill power: a mutant
 * that changes the value a test asserts is killed by it). Sets keep[i] to 1 or 0; returns the
 * number kept. n == 0 returns 0; out of memory keeps everything.
 */
size_t unit_minimize_select(const unit_min_item *items, size_t n, int *keep);

/*
 * Generate CMocka tests for the unit: parse it (unit_parse), choose the targets and the
 * mocks, write and check the harness (OUT/build/harness.c), build the instrumented
 * executor and the native recorder, explore each target with a share of the budget
 * (OUT/build/runs/<function>), record each kept test vector natively, and per source file
 * emit, verify (compiled with -Werror, run twice) and measure (gcov) the tests; write
 * OUT/test_<stem>.c, OUT/BUILD.txt, OUT/tests.cmake and OUT/report.json. Everything it has
 * to say goes to o->log. Returns 0 when at least one test file was written; 1 when nothing
 * could be tested (a source unreadable or not parsing, no harness compiles, the build
 * failed, no test kept); 2 when o names a function the unit does not define (a usage error).
 */
int unit_run(const unit_run_opts *o);

#endif
