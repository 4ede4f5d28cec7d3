/* test_unit_parse.c: libclang signatures (types, enums, structs, arrays, function pointers), mock candidates,
 * NULL-check scan, buffer/length pairing, declarators. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit/unit.h"

static const char *SRC_TEXT = "#include <stddef.h>\n"
                              "#include <stdint.h>\n"
                              "#include <string.h>\n"
                              "#define NAME_LEN 12\n"
                              "typedef enum { LOW = 1, HIGH = 7 } level_t;\n"
                              "struct node { int v; struct node *next; char name[NAME_LEN]; };\n"
                              "typedef int (*cb_t)(int);\n"
                              "int ext_read(int ch);\n"
                              "static int helper(int x) { return ext_read(x); }\n"
                              "int f_all(const char *s, struct node *n, const uint8_t *buf, size_t len, level_t lv, "
                              "cb_t cb, int arr[4], _Bool ok) {\n"
                              "    if (n == NULL || !n->next) return helper(0);\n"
                              "    return (int)strlen(s) + buf[0] + (int)len + lv + cb(1) + arr[0] + ok;\n"
                              "}\n"
                              "typedef unsigned char BYTE;\n"
                              "void h_arrays(const BYTE in[], BYTE out[], size_t len) { out[0] = in[len - 1]; }\n"
                              "static int hidden(void) { return 1; }\n"
                              "int g_uses_hidden(void) { return hidden(); }\n";

static char *write_src(const char *text)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/sympath_unit_parse_%d.c", (int)getpid());
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static const ut_param *param(const ut_func *f, const char *name)
{
    for (size_t i = 0; i < f->nparams; i++)
        if (!strcmp(f->params[i].name, name)) return &f->params[i];
    fail_msg("no parameter %s", name);
    return NULL;
}

static void test_signatures(void **state)
{
    (void)state;
    const char *path = write_src(SRC_TEXT);
    unit_info u;
    char *err = NULL;
    assert_int_equal(unit_parse(&path, 1, NULL, &u, &err), 0);
    /* external definitions in defs, static ones apart (targets by name), prototypes excluded */
    assert_int_equal(u.ndefs, 3);
    assert_non_null(unit_find_def(&u, "f_all"));
    assert_non_null(unit_find_def(&u, "g_uses_hidden"));
    assert_int_equal(u.nstatics, 2);
    assert_true(unit_find_def(&u, "hidden")->is_static);
    assert_true(unit_find_def(&u, "helper")->is_static);
    assert_false(unit_find_def(&u, "f_all")->is_static);
    assert_null(unit_find_def(&u, "ext_read"));
    assert_int_equal(u.nsources, 1);
    assert_false(u.included[0]);
    const ut_func *f = unit_find_def(&u, "f_all");
    assert_int_equal(f->nparams, 8);
    assert_string_equal(f->type->ret->spelling, "int");

    const ut_param *s = param(f, "s");
    assert_int_equal(s->type->kind, UT_PTR);
    assert_true(s->type->pointee->is_char);
    assert_true(s->type->pointee->is_const);

    const ut_param *n = param(f, "n");
    const ut_type *node = n->type->pointee;
    assert_int_equal(node->kind, UT_STRUCT);
    assert_string_equal(node->spelling, "struct node");
    assert_true(node->complete);
    assert_int_equal(node->nfields, 3);
    assert_string_equal(node->fields[1].name, "next");
    assert_ptr_equal(node->fields[1].type->pointee, node); /* recursive type interned once */
    assert_int_equal(node->fields[2].type->kind, UT_ARRAY);
    assert_int_equal(node->fields[2].type->count, 12); /* macro resolved by clang */

    /* uint8_t keeps its typedef name; the pair (buf, len) is recognised */
    const ut_param *buf = param(f, "buf");
    assert_string_equal(buf->type->pointee->spelling, "const uint8_t");
    assert_int_equal(buf->len_param, 3);
    assert_int_equal(param(f, "len")->buf_param, 2);
    assert_string_equal(param(f, "len")->type->spelling, "size_t");

    const ut_type *lv = param(f, "lv")->type;
    assert_int_equal(lv->kind, UT_ENUM);
    assert_int_equal(lv->nenums, 2);
    assert_string_equal(lv->enums[1].name, "HIGH");
    assert_int_equal(lv->enums[1].value, 7);

    const ut_type *cb = param(f, "cb")->type;
    assert_int_equal(cb->kind, UT_PTR);
    assert_int_equal(cb->pointee->kind, UT_FUNC);
    assert_int_equal(cb->pointee->nargs, 1);

    /* a fixed-size array parameter keeps its declared type (the harness builds N elements) */
    assert_int_equal(param(f, "arr")->type->kind, UT_ARRAY);
    assert_int_equal(param(f, "arr")->type->count, 4);
    assert_int_equal(param(f, "ok")->type->kind, UT_BOOL);
    /* an array of no size is the pointer the function receives (an array local needs a size);
     * `in[], out[], len`: the length is the input's */
    const ut_func *h = unit_find_def(&u, "h_arrays");
    assert_string_equal(param(h, "in")->type->spelling, "const BYTE *");
    assert_int_equal(param(h, "out")->type->kind, UT_PTR);
    assert_int_equal(param(h, "in")->len_param, 2);
    assert_int_equal(param(h, "out")->len_param, -1);
    assert_string_equal(param(h, "out")->type->pointee->spelling, "BYTE");

    /* ext_read is called (through a static helper) and defined nowhere: a mock candidate;
     * strlen is declared in a system header: not mocked by default */
    assert_int_equal(u.nexterns, 1);
    assert_string_equal(u.externs[0].name, "ext_read");
    int has_strlen = 0;
    for (size_t i = 0; i < u.nsystem; i++) has_strlen |= !strcmp(u.system[i].name, "strlen");
    assert_true(has_strlen);

    /* the prelude carries the includes, the macro, the types and the prototypes */
    assert_non_null(strstr(u.prelude, "#include <stdint.h>"));
    assert_non_null(strstr(u.prelude, "#define NAME_LEN 12"));
    assert_non_null(strstr(u.prelude, "struct node { int v;"));
    assert_non_null(strstr(u.prelude, "int f_all(const char *s, struct node *n,"));
    assert_null(strstr(u.prelude, "static int hidden"));

    /* NULL checks: n (n == NULL) and next (!n->next) */
    assert_true(unit_null_checked(&u, "n", 0));
    assert_true(unit_null_checked(&u, "next", 0));
    assert_false(unit_null_checked(&u, "s", 0));
    unit_info_free(&u);
    unlink(path);
}

