/* names.c: declarators and identifiers for generated C code; buffer/length parameter pairing. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "unit.h"
#include "util/util.h"

char *unit_declarator(const char *spelling, const char *name)
{
    char *r = NULL;
    /* the abstract declarator's hole: "(*)", "(**)" (a pointer to a function pointer), the
     * innermost one of "void (*(*)(int))(void)" */
    const char *fp = NULL, *hole = NULL;
    for (const char *p = strstr(spelling, "(*"); p && !fp; p = strstr(p + 1, "(*")) {
        const char *q = p + 1;
        while (*q == '*') q++;
        if (*q == ')') fp = p, hole = q;
    }
    const char *br = strchr(spelling, '[');
    if (fp) {
        /* "int (*)(int)" -> "int (*name)(int)" */
        if (asprintf(&r, "%.*s%s%s", (int)(hole - spelling), spelling, name, hole) < 0) r = NULL;
    } else if (br) {
        /* "char [9]" -> "char name[9]"; a pointer to it: "char (*name)[9]" */
        size_t n = (size_t)(br - spelling);
        while (n > 0 && spelling[n - 1] == ' ') n--;
        int paren = strchr(name, '*') != NULL;
        if (asprintf(&r, "%.*s %s%s%s%s", (int)n, spelling, paren ? "(" : "", name, paren ? ")" : "", br) < 0) r = NULL;
    } else {
        size_t n = strlen(spelling);
        int star = n > 0 && spelling[n - 1] == '*';
        if (asprintf(&r, "%s%s%s", spelling, star ? "" : " ", name) < 0) r = NULL;
    }
    return r;
}

char *unit_ident(const char *text)
{
    size_t n = strlen(text);
    char *r = malloc(n * 2 + 2);
    if (!r) return NULL;
    size_t o = 0;
    for (const char *p = text; *p; p++) {
        if (isalnum((unsigned char)*p) || *p == '_')
            r[o++] = *p;
        else if (*p == '*') {
            if (o && r[o - 1] != '_') r[o++] = '_';
            r[o++] = 'p';
        } else if (o && r[o - 1] != '_')
            r[o++] = '_';
    }
    while (o && r[o - 1] == '_') o--;
    if (o == 0 || isdigit((unsigned char)r[0])) {
        memmove(r + 1, r, o);
        r[0] = 'v';
        o++;
    }
    r[o] = 0;
    return r;
}

/* Whether n names a length: a usual length name, or "n" + the buffer's name (na for a). */
static int length_name_of(const char *n, const char *buf);

static int length_name(const char *n)
{
    static const char *exact[] = {"n",   "len",    "length", "size",     "sz",     "count", "cnt",
                                  "num", "nbytes", "nelem",  "nmemb",    "nitems", "bytes", "capacity",
                                  "cap", "argc",   "qty",    "quantity", "l",      NULL};
    static const char *tails[] = {"len", "size", "count", "length", "_n", "sz", NULL};
    for (int i = 0; exact[i]; i++)
        if (!strcmp(n, exact[i])) return 1;
    size_t l = strlen(n);
    for (int i = 0; tails[i]; i++) {
        size_t k = strlen(tails[i]);
        if (l > k && !strcmp(n + l - k, tails[i])) return 1;
    }
    return 0;
}

/* The word before a length name's tail ("in" of "inlen", "last" of "last_len"), into out; empty
 * when n is no tailed length name. */
static void length_prefix(const char *n, char *out, size_t cap)
{
    static const char *tails[] = {"length", "count", "size", "len", "_n", "sz", NULL};
    size_t l = strlen(n);
    out[0] = 0;
    for (int i = 0; tails[i]; i++) {
        size_t k = strlen(tails[i]);
        if (l > k && !strcmp(n + l - k, tails[i])) {
            size_t m = l - k;
            while (m > 0 && n[m - 1] == '_') m--;
            if (m >= cap) m = cap - 1;
            memcpy(out, n, m);
            out[m] = 0;
            return;
        }
    }
}

/* Whether a length named n can measure the buffer named buf: an exact length name ("len",
 * "n"), or a tailed one whose word is about that buffer ("inlen" for in, "data_size" for
 * data, "klen" for key, "store_length" for stb_c_lexer's string_store) or about any buffer ("max_len", "total_size", "buffer_length"); not
 * one about something else ("last_len" after `size_t *num_headers`: the length of an earlier
 * read, no extent of the pointer before it). */
