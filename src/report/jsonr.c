/* jsonr.c: a small recursive-descent JSON reader (RFC 8259) into a tree of values, for report.json. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_int.h"

#define MAX_DEPTH 200

typedef struct parser {
    const char *p, *start;
    char *err;
} parser;

static int fail(parser *ps, const char *what)
{
    if (ps->err) return -1;
    int line = 1;
    for (const char *q = ps->start; q < ps->p; q++) line += *q == '\n';
    if (asprintf(&ps->err, "line %d: %s", line, what) < 0) ps->err = NULL;
    return -1;
}

static void skip_ws(parser *ps)
{
    while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r') ps->p++;
}

static void put_utf8(strbuf *b, unsigned cp)
{
    char u[4];
    size_t n;
    if (cp < 0x80)
        u[0] = (char)cp, n = 1;
    else if (cp < 0x800)
        u[0] = (char)(0xC0 | cp >> 6), u[1] = (char)(0x80 | (cp & 0x3F)), n = 2;
    else if (cp < 0x10000)
        u[0] = (char)(0xE0 | cp >> 12), u[1] = (char)(0x80 | (cp >> 6 & 0x3F)), u[2] = (char)(0x80 | (cp & 0x3F)),
        n = 3;
    else
        u[0] = (char)(0xF0 | cp >> 18), u[1] = (char)(0x80 | (cp >> 12 & 0x3F)), u[2] = (char)(0x80 | (cp >> 6 & 0x3F)),
        u[3] = (char)(0x80 | (cp & 0x3F)), n = 4;
    sb_append(b, u, n);
}

static int hex4(parser *ps, unsigned *v)
{
    *v = 0;
    for (int i = 0; i < 4; i++) {
        char c = *ps->p++;
        unsigned d;
        if (c >= '0' && c <= '9')
            d = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            d = (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            d = (unsigned)(c - 'A' + 10);
        else
            return fail(ps, "bad \\u escape");
        *v = *v * 16 + d;
    }
    return 0;
}

/* A string starting at the opening quote; returns it malloc'ed or NULL. */
static char *parse_string(parser *ps)
{
    strbuf b = STRBUF_INIT;
    ps->p++;
    for (;;) {
        char c = *ps->p;
        if (c == 0) {
            fail(ps, "unterminated string");
            sb_free(&b);
            return NULL;
        }
        if ((unsigned char)c < 0x20) {
            fail(ps, "control character in a string");
            sb_free(&b);
            return NULL;
        }
        ps->p++;
        if (c == '"') break;
        if (c != '\\') {
            sb_append(&b, &c, 1);
            continue;
        }
        char e = *ps->p++;
        switch (e) {
        case '"':
        case '\\':
        case '/': sb_append(&b, &e, 1); break;
        case 'b': sb_puts(&b, "\b"); break;
        case 'f': sb_puts(&b, "\f"); break;
        case 'n': sb_puts(&b, "\n"); break;
        case 'r': sb_puts(&b, "\r"); break;
        case 't': sb_puts(&b, "\t"); break;
        case 'u': {
            unsigned cp;
            if (hex4(ps, &cp)) {
                sb_free(&b);
                return NULL;
            }
            if (cp >= 0xD800 && cp < 0xDC00 && ps->p[0] == '\\' && ps->p[1] == 'u') {
                unsigned lo;
                ps->p += 2;
                if (hex4(ps, &lo)) {
                    sb_free(&b);
                    return NULL;
                }
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            }
            put_utf8(&b, cp ? cp : '?');
            break;
        }
        default:
            fail(ps, "bad escape");
            sb_free(&b);
            return NULL;
        }
    }
    if (!b.s) sb_puts(&b, "");
    if (b.failed) {
        sb_free(&b);
        fail(ps, "out of memory");
        return NULL;
    }
    return b.s;
}

static int parse_value(parser *ps, jv *v, int depth);

static int push(parser *ps, jv *v, char *key, size_t *cap, int depth)
{
    if (v->n == *cap) {
        size_t nc = *cap ? *cap * 2 : 8;
        jv *ni = realloc(v->items, nc * sizeof *ni);
        if (!ni) return fail(ps, "out of memory");
        v->items = ni;
        if (v->t == JV_OBJ) {
            char **nk = realloc(v->keys, nc * sizeof *nk);
            if (!nk) return fail(ps, "out of memory");
            v->keys = nk;
        }
        *cap = nc;
    }
    jv *item = &v->items[v->n];
    memset(item, 0, sizeof *item);
    if (v->t == JV_OBJ) v->keys[v->n] = key;
    v->n++;
    return parse_value(ps, item, depth + 1);
}

