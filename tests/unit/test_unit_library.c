/* test_unit_library.c: libraries as shipped: prototypes rebuilt from types (export macros), header-only units,
 * static targets (the source included), compilation databases, word quoting. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit/unit.h"
#include "util/util.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/sympath_unit_lib_%d", (int)getpid());
    mkdir(dir, 0777);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char *cmd = util_strf("rm -rf '%s'", dir);
    if (cmd && system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", dir);
    free(cmd);
    return 0;
}

/* Write dir/name with text; returns the path (malloc'ed). */
static char *put(const char *name, const char *text)
{
    char *path = util_strf("%s/%s", dir, name);
    char *sub = strrchr(path, '/');
    if (sub && sub > path + strlen(dir)) {
        *sub = 0;
        util_mkdir_p(path);
        *sub = '/';
    }
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static void test_prototype_from_types(void **state)
{
    (void)state;
    ut_type i32 = {.kind = UT_INT, .bits = 32, .size = 4, .is_signed = 1, .spelling = "int", .canonical = "int"};
    ut_type v = {.kind = UT_VOID, .spelling = "void", .canonical = "void"};
    ut_type cch = {
        .kind = UT_INT, .bits = 8, .size = 1, .is_char = 1, .spelling = "const char", .canonical = "const char"};
    ut_type pcch = {
        .kind = UT_PTR, .size = 8, .pointee = &cch, .spelling = "const char *", .canonical = "const char *"};
    ut_type sz = {.kind = UT_INT, .bits = 64, .size = 8, .spelling = "size_t", .canonical = "unsigned long"};
    ut_type fn_ii = {.kind = UT_FUNC, .ret = &i32, .spelling = "int (int)", .canonical = "int (int)"};
    ut_type pfn = {
        .kind = UT_PTR, .size = 8, .pointee = &fn_ii, .spelling = "int (*)(int)", .canonical = "int (*)(int)"};
    ut_type arr = {.kind = UT_ARRAY, .count = 4, .pointee = &i32, .spelling = "int [4]", .canonical = "int [4]"};
    ut_type parr = {.kind = UT_PTR, .size = 8, .pointee = &arr, .spelling = "int (*)[4]", .canonical = "int (*)[4]"};
    ut_type anon = {
        .kind = UT_STRUCT, .spelling = "struct (unnamed at lib.h:3:9)", .canonical = "struct (unnamed at lib.h:3:9)"};
    ut_type panon = {.kind = UT_PTR,
                     .size = 8,
                     .pointee = &anon,
                     .spelling = "pair_t *",
                     .canonical = "struct (unnamed at lib.h:3:9) *"};
    ut_type panon2 = {.kind = UT_PTR,
                      .size = 8,
                      .pointee = &anon,
                      .spelling = "struct (unnamed at lib.h:3:9) *",
                      .canonical = "struct (unnamed at lib.h:3:9) *"};
    char *p;

    /* int f(const char *s, size_t n): the typedef name kept */
    ut_type f1 = {.kind = UT_FUNC, .ret = &i32};
    ut_param p1[] = {{"s", &pcch, -1, -1, 0, 0}, {"n", &sz, -1, -1, 0, 0}};
    ut_func fa = {.name = "f", .type = &f1, .params = p1, .nparams = 2};
    assert_string_equal(p = unit_prototype(&fa), "int f(const char *s, size_t n)");
    free(p);
    /* no parameters: (void); a pointer result hugs the name */
    ut_type f2 = {.kind = UT_FUNC, .ret = &pcch};
    ut_func fb = {.name = "err_ptr", .type = &f2};
    assert_string_equal(p = unit_prototype(&fb), "const char *err_ptr(void)");
    free(p);
    ut_type f2v = {.kind = UT_FUNC, .ret = &v};
    ut_func fbv = {.name = "reset", .type = &f2v};
    assert_string_equal(p = unit_prototype(&fbv), "void reset(void)");
    free(p);
    /* a function returning a function pointer wraps the head in the result's declarator */
    ut_type f3 = {.kind = UT_FUNC, .ret = &pfn};
    ut_param p3[] = {{"k", &i32, -1, -1, 0, 0}};
    ut_func fc = {.name = "pick", .type = &f3, .params = p3, .nparams = 1};
    assert_string_equal(p = unit_prototype(&fc), "int (*pick(int k))(int)");
    free(p);
    /* variadic; function-pointer and pointer-to-array parameters */
    ut_type f4 = {.kind = UT_FUNC, .ret = &i32, .variadic = 1};
    ut_param p4[] = {{"cb", &pfn, -1, -1, 0, 0}, {"m", &parr, -1, -1, 0, 0}};
    ut_func fd = {.name = "logf_", .type = &f4, .params = p4, .nparams = 2};
    assert_string_equal(p = unit_prototype(&fd), "int logf_(int (*cb)(int), int (*m)[4], ...)");
    free(p);
    /* a typedef'd anonymous struct keeps its typedef name; spelled only as "(unnamed ...)" it cannot be written */
    ut_param p5[] = {{"pp", &panon, -1, -1, 0, 0}};
    ut_func fe = {.name = "swap", .type = &f2v, .params = p5, .nparams = 1};
    assert_string_equal(p = unit_prototype(&fe), "void swap(pair_t *pp)");
    free(p);
    ut_param p6[] = {{"pp", &panon2, -1, -1, 0, 0}};
    ut_func ff = {.name = "swap2", .type = &f2v, .params = p6, .nparams = 1};
    assert_null(unit_prototype(&ff));
    /* the canonical spelling stands in when the written one cannot be used */
    ut_type written = {
        .kind = UT_INT, .bits = 32, .size = 4, .spelling = "enum (unnamed at a.h:1:1)", .canonical = "unsigned int"};
    ut_param p7[] = {{"e", &written, -1, -1, 0, 0}};
    ut_func fg = {.name = "set", .type = &f2v, .params = p7, .nparams = 1};
    assert_string_equal(p = unit_prototype(&fg), "void set(unsigned int e)");
    free(p);
    /* declarators for pointers to function pointers and functions returning function pointers */
    assert_string_equal(p = unit_declarator("int (**)(int)", "pp"), "int (**pp)(int)");
    free(p);
    assert_string_equal(p = unit_declarator("void (*(*)(int))(void)", "f"), "void (*(*f)(int))(void)");
    free(p);
    assert_string_equal(p = unit_declarator("char (*)[9]", "*o"), "char (**o)[9]");
    free(p);
}

/* A library whose declarations and definitions go through an export macro with an attribute. */
static void test_export_macro(void **state)
{
    (void)state;
    free(put("macro/lib.h", "#ifndef LIB_H\n#define LIB_H\n#include <stddef.h>\n"
                            "#define LIB_API(type) __attribute__((visibility(\"default\"))) type\n"
                            "typedef struct lib_item { int v; struct lib_item *next; } lib_item;\n"
                            "LIB_API(const char *) lib_error(void);\n"
                            "LIB_API(int) lib_count(const lib_item *it);\n#endif\n"));
    char *c = put("macro/lib.c", "#include \"lib.h\"\n"
                                 "#define LOCAL_API(t) t\n"
                                 "static const char *last = \"none\";\n"
                                 "LIB_API(const char *) lib_error(void) { return last; }\n"
                                 "LIB_API(int) lib_count(const lib_item *it) {\n"
                                 "    int n = 0;\n    for (; it != NULL; it = it->next) n++;\n    return n;\n}\n"
                                 "LIB_API(int (*lib_hook(int k))(int)) { (void)k; return 0; }\n"
                                 "LOCAL_API(long) lib_extra(long a, ...) { return a; }\n");
    unit_info u;
    char *err = NULL;
    const char *srcs[] = {c};
    int rc = unit_parse(srcs, 1, NULL, &u, &err);
    if (rc) fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, 0);
    assert_int_equal(u.ndefs, 4);
    /* the header is included; what it declares is not copied; the macro's text appears nowhere */
    assert_non_null(strstr(u.prelude, "#include \"lib.h\""));
    assert_null(strstr(u.prelude, "lib_error"));
    assert_null(strstr(u.prelude, "lib_count"));
    assert_null(strstr(u.prelude, "LIB_API("));
    assert_null(strstr(u.prelude, "const char *)"));
    /* declared only in the .c: rebuilt from the types, once */
    const char *hook = strstr(u.prelude, "int (*lib_hook(int k))(int);\n");
    assert_non_null(hook);
    assert_null(strstr(hook + strlen("int (*lib_hook"), "lib_hook"));
    assert_non_null(strstr(u.prelude, "long lib_extra(long a, ...);\n"));
    assert_string_equal(unit_find_def(&u, "lib_error")->decl, "const char *lib_error(void)");
    assert_string_equal(unit_find_def(&u, "lib_count")->decl, "int lib_count(const lib_item *it)");
    /* NULL checks are found in bodies that start inside the macro */
    assert_true(unit_null_checked(&u, "it", 0));
    assert_int_equal(u.nsources, 1);
    assert_false(u.included[0]);
    assert_false(unit_source_included(&u, c));
    unit_info_free(&u);
    free(c);
}