static void test_clang_errors(void **state)
{
    (void)state;
    const char *path = write_src("int broken(int x) { return x +; }\n");
    unit_info u;
    char *err = NULL;
    assert_int_equal(unit_parse(&path, 1, NULL, &u, &err), -1);
    assert_non_null(err);
    assert_non_null(strstr(err, "error"));
    assert_non_null(strstr(err, ":1:")); /* clang's location */
    free(err);
    unit_info_free(&u);
    unlink(path);
}

static void test_null_scan(void **state)
{
    (void)state;
    unit_info u;
    memset(&u, 0, sizeof u);
    const char *t1[] = {"if", "(", "p", "==", "NULL", ")", "return", ";"};
    const char *t2[] = {"while", "(", "q", ")", "q", "=", "q", "->", "link", ";"};
    const char *t3[] = {"x", "=", "a", "*", "b", ";", "if", "(", "*", "slot", "!=", "0", ")"};
    const char *t4[] = {"if", "(", "d", "->", "ops", "->", "flush", "&&", "1", ")"};
    const char *t5[] = {"cur", "=", "head", ";", "if", "(", "r", "==", "NULL", ")"};
    unit_scan_null_checks(&u, t1, sizeof t1 / sizeof *t1);
    unit_scan_null_checks(&u, t2, sizeof t2 / sizeof *t2);
    unit_scan_null_checks(&u, t3, sizeof t3 / sizeof *t3);
    unit_scan_null_checks(&u, t4, sizeof t4 / sizeof *t4);
    unit_scan_null_checks(&u, t5, sizeof t5 / sizeof *t5);
    const char *t6[] = {"if", "(", "argv", "[", "i", "]", "!=", "NULL", ")", "x", "=", "w", "[", "0", "]", ";"};
    unit_scan_null_checks(&u, t6, sizeof t6 / sizeof *t6);
    assert_true(unit_null_checked(&u, "argv", 1)); /* its elements are checked */
    assert_false(unit_null_checked(&u, "argv", 0));
    assert_false(unit_null_checked(&u, "w", 1));
    assert_true(unit_null_checked(&u, "p", 0));
    assert_true(unit_null_checked(&u, "q", 0));
    assert_true(unit_null_checked(&u, "slot", 1)); /* *slot != 0 */
    assert_false(unit_null_checked(&u, "slot", 0));
    assert_false(unit_null_checked(&u, "b", 1));    /* a * b is a product */
    assert_true(unit_null_checked(&u, "flush", 0)); /* last member of the path */
    assert_false(unit_null_checked(&u, "ops", 0));
    assert_false(unit_null_checked(&u, "link", 0));
    assert_false(unit_null_checked(&u, "head", 0)); /* cur is never checked */
    unit_null_propagate(&u);
    assert_true(unit_null_checked(&u, "link", 0)); /* q = q->link with q checked */
    assert_false(unit_null_checked(&u, "head", 0));
    unit_info_free(&u);
}

