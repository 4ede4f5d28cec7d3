/* test_emit_suite.c: suite writer output parses back (inputs, types, names), numbering, stale-file clearing, no temp files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emit/emit.h"

/* ---- helpers ---- */

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = malloc(1 << 16);
    size_t n = fread(buf, 1, (1 << 16) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void spit(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Decode &lt; &gt; &amp; &quot; &apos; in s[0..n) into out. */
static void unescape(const char *s, size_t n, char *out)
{
    static const char *ents[][2] = {{"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"}, {"&quot;", "\""}, {"&apos;", "'"}};
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        int hit = 0;
        for (size_t k = 0; k < 5 && !hit; k++) {
            size_t l = strlen(ents[k][0]);
            if (i + l <= n && strncmp(s + i, ents[k][0], l) == 0) {
                out[o++] = ents[k][1][0];
                i += l;
                hit = 1;
            }
        }
        if (!hit) out[o++] = s[i++];
    }
    out[o] = '\0';
}

typedef struct parsed_input {
    char type[64], variable[64], value[64];
    int has_variable;
} parsed_input;

/* Parse the <input ...>value</input> elements of a testcase document. Returns their
 * number; fails the test on malformed input. */
static int parse_inputs(const char *xml, parsed_input *out, int max)
{
    int n = 0;
    const char *p = xml;
    while ((p = strstr(p, "<input")) != NULL) {
        assert_true(n < max);
        parsed_input *in = &out[n++];
        memset(in, 0, sizeof *in);
        const char *gt = strchr(p, '>');
        assert_non_null(gt);
        const char *attrs[] = {"type=\"", "variable=\""};
        char *dst[] = {in->type, in->variable};
        for (int a = 0; a < 2; a++) {
            const char *q = strstr(p, attrs[a]);
            if (!q || q > gt) continue;
            q += strlen(attrs[a]);
            const char *e = strchr(q, '"');
            assert_true(e && e < gt);
            unescape(q, (size_t)(e - q), dst[a]);
            if (a == 1) in->has_variable = 1;
        }
        const char *end = strstr(gt, "</input>");
        assert_non_null(end);
        unescape(gt + 1, (size_t)(end - gt - 1), in->value);
        p = end;
    }
    return n;
}

/* Entries of dir whose name starts with '.', other than . and .. */
static int hidden_files(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    closedir(d);
    return n;
}

typedef struct fixture {
    char dir[64];
    char prog[128];
    char path[256];
} fixture;

static int setup(void **state)
{
    fixture *fx = calloc(1, sizeof *fx);
    strcpy(fx->dir, "/tmp/sympath-suite-XXXXXX");
    if (!mkdtemp(fx->dir)) return -1;
    snprintf(fx->prog, sizeof fx->prog, "%s/prog.c", fx->dir);
    spit(fx->prog, "int main(void) { return 0; }\n");
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fx->dir);
    int rc = system(cmd);
    free(fx);
    return rc;
}

static const char *at(fixture *fx, const char *rel)
{
    snprintf(fx->path, sizeof fx->path, "%s/out/%s", fx->dir, rel);
    return fx->path;
}

static suite_writer *open_suite(fixture *fx)
{
    char out[128], *err = NULL;
    snprintf(out, sizeof out, "%s/out", fx->dir);
    suite_meta meta = {fx->prog, NULL, "main", NULL, "sympath test"};
    suite_writer *w = suite_open(out, &meta, &err);
    if (!w) fail_msg("suite_open: %s", err ? err : "?");
    return w;
}

/* ---- tests ---- */

static void test_metadata(void **state)
{
    fixture *fx = *state;
    suite_writer *w = open_suite(fx);
    char *xml = slurp(at(fx, "tests/metadata.xml"));
    assert_non_null(xml);
    assert_non_null(strstr(xml,
                           "<!DOCTYPE test-metadata PUBLIC \"+//IDN sosy-lab.org//DTD test-format "
                           "test-metadata 1.1//EN\" \"https://sosy-lab.org/test-format/test-metadata-1.1.dtd\">\n"));
    char hex[65], want[128];
    assert_int_equal(sha256_file_hex(fx->prog, hex), 0);
    snprintf(want, sizeof want, "<programhash>%s</programhash>", hex);
    assert_non_null(strstr(xml, want));
    /* every element, in DTD order */
    const char *order[] = {"<sourcecodelang>C</sourcecodelang>",
                           "<producer>sympath test</producer>",
                           "<specification>COVER( init(main()), FQL(COVER EDGES(@DECISIONEDGE)) )</specification>",
                           "<programfile>",
                           "<programhash>",
                           "<entryfunction>main</entryfunction>",
                           "<architecture>64bit</architecture>",
                           "<creationtime>20",
                           "</test-metadata>"};
    const char *p = xml;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        const char *q = strstr(p, order[i]);
        if (!q) fail_msg("missing or out of order: %s", order[i]);
        p = q;
    }
    free(xml);
    assert_int_equal(hidden_files(at(fx, "tests")), 0);
    suite_close(w);
}