/* A header-only library: the header is the unit, its static functions are targets, it is included. */
static void test_header_unit(void **state)
{
    (void)state;
    char *h =
        put("hdr/stack.h", "#pragma once\n#include <stddef.h>\n"
                           "typedef struct stk { int v[4]; size_t n; } stk;\n"
                           "int stk_push(stk *s, int x);\n"
                           "#ifndef STK_DECLS\n"
                           "static inline int stk_room(const stk *s) { return s->n < 4; }\n"
                           "static int stk_top(const stk *s) { return s->n ? s->v[s->n - 1] : -1; }\n"
                           "int stk_push(stk *s, int x) { if (!stk_room(s)) return 0; s->v[s->n++] = x; return 1; }\n"
                           "#endif\n");
    unit_info u;
    char *err = NULL;
    const char *srcs[] = {h};
    assert_true(unit_is_header(h));
    assert_int_equal(unit_parse(srcs, 1, NULL, &u, &err), 0);
    assert_int_equal(u.ndefs, 3);
    assert_true(unit_find_def(&u, "stk_room")->is_static);
    assert_true(unit_find_def(&u, "stk_top")->is_static);
    assert_false(unit_find_def(&u, "stk_push")->is_static);
    assert_int_equal(u.nstatics, 0);
    assert_true(u.included[0]);
    assert_true(unit_source_included(&u, h));
    /* the prelude is the include block: the header itself, unused statics silenced */
    assert_non_null(strstr(u.prelude, "#include \"stack.h\"\n"));
    assert_non_null(strstr(u.prelude, "#pragma GCC diagnostic ignored \"-Wunused-function\""));
    assert_null(strstr(u.prelude, "typedef struct stk"));
    /* no "#pragma once in main file" warning */
    assert_null(strstr(u.diagnostics, "pragma once"));
    unit_info_free(&u);
    /* with the definitions compiled out there is nothing to test */
    assert_int_equal(unit_parse(srcs, 1, "-DSTK_DECLS", &u, &err), 0);
    assert_int_equal(u.ndefs, 0);
    unit_info_free(&u);
    /* a .c including the header: the header's functions are named with their header, not targets */
    char *user = put("hdr/user.c", "#include \"stack.h\"\nint use(stk *s) { return stk_push(s, 1) + stk_top(s); }\n");
    const char *usrc[] = {user};
    assert_int_equal(unit_parse(usrc, 1, NULL, &u, &err), 0);
    assert_null(unit_find_def(&u, "stk_push"));
    assert_string_equal(unit_header_of(&u, "stk_push"), h);
    assert_string_equal(unit_header_of(&u, "stk_top"), h);
    assert_null(unit_header_of(&u, "use"));
    assert_null(unit_header_of(&u, "strlen"));
    unit_info_free(&u);
    free(user);
    free(h);
    assert_false(unit_is_header("a/b.h/x.c"));
    assert_true(unit_is_header("x.hpp"));
    assert_false(unit_is_header("makefile"));
}

