/* test_emit_replaylib.c: the replay library (src/replay/rt/replay.c) reads back what the suite writer emits, compiled natively with gcc. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "emit/emit.h"

#ifndef SYMPATH_SOURCE_DIR
#define SYMPATH_SOURCE_DIR "."
#endif

/* The probe reads one input of each kind named on its command line and prints
 * it in a fixed format; "assume", "reach", "assert" exercise the other entry points. */
static const char PROBE[] =
    "#include <stdio.h>\n#include <string.h>\n#include \"sympath.h\"\n"
    "int __VERIFIER_nondet_int(void); unsigned __VERIFIER_nondet_uint(void);\n"
    "char __VERIFIER_nondet_char(void); unsigned char __VERIFIER_nondet_uchar(void);\n"
    "short __VERIFIER_nondet_short(void); long __VERIFIER_nondet_long(void);\n"
    "unsigned long __VERIFIER_nondet_ulong(void); _Bool __VERIFIER_nondet_bool(void);\n"
    "float __VERIFIER_nondet_float(void); double __VERIFIER_nondet_double(void);\n"
    "void *__VERIFIER_nondet_pointer(void); unsigned __int128 __VERIFIER_nondet_uint128(void);\n"
    "void __VERIFIER_assume(int); void reach_error(void);\n"
    "int main(int argc, char **argv) {\n"
    "  for (int i = 1; i < argc; i++) { const char *k = argv[i];\n"
    "    if (!strcmp(k, \"int\")) printf(\"%d\\n\", __VERIFIER_nondet_int());\n"
    "    else if (!strcmp(k, \"uint\")) printf(\"%u\\n\", __VERIFIER_nondet_uint());\n"
    "    else if (!strcmp(k, \"char\")) printf(\"%d\\n\", __VERIFIER_nondet_char());\n"
    "    else if (!strcmp(k, \"uchar\")) printf(\"%d\\n\", __VERIFIER_nondet_uchar());\n"
    "    else if (!strcmp(k, \"short\")) printf(\"%d\\n\", __VERIFIER_nondet_short());\n"
    "    else if (!strcmp(k, \"long\")) printf(\"%ld\\n\", __VERIFIER_nondet_long());\n"
    "    else if (!strcmp(k, \"ulong\")) printf(\"%lu\\n\", __VERIFIER_nondet_ulong());\n"
    "    else if (!strcmp(k, \"bool\")) printf(\"%d\\n\", __VERIFIER_nondet_bool());\n"
    "    else if (!strcmp(k, \"float\")) printf(\"%a\\n\", __VERIFIER_nondet_float());\n"
    "    else if (!strcmp(k, \"double\")) printf(\"%a\\n\", __VERIFIER_nondet_double());\n"
    "    else if (!strcmp(k, \"pointer\")) printf(\"%p\\n\", __VERIFIER_nondet_pointer());\n"
    "    else if (!strcmp(k, \"i8\")) printf(\"%d\\n\", sym_i8(\"n\"));\n"
    "    else if (!strcmp(k, \"u16\")) printf(\"%u\\n\", sym_u16(\"n\"));\n"
    "    else if (!strcmp(k, \"u64\")) printf(\"%llu\\n\", (unsigned long long)sym_u64(\"n\"));\n"
    "    else if (!strcmp(k, \"bytes3\")) { unsigned char b[3]; sym_bytes(b, 3, \"b\");\n"
    "                                     printf(\"%d %d %d\\n\", b[0], b[1], b[2]); }\n"
    "    else if (!strcmp(k, \"u128\")) { unsigned __int128 v = __VERIFIER_nondet_uint128();\n"
    "       printf(\"%016llx%016llx\\n\", (unsigned long long)(v >> 64), (unsigned long long)v); }\n"
    "    else if (!strcmp(k, \"assume\")) { __VERIFIER_assume(__VERIFIER_nondet_int()); puts(\"past\"); }\n"
    "    else if (!strcmp(k, \"reach\")) reach_error();\n"
    "    else if (!strcmp(k, \"assert\")) sym_assert(sym_int(\"a\"));\n"
    "  }\n  return 0;\n}\n";

