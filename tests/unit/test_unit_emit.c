/* test_unit_emit.c: record parsing and the CMocka test emitter (locals, aliases, will_return, assertions, failures). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit/emit_int.h"
#include "unit/unit.h"

static const char *SRC_TEXT = "#include <stddef.h>\n"
                              "struct node { int v; struct node *next; };\n"
                              "enum mode { OFF, ON = 4 };\n"
                              "int sensor(void);\n"
                              "int walk(struct node *a, struct node *b, enum mode m, const char *tag) {\n"
                              "    if (a == b) return 0;\n"
                              "    if (a) a->v = sensor() + (m == ON) + (tag != NULL);\n"
                              "    return 1;\n"
                              "}\n"
                              "struct tok { enum mode k; char name[6]; char *text; struct tok *next; };\n"
                              "struct tok *mk(const char *s) { (void)s; return NULL; }\n"
                              "struct val { int k; union { long i; char s[8]; } u; };\n"
                              "int vf(struct val *v) { v->u.i = 1; return v->k; }\n"
                              "char **wsplit(const char *s, int *n) { (void)s; *n = 0; return NULL; }\n"
                              "void wsplit_free(char **v, int n) { (void)v; (void)n; }\n"
                              "char *gname;\n"
                              "int tfill(struct tok *t) { (void)t; return 0; }\n"
                              "int dec(char *out) { out[0] = 0; out[1] = 7; return 2; }\n"
                              "int enc(long c, char buf[4]) { buf[0] = (char)c; return 1; }\n"
                              "int wide(int k, unsigned __int128 x) { return k + (int)(x >> 64); }\n";

static unit_info u;
static char path[64];

static int setup(void **state)
{
    (void)state;
    snprintf(path, sizeof path, "/tmp/sympath_unit_emit_%d.c", (int)getpid());
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fputs(SRC_TEXT, f);
    fclose(f);
    char *err = NULL;
    const char *p = path;
    return unit_parse(&p, 1, NULL, &u, &err);
}

static int teardown(void **state)
{
    (void)state;
    unit_info_free(&u);
    unlink(path);
    return 0;
}

/* A run in which b aliases the node a points to, whose next points to a second node;
 * the call changed a->v and read two mock values. */
static const char *RECORD = "obj 1 p 1 a struct node *\n"
                            "obj 2 - 1 a struct node\n"
                            "obj 3 - 1 a.next struct node\n"
                            "obj 4 p 1 b struct node *\n"
                            "obj 5 p 1 m enum mode\n"
                            "obj 6 p 1 tag const char *\n"
                            "obj 7 as 4 tag char\n"
                            "pre 1 - p 2\n"
                            "pre 2 .v i 5\n"
                            "pre 2 .next p 3\n"
                            "pre 3 .v i -1\n"
                            "pre 3 .next p 0\n"
                            "pre 4 - p 3\n"
                            "pre 5 - e ON\n"
                            "pre 6 - p 7\n"
                            "pre 7 [0] i 104\n"
                            "pre 7 [1] i 105\n"
                            "pre 7 [2] i 0\n"
                            "pre 7 [3] i 0\n"
                            "call\n"
                            "mock sensor i 40\n"
                            "mock sensor i -2\n"
                            "ret i 1\n"
                            "post 2 .v i 42\n"
                            "post 2 .next p 3\n"
                            "post 3 .v i -1\n"
                            "done\n";

static void test_record_parse(void **state)
{
    (void)state;
    unit_record r;
    char *err = NULL;
    assert_int_equal(unit_record_parse(RECORD, &r, &err), 0);
    assert_int_equal(r.nobjs, 7);
    assert_true(r.objs[0].param);
    assert_true(r.objs[6].array && r.objs[6].string);
    assert_int_equal(r.objs[6].count, 4);
    assert_string_equal(r.objs[2].ctype, "struct node");
    assert_int_equal(r.nmocks, 2);
    assert_string_equal(r.mocks[1].value.text, "-2");
    assert_true(r.called && r.done);
    assert_int_equal(r.ret.kind, 'i');
    int found = 0;
    for (size_t i = 0; i < r.nentries; i++)
        if (r.entries[i].obj == 2 && !strcmp(r.entries[i].suffix, ".v")) {
            assert_string_equal(r.entries[i].pre.text, "5");
            assert_string_equal(r.entries[i].post.text, "42");
            found = 1;
        }
    assert_true(found);
    unit_record_free(&r);
    /* a producer's calls of a mock and a stand-in belong to its construction (queued before it):
     * make 1 for the two before the make line, 0 for the one after `call` */
    assert_int_equal(unit_record_parse("obj 1 p 1 d struct node *\nmock sensor i 3\narg cb 0 i 1\n"
                                       "make 1 r mk\nobj 2 p 1 m enum mode\ncall\nmock sensor i 4\ndone\n",
                                       &r, &err),
                     0);
    assert_int_equal(r.nmocks, 2);
    assert_int_equal(r.mocks[0].make, 1);
    assert_int_equal(r.mocks[1].make, 0);
    assert_int_equal(r.nargs, 1);
    assert_int_equal(r.args[0].make, 1);
    unit_record_free(&r);
    assert_int_equal(unit_record_parse("obj 1 p\n", &r, &err), -1);
    assert_non_null(strstr(err, "line 1"));
    free(err);
    assert_int_equal(unit_record_parse("pre 1 - z 3\n", &r, &err), -1);
    free(err);
}

