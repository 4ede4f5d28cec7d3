/* test_unit_sanitize.c: the classifier of sanitizer reports (unit_san_classify) on reports captured from clang-14's ASan, UBSan and LSan, shortened. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "unit/unit.h"

static const char *const UNIT[] = {"/src/lib/bufkit.c"};

/* The hidden-header string read before a local array of the test: its `char s_obj[17]`. */
static const char *STACK_UNDERFLOW =
    "[ RUN      ] test_str_len_1\n"
    "=================================================================\n"
    "==20510==ERROR: AddressSanitizer: stack-buffer-underflow on address 0x7ffe8e782a38 at pc 0x55b7 bp 0x7ffe sp "
    "0x7ffe\n"
    "READ of size 8 at 0x7ffe8e782a38 thread T0\n"
    "    #0 0x55b74f21a0f7 in str_len /src/lib/bufkit.c:19:37\n"
    "    #1 0x55b74f219f9e in test_str_len_1 /out/build/verify/san_bufkit/test_bufkit.c:36:15\n"
    "    #2 0x7fd3d9f9b249 in __libc_start_call_main csu/../sysdeps/nptl/libc_start_call_main.h:58:16\n"
    "\n"
    "Address 0x7ffe8e782a38 is located in stack of thread T0 at offset 24 in frame\n"
    "    #0 0x55b74f219eaf in test_str_len_1 /out/build/verify/san_bufkit/test_bufkit.c:30\n"
    "\n"
    "  This frame has 1 object(s):\n"
    "    [32, 49) 's_obj' (line 31) <== Memory access at offset 24 underflows this variable\n"
    "SUMMARY: AddressSanitizer: stack-buffer-underflow /src/lib/bufkit.c:19:37 in str_len\n";

/* Heap-mode inputs: the block the test malloc'ed, read 8 bytes before its start. */
static const char *HEAP_LEFT =
    "==18516==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x603000000038 at pc 0x5639 bp 0x7fff sp "
    "0x7fff\n"
    "READ of size 8 at 0x603000000038 thread T0\n"
    "    #0 0x5639e2dd6647 in str_len /src/lib/bufkit.c:19:32\n"
    "    #1 0x5639e2dd6691 in str_count /src/lib/bufkit.c:25:28\n"
    "    #2 0x5639e2dd627d in test_str_count_1 /out/build/verify/san_bufkit/test_bufkit.c:5:15\n"
    "\n"
    "0x603000000038 is located 8 bytes to the left of 17-byte region [0x603000000040,0x603000000051)\n"
    "allocated by thread T0 here:\n"
    "    #0 0x5639e2d9b17e in __interceptor_malloc (/out/build/verify/san_bufkit/t+0xa417e)\n"
    "    #1 0x5639e2dd61ed in test_str_count_1 /out/build/verify/san_bufkit/test_bufkit.c:3:19\n"
    "\n"
    "SUMMARY: AddressSanitizer: heap-buffer-overflow /src/lib/bufkit.c:19:32 in str_len\n";
static const char *HEAP_TEST_TEXT = "static void test_str_count_1(void **state) {\n"
                                    "    (void)state;\n"
                                    "    char *s_obj = malloc(sizeof(char [17]));\n"
                                    "    str s = s_obj;\n"
                                    "    int ret = str_count(s, 'a');\n";

/* An off-by-one write into the block the unit allocated itself. */
static const char *UNIT_HEAP_RIGHT =
    "==20411==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000017 at pc 0x55f1 bp 0x7ffe sp "
    "0x7ffe\n"
    "WRITE of size 1 at 0x602000000017 thread T0\n"
    "    #0 0x55f1275a0cce in buf_dup /src/lib/bufkit.c:36:42\n"
    "    #1 0x55f1275a0a12 in test_buf_dup_4 /out/build/verify/san_bufkit/test_bufkit.c:80:17\n"
    "\n"
    "0x602000000017 is located 0 bytes to the right of 7-byte region [0x602000000010,0x602000000017)\n"
    "allocated by thread T0 here:\n"
    "    #0 0x558f3eed418e in __interceptor_malloc (/out/build/verify/san_bufkit/t+0xa418e)\n"
    "    #1 0x558f3ef104f1 in buf_dup /src/lib/bufkit.c:33:15\n"
    "    #2 0x558f3ef0f804 in test_buf_dup_4 /out/build/verify/san_bufkit/test_bufkit.c:80:17\n"
    "\n"
    "SUMMARY: AddressSanitizer: heap-buffer-overflow /src/lib/bufkit.c:36:42 in buf_dup\n";