static int length_word_fits(const char *n, const char *buf)
{
    static const char *any[] = {"max",  "total", "buf", "buffer", "data", "alloc", "avail", "byte", "bytes",
                                "elem", "item",  "str", "src",    "dst",  "in",    "out",   NULL};
    char w[128];
    while (*n == '_') n++; /* `char *buf, size_t *_bufsz` (picohttpparser): the same word */
    while (*buf == '_') buf++;
    length_prefix(n, w, sizeof w);
    size_t k = strlen(w), l = strlen(buf);
    if (k == 0) return 1;
    for (int i = 0; any[i]; i++)
        if (!strcasecmp(w, any[i])) return 1;
    if (!strncasecmp(buf, w, k) || !strncasecmp(w, buf, l)) return 1;
    /* a word of the buffer's name after its first: "store_length" for string_store, "data_len" for raw_data */
    for (const char *u = strchr(buf, '_'); u; u = strchr(u + 1, '_'))
        if (!strncasecmp(u + 1, w, k) && (u[1 + k] == 0 || u[1 + k] == '_')) return 1;
    return 0;
}

/* The buffer name a count is named after, `num_` or `max_` + it (`num_tokens`, `max_params`,
 * `numitems`), else NULL. */
static const char *capacity_word(const char *n)
{
    if (strncmp(n, "num", 3) && strncmp(n, "max", 3)) return NULL;
    return n + 3 + (n[3] == '_');
}

int unit_count_ptr(const ut_type *t)
{
    return t && t->kind == UT_PTR && t->pointee && t->pointee->kind == UT_INT && !t->pointee->is_const &&
           !t->pointee->is_char;
}

static int length_name_of(const char *n, const char *buf)
{
    if (length_name(n)) return length_word_fits(n, buf);
    if (n[0] == 'n' && !strcmp(n + 1, buf)) return 1;                /* a, na */
    if (n[0] == 'n' && n[1] == '_' && !strcmp(n + 2, buf)) return 1; /* a, n_a */
    size_t l = strlen(buf);
    return !strncmp(n, buf, l) && (!strcmp(n + l, "_n") || !strcmp(n + l, "n")); /* a, a_n */
}

/* A pointer whose pointee can be an array element: scalars, complete structs, strings
 * (char ** as in argv), void (bytes). */
static int buffer_ok(const ut_type *p)
{
    if (!p || p->kind != UT_PTR || !p->pointee) return 0;
    const ut_type *e = p->pointee;
    if (strstr(e->spelling, "(unnamed") || strstr(e->spelling, "(anonymous")) return 0;
    return e->kind == UT_INT || e->kind == UT_BOOL || e->kind == UT_ENUM || e->kind == UT_VOID || e->kind == UT_FLOAT ||
           (e->kind == UT_STRUCT && e->complete) || (e->kind == UT_PTR && e->pointee && e->pointee->kind != UT_FUNC);
}

int unit_length_within(const ut_func *f, size_t i)
{
    if (i >= f->nparams) return -1;
    const ut_param *p = &f->params[i];
    if (!p->type || p->type->kind != UT_INT || p->len_param >= 0 || p->buf_param >= 0 || !length_name(p->name))
        return -1;
    for (size_t k = 0; k < i; k++) {
        const ut_param *bp = &f->params[k];
        if (bp->len_param >= 0 && bp->len_param < (int)i && !unit_count_ptr(f->params[bp->len_param].type))
            return (int)k;
    }
    return -1;
}

/* Whether n names the end of a range (see unit_range_begin). */
static int range_end_name(const char *n)
{
    static const char *exact[] = {"end", "endp", "last", "limit", "lim", "stop", "eof", "e", "pe", "stop_at", NULL};
    for (int i = 0; exact[i]; i++)
        if (!strcasecmp(n, exact[i])) return 1;
    size_t l = strlen(n);
    return (l > 4 && !strcasecmp(n + l - 4, "_end")) || (l > 3 && !strncasecmp(n, "end", 3) && n[3] == '_');
}

/* Whether e, named en, can end a range that b begins: pointers to the same integer type. */
static int range_pair(const ut_type *b, const ut_type *e, const char *en)
{
    if (!e || !b || e->kind != UT_PTR || b->kind != UT_PTR) return 0;
    const ut_type *pe = e->pointee, *be = b->pointee;
    if (!pe || !be || pe->kind != UT_INT || be->kind != UT_INT || pe->bits != be->bits ||
        pe->is_signed != be->is_signed || pe->is_char != be->is_char || pe->is_plain_char != be->is_plain_char)
        return 0;
    return range_end_name(en);
}

int unit_range_begin(const ut_func *f, size_t i)
{
    if (i == 0 || i >= f->nparams) return -1;
    const ut_param *p = &f->params[i], *b = &f->params[i - 1];
    if (p->len_param >= 0 || p->buf_param >= 0 || b->len_param >= 0 || b->buf_param >= 0) return -1;
    return range_pair(b->type, p->type, p->name) ? (int)i - 1 : -1;
}

int unit_field_range_begin(const ut_type *t, size_t i)
{
    if (!t || t->kind != UT_STRUCT || i == 0 || i >= t->nfields) return -1;
    const ut_field *f = &t->fields[i], *b = &t->fields[i - 1];
    if (!*f->name || !*b->name || f->bitfield || b->bitfield) return -1;
    return range_pair(b->type, f->type, f->name) ? (int)i - 1 : -1;
}

