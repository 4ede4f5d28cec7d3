/* test_instrument_mutate.c: build_mutants on small C files: which mutants (&& and || too), where, and that SYMPATH_MUTANT (one id or a batch) selects exactly one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "instrument/instrument.h"

#ifndef SYMPATH_LIB_DIR
#define SYMPATH_LIB_DIR "build/lib"
#endif
#ifndef SYMPATH_CLANG
#define SYMPATH_CLANG "clang-14"
#endif

static char dir[64], src[128], exe[128];

/* clamp is mutated, twice is not: main prints clamp(x) and twice(x) for x from argv */
static const char *prog = "#include <stdio.h>\n"
                          "#include <stdlib.h>\n"
                          "int clamp(int x) {\n"
                          "    if (x < 10) return x + 1;\n" /* line 4 */
                          "    return 10;\n"                /* line 5 */
                          "}\n"
                          "int twice(int x) { return x * 2; }\n"
                          "int main(int argc, char **argv) {\n"
                          "    int x = argc > 1 ? atoi(argv[1]) : 0;\n"
                          "    printf(\"%d %d\\n\", clamp(x), twice(x));\n"
                          "    return 0;\n"
                          "}\n";

/* && and || in conditions: band is mutated */
static const char *prog_logic = "#include <stdio.h>\n"
                                "#include <stdlib.h>\n"
                                "int band(int x, int y) {\n"
                                "    if (x > 0 && y > 0) return 1;\n"   /* line 4 */
                                "    if (x < -5 || y < -5) return 2;\n" /* line 5 */
                                "    return 0;\n"
                                "}\n"
                                "int vand(int x, int y) { return x > 0 && y > 0; }\n"             /* line 8 */
                                "int vor(int x, int y) { int r = x < -5 || y < -5; return r; }\n" /* line 9 */
                                "int main(int argc, char **argv) {\n"
                                "    int x = atoi(argv[1]), y = atoi(argv[2]);\n"
                                "    if (argc > 3) printf(\"%d %d\\n\", vand(x, y), vor(x, y));\n"
                                "    else printf(\"%d\\n\", band(x, y));\n"
                                "    return 0;\n"
                                "}\n";

static int setup_text(const char *text)
{
    strcpy(dir, "/tmp/sympath-mut-XXXXXX");
    if (!mkdtemp(dir)) return -1;
    snprintf(src, sizeof src, "%s/prog.c", dir);
    snprintf(exe, sizeof exe, "%s/prog.exe", dir);
    FILE *f = fopen(src, "w");
    if (!f) return -1;
    fputs(text, f);
    fclose(f);
    return 0;
}

static int setup(void **state)
{
    (void)state;
    return setup_text(prog);
}

static int setup_logic(void **state)
{
    (void)state;
    return setup_text(prog_logic);
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* The output of exe X with SYMPATH_MUTANT=m (NULL: unset), into out. */
static void run_with(const char *m, const char *x, char *out, size_t cap)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s%s%s '%s' %s", m ? "SYMPATH_MUTANT='" : "", m ? m : "", m ? "'" : "", exe, x);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, cap - 1, p);
    out[n] = 0;
    pclose(p);
}

static int build_fn(const char *fn, mutant_desc **v, size_t *n)
{
    const char *compile[] = {SYMPATH_CLANG, "-w", "-g", "-O0", "-DSYMPATH_UNIT_MUTANTS"};
    const char *sources[] = {src};
    const char *link[] = {SYMPATH_LIB_DIR "/replay.c"};
    const char *fns[] = {fn};
    mutant_build_opts o = {compile, 5, sources, 1, link, 1, fns, 1, 0, dir, exe};
    char *err = NULL;
    int rc = build_mutants(&o, v, n, &err);
    if (rc) print_message("build_mutants: %s\n", err ? err : "?");
    free(err);
    return rc;
}

static int build(mutant_desc **v, size_t *n) { return build_fn("clamp", v, n); }

static void test_mutants_listed(void **state)
{
    (void)state;
    mutant_desc *v = NULL;
    size_t n = 0;
    assert_int_equal(build(&v, &n), 0);
    /* x < 10: < -> <=, 10 -> 11, 10 -> 0; x + 1: + -> -, 1 -> 2, 1 -> 0; return 10 (a store at -O0): 10 -> 11 */
    int rel = 0, add = 0, c10 = 0;
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(v[i].function, "clamp"); /* twice and main are not mutated */
        assert_true(v[i].line == 4 || v[i].line == 5 || v[i].line == 3);
        rel += !strcmp(v[i].what, "relational < -> <=") && v[i].line == 4;
        add += !strcmp(v[i].what, "arithmetic + -> -") && v[i].line == 4;
        c10 += !strcmp(v[i].what, "constant 10 -> 11");
    }
    assert_int_equal(rel, 1);
    assert_int_equal(add, 1);
    assert_true(c10 >= 2); /* in the comparison and in the returned value */
    mutant_descs_free(v, n);
}

static void test_mutant_selected(void **state)
{
    (void)state;
    mutant_desc *v = NULL;
    size_t n = 0;
    assert_int_equal(build(&v, &n), 0);
    char out[256], id[24];
    run_with(NULL, "10", out, sizeof out);
    assert_string_equal(out, "10 20\n"); /* no mutant: the original */
    run_with("-1", "10", out, sizeof out);
    assert_string_equal(out, "10 20\n");
    for (size_t i = 0; i < n; i++) {
        snprintf(id, sizeof id, "%zu", i);
        run_with(id, "10", out, sizeof out);
        if (!strcmp(v[i].what, "relational < -> <=") && v[i].line == 4) assert_string_equal(out, "11 20\n");
        if (!strcmp(v[i].what, "constant 10 -> 11") && v[i].line == 4) assert_string_equal(out, "11 20\n");
        if (!strcmp(v[i].what, "constant 10 -> 11") && v[i].line == 5) assert_string_equal(out, "11 20\n");
        if (!strcmp(v[i].what, "arithmetic + -> -")) {
            run_with(id, "3", out, sizeof out);
            assert_string_equal(out, "2 6\n"); /* 3 - 1; twice untouched */
        }
    }
    mutant_descs_free(v, n);
}