/* The stream a function writes to: fprintf's first argument, fputs' and fwrite's last; not stdout/stderr, not
 * a stream only read. */
static void test_written_streams(void **state)
{
    (void)state;
    unit_info u;
    memset(&u, 0, sizeof u);
    const char *t[] = {"fprintf", "(",     "out", ",", "\"%d\"", ",",       "x", ")",      ";", "fputs", "(",
                       "s",       ",",     "f",   ")", ";",      "fwrite",  "(", "b",      ",", "1",     ",",
                       "n",       ",",     "dst", ")", ";",      "fprintf", "(", "stderr", ",", "\"e\"", ")",
                       ";",       "fgets", "(",   "l", ",",      "8",       ",", "in",     ")"};
    unit_scan_written_streams(&u, t, sizeof t / sizeof *t);
    assert_true(unit_writes_stream(&u, "out"));
    assert_true(unit_writes_stream(&u, "f"));
    assert_true(unit_writes_stream(&u, "dst"));
    assert_false(unit_writes_stream(&u, "stderr"));
    assert_false(unit_writes_stream(&u, "in"));
    assert_false(unit_writes_stream(&u, "s"));
    unit_info_free(&u);
}

/* A pointer parameter walked only backwards, itself or through an alias, gets room before it; one that also steps
 * forwards, or is only read forwards, does not. */
static void test_backward_params(void **state)
{
    (void)state;
    unit_info u;
    memset(&u, 0, sizeof u);
    /* const char *prev(const char *str, int *out) { const char *s = (const char *)str; *out = *s;
     *   do s--; while ((*s & 0xc0) == 0x80); return s; } */
    const char *t1[] = {"const", "char",  "*",    "prev", "(", "const",  "char", "*",     "str", ",",
                        "int",   "*",     "out",  ")",    "{", "const",  "char", "*",     "s",   "=",
                        "(",     "const", "char", "*",    ")", "str",    ";",    "*",     "out", "=",
                        "*",     "s",     ";",    "do",   "s", "--",     ";",    "while", "(",   "s",
                        "[",     "0",     "]",    ")",    ";", "return", "s",    ";",     "}"};
    unit_scan_backward_params(&u, "prev", t1, sizeof t1 / sizeof *t1);
    /* int last(const char *p) { return p[-1]; } */
    const char *t2[] = {"int",    "last", "(", "const", "char", "*", "p", ")", "{",
                        "return", "p",    "[", "-",     "1",    "]", ";", "}"};
    unit_scan_backward_params(&u, "last", t2, sizeof t2 / sizeof *t2);
    /* int scan(const char *p, int n) { while (*p) p++; p--; n--; return *p; } */
    const char *t3[] = {"int", "scan", "(",     "const", "char", "*",      "p", ",", "int", "n",
                        ")",   "{",    "while", "(",     "*",    "p",      ")", "p", "++",  "p",
                        "--",  ";",    "n",     "--",    ";",    "return", "*", "p", ";",   "}"};
    unit_scan_backward_params(&u, "scan", t3, sizeof t3 / sizeof *t3);
    /* void trim(char *s) { char *e = s + strlen(s); while (e > s) e--; } */
    const char *t4[] = {"void", "trim", "(", "char", "*",     "s", ")", "{", "char", "*", "e", "=",  "s", "+", "strlen",
                        "(",    "s",    ")", ";",    "while", "(", "e", ">", "s",    ")", "e", "--", ";", "}"};
    unit_scan_backward_params(&u, "trim", t4, sizeof t4 / sizeof *t4);
    assert_true(unit_reads_before(&u, "prev", "str"));
    assert_false(unit_reads_before(&u, "prev", "out"));
    assert_true(unit_reads_before(&u, "last", "p"));
    assert_false(unit_reads_before(&u, "scan", "p")); /* steps forward first */
    assert_true(unit_reads_before(&u, "scan", "n"));  /* an int: the harness gives room to strings only */
    assert_false(unit_reads_before(&u, "trim", "s")); /* e starts at the end, not at s */
    assert_false(unit_reads_before(&u, "other", "str"));
    unit_info_free(&u);
}