/* The same block, read by the test's own assertion (a returned buffer compared as a string). */
static const char *TEST_READS_UNIT_BLOCK =
    "==20410==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000031 at pc 0x558f bp 0x7ffd sp "
    "0x7ffd\n"
    "READ of size 2 at 0x602000000031 thread T0\n"
    "    #0 0x558f3ee72f9c in printf_common(void*, char const*, __va_list_tag*) asan_interceptors.cpp.o\n"
    "    #4 0x7fc5ce992143 in _assert_string_equal (/lib/x86_64-linux-gnu/libcmocka.so.0+0x5143)\n"
    "    #5 0x558f3ef0f824 in test_buf_dup_1 /out/build/verify/san_bufkit/test_bufkit.c:76:5\n"
    "\n"
    "0x602000000031 is located 0 bytes to the right of 1-byte region [0x602000000030,0x602000000031)\n"
    "allocated by thread T0 here:\n"
    "    #0 0x558f3eed418e in __interceptor_malloc (/out/build/verify/san_bufkit/t+0xa418e)\n"
    "    #1 0x558f3ef104f1 in buf_dup /src/lib/bufkit.c:33:15\n"
    "\n"
    "SUMMARY: AddressSanitizer: heap-buffer-overflow (/out/build/verify/san_bufkit/t+0x1) in printf_common\n";

/* A read one past the end of a local array of the test. */
static const char *STACK_RIGHT =
    "==1==ERROR: AddressSanitizer: stack-buffer-overflow on address 0x7ffe00000041 at pc 0x1 bp 0x2 sp 0x3\n"
    "READ of size 1 at 0x7ffe00000041 thread T0\n"
    "    #0 0x55b74f21a0f7 in buf_sum /src/lib/bufkit.c:44:35\n"
    "    #1 0x55b74f219f9e in test_buf_sum_2 /out/build/verify/san_bufkit/test_bufkit.c:52:15\n"
    "\n"
    "Address 0x7ffe00000041 is located in stack of thread T0 at offset 41 in frame\n"
    "    #0 0x55b74f219eaf in test_buf_sum_2 /out/build/verify/san_bufkit/test_bufkit.c:48\n"
    "\n"
    "  This frame has 1 object(s):\n"
    "    [32, 41) 'buf_obj' (line 50) <== Memory access at offset 41 overflows this variable\n"
    "SUMMARY: AddressSanitizer: stack-buffer-overflow /src/lib/bufkit.c:44:35 in buf_sum\n";

static const char *UBSAN_OVERFLOW =
    "[ RUN      ] test_unit_cost_2\n"
    "/src/lib/bufkit.c:51:36: runtime error: signed integer overflow: 1033 * 5000000 cannot be represented in type "
    "'int'\n"
    "    #0 0x55cb3ae658ad in unit_cost /src/lib/bufkit.c:51:36\n"
    "    #1 0x55cb3ae64fca in test_unit_cost_2 /out/build/verify/san_bufkit/test_bufkit.c:155:15\n"
    "\n";

static const char *UBSAN_NULL = "/src/lib/bufkit.c:12:9: runtime error: member access within null pointer of type "
                                "'struct node'\n"
                                "    #0 0x55cb3ae658ad in node_sum /src/lib/bufkit.c:12:9\n\n";

static const char *LEAK = "=================================================================\n"
                          "==20512==ERROR: LeakSanitizer: detected memory leaks\n"
                          "\n"
                          "Direct leak of 3 byte(s) in 1 object(s) allocated from:\n"
                          "    #0 0x558a2752414e in __interceptor_malloc (/out/t+0xa314e)\n"
                          "    #1 0x558a2755f123 in buf_dup /src/lib/bufkit.c:33:15\n"
                          "    #2 0x558a2755efc1 in test_buf_dup_2 /out/build/verify/san_bufkit/test_bufkit.c:60:12\n"
                          "\n"
                          "SUMMARY: AddressSanitizer: 3 byte(s) leaked in 1 allocation(s).\n";

