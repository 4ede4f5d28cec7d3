/* json.c: streaming JSON writer (2-space indentation, RFC 8259 escaping) into a growable buffer. */
#include "emit.h"
#include "util/util.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Layout rule: every value inside a container starts on its own line indented
 * two spaces per depth; a value that follows a key stays on the key's line.
 * Empty containers print as {} and []. When the outermost value is complete a
 * newline ends the text, so the file is a proper text file.
 *
 * The stack holds one frame per open container: whether it is an object and
 * how many members it has so far (for the commas). `after_key` is set between
 * json_key and the member's value. Misuse (value without key in an object,
 * unbalanced ends) is a programming error, caught by assert in debug builds.
 */
typedef struct frame {
    int is_object;
    size_t count;
} frame;

struct json_writer {
    strbuf out;
    frame *stack;
    size_t depth, stack_cap;
    int after_key;
    int failed; /* allocation failure of the stack (text failures are in out.failed) */
};

json_writer *json_new(void)
{
    json_writer *j = calloc(1, sizeof *j);
    if (!j) return NULL;
    sb_puts(&j->out, ""); /* so json_text never returns NULL on an empty writer */
    if (j->out.failed) {
        free(j);
        return NULL;
    }
    return j;
}

void json_free(json_writer *j)
{
    if (!j) return;
    sb_free(&j->out);
    free(j->stack);
    free(j);
}

static void newline_indent(json_writer *j)
{
    sb_puts(&j->out, "\n");
    for (size_t i = 0; i < j->depth; i++) sb_puts(&j->out, "  ");
}

/* Everything that goes before a value (or a key): comma, newline, indentation. */
static void before_item(json_writer *j, int is_key)
{
    if (j->after_key) {
        assert(!is_key);
        j->after_key = 0;
        return;
    }
    if (j->depth == 0) return;
    frame *f = &j->stack[j->depth - 1];
    assert(f->is_object == is_key); /* objects take keys, arrays take values */
    if (f->count++) sb_puts(&j->out, ",");
    newline_indent(j);
}

/* After a complete value at the outermost level, end the line. */
static void after_value(json_writer *j)
{
    if (j->depth == 0) sb_puts(&j->out, "\n");
}

static void begin(json_writer *j, int is_object)
{
    before_item(j, 0);
    sb_puts(&j->out, is_object ? "{" : "[");
    if (j->depth == j->stack_cap) {
        size_t cap = j->stack_cap ? 2 * j->stack_cap : 8;
        frame *s = realloc(j->stack, cap * sizeof *s);
        if (!s) {
            j->failed = 1;
            return;
        }
        j->stack = s;
        j->stack_cap = cap;
    }
    j->stack[j->depth++] = (frame){is_object, 0};
}

static void end(json_writer *j, int is_object)
{
    if (j->failed) return;
    assert(j->depth > 0 && j->stack[j->depth - 1].is_object == is_object && !j->after_key);
    size_t count = j->stack[--j->depth].count;
    if (count) newline_indent(j);
    sb_puts(&j->out, is_object ? "}" : "]");
    after_value(j);
}

void json_begin_object(json_writer *j) { begin(j, 1); }
void json_end_object(json_writer *j) { end(j, 1); }
void json_begin_array(json_writer *j) { begin(j, 0); }
void json_end_array(json_writer *j) { end(j, 0); }

/* A string literal with RFC 8259 escapes: the two mandatory ones, the short
 * forms for common controls, \u00XX for other controls. Bytes >= 0x80 pass
 * through (the text is taken to be UTF-8). */
static void put_string(json_writer *j, const char *s)
{
    strbuf *b = &j->out;
    sb_puts(b, "\"");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': sb_puts(b, "\\\""); break;
        case '\\': sb_puts(b, "\\\\"); break;
        case '\n': sb_puts(b, "\\n"); break;
        case '\r': sb_puts(b, "\\r"); break;
        case '\t': sb_puts(b, "\\t"); break;
        case '\b': sb_puts(b, "\\b"); break;
        case '\f': sb_puts(b, "\\f"); break;
        default:
            if (*p < 0x20)
                sb_printf(b, "\\u%04x", *p);
            else
                sb_append(b, (const char *)p, 1);
        }
    }
    sb_puts(b, "\"");
}

void json_key(json_writer *j, const char *key)
{
    before_item(j, 1);
    put_string(j, key ? key : "");
    sb_puts(&j->out, ": ");
    j->after_key = 1;
}

/* Emit a scalar that is already formatted. */
static void scalar(json_writer *j, const char *text)
{
    before_item(j, 0);
    sb_puts(&j->out, text);
    after_value(j);
}

void json_string(json_writer *j, const char *s)
{
    if (!s) {
        json_null(j);
        return;
    }
    before_item(j, 0);
    put_string(j, s);
    after_value(j);
}

void json_int(json_writer *j, int64_t v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%" PRId64, v);
    scalar(j, buf);
}

void json_uint(json_writer *j, uint64_t v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%" PRIu64, v);
    scalar(j, buf);
}

/* The shortest %.Ng (N = 1..17) that reads back as the same double, so 0.1
 * prints as 0.1 and not 0.10000000000000001, while nothing is lost. */
void json_double(json_writer *j, double v)
{
    if (!isfinite(v)) {
        json_null(j);
        return;
    }
    char buf[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v) break;
    }
    scalar(j, buf);
}

void json_bool(json_writer *j, int v) { scalar(j, v ? "true" : "false"); }
void json_null(json_writer *j) { scalar(j, "null"); }

/* A member: its key, then its value. */
void json_kv_str(json_writer *j, const char *key, const char *s)
{
    json_key(j, key);
    json_string(j, s);
}
void json_kv_int(json_writer *j, const char *key, int64_t v)
{
    json_key(j, key);
    json_int(j, v);
}
void json_kv_uint(json_writer *j, const char *key, uint64_t v)
{
    json_key(j, key);
    json_uint(j, v);
}
void json_kv_double(json_writer *j, const char *key, double v)
{
    json_key(j, key);
    json_double(j, v);
}
void json_kv_bool(json_writer *j, const char *key, int v)
{
    json_key(j, key);
    json_bool(j, v);
}

void json_kv_lines(json_writer *j, const char *key, const char *text)
{
    json_key(j, key);
    json_begin_array(j);
    for (const char *l = text; l && *l;) {
        const char *nl = strchr(l, '\n');
        size_t n = nl ? (size_t)(nl - l) : strlen(l);
        char *one = strndup(l, n);
        if (one) json_string(j, one);
        free(one);
        l = nl ? nl + 1 : l + n;
    }
    json_end_array(j);
}

const char *json_text(const json_writer *j, size_t *len)
{
    if (j->failed || j->out.failed) {
        if (len) *len = 0;
        return NULL;
    }
    if (len) *len = j->out.len;
    return j->out.s;
}

int json_write_file(const json_writer *j, const char *path)
{
    size_t len;
    const char *text = json_text(j, &len);
    if (!text) {
        errno = ENOMEM;
        return -1;
    }
    return write_file_atomic(path, text, len);
}
