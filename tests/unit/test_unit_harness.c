/* test_unit_harness.c: the generated harness: builders per type, NULL only where checked, buffer pairs,
 * enum choices, stand-ins for mocks and function pointers, drivers, record-mode walkers; and that it compiles. */
#define _GNU_SOURCE
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
                              "enum mode { M_OFF, M_ON = 4 };\n"
                              "struct node { int v; struct node *next; struct node *peer; };\n"
                              "int sensor(int ch);\n"
                              "int f(struct node *n, const uint8_t *buf, size_t len, enum mode m, int (*cb)(int)) {\n"
                              "    int s = 0;\n"
                              "    for (struct node *p = n; p != NULL; p = p->next) s += p->v + p->peer->v;\n"
                              "    if (cb) s += cb(1);\n"
                              "    return s + sensor(m) + (len ? buf[0] : 0);\n"
                              "}\n"
                              "int fill(struct node *items, size_t *num_items) {\n"
                              "    size_t k = 0;\n"
                              "    for (; k < *num_items && k < 2; k++) items[k].v = 1;\n"
                              "    *num_items = k;\n"
                              "    return (int)k;\n"
                              "}\n"
                              "int dec(unsigned char *out) { out[0] = 1; return out[3]; }\n"
                              "int enc(int v, char *out) { out[0] = (char)v; out[1] = 0; return 1; }\n"
                              "union num { long i; double d; char s[8]; };\n"
                              "struct val { int k; union num u; union { int n; const char *p; char b[16]; } r; };\n"
                              "int uf(struct val *v, union num x) { return v && v->u.i == x.i && v->r.b[9]; }\n";

static unit_info u;
static char path[64];
static char *harness;

static int setup(void **state)
{
    (void)state;
    snprintf(path, sizeof path, "/tmp/sympath_unit_harness_%d.c", (int)getpid());
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fputs(SRC_TEXT, f);
    fclose(f);
    char *err = NULL;
    const char *p = path;
    if (unit_parse(&p, 1, NULL, &u, &err) != 0) return -1;
    const ut_func *t[] = {unit_find_def(&u, "f"), unit_find_def(&u, "fill"), unit_find_def(&u, "dec"),
                          unit_find_def(&u, "enc"), unit_find_def(&u, "uf")};
    unit_harness_opts o = {3, 16, 32, 0, 0, 0, 0, SYMPATH_LIB_DIR "/sympath_unit_rt.h", NULL, 0, 0, NULL, 0};
    char *warnings = NULL;
    harness = unit_harness(&u, t, 5, &o, &warnings, &err);
    free(warnings);
    return harness ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    free(harness);
    unit_info_free(&u);
    unlink(path);
    return 0;
}

/* The text of the generated function whose header contains `head`, up to its closing brace. */
static char *function_text(const char *head)
{
    const char *a = strstr(harness, head);
    if (!a) return NULL;
    const char *b = strstr(a, "\n}\n");
    return b ? strndup(a, (size_t)(b - a) + 3) : NULL;
}

static void test_structure(void **state)
{
    (void)state;
    assert_non_null(strstr(harness, "#include \"" SYMPATH_LIB_DIR "/sympath_unit_rt.h\""));
    assert_non_null(strstr(harness, "struct node { int v;")); /* the prelude */
    assert_non_null(strstr(harness, "static void sympu_drive_f(void) {"));
    assert_non_null(strstr(harness, "if (!strcmp(f, \"f\")) {"));
    /* the mock: a stand-in recording its fresh return value under its own name */
    char *mock = function_text("int sensor(int a0) {");
    assert_non_null(mock);
    assert_non_null(strstr(mock, "sympu_rec(\"mock sensor i %lld\\n\", (long long)r);"));
    free(mock);
    /* the function pointer: a stub named after the parameter */
    assert_non_null(strstr(harness, "static int stub_cb(int a0) {"));
}