typedef struct fixture {
    char dir[64];
    char prog[128];
    char prog2[128];
    char path[256];
} fixture;

static int write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fputs(text, f);
    return fclose(f);
}

static int compile(fixture *fx, const char *src, const char *out)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "gcc -O0 -w -I%s/include %s %s/src/replay/rt/replay.c -o %s", SYMPATH_SOURCE_DIR, src,
             SYMPATH_SOURCE_DIR, out);
    return system(cmd);
}

static int setup(void **state)
{
    fixture *fx = calloc(1, sizeof *fx);
    strcpy(fx->dir, "/tmp/sympath-replaylib-XXXXXX");
    if (!mkdtemp(fx->dir)) return -1;
    char src[160];
    snprintf(src, sizeof src, "%s/probe.c", fx->dir);
    snprintf(fx->prog, sizeof fx->prog, "%s/probe", fx->dir);
    if (write_text(src, PROBE) || compile(fx, src, fx->prog)) return -1;
    /* a program with its own reach_error: it must win over the weak one */
    snprintf(src, sizeof src, "%s/own.c", fx->dir);
    snprintf(fx->prog2, sizeof fx->prog2, "%s/own", fx->dir);
    if (write_text(src, "#include <stdlib.h>\nvoid reach_error(void) { exit(42); }\n"
                        "int main(void) { reach_error(); return 0; }\n") ||
        compile(fx, src, fx->prog2))
        return -1;
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

/* Run the probe with SYMPATH_TESTCASE=testcase (NULL: unset) and the given
 * arguments; its stdout goes to *out (static buffer). Returns the wait status. */
static int run_probe(const char *prog, const char *testcase, const char *args, char **out)
{
    static char buf[4096];
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s%s%s %s %s 2>/dev/null", testcase ? "SYMPATH_TESTCASE='" : "env -u SYMPATH_TESTCASE",
             testcase ? testcase : "", testcase ? "'" : "", prog, args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(buf, 1, sizeof buf - 1, p);
    buf[n] = '\0';
    *out = buf;
    return pclose(p);
}

/* popen's shell may report a child's death by signal as exit status 128+sig. */
static int died_of(int st, int sig)
{
    return (WIFSIGNALED(st) && WTERMSIG(st) == sig) || (WIFEXITED(st) && WEXITSTATUS(st) == 128 + sig);
}

/* Every formatted value written by the suite writer reads back as the same value. */
static void test_round_trip_through_suite(void **state)
{
    fixture *fx = *state;
    char out_dir[128], *err = NULL;
    snprintf(out_dir, sizeof out_dir, "%s/out", fx->dir);
    suite_meta meta = {fx->prog, "00", "main", NULL, "sympath test"};
    suite_writer *w = suite_open(out_dir, &meta, &err);
    assert_non_null(w);
    float f = -1.0f / 3.0f;
    double d = 1e-310; /* subnormal */
    uint32_t fb;
    uint64_t db;
    memcpy(&fb, &f, 4);
    memcpy(&db, &d, 8);
    uint64_t values[] = {(uint32_t)-2147483647 - 1,
                         4294967295u,
                         0xff,
                         200,
                         0x8000,
                         (uint64_t)-5,
                         UINT64_MAX,
                         1,
                         fb,
                         db,
                         0x1234,
                         0x80,
                         65535,
                         UINT64_MAX - 1,
                         1,
                         2,
                         255};
    uint8_t types[] = {IT_INT,    IT_UINT,    IT_CHAR, IT_UCHAR, IT_SHORT, IT_LONG, IT_ULONG, IT_BOOL, IT_FLOAT,
                       IT_DOUBLE, IT_POINTER, IT_S8,   IT_U16,   IT_U64,   IT_BYTE, IT_BYTE,  IT_BYTE};
    const char *names[17] = {"x<&>"};
    test_case tc = {17, values, types, names, 0};
    assert_int_equal(suite_write_test(w, &tc, "round trip", &err), 1);
    suite_close(w);
    snprintf(fx->path, sizeof fx->path, "%s/tests/test-00001.xml", out_dir);

    char *out;
    int st = run_probe(fx->prog, fx->path,
                       "int uint char uchar short long ulong bool float double pointer i8 u16 u64 bytes3", &out);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    char want[1024];
    snprintf(want, sizeof want,
             "-2147483648\n4294967295\n-1\n200\n-32768\n-5\n18446744073709551615\n1\n%a\n%a\n0x1234\n"
             "-128\n65535\n18446744073709551614\n1 2 255\n",
             (double)f, d);
    assert_string_equal(out, want);
}

/* A hand-written file with the XML variety other tools produce. */
static void test_tolerant_parsing(void **state)
{
    fixture *fx = *state;
    snprintf(fx->path, sizeof fx->path, "%s/hand.xml", fx->dir);
    assert_int_equal(write_text(fx->path, "<?xml version=\"1.0\"?>\n<!DOCTYPE testcase PUBLIC \"x\" \"y\">\n"
                                          "<!-- <input>999</input> is commented out -->\n"
                                          "<testcase coversError='false'>\n"
                                          "<input variable='a>b' type=\"int\">  -17 </input>\n"
                                          "<input>0x10</input><input type=\"int\">42U</input>\n"
                                          "<input\n type=\"bool\">true</input>\n"
                                          "<input>&#45;3</input>\n"
                                          "<input/>\n"
                                          "<input>0x1.8p+1</input>\n"
                                          "<input>2.5e0</input>\n"
                                          "<input>12</input>\n"
                                          "<input>340282366920938463463374607431768211455</input>\n"
                                          "</testcase>\n"),
                     0);
    char *out;
    int st = run_probe(fx->prog, fx->path, "int int int bool int int double float long u128 int", &out);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    /* the last value asked for is missing: the program ends there, normally (the run that
     * made such a test stopped at its input limit) */
    assert_string_equal(out, "-17\n16\n42\n1\n-3\n0\n0x1.8p+1\n0x1.4p+1\n12\n"
                             "ffffffffffffffffffffffffffffffff\n");
}

static void test_no_testcase_reads_zero(void **state)
{
    fixture *fx = *state;
    char *out;
    int st = run_probe(fx->prog, NULL, "int double pointer", &out);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    assert_string_equal(out, "0\n0x0p+0\n(nil)\n");
    st = run_probe(fx->prog, "/nonexistent/t.xml", "int", &out);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 125);
}

static void test_assume_reach_assert(void **state)
{
    fixture *fx = *state;
    snprintf(fx->path, sizeof fx->path, "%s/zero.xml", fx->dir);
    assert_int_equal(write_text(fx->path, "<testcase><input>0</input></testcase>"), 0);
    char *out;
    int st = run_probe(fx->prog, fx->path, "assume", &out);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    assert_string_equal(out, ""); /* ended at the assumption */
    st = run_probe(fx->prog, fx->path, "assert", &out);
    assert_true(died_of(st, SIGABRT));
    st = run_probe(fx->prog, NULL, "reach", &out);
    assert_true(died_of(st, SIGABRT));
    st = run_probe(fx->prog2, NULL, "", &out);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 42); /* the program's reach_error */

    assert_int_equal(write_text(fx->path, "<testcase><input>1</input><input>7</input></testcase>"), 0);
    st = run_probe(fx->prog, fx->path, "assume int", &out);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    assert_string_equal(out, "past\n7\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_through_suite),
        cmocka_unit_test(test_tolerant_parsing),
        cmocka_unit_test(test_no_testcase_reads_zero),
        cmocka_unit_test(test_assume_reach_assert),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