/* A static function of a .c as a target: its file is included by the harness and the tests. */
static void test_static_target(void **state)
{
    (void)state;
    char *a = put("st/a.c", "#include <stddef.h>\n"
                            "typedef struct cell { int v; } cell;\n"
                            "int b_get(const cell *c);\n"
                            "static int twice(int x) { return 2 * x; }\n"
                            "int a_api(int x) { return twice(x) + b_get(NULL); }\n");
    char *b = put("st/b.c", "typedef struct cell { int v; } cell;\n"
                            "int b_get(const cell *c) { return c ? c->v : 0; }\n");
    unit_info u;
    char *err = NULL;
    const char *srcs[] = {a, b};
    assert_int_equal(unit_parse(srcs, 2, NULL, &u, &err), 0);
    assert_int_equal(u.ndefs, 2);
    const ut_func *tw = unit_find_def(&u, "twice");
    assert_non_null(tw);
    assert_true(tw->is_static);
    assert_string_equal(tw->decl, "int twice(int x)");
    assert_string_equal(tw->file, a);
    assert_non_null(strstr(u.prelude, "typedef struct cell"));
    /* an external target changes nothing */
    const ut_func *t1[] = {unit_find_def(&u, "a_api")};
    assert_int_equal(unit_include_sources(&u, t1, 1), 0);
    assert_null(strstr(u.prelude, "#include \"a.c\""));
    /* the static one: a.c is included (its own declarations no longer copied), b.c keeps its part */
    const ut_func *t2[] = {tw};
    assert_int_equal(unit_include_sources(&u, t2, 1), 1);
    assert_true(unit_source_included(&u, a));
    assert_false(unit_source_included(&u, b));
    const char *inc = strstr(u.prelude, "#include \"a.c\"\n");
    assert_non_null(inc);
    assert_null(strstr(u.prelude, "int a_api(int x);"));
    assert_non_null(strstr(inc, "int b_get(const cell *c);"));
    unit_info_free(&u);
    free(a);
    free(b);
}

