/* emit.h: writing the test suite (Test-Comp test-format XML), error reproducers, formatted input values and JSON (report.json). */
#ifndef SYMPATH_EMIT_H
#define SYMPATH_EMIT_H

#include <stddef.h>
#include <stdint.h>
#include "../proto/trace.h"

/*
 * Layout of an output directory:
 *   out/tests/metadata.xml          test-format metadata (sosy-lab test-format 1.1)
 *   out/tests/test-00001.xml        one testcase per kept test, <input> values in call order
 *   out/errors/error-001.xml        reproducer of each distinct error (same testcase format)
 *   out/errors/error-001.txt        what happened where, in words
 * Every file is written to a temporary name in the same directory and renamed into
 * place, so a reader (or an interrupted run) never sees half a file.
 */

typedef struct test_case {
    uint32_t n;               /* inputs, in call order */
    const uint64_t *values;   /* bit patterns masked to the type's width */
    const uint8_t *types;     /* input_type per value */
    const char *const *names; /* label per value or NULL (the array itself may be NULL) */
    int covers_error;         /* the inputs end in an error: suite_write_test marks the testcase
                                   coversError="true" (error reproducers always are) */
} test_case;

typedef struct suite_meta {
    const char *program_file;   /* first source file as given by the user */
    const char *program_hash;   /* SHA-256 hex of that file, or NULL (computed by suite_open) */
    const char *entry_function; /* "main" */
    const char *specification;  /* e.g. "COVER( init(main()), FQL(COVER EDGES(@DECISIONEDGE)) )" */
    const char *producer;       /* "sympath <version>" */
} suite_meta;

typedef struct suite_writer suite_writer;

/* Create out_dir/tests and out_dir/errors (clearing old test and error files from a
 * previous run), write metadata.xml. Returns NULL with *err (malloc'ed) on failure. */
suite_writer *suite_open(const char *out_dir, const suite_meta *meta, char **err);

/* Write the next test case file; returns its number (1, 2, ...) or -1 with *err set
 * and errno that of the failed write (ENOSPC, EDQUOT: the disk is full); nothing is
 * left of a file that could not be written.
 * comment (may be NULL) is put into an XML comment, e.g. which branches it covers. */
int suite_write_test(suite_writer *w, const test_case *tc, const char *comment, char **err);

/* Write one test case file at path (outside the numbering: `sympath unit`'s candidate tests,
 * tests/cand-NNNNN.xml, which suite_open clears too). Returns 0, or -1 with *err and errno as
 * for suite_write_test (nothing is left of a failed file). */
int suite_write_test_to(const char *path, const test_case *tc, const char *comment, char **err);

/* Replace test case `num` (1..tests written) with tc, atomically (the old file stays whole
 * until the new one is complete). Returns 0, or -1 with *err as for suite_write_test. */
int suite_rewrite_test(suite_writer *w, int num, const test_case *tc, const char *comment, char **err);

/* Write the next error reproducer: errors/error-NNN.xml with the inputs and
 * errors/error-NNN.txt with `description` (free text, several lines). Returns its
 * number or -1 with *err set and errno as for suite_write_test (then neither file is
 * left). */
int suite_write_error(suite_writer *w, const test_case *tc, const char *description, char **err);

/* Paths of the directories (valid while w lives). */
const char *suite_tests_dir(const suite_writer *w);
const char *suite_errors_dir(const suite_writer *w);
void suite_close(suite_writer *w);

/* Format one input value as a C literal the replay library parses back exactly:
 * signed types in decimal with sign, unsigned in decimal, bool as 0/1, float and
 * double as hexadecimal floating literals ("%a"), pointers as 0x... . Returns buf. */
char *input_format_value(char *buf, size_t len, input_type t, uint64_t bits);
/* Width in bits of an input type (bool: 1, values 0/1; table in input.c), its C
 * type name ("int", "unsigned char", ...), and whether it is signed. */
unsigned input_type_width(input_type t);
const char *input_type_c_name(input_type t);
int input_type_signed(input_type t);

/* The old name of util_write_atomic (util/util.h: temporary file, fsync, rename; 0 or
 * -1 with errno, path unchanged on failure), kept for its many callers. */
int write_file_atomic(const char *path, const char *data, size_t len);

/* Hex SHA-256 of a file into hex[65]; 0 or -1 (the file cannot be read). */
int sha256_file_hex(const char *path, char hex[65]);

/* ---- JSON (json.c): a small streaming JSON writer into a memory buffer (report.json) ---- */

/*
 * Usage:
 *   json_writer *j = json_new();
 *   json_begin_object(j);
 *     json_kv_uint(j, "tests", 3);      // or json_key(j, "tests"); json_uint(j, 3);
 *     json_key(j, "sites"); json_begin_array(j); ... json_end_array(j);
 *   json_end_object(j);
 *   json_write_file(j, "out/report.json");   // atomic
 *   json_free(j);
 * Commas and indentation (2 spaces) are handled by the writer. Strings are escaped
 * per RFC 8259. Doubles that are not finite are written as null.
 */
typedef struct json_writer json_writer;

/* A new, empty writer (caller frees with json_free); NULL when out of memory. */
json_writer *json_new(void);
/* Free j and its text; NULL is accepted. */
void json_free(json_writer *j);
/* Open / close an object or an array (as a value: after json_key inside an object). */
void json_begin_object(json_writer *j);
void json_end_object(json_writer *j);
void json_begin_array(json_writer *j);
void json_end_array(json_writer *j);
/* The key of the next member of the current object (escaped). */
void json_key(json_writer *j, const char *key);
/* One value each: a string (escaped; NULL writes null), integers, a double (not finite:
 * null), a boolean (nonzero: true), null. */
void json_string(json_writer *j, const char *s);
void json_int(json_writer *j, int64_t v);
void json_uint(json_writer *j, uint64_t v);
void json_double(json_writer *j, double v);
void json_bool(json_writer *j, int v);
void json_null(json_writer *j);
/* One member of the current object: its key and then its value, as json_key followed by
 * json_string / json_int / json_uint / json_double / json_bool (the same text, the same
 * rules: a NULL string and a double that is not finite are written as null). */
void json_kv_str(json_writer *j, const char *key, const char *s);
void json_kv_int(json_writer *j, const char *key, int64_t v);
void json_kv_uint(json_writer *j, const char *key, uint64_t v);
void json_kv_double(json_writer *j, const char *key, double v);
void json_kv_bool(json_writer *j, const char *key, int v);
/* A member whose value is an array of strings: one per line of text (lines end at '\n'; a last
 * line without one counts, an empty line is an empty string); NULL or "": an empty array. */
void json_kv_lines(json_writer *j, const char *key, const char *text);
/* The text so far (NUL-terminated, owned by j) and its length. */
const char *json_text(const json_writer *j, size_t *len);
/* Write the text to path atomically. 0 or -1 with errno. */
int json_write_file(const json_writer *j, const char *path);

#endif