/* A pointer parameter walked as an array (indexed past 0, stepped forward), itself, through an alias, by a
 * function it is passed to whole, or kept in a member some function walks; a cursor (`(*s)++`) and element 0 alone are not. */
static void test_walked_params(void **state)
{
    (void)state;
    const char *path =
        write_src("struct st { const char **v; int at; };\n"
                  "static int walk(struct st *s, const char **paths) {\n"
                  "    s->v = paths; s->at = 0;\n"
                  "    while (s->v[s->at]) s->at++;\n"
                  "    return s->at; }\n"
                  "int join(const char **paths, char *out) { struct st s; (void)out; return walk(&s, paths); }\n"
                  "int count(char **argv) { int n = 0; while (*argv++) n++; return n; }\n"
                  "int first(const char **p) { return p[0] != 0; }\n"
                  "int skip(const char **s) { while (**s == ' ') (*s)++; return **s; }\n"
                  "int relay(const char **q) { return first(q); }\n"
                  "int outer(const char **q) { return first(q) + (int)count((char **)q); }\n"
                  "struct cur { const char **w; int i; };\n"
                  "void cur_init(struct cur *c, const char **list) { c->w = list; c->i = 0; }\n"
                  "const char *cur_next(struct cur *c) { return c->w[c->i++]; }\n"
                  "int use(const char **list) { struct cur c; cur_init(&c, list); return cur_next(&c) != 0; }\n");
    unit_info u;
    char *err = NULL;
    assert_int_equal(unit_parse(&path, 1, NULL, &u, &err), 0);
    assert_true(unit_walks_array(&u, "walk", "paths")); /* through the member s->v */
    assert_true(unit_walks_array(&u, "join", "paths")); /* passed whole to walk */
    assert_false(unit_walks_array(&u, "join", "out"));
    assert_true(unit_walks_array(&u, "count", "argv"));
    assert_false(unit_walks_array(&u, "first", "p"));
    assert_false(unit_walks_array(&u, "skip", "s"));
    assert_false(unit_walks_array(&u, "relay", "q"));
    assert_true(unit_walks_array(&u, "outer", "q"));       /* passed to count through a cast */
    assert_true(unit_walks_array(&u, "cur_init", "list")); /* kept in c->w, which cur_next walks */
    assert_true(unit_walks_array(&u, "use", "list"));
    unit_info_free(&u);
    unlink(path);
}

static void test_declarators_and_idents(void **state)
{
    (void)state;
    char *d;
    assert_string_equal(d = unit_declarator("int (*)(int)", "cb"), "int (*cb)(int)");
    free(d);
    assert_string_equal(d = unit_declarator("char [9]", "s"), "char s[9]");
    free(d);
    assert_string_equal(d = unit_declarator("int [4]", "*o"), "int (*o)[4]");
    free(d);
    assert_string_equal(d = unit_declarator("struct node *", "p"), "struct node *p");
    free(d);
    assert_string_equal(d = unit_declarator("unsigned long", "n"), "unsigned long n");
    free(d);
    assert_string_equal(d = unit_ident("int (*)(const char *)"), "int_p_const_char_p");
    free(d);
    assert_string_equal(d = unit_ident("struct node"), "struct_node");
    free(d);
}