static unit_test make_test(const char *record, unit_outcome oc, int signo)
{
    unit_test t;
    memset(&t, 0, sizeof t);
    t.name = "test_walk_1";
    t.fn = unit_find_def(&u, "walk");
    char *err = NULL;
    assert_int_equal(unit_record_parse(record, &t.rec, &err), 0);
    t.outcome = oc;
    t.signo = signo;
    return t;
}

static void test_body_normal(void **state)
{
    (void)state;
    unit_test t = make_test(RECORD, UO_NORMAL, 0);
    char *b = unit_emit_test_body(&u, &t);
    assert_non_null(b);
    if (getenv("SHOW")) fputs(b, stderr);
    /* objects named after their input path, children declared before their parents */
    assert_non_null(strstr(b, "struct node a_next = { .v = -1, .next = NULL };"));
    const char *obj = strstr(b, "struct node a_obj = { .v = 5, .next = &a_next };");
    assert_non_null(obj);
    assert_true(strstr(b, "a_next =") < obj);
    assert_non_null(strstr(b, "struct node *a = &a_obj;"));
    assert_non_null(strstr(b, "struct node *b = &a_next;")); /* the alias */
    assert_non_null(strstr(b, "enum mode m = ON;"));
    assert_non_null(strstr(b, "char tag_obj[4] = \"hi\";"));
    assert_non_null(strstr(b, "const char *tag = tag_obj;"));
    /* mocks in call order, then the call and the assertions */
    const char *w1 = strstr(b, "will_return(sensor, 40);");
    const char *w2 = strstr(b, "will_return(sensor, -2);");
    const char *call = strstr(b, "int ret = walk(a, b, m, tag);");
    assert_non_null(w1);
    assert_non_null(w2);
    assert_non_null(call);
    assert_true(w1 < w2 && w2 < call);
    assert_non_null(strstr(b, "assert_int_equal(ret, 1);"));
    assert_non_null(strstr(b, "assert_int_equal(a_obj.v, 42);"));
    assert_null(strstr(b, "assert_int_equal(a_next.v")); /* unchanged: no assertion */
    free(b);
    unit_record_free(&t.rec);
}

static void test_body_cycle_and_failure(void **state)
{
    (void)state;
    /* a node whose next points to itself needs an assignment after its declaration;
     * the call dies by SIGSEGV: a forked child with the mocks queued inside it */
    const char *rec = "obj 1 p 1 a struct node *\n"
                      "obj 2 - 1 a struct node\n"
                      "obj 3 p 1 b struct node *\n"
                      "obj 4 p 1 m enum mode\n"
                      "obj 5 p 1 tag const char *\n"
                      "pre 1 - p 2\npre 2 .v i 1\npre 2 .next p 2\npre 3 - p 0\npre 4 - e 9\npre 5 - p 0\n"
                      "call\nmock sensor i 3\n";
    unit_test t = make_test(rec, UO_SIGNAL, SIGSEGV);
    char *b = unit_emit_test_body(&u, &t);
    assert_non_null(b);
    assert_non_null(strstr(b, "struct node a_obj = { .v = 1 };"));
    assert_non_null(strstr(b, "a_obj.next = &a_obj;"));
    assert_non_null(strstr(b, "enum mode m = 9;"));
    const char *fork_at = strstr(b, "pid_t pid = fork();");
    const char *wr = strstr(b, "will_return(sensor, 3);");
    assert_non_null(fork_at);
    assert_non_null(wr);
    assert_true(fork_at < wr);
    assert_non_null(strstr(b, "signal(SIGSEGV, SIG_DFL);"));
    assert_non_null(strstr(b, "assert_int_equal(WTERMSIG(status), SIGSEGV);"));
    assert_null(strstr(b, "assert_int_equal(ret"));
    free(b);
    unit_record_free(&t.rec);
}

static void test_body_inexpressible(void **state)
{
    (void)state;
    /* a pointer into the middle of an object cannot be written as locals: no body */
    const char *rec = "obj 1 p 1 a struct node *\npre 1 - p -1\ncall\nret i 0\ndone\n";
    unit_test t = make_test(rec, UO_NORMAL, 0);
    assert_null(unit_emit_test_body(&u, &t));
    unit_record_free(&t.rec);
}