/* Whether field name n names a capacity: `m` (klib), cap, capacity, alloc(ated), max, room, nalloc. */
static int capacity_name(const char *n)
{
    static const char *exact[] = {"m",      "cap", "capacity", "alloc",  "allocated",
                                  "nalloc", "max", "room",     "maxlen", NULL};
    for (int i = 0; exact[i]; i++)
        if (!strcasecmp(n, exact[i])) return 1;
    size_t l = strlen(n);
    return (l > 3 && !strcasecmp(n + l - 3, "cap")) || (l > 5 && !strcasecmp(n + l - 5, "alloc"));
}

/* Whether e is the struct t or a node of a linked structure: a struct with a pointer to its own
 * type (`struct node { int v; struct node *next; }`). */
static int linked_node(const ut_type *e, const ut_type *t)
{
    if (e == t || !strcmp(e->spelling, t->spelling)) return 1;
    for (size_t i = 0; e->kind == UT_STRUCT && i < e->nfields; i++) {
        const ut_type *ft = e->fields[i].type;
        if (ft && ft->kind == UT_PTR && ft->pointee &&
            (ft->pointee == e || !strcmp(ft->pointee->spelling, e->spelling)))
            return 1;
    }
    return 0;
}

int unit_buffer_struct(const ut_type *t, int *data, int *len, int *cap)
{
    *data = *len = *cap = -1;
    if (!t || t->kind != UT_STRUCT || !t->complete) return 0;
    int sized = -1; /* a field named size: the length, or the capacity when another is the length */
    int pos = -1;   /* a position (pos, *_pos): the used length, another length field then the capacity */
    for (size_t i = 0; i < t->nfields; i++) {
        const ut_field *f = &t->fields[i];
        const ut_type *ft = f->type;
        if (!*f->name || f->bitfield || !ft) continue;
        if (ft->kind == UT_PTR) {
            const ut_type *e = ft->pointee;
            if (!e || e->kind == UT_FUNC || e->kind == UT_VOID || (e->kind != UT_INT && !e->complete)) continue;
            if (linked_node(e, t)) return 0; /* a list's head (`struct list { struct node *head; int len; }`) */
            if (*data >= 0) return 0;        /* two data pointers (clibs/buffer's alloc and data): not this shape */
            *data = (int)i;
        } else if (ft->kind == UT_INT && !ft->is_char && ft->bits >= 16) {
            size_t nl = strlen(f->name);
            if (!strcasecmp(f->name, "size"))
                sized = (int)i;
            else if ((!strcmp(f->name, "pos") || (nl > 4 && !strcmp(f->name + nl - 4, "_pos"))) && pos < 0)
                pos = (int)i;
            else if (capacity_name(f->name) && *cap < 0)
                *cap = (int)i;
            else if ((length_name(f->name) || !strcmp(f->name, "l") || !strcasecmp(f->name, "used") ||
                      !strcasecmp(f->name, "nused")) &&
                     *len < 0)
                *len = (int)i;
        }
    }
    if (pos >= 0) { /* libcsv's `entry_buf, entry_pos, entry_size`: the bytes up to the position are the data */
        if (*len >= 0 && *cap < 0) *cap = *len;
        *len = pos;
    }
    if (sized >= 0) {
        if (*len < 0)
            *len = sized;
        else if (*cap < 0)
            *cap = sized;
    }
    if (*data < 0 || *len < 0) {
        *data = *len = *cap = -1;
        return 0;
    }
    return 1;
}

/* Whether t is a va_list: its spelling, or the array (or decayed pointer) of __va_list_tag. */
static int va_list_type(const ut_type *t)
{
    if (!t) return 0;
    if (strstr(t->spelling, "va_list")) return 1;
    const ut_type *e = (t->kind == UT_ARRAY || t->kind == UT_PTR) ? t->pointee : NULL;
    return e && strstr(e->spelling, "__va_list_tag") != NULL;
}

int unit_va_list_last(const ut_func *f)
{
    return f && f->nparams >= 2 && f->type && !f->type->variadic && va_list_type(f->params[f->nparams - 1].type);
}

int unit_takes_varargs(const ut_func *f) { return f && f->type && (f->type->variadic || unit_va_list_last(f)); }

int unit_result_count(const ut_func *f)
{
    const ut_type *r = f->type ? f->type->ret : NULL;
    if (!r || r->kind != UT_PTR || !r->pointee || r->pointee->kind == UT_FUNC) return -1;
    for (size_t i = 0; i < f->nparams; i++) {
        const ut_param *p = &f->params[i];
        /* not the count of a parameter's own array (`headers, size_t *num_headers`) */
        if (!unit_count_ptr(p->type) || p->buf_param >= 0 || p->len_param >= 0) continue;
        if (length_name(p->name) || (p->name[0] == 'n' && p->name[1] == '_')) return (int)i;
    }
    return -1;
}

