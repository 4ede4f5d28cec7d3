/* test_instrument_build.c: build_executor end to end on small C files: compile errors, missing main, site and location counts, concrete-mode clones. */
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
#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>

#include "instrument/instrument.h"

#ifndef SYMPATH_LIB_DIR
#define SYMPATH_LIB_DIR "build/lib"
#endif
#ifndef SYMPATH_INCLUDE_DIR
#define SYMPATH_INCLUDE_DIR "include"
#endif
#ifndef SYMPATH_CLANG
#define SYMPATH_CLANG "clang-14"
#endif

static char dir[64];
static char src[128], exe[128], sites[128];

static int setup(void **state)
{
    strcpy(dir, "/tmp/sympath-build-XXXXXX");
    if (!mkdtemp(dir)) return -1;
    snprintf(src, sizeof src, "%s/prog.c", dir);
    snprintf(exe, sizeof exe, "%s/prog.exe", dir);
    snprintf(sites, sizeof sites, "%s/prog.sites", dir);
    return 0;
}

static int teardown(void **state)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static int runtime_missing(void)
{
    if (access(SYMPATH_LIB_DIR "/libsympath-rt.a", R_OK) == 0 && access(SYMPATH_LIB_DIR "/rt_fast.bc", R_OK) == 0 &&
        access(SYMPATH_LIB_DIR "/models.bc", R_OK) == 0)
        return 0;
    print_message("skipped: the runtime (" SYMPATH_LIB_DIR "/libsympath-rt.a, rt_fast.bc, models.bc) is not built\n");
    return 1;
}

/* Write `text` as prog.c and build it; returns build_executor's result. */
static int build_text(const char *text, build_stats *st, char **err)
{
    FILE *f = fopen(src, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    const char *srcs[1] = {src};
    build_opts o = {.sources = srcs,
                    .nsources = 1,
                    .cflags = "-DFOO=1 '-DBAR=a b'",
                    .work_dir = dir,
                    .rt_dir = SYMPATH_LIB_DIR,
                    .include_dir = SYMPATH_INCLUDE_DIR,
                    .exe_path = exe,
                    .sites_path = sites,
                    .clang = SYMPATH_CLANG};
    return build_executor(&o, st, err);
}

/* Run the built executor in dir; input: the text of its SYMPATH_INPUTS file, or NULL for none.
 * Returns its exit status (a crash fails the test). */
static int run_exe(const char *input)
{
    char cmd[512];
    if (input)
        snprintf(cmd, sizeof cmd, "cd '%s' && echo '%s' > in && SYMPATH_INPUTS=in ./prog.exe >/dev/null 2>&1", dir,
                 input);
    else
        snprintf(cmd, sizeof cmd, "cd '%s' && ./prog.exe >/dev/null 2>&1", dir);
    int status = system(cmd);
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

static void test_syntax_error(void **state)
{
    if (runtime_missing()) skip();
    build_stats st;
    char *err = NULL;
    assert_int_equal(build_text("int main(void) { return 0 }\n", &st, &err), -1);
    assert_non_null(err);
    if (!strstr(err, "error:")) fail_msg("no compiler diagnostics in: %s", err);
    assert_non_null(strstr(err, "prog.c"));
    free(err);
}

static void test_no_main(void **state)
{
    if (runtime_missing()) skip();
    build_stats st;
    char *err = NULL;
    assert_int_equal(build_text("int f(int x) { return x + 1; }\n", &st, &err), -1);
    assert_non_null(err);
    if (!strstr(err, "no main")) fail_msg("unexpected error: %s", err);
    free(err);
}

/* if/else (2 slots), a switch with 3 cases of which two share a body plus the default
 * (3 distinct destinations), and one reach_error call. The flags from cflags must
 * arrive (FOO, and BAR with its quoted blank) or the file does not compile. */
static const char *const good_prog = "#include <sympath.h>\n"
                                     "extern void reach_error(void);\n"
                                     "#if FOO != 1\n#error FOO\n#endif\n"
                                     "#define STR(x) #x\n#define XSTR(x) STR(x)\n"
                                     "static const char bar[] = XSTR(BAR);\n"
                                     "int main(void) {\n"
                                     "  int x = sym_int(\"x\"), r = 0;\n"
                                     "  if (x > 10) r = 1; else r = 2;\n"
                                     "  switch (x) {\n"
                                     "  case 1: case 2: r += 10; break;\n"
                                     "  case 3: r += 20; break;\n"
                                     "  default: break;\n"
                                     "  }\n"
                                     "  if (r == 22 && bar[1] == ' ') reach_error();\n"
                                     "  return 0;\n"
                                     "}\n";

static void test_good_program(void **state)
{
    if (runtime_missing()) skip();
    build_stats st;
    char *err = NULL;
    int rc = build_text(good_prog, &st, &err);
    if (rc) fail_msg("build failed: %s", err);
    struct stat sb;
    assert_int_equal(stat(exe, &sb), 0);
    assert_true(sb.st_mode & S_IXUSR);

    site_table t;
    if (site_table_load(sites, &t, &err)) fail_msg("%s", err);
    uint32_t user_sites = 0, user_slots = 0, brs = 0, switches = 0;
    for (uint32_t i = 0; i < t.nsites; i++) {
        const site_info *s = &t.sites[i];
        if (!s->user) continue;
        user_sites++;
        user_slots += s->ndirs;
        assert_string_equal(s->function, "main");
        assert_non_null(strstr(s->file, "prog.c"));
        assert_true(s->line >= 11 && s->line <= 17);
        if (!strcmp(s->kind, "br")) {
            brs++;
            assert_int_equal(s->ndirs, 2);
        } else {
            assert_string_equal(s->kind, "switch");
            switches++;
            assert_int_equal(s->ndirs, 3);
            assert_int_equal(s->line, 12);
        }
    }
    /* if (x > 10), and the two conditions of r == 22 && ... */
    assert_int_equal(brs, 3);
    assert_int_equal(switches, 1);
    assert_int_equal(user_sites, st.branch_sites);
    assert_int_equal(user_slots, 3 * 2 + 3);
    assert_int_equal(t.nslots, st.slots);
    assert_int_equal(t.nlocs, 1);
    assert_int_equal(st.locations, 1);
    assert_string_equal(t.locs[0].what, "reach_error");
    assert_int_equal(t.locs[0].line, 17);
    assert_string_equal(t.locs[0].function, "main");
    assert_true(st.functions >= 1);
    assert_true(st.seconds > 0);
    site_table_free(&t);

    /* The executor runs standalone: x = 3 takes the path to reach_error (exit code
     * SYM_ERROR_EXIT_CODE, not 0); x = 0 ends normally. */
    assert_int_equal(run_exe("0"), 0);
    assert_int_not_equal(run_exe("3"), 0);
}

/* dir/instrumented.bc parsed in a new context *cx (the caller disposes of both). */
static LLVMModuleRef load_instrumented(LLVMContextRef *cx)
{
    char path[160];
    snprintf(path, sizeof path, "%s/instrumented.bc", dir);
    LLVMMemoryBufferRef buf;
    char *msg = NULL;
    if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &msg))
        fail_msg("cannot read %s: %s", path, msg ? msg : "?");
    *cx = LLVMContextCreate();
    LLVMModuleRef m;
    if (LLVMParseBitcodeInContext2(*cx, buf, &m)) fail_msg("cannot parse %s", path);
    LLVMDisposeMemoryBuffer(buf);
    return m;
}