static void test_buffer_pairs(void **state)
{
    (void)state;
    ut_type i32 = {.kind = UT_INT, .bits = 32, .size = 4, .is_signed = 1, .spelling = "int"};
    ut_type u8 = {.kind = UT_INT, .bits = 8, .size = 1, .is_char = 1, .spelling = "uint8_t"};
    ut_type pu8 = {.kind = UT_PTR, .size = 8, .pointee = &u8, .spelling = "uint8_t *"};
    ut_param ps[] = {{"data", &pu8, -1, -1, 0, 0},
                     {"nbytes", &i32, -1, -1, 0, 0},
                     {"p", &pu8, -1, -1, 0, 0},
                     {"x", &i32, -1, -1, 0, 0}};
    ut_func f = {.name = "f", .params = ps, .nparams = 4};
    unit_pair_buffers(&f);
    assert_int_equal(ps[0].len_param, 1);
    /* an array of doubles and its count (`mean(const double *xs, size_t n)`: xs was one double, read past) */
    ut_type dbl = {.kind = UT_FLOAT, .bits = 64, .size = 8, .is_const = 1, .spelling = "const double"};
    ut_type pdbl = {.kind = UT_PTR, .size = 8, .pointee = &dbl, .spelling = "const double *"};
    ut_type sz = {.kind = UT_INT, .bits = 64, .size = 8, .spelling = "size_t"};
    ut_param psd[] = {{"xs", &pdbl, -1, -1, 0, 0}, {"n", &sz, -1, -1, 0, 0}};
    ut_func fd = {.name = "mean", .params = psd, .nparams = 2};
    unit_pair_buffers(&fd);
    assert_int_equal(psd[0].len_param, 1);
    /* a position after a text or a buffer whose length comes first: bounded by the harness */
    ut_type cch = {.kind = UT_INT,
                   .bits = 8,
                   .size = 1,
                   .is_char = 1,
                   .is_plain_char = 1,
                   .is_const = 1,
                   .spelling = "const char"};
    ut_type pcch = {.kind = UT_PTR, .size = 8, .pointee = &cch, .spelling = "const char *"};
    ut_param pp[] = {{"src", &pcch, -1, -1, 0, 0}, {"end", &sz, -1, -1, 0, 0}, {"count", &sz, -1, -1, 0, 0},
                     {"buf", &pu8, -1, -1, 0, 0},  {"len", &sz, -1, -1, 0, 0}, {"start_pos", &sz, -1, -1, 0, 0}};
    ut_func fp = {.name = "pos", .params = pp, .nparams = 6};
    unit_pair_buffers(&fp);
    assert_int_equal(unit_position_within(&fp, 1), 0);  /* end, after the text src */
    assert_int_equal(unit_position_within(&fp, 2), -1); /* count names no position */
    assert_int_equal(unit_position_within(&fp, 5), 3);  /* start_pos, after buf and its len */
    /* length first: int argc, char **argv */
    ut_type ch = {.kind = UT_INT, .bits = 8, .size = 1, .is_char = 1, .is_plain_char = 1, .spelling = "char"};
    ut_type pch = {.kind = UT_PTR, .size = 8, .pointee = &ch, .spelling = "char *"};
    ut_type ppch = {.kind = UT_PTR, .size = 8, .pointee = &pch, .spelling = "char **"};
    ut_param ps2[] = {{"argc", &i32, -1, -1, 0, 0}, {"argv", &ppch, -1, -1, 0, 0}};
    ut_func f2 = {.name = "g", .params = ps2, .nparams = 2};
    unit_pair_buffers(&f2);
    assert_int_equal(ps2[1].len_param, 0);
    assert_int_equal(ps2[0].buf_param, 1);
    /* a pointer before argc, argv (argparse_parse(self, argc, argv)): argc counts argv, not self */
    ut_type st = {.kind = UT_STRUCT, .size = 16, .complete = 1, .spelling = "struct ap"};
    ut_type pst = {.kind = UT_PTR, .size = 8, .pointee = &st, .spelling = "struct ap *"};
    ut_param pa4[] = {{"self", &pst, -1, -1, 0, 0}, {"argc", &i32, -1, -1, 0, 0}, {"argv", &ppch, -1, -1, 0, 0}};
    ut_func fa4 = {.name = "parse", .params = pa4, .nparams = 3};
    unit_pair_buffers(&fa4);
    assert_int_equal(pa4[0].len_param, -1);
    assert_int_equal(pa4[2].len_param, 1);
    /* "n" + the buffer's name */
    ut_param ps3[] = {
        {"a", &pu8, -1, -1, 0, 0}, {"na", &i32, -1, -1, 0, 0}, {"b", &pu8, -1, -1, 0, 0}, {"nb", &i32, -1, -1, 0, 0}};
    ut_func f3 = {.name = "h", .params = ps3, .nparams = 4};
    unit_pair_buffers(&f3);
    assert_int_equal(ps3[0].len_param, 1);
    assert_int_equal(ps3[2].len_param, 3);
    assert_int_equal(ps[1].buf_param, 0);
    assert_int_equal(ps[2].len_param, -1); /* "x" is not a length name */
    assert_int_equal(ps[3].buf_param, -1);
    /* a tailed length name measures the pointer before it only when its word is about that buffer
     * or any buffer: `size_t *num_headers, size_t last_len` is no pair (picohttpparser's
     * phr_parse_headers: last_len is an earlier read's length), `in, inlen`, `key, klen`,
     * `variables, var_count` and `out, max_len` are */
    ut_type psz = {.kind = UT_PTR, .size = 8, .pointee = &sz, .spelling = "size_t *"};
    ut_param ps4[] = {{"num_headers", &psz, -1, -1, 0, 0}, {"last_len", &sz, -1, -1, 0, 0},
                      {"in", &pu8, -1, -1, 0, 0},          {"inlen", &sz, -1, -1, 0, 0},
                      {"key", &pu8, -1, -1, 0, 0},         {"klen", &sz, -1, -1, 0, 0},
                      {"variables", &pu8, -1, -1, 0, 0},   {"var_count", &i32, -1, -1, 0, 0},
                      {"out", &pu8, -1, -1, 0, 0},         {"max_len", &sz, -1, -1, 0, 0}};
    ut_func f4 = {.name = "k", .params = ps4, .nparams = 10};
    unit_pair_buffers(&f4);
    assert_int_equal(ps4[0].len_param, -1);
    assert_int_equal(ps4[1].buf_param, -1);
    assert_int_equal(ps4[2].len_param, 3);
    assert_int_equal(ps4[4].len_param, 5);
    assert_int_equal(ps4[6].len_param, 7);
    assert_int_equal(ps4[8].len_param, 9);
    /* the word of a length name is a later word of the buffer's name (stb_c_lexer_init's `char *string_store,
     * int store_length`: the store was 68 bytes, its length 85), not a word inside one (`char *restore, int
     * store_len`) */
    ut_param pst6[] = {{"string_store", &pch, -1, -1, 0, 0},
                       {"store_length", &i32, -1, -1, 0, 0},
                       {"restore", &pch, -1, -1, 0, 0},
                       {"store_len", &i32, -1, -1, 0, 0}};
    ut_func fst6 = {.name = "lex_init", .params = pst6, .nparams = 4};
    unit_pair_buffers(&fst6);
    assert_int_equal(pst6[0].len_param, 1);
    assert_int_equal(pst6[2].len_param, -1);
    /* a `void *` and the size_t after it, whatever their names (lwrb_write's `const void *data, lwrb_sz_t btw`),
     * not a count of elements followed by their size (a qsort-like `void *base, size_t items, size_t width`) */
    ut_type vd = {.kind = UT_VOID, .is_const = 1, .spelling = "const void"};
    ut_type pvd = {.kind = UT_PTR, .size = 8, .pointee = &vd, .spelling = "const void *"};
    ut_type szt = {.kind = UT_INT, .bits = 64, .size = 8, .spelling = "lwrb_sz_t"};
    ut_param pvw[] = {{"buff", &pst, -1, -1, 0, 0}, {"data", &pvd, -1, -1, 0, 0}, {"btw", &szt, -1, -1, 0, 0}};
    ut_func fvw = {.name = "lwrb_write", .params = pvw, .nparams = 3};
    unit_pair_buffers(&fvw);
    assert_int_equal(pvw[1].len_param, 2);
    ut_param pqs[] = {{"base", &pvd, -1, -1, 0, 0}, {"items", &szt, -1, -1, 0, 0}, {"width", &szt, -1, -1, 0, 0}};
    ut_func fqs = {.name = "sort", .params = pqs, .nparams = 3};
    unit_pair_buffers(&fqs);
    assert_int_equal(pqs[0].len_param, -1);
    /* a count through a pointer after an array the function fills (picohttpparser's
     * `struct phr_header *headers, size_t *num_headers`), not after out-parameters
     * (`const char **method, size_t *method_len`) */
    ut_type hdr = {.kind = UT_STRUCT, .size = 32, .complete = 1, .spelling = "struct phr_header"};
    ut_type phdr = {.kind = UT_PTR, .size = 8, .pointee = &hdr, .spelling = "struct phr_header *"};
    ut_type ppcch = {.kind = UT_PTR, .size = 8, .pointee = &pcch, .spelling = "const char **"};
    ut_param ps5[] = {{"method", &ppcch, -1, -1, 0, 0},
                      {"method_len", &psz, -1, -1, 0, 0},
                      {"headers", &phdr, -1, -1, 0, 0},
                      {"num_headers", &psz, -1, -1, 0, 0}};
    ut_func f5 = {.name = "m", .params = ps5, .nparams = 4};
    unit_pair_buffers(&f5);
    assert_int_equal(ps5[0].len_param, -1);
    assert_int_equal(ps5[2].len_param, 3);
    assert_int_equal(ps5[3].buf_param, 2);
    assert_true(ps5[2].capacity); /* the count in is the capacity: a few sizes, the headers zero */
    /* positions are out-parameters, no arrays: mjson_next's `int *koff, int *klen, int *voff, int *vlen` */
    ut_type pi32 = {.kind = UT_PTR, .size = 8, .pointee = &i32, .spelling = "int *"};
    ut_param ps11[] = {{"koff", &pi32, -1, -1, 0, 0},
                       {"klen", &pi32, -1, -1, 0, 0},
                       {"voff", &pi32, -1, -1, 0, 0},
                       {"vlen", &pi32, -1, -1, 0, 0}};
    ut_func f11 = {.name = "mn", .params = ps11, .nparams = 4};
    unit_pair_buffers(&f11);
    for (int k = 0; k < 4; k++) assert_int_equal(ps11[k].len_param, -1);
    ut_param ps13[] = {{"idx", &pi32, -1, -1, 0, 0}, {"n", &sz, -1, -1, 0, 0}}; /* by value: an array of indices */
    ut_func f13 = {.name = "ix", .params = ps13, .nparams = 2};
    unit_pair_buffers(&f13);
    assert_int_equal(ps13[0].len_param, 1);
    /* the end of a range: `char *s, char *end`, `const char *p, const char *pe`; not after a length's buffer
     * nor of another element type */
    ut_param ps12[] = {{"s", &pch, -1, -1, 0, 0},   {"end", &pch, -1, -1, 0, 0},  {"p", &pu8, -1, -1, 0, 0},
                       {"pe", &pu8, -1, -1, 0, 0},  {"q", &pu8, -1, -1, 0, 0},    {"last", &pch, -1, -1, 0, 0},
                       {"buf", &pch, -1, -1, 0, 0}, {"stop", &pi32, -1, -1, 0, 0}};
    ut_func f12 = {.name = "rg", .params = ps12, .nparams = 8};
    assert_int_equal(unit_range_begin(&f12, 1), 0);
    assert_int_equal(unit_range_begin(&f12, 3), 2);
    assert_int_equal(unit_range_begin(&f12, 5), -1); /* uint8_t * then char * */
    assert_int_equal(unit_range_begin(&f12, 7), -1); /* int * after char * */
    assert_int_equal(unit_range_begin(&f12, 0), -1);
    assert_int_equal(unit_range_begin(&f12, 2), -1); /* "p" is no end */
    /* `max_` + the buffer's name is a capacity too, for an array of pointers as well (yuarel's
     * `struct yuarel_param *params, int max_params`, `char **parts, int max_parts`) */
    ut_type i32b = {.kind = UT_INT, .bits = 32, .size = 4, .is_signed = 1, .spelling = "int"};
    ut_param ps10[] = {{"params", &phdr, -1, -1, 0, 0},
                       {"max_params", &i32b, -1, -1, 0, 0},
                       {"parts", &ppcch, -1, -1, 0, 0},
                       {"max_parts", &i32b, -1, -1, 0, 0}};
    ut_func f10 = {.name = "q", .params = ps10, .nparams = 4};
    unit_pair_buffers(&f10);
    assert_int_equal(ps10[0].len_param, 1);
    assert_true(ps10[0].capacity);
    assert_int_equal(ps10[2].len_param, 3);
    assert_true(ps10[2].capacity);
    /* `num_` + the buffer's name by value is a capacity pair (jsmn's tokens, num_tokens: an array the
     * parser fills, its capacity from a few sizes, no symbolic elements: those only multiplied the
     * paths); not for a const array */
    ut_type u32 = {.kind = UT_INT, .bits = 32, .size = 4, .spelling = "unsigned int"};
    ut_param ps8[] = {{"tokens", &phdr, -1, -1, 0, 0}, {"num_tokens", &u32, -1, -1, 0, 0}};
    ut_func f8 = {.name = "j", .params = ps8, .nparams = 2};
    unit_pair_buffers(&f8);
    assert_int_equal(ps8[0].len_param, 1);
    assert_int_equal(ps8[1].buf_param, 0);
    assert_true(ps8[0].capacity);
    ut_type chdr = {.kind = UT_STRUCT, .size = 32, .complete = 1, .is_const = 1, .spelling = "const struct phr_header"};
    ut_type pchdr = {.kind = UT_PTR, .size = 8, .pointee = &chdr, .spelling = "const struct phr_header *"};
    ut_param ps9[] = {{"tokens", &pchdr, -1, -1, 0, 0}, {"num_tokens", &u32, -1, -1, 0, 0}};
    ut_func f9 = {.name = "j2", .params = ps9, .nparams = 2};
    unit_pair_buffers(&f9);
    assert_int_equal(ps9[0].len_param, -1);
    assert_false(ps9[0].capacity);
    assert_false(ps4[2].capacity); /* an ordinary pair (in, inlen) */
    /* a leading underscore is no word: `char *buf, size_t *_bufsz` */
    ut_type ch2 = {.kind = UT_INT, .bits = 8, .size = 1, .is_char = 1, .is_plain_char = 1, .spelling = "char"};
    ut_type pch2 = {.kind = UT_PTR, .size = 8, .pointee = &ch2, .spelling = "char *"};
    ut_param ps7[] = {{"buf", &pch2, -1, -1, 0, 0}, {"_bufsz", &psz, -1, -1, 0, 0}};
    ut_func f7 = {.name = "d", .params = ps7, .nparams = 2};
    unit_pair_buffers(&f7);
    assert_int_equal(ps7[0].len_param, 1);
    /* a second length after a pair is bounded by the pair's length (`buf, len, ..., last_len`) */
    ut_param ps6[] = {{"buf", &pu8, -1, -1, 0, 0},
                      {"len", &sz, -1, -1, 0, 0},
                      {"x", &i32, -1, -1, 0, 0},
                      {"last_len", &sz, -1, -1, 0, 0}};
    ut_func f6 = {.name = "r", .params = ps6, .nparams = 4};
    unit_pair_buffers(&f6);
    assert_int_equal(unit_length_within(&f6, 3), 0);
    assert_int_equal(unit_length_within(&f6, 2), -1); /* not named like a length */
    assert_int_equal(unit_length_within(&f6, 1), -1); /* the pair's own length */
    assert_int_equal(unit_length_within(&f, 3), -1);
    assert_true(unit_count_ptr(&psz));
    assert_false(unit_count_ptr(&sz));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_signatures),      cmocka_unit_test(test_clang_errors),
        cmocka_unit_test(test_null_scan),       cmocka_unit_test(test_declarators_and_idents),
        cmocka_unit_test(test_buffer_pairs),    cmocka_unit_test(test_written_streams),
        cmocka_unit_test(test_backward_params), cmocka_unit_test(test_walked_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
