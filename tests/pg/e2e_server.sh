# e2e_server.sh: sourced by the PostgreSQL end-to-end tests: a throw-away server for the test (pg_server.sh), stopped at exit; sets PGS, D, CI and PSQL.
# Usage (bash, with fail() defined): . "$SRC/tests/pg/e2e_server.sh" TAG   — TAG names the test in its skip message.
PGS="$SRC/tests/pg/pg_server.sh"
D=$(mktemp -d /tmp/sympath-e2e-pgXXXXXX)
trap 'sh "$PGS" stop "$D"; rm -rf "$D"' EXIT
CI=$(sh "$PGS" start "$D")
rc=$?
[ $rc -eq 77 ] && { echo "skipped [$1]: PostgreSQL server binaries not installed (scripts/install-deps.sh)"; exit 77; }
[ $rc -eq 0 ] || fail "cannot start a PostgreSQL server in $D"
PSQL="$(sh "$PGS" bin)/psql"
