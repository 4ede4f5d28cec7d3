/* test_unit_producers.c: producer discovery (constructors by the written typedef, initialisers by shape and name), --init, --raw-inputs, destructors, the consumed rule, and the harness's producer choice. */
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
#include "unit/producers_int.h"

static const char *SRC_TEXT =
    "#include <stddef.h>\n"
    "typedef char *str;\n"
    "typedef struct parser { unsigned pos; int sup; } parser;\n"
    "str strnew(const char *init) { (void)init; return 0; }\n"
    "str strempty(void) { return 0; }\n"
    "char *plain(void) { return 0; }\n"                                            /* char *, not str */
    "str strdup_(const str s) { return s; }\n"                                     /* needs a str first */
    "str strnewlen(const void *p, size_t len) { (void)p; (void)len; return 0; }\n" /* untyped buffer */
    "str strjoin(str *argv, int argc) { (void)argv; (void)argc; return 0; }\n"     /* an array of str */
    "void strfree(str s) { (void)s; }\n"
    "void strrange(str s, int a, int b) { (void)s; (void)a; (void)b; }\n"
    "str strcat_(str s, const char *t) { (void)t; return s; }\n"
    "void parser_init(parser *p) { p->pos = 0; p->sup = -1; }\n"
    "void parser_touch(parser *p) { p->pos = 1; }\n" /* not named like an init */
    "void parser_reset(parser *p) { p->pos = 0; }\n" /* a reset: parser_init is there */
    "typedef struct ctr { int n; } ctr;\n"
    "void ctr_reset(ctr *c) { c->n = 0; }\n" /* the only initialiser of ctr */
    "int ctr_next(ctr *c) { return c->n++; }\n"
    "int parse(parser *p, const char *js) { (void)js; return (int)p->pos; }\n"
    "typedef struct list { int v; struct list *next; } list;\n"
    "list *list_new(int v) { (void)v; return 0; }\n"
    "int list_add(list *l, list *item) { (void)l; (void)item; return 1; }\n"
    "int list_addref(list *l, list *item) { (void)l; (void)item; return 1; }\n" /* named add: an adder */
    "void list_add_reference(list *l, list *item) { (void)l; (void)item; }\n"   /* a reference: not an adder */
    "int list_insert_at(list *l, int at, list *item) { (void)l; (void)at; (void)item; return 1; }\n" /* a position */
    "int list_put(list *l, const char *key, list *item) { (void)l; (void)key; (void)item; return 1; }\n" /* a key */
    "void list_set_next(list *l, list *next) { (void)l; (void)next; }\n" /* set without a key: no adder */
    "int list_len(const list *l) { return l ? 1 : 0; }\n"
    "void list_free_items(list *l) { (void)l; }\n" /* frees the items, not the list */
    "void list_free(list *l) { (void)l; }\n"
    "list *list_slice(list *l, int from) { (void)from; return l; }\n" /* a copy, or l itself */
    /* a counted array of str: its count out, its (array, count) destructor */
    "str *strsplit(const char *line, int *argc) { (void)line; *argc = 0; return 0; }\n"
    "typedef struct tok { int k; } tok;\n"
    "tok *toks(const char *s, int *err) { (void)s; (void)err; return 0; }\n" /* no count's name */
    "void strfreesplit(str *v, int n) { (void)v; (void)n; }\n"
    "size_t str_length(const str s) { return s ? 1 : 0; }\n"
    "size_t strlen_(const str s) { return s ? 1 : 0; }\n"
    "int strsize(const str s) { return s ? 1 : 0; }\n"                         /* no "len" */
    "void strsplit_release(str *v, const char *why) { (void)v; (void)why; }\n" /* no count */
    /* an evaluator: its destructor takes the state the expression was made with (zserge/expr) */
    "typedef struct exvars { int n; } exvars;\n"
    "typedef struct ex { int v; } ex;\n"
    "ex *ex_create(const char *s, size_t len, exvars *vars) { (void)s; (void)len; (void)vars; return 0; }\n"
    "void ex_destroy_args(ex *e) { (void)e; }\n" /* frees what e holds, not e */
    "void ex_destroy(ex *e, exvars *vars) { (void)e; (void)vars; }\n"
    "int ex_eval(ex *e) { return e->v; }\n"
    /* an initialiser with an argument; a table of callbacks its initialiser only zeroes */
    "enum mode { M_A, M_B };\n"
    "typedef struct machine { enum mode m; int st; } machine;\n"
    "void machine_init(machine *p, enum mode m) { p->m = m; p->st = 0; }\n"
    "typedef struct hooks { int (*on_a)(machine *); int (*on_b)(machine *, const char *, size_t); } hooks;\n"
    "void hooks_init(hooks *h) { (void)h; }\n"
    "int run(machine *p, const hooks *h) { (void)h; return p->st; }\n"
    /* a parser into storage the caller gives, and the same through a pool of callbacks (tiny-json) */
    "typedef struct node { struct node *next; int v; } node;\n"
    "typedef struct pool { node *(*take)(struct pool *); } pool;\n"
    "const node *tree_with(char *s, pool *p) { (void)s; return p->take(p); }\n"
    "const node *tree(char *s, node mem[], unsigned qty) { (void)s; return qty ? mem : 0; }\n"
    "const node *tree_copy(const node *from, node *to) { (void)from; return to; }\n" /* another node first */
    "int tree_sum(const node *n) { return n->v; }\n"
    /* read-only text under a name (tomlc99's toml_raw_t): a plain string */
    "typedef const char *rawtext;\n"
    "rawtext raw_of(const node *n) { (void)n; return \"1\"; }\n"
    "int raw_num(rawtext r) { return r[0]; }\n"
    /* buffer structs (klib's kstring_t, a vector), and a list head that is none */
    "typedef struct kb { size_t l, m; char *s; } kb;\n"
    "int kb_fit(kb *s, size_t size) { return s->m >= size; }\n"
    "struct ivec { int *data; unsigned size, capacity; };\n"
    "int ivec_sum(const struct ivec *v) { return v->data[0]; }\n"
    "struct lst { struct node *head; int len; };\n"
    "int lst_len(const struct lst *l) { return l->len; }\n"
    /* conventions of int results: -1 on failure (0 is a success), or 0 on failure */
    "int neg_fail(node *n) { if (!n) return -1; return 0; }\n"
    "int zero_fail(node *n) { return n ? 1 : 0; }\n"
    "enum status { ST_OK = 0, ST_FAIL = -1 };\n"
    "int enum_fail(node *n) { if (!n) return ST_FAIL; return ST_OK; }\n"
    /* a container of another type's items (clibs/list): the item's constructor takes an opaque value, the push
     * gives the item back, a removal needs an item of the list, a link takes a struct no producer makes */
    "typedef struct dnode { struct dnode *next; void *val; } dnode;\n"
    "typedef struct dlist { dnode *head; int n; } dlist;\n"
    "dlist *dlist_new(void) { return 0; }\n"
    "dnode *dnode_new(void *val) { (void)val; return 0; }\n"
    "dnode *dlist_push(dlist *l, dnode *d) { (void)l; return d; }\n"
    "void dlist_remove(dlist *l, dnode *d) { (void)l; (void)d; }\n"
    "void dlist_link(dlist *l, struct lst *x) { (void)l; (void)x; }\n"
    "int dlist_count(const dlist *l) { return l->n; }\n"
    "typedef struct ver { int major; char *tag; } ver;\n"
    "int ver_parse(const char *text, ver *v) { v->major = text[0]; v->tag = 0; return 0; }\n"
    "void ver_scale(int k, ver *v) { v->major *= k; }\n"
    "int ver_major(const ver *v) { return v->major; }\n";

