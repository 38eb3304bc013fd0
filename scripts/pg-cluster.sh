#!/usr/bin/env bash
# A private PostgreSQL cluster for development and tests, made with the PostgreSQL binaries on PATH.
#   pg-cluster.sh start DIR   initialises DIR if needed, starts a server on a free 127.0.0.1 port, prints its URL
#   pg-cluster.sh stop DIR    stops it
# initdb refuses to run as root: as root the cluster runs as the `postgres` OS user (runuser).
set -euo pipefail

cmd=${1:?usage: pg-cluster.sh start|stop DIR}
dir=${2:?usage: pg-cluster.sh start|stop DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
data="$dir/data"

as_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

pg_bin() {
  if command -v "$1" >/dev/null 2>&1; then
    command -v "$1"
  else
    local found
    found=$(ls -d /usr/lib/postgresql/*/bin/"$1" 2>/dev/null | sort -V | tail -n 1)
    [ -n "$found" ] || { echo "pg-cluster: $1 not found; install the PostgreSQL server binaries" >&2; exit 1; }
    echo "$found"
  fi
}

case "$cmd" in
  start)
    if [ ! -s "$data/PG_VERSION" ]; then
      [ "$(id -u)" = 0 ] && chown postgres: "$dir"
      as_owner "$(pg_bin initdb)" -D "$data" -U postgres --auth=trust --encoding=UTF8 --no-sync >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    fi
    if as_owner "$(pg_bin pg_ctl)" -D "$data" status >/dev/null 2>&1; then
      port=$(cat "$dir/port")
    else
      for attempt in 1 2 3 4 5 6 7 8; do
        port=$(( 20000 + (RANDOM % 20000) ))
        if as_owner "$(pg_bin pg_ctl)" -D "$data" -l "$dir/server.log" -w -t 30 \
             -o "-p $port -c listen_addresses=127.0.0.1 -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
             start >/dev/null 2>&1; then
          echo "$port" >"$dir/port"
          break
        fi
        port=""
      done
      [ -n "$port" ] || { tail -n 20 "$dir/server.log" >&2; exit 1; }
    fi
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    if [ -s "$data/PG_VERSION" ]; then
      as_owner "$(pg_bin pg_ctl)" -D "$data" -m fast -w stop >/dev/null 2>&1 || true
    fi
    ;;
  *)
    echo "usage: pg-cluster.sh start|stop DIR" >&2
    exit 2
    ;;
esac
