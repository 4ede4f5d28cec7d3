/* test_instrument_posix.c: --sym-args/--sym-stdin/--sym-file parsing, the input prefix count, the generated configuration's layout, and the generated __VERIFIER_nondet_<T> definitions (nondet.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>

#include "instrument/instrument.h"
#include "instrument/instrument_int.h"

/* Parse the words of line as a command line; returns what posix_parse_option said for
 * every word in turn (the first non-zero), with *consumed the words used. */
static int parse_line(sym_posix_opts *o, const char *line, int *consumed, char **err)
{
    char buf[256], *argv[32];
    int argc = 0;
    snprintf(buf, sizeof buf, "%s", line);
    for (char *t = strtok(buf, " "); t && argc < 32; t = strtok(NULL, " ")) argv[argc++] = t;
    int rc = 0;
    *err = NULL;
    for (int i = 0; i < argc; i++) {
        rc = posix_parse_option(o, argc, argv, &i, err);
        if (rc < 0) break;
    }
    *consumed = argc;
    return rc;
}

static void test_parse_all_options(void **state)
{
    sym_posix_opts o = {0};
    char *err;
    int n;
    assert_int_equal(parse_line(&o, "--sym-args 1 3 4 --sym-stdin 10 --sym-file a.txt 5 --sym-file b 0", &n, &err), 1);
    assert_null(err);
    assert_true(posix_enabled(&o));
    assert_int_equal(o.args_on, 1);
    assert_int_equal(o.args_min, 1);
    assert_int_equal(o.args_max, 3);
    assert_int_equal(o.arg_len, 4);
    assert_int_equal(o.stdin_on, 1);
    assert_int_equal(o.stdin_max, 10);
    assert_int_equal(o.nfiles, 2);
    assert_string_equal(o.files[0].name, "a.txt");
    assert_int_equal(o.files[0].size, 5);
    assert_string_equal(o.files[1].name, "b");
    assert_int_equal(o.files[1].size, 0);
    /* 1 + 3*4 (argv) + 1 + 10 (stdin) + 1 + 5 + 1 + 0 (files) */
    assert_int_equal(posix_prefix_inputs(&o), 31);
    posix_opts_free(&o);
    assert_false(posix_enabled(&o));
    assert_int_equal(posix_prefix_inputs(&o), 0);
    assert_false(posix_enabled(NULL));
}

static void test_other_options_untouched(void **state)
{
    sym_posix_opts o = {0};
    char *argv[] = {"--budget", "5s", "--sym-stdin", "3"};
    int i = 0;
    char *err;
    assert_int_equal(posix_parse_option(&o, 4, argv, &i, &err), 0);
    assert_int_equal(i, 0);
    i = 2;
    assert_int_equal(posix_parse_option(&o, 4, argv, &i, &err), 1);
    assert_int_equal(i, 3); /* the caller's loop steps past the last value */
    assert_int_equal(o.stdin_max, 3);
    posix_opts_free(&o);
}

static void expect_error(const char *line, const char *says)
{
    sym_posix_opts o = {0};
    char *err;
    int n;
    assert_int_equal(parse_line(&o, line, &n, &err), -1);
    assert_non_null(err);
    if (!strstr(err, says)) fail_msg("'%s': error '%s' does not say '%s'", line, err, says);
    free(err);
    posix_opts_free(&o);
}

static void test_bad_values(void **state)
{
    expect_error("--sym-args 3 1 4", "MIN <= MAX"); /* MIN > MAX */
    expect_error("--sym-args 0 17 4", "MAX <= 16"); /* too many arguments */
    expect_error("--sym-args 0 2 0", "1 <= N");     /* empty arguments */
    expect_error("--sym-args 0 2", "needs 3 values");
    expect_error("--sym-stdin -1", "--sym-stdin N");
    expect_error("--sym-stdin 4097", "N <= 4096");
    expect_error("--sym-stdin x", "bad value 'x'");
    expect_error("--sym-file a", "needs 2 values");
    expect_error("--sym-file a 5 --sym-file a 6", "given twice");
    expect_error("--sym-file a 9999", "N <= 4096");
    expect_error("--sym-file ./a 3", "without a leading ./");
}