static unit_info u;
static char path[64];

static int setup(void **state)
{
    (void)state;
    snprintf(path, sizeof path, "/tmp/sympath_unit_producers_%d.c", (int)getpid());
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fputs(SRC_TEXT, f);
    fclose(f);
    char *err = NULL;
    const char *p = path;
    return unit_parse(&p, 1, NULL, &u, &err) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    unit_info_free(&u);
    unlink(path);
    return 0;
}

static unit_harness_opts opts(void)
{
    unit_harness_opts o = {3, 16, 32, 0, 0, 0, 0, SYMPATH_LIB_DIR "/sympath_unit_rt.h", NULL, 0, 0, NULL, 0};
    return o;
}

/* The producers' names of parameter i of fn, space-separated, into buf. */
static const char *producers_of(const char *fn, size_t i, const unit_harness_opts *o, char *buf, size_t cap)
{
    const ut_func *f = unit_find_def(&u, fn);
    assert_non_null(f);
    unit_producer pr[UNIT_MAX_PRODUCERS];
    size_t n = unit_param_producers(&u, o, f, i, pr, UNIT_MAX_PRODUCERS), at = 0;
    buf[0] = 0;
    for (size_t k = 0; k < n; k++)
        at += (size_t)snprintf(buf + at, cap - at, "%s%s%s", k ? " " : "",
                               pr[k].kind == UP_INIT  ? "&"
                               : pr[k].kind == UP_OUT ? ">"
                                                      : "",
                               pr[k].fn->name);
    return buf;
}