static void test_body_results(void **state)
{
    (void)state;
    /* a result pointing to element 2 of a string input; then a struct result and a double */
    const char *rec1 = "obj 1 p 1 a struct node *\nobj 2 p 1 b struct node *\nobj 3 p 1 m enum mode\n"
                       "obj 4 p 1 tag const char *\nobj 5 as 3 tag char\n"
                       "pre 1 - p 0\npre 2 - p 0\npre 3 - e OFF\npre 4 - p 5\npre 5 [0] i 120\npre 5 [1] i 0\n"
                       "pre 5 [2] i 0\ncall\nret p 5[2]\ndone\n";
    unit_test t = make_test(rec1, UO_NORMAL, 0);
    char *b = unit_emit_test_body(&u, &t);
    assert_non_null(b);
    assert_non_null(strstr(b, "assert_ptr_equal(ret, &tag_obj[2]);"));
    free(b);
    unit_record_free(&t.rec);
    /* a returned string that is no input object: its text */
    const char *rec3 = "obj 1 p 1 a struct node *\nobj 2 p 1 b struct node *\nobj 3 p 1 m enum mode\n"
                       "obj 4 p 1 tag const char *\npre 1 - p 0\npre 2 - p 0\npre 3 - e OFF\npre 4 - p 0\ncall\n"
                       "ret s a \\\"b\\\"\ndone\n";
    t = make_test(rec3, UO_NORMAL, 0);
    b = unit_emit_test_body(&u, &t);
    assert_non_null(b);
    assert_non_null(strstr(b, "assert_string_equal(ret, \"a \\\"b\\\"\");"));
    free(b);
    unit_record_free(&t.rec);
    /* a struct returned by value: recorded after the call as object "r", asserted as ret.f */
    const char *rec2 = "obj 1 p 1 a struct node *\nobj 2 p 1 b struct node *\nobj 3 p 1 m enum mode\n"
                       "obj 4 p 1 tag const char *\npre 1 - p 0\npre 2 - p 0\npre 3 - e OFF\npre 4 - p 0\ncall\n"
                       "obj 5 r 1 ret struct node\npost 5 .v i 3\npost 5 .next p 0\ndone\n";
    t = make_test(rec2, UO_NORMAL, 0);
    b = unit_emit_test_body(&u, &t);
    assert_non_null(b);
    assert_non_null(strstr(b, "assert_int_equal(ret.v, 3);"));
    assert_non_null(strstr(b, "assert_null(ret.next);"));
    assert_null(strstr(b, "struct node ret =")); /* not declared as an input */
    free(b);
    unit_record_free(&t.rec);
}

static void test_body_heap(void **state)
{
    (void)state;
    /* heap mode: malloc'ed objects with compound literals, -> in assertions; a freed object
     * gets no assertion */
    char *rec = NULL;
    assert_true(asprintf(&rec, "%sfreed 3\n", RECORD) > 0);
    unit_test t = make_test(rec, UO_NORMAL, 0);
    t.heap = 1;
    char *b = unit_emit_test_body(&u, &t);
    assert_non_null(b);
    if (getenv("SHOW")) fputs(b, stderr);
    assert_non_null(strstr(b, "struct node *a_next = malloc(sizeof *a_next);"));
    assert_non_null(strstr(b, "*a_obj = (struct node){ .v = 5, .next = a_next };"));
    assert_non_null(strstr(b, "struct node *a = a_obj;"));
    assert_non_null(strstr(b, "char *tag_obj = calloc(sizeof(char [4]), 1);")); /* text: zeroed, then its literal */
    assert_non_null(strstr(b, "memcpy(tag_obj, \"hi\", sizeof \"hi\");"));
    assert_non_null(strstr(b, "assert_int_equal(a_obj->v, 42);"));
    free(b);
    unit_record_free(&t.rec);
    free(rec);
    /* not freed by the call: released through the field that points to it, cast (a field may be a const
     * pointer, cwalk's `const char *path`: free(x->path) did not compile with -Werror), children first */
    t = make_test(RECORD, UO_NORMAL, 0);
    t.heap = 1;
    b = unit_emit_test_body(&u, &t);
    assert_non_null(b);
    if (getenv("SHOW")) fputs(b, stderr);
    const char *child = strstr(b, "free((void *)a_obj->next);"), *parent = strstr(b, "free(a_obj);");
    assert_non_null(child);
    assert_non_null(parent);
    assert_true(child < parent);
    free(b);
    unit_record_free(&t.rec);
}

/* What the call computed: the fields of the list it returned (walk lines), enumerator names, text as
 * C string literals with escapes, back pointers, the release with the unit's destructor. */