/* The generated configuration compiles and carries the options in the layout models_io.c
 * and replay.c declare (read back by a program compiled against it). */
static void test_conf_layout(void **state)
{
    sym_posix_opts o = {0};
    char *err;
    int n;
    assert_int_equal(parse_line(&o, "--sym-args 0 2 3 --sym-stdin 7 --sym-file we\"ird\\name 4", &n, &err), 1);
    char dir[] = "/tmp/sympath-posix-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char conf[128], reader[128], exe[128], out[128], cmd[1024];
    snprintf(conf, sizeof conf, "%s/posix_conf.c", dir);
    snprintf(reader, sizeof reader, "%s/reader.c", dir);
    snprintf(exe, sizeof exe, "%s/reader", dir);
    snprintf(out, sizeof out, "%s/out.txt", dir);
    assert_int_equal(posix_write_conf(&o, conf, &err), 0);
    FILE *f = fopen(reader, "w");
    assert_non_null(f);
    fputs(
        "#include <stdio.h>\n"
        "struct sym_posix_conf { unsigned enabled, args_on, args_min, args_max, arg_len, stdin_on, stdin_max, nfiles;\n"
        "  const char *const *file_names; const unsigned *file_sizes; };\n"
        "extern const struct sym_posix_conf __sym_posix_conf;\n"
        "int main(void) { const struct sym_posix_conf *c = &__sym_posix_conf;\n"
        "  printf(\"%u %u %u %u %u %u %u %u %s %u\\n\", c->enabled, c->args_on, c->args_min, c->args_max,\n"
        "         c->arg_len, c->stdin_on, c->stdin_max, c->nfiles, c->file_names[0], c->file_sizes[0]);\n"
        "  return 0; }\n",
        f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "cc -o %s %s %s && %s > %s", exe, reader, conf, exe, out);
    assert_int_equal(system(cmd), 0);
    char line[256] = "";
    f = fopen(out, "r");
    assert_non_null(f);
    assert_non_null(fgets(line, sizeof line, f));
    fclose(f);
    assert_string_equal(line, "1 1 0 2 3 1 7 1 we\"ird\\name 4\n");
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    posix_opts_free(&o);
}

static void test_nondet_names(void **state)
{
    assert_true(nondet_is_runtime_name("__VERIFIER_nondet_int"));
    assert_true(nondet_is_runtime_name("__VERIFIER_nondet_ushort"));
    assert_false(nondet_is_runtime_name("__VERIFIER_nondet_unsigned_int"));
    assert_false(nondet_is_runtime_name("sym_int"));
    assert_true(nondet_name_unsigned("__VERIFIER_nondet_unsigned_int"));
    assert_true(nondet_name_unsigned("__VERIFIER_nondet_uint32"));
    assert_true(nondet_name_unsigned("__VERIFIER_nondet_u16"));
    assert_true(nondet_name_unsigned("__VERIFIER_nondet_size_t"));
    assert_false(nondet_name_unsigned("__VERIFIER_nondet_int64"));
    assert_false(nondet_name_unsigned("__VERIFIER_nondet_long_long"));
    assert_false(nondet_name_unsigned("__VERIFIER_nondet_user"));
}

static const char *ir =
    "target triple = \"x86_64-pc-linux-gnu\"\n"
    "target datalayout = \"e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128\"\n"
    "%struct.big = type { i64, i64, i64 }\n"
    "declare zeroext i16 @__VERIFIER_nondet_unsigned_short()\n"
    "declare signext i8 @__VERIFIER_nondet_int8()\n"
    "declare i32 @__VERIFIER_nondet_unsigned_int()\n"
    "declare i32 @__VERIFIER_nondet_int()\n"
    "declare void @__VERIFIER_nondet_big(%struct.big* sret(%struct.big))\n"
    "declare void @__VERIFIER_nondet_nothing()\n"
    "declare i128 @__VERIFIER_nondet_huge()\n";