static void test_missing_program(void **state)
{
    fixture *fx = *state;
    char out[128], *err = NULL;
    snprintf(out, sizeof out, "%s/out", fx->dir);
    suite_meta meta = {"/nonexistent/prog.c", NULL, "main", NULL, "sympath"};
    assert_null(suite_open(out, &meta, &err));
    assert_non_null(err);
    assert_non_null(strstr(err, "/nonexistent/prog.c"));
    free(err);
    /* a given hash is used as is, the file is not read */
    meta.program_hash = "00ff";
    suite_writer *w = suite_open(out, &meta, &err);
    assert_non_null(w);
    char *xml = slurp(at(fx, "tests/metadata.xml"));
    assert_non_null(strstr(xml, "<programhash>00ff</programhash>"));
    free(xml);
    suite_close(w);
}

static void test_tests_parse_back(void **state)
{
    fixture *fx = *state;
    suite_writer *w = open_suite(fx);
    uint64_t values[] = {0xfffffff6u, 200, 1, 0x3ff0000000000000ull, 0x1000};
    uint8_t types[] = {IT_INT, IT_UCHAR, IT_BOOL, IT_DOUBLE, IT_POINTER};
    const char *names[] = {"x", "a<b&\"c'>", NULL, "", "p"};
    test_case tc = {5, values, types, names, 0};
    char *err = NULL;
    assert_int_equal(suite_write_test(w, &tc, "covers 3 -- new --", &err), 1);
    test_case tc2 = {1, values, types, NULL, 1};
    assert_int_equal(suite_write_test(w, &tc2, NULL, &err), 2);
    test_case empty = {0, NULL, NULL, NULL, 0};
    assert_int_equal(suite_write_test(w, &empty, NULL, &err), 3);

    char *xml = slurp(at(fx, "tests/test-00001.xml"));
    assert_non_null(xml);
    assert_non_null(strstr(xml, "<!DOCTYPE testcase PUBLIC \"+//IDN sosy-lab.org//DTD test-format testcase "
                                "1.1//EN\" \"https://sosy-lab.org/test-format/testcase-1.1.dtd\">\n"));
    assert_non_null(strstr(xml, "<testcase>"));
    /* a test whose run ended in an error says so (sympath replay expects it to fail) */
    char *xml2 = slurp(at(fx, "tests/test-00002.xml"));
    assert_non_null(xml2);
    assert_non_null(strstr(xml2, "<testcase coversError=\"true\">"));
    free(xml2);
    /* the comment is kept and contains no "--" */
    const char *c = strstr(xml, "<!--");
    assert_non_null(c);
    const char *ce = strstr(c + 4, "-->");
    assert_non_null(ce);
    for (const char *q = c + 4; q < ce; q++) assert_false(q[0] == '-' && q[1] == '-');
    assert_non_null(strstr(c, "covers 3"));

    parsed_input in[8];
    assert_int_equal(parse_inputs(xml, in, 8), 5);
    const char *want_vals[] = {"-10", "200", "1", "0x1p+0", "0x1000"};
    const char *want_types[] = {"int", "unsigned char", "_Bool", "double", "void *"};
    for (int i = 0; i < 5; i++) {
        assert_string_equal(in[i].value, want_vals[i]);
        assert_string_equal(in[i].type, want_types[i]);
    }
    assert_string_equal(in[0].variable, "x");
    assert_string_equal(in[1].variable, "a<b&\"c'>");
    assert_false(in[2].has_variable); /* NULL name: no attribute */
    assert_false(in[3].has_variable); /* empty name: no attribute */
    assert_string_equal(in[4].variable, "p");
    free(xml);

    xml = slurp(at(fx, "tests/test-00002.xml"));
    assert_int_equal(parse_inputs(xml, in, 8), 1);
    assert_string_equal(in[0].value, "-10");
    assert_null(strstr(xml, "<!--"));
    free(xml);
    xml = slurp(at(fx, "tests/test-00003.xml"));
    assert_int_equal(parse_inputs(xml, in, 8), 0);
    assert_non_null(strstr(xml, "<testcase>\n</testcase>\n"));
    free(xml);

    assert_false(exists(at(fx, "tests/test-00004.xml")));
    assert_int_equal(hidden_files(at(fx, "tests")), 0);
    suite_close(w);
}