static void test_body_walk(void **state)
{
    (void)state;
    const char *rec = "obj 1 p 1 s const char *\nobj 2 as 4 s char\n"
                      "pre 1 - p 2\npre 2 [0] i 10\npre 2 [1] i 1\npre 2 [2] i 50\npre 2 [3] i 0\n"
                      "call\nretheap\nret p -1\n"
                      "walk 0 - ->k e ON\n"
                      "walk 0 - ->name a x\\ty\n"
                      "walk 0 - ->text s a \\\"b\\\"\n"
                      "walk 0 - ->next p -1\n"
                      "walk 0 - ->next->k e 7\n"
                      "walk 0 - ->next->name a \n"
                      "walk 0 - ->next->text p 2[1]\n"
                      "walk 0 - ->next->next q -\n"
                      "done\n";
    unit_record r;
    char *err = NULL;
    assert_int_equal(unit_record_parse(rec, &r, &err), 0);
    assert_true(r.ret_heap);
    assert_int_equal(r.nwalks, 8);
    assert_string_equal(r.walks[2].tail, "->text");
    assert_string_equal(r.walks[2].value.text, "a \\\"b\\\""); /* escapes kept as written */
    assert_string_equal(r.walks[5].value.text, "");
    unit_record_free(&r);
    unit_test t;
    memset(&t, 0, sizeof t);
    t.name = "test_mk_1";
    t.fn = unit_find_def(&u, "mk");
    assert_non_null(t.fn);
    assert_int_equal(unit_record_parse(rec, &t.rec, &err), 0);
    t.release = "tok_free";
    char *b = unit_emit_test_body(&u, &t);
    assert_non_null(b);
    if (getenv("SHOW")) fputs(b, stderr);
    /* the input text: a literal, \xNN split before a hex digit */
    assert_non_null(strstr(b, "char s_obj[4] = \"\\n\\x01\" \"2\";"));
    assert_non_null(strstr(b, "assert_non_null(ret);"));
    assert_non_null(strstr(b, "assert_int_equal(ret->k, ON);"));
    assert_non_null(strstr(b, "assert_string_equal(ret->name, \"x\\ty\");"));
    assert_null(strstr(b, "assert_non_null(ret->name);")); /* an array is never NULL */
    const char *nn = strstr(b, "assert_non_null(ret->text);");
    const char *se = strstr(b, "assert_string_equal(ret->text, \"a \\\"b\\\"\");");
    assert_non_null(nn);
    assert_non_null(se);
    assert_true(nn < se); /* NULL-checked first */
    assert_non_null(strstr(b, "assert_non_null(ret->next);"));
    assert_non_null(strstr(b, "assert_int_equal(ret->next->k, 7);"));
    assert_non_null(strstr(b, "assert_string_equal(ret->next->name, \"\");"));
    assert_non_null(strstr(b, "assert_ptr_equal(ret->next->text, &s_obj[1]);"));
    assert_non_null(strstr(b, "assert_ptr_equal(ret->next->next, ret);"));
    const char *rel = strstr(b, "tok_free(ret);");
    assert_non_null(rel);
    assert_true(rel > strstr(b, "assert_ptr_equal(ret->next->next, ret);")); /* after the assertions */
    free(b);
    unit_record_free(&t.rec);
}

/* A result released with free whose fields own blocks the call allocated (`retown` lines): those are
 * freed first, the last walked first, only once LeakSanitizer asked for it (release_owned). */
static void test_body_retown(void **state)
{
    (void)state;
    const char *rec = "obj 1 p 1 s const char *\nobj 2 as 4 s char\n"
                      "pre 1 - p 2\npre 2 [0] i 10\npre 2 [1] i 1\npre 2 [2] i 50\npre 2 [3] i 0\n"
                      "call\nretheap\nret p -1\n"
                      "walk 0 - ->text s ab\nretown ->text\n"
                      "walk 0 - ->next p -1\nretown ->next\n"
                      "walk 0 - ->next->text s c\nretown ->next->text\n"
                      "done\n";
    unit_test t;
    memset(&t, 0, sizeof t);
    t.name = "test_mk_2";
    t.fn = unit_find_def(&u, "mk");
    assert_non_null(t.fn);
    char *err = NULL;
    assert_int_equal(unit_record_parse(rec, &t.rec, &err), 0);
    assert_int_equal(t.rec.nretowns, 3);
    assert_string_equal(t.rec.retowns[2], "->next->text");
    t.release = "free";
    char *b = unit_emit_test_body(&u, &t);
    assert_non_null(b);
    assert_null(strstr(b, "free((void *)ret->text);")); /* not asked for */
    assert_non_null(strstr(b, "free((void *)ret);"));
    free(b);
    t.release_owned = 1;
    b = unit_emit_test_body(&u, &t);
    assert_non_null(b);
    if (getenv("SHOW")) fputs(b, stderr);
    const char *inner = strstr(b, "free((void *)ret->next->text);"), *next = strstr(b, "free((void *)ret->next);"),
               *text = strstr(b, "free((void *)ret->text);"), *whole = strstr(b, "free((void *)ret);");
    assert_non_null(inner);
    assert_non_null(next);
    assert_non_null(text);
    assert_non_null(whole);
    assert_true(inner < next && next < text && text < whole);
    assert_true(strstr(b, "assert_string_equal(ret->next->text, \"c\");") < inner); /* after the assertions */
    free(b);
    unit_record_free(&t.rec);
}

