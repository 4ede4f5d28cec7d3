#!/bin/bash
# test_unit_opener.sh: a type opened and closed by the unit's own API (issue 13 items 2 and 4), the shape of pdjson's
# json_open_buffer / json_next / json_close, in a source that selects POSIX.1-2001 (`#define _POSIX_C_SOURCE
# 200112L`). The emitted tests open the stream with ws_open, close it with ws_close after their assertions (what
# ws_next allocated is released: before, LeakSanitizer dropped every test that read a word), define the feature-test
# macro before their first #include (after <stdlib.h> it was a redefinition, and no test compiled with -Werror),
# and pass natively.
. "$SRC/tests/e2e/unit_common.sh"
name=opener
unit_run opener tests/unit_libs/opener/wordstream.c -- --function ws_next --budget 30s --max-execs 510
t="$out/test_wordstream.c"
expect_text wordstream '^    ws_open\(&ws_obj, ws_text, [0-9]+\);' "a stream opened by ws_open"
opened=$(grep -c '^    ws_open(&ws_obj' "$t")
closed=$(grep -c '^    ws_close(&ws_obj);' "$t")
[ "$opened" -gt 0 ] && [ "$opened" = "$closed" ] || fail "$opened streams opened, $closed closed"
first_include=$(grep -n '^#include' "$t" | head -1 | cut -d: -f1)
feature=$(grep -n '^#define _POSIX_C_SOURCE 200112L' "$t" | head -1 | cut -d: -f1)
[ -n "$feature" ] && [ "$feature" -lt "$first_include" ] || fail "_POSIX_C_SOURCE is not defined before the first #include"
expect_no_san_drops
build_and_run wordstream
expect_gcov ws_next 80
pass