static char *harness_of(const ut_func *f, const unit_harness_opts *o);

static void test_discovery(void **state)
{
    (void)state;
    unit_harness_opts o = opts();
    char b[256];
    /* str: by the written typedef, strnewlen too (its void * has a length: a symbolic array); not
     * plain (char *), strdup_ (takes a str), strjoin (takes an array of str) */
    assert_string_equal(producers_of("strrange", 0, &o, b, sizeof b), "strnew strempty strnewlen");
    assert_string_equal(producers_of("strrange", 1, &o, b, sizeof b), ""); /* an int */
    /* a plain const char * has none */
    assert_string_equal(producers_of("parse", 1, &o, b, sizeof b), "");
    /* parser *: the initialiser by name, not parser_touch */
    assert_string_equal(producers_of("parse", 0, &o, b, sizeof b), "&parser_init");
    /* a reset re-initialises what another initialiser set up (pdjson's json_reset beside json_open_string,
     * which sets the allocator json_close calls): only when it is the only one */
    assert_string_equal(producers_of("ctr_next", 0, &o, b, sizeof b), "&ctr_reset");
    /* an initialiser with a mode argument (`http_parser_init(&p, HTTP_REQUEST)`); none for a table of
     * callbacks (hooks_init only zeroes it: built field by field, with stand-ins) */
    assert_string_equal(producers_of("run", 0, &o, b, sizeof b), "&machine_init");
    assert_string_equal(producers_of("run", 1, &o, b, sizeof b), "");
    /* storage for the result (`json_create(str, json_t mem[], qty)`, qty a count), given as a capacity
     * pair; the form through a pool of callbacks only when there is no other; tree_copy needs a node */
    assert_string_equal(producers_of("tree_sum", 0, &o, b, sizeof b), "tree");
    const ut_func *t = unit_find_def(&u, "tree");
    assert_int_equal(t->params[1].len_param, 2);
    assert_true(unit_producer_storage(t, 1));
    assert_false(unit_producer_storage(t, 0));
    assert_false(unit_producer_storage(unit_find_def(&u, "tree_copy"), 1));
    assert_string_equal(producers_of("raw_num", 0, &o, b, sizeof b), "");
    /* buffer structs: the data, length and capacity fields; a struct pointer before a length is no
     * array when the struct is a buffer (`ks_resize(kstring_t *s, size_t size)`) */
    int d, l, c;
    const ut_func *kf = unit_find_def(&u, "kb_fit");
    assert_true(unit_buffer_struct(kf->params[0].type->pointee, &d, &l, &c));
    assert_int_equal(d, 2);
    assert_int_equal(l, 0);
    assert_int_equal(c, 1);
    assert_int_equal(kf->params[0].len_param, -1);
    assert_true(unit_buffer_struct(unit_find_def(&u, "ivec_sum")->params[0].type->pointee, &d, &l, &c));
    assert_int_equal(l, 1);
    assert_int_equal(c, 2);
    assert_false(unit_buffer_struct(unit_find_def(&u, "lst_len")->params[0].type->pointee, &d, &l, &c));
    assert_true(unit_fails_negative(&u, "neg_fail"));
    assert_false(unit_fails_negative(&u, "zero_fail"));
    assert_true(unit_fails_negative(&u, "enum_fail")); /* parson's `return JSONFailure;`, JSONFailure = -1 */
    /* a parser into the caller's struct, the object last (UP_OUT, whatever the name: semver_parse(str, &ver));
     * not ver_scale, which takes no text */
    assert_string_equal(producers_of("ver_major", 0, &o, b, sizeof b), ">ver_parse");
    char *h = harness_of(unit_find_def(&u, "ver_major"), &o);
    assert_non_null(strstr(h, "long long sympu_ok = (long long)ver_parse(sympu_m0, sympu_o);"));
    assert_non_null(strstr(h, "sym_assume(sympu_ok >= 0);")); /* a failed parse builds no input */
    assert_non_null(strstr(h, "make %d o ver_parse %d"));
    free(h);
    /* the target is never its own producer */
    assert_string_equal(producers_of("strdup_", 0, &o, b, sizeof b), "strnew strempty strnewlen");
}

/* The harness of target f (malloc'ed; its warnings dropped). */
static char *harness_of(const ut_func *f, const unit_harness_opts *o)
{
    char *w = NULL, *err = NULL;
    char *h = unit_harness(&u, &f, 1, o, &w, &err);
    assert_non_null(h);
    free(w);
    return h;
}