/* Is `name` defined in the instrumented module the build left in the work directory? */
static int defined_in_instrumented(const char *name)
{
    LLVMContextRef cx;
    LLVMModuleRef m = load_instrumented(&cx);
    LLVMValueRef f = LLVMGetNamedFunction(m, name);
    int defined = f && !LLVMIsDeclaration(f);
    LLVMDisposeModule(m);
    LLVMContextDispose(cx);
    return defined;
}

/* The value of the 32-bit constant global `name` in instrumented.bc, or -1 when it is absent. */
static long long global_in_instrumented(const char *name)
{
    LLVMContextRef cx;
    LLVMModuleRef m = load_instrumented(&cx);
    LLVMValueRef g = LLVMGetNamedGlobal(m, name);
    long long v = g && LLVMGetInitializer(g) ? (long long)LLVMConstIntGetZExtValue(LLVMGetInitializer(g)) : -1;
    LLVMDisposeModule(m);
    LLVMContextDispose(cx);
    return v;
}

/* helper and twice are input-free (helper's address is taken, but it reads no input,
 * so it is a harmless callback); reader reads an input, apply calls through a pointer. */
static const char *const clone_prog = "#include <sympath.h>\n"
                                      "static int helper(int v) { if (v > 3) return v * 2; return v; }\n"
                                      "static int twice(int v) { return helper(helper(v)); }\n"
                                      "static int reader(void) { return sym_int(\"r\"); }\n"
                                      "static int apply(int (*f)(int), int v) { return f(v); }\n"
                                      "int main(void) {\n"
                                      "  int c = helper(5) + twice(1);\n"
                                      "  int x = reader();\n"
                                      "  if (x == c + 100) return apply(helper, x) & 0xff;\n"
                                      "  return 0;\n"
                                      "}\n";