/* An alloca of the unit written past its end: ASan names no frame for it. */
static const char *DYNAMIC_STACK =
    "[ RUN      ] test_merge_35\n"
    "==30986==ERROR: AddressSanitizer: dynamic-stack-buffer-overflow on address 0x7ffc27b459a1 at pc 0x55e0 bp 0x7ffc "
    "sp 0x7ffc\n"
    "WRITE of size 2 at 0x7ffc27b459a1 thread T0\n"
    "    #0 0x55e0a5dd15d9 in __asan_memcpy (/out/t+0xb55d9)\n"
    "    #1 0x55e0a5e34266 in buf_merge /src/lib/bufkit.c:826:5\n"
    "    #2 0x55e0a5e169c9 in test_merge_35 /out/build/verify/san_bufkit/test_bufkit.c:963:15\n"
    "\n"
    "Address 0x7ffc27b459a1 is located in stack of thread T0\n"
    "SUMMARY: AddressSanitizer: dynamic-stack-buffer-overflow (/out/t+0xb55d9) in __asan_memcpy\n";

static unit_san_ctx ctx(const char *const *sized, size_t nsized, int null_input)
{
    unit_san_ctx c = {"test_bufkit.c", HEAP_TEST_TEXT, UNIT, 1, sized, nsized, null_input, NULL, 0, NULL, 0};
    return c;
}

static void test_stack_underflow_is_harness(void **state)
{
    (void)state;
    unit_san_ctx c = ctx(NULL, 0, 0);
    unit_san_verdict v;
    unit_san_classify(STACK_UNDERFLOW, &c, &v);
    assert_int_equal(v.kind, USAN_HARNESS);
    assert_string_equal(v.reason, "sanitizer: stack-buffer-underflow on input s (built by the test, not by the unit)");
    unit_san_verdict_free(&v);
}

/* The same read before a buffer given with its length as a plain pointer (frozen's json_vsetf reading s[-1] of
 * `const char *s, int len`): no caller can put anything before it, the unit's bug. */
static void test_underflow_of_whole_buffer_is_bug(void **state)
{
    (void)state;
    static const char *const whole[] = {"s"};
    unit_san_ctx c = ctx(whole, 1, 0);
    c.whole_buffers = whole;
    c.nwhole_buffers = 1;
    unit_san_verdict v;
    unit_san_classify(STACK_UNDERFLOW, &c, &v);
    assert_int_equal(v.kind, USAN_BUG);
    assert_string_equal(v.reason, "stack-buffer-underflow before the start of input s (a buffer with its length)");
    unit_san_verdict_free(&v);
}

static void test_heap_left_of_test_block_is_harness(void **state)
{
    (void)state;
    unit_san_ctx c = ctx(NULL, 0, 0);
    unit_san_verdict v;
    unit_san_classify(HEAP_LEFT, &c, &v);
    assert_int_equal(v.kind, USAN_HARNESS);
    assert_non_null(strstr(v.reason, "before the start on input s (built by the test"));
    unit_san_verdict_free(&v);
}

static void test_unit_block_overflow_is_bug(void **state)
{
    (void)state;
    unit_san_ctx c = ctx(NULL, 0, 0);
    unit_san_verdict v;
    unit_san_classify(UNIT_HEAP_RIGHT, &c, &v);
    assert_int_equal(v.kind, USAN_BUG);
    assert_string_equal(v.reason, "heap-buffer-overflow on memory the unit allocated");
    /* the excerpt: the error, the access, the frames in the unit, where the object is, the summary */
    assert_non_null(strstr(v.excerpt, "ERROR: AddressSanitizer: heap-buffer-overflow"));
    assert_non_null(strstr(v.excerpt, "  #0 in buf_dup /src/lib/bufkit.c:36:42\n"));
    assert_non_null(strstr(v.excerpt, "to the right of 7-byte region"));
    assert_null(strstr(v.excerpt, "test_buf_dup_4")); /* only the unit's frames */
    unit_san_verdict_free(&v);
}

static void test_dynamic_stack_is_bug(void **state)
{
    (void)state;
    unit_san_ctx c = ctx(NULL, 0, 0);
    unit_san_verdict v;
    unit_san_classify(DYNAMIC_STACK, &c, &v);
    assert_int_equal(v.kind, USAN_BUG);
    assert_non_null(strstr(v.reason, "dynamic-stack-buffer-overflow"));
    unit_san_verdict_free(&v);
}

static void test_assertion_reading_unit_block_is_harness(void **state)
{
    (void)state;
    unit_san_ctx c = ctx(NULL, 0, 0);
    unit_san_verdict v;
    unit_san_classify(TEST_READS_UNIT_BLOCK, &c, &v);
    assert_int_equal(v.kind, USAN_HARNESS);
    assert_non_null(strstr(v.reason, "in the test's own code"));
    unit_san_verdict_free(&v);
}