static int parse_container(parser *ps, jv *v, int depth)
{
    char close = *ps->p == '{' ? '}' : ']';
    v->t = close == '}' ? JV_OBJ : JV_ARR;
    ps->p++;
    size_t cap = 0;
    skip_ws(ps);
    if (*ps->p == close) {
        ps->p++;
        return 0;
    }
    for (;;) {
        skip_ws(ps);
        char *key = NULL;
        if (v->t == JV_OBJ) {
            if (*ps->p != '"') return fail(ps, "expected a key");
            key = parse_string(ps);
            if (!key) return -1;
            skip_ws(ps);
            if (*ps->p != ':') {
                free(key);
                return fail(ps, "expected ':'");
            }
            ps->p++;
        }
        if (push(ps, v, key, &cap, depth)) {
            if (v->t == JV_OBJ && (v->n == 0 || v->keys[v->n - 1] != key)) free(key);
            return -1;
        }
        skip_ws(ps);
        if (*ps->p == ',') {
            ps->p++;
            continue;
        }
        if (*ps->p == close) {
            ps->p++;
            return 0;
        }
        return fail(ps, close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static int parse_value(parser *ps, jv *v, int depth)
{
    if (depth > MAX_DEPTH) return fail(ps, "nested too deeply");
    skip_ws(ps);
    char c = *ps->p;
    if (c == '{' || c == '[') return parse_container(ps, v, depth);
    if (c == '"') {
        v->t = JV_STR;
        v->str = parse_string(ps);
        return v->str ? 0 : -1;
    }
    if (strncmp(ps->p, "true", 4) == 0) return v->t = JV_BOOL, v->b = 1, ps->p += 4, 0;
    if (strncmp(ps->p, "false", 5) == 0) return v->t = JV_BOOL, v->b = 0, ps->p += 5, 0;
    if (strncmp(ps->p, "null", 4) == 0) return v->t = JV_NULL, ps->p += 4, 0;
    if (c == '-' || (c >= '0' && c <= '9')) {
        char *end;
        v->t = JV_NUM;
        v->num = strtod(ps->p, &end);
        if (end == ps->p) return fail(ps, "bad number");
        ps->p = end;
        return 0;
    }
    return fail(ps, c ? "unexpected character" : "unexpected end of text");
}

static void free_inside(jv *v)
{
    free(v->str);
    for (size_t i = 0; i < v->n; i++) {
        free_inside(&v->items[i]);
        if (v->keys) free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
}

void jv_free(jv *v)
{
    if (!v) return;
    free_inside(v);
    free(v);
}

jv *jv_parse(const char *text, char **err)
{
    parser ps = {text, text, NULL};
    jv *v = calloc(1, sizeof *v);
    if (!v) {
        *err = strdup("out of memory");
        return NULL;
    }
    if (parse_value(&ps, v, 0) == 0) {
        skip_ws(&ps);
        if (*ps.p) fail(&ps, "text after the value");
    }
    if (ps.err) {
        jv_free(v);
        *err = ps.err;
        return NULL;
    }
    return v;
}

jv *jv_read_file(const char *path, char **err)
{
    char *text = util_read_file(path, NULL);
    if (!text) {
        if (asprintf(err, "%s: %s", path, strerror(errno)) < 0) *err = NULL;
        return NULL;
    }
    char *perr = NULL;
    jv *v = jv_parse(text, &perr);
    free(text);
    if (!v) {
        if (asprintf(err, "%s: %s", path, perr ? perr : "?") < 0) *err = NULL;
        free(perr);
    }
    return v;
}

const jv *jv_get(const jv *v, const char *key)
{
    if (!v || v->t != JV_OBJ) return NULL;
    for (size_t i = 0; i < v->n; i++)
        if (strcmp(v->keys[i], key) == 0) return &v->items[i];
    return NULL;
}

const char *jv_str(const jv *v, const char *dflt) { return v && v->t == JV_STR ? v->str : dflt; }

double jv_num(const jv *v, double dflt)
{
    if (v && v->t == JV_NUM) return v->num;
    if (v && v->t == JV_BOOL) return v->b;
    return dflt;
}

size_t jv_len(const jv *v) { return v && v->t == JV_ARR ? v->n : 0; }