static void test_adders(void **state)
{
    (void)state;
    unit_harness_opts o = opts();
    char b[256];
    assert_string_equal(producers_of("list_len", 0, &o, b, sizeof b), "list_new");
    const ut_func *f = unit_find_def(&u, "list_len"), *ad[UNIT_MAX_PRODUCERS];
    size_t n = unit_param_adders(&u, &o, f, 0, ad, UNIT_MAX_PRODUCERS);
    assert_int_equal(n, 4);
    assert_string_equal(ad[0]->name, "list_add");
    assert_string_equal(ad[1]->name, "list_addref");
    assert_string_equal(ad[2]->name, "list_insert_at");
    assert_string_equal(ad[3]->name, "list_put");
    /* the item's argument: after the container, after a position or a key */
    assert_int_equal(unit_adder_item(ad[0], f->params[0].type), 1);
    assert_int_equal(unit_adder_item(ad[2], f->params[0].type), 2);
    assert_int_equal(unit_adder_item(ad[3], f->params[0].type), 2);
    assert_int_equal(unit_adder_item(unit_find_def(&u, "list_set_next"), f->params[0].type), -1);
    o.raw_inputs = 1;
    assert_int_equal(unit_param_adders(&u, &o, f, 0, ad, UNIT_MAX_PRODUCERS), 0);
    /* the harness: a count of adds the explorer flips (on the parameter, then on an item made
     * without arguments), recorded as add lines with the adder's own arguments */
    o.raw_inputs = 0;
    char *h = harness_of(f, &o);
    assert_non_null(strstr(h, "\"l.item.adds\" : \"l.adds\", 3)"));
    assert_non_null(strstr(h, "sympu_rec(\" list_add 0\")"));
    assert_non_null(strstr(h, "sympu_rec(\" list_put 1 %d\", sympu_naid[sympu_n][3][0])"));
    assert_non_null(
        strstr(h, "list_insert_at((list *)sympu_nd[sympu_npar[sympu_n]], *sympu_y0, (list *)sympu_nd[sympu_n])"));
    free(h);
}

/* A partial destructor (list_free_items: named like one, not the type's destructor list_free) as the
 * target: it released the list's items, the test frees the list's own block (made by list_new, `h`),
 * never with list_free (the items would be freed twice). */
static void test_emit_partial_destructor(void **state)
{
    (void)state;
    unit_test t;
    memset(&t, 0, sizeof t);
    t.name = "test_list_free_items_1";
    t.fn = unit_find_def(&u, "list_free_items");
    char *err = NULL;
    const char *rec = "obj 1 m 1 l_v_arg int\npre 1 - i 3\nobj 2 p 1 l list *\nmake 2 h list_new 1\npre 2 - p -1\n"
                      "call\npost 1 - i 3\npost 2 - p -1\ndone\n";
    assert_int_equal(unit_record_parse(rec, &t.rec, &err), 0);
    char *body = unit_emit_test_body(&u, &t);
    assert_non_null(body);
    assert_non_null(strstr(body, "list_free_items(l);\n"));
    assert_non_null(strstr(body, "    free((void *)l);\n"));
    assert_null(strstr(body, "list_free(l)"));
    free(body);
    unit_record_free(&t.rec);
    /* the type's destructor as the target released everything */
    memset(&t, 0, sizeof t);
    t.name = "test_list_free_1";
    t.fn = unit_find_def(&u, "list_free");
    assert_int_equal(unit_record_parse(rec, &t.rec, &err), 0);
    body = unit_emit_test_body(&u, &t);
    assert_non_null(body);
    assert_non_null(strstr(body, "list_free(l);\n"));
    assert_null(strstr(body, "free((void *)l)"));
    free(body);
    unit_record_free(&t.rec);
}

/* A target that returns its parameter's type (list_slice): when the result is a block the call allocated
 * and the input was not freed, both are released (clibs/buffer's buffer_slice leaked its input); when
 * the call gave the input back, it is released once, as the result. */