/* list:ID,... forks a child per mutant: each writes RECORD.ID (here nothing: no harness) and the parent
 * writes the wait statuses to RECORD.status, in order */
static void test_mutant_batch(void **state)
{
    (void)state;
    mutant_desc *v = NULL;
    size_t n = 0;
    assert_int_equal(build(&v, &n), 0);
    assert_true(n >= 3);
    char cmd[512], rec[128], path[160];
    snprintf(rec, sizeof rec, "%s/rec", dir);
    snprintf(cmd, sizeof cmd, "SYMPATH_UNIT_RECORD='%s' SYMPATH_MUTANT='list:-1,0,2' '%s' 10 > '%s/out.txt'", rec, exe,
             dir);
    assert_int_equal(system(cmd), 0);
    snprintf(path, sizeof path, "%s.status", rec);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    long id[3];
    int st[3];
    for (int i = 0; i < 3; i++) assert_int_equal(fscanf(f, "%ld %d", &id[i], &st[i]), 2);
    fclose(f);
    assert_int_equal(id[0], -1);
    assert_int_equal(id[1], 0);
    assert_int_equal(id[2], 2);
    for (int i = 0; i < 3; i++) assert_true(WIFEXITED(st[i]) && WEXITSTATUS(st[i]) == 0);
    mutant_descs_free(v, n);
}

/* One logic mutant's check: its line, then the program's output for each input with the mutant on. */
typedef struct logic_case {
    const char *what; /* "logical && -> ||" or "logical || -> &&" */
    unsigned line;
    const char *in[2], *out[2];
} logic_case;

/* The mutants v[0..n) hold exactly one of each case, and each behaves as its case says. */
static void check_logic(const mutant_desc *v, size_t n, const logic_case *cases, size_t ncases)
{
    char out[64], id[24];
    for (size_t c = 0; c < ncases; c++) {
        int found = 0;
        for (size_t i = 0; i < n; i++) {
            if (strcmp(v[i].what, cases[c].what)) continue;
            found++;
            assert_int_equal(v[i].line, cases[c].line);
            snprintf(id, sizeof id, "%zu", i);
            for (int k = 0; k < 2; k++) {
                run_with(id, cases[c].in[k], out, sizeof out);
                assert_string_equal(out, cases[c].out[k]);
            }
        }
        assert_int_equal(found, 1);
    }
}

/* `if (a && b)` and `if (a || b)` are two branches at -O0: the mutant takes the other operator's way */
static void test_logic_mutants(void **state)
{
    (void)state;
    mutant_desc *v = NULL;
    size_t n = 0;
    assert_int_equal(build_fn("band", &v, &n), 0);
    char out[64];
    run_with(NULL, "1 -1", out, sizeof out);
    assert_string_equal(out, "0\n");
    static const logic_case cases[] = {
        {"logical && -> ||", 4, {"1 -1", "-1 -1"}, {"1\n", "0\n"}}, /* x > 0 || y > 0 */
        {"logical || -> &&", 5, {"-6 0", "-6 -6"}, {"0\n", "2\n"}}, /* x < -5 && y < -5 */
    };
    check_logic(v, n, cases, 2);
    run_with("-1", "-6 0", out, sizeof out);
    assert_string_equal(out, "2\n");
    mutant_descs_free(v, n);
}

/* && and || as values (`return x > 0 && y > 0;`, `int r = a || b;`): a phi at -O0, mutated too. */
static void test_logic_value_mutants(void **state)
{
    (void)state;
    mutant_desc *v = NULL;
    size_t n = 0;
    const char *compile[] = {SYMPATH_CLANG, "-w", "-g", "-O0", "-DSYMPATH_UNIT_MUTANTS"};
    const char *sources[] = {src};
    const char *link[] = {SYMPATH_LIB_DIR "/replay.c"};
    const char *fns[] = {"vand", "vor"};
    mutant_build_opts o = {compile, 5, sources, 1, link, 1, fns, 2, 0, dir, exe};
    char *err = NULL;
    assert_int_equal(build_mutants(&o, &v, &n, &err), 0);
    free(err);
    char out[64];
    run_with(NULL, "1 -1 v", out, sizeof out);
    assert_string_equal(out, "0 0\n");
    static const logic_case cases[] = {
        {"logical && -> ||", 8, {"1 -1 v", "-1 -1 v"}, {"1 0\n", "0 0\n"}}, /* x > 0 || y > 0 */
        {"logical || -> &&", 9, {"-6 0 v", "-6 -6 v"}, {"0 0\n", "0 1\n"}}, /* x < -5 && y < -5 */
    };
    check_logic(v, n, cases, 2);
    run_with(NULL, "-6 0 v", out, sizeof out);
    assert_string_equal(out, "0 1\n");
    mutant_descs_free(v, n);
}

int main(void)
{
    if (access(SYMPATH_LIB_DIR "/replay.c", R_OK) != 0) {
        print_message("skipped: " SYMPATH_LIB_DIR "/replay.c is not built\n");
        return 0;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_mutants_listed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mutant_selected, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mutant_batch, setup, teardown),
        cmocka_unit_test_setup_teardown(test_logic_mutants, setup_logic, teardown),
        cmocka_unit_test_setup_teardown(test_logic_value_mutants, setup_logic, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