static void test_pointer_choices(void **state)
{
    (void)state;
    /* the syntactic scan still finds the checked names (n: p = n with p != NULL; next: p =
     * p->next; peer is dereferenced unchecked), but it no longer decides NULL */
    assert_true(unit_null_checked(&u, "n", 0));
    assert_true(unit_null_checked(&u, "next", 0));
    assert_false(unit_null_checked(&u, "peer", 0));
    char *drv = function_text("static void sympu_drive_f(void) {");
    assert_non_null(drv);
    assert_non_null(strstr(drv, "sympu_null_ok = 0;")); /* n: NULL is lazy, not an eager choice */
    assert_null(strstr(drv, "sympu_null_ok = 1;"));
    free(drv);
    /* every field is built the same way, checked or not: the run decides (lazy NULL) */
    const char *fill = strstr(harness, "snprintf(nm, sizeof nm, \"%s.peer\", name);");
    assert_non_null(fill);
    assert_non_null(strstr(fill, "sympu_null_ok = 0;"));
    const char *nx = strstr(harness, "snprintf(nm, sizeof nm, \"%s.next\", name);");
    assert_non_null(nx);
    assert_non_null(strstr(nx, "sympu_null_ok = 0;"));
    /* LCT's choice: fresh or an alias of an earlier object of the same type (NULL eagerly only
     * at the depth bound), then NULL lazily, by the input NAME.null, without a branch */
    assert_non_null(strstr(harness, "unsigned c = sympu_choice(name, fresh + nnull + nal);"));
    assert_non_null(strstr(harness, "*o = sympu_nth("));
    assert_non_null(strstr(harness, "if (!null_ok && *o) *o = (__typeof__(*o))sympu_lazy_null((uintptr_t)*o, name);"));
}

static void test_buffer_enum(void **state)
{
    (void)state;
    char *drv = function_text("static void sympu_drive_f(void) {");
    assert_non_null(drv);
    /* (buf, len): one length input, 0 for --buf-len (the longest buffer first) and K + 1 for K,
     * then len elements */
    assert_non_null(strstr(drv, "size_t sympu_n1 = sym_size_t(\"len\");"));
    assert_non_null(strstr(drv, "sym_assume(sympu_n1 <= 33);"));
    assert_non_null(strstr(drv, "sympu_n1 = sympu_n1 ? sympu_n1 - 1 : 32;"));
    assert_non_null(strstr(drv, "size_t sympu_a2 = (size_t)sympu_n1;"));
    free(drv);
    /* (items, num_items): the count through a pointer, an object holding the element count, a
     * capacity (8, 2, 1 or 0, a choice) of zeroed items */
    drv = function_text("static void sympu_drive_fill(void) {");
    assert_non_null(drv);
    assert_non_null(strstr(drv, "size_t sympu_n0 = sympu_n0_caps[sympu_choice(\"num_items.cap\", 4)];"));
    assert_non_null(strstr(drv, "calloc(sympu_n0 ? sympu_n0 : 1, sizeof sympu_b0[0]);"));
    assert_non_null(strstr(drv, "*sympu_l1 = (size_t)sympu_n0;"));
    assert_non_null(strstr(drv, "size_t *sympu_a1 = sympu_l1;"));
    free(drv);
    /* bytes without a length (`unsigned char *out`): --str-len + 1 of them, as a string gets, and
     * writable: room for 4 (--str-len + 1), an output the caller sizes for the result (sha256's hash) */
    assert_non_null(strstr(harness, "unsigned char *s = calloc(room, 1);"));
    assert_non_null(strstr(harness, "sym_bytes(s, 17, name);"));
    /* a writable char * parameter (an output buffer the caller sizes): room for 4 (--str-len + 1) */
    assert_non_null(strstr(harness, "size_t room = depth == 0 ? 68 : 17;"));
    /* the enum: a choice among its declared values */
    assert_non_null(strstr(harness, "switch (sympu_choice(name, 2)) {"));
    assert_non_null(strstr(harness, "case 1: *o = (enum mode)(4); break;"));
}