static void test_quote_word(void **state)
{
    (void)state;
    const char *words[] = {"-DX=1", "-I/a b/c", "-DMSG=\"hi there\"", "-Dq='x'", "back\\slash", "", NULL};
    for (int i = 0; words[i]; i++) {
        char *q = unit_quote_word(words[i]);
        assert_non_null(q);
        char **v = NULL;
        size_t n = 0;
        char *err = NULL;
        assert_int_equal(util_split_words(q, &v, &n, &err), 0);
        assert_int_equal(n, 1);
        assert_string_equal(v[0], words[i]);
        util_free_strv(v);
        free(q);
    }
    char *q = unit_quote_word("-DX=1");
    assert_string_equal(q, "-DX=1"); /* plain words stay as they are */
    free(q);
}

/* The flags of a compilation database: relative paths made absolute, the ones that do not
 * matter dropped, a header takes the entry of its directory, a strict -std the GNU dialect. */
static void test_compdb(void **state)
{
    (void)state;
    char *src = put("proj/src/m.c", "int m(void) { return 0; }\n");
    char *hdr = put("proj/src/m.h", "int m(void);\n");
    char *other = put("proj/lib/o.c", "int o(void) { return 0; }\n");
    char *json =
        util_strf("[\n"
                  " {\"directory\": \"%s/proj\", \"file\": \"src/m.c\",\n"
                  "  \"arguments\": [\"cc\", \"-Iinc\", \"-I\", \"/abs/inc\", \"-DA=1\", \"-D\", \"B\", \"-UC\",\n"
                  "    \"-std=c99\", \"-O2\", \"-Wall\", \"-include\", \"cfg.h\", \"-isystem\", \"sys\",\n"
                  "    \"-DMSG=\\\"a b\\\"\", \"-c\", \"src/m.c\", \"-o\", \"m.o\"]},\n"
                  " {\"directory\": \"%s/proj\", \"file\": \"lib/o.c\",\n"
                  "  \"command\": \"gcc -Ilibinc -DO=2 -std=gnu17 -c lib/o.c\"}\n"
                  "]\n",
                  dir, dir);
    char *db = put("proj/build/compile_commands.json", json);
    char *err = NULL;
    const char *s1[] = {src};
    char *f = unit_compdb_flags(db, s1, 1, &err);
    assert_non_null(f);
    char *want =
        util_strf("-I%s/proj/inc -I/abs/inc -DA=1 -DB -UC -std=gnu99 -include %s/proj/cfg.h -isystem %s/proj/sys "
                  "\"-DMSG=\\\"a b\\\"\"",
                  dir, dir, dir);
    assert_string_equal(f, want);
    free(want);
    free(f);
    /* the directory works as well; a header takes its directory's entry; the union has no repeats */
    char *dbdir = util_strf("%s/proj/build", dir);
    const char *s2[] = {hdr, other, src};
    f = unit_compdb_flags(dbdir, s2, 3, &err);
    assert_non_null(f);
    assert_non_null(strstr(f, "-DA=1"));
    assert_non_null(strstr(f, "-DO=2 -std=gnu17"));
    assert_null(strstr(strstr(f, "-DA=1") + 1, "-DA=1"));
    free(f);
    /* a file of any name */
    char *renamed = util_strf("%s/proj/db.json", dir);
    assert_int_equal(rename(db, renamed), 0);
    const char *s3[] = {other};
    f = unit_compdb_flags(renamed, s3, 1, &err);
    assert_non_null(f);
    assert_non_null(strstr(f, "/proj/libinc -DO=2 -std=gnu17"));
    free(f);
    /* no database */
    f = unit_compdb_flags(dbdir, s3, 1, &err);
    assert_null(f);
    assert_non_null(err);
    free(err);
    free(renamed);
    free(dbdir);
    free(db);
    free(json);
    free(src);
    free(hdr);
    free(other);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prototype_from_types), cmocka_unit_test(test_export_macro),
        cmocka_unit_test(test_header_unit),          cmocka_unit_test(test_static_target),
        cmocka_unit_test(test_quote_word),           cmocka_unit_test(test_compdb),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
