#!/bin/bash
# test_unit_compdb.sh: sympath unit with --compile-commands: scale.c needs -Iinclude and -DSCALE_FACTOR, which
# only a compilation database (written here with absolute paths, relative flags as CMake/Bear write them)
# gives. Without it clang's error is reported; with the directory or the file itself, tests are written,
# the build line carries the flags, and the tests build with -Werror, pass and cover the function. `sympath run`
# takes the same option for a program of two files (the assertion's failing input found, replay agrees).
. "$SRC/tests/e2e/unit_common.sh"
name=unit_compdb
lib="$SRC/tests/unit_libs/cdb"
db="$WORK/unit_compdb_db"
rm -rf "$db"
mkdir -p "$db"
cat >"$db/compile_commands.json" <<JSON
[
  { "directory": "$lib", "command": "cc -Iinclude -DSCALE_FACTOR=3 -std=c11 -O2 -c src/scale.c -o scale.o",
    "file": "src/scale.c" },
  { "directory": "$lib/prog", "arguments": ["cc", "-I../include", "-DSCALE_FACTOR=3", "-c", "main.c"], "file": "main.c" }
]
JSON
"$SYMPATH" unit "$lib/src/scale.c" --all -o "$WORK/unit_compdb_none" --no-progress >"$WORK/unit_compdb_none.log" 2>&1
[ $? -eq 1 ] || fail "without the database: expected exit 1"
grep -q "'scale_cfg.h' file not found" "$WORK/unit_compdb_none.log" || fail "clang's error is not shown"
unit_run compdb tests/unit_libs/cdb/src/scale.c -- --all --compile-commands "$db" --budget 6s
grep -q -- "-I$lib/include" "$out/BUILD.txt" || fail "the build line lacks the database's -I (made absolute)"
grep -q -- '-DSCALE_FACTOR=3' "$out/BUILD.txt" || fail "the build line lacks the database's -D"
extra_cflags=("-I$lib/include" -DSCALE_FACTOR=3)
expect_sympath_cov scale
build_and_run scale
expect_gcov scale 100
# the database given as a file of another name
cp "$db/compile_commands.json" "$db/other.json"
"$SYMPATH" unit "$lib/src/scale.c" --all --compile-commands "$db/other.json" --budget 2s -o "$WORK/unit_compdb_file" \
    --no-progress >"$WORK/unit_compdb_file.log" 2>&1 || { tail -20 "$WORK/unit_compdb_file.log"; fail "database given as a file"; }
[ -f "$WORK/unit_compdb_file/test_scale.c" ] || fail "database given as a file: no test file"
# sympath run on a program of two files takes the same option
rm -rf "$WORK/unit_compdb_run"
"$SYMPATH" run "$lib/prog/main.c" "$lib/src/scale.c" --compile-commands "$db" --budget 3s -o "$WORK/unit_compdb_run" \
    >"$WORK/unit_compdb_run.log" 2>&1 || { tail -20 "$WORK/unit_compdb_run.log"; fail "sympath run --compile-commands"; }
[ -f "$WORK/unit_compdb_run/report.json" ] || fail "sympath run: no report"
ls "$WORK/unit_compdb_run/errors/"error-*.xml >/dev/null 2>&1 || fail "sympath run: the saturating input was not found"
"$SYMPATH" replay "$WORK/unit_compdb_run" >"$WORK/unit_compdb_replay.log" 2>&1 || { cat "$WORK/unit_compdb_replay.log"; fail "replay"; }
pass