static void test_emit_copy_and_input_released(void **state)
{
    (void)state;
    unit_test t;
    memset(&t, 0, sizeof t);
    t.name = "test_list_slice_1";
    t.fn = unit_find_def(&u, "list_slice");
    assert_non_null(t.fn);
    char *err = NULL;
    const char *rec = "obj 1 m 1 l_v_arg int\npre 1 - i 3\nobj 2 p 1 l list *\nmake 2 h list_new 1\npre 2 - p -1\n"
                      "obj 3 p 2 from int\npre 3 - i 0\ncall\nretheap\nret p -1\ndone\n";
    assert_int_equal(unit_record_parse(rec, &t.rec, &err), 0);
    char *body = unit_emit_test_body(&u, &t);
    assert_non_null(body);
    if (getenv("SHOW")) fputs(body, stderr);
    assert_non_null(strstr(body, "    list_free(l);\n"));
    assert_non_null(strstr(body, "    list_free(ret);\n"));
    free(body);
    unit_record_free(&t.rec);
    /* the input given back: one release */
    const char *same = "obj 1 m 1 l_v_arg int\npre 1 - i 3\nobj 2 p 1 l list *\nmake 2 h list_new 1\npre 2 - p -1\n"
                       "obj 3 p 2 from int\npre 3 - i 0\ncall\nret p 2\ndone\n";
    assert_int_equal(unit_record_parse(same, &t.rec, &err), 0);
    body = unit_emit_test_body(&u, &t);
    assert_non_null(body);
    assert_null(strstr(body, "list_free(l);"));
    assert_non_null(strstr(body, "    list_free(ret);\n"));
    free(body);
    unit_record_free(&t.rec);
}

/* A made parameter the run turned NULL lazily after its construction (the target checks it): the
 * record drops the construction (unit_record_prune), and the test passes NULL and builds nothing. */
static void test_emit_lazy_null_made(void **state)
{
    (void)state;
    unit_test t;
    memset(&t, 0, sizeof t);
    t.name = "test_list_len_1";
    t.fn = unit_find_def(&u, "list_len");
    char *err = NULL;
    const char *rec = "obj 1 m 1 l_v_arg int\npre 1 - i 3\nobj 2 p 1 l const list *\nmake 2 h list_new 1\n"
                      "pre 2 - p 0\ncall\npost 1 - i 3\npost 2 - p 0\nret i 0\ndone\n";
    assert_int_equal(unit_record_parse(rec, &t.rec, &err), 0);
    unit_record_prune(&t.rec);
    assert_int_equal(t.rec.nmakes, 0);
    assert_int_equal(t.rec.nobjs, 1); /* the argument of list_new went with its call */
    char *body = unit_emit_test_body(&u, &t);
    assert_non_null(body);
    assert_null(strstr(body, "list_new("));
    assert_null(strstr(body, "list_free("));
    assert_non_null(strstr(body, "NULL"));
    free(body);
    unit_record_free(&t.rec);
}

/* A record with make and add lines becomes the call sequence, and the container is released. */
static void test_emit_sequence(void **state)
{
    (void)state;
    unit_test t;
    memset(&t, 0, sizeof t);
    t.name = "test_list_len_1";
    t.fn = unit_find_def(&u, "list_len");
    char *err = NULL;
    const char *rec = "obj 1 m 1 l_item_v_arg int\npre 1 - i 7\nobj 2 m 1 l_v_arg int\npre 2 - i 3\n"
                      "obj 3 p 1 l const list *\nmake 3 h list_new 2\nadd 3 1 0 list_add 0 list_new 1\npre 3 - p -1\n"
                      "call\npost 1 - i 7\npost 2 - i 3\npost 3 - p -1\nret i 1\ndone\n";
    assert_int_equal(unit_record_parse(rec, &t.rec, &err), 0);
    assert_int_equal(t.rec.nmakes, 2);
    assert_int_equal(t.rec.makes[1].kind, 'a');
    assert_string_equal(t.rec.makes[1].item, "list_new");
    char *body = unit_emit_test_body(&u, &t);
    assert_non_null(body);
    assert_non_null(strstr(body, "    const list *l = list_new(3);\n    list_add((list *)l, list_new(7));\n"));
    assert_non_null(strstr(body, "int ret = list_len(l);"));
    assert_non_null(strstr(body, "    list_free((list *)l);\n")); /* the parameter is a const list * */
    assert_null(strstr(body, "l_v_arg"));                         /* the arguments are inline */
    free(body);
    unit_record_free(&t.rec);
    /* a tree: item 1 (at position 0, a key-less adder's own argument) holds item 2; only l is released */
    memset(&t, 0, sizeof t);
    t.name = "test_list_len_2";
    t.fn = unit_find_def(&u, "list_len");
    rec = "obj 1 m 1 l_item_v_arg int\npre 1 - i 7\nobj 2 m 1 l_key_at_arg int\npre 2 - i 0\n"
          "obj 3 m 1 l_v_arg int\npre 3 - i 3\nobj 4 p 1 l const list *\nmake 4 h list_new 3\n"
          "add 4 2 1 list_add 0 list_new 1\nadd 4 1 0 list_insert_at 1 2 list_new 1\npre 4 - p -1\n"
          "call\npost 1 - i 7\npost 2 - i 0\npost 3 - i 3\npost 4 - p -1\nret i 1\ndone\n";
    assert_int_equal(unit_record_parse(rec, &t.rec, &err), 0);
    assert_int_equal(t.rec.nmakes, 3);
    assert_int_equal(t.rec.makes[2].node, 1);
    assert_int_equal(t.rec.makes[2].parent, 0);
    assert_int_equal((int)t.rec.makes[2].nadder, 1);
    body = unit_emit_test_body(&u, &t);
    assert_non_null(body);
    assert_non_null(strstr(body, "    const list *l = list_new(3);\n    list *l_1 = list_new(7);\n"
                                 "    list_add(l_1, list_new(7));\n    list_insert_at((list *)l, 0, l_1);\n"));
    assert_null(strstr(body, "list_free(l_1)"));
    free(body);
    unit_record_free(&t.rec);
    /* malformed add lines */
    assert_int_not_equal(unit_record_parse("add 4 1 1 list_add 0 list_new\n", &t.rec, &err), 0);
    free(err);
    err = NULL;
    unit_record_free(&t.rec);
    assert_int_not_equal(unit_record_parse("add 4 1 0 list_put 1\n", &t.rec, &err), 0);
    free(err);
    unit_record_free(&t.rec);
}

