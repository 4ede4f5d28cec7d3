#!/bin/bash
# test_unit_alloc_cb.sh: callbacks that allocate (issue 13, json-parser's json_settings). On arena.c the parser's
# memory comes from `void *(*mem_alloc)(size_t size, int zero, void *user_data)` and `mem_free`: the stand-in
# returns a zeroed block of the size asked for (calloc), NULL only when the test queues it (out of memory, the
# explorer's choice), and the free stand-in frees; the emitted test shows the same stand-ins; no test is dropped
# by the sanitizer check (a block too small for the label's memcpy was one) and the tests pass natively. A stream
# whose allocator the test sets (tokstream.c, as pdjson's json_set_allocator): its release (ts_close) calls the
# free stand-in after the call, which accepts those calls, so no test leaks its word (one was dropped).
. "$SRC/tests/e2e/unit_common.sh"
unit_run alloc_cb tests/programs/unit/arena.c -- --function list_parse_ex --budget 50s --max-execs 2300
expect_text arena '^    if \(mock_type\(int\)\) return NULL;' "an allocator stand-in returning NULL when the test queues it"
expect_text arena '^    return calloc\(1, a0\);' "an allocator stand-in returning a block of the size asked for"
expect_text arena '^    free\(a0\);' "a free stand-in releasing the block"
expect_text arena '^    will_return\(stub_mem_alloc, 1\);' "a test of the out-of-memory path"
expect_text arena '^    expect_value\(stub_mem_alloc, a0, 24\);' "the size asked for asserted"
jq -e '[.functions[] | .sanitizer.checked and .sanitizer.dropped == 0 and .sanitizer.bugs == 0] | all' "$out/report.json" >/dev/null ||
    fail "the sanitizer check did not run, dropped tests or found bugs: $(jq -c '[.functions[] | .sanitizer]' "$out/report.json")"
build_and_run arena
expect_gcov list_parse_ex 85
# the same tests under ASan+UBSan+LSan, built here
(cd "$out.bin" && cc -g -fsanitize=address,undefined -fno-sanitize-recover=all -I"$SRC/tests/programs/unit" \
    "$out/test_arena.c" "$SRC/tests/programs/unit/arena.c" -lcmocka -o test_arena_san && ./test_arena_san) \
    >"$out.bin/san.log" 2>&1 || { tail -30 "$out.bin/san.log"; fail "the tests fail under ASan+UBSan+LSan"; }
# a realloc-like callback (`void *(*mem_realloc)(void *ptr, size_t size, void *user)`): the block moves with its
# bytes (realloc), size 0 frees it; the out-of-memory path frees what it had: no leak, no drop
unit_run alloc_cb_realloc tests/programs/unit/grow.c -- --function grow_copy --budget 18s
expect_text grow '^    return realloc\(a0, a1\);' "a realloc stand-in moving the block"
expect_text grow '^    if \(a1 == 0\) \{ /\* size 0 frees the block \*/' "size 0 freeing the block"
jq -e '[.functions[] | .sanitizer.checked and .sanitizer.dropped == 0 and .sanitizer.bugs == 0] | all' "$out/report.json" >/dev/null ||
    fail "grow_copy: the sanitizer check dropped tests or found bugs: $(jq -c '[.functions[] | .sanitizer]' "$out/report.json")"
build_and_run grow
expect_gcov grow_copy 75
# the stand-in free accepts the release's calls: the stream is closed, nothing leaks, nothing is dropped
unit_run alloc_cb_stream tests/unit_libs/allocstream/tokstream.c -- --function ts_next --budget 10s
expect_text tokstream '^    expect_any_count\(stub_free, a0, -2\);' "the free stand-in accepting the release's calls"
expect_text tokstream '^    ts_close\(&s_obj\);' "the stream released after a test that set its allocator"
expect_no_drops
build_and_run tokstream
expect_gcov ts_next 100
pass
