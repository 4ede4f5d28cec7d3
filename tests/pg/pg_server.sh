#!/bin/sh
# pg_server.sh: a throw-away PostgreSQL server for the tests, in a directory, on a Unix socket only.
#
#   pg_server.sh start DIR   initdb in DIR/data, start the server listening only on the Unix
#                            socket DIR/.s.PGSQL.5432 (no TCP port), print its conninfo
#                            "host=DIR port=5432 dbname=postgres user=postgres" on stdout
#   pg_server.sh stop DIR    stop it (fast shutdown, then SIGKILL of the postmaster if that
#                            fails); always exits 0 so it can run from a trap
#   pg_server.sh bin         print the directory of the server binaries (psql is there too)
#
# initdb refuses to run as root: as root, DIR is given to an unprivileged user
# (PG_SERVER_USER, default nobody) and the server runs as that user; DIR's parents must
# be searchable by it (/tmp is). The superuser role is "postgres" with trust
# authentication, so any local user can connect. Exit status 77 (the tests' "skip") when
# the server binaries are not installed (scripts/install-deps.sh installs them), 1 on any
# other failure (the server log is printed on stderr).
set -u

find_bin() {
    for d in ${PG_BIN:-} /usr/lib/postgresql/15/bin /usr/lib/postgresql/*/bin; do
        [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && [ -x "$d/postgres" ] && { echo "$d"; return 0; }
    done
    command -v pg_ctl >/dev/null 2>&1 && command -v initdb >/dev/null 2>&1 &&
        { dirname "$(command -v pg_ctl)"; return 0; }
    return 1
}

# as_owner CMD...: run CMD as the user who owns the cluster (the unprivileged user when root)
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u "${PG_SERVER_USER:-nobody}" -- "$@"
    else
        "$@"
    fi
}

cmd=${1:-}
BIN=$(find_bin) || { echo "pg_server.sh: PostgreSQL server binaries (initdb, pg_ctl) not found" >&2; exit 77; }
case "$cmd" in
bin)
    echo "$BIN"
    ;;
start)
    DIR=${2:?usage: pg_server.sh start DIR}
    mkdir -p "$DIR" || exit 1
    DIR=$(cd "$DIR" && pwd) || exit 1
    case "$DIR" in *\'*|*\ *) echo "pg_server.sh: DIR must not contain quotes or blanks" >&2; exit 1 ;; esac
    # a Unix socket path is at most 107 bytes
    [ ${#DIR} -le 90 ] || { echo "pg_server.sh: DIR too long for a Unix socket path: $DIR" >&2; exit 1; }
    rm -rf "$DIR/data"
    if [ "$(id -u)" -eq 0 ]; then
        chown "${PG_SERVER_USER:-nobody}" "$DIR" || exit 1
        chmod 700 "$DIR"
    fi
    as_owner "$BIN/initdb" -D "$DIR/data" -U postgres -A trust --no-locale -E UTF8 --no-sync \
        >"$DIR/initdb.log" 2>&1 || { cat "$DIR/initdb.log" >&2; exit 1; }
    cat >>"$DIR/data/postgresql.conf" <<EOF
# pg_server.sh: a test server, Unix socket only, no durability
listen_addresses = ''
unix_socket_directories = '$DIR'
port = 5432
fsync = off
synchronous_commit = off
full_page_writes = off
shared_buffers = 16MB
max_connections = 30
EOF
    as_owner "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 60 start >"$DIR/pg_ctl.log" 2>&1 ||
        { cat "$DIR/pg_ctl.log" "$DIR/server.log" >&2; exit 1; }
    echo "host=$DIR port=5432 dbname=postgres user=postgres"
    ;;
stop)
    DIR=${2:?usage: pg_server.sh stop DIR}
    [ -f "$DIR/data/postmaster.pid" ] || exit 0
    as_owner "$BIN/pg_ctl" -D "$DIR/data" -m fast -w -t 30 stop >/dev/null 2>&1 && exit 0
    pid=$(head -n 1 "$DIR/data/postmaster.pid" 2>/dev/null)
    [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
    exit 0
    ;;
*)
    echo "usage: pg_server.sh start DIR | stop DIR | bin" >&2
    exit 2
    ;;
esac