/* Whether the parameters i, i + 1, i + 2 are `const T *in, BYTE *out, size_t len` (B-Con's
 * base64_encode(const BYTE in[], BYTE out[], size_t len, ...), a cipher's (in, out, len)): the
 * length is the input's, and the output, written bytes the caller sizes for the result (often
 * longer than the input), is left unpaired (a writable byte buffer with room for a result). Not
 * when the length's word names the output (`in, out, outlen`). */
static int input_output_length(const ut_func *f, size_t i)
{
    if (i + 2 >= f->nparams) return 0;
    const ut_param *in = &f->params[i], *out = &f->params[i + 1], *lp = &f->params[i + 2];
    if (!buffer_ok(in->type) || !in->type->pointee->is_const || !out->type || out->type->kind != UT_PTR) return 0;
    const ut_type *oe = out->type->pointee;
    if (!oe || oe->is_const || !((oe->kind == UT_INT && oe->is_char) || oe->kind == UT_VOID)) return 0;
    if (!lp->type || lp->type->kind != UT_INT || !length_name_of(lp->name, in->name)) return 0;
    char w[128];
    length_prefix(lp->name, w, sizeof w);
    return !*w || strncasecmp(out->name, w, strlen(w));
}

/* Whether a pointer to integers named n is a position, no array when a count through a pointer
 * follows: its name ends with off, offset, pos, idx, index (mjson_next's `int *koff, int *klen,
 * int *voff, int *vlen`: a key's offset and its length, not an array of offsets and its count). */
static int position_name(const char *n)
{
    static const char *tails[] = {"off", "offset", "pos", "idx", "index", NULL};
    size_t l = strlen(n);
    for (int i = 0; tails[i]; i++) {
        size_t k = strlen(tails[i]);
        if (l >= k && !strcasecmp(n + l - k, tails[i])) return 1;
    }
    return 0;
}

int unit_position_within(const ut_func *f, size_t i)
{
    static const char *const words[] = {"i",     "pos", "idx",  "index", "off",    "offset", "start",
                                        "begin", "end", "from", "at",    "cursor", NULL};
    if (i >= f->nparams) return -1;
    const ut_param *p = &f->params[i];
    if (!p->type || p->type->kind != UT_INT || p->type->is_char || p->len_param >= 0 || p->buf_param >= 0) return -1;
    int named = position_name(p->name);
    for (int k = 0; words[k] && !named; k++) named = !strcmp(p->name, words[k]);
    if (!named) return -1;
    for (size_t k = i; k-- > 0;) {
        const ut_param *s = &f->params[k];
        const ut_type *t = s->type;
        if (s->len_param >= 0 && s->len_param < (int)i) return (int)k;
        if (s->len_param < 0 && s->buf_param < 0 && t && t->kind == UT_PTR && t->pointee && t->pointee->is_plain_char &&
            strchr(t->spelling, '*'))
            return (int)k;
    }
    return -1;
}

int unit_position_param(const ut_func *f, size_t i)
{
    static const char *const words[] = {"where",  "pos",  "position", "cur",   "curr", "current",
                                        "cursor", "here", "at",       "point", "mark", NULL};
    if (i == 0 || i >= f->nparams) return 0;
    const ut_param *p = &f->params[i];
    const ut_type *t = p->type;
    if (!t || t->kind != UT_PTR || !t->pointee || t->pointee->kind != UT_INT || p->len_param >= 0 ||
        p->buf_param >= 0 || unit_range_begin(f, i) >= 0)
        return 0;
    size_t l = strlen(p->name);
    if (l > 4 && !strcasecmp(p->name + l - 4, "_pos")) return 1;
    for (int k = 0; words[k]; k++)
        if (!strcasecmp(p->name, words[k])) return 1;
    return 0;
}

/* An unsigned integer of a pointer's width (size_t however it is spelled: lwrb's `unsigned long lwrb_sz_t`). */
static int size_type(const ut_type *t)
{
    return t && t->kind == UT_INT && !t->is_char && !t->is_signed && t->bits == 8 * sizeof(void *);
}

/* Whether parameter bi, a `void *` (const or not), is a block of bytes whose count is the size_t after it,
 * whatever their names (MaJerle/lwrb's `lwrb_write(lwrb_t *buff, const void *data, lwrb_sz_t btw)`): not when
 * another size_t follows that count (qsort's `void *base, size_t nmemb, size_t size`: a count of elements). */
static int void_count(const ut_func *f, size_t bi)
{
    const ut_type *b = f->params[bi].type;
    if (!b || b->kind != UT_PTR || !b->pointee || b->pointee->kind != UT_VOID || bi + 1 >= f->nparams) return 0;
    if (!size_type(f->params[bi + 1].type)) return 0;
    return !(bi + 2 < f->nparams && size_type(f->params[bi + 2].type));
}