static void test_compiles(void **state)
{
    (void)state;
    char hpath[80], cmd[1024];
    snprintf(hpath, sizeof hpath, "/tmp/sympath_unit_harness_%d_h.c", (int)getpid());
    FILE *f = fopen(hpath, "w");
    assert_non_null(f);
    fputs(harness, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s -fsyntax-only -Werror=implicit-function-declaration -I%s %s 2>&1", SYMPATH_CLANG,
             SYMPATH_INCLUDE_DIR, hpath);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s -fsyntax-only -DSYMPATH_UNIT_RECORD -I%s %s 2>&1", SYMPATH_CLANG, SYMPATH_INCLUDE_DIR,
             hpath);
    assert_int_equal(system(cmd), 0);
    unlink(hpath);
}

/* Unions are inputs: a union parameter's and a union field's bytes are symbolic (an anonymous
 * union's inline), past the bytes a pointer member may occupy; recorded as bytes, a union that
 * may hold a pointer only before the call. */
static void test_unions(void **state)
{
    (void)state;
    assert_non_null(strstr(harness, "    memset(&*o, 0, sizeof *o);\n    sym_bytes(&*o, sizeof *o, name);\n"));
    assert_non_null(strstr(harness, "sym_bytes(&o->u, sizeof o->u, nm);"));
    assert_non_null(
        strstr(harness, "sym_bytes((unsigned char *)&o->r + 8, sizeof o->r - 8, nm); /* past its pointers */"));
    assert_non_null(strstr(harness, "sympu_px(phase, id, l, &o->u, sizeof o->u);"));
    assert_non_null(strstr(harness, "if (!strcmp(phase, \"pre\")) sympu_px(phase, id, l, &o->r, sizeof o->r);"));
}

/* unit_union_ptr_extent: the largest member holding a pointer (directly, in an array, in a struct). */
static void test_union_ptr_extent(void **state)
{
    (void)state;
    ut_type ch = {.kind = UT_INT, .size = 1, .bits = 8, .is_char = 1};
    ut_type lng = {.kind = UT_INT, .size = 8, .bits = 64, .is_signed = 1};
    ut_type ptr = {.kind = UT_PTR, .size = 8, .pointee = &ch};
    ut_type arr16 = {.kind = UT_ARRAY, .size = 16, .count = 16, .pointee = &ch};
    ut_type parr = {.kind = UT_ARRAY, .size = 16, .count = 2, .pointee = &ptr};
    ut_field sf[] = {{"n", &lng, 0, NULL}, {"p", &ptr, 0, NULL}};
    ut_type st = {.kind = UT_STRUCT, .size = 16, .complete = 1, .fields = sf, .nfields = 2};
    ut_field f1[] = {{"i", &lng, 0, NULL}, {"s", &arr16, 0, NULL}};
    ut_type u1 = {.kind = UT_UNION, .size = 16, .complete = 1, .fields = f1, .nfields = 2};
    assert_int_equal(unit_union_ptr_extent(&u1), 0); /* no pointer */
    ut_field f2[] = {{"p", &ptr, 0, NULL}, {"s", &arr16, 0, NULL}};
    ut_type u2 = {.kind = UT_UNION, .size = 16, .complete = 1, .fields = f2, .nfields = 2};
    assert_int_equal(unit_union_ptr_extent(&u2), 8);
    ut_field f3[] = {{"s", &arr16, 0, NULL}, {"pp", &parr, 0, NULL}};
    ut_type u3 = {.kind = UT_UNION, .size = 16, .complete = 1, .fields = f3, .nfields = 2};
    assert_int_equal(unit_union_ptr_extent(&u3), 16); /* an array of pointers covers it all */
    ut_field f4[] = {{"st", &st, 0, NULL}, {"i", &lng, 0, NULL}};
    ut_type u4 = {.kind = UT_UNION, .size = 16, .complete = 1, .fields = f4, .nfields = 2};
    assert_int_equal(unit_union_ptr_extent(&u4), 16); /* a struct with a pointer */
    u4.complete = 0;
    assert_int_equal(unit_union_ptr_extent(&u4), 0); /* incomplete: not built */
    assert_int_equal(unit_union_ptr_extent(&st), 0); /* not a union */
    assert_int_equal(unit_union_ptr_extent(NULL), 0);
    /* unit_union_uniform: every member as long as the union */
    ut_type dbl = {.kind = UT_FLOAT, .size = 8};
    ut_field f5[] = {{"i", &lng, 0, NULL}, {"d", &dbl, 0, NULL}};
    ut_type u5 = {.kind = UT_UNION, .size = 8, .complete = 1, .fields = f5, .nfields = 2};
    assert_true(unit_union_uniform(&u5));
    assert_false(unit_union_uniform(&u1)); /* long and char[16] in 16 bytes: the long is shorter */
    u5.fields[1].bitfield = 1;
    assert_false(unit_union_uniform(&u5)); /* a bit-field */
    assert_false(unit_union_uniform(&st));
    assert_false(unit_union_uniform(NULL));
}

