#!/bin/bash
# test_unit_fields.sh: a reader that hands each field to a callback with its length (issue 13, libcsv's shape:
# csv_init, csv_parse(p, s, len, cb1, cb2, data), csv_fini). tests/unit_libs/fields: fr_feed grows its buffer with
# realloc, so the bytes past the field are the allocator's: the test asserts the field's bytes (up to `pos`, the
# buffer struct's used length) and no test is lost to them; fr_finish needs a reader fed before it, so fr_feed, whose
# `void *user` goes with a callback, is a step of its construction; the callback's field is asserted by its bytes
# (expect_memory), not as "an address the unit made".
. "$SRC/tests/e2e/unit_common.sh"
unit_run fields tests/unit_libs/fields/fields.c -- --function fr_feed --function fr_finish --budget 40s --max-execs 800
expect_text fields '^    assert_memory_equal\(r_obj\.buf, "[^"]+", [0-9]+\);' "the field's bytes asserted up to pos"
expect_text fields '^    fr_feed\(r, r_s, [0-9]+, stub_on_field, r_user\);' "a reader fed before fr_finish"
expect_text fields '^    expect_memory\(stub_on_field, a0, "[^"]+", sizeof "[^"]+" - 1\);' "the field handed to the callback asserted"
expect_no_drops
build_and_run fields
expect_gcov fr_feed 80
expect_gcov fr_finish 100
pass