static void test_errors(void **state)
{
    fixture *fx = *state;
    suite_writer *w = open_suite(fx);
    uint64_t values[] = {5};
    uint8_t types[] = {IT_CHAR};
    test_case tc = {1, values, types, NULL, 0};
    char *err = NULL;
    assert_int_equal(suite_write_error(w, &tc, "reach_error() called\nat prog.c:12", &err), 1);
    assert_int_equal(suite_write_error(w, &tc, "second\n", &err), 2);

    char *xml = slurp(at(fx, "errors/error-001.xml"));
    assert_non_null(xml);
    assert_non_null(strstr(xml, "<testcase coversError=\"true\">"));
    parsed_input in[2];
    assert_int_equal(parse_inputs(xml, in, 2), 1);
    assert_string_equal(in[0].value, "5");
    assert_string_equal(in[0].type, "char");
    free(xml);
    char *txt = slurp(at(fx, "errors/error-001.txt"));
    assert_string_equal(txt, "reach_error() called\nat prog.c:12\n");
    free(txt);
    txt = slurp(at(fx, "errors/error-002.txt"));
    assert_string_equal(txt, "second\n");
    free(txt);
    assert_string_equal(suite_errors_dir(w), at(fx, "errors"));
    assert_string_equal(suite_tests_dir(w), at(fx, "tests"));
    assert_int_equal(hidden_files(at(fx, "errors")), 0);
    suite_close(w);
}

static void test_stale_files_cleared(void **state)
{
    fixture *fx = *state;
    suite_writer *w = open_suite(fx);
    uint64_t v[] = {1};
    uint8_t t[] = {IT_INT};
    test_case tc = {1, v, t, NULL, 0};
    char *err = NULL;
    for (int i = 1; i <= 3; i++) assert_int_equal(suite_write_test(w, &tc, NULL, &err), i);
    assert_int_equal(suite_write_error(w, &tc, "e", &err), 1);
    suite_close(w);
    /* files of other owners, and a leftover temp file of ours */
    spit(at(fx, "tests/notes.txt"), "keep");
    spit(at(fx, "tests/test-old.json"), "keep");
    spit(at(fx, "errors/README"), "keep");
    spit(at(fx, "tests/.test-00009.xml.tmpAbCdEf"), "junk");

    w = open_suite(fx);
    assert_false(exists(at(fx, "tests/test-00001.xml")));
    assert_false(exists(at(fx, "tests/test-00003.xml")));
    assert_false(exists(at(fx, "errors/error-001.xml")));
    assert_false(exists(at(fx, "errors/error-001.txt")));
    assert_false(exists(at(fx, "tests/.test-00009.xml.tmpAbCdEf")));
    assert_true(exists(at(fx, "tests/notes.txt")));
    assert_true(exists(at(fx, "tests/test-old.json")));
    assert_true(exists(at(fx, "errors/README")));
    assert_true(exists(at(fx, "tests/metadata.xml")));
    /* numbering restarts */
    assert_int_equal(suite_write_test(w, &tc, NULL, &err), 1);
    assert_int_equal(suite_write_error(w, &tc, "e", &err), 1);
    suite_close(w);
}

static void test_write_failure(void **state)
{
    fixture *fx = *state;
    suite_writer *w = open_suite(fx);
    uint64_t v[] = {1};
    uint8_t t[] = {IT_INT};
    test_case tc = {1, v, t, NULL, 0};
    char *err = NULL;
    /* remove the directory under the writer: the write fails with a message */
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", at(fx, "tests"));
    assert_int_equal(system(cmd), 0);
    assert_int_equal(suite_write_test(w, &tc, NULL, &err), -1);
    assert_non_null(err);
    assert_non_null(strstr(err, "test-00001.xml"));
    free(err);
    /* the number was not used up */
    assert_int_equal(mkdir(at(fx, "tests"), 0777), 0);
    assert_int_equal(suite_write_test(w, &tc, NULL, &err), 1);
    suite_close(w);
}

static void test_atomic_write(void **state)
{
    fixture *fx = *state;
    char path[160];
    snprintf(path, sizeof path, "%s/f.txt", fx->dir);
    assert_int_equal(write_file_atomic(path, "one", 3), 0);
    assert_int_equal(write_file_atomic(path, "second", 6), 0); /* replaces */
    char *s = slurp(path);
    assert_string_equal(s, "second");
    free(s);
    assert_int_equal(hidden_files(fx->dir), 0);
    snprintf(path, sizeof path, "%s/nodir/f.txt", fx->dir);
    assert_int_equal(write_file_atomic(path, "x", 1), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_metadata, setup, teardown),
        cmocka_unit_test_setup_teardown(test_missing_program, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tests_parse_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stale_files_cleared, setup, teardown),
        cmocka_unit_test_setup_teardown(test_write_failure, setup, teardown),
        cmocka_unit_test_setup_teardown(test_atomic_write, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