void unit_pair_buffers(ut_func *f)
{
    for (size_t i = 0; i + 2 < f->nparams; i++)
        if (input_output_length(f, i)) {
            f->params[i].len_param = (int)i + 2;
            f->params[i + 2].buf_param = (int)i;
        }
    /* first `T *buf, size_t n`, then `int n, T *buf` (argc/argv) for what is left */
    for (int order = 0; order < 2; order++)
        for (size_t i = 0; i + 1 < f->nparams; i++) {
            size_t bi = order ? i + 1 : i, li = order ? i : i + 1;
            ut_param *bp = &f->params[bi], *lp = &f->params[li];
            if (!buffer_ok(bp->type) || !lp->type) continue;
            /* a position and a length, both out-parameters (`int *koff, int *klen`); by value a
             * length still measures an array of indices (`int *idx, size_t n`) */
            if (bp->type->pointee->kind == UT_INT && !bp->type->pointee->is_char && position_name(bp->name) &&
                unit_count_ptr(lp->type))
                continue;
            /* a buffer struct carries its own length: `ks_resize(kstring_t *s, size_t size)` is one
             * string and the size it should hold, not an array of strings */
            int bsd, bsl, bsc;
            if (unit_buffer_struct(bp->type->pointee, &bsd, &bsl, &bsc)) continue;
            /* the count through a pointer (`struct phr_header *headers, size_t *num_headers`: the
             * capacity in, the count filled out): after an array the function fills (not const, no
             * pointers: `const char **method, size_t *method_len` is two out-parameters) */
            int by_ptr = !order && unit_count_ptr(lp->type) && !bp->type->pointee->is_const &&
                         bp->type->pointee->kind != UT_PTR && bp->type->pointee->kind != UT_VOID;
            if (lp->type->kind != UT_INT && !by_ptr) continue;
            /* `argc, argv` after a pointer (argparse's `argparse_parse(struct argparse *self, int argc, const
             * char **argv)`): argc counts argv, not the pointer before it (self became an array of argc structs) */
            if (!order && li + 1 < f->nparams && !strcmp(lp->name, "argc") && !strcmp(f->params[li + 1].name, "argv"))
                continue;
            if (bp->len_param >= 0 || bp->buf_param >= 0 || lp->len_param >= 0 || lp->buf_param >= 0) continue;
            /* `num_` + the buffer's name only by pointer: jsmn_parse's `jsmntok_t *tokens, unsigned
             * num_tokens` as a symbolic array cost the search 18 of its 54 branch directions in 30 s
             * (the tokens are written before they are read; their count and fields only multiply paths) */
            const char *nb = capacity_word(lp->name);
            /* ... a *capacity pair*: an array the function fills (not const, of structs or non-char
             * integers; pointers too when the count is a `max_`) and its capacity, by value or in/out
             * by pointer (`headers, size_t *num_headers`), chosen from a few sizes, the elements zero:
             * with the count a free input the solver gave 0 or 1 in 37 of 37 tests (nothing on a path
             * needs more), so no test closed an object over more than one token; picohttpparser's
             * headers were symbolic and 0 or 1 of them (no request with two headers), yuarel's
             * `struct yuarel_param *params, int max_params` one object with a count of 79 (ASan: the
             * unit wrote past it) */
            const ut_type *be = bp->type->pointee;
            int named = nb && !strcmp(nb, bp->name);
            int cap = !order && named && (by_ptr || lp->type->kind == UT_INT) && !be->is_const &&
                      ((be->kind == UT_STRUCT && be->complete) || (be->kind == UT_INT && !be->is_char) ||
                       (be->kind == UT_PTR && !strncmp(lp->name, "max", 3)));
            if (!length_name_of(lp->name, bp->name) && !(by_ptr && named) && !cap && !(!order && void_count(f, bi)))
                continue;
            bp->len_param = (int)li;
            lp->buf_param = (int)bi;
            bp->capacity = cap;
        }
}

static int is_ident(const char *t) { return (isalpha((unsigned char)t[0]) || t[0] == '_'); }

static int is_null_const(const char *t) { return !strcmp(t, "NULL") || !strcmp(t, "0") || !strcmp(t, "nullptr"); }

static void add_checked(unit_info *u, const char *name, int deref)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s%s", deref ? "*" : "", name);
    if (unit_null_checked(u, name, deref)) return;
    char **nv = realloc(u->null_checked, (u->nnull_checked + 1) * sizeof *nv);
    if (!nv) return;
    u->null_checked = nv;
    u->null_checked[u->nnull_checked] = strdup(buf);
    if (u->null_checked[u->nnull_checked]) u->nnull_checked++;
}