static void test_concrete_clones(void **state)
{
    if (runtime_missing()) skip();
    build_stats st;
    char *err = NULL;
    if (build_text(clone_prog, &st, &err)) fail_msg("build failed: %s", err);
    assert_true(defined_in_instrumented("helper.sym_concrete"));
    assert_true(defined_in_instrumented("twice.sym_concrete"));
    assert_false(defined_in_instrumented("reader.sym_concrete"));
    assert_false(defined_in_instrumented("apply.sym_concrete"));
    assert_false(defined_in_instrumented("main.sym_concrete"));
    assert_true(st.concrete_clones >= 2); /* with the input-free libc models */
    assert_true(st.dispatches >= 2 && st.dispatches <= st.concrete_clones);

    /* The copies add no site and no slot: helper's branch and main's, once each. */
    site_table t;
    if (site_table_load(sites, &t, &err)) fail_msg("%s", err);
    uint32_t user_sites = 0, user_slots = 0;
    for (uint32_t i = 0; i < t.nsites; i++) {
        const site_info *s = &t.sites[i];
        if (!s->user) continue;
        user_sites++;
        user_slots += s->ndirs;
        if (strcmp(s->function, "helper") && strcmp(s->function, "main"))
            fail_msg("site %u in function %s", s->id, s->function);
    }
    assert_int_equal(user_sites, 2);
    assert_int_equal(user_slots, 4);
    assert_int_equal(user_sites, st.branch_sites);
    assert_int_equal(t.nslots, st.slots);
    site_table_free(&t);

    /* c = 10 + 1 computed by the copies; x = 111 makes main call helper(111) through apply. */
    assert_int_equal(run_exe("111"), 222);
}

/* The libc models: only those the program can reach are kept (sscanf's brings its scanning
 * core and the ctype models it uses; nothing brings printf's), calls reach them (isdigit
 * through -D__NO_CTYPE), a program's own strlen is not replaced, and the table of global
 * objects is there. The executor behaves as glibc would. */
static void test_models_pruned_and_redirected(void **state)
{
    if (runtime_missing()) skip();
    build_stats st;
    char *err = NULL;
    const char *prog =
        "#include <ctype.h>\n#include <stdio.h>\n"
        "unsigned long strlen(const char *s) { unsigned long n = 0; while (s[n]) n++; return n + 100; }\n"
        "int main(void) { int a = 0; char w[8];\n"
        "  if (sscanf(\"42 go\", \"%d %7s\", &a, w) != 2) return 1;\n"
        "  return a + (int)strlen(w) + (isdigit('7') ? 1000 : 0) - 1144; }\n";
    if (build_text(prog, &st, &err)) fail_msg("build failed: %s", err);
    assert_true(defined_in_instrumented("__sym_model___isoc99_sscanf"));
    assert_true(defined_in_instrumented("__sym_model_isdigit"));
    assert_true(defined_in_instrumented("__sym_model_isspace")); /* used by the scanning core */
    assert_false(defined_in_instrumented("__sym_model_snprintf"));
    assert_false(defined_in_instrumented("__sym_model_strtoul"));
    assert_false(defined_in_instrumented("__sym_model_strlen")); /* the program has its own */
    /* each of these calls the real X for its concrete result: that call must not keep it */
    assert_false(defined_in_instrumented("__sym_model_fopen"));
    assert_false(defined_in_instrumented("__sym_model_fstat"));
    LLVMContextRef cx;
    LLVMModuleRef m = load_instrumented(&cx);
    assert_non_null(LLVMGetNamedGlobal(m, "__sym_objects"));
    assert_non_null(LLVMGetNamedGlobal(m, "__sym_nobjects"));
    LLVMDisposeModule(m);
    LLVMContextDispose(cx);
    /* 42 + (2 + 100) + 1000 - 1144 = 0 */
    assert_int_equal(run_exe(NULL), 0);
}

/* A model's call of another libc function is redirected to that function's model, so it
 * keeps it: strtof's model calls strtod, whose model (which calls the real strtod) stays. */
static void test_model_keeps_the_models_it_calls(void **state)
{
    if (runtime_missing()) skip();
    build_stats st;
    char *err = NULL;
    if (build_text("#include <stdlib.h>\n"
                   "int main(void) { return strtof(\"2.5\", 0) == 2.5f ? 0 : 1; }\n",
                   &st, &err))
        fail_msg("build failed: %s", err);
    assert_true(defined_in_instrumented("__sym_model_strtof"));
    assert_true(defined_in_instrumented("__sym_model_strtod"));
    assert_false(defined_in_instrumented("__sym_model_fopen"));
    assert_int_equal(run_exe(NULL), 0);
}

/* A program using libpq says whether it tests a PGresult pointer against NULL (then injected
 * faults may return NULL from a statement): !r in a helper counts, r compared with another
 * result does not. */