/* The call in f's body to `callee`, with its constant integer arguments in args (up to 3). */
static int body_calls(LLVMValueRef f, const char *callee, unsigned long long *args)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            if (!LLVMIsACallInst(i)) continue;
            size_t len;
            LLVMValueRef c = LLVMGetCalledValue(i);
            if (strcmp(LLVMGetValueName2(c, &len), callee)) continue;
            for (unsigned k = 0; args && k < 3 && k < LLVMGetNumArgOperands(i); k++)
                args[k] =
                    LLVMIsAConstantInt(LLVMGetOperand(i, k)) ? LLVMConstIntGetZExtValue(LLVMGetOperand(i, k)) : 999;
            return 1;
        }
    return 0;
}

static void test_nondet_definitions(void **state)
{
    LLVMContextRef cx = LLVMContextCreate();
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, strlen(ir), "t.ll");
    LLVMModuleRef m;
    char *msg = NULL;
    assert_int_equal(LLVMParseIRInContext(cx, buf, &m, &msg), 0);
    char path[] = "/tmp/sympath-nondet-XXXXXX";
    int fd = mkstemp(path);
    close(fd);
    nondet_result r;
    char *err = NULL;
    assert_int_equal(define_nondet_inputs(m, path, &r, &err), 0);
    assert_int_equal(r.generated, 4);
    assert_int_equal(r.unsupported, 2);
    assert_non_null(strstr(r.unsupported_list, "__VERIFIER_nondet_nothing (returns void)"));
    assert_non_null(strstr(r.unsupported_list, "__VERIFIER_nondet_huge (returns i128)"));
    assert_int_equal(access(path, R_OK), 0); /* the module replay compiles */
    unsigned long long a[3];
    LLVMValueRef f = LLVMGetNamedFunction(m, "__VERIFIER_nondet_unsigned_short");
    assert_false(LLVMIsDeclaration(f));
    assert_true(body_calls(f, "__sym_input_int", a));
    assert_int_equal(a[0], 6); /* IT_USHORT */
    assert_int_equal(a[1], 16);
    assert_int_equal(a[2], 0);
    assert_true(body_calls(LLVMGetNamedFunction(m, "__VERIFIER_nondet_int8"), "__sym_input_int", a));
    assert_int_equal(a[1], 8);
    assert_int_equal(a[2], 1); /* signext: signed */
    assert_true(body_calls(LLVMGetNamedFunction(m, "__VERIFIER_nondet_unsigned_int"), "__sym_input_int", a));
    assert_int_equal(a[0], 1); /* IT_UINT from the name */
    assert_int_equal(a[2], 0);
    assert_true(body_calls(LLVMGetNamedFunction(m, "__VERIFIER_nondet_big"), "sym_bytes", NULL));
    /* a runtime name stays a declaration (libsympath-rt.a defines it) */
    assert_true(LLVMIsDeclaration(LLVMGetNamedFunction(m, "__VERIFIER_nondet_int")));
    /* unsupported types still get a body (returning zero): the link cannot fail */
    assert_false(LLVMIsDeclaration(LLVMGetNamedFunction(m, "__VERIFIER_nondet_huge")));
    free(r.unsupported_list);
    unlink(path);
    LLVMDisposeModule(m);
    LLVMContextDispose(cx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_all_options), cmocka_unit_test(test_other_options_untouched),
        cmocka_unit_test(test_bad_values),        cmocka_unit_test(test_conf_layout),
        cmocka_unit_test(test_nondet_names),      cmocka_unit_test(test_nondet_definitions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