/* A container whose items are another type: dlist_push, which gives its node back, is a construction step whose node
 * argument dnode_new makes (its `void *` value filled from inputs); dlist_remove (a removal) and dlist_link (a struct
 * no producer makes, which would be built field by field) are not steps. */
static void test_modifier_struct_args(void **state)
{
    (void)state;
    unit_harness_opts o = opts();
    char buf[256];
    assert_string_equal(producers_of("dlist_push", 1, &o, buf, sizeof buf), "dnode_new");
    const ut_func *f = unit_find_def(&u, "dlist_count"), *m[UNIT_MAX_PRODUCERS];
    assert_int_equal(unit_param_modifiers(&u, &o, f, 0, m, UNIT_MAX_PRODUCERS), 1);
    assert_string_equal(m[0]->name, "dlist_push");
    char *h = harness_of(f, &o);
    assert_non_null(strstr(h, "int sympu_cfirst = sympu_nobjs + 1;"));
    const char *mk = strstr(h, "dnode_new(");
    const char *step = strstr(h, "sympu_dump_step(sympu_cfirst);");
    const char *push = strstr(h, "(void)dlist_push((dlist *)sympu_a0, sympu_c1);");
    assert_non_null(mk);
    assert_non_null(step);
    assert_non_null(push);
    assert_true(mk < step && step < push); /* the node made, the step's arguments recorded, then the push */
    free(h);
}

/* Modifiers: a parser made by parser_init is then maybe touched by parser_touch (public, `void f(T *)`,
 * not an initialiser or destructor); a list has none (list_add takes a list item: an adder; list_free_items
 * is named like a destructor; list_len is the target). The harness flips whether and which; the test calls
 * it after the declarations. */
static void test_modifiers(void **state)
{
    (void)state;
    unit_harness_opts o = opts();
    const ut_func *f = unit_find_def(&u, "parse"), *m[UNIT_MAX_PRODUCERS];
    assert_int_equal(unit_param_modifiers(&u, &o, f, 0, m, UNIT_MAX_PRODUCERS), 1);
    assert_string_equal(m[0]->name, "parser_touch");
    assert_int_equal(unit_param_modifiers(&u, &o, unit_find_def(&u, "list_len"), 0, m, UNIT_MAX_PRODUCERS), 0);
    o.raw_inputs = 1;
    assert_int_equal(unit_param_modifiers(&u, &o, f, 0, m, UNIT_MAX_PRODUCERS), 0);
    o.raw_inputs = 0;
    char *h = harness_of(f, &o), *err = NULL;
    assert_non_null(strstr(h, "sympu_choice(\"p.calls\", 2) == 1"));
    assert_non_null(strstr(h, "parser_touch((parser *)sympu_a0);"));
    assert_non_null(strstr(h, "sympu_rec(\"seq %d parser_touch\\n\", sympu_pobj);"));
    free(h);
    unit_test t;
    memset(&t, 0, sizeof t);
    t.name = "test_parse_1";
    t.fn = f;
    const char *rec = "obj 1 p 1 p parser *\nobj 2 - 1 p parser\nmake 2 i parser_init\nseq 1 parser_touch\n"
                      "obj 3 p 1 js const char *\nobj 4 as 2 js char\npre 1 - p 2\npre 2 .pos u 1\npre 2 .sup i -1\n"
                      "pre 3 - p 4\npre 4 [0] i 97\npre 4 [1] i 0\ncall\npost 1 - p 2\npost 2 .pos u 1\n"
                      "post 2 .sup i -1\npost 3 - p 4\nret i 1\ndone\n";
    assert_int_equal(unit_record_parse(rec, &t.rec, &err), 0);
    assert_int_equal(t.rec.makes[1].kind, 'c');
    char *body = unit_emit_test_body(&u, &t);
    assert_non_null(body);
    assert_non_null(strstr(body, "parser_init(&p_obj);\n"));
    assert_non_null(strstr(body, "    parser_touch(p);\n\n    int ret = parse(p, js);"));
    free(body);
    unit_record_free(&t.rec);
}

