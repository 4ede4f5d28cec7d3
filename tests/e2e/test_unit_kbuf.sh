#!/bin/bash
# test_unit_kbuf.sh: a struct with an invariant and no constructor (issue 13 item 2): kbuf.c's `kbuf { size_t l, m;
# char *s; }`, klib's kstring_t shape. The inputs are buffers as the library keeps them (a heap block of m bytes, l <= m,
# or {0, 0, NULL}), never unrelated fields (`.l = 2147483647, .m = 19` over 17 bytes: every such test was out of
# bounds); `kb_resize(kbuf *s, size_t size)` gets one buffer, not an array of `size` of them; the bytes a call appended
# are asserted over the used length; no test is dropped by the sanitizer check or reported as a bug, and the suite
# passes natively with branch coverage.
. "$SRC/tests/e2e/unit_common.sh"
name=kbuf
unit_run kbuf tests/unit_libs/kbuf/kbuf.c -- --all --budget 60s --max-execs 150
t="$out/test_kbuf.c"
grep -q 'kbuf s_obj\[' "$t" && fail "a kbuf parameter is built as an array"
bad=$(grep -o '\.l = [0-9]*, \.m = [0-9]*' "$t" | awk -F'[ ,=]+' '$2 + 0 > $4 + 0' | head -1)
[ -z "$bad" ] || fail "a buffer with more bytes used than allocated: $bad"
grep -Eq '\.l = [0-9]+, \.m = [0-9]+, \.s = s_s' "$t" || fail "no buffer built over its own block"
[ -f "$out/test_kbuf_bugs.c" ] && fail "false bugs reported in test_kbuf_bugs.c"
expect_no_san_drops
build_and_run kbuf
expect_gcov kb_find 100
expect_gcov kb_resize 85
expect_gcov kb_putsn 75
pass