int unit_null_checked(const unit_info *u, const char *name, int deref)
{
    for (size_t i = 0; i < u->nnull_checked; i++) {
        const char *c = u->null_checked[i];
        if (deref ? (c[0] == '*' && !strcmp(c + 1, name)) : !strcmp(c, name)) return 1;
    }
    return 0;
}

/*
 * A "chain" is an access path IDENT ((-> | .) IDENT)*, optionally preceded by '*' (and
 * by '(' ... ')' around a '*' chain). It is a NULL check when compared (== / !=) with
 * NULL or 0, negated with '!', or used as a truth value: the whole condition of if/while,
 * or an operand of && / || / ?. The checked name is the chain's last identifier.
 */
void unit_scan_opened_paths(unit_info *u, const char *fn, const char *const *tok, size_t n)
{
    static const char *const openers[] = {"fopen", "freopen", "open", "opendir", "stat", "lstat", "access", NULL};
    for (size_t i = 0; i + 3 < n; i++) {
        int at = -1; /* the argument index of the path */
        for (int k = 0; openers[k] && at < 0; k++)
            if (!strcmp(tok[i], openers[k])) at = 0;
        if (!strcmp(tok[i], "openat")) at = 1;
        if (at < 0 || strcmp(tok[i + 1], "(")) continue;
        size_t j = i + 2;
        for (int a = 0; a < at && j < n; a++) /* past the arguments before (no nesting: `dirfd,`) */
            while (j < n && strcmp(tok[j++], ",")) {}
        if (j + 1 >= n || !is_ident(tok[j]) || (strcmp(tok[j + 1], ",") && strcmp(tok[j + 1], ")"))) continue;
        unit_fn_param_add(&u->opened_paths, &u->nopened_paths, fn, tok[j]);
    }
}

void unit_scan_written_streams(unit_info *u, const char *const *tok, size_t n)
{
    static const char *const first[] = {"fprintf", "vfprintf", "fwprintf", "vfwprintf", "__fprintf_chk", NULL};
    static const char *const last[] = {"fputs",           "fputc", "putc",           "fwrite",         "fputws",
                                       "fputwc",          "putwc", "fputs_unlocked", "fputc_unlocked", "putc_unlocked",
                                       "fwrite_unlocked", NULL};
    for (size_t i = 0; i + 2 < n; i++) {
        int f = 0, l = 0;
        for (int k = 0; first[k]; k++) f |= !strcmp(tok[i], first[k]);
        for (int k = 0; last[k]; k++) l |= !strcmp(tok[i], last[k]);
        if ((!f && !l) || strcmp(tok[i + 1], "(")) continue;
        /* the argument: the first identifier, or the last one before the closing parenthesis */
        const char *arg = NULL;
        if (f) {
            arg = is_ident(tok[i + 2]) && i + 3 < n && !strcmp(tok[i + 3], ",") ? tok[i + 2] : NULL;
        } else {
            int depth = 0;
            for (size_t j = i + 1; j < n; j++) {
                if (!strcmp(tok[j], "(")) depth++;
                if (!strcmp(tok[j], ")") && --depth == 0) {
                    arg = j > 0 && is_ident(tok[j - 1]) && !strcmp(tok[j - 2], ",") ? tok[j - 1] : NULL;
                    break;
                }
            }
        }
        if (!arg || !strcmp(arg, "stdout") || !strcmp(arg, "stderr") || unit_writes_stream(u, arg)) continue;
        char **np = realloc(u->written_streams, (u->nwritten_streams + 1) * sizeof *np);
        if (!np) return;
        u->written_streams = np;
        if ((np[u->nwritten_streams] = strdup(arg))) u->nwritten_streams++;
    }
}

int unit_writes_stream(const unit_info *u, const char *name)
{
    for (size_t i = 0; u && i < u->nwritten_streams; i++)
        if (!strcmp(u->written_streams[i], name)) return 1;
    return 0;
}

/* Whether name is an enumerator of the unit with a negative value (parson's `JSONFailure = -1`). */
static int negative_enumerator(const unit_info *u, const char *name)
{
    for (size_t i = 0; i < u->ntypes; i++)
        for (size_t k = 0; u->types[i]->kind == UT_ENUM && k < u->types[i]->nenums; k++)
            if (u->types[i]->enums[k].value < 0 && !strcmp(u->types[i]->enums[k].name, name)) return 1;
    return 0;
}

void unit_scan_negative_returns(unit_info *u, const char *fn, const char *const *tok, size_t n)
{
    for (size_t i = 0; i + 2 < n; i++) {
        if (strcmp(tok[i], "return")) continue;
        int neg = !strcmp(tok[i + 1], "-") && isdigit((unsigned char)tok[i + 2][0]);
        neg |= is_ident(tok[i + 1]) && !strcmp(tok[i + 2], ";") && negative_enumerator(u, tok[i + 1]);
        if (!neg) continue;
        if (unit_fails_negative(u, fn)) return;
        char **np = realloc(u->neg_failures, (u->nneg_failures + 1) * sizeof *np);
        if (!np) return;
        u->neg_failures = np;
        if ((np[u->nneg_failures] = strdup(fn))) u->nneg_failures++;
        return;
    }
}