/* An out-parameter the call filled with blocks it allocated (`heapat` lines): released after the
 * assertions, a block named twice once, nothing for a global. */
static void test_body_heapat(void **state)
{
    (void)state;
    const char *rec = "obj 1 p 1 t struct tok *\nobj 2 - 1 t struct tok\nobj 3 g 1 gname -\n"
                      "pre 1 - p 2\npre 2 .k e OFF\npre 2 .text p 0\npre 2 .next p 0\npre 3 - p 0\n"
                      "call\nret i 0\n"
                      "post 1 - p 2\npost 2 .k e OFF\npost 2 .text p -1\npost 2 .next p -1\npost 3 - p -1\n"
                      "heapat 2 .text free\nheapat 2 .next tok_free\nheapat 3 - free\n"
                      "walk 2 .text - s ab\n"
                      "done\n";
    unit_test t;
    memset(&t, 0, sizeof t);
    t.name = "test_tfill_1";
    t.fn = unit_find_def(&u, "tfill");
    assert_non_null(t.fn);
    char *err = NULL;
    assert_int_equal(unit_record_parse(rec, &t.rec, &err), 0);
    assert_int_equal(t.rec.nheapats, 3);
    assert_string_equal(t.rec.heapats[0].suffix, ".text");
    assert_string_equal(t.rec.heapats[2].suffix, "");
    char *b = unit_emit_test_body(&u, &t);
    assert_non_null(b);
    if (getenv("SHOW")) fputs(b, stderr);
    const char *as = strstr(b, "assert_string_equal(t_obj.text, \"ab\");");
    const char *fr = strstr(b, "free((void *)t_obj.text);");
    assert_non_null(as);
    assert_non_null(fr);
    assert_true(as < fr);
    assert_non_null(strstr(b, "tok_free(t_obj.next);"));
    assert_null(strstr(b, "free((void *)gname);"));
    free(b);
    unit_record_free(&t.rec);
}

/* A returned array of strings: its elements (one with its length and bytes, kind b), the count
 * out-parameter, the release with the (array, count) destructor; the text an unchanged global
 * pointer points to is not asserted. */
static void test_body_array(void **state)
{
    (void)state;
    const char *rec = "obj 1 g 1 gname -\nobj 2 p 1 s const char *\nobj 3 as 2 s char\nobj 4 p 1 n int *\n"
                      "obj 5 - 1 n int\n"
                      "pre 1 - p -1\npre 2 - p 3\npre 3 [0] i 97\npre 3 [1] i 0\npre 4 - p 5\npre 5 - i 91\n"
                      "call\nretheap\nret p -1\n"
                      "walk 0 - [0] s a\n"
                      "walk 0 - [1] b strlen_ 2 b\\x00\n"
                      "walk 0 - [2] b strlen_ 0 \n"
                      "post 1 - p -1\nwalk 1 - - s g\npost 2 - p 3\npost 4 - p 5\npost 5 - i 2\ndone\n";
    unit_test t;
    memset(&t, 0, sizeof t);
    t.name = "test_wsplit_1";
    t.fn = unit_find_def(&u, "wsplit");
    assert_non_null(t.fn);
    char *err = NULL;
    assert_int_equal(unit_record_parse(rec, &t.rec, &err), 0);
    t.release = "wsplit_free";
    char *b = unit_emit_test_body(&u, &t);
    assert_non_null(b);
    if (getenv("SHOW")) fputs(b, stderr);
    assert_non_null(strstr(b, "assert_int_equal(n_obj, 2);"));
    assert_non_null(strstr(b, "assert_non_null(ret[0]);"));
    assert_non_null(strstr(b, "assert_string_equal(ret[0], \"a\");"));
    assert_non_null(strstr(b, "assert_int_equal(strlen_(ret[1]), 2);"));
    assert_non_null(strstr(b, "assert_memory_equal(ret[1], \"b\\x00\", 2);"));
    assert_non_null(strstr(b, "assert_int_equal(strlen_(ret[2]), 0);"));
    assert_non_null(strstr(b, "assert_string_equal(ret[2], \"\");"));
    assert_null(strstr(b, "gname"));
    const char *rel = strstr(b, "wsplit_free(ret, *n);");
    assert_non_null(rel);
    assert_true(rel > strstr(b, "assert_string_equal(ret[2], \"\");"));
    free(b);
    unit_record_free(&t.rec);
}

/* Text formatting: escapes, \xNN split before a hex digit; a char array inside a struct as one
 * string assertion; a test with nothing changed asserts the inputs' values. */
