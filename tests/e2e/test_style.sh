#!/bin/bash
# test_style.sh: every C file of src/, include/ and the C tests follows .clang-format (clang-format-14 --dry-run).
set -u
SRC=${SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$SRC" || exit 1
command -v clang-format-14 >/dev/null || { echo "skipped: clang-format-14 is not installed (scripts/install-deps.sh)"; exit 77; }
files=$(find src include tests/unit tests/fuzz -name '*.[ch]' | sort)
if ! out=$(clang-format-14 --dry-run -Werror $files 2>&1); then
    echo "$out" | grep -E "error:" | head -20
    echo "FAIL [style]: files above differ from .clang-format; run: clang-format-14 -i <file>"
    exit 1
fi
echo "ok [style]: $(echo "$files" | wc -l) files follow .clang-format"