static void test_past_end_of_sized_input(void **state)
{
    (void)state;
    const char *sized[] = {"buf"};
    unit_san_ctx c = ctx(sized, 1, 0);
    unit_san_verdict v;
    unit_san_classify(STACK_RIGHT, &c, &v); /* buf with a length parameter: the unit's fault */
    assert_int_equal(v.kind, USAN_BUG);
    assert_non_null(strstr(v.reason, "past the end of input buf"));
    unit_san_verdict_free(&v);
    c = ctx(NULL, 0, 0);
    unit_san_classify(STACK_RIGHT, &c, &v); /* no length: the test built too small an object */
    assert_int_equal(v.kind, USAN_HARNESS);
    assert_non_null(strstr(v.reason, "expects a larger object"));
    unit_san_verdict_free(&v);
}

/* An output string (`char *out`, no length, not const) written past its end: the caller sizes that
 * buffer (base64_encode), so the test built too small a one; read past its end: the unit's fault. */
static void test_past_end_of_output_string(void **state)
{
    (void)state;
    const char *sized[] = {"buf"};
    unit_san_ctx c = ctx(sized, 1, 0);
    c.out_strings = sized;
    c.nout_strings = 1;
    const char *r = strstr(STACK_RIGHT, "READ of size");
    assert_non_null(r);
    char wr[2048];
    snprintf(wr, sizeof wr, "%.*sWRITE%s", (int)(r - STACK_RIGHT), STACK_RIGHT, r + 4);
    unit_san_verdict v;
    unit_san_classify(wr, &c, &v);
    assert_int_equal(v.kind, USAN_HARNESS);
    assert_non_null(strstr(v.reason, "expects a larger object"));
    unit_san_verdict_free(&v);
    unit_san_classify(STACK_RIGHT, &c, &v);
    assert_int_equal(v.kind, USAN_BUG);
    unit_san_verdict_free(&v);
}

static void test_ubsan(void **state)
{
    (void)state;
    unit_san_ctx c = ctx(NULL, 0, 0);
    unit_san_verdict v;
    unit_san_classify(UBSAN_OVERFLOW, &c, &v);
    assert_int_equal(v.kind, USAN_BUG);
    assert_non_null(strstr(v.reason, "undefined behaviour: signed integer overflow: 1033 * 5000000"));
    assert_non_null(strstr(v.excerpt, "#0 in unit_cost /src/lib/bufkit.c:51:36"));
    unit_san_verdict_free(&v);
    unit_san_classify(UBSAN_NULL, &c, &v); /* no NULL among the inputs: the unit made it */
    assert_int_equal(v.kind, USAN_BUG);
    unit_san_verdict_free(&v);
    c = ctx(NULL, 0, 1);
    unit_san_classify(UBSAN_NULL, &c, &v); /* the test passed a NULL the function does not accept */
    assert_int_equal(v.kind, USAN_HARNESS);
    assert_non_null(strstr(v.reason, "a NULL input"));
    unit_san_verdict_free(&v);
}

static void test_leak_and_clean(void **state)
{
    (void)state;
    unit_san_ctx c = ctx(NULL, 0, 0);
    unit_san_verdict v;
    unit_san_classify(LEAK, &c, &v);
    assert_int_equal(v.kind, USAN_LEAK);
    assert_non_null(strstr(v.reason, "Direct leak of 3 byte(s)"));
    unit_san_verdict_free(&v);
    unit_san_classify("[ RUN      ] test_buf_sum_1\n[       OK ] test_buf_sum_1\n", &c, &v);
    assert_int_equal(v.kind, USAN_NONE);
    assert_null(v.reason);
    unit_san_classify(NULL, &c, &v);
    assert_int_equal(v.kind, USAN_NONE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stack_underflow_is_harness),
        cmocka_unit_test(test_underflow_of_whole_buffer_is_bug),
        cmocka_unit_test(test_heap_left_of_test_block_is_harness),
        cmocka_unit_test(test_unit_block_overflow_is_bug),
        cmocka_unit_test(test_dynamic_stack_is_bug),
        cmocka_unit_test(test_assertion_reading_unit_block_is_harness),
        cmocka_unit_test(test_past_end_of_sized_input),
        cmocka_unit_test(test_past_end_of_output_string),
        cmocka_unit_test(test_ubsan),
        cmocka_unit_test(test_leak_and_clean),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