static void test_text_and_fallback(void **state)
{
    (void)state;
    strbuf sb = STRBUF_INIT;
    emit_c_string(&sb,
                  (const unsigned char *)"a\n\t\\\"?\x01"
                                         "f\x7fg\xff",
                  11);
    assert_string_equal(sb.s, "\"a\\n\\t\\\\\\\"\\?\\x01\" \"f\\x7fg\\xff\"");
    sb_free(&sb);
    /* walk(a, ...) left everything as it was: the input's values are asserted instead of nothing */
    const char *rec = "obj 1 p 1 a struct node *\nobj 2 - 1 a struct node\nobj 3 p 1 b struct node *\n"
                      "obj 4 p 1 m enum mode\nobj 5 p 1 tag const char *\nobj 6 as 3 tag char\n"
                      "pre 1 - p 2\npre 2 .v i 5\npre 2 .next p 0\npre 3 - p 0\npre 4 - e OFF\npre 5 - p 6\n"
                      "pre 6 [0] i 63\npre 6 [1] i 0\npre 6 [2] i 0\n"
                      "call\nret v -\n"
                      "post 2 .v i 5\npost 2 .next p 0\npost 6 [0] i 63\npost 6 [1] i 0\npost 6 [2] i 0\ndone\n";
    unit_test t = make_test(rec, UO_NORMAL, 0);
    char *b = unit_emit_test_body(&u, &t);
    assert_non_null(b);
    if (getenv("SHOW")) fputs(b, stderr);
    assert_non_null(strstr(b, "assert_int_equal(a_obj.v, 5);"));
    assert_non_null(strstr(b, "assert_null(a_obj.next);"));
    assert_non_null(strstr(b, "assert_string_equal(tag_obj, \"\\?\");"));
    free(b);
    unit_record_free(&t.rec);
}

/* The body emitted for a test of function fn from record rec, pruned first as step 4 does when prune
 * (malloc'ed; SHOW=1 prints it). */
static char *body_with(const char *fn, const char *rec, int prune, char **flaky, size_t nflaky)
{
    unit_test t;
    memset(&t, 0, sizeof t);
    t.name = "test_1";
    t.fn = unit_find_def(&u, fn);
    assert_non_null(t.fn);
    t.flaky = flaky;
    t.nflaky = nflaky;
    char *err = NULL;
    assert_int_equal(unit_record_parse(rec, &t.rec, &err), 0);
    if (prune) unit_record_prune(&t.rec);
    char *b = unit_emit_test_body(&u, &t);
    assert_non_null(b);
    if (getenv("SHOW")) fputs(b, stderr);
    unit_record_free(&t.rec);
    return b;
}

static char *body_for(const char *fn, const char *rec, int prune) { return body_with(fn, rec, prune, NULL, 0); }

/* An assertion the native re-run found unstable (unit_test.flaky) is not written; the others are. */
static void test_flaky_left_out(void **state)
{
    (void)state;
    const char *rec = "obj 1 p 1 out char *\nobj 2 a 4 out char\n"
                      "pre 1 - p 2\npre 2 [0] i 65\npre 2 [1] i 66\npre 2 [2] i 0\npre 2 [3] i 0\n"
                      "call\nret i 2\n"
                      "post 1 - p 2\npost 2 [0] i 67\npost 2 [1] i 66\npost 2 [2] i 0\npost 2 [3] i 0\ndone\n";
    char *b = body_for("dec", rec, 0);
    assert_non_null(strstr(b, "    assert_int_equal(ret, 2);\n"));
    assert_non_null(strstr(b, "assert_string_equal(out_obj, \"CB\");"));
    free(b);
    char *flaky[] = {"assert_int_equal(ret, 2);"};
    b = body_with("dec", rec, 0, flaky, 1);
    assert_null(strstr(b, "assert_int_equal(ret, 2);"));
    assert_non_null(strstr(b, "    (void)ret; /* its assertion was left out"));
    assert_non_null(strstr(b, "assert_string_equal(out_obj, \"CB\");"));
    free(b);
}

/* A parameter the harness cannot build (fixed to zero there) is zero in the call, not left out: the test
 * compiles. */
static void test_unbuildable_param_zero(void **state)
{
    (void)state;
    char *b = body_for("wide", "obj 1 p 1 k int\npre 1 - i 3\ncall\nret i 3\npost 1 - i 3\ndone\n", 0);
    assert_non_null(strstr(b, "int ret = wide(k, (unsigned __int128){0});"));
    free(b);
}

/* A character array changed past a NUL (binary output): one assert_memory_equal over its bytes through
 * its end (a write past the output shows), octal escapes, not a string assertion and one per byte. */
static void test_bytes_past_nul(void **state)
{
    (void)state;
    char *b = body_for("dec",
                       "obj 1 p 1 out char *\nobj 2 a 4 out char\n"
                       "pre 1 - p 2\npre 2 [0] i 65\npre 2 [1] i 66\npre 2 [2] i 63\npre 2 [3] i 0\n"
                       "call\nret i 2\n"
                       "post 1 - p 2\npost 2 [0] i 0\npost 2 [1] i 7\npost 2 [2] i 63\npost 2 [3] i 0\ndone\n",
                       0);
    assert_non_null(strstr(b, "assert_memory_equal(out_obj, \"\\000\\007\\077\\000\", 4);"));
    assert_null(strstr(b, "assert_string_equal(out_obj"));
    assert_null(strstr(b, "out_obj[1]"));
    free(b);
}