int unit_fails_negative(const unit_info *u, const char *fn)
{
    for (size_t i = 0; u && i < u->nneg_failures; i++)
        if (!strcmp(u->neg_failures[i], fn)) return 1;
    return 0;
}

int unit_fn_param_in(char *const *v, size_t n, const char *fn, const char *param)
{
    size_t l = strlen(fn);
    for (size_t i = 0; i < n; i++)
        if (!strncmp(v[i], fn, l) && v[i][l] == ' ' && !strcmp(v[i] + l + 1, param)) return 1;
    return 0;
}

void unit_fn_param_add(char ***v, size_t *n, const char *fn, const char *param)
{
    char *e = NULL;
    if (unit_fn_param_in(*v, *n, fn, param) || asprintf(&e, "%s %s", fn, param) < 0) return;
    char **nv = realloc(*v, (*n + 1) * sizeof *nv);
    if (!nv) {
        free(e);
        return;
    }
    *v = nv;
    nv[(*n)++] = e;
}

int unit_opens_path(const unit_info *u, const char *fn, const char *param)
{
    return unit_fn_param_in(u->opened_paths, u->nopened_paths, fn, param);
}

void unit_scan_null_checks(unit_info *u, const char *const *tok, size_t n)
{
    static const char *keywords[] = {"if", "while", "for", "return", "sizeof", "else", "do", "switch", "case", NULL};
    for (size_t i = 0; i < n; i++) {
        if (!is_ident(tok[i])) continue;
        int kw = 0;
        for (int k = 0; keywords[k]; k++) kw |= !strcmp(tok[i], keywords[k]);
        if (kw) continue;
        /* only chain starts: not preceded by -> or . */
        if (i > 0 && (!strcmp(tok[i - 1], "->") || !strcmp(tok[i - 1], "."))) continue;
        size_t e = i; /* last identifier of the chain */
        while (e + 2 < n && (!strcmp(tok[e + 1], "->") || !strcmp(tok[e + 1], ".")) && is_ident(tok[e + 2])) e += 2;
        size_t b = i; /* first token of the chain, with a leading '*' */
        int deref = 0;
        if (b > 0 && !strcmp(tok[b - 1], "*") && e == i) {
            /* '*' is a dereference unless it follows an operand (multiplication) */
            const char *pp = b > 1 ? tok[b - 2] : "(";
            if (!is_ident(pp) && strcmp(pp, ")") && strcmp(pp, "]")) {
                deref = 1;
                b--;
            }
        }
        if (e + 1 < n && !strcmp(tok[e + 1], "(")) {
            i = e;
            continue; /* a call: not the pointer itself */
        }
        if (e + 1 < n && !strcmp(tok[e + 1], "[")) {
            /* an element: `v[i] == NULL`, `!v[i]` check the elements, recorded as "*v" */
            size_t m = e + 1;
            for (int depth = 0; m < n; m++) {
                if (!strcmp(tok[m], "["))
                    depth++;
                else if (!strcmp(tok[m], "]") && --depth == 0)
                    break;
            }
            const char *bf = b > 0 ? tok[b - 1] : "", *bf2 = b > 1 ? tok[b - 2] : "";
            const char *af = m + 1 < n ? tok[m + 1] : "", *af2 = m + 2 < n ? tok[m + 2] : "";
            int chk = ((!strcmp(af, "==") || !strcmp(af, "!=")) && is_null_const(af2)) || !strcmp(bf, "!") ||
                      (!strcmp(bf, "(") && (!strcmp(bf2, "if") || !strcmp(bf2, "while")) && !strcmp(af, ")")) ||
                      !strcmp(af, "&&") || !strcmp(af, "||") || !strcmp(bf, "&&") || !strcmp(bf, "||");
            if (chk && e == i) add_checked(u, tok[e], 1);
            i = e;
            continue;
        }
        const char *before = b > 0 ? tok[b - 1] : "";
        const char *after = e + 1 < n ? tok[e + 1] : "";
        const char *after2 = e + 2 < n ? tok[e + 2] : "";
        const char *before2 = b > 1 ? tok[b - 2] : "";
        /* (*p) == NULL: step over the parentheses */
        if (deref && !strcmp(before, "(") && !strcmp(after, ")")) {
            before = before2;
            before2 = b > 2 ? tok[b - 3] : "";
            after = after2;
            after2 = e + 3 < n ? tok[e + 3] : "";
        }
        /* an assignment from an access path: `x = chain;` / `x = chain,` / `x = chain)` */
        if (!deref && !strcmp(before, "=") && b > 1 && is_ident(before2) &&
            (!strcmp(after, ";") || !strcmp(after, ",") || !strcmp(after, ")"))) {
            char pair[512];
            snprintf(pair, sizeof pair, "%s\t%s", before2, tok[e]);
            char **nv = realloc(u->null_flow, (u->nnull_flow + 1) * sizeof *nv);
            if (nv) {
                u->null_flow = nv;
                if ((nv[u->nnull_flow] = strdup(pair)) != NULL) u->nnull_flow++;
            }
        }
        int check = 0;
        if ((!strcmp(after, "==") || !strcmp(after, "!=")) && is_null_const(after2)) check = 1;
        if ((!strcmp(before, "==") || !strcmp(before, "!=")) && is_null_const(before2)) check = 1;
        if (!strcmp(before, "!")) check = 1;
        if (!strcmp(before, "(") && (!strcmp(before2, "if") || !strcmp(before2, "while")) && !strcmp(after, ")"))
            check = 1;
        if (!strcmp(before, "&&") || !strcmp(before, "||") || !strcmp(after, "&&") || !strcmp(after, "||") ||
            !strcmp(after, "?"))
            check = 1;
        if (check) add_checked(u, tok[e], deref);
        i = e;
    }
}