static void test_init_and_raw(void **state)
{
    (void)state;
    unit_harness_opts o = opts();
    const char *inits[] = {"parser=parser_touch", "str=strempty"};
    o.inits = inits;
    o.ninits = 2;
    char b[256];
    assert_string_equal(producers_of("parse", 0, &o, b, sizeof b), "&parser_touch");
    assert_string_equal(producers_of("strrange", 0, &o, b, sizeof b), "strempty");
    const char *bad[] = {"str=strrange"}; /* the wrong shape: none */
    o.inits = bad;
    o.ninits = 1;
    assert_string_equal(producers_of("strcat_", 0, &o, b, sizeof b), "");
    o = opts();
    o.raw_inputs = 1;
    assert_string_equal(producers_of("strrange", 0, &o, b, sizeof b), "");
    assert_string_equal(producers_of("parse", 0, &o, b, sizeof b), "");
}

static void test_destructor_consumed(void **state)
{
    (void)state;
    const ut_func *r = unit_find_def(&u, "strrange"), *c = unit_find_def(&u, "strcat_");
    const ut_func *d = unit_find_def(&u, "strdup_"), *fr = unit_find_def(&u, "strfree");
    const ut_func *p = unit_find_def(&u, "parse");
    assert_string_equal(unit_destructor(&u, r->params[0].type), "strfree");
    assert_null(unit_destructor(&u, p->params[0].type));
    /* of list_free_items and list_free (both void f(list *)), the name that ends with the word */
    assert_string_equal(unit_destructor(&u, unit_find_def(&u, "list_add")->params[0].type), "list_free");
    assert_false(unit_param_consumed(r, 0)); /* void, in place */
    assert_true(unit_param_consumed(c, 0));  /* returns str: the result replaces s */
    assert_false(unit_param_consumed(d, 0)); /* a const str is read */
    assert_true(unit_param_consumed(fr, 0)); /* a destructor */
}

/* A destructor that takes, besides the value, an argument of its producer (unit_destructor_for), and
 * the harness around such a producer: that argument zeroed and recorded before the call, a text with
 * its NUL, a failed construction ending the run, the made value NULL only lazily. */
static void test_destructor_shared(void **state)
{
    (void)state;
    const ut_func *mk = unit_find_def(&u, "ex_create"), *ev = unit_find_def(&u, "ex_eval");
    int extra[UNIT_MAX_DESTRUCTOR_ARGS] = {-9};
    const ut_func *d = unit_destructor_for(&u, ev->params[0].type, mk, extra, UNIT_MAX_DESTRUCTOR_ARGS);
    assert_non_null(d);
    assert_string_equal(d->name, "ex_destroy"); /* before ex_destroy_args: the name ends with the word */
    assert_int_equal(extra[0], 2);              /* ex_create's vars */
    /* without the producer, vars cannot be supplied (no NULL check of it): the one-argument rule */
    d = unit_destructor_for(&u, ev->params[0].type, NULL, extra, UNIT_MAX_DESTRUCTOR_ARGS);
    assert_non_null(d);
    assert_string_equal(d->name, "ex_destroy_args");
    assert_string_equal(unit_destructor(&u, ev->params[0].type), "ex_destroy_args");
    assert_true(unit_destructor_shared(mk->params[2].type, mk->params[2].type));
    assert_false(unit_destructor_shared(mk->params[0].type, mk->params[0].type)); /* a char *, no struct */
    unit_harness_opts o = opts();
    char *w = NULL, *err = NULL;
    const ut_func *t[1] = {ev};
    char *h = unit_harness(&u, t, 1, &o, &w, &err);
    assert_non_null(h);
    assert_non_null(strstr(h, "sympu_m2 = calloc(1, sizeof *sympu_m2);")); /* vars zeroed, not filled */
    assert_null(strstr(h, "(void *)&sympu_m2, \"e_vars\""));
    assert_non_null(strstr(h, "sympu_dump_early(sympu_mfirst);"));
    assert_non_null(strstr(h, "malloc(sympu_mn0 + 5);")); /* the text, 4 bytes past its length and the NUL */
    assert_non_null(
        strstr(h, "size_t sympu_mn0_fill = (size_t)sym_concrete(sympu_mn0);")); /* no branch on the length */
    assert_non_null(strstr(h, "sympu_mb0[sympu_mn0_fill + 4] = 0;"));
    assert_non_null(strstr(h, "sympu_text_fit((const char *)sympu_mb0, sympu_mn0, 4)"));
    assert_non_null(strstr(h, "sym_assume(sympu_a0 != NULL);"));
    assert_non_null(strstr(h, "sympu_lazy_null((uintptr_t)sympu_a0, \"e\")"));
    free(h);
    free(w);
}