/* unit_callback_alloc_sizes / unit_callback_freed_arg: which callbacks get a real block of the size
 * asked for, and which free it (json-parser's mem_alloc/mem_free); an accessor returning a node is
 * no allocator, a void callback not named like free frees nothing. */
static void test_alloc_callbacks(void **state)
{
    (void)state;
    ut_type vd = {.kind = UT_VOID};
    ut_type ch = {.kind = UT_INT, .size = 1, .bits = 8, .is_char = 1, .is_signed = 1, .is_plain_char = 1};
    ut_type in = {.kind = UT_INT, .size = 4, .bits = 32, .is_signed = 1};
    ut_type sz = {.kind = UT_INT, .size = 8, .bits = 8 * sizeof(void *)};
    ut_type vp = {.kind = UT_PTR, .size = 8, .pointee = &vd};
    ut_type cp = {.kind = UT_PTR, .size = 8, .pointee = &ch};
    ut_field nf[] = {{"v", &in, 0, NULL}};
    ut_type node = {.kind = UT_STRUCT, .size = 4, .complete = 1, .fields = nf, .nfields = 1, .spelling = "struct n"};
    ut_type np = {.kind = UT_PTR, .size = 8, .pointee = &node};
    ut_type *a1[] = {&sz, &in, &vp};
    ut_type alloc = {.kind = UT_FUNC, .ret = &vp, .args = a1, .nargs = 3};
    size_t idx[2] = {9, 9};
    assert_int_equal(unit_callback_alloc_sizes(&alloc, idx), 1);
    assert_int_equal(idx[0], 0);
    ut_type *a2[] = {&vp, &sz, &sz};
    ut_type pair = {.kind = UT_FUNC, .ret = &cp, .args = a2, .nargs = 3}; /* calloc-like, char * */
    assert_int_equal(unit_callback_alloc_sizes(&pair, idx), 2);
    assert_int_equal(idx[0], 1);
    assert_int_equal(idx[1], 2);
    ut_type get = {.kind = UT_FUNC, .ret = &np, .args = a1, .nargs = 1}; /* node *(*)(size_t): an accessor */
    assert_int_equal(unit_callback_alloc_sizes(&get, idx), 0);
    ut_type *a3[] = {&in};
    ut_type noint = {.kind = UT_FUNC, .ret = &vp, .args = a3, .nargs = 1}; /* no size_t */
    assert_int_equal(unit_callback_alloc_sizes(&noint, idx), 0);
    ut_type *a4[] = {&vp, &vp};
    ut_type fr = {.kind = UT_FUNC, .ret = &vd, .args = a4, .nargs = 2};
    assert_int_equal(unit_callback_freed_arg("stub_mem_free", &fr), 0);
    assert_int_equal(unit_callback_freed_arg("stub_dealloc", &fr), 0);
    assert_int_equal(unit_callback_freed_arg("stub_visit", &fr), -1); /* not named like free */
    ut_type *a5[] = {&in, &vp};
    ut_type fr2 = {.kind = UT_FUNC, .ret = &vd, .args = a5, .nargs = 2};
    assert_int_equal(unit_callback_freed_arg("stub_free", &fr2), -1); /* its first argument is no void * */
    assert_int_equal(unit_callback_freed_arg(NULL, &fr), -1);
    /* a realloc-like allocator moves the block its void * names; a plain allocator has none */
    ut_type *a6[] = {&vp, &sz, &vp};
    ut_type re = {.kind = UT_FUNC, .ret = &vp, .args = a6, .nargs = 3};
    assert_int_equal(unit_callback_realloc_arg("stub_mem_realloc", &re), 0);
    assert_int_equal(unit_callback_realloc_arg("stub_mem_alloc", &re), -1);
    assert_int_equal(unit_callback_realloc_arg("stub_realloc", &alloc), -1); /* only user_data, after the size */
    assert_int_equal(unit_callback_realloc_arg("stub_realloc", &get), -1);
}

