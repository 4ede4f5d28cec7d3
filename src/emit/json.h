/* json.h: a small streaming JSON writer into a memory buffer (for report.json). */
#ifndef SYMPATH_JSON_H
#define SYMPATH_JSON_H

#include <stddef.h>
#include <stdint.h>

/*
 * Usage:
 *   json_writer *j = json_new();
 *   json_begin_object(j);
 *     json_key(j, "tests"); json_uint(j, 3);
 *     json_key(j, "sites"); json_begin_array(j); ... json_end_array(j);
 *   json_end_object(j);
 *   json_write_file(j, "out/report.json");   // atomic
 *   json_free(j);
 * Commas and indentation (2 spaces) are handled by the writer. Strings are escaped
 * per RFC 8259. Doubles that are not finite are written as null.
 */
typedef struct json_writer json_writer;

json_writer *json_new(void);
void json_free(json_writer *j);
void json_begin_object(json_writer *j);
void json_end_object(json_writer *j);
void json_begin_array(json_writer *j);
void json_end_array(json_writer *j);
void json_key(json_writer *j, const char *key);
void json_string(json_writer *j, const char *s);  /* NULL writes null */
void json_int(json_writer *j, int64_t v);
void json_uint(json_writer *j, uint64_t v);
void json_double(json_writer *j, double v);
void json_bool(json_writer *j, int v);
void json_null(json_writer *j);
/* The text so far (NUL-terminated, owned by j) and its length. */
const char *json_text(const json_writer *j, size_t *len);
/* Write the text to path atomically. 0 or -1 with errno. */
int json_write_file(const json_writer *j, const char *path);

#endif
