#!/bin/sh
# install-deps.sh: installs every Debian package sympath needs to build, test and replay.
set -e
# openmpi-bin, libopenmpi-dev: sympath run --mpi (src/parallel) and its tests
# chromium: tests/e2e/test_report_db.sh renders the HTML report headless (skipped without it)
PKGS="clang-14 clang-format-14 llvm-14 llvm-14-dev libz3-dev cmake make gcc libcmocka-dev gcovr jq libsqlite3-dev sqlite3 libpg-query-dev libprotobuf-c-dev libclang-14-dev libpq-dev postgresql python3-jsonschema chromium libclang-rt-14-dev openmpi-bin libopenmpi-dev"
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "install-deps: installing$missing" >&2
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq || true
$SUDO apt-get install -y -qq $missing