/* The recorder's extent of a pointer to the start of a static array (its symbol's size, from its own
 * symbol table): the walk of a returned pointer to it goes on to its next elements; a pointer inside
 * the array, or to no object, has none. */
static void test_static_extent(void **state)
{
    (void)state;
    char cpath[80], epath[80], cmd[1024];
    snprintf(cpath, sizeof cpath, "/tmp/sympath_unit_extent_%d.c", (int)getpid());
    snprintf(epath, sizeof epath, "/tmp/sympath_unit_extent_%d", (int)getpid());
    FILE *f = fopen(cpath, "w");
    assert_non_null(f);
    fputs("#include \"sympath_unit_rt.h\"\n"
          "static const char *sympu_stub_name(const void *p) { (void)p; return 0; }\n"
          "struct item { unsigned char kind; int v; };\n"
          "static struct item table[5] = {{1, 2}, {3, 4}, {0, 0}};\n"
          "int main(void) {\n"
          "    int local = 0;\n"
          "    return !(sympu_static_extent(table) == sizeof table && sympu_static_extent(&table[1]) == 0 &&\n"
          "             sympu_static_extent(&local) == 0);\n"
          "}\n",
          f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s -O1 -DSYMPATH_UNIT_RECORD -I%s -I%s %s %s/libsympath-replay.a -o %s 2>&1",
             SYMPATH_CLANG, SYMPATH_INCLUDE_DIR, SYMPATH_LIB_DIR, cpath, SYMPATH_LIB_DIR, epath);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(system(epath), 0);
    unlink(cpath);
    unlink(epath);
}

/* The record-mode walkers: a function returning a token list (an enum whose values two enumerators
 * share, a char array, a string, a list next) gets a walker per struct, the walk of its result and the
 * retheap check after the call; the harness compiles in both modes. */