/* A parameter of array type is the caller's array: what the call wrote there is asserted (it was
 * skipped as a parameter's copy: toml_ucs_to_utf8(code, buf) had no assertion on buf). */
static void test_param_array(void **state)
{
    (void)state;
    char *b = body_for("enc",
                       "obj 1 p 1 c long\nobj 2 p 1 buf char[4]\n"
                       "pre 1 - i 200\npre 2 [0] i 113\npre 2 [1] i 55\npre 2 [2] i 120\npre 2 [3] i 66\n"
                       "call\nret i 1\n"
                       "post 1 - i 200\npost 2 [0] i -56\npost 2 [1] i 0\npost 2 [2] i 120\npost 2 [3] i 66\ndone\n",
                       0);
    assert_non_null(strstr(b, "assert_memory_equal(buf, \"\\310\\000xB\", 4);"));
    assert_null(strstr(b, "buf[2]"));
    free(b);
}

/* A parameter made by a producer whose mock returned an object, then made NULL lazily: the test passes
 * NULL and declares nothing of the construction (the mock's object was an unused variable, -Werror). */
static void test_dropped_construction(void **state)
{
    (void)state;
    char *b = body_for("walk",
                       "obj 1 p 1 a struct node *\nobj 5 - 1 mval struct node\npre 5 .v i 1\n"
                       "pre 5 .next p 0\nmock sensor p 5\nmake 1 r mk\nobj 2 p 1 b struct node *\n"
                       "obj 3 p 1 m enum mode\nobj 4 p 1 tag const char *\npre 1 - p 0\npre 2 - p 0\n"
                       "pre 3 - e OFF\npre 4 - p 0\ncall\nret i 0\ndone\n",
                       1);
    assert_null(strstr(b, "mval"));
    assert_null(strstr(b, "will_return"));
    assert_non_null(strstr(b, "struct node *a = NULL;"));
    free(b);
    /* the queue indices of the constructions after a dropped one follow them (they were stale) */
    unit_record r;
    char *err = NULL;
    assert_int_equal(unit_record_parse("obj 1 p 1 a struct node *\nmock sensor i 1\nmake 1 r mk\n"
                                       "obj 2 p 1 b struct node *\nmock sensor i 2\nmake 2 h mk\n"
                                       "pre 1 - p 0\npre 2 - p -1\ncall\nret i 0\ndone\n",
                                       &r, &err),
                     0);
    unit_record_prune(&r);
    assert_int_equal(r.nmakes, 1);
    assert_true(r.mocks[0].make == UNIT_MAKE_DROPPED);
    assert_int_equal(r.mocks[1].make, 1);
    unit_record_free(&r);
}

/* A union's bytes: a byte-array literal (none when zero), copied in after the declarations, and
 * asserted with assert_memory_equal when the call changed them. */
static void test_union_bytes(void **state)
{
    (void)state;
    strbuf sb = STRBUF_INIT;
    assert_int_equal(emit_union_bytes(&sb, "01ff00"), 3);
    assert_string_equal(sb.s, "((const unsigned char[3]){0x01, 0xff, 0x00})");
    sb_free(&sb);
    assert_int_equal(emit_union_bytes(&sb, "0000"), 0);
    assert_null(sb.s);
    assert_int_equal(emit_union_bytes(&sb, "0"), -1);
    assert_int_equal(emit_union_bytes(&sb, "zz"), -1);
    assert_int_equal(emit_union_bytes(&sb, ""), -1);
    assert_int_equal(emit_union_bytes(&sb, NULL), -1);
    sb_free(&sb);
    const char *rec = "obj 1 p 1 v struct val *\nobj 2 - 1 v struct val\n"
                      "pre 1 - p 2\npre 2 .k i 3\npre 2 .u x 0700000000000000\n"
                      "call\nret i 3\npost 2 .k i 3\npost 2 .u x 0100000000000000\ndone\n";
    unit_test t = make_test(rec, UO_NORMAL, 0);
    char *b = unit_emit_test_body(&u, &t);
    assert_non_null(b);
    if (getenv("SHOW")) fputs(b, stderr);
    assert_non_null(strstr(b, "struct val v_obj = { .k = 3 };"));
    assert_non_null(strstr(b, "memcpy(&v_obj.u, ((const unsigned char[8]){0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, "
                              "0x00}), sizeof v_obj.u);"));
    assert_non_null(strstr(b, "assert_memory_equal(&v_obj.u, ((const unsigned char[8]){0x01, 0x00, 0x00, 0x00, 0x00, "
                              "0x00, 0x00, 0x00}), sizeof v_obj.u);"));
    free(b);
    unit_record_free(&t.rec);
}