static void test_pq_null_flag(void **state)
{
    if (runtime_missing()) skip();
    build_stats st;
    char *err = NULL;
    const char *head = "#include <libpq-fe.h>\n#include <stddef.h>\n";
    char prog[1024];
    snprintf(prog, sizeof prog,
             "%sstatic int bad(const PGresult *r) { return %s; }\n"
             "int main(void) { PGconn *c = PQconnectdb(\"\"); PGresult *r = PQexec(c, \"SELECT 1\");\n"
             "  int b = bad(r); PQclear(r); PQfinish(c); return b; }\n",
             head, "!r || PQresultStatus(r) != PGRES_TUPLES_OK");
    if (build_text(prog, &st, &err)) fail_msg("build failed: %s", err);
    assert_int_equal(global_in_instrumented("__sym_pq_null_tested"), 1);
    build_stats_free(&st); /* its "SELECT 1" */
    snprintf(prog, sizeof prog,
             "%sstatic PGresult *last;\nstatic int bad(const PGresult *r) { return %s; }\n"
             "int main(void) { PGconn *c = PQconnectdb(\"\"); PGresult *r = PQexec(c, \"SELECT 1\");\n"
             "  int b = bad(r); PQclear(r); PQfinish(c); return b; }\n",
             head, "r == last || PQresultStatus(r) != PGRES_TUPLES_OK");
    if (build_text(prog, &st, &err)) fail_msg("build failed: %s", err);
    assert_int_equal(global_in_instrumented("__sym_pq_null_tested"), 0);
    build_stats_free(&st);
}

/* A callback that reads an input may run while a copy runs (uninstrumented code calls
 * it): then no function is input-free. */
static void test_no_clones_with_input_callbacks(void **state)
{
    if (runtime_missing()) skip();
    build_stats st;
    char *err = NULL;
    if (build_text("#include <sympath.h>\n"
                   "static int cb(int v) { return v + sym_int(\"c\"); }\n"
                   "static int helper(int v) { return v > 3 ? v : -v; }\n"
                   "int main(void) { int (*volatile f)(int) = cb; return helper(1) + f(2) == 7; }\n",
                   &st, &err))
        fail_msg("build failed: %s", err);
    assert_int_equal(st.concrete_clones, 0);
    assert_int_equal(st.dispatches, 0);
    assert_false(defined_in_instrumented("helper.sym_concrete"));
}

/* The program's constant strings that read as SQL statements are listed in build_stats.sql_strings (for the
 * database layer's cell sizes: src/db/text_need.c), and data-like ones after a byte 1 ("selection"), messages
 * ("(UPDATE) selected": a blank) are not; a program without any gets NULL. */
static void test_sql_strings(void **state)
{
    (void)state;
    build_stats st;
    char *err = NULL;
    const char *prog =
        "#include <stdio.h>\n"
        "static const char *q = \"  select id FROM parts \" \"WHERE sku = 'SK-LONG-PART-42'\";\n"
        "int main(void) { puts(q); puts(\"(UPDATE) selected\"); puts(\"WITH x AS (SELECT 1) SELECT * FROM x\");\n"
        "  puts(\"selection\"); return 0; }\n";
    if (build_text(prog, &st, &err)) fail_msg("build failed: %s", err);
    assert_non_null(st.sql_strings);
    int n = 0, with = 0, sel = 0, data = 0;
    for (const char *p = st.sql_strings; *p; p += strlen(p) + 1) {
        if (*p == 1) { /* a data-like constant the program may bind: 9-32 bytes, no blank, no % */
            data += !strcmp(p + 1, "selection");
            continue;
        }
        n++;
        sel += !strcmp(p, "  select id FROM parts WHERE sku = 'SK-LONG-PART-42'"); /* concatenated by the compiler */
        with += !strncmp(p, "WITH x AS", 9);
    }
    assert_int_equal(n, 2);
    assert_int_equal(sel, 1);
    assert_int_equal(with, 1);
    assert_int_equal(data, 1);
    build_stats_free(&st);
    assert_null(st.sql_strings);
    if (build_text("int main(void) { return 0; }\n", &st, &err)) fail_msg("build failed: %s", err);
    assert_null(st.sql_strings);
    build_stats_free(&st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_concrete_clones, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_clones_with_input_callbacks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_models_pruned_and_redirected, setup, teardown),
        cmocka_unit_test_setup_teardown(test_model_keeps_the_models_it_calls, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pq_null_flag, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sql_strings, setup, teardown),
        cmocka_unit_test_setup_teardown(test_syntax_error, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_main, setup, teardown),
        cmocka_unit_test_setup_teardown(test_good_program, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