static void test_walkers(void **state)
{
    (void)state;
    static const char *src = "enum kind { K_A = 1, K_B = 1, K_C };\n"
                             "struct tok { enum kind k; char name[4]; char *text; double w; struct tok *next; };\n"
                             "struct tok *mk(const char *s) { (void)s; return 0; }\n"
                             "enum vkind { V_NUM = 1, V_OBJ, V_STR, V_NULL, V_DOUBLE };\n"
                             "typedef int vtype;\n"
                             "struct obj { char **names; struct val **values; unsigned long count;\n"
                             "             unsigned long capacity; };\n"
                             "struct val { vtype type; union { double num; struct obj *obj;\n"
                             "             struct { char *ptr; unsigned len; } str; int null; double dbl; } u; };\n"
                             "struct val *mkv(void) { return 0; }\n";
    char wpath[80];
    snprintf(wpath, sizeof wpath, "/tmp/sympath_unit_walk_%d.c", (int)getpid());
    FILE *f = fopen(wpath, "w");
    assert_non_null(f);
    fputs(src, f);
    fclose(f);
    unit_info w;
    char *err = NULL;
    const char *p = wpath;
    assert_int_equal(unit_parse(&p, 1, NULL, &w, &err), 0);
    const ut_func *t[] = {unit_find_def(&w, "mk"), unit_find_def(&w, "mkv")};
    assert_non_null(t[0]);
    assert_non_null(t[1]);
    unit_harness_opts o = {3, 16, 32, 0, 0, 0, 0, SYMPATH_LIB_DIR "/sympath_unit_rt.h", NULL, 0, 0, NULL, 0};
    char *warnings = NULL;
    char *h = unit_harness(&w, t, 2, &o, &warnings, &err);
    free(warnings);
    assert_non_null(h);
    if (getenv("SHOW")) fputs(h, stderr);
    /* a value two enumerators share is a number; K_C has a name of its own */
    assert_non_null(strstr(h, "return \"K_C\";"));
    assert_null(strstr(h, "return \"K_A\";"));
    /* the walker of struct tok: each field by kind, next as a step of the list */
    const char *wk =
        strstr(h, "(const void *vo, const char *prefix, int hops, int steps) {\n    const struct tok *o = vo;");
    assert_non_null(wk);
    assert_non_null(strstr(wk, "snprintf(tf0, sizeof tf0, \"%sname\", prefix);"));
    assert_non_null(strstr(wk, "sympu_wline(tf0, \"e\", \"%s\", sympu_enum_"));
    assert_non_null(strstr(wk, "sympu_walk_chars((const char *)(o->name), 4, tf0)"));
    assert_non_null(strstr(wk, "sympu_walk_str((const char *)(o->text), tf0);"));
    assert_non_null(strstr(wk, "sympu_wline(tf0, \"d\", \"%a\", (double)(o->w));"));
    assert_non_null(strstr(wk, "if (sympu_walk_ptr((const void *)(o->next), tf0, steps < SYMPU_WALK_STEPS)) {"));
    /* a tagged union (an int tag, the enum naming the members): the member the tag selects, an
     * anonymous struct's fields in place, none for the valueless `null`; a counted array by its count,
     * not its capacity */
    const char *vw =
        strstr(h, "(const void *vo, const char *prefix, int hops, int steps) {\n    const struct val *o = vo;");
    assert_non_null(vw);
    assert_non_null(strstr(vw, "if ((long long)o->type == 1LL) {"));
    assert_non_null(strstr(vw, "sympu_wline(tu0, \"d\", \"%a\", (double)(o->u.num));"));
    assert_non_null(strstr(vw, "snprintf(ta0, sizeof ta0, \"%su.str.\", prefix);"));
    assert_non_null(strstr(vw, "sympu_walk_str((const char *)(o->u.str.ptr), tf1);"));
    assert_null(strstr(vw, "u.null"));
    assert_non_null(strstr(vw, "if ((long long)o->type == 5LL) {")); /* V_DOUBLE: dbl abbreviates it */
    assert_non_null(strstr(vw, "(double)(o->u.dbl)"));
    const char *ow =
        strstr(h, "(const void *vo, const char *prefix, int hops, int steps) {\n    const struct obj *o = vo;");
    assert_non_null(ow);
    assert_non_null(strstr(ow, "for (size_t ke0 = 0; ke0 < (size_t)o->count && ke0 < 16; ke0++) {"));
    assert_non_null(strstr(ow, "sympu_walk_str((const char *)(o->names[ke0]), te0);"));
    assert_null(strstr(ow, "o->capacity && ke0"));
    /* the driver: the result walked from root 0 when it is fresh memory, a heap block noted */
    const char *drv = strstr(h, "static void sympu_drive_mk(void) {");
    assert_non_null(drv);
    assert_non_null(strstr(drv, "if (sympu_heapat_new((const void *)sympu_ret)) sympu_rec(\"retheap\\n\");"));
    assert_non_null(strstr(drv, "sympu_walk_root(0, \"\", (const void *)(sympu_ret), sympu_walk_"));
    /* and it compiles, natively in record mode too */
    char hpath[80], cmd[1024];
    snprintf(hpath, sizeof hpath, "/tmp/sympath_unit_walk_%d_h.c", (int)getpid());
    f = fopen(hpath, "w");
    assert_non_null(f);
    fputs(h, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s -fsyntax-only -Wall -Wno-unused-function -Werror -DSYMPATH_UNIT_RECORD -I%s %s 2>&1",
             SYMPATH_CLANG, SYMPATH_INCLUDE_DIR, hpath);
    assert_int_equal(system(cmd), 0);
    unlink(hpath);
    unlink(wpath);
    free(h);
    unit_info_free(&w);
}