/* A call that printed: its standard output captured around the call and asserted (as a string; with a NUL,
 * by its length and bytes); the file gets the capture functions; a malformed stdout line is rejected. */
static void test_stdout_capture(void **state)
{
    (void)state;
    char *rec = NULL;
    assert_true(asprintf(&rec, "%sstdout 9 6f6e650a74776f0a0a\n", RECORD) > 0);
    unit_test t = make_test(rec, UO_NORMAL, 0);
    assert_int_equal(t.rec.out_len, 9);
    char *b = unit_emit_test_body(&u, &t);
    assert_non_null(b);
    if (getenv("SHOW")) fputs(b, stderr);
    const char *begin = strstr(b, "    stdout_capture_begin();\n    int ret = walk(a, b, m, tag);\n"
                                  "    char *stdout_text = stdout_capture_end();\n");
    const char *check = strstr(b, "assert_string_equal(stdout_text, \"one\\ntwo\\n\\n\");");
    const char *release = strstr(b, "free(stdout_text);");
    assert_non_null(begin);
    assert_non_null(check);
    assert_non_null(release);
    assert_true(begin < check && check < release);
    free(b);
    const char *mocked[] = {"sensor"};
    char *f = unit_emit_tests(&u, &t, 1, mocked, 1, "walk.c");
    assert_non_null(f);
    assert_non_null(strstr(f, "static char *stdout_capture_end(void) {"));
    free(f);
    unit_record_free(&t.rec);
    free(rec);
    /* a NUL in the text: its length and its bytes */
    assert_true(asprintf(&rec, "%sstdout 3 610062\n", RECORD) > 0);
    t = make_test(rec, UO_NORMAL, 0);
    b = unit_emit_test_body(&u, &t);
    assert_non_null(b);
    if (getenv("SHOW")) fputs(b, stderr);
    assert_non_null(strstr(b, "assert_int_equal(stdout_len, 3);"));
    assert_non_null(strstr(b, "assert_memory_equal(stdout_text, \"a\\x00\" \"b\", 3);"));
    free(b);
    unit_record_free(&t.rec);
    free(rec);
    /* nothing printed: no capture; the test of a crash never captures (its call runs in a child) */
    t = make_test(RECORD, UO_NORMAL, 0);
    b = unit_emit_test_body(&u, &t);
    assert_null(strstr(b, "stdout_capture"));
    free(b);
    unit_record_free(&t.rec);
    assert_true(asprintf(&rec, "%sstdout 2 6f6b\n", RECORD) > 0);
    t = make_test(rec, UO_SIGNAL, 11);
    b = unit_emit_test_body(&u, &t);
    assert_non_null(b);
    assert_non_null(strstr(b, "fork()"));
    assert_null(strstr(b, "stdout_capture"));
    free(b);
    unit_record_free(&t.rec);
    free(rec);
    unit_record r;
    char *err = NULL;
    assert_int_equal(unit_record_parse("stdout 2 616263\n", &r, &err), -1); /* more bytes than written */
    free(err);
}

static void test_file(void **state)
{
    (void)state;
    unit_test t = make_test(RECORD, UO_NORMAL, 0);
    const char *mocked[] = {"sensor"};
    char *f = unit_emit_tests(&u, &t, 1, mocked, 1, "walk.c");
    assert_non_null(f);
    assert_non_null(strstr(f, "#include <cmocka.h>"));
    assert_non_null(strstr(f, "int walk(struct node *a, struct node *b, enum mode m, const char *tag);"));
    assert_non_null(strstr(f, "int sensor(void) {\n    return (int)mock();\n}"));
    assert_non_null(strstr(f, "static void test_walk_1(void **state) {"));
    assert_non_null(strstr(f, "cmocka_unit_test(test_walk_1),"));
    assert_non_null(strstr(f, "cmocka_run_group_tests(tests, NULL, NULL)"));
    free(f);
    unit_record_free(&t.rec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_record_parse),
        cmocka_unit_test(test_body_normal),
        cmocka_unit_test(test_body_cycle_and_failure),
        cmocka_unit_test(test_body_inexpressible),
        cmocka_unit_test(test_body_results),
        cmocka_unit_test(test_body_heap),
        cmocka_unit_test(test_body_walk),
        cmocka_unit_test(test_body_retown),
        cmocka_unit_test(test_body_heapat),
        cmocka_unit_test(test_body_array),
        cmocka_unit_test(test_text_and_fallback),
        cmocka_unit_test(test_bytes_past_nul),
        cmocka_unit_test(test_flaky_left_out),
        cmocka_unit_test(test_unbuildable_param_zero),
        cmocka_unit_test(test_param_array),
        cmocka_unit_test(test_dropped_construction),
        cmocka_unit_test(test_union_bytes),
        cmocka_unit_test(test_stdout_capture),
        cmocka_unit_test(test_file),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