/* A returned array's count out-parameter (unit_result_count) and its (array, count) destructor. */
static void test_array_result(void **state)
{
    (void)state;
    const ut_func *sp = unit_find_def(&u, "strsplit"), *le = unit_find_def(&u, "toks");
    assert_int_equal(unit_result_count(sp), 1);
    assert_int_equal(unit_result_count(le), -1);                           /* `int *err` is no count */
    assert_int_equal(unit_result_count(unit_find_def(&u, "strjoin")), -1); /* no count out-parameter */
    assert_string_equal(unit_array_destructor(&u, sp->type->ret), "strfreesplit");
    assert_null(unit_array_destructor(&u, le->type->ret));
    /* str's length accessor: the shortest name with "len"; a plain char * has none */
    const ut_func *acc = unit_length_accessor(&u, sp->type->ret->pointee);
    assert_non_null(acc);
    assert_string_equal(acc->name, "strlen_");
    assert_null(unit_length_accessor(&u, unit_find_def(&u, "plain")->type->ret));
    /* the single-object destructor of str is not the array's, nor the reverse */
    assert_null(unit_destructor(&u, sp->type->ret));
}

static void test_harness_choice(void **state)
{
    (void)state;
    unit_harness_opts o = opts();
    const ut_func *t[] = {unit_find_def(&u, "strrange"), unit_find_def(&u, "parse")};
    char *w = NULL, *err = NULL;
    char *h = unit_harness(&u, t, 2, &o, &w, &err);
    assert_non_null(h);
    assert_non_null(strstr(h, "sympu_choice(\"s.make\", 3)"));
    assert_non_null(strstr(h, "make %d %c strnew %d"));
    assert_non_null(strstr(h, "= strnew(sympu_m0);"));
    /* strnewlen(p, len): p a symbolic array of bytes, len its element count */
    assert_non_null(strstr(h, "size_t sympu_mn0 = sym_size_t(\"len\");"));
    assert_non_null(strstr(h, "sympu_m1 = (size_t)sympu_mn0;"));
    assert_non_null(strstr(h, "= strnewlen(sympu_m0, sympu_m1);"));
    assert_non_null(strstr(h, "make %d i parser_init"));
    assert_non_null(strstr(h, "parser_init(sympu_o);"));
    free(h);
    free(w);
    /* --init naming a function that cannot produce the type: said, and field by field */
    const char *bad[] = {"parser=strrange"};
    o.inits = bad;
    o.ninits = 1;
    h = unit_harness(&u, t, 2, &o, &w, &err);
    assert_non_null(h);
    assert_non_null(strstr(w, "parse: parameter p: --init parser=strrange: no such function, or it cannot produce"));
    assert_null(strstr(h, "parser_init(sympu_o)"));
    free(h);
    free(w);
    o.inits = NULL;
    o.ninits = 0;
    o.raw_inputs = 1;
    h = unit_harness(&u, t, 2, &o, &w, &err);
    assert_non_null(h);
    assert_null(strstr(h, "= strnew("));
    assert_null(strstr(h, "parser_init(sympu_o)"));
    assert_null(strstr(h, ".make"));
    free(h);
    free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_discovery),
        cmocka_unit_test(test_init_and_raw),
        cmocka_unit_test(test_adders),
        cmocka_unit_test(test_modifiers),
        cmocka_unit_test(test_modifier_struct_args),
        cmocka_unit_test(test_emit_sequence),
        cmocka_unit_test(test_emit_partial_destructor),
        cmocka_unit_test(test_emit_copy_and_input_released),
        cmocka_unit_test(test_emit_lazy_null_made),
        cmocka_unit_test(test_destructor_consumed),
        cmocka_unit_test(test_destructor_shared),
        cmocka_unit_test(test_array_result),
        cmocka_unit_test(test_harness_choice),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