/* Returned arrays: a counted `str *` (a string type with a length accessor) walked up to the count
 * its out-parameter gives, with the accessor; a NULL-terminated `struct tok **` by the struct's
 * walker; the harness compiles in record mode. */
static void test_array_walks(void **state)
{
    (void)state;
    static const char *src = "#include <stddef.h>\n"
                             "typedef char *str;\n"
                             "size_t str_len(const str s) { return s ? 1 : 0; }\n"
                             "struct tok { int k; };\n"
                             "str *words(const char *line, int *argc) { (void)line; *argc = 0; return 0; }\n"
                             "struct tok **toks(const char *s) { (void)s; return 0; }\n";
    char wpath[80];
    snprintf(wpath, sizeof wpath, "/tmp/sympath_unit_arr_%d.c", (int)getpid());
    FILE *f = fopen(wpath, "w");
    assert_non_null(f);
    fputs(src, f);
    fclose(f);
    unit_info w;
    char *err = NULL;
    const char *p = wpath;
    assert_int_equal(unit_parse(&p, 1, NULL, &w, &err), 0);
    const ut_func *t[] = {unit_find_def(&w, "words"), unit_find_def(&w, "toks")};
    assert_non_null(t[0]);
    assert_non_null(t[1]);
    unit_harness_opts o = {3, 16, 32, 0, 0, 0, 0, SYMPATH_LIB_DIR "/sympath_unit_rt.h", NULL, 0, 0, NULL, 0};
    char *warnings = NULL;
    char *h = unit_harness(&w, t, 2, &o, &warnings, &err);
    free(warnings);
    assert_non_null(h);
    if (getenv("SHOW")) fputs(h, stderr);
    assert_non_null(strstr(h, "return (size_t)str_len((str)(uintptr_t)p); }"));
    const char *d1 = strstr(h, "static void sympu_drive_words(void) {"),
               *d2 = strstr(h, "static void sympu_drive_toks(void) {");
    assert_non_null(d1);
    assert_non_null(d2);
    const char *w1 =
        strstr(d1, "sympu_walk_ptrs((const void *)(sympu_ret), (sympu_a1 ? (long long)*sympu_a1 : -1LL), NULL, 1, "
                   "sympu_len_");
    assert_non_null(w1);
    const char *w2 = strstr(d2, "sympu_walk_ptrs((const void *)(sympu_ret), -1, sympu_walk_");
    assert_non_null(w2);
    assert_non_null(strstr(w2, ", 0, NULL, NULL);"));
    char hpath[80], cmd[1024];
    snprintf(hpath, sizeof hpath, "/tmp/sympath_unit_arr_%d_h.c", (int)getpid());
    f = fopen(hpath, "w");
    assert_non_null(f);
    fputs(h, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s -fsyntax-only -Wall -Wno-unused-function -Werror -DSYMPATH_UNIT_RECORD -I%s %s 2>&1",
             SYMPATH_CLANG, SYMPATH_INCLUDE_DIR, hpath);
    assert_int_equal(system(cmd), 0);
    unlink(hpath);
    unlink(wpath);
    free(h);
    unit_info_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_structure),   cmocka_unit_test(test_pointer_choices),
        cmocka_unit_test(test_buffer_enum), cmocka_unit_test(test_compiles),
        cmocka_unit_test(test_walkers),     cmocka_unit_test(test_static_extent),
        cmocka_unit_test(test_unions),      cmocka_unit_test(test_union_ptr_extent),
        cmocka_unit_test(test_array_walks), cmocka_unit_test(test_alloc_callbacks),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