void unit_null_propagate(unit_info *u)
{
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < u->nnull_flow; i++) {
            char lhs[256];
            const char *tab = strchr(u->null_flow[i], '\t');
            if (!tab) continue;
            snprintf(lhs, sizeof lhs, "%.*s", (int)(tab - u->null_flow[i]), u->null_flow[i]);
            if (unit_null_checked(u, lhs, 0) && !unit_null_checked(u, tab + 1, 0)) {
                add_checked(u, tab + 1, 0);
                changed = 1;
            }
        }
    }
}

int unit_mock_out_param(const ut_type *t)
{
    if (!t || t->kind != UT_PTR || !t->pointee) return 0;
    const ut_type *e = t->pointee;
    if (e->is_const || strstr(e->spelling, "(unnamed") || strstr(e->spelling, "(anonymous")) return 0;
    switch (e->kind) {
    case UT_INT: return !e->is_plain_char && e->size > 0;
    case UT_BOOL:
    case UT_ENUM: return 1;
    case UT_PTR: return e->pointee && e->pointee->kind != UT_FUNC;
    case UT_STRUCT: return e->complete;
    default: return 0;
    }
}

void unit_split_words(const char *s, char ***v, size_t *n)
{
    char *err = NULL;
    if (util_split_words(s, v, n, &err)) free(err); /* --cflags is checked once, when the command starts */
}

char *unit_stub_name(const ut_type *fp)
{
    if (fp->stub) return strdup(fp->stub);
    char *id = unit_ident(fp->spelling);
    char *r = NULL;
    if (id && asprintf(&r, "stub_%s", id) < 0) r = NULL;
    free(id);
    return r;
}

int unit_is_wrapped(const unit_info *u, const char *name)
{
    for (size_t i = 0; i < u->nwrapped; i++)
        if (!strcmp(u->wrapped[i], name)) return 1;
    return 0;
}

/* A spelling generated C can use: clang names anonymous types "struct (unnamed at f.c:3:1)". */
static const char *c_spelling(const ut_type *t)
{
    if (!t || !t->spelling) return NULL;
    if (!strstr(t->spelling, "(unnamed") && !strstr(t->spelling, "(anonymous")) return t->spelling;
    if (t->canonical && !strstr(t->canonical, "(unnamed") && !strstr(t->canonical, "(anonymous")) return t->canonical;
    return NULL;
}

char *unit_prototype(const ut_func *f)
{
    if (!f || !f->name || !f->type || f->type->kind != UT_FUNC) return NULL;
    const char *rs = c_spelling(f->type->ret);
    if (!rs) return NULL;
    strbuf head = STRBUF_INIT;
    sb_printf(&head, "%s(", f->name);
    if (f->nparams == 0 && !f->type->variadic) sb_puts(&head, "void");
    for (size_t i = 0; i < f->nparams; i++) {
        const char *ps = c_spelling(f->params[i].type);
        char *d = ps ? unit_declarator(ps, f->params[i].name) : NULL;
        if (!d) {
            sb_free(&head);
            return NULL;
        }
        sb_printf(&head, "%s%s", i ? ", " : "", d);
        free(d);
    }
    if (f->type->variadic) sb_puts(&head, f->nparams ? ", ..." : "...");
    sb_puts(&head, ")");
    if (head.failed) {
        sb_free(&head);
        return NULL;
    }
    /* the return type wraps the head: "int (*)(int)" -> "int (*h(int k))(int)" */
    char *r = unit_declarator(rs, head.s);
    sb_free(&head);
    return r;
}
