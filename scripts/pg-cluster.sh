#!/usr/bin/env bash
# A private PostgreSQL cluster for development and tests, made with the PostgreSQL binaries on PATH.
#   pg-cluster.sh start DIR     initialises DIR if needed, starts a server on a free 127.0.0.1 port, prints its URL
#   pg-cluster.sh stop DIR      stops it
#   pg-cluster.sh restart DIR   restarts it (fast shutdown: sessions are ended), on the same port
#   pg-cluster.sh destroy DIR   stops it and removes its files
#   pg-cluster.sh log DIR       prints the path of its server log
# initdb refuses to run as root: as root the cluster runs as the `postgres` OS user (runuser). When that user
# cannot enter DIR (a checkout in a folder only root may enter, such as /root), the cluster's own files (data,
# socket, server log) live in a folder of the postgres user under /var/tmp named after DIR, and DIR keeps only the
# port; `destroy` removes both. PG_CLUSTER_OPTIONS adds server options to `start` (scripts/citus.sh preloads Citus).
set -euo pipefail

usage="usage: pg-cluster.sh start|stop|restart|destroy|log DIR"
cmd=${1:?$usage}
dir=${2:?$usage}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

is_root() { [ "$(id -u)" = 0 ]; }

as_owner() {
  if is_root; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

# Where the cluster's files live: DIR itself, unless the postgres OS user (as root) cannot reach it.
cluster_home() {
  if ! is_root; then
    echo "$dir"
  elif runuser -u postgres -- test -x "$(dirname "$dir")"; then
    [ "$(stat -c %U "$dir")" = postgres ] || chown postgres: "$dir"
    echo "$dir"
  else
    local name
    name=$(printf '%s' "$dir" | sha256sum | cut -c1-16)
    local home="/var/tmp/canvass-pg-$name"
    mkdir -p "$home"
    chown postgres: "$home"
    chmod 0700 "$home"
    echo "$home"
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

home=$(cluster_home)
data="$home/data"

stop() {
  if [ -s "$data/PG_VERSION" ]; then
    as_owner "$(pg_bin pg_ctl)" -D "$data" -m fast -w stop >/dev/null 2>&1 || true
  fi
}

case "$cmd" in
  start)
    if [ ! -s "$data/PG_VERSION" ]; then
      as_owner "$(pg_bin initdb)" -D "$data" -U postgres --auth=trust --encoding=UTF8 --no-sync >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    fi
    if as_owner "$(pg_bin pg_ctl)" -D "$data" status >/dev/null 2>&1; then
      port=$(cat "$dir/port")
    else
      for attempt in 1 2 3 4 5 6 7 8; do
        port=$(( 20000 + (RANDOM % 20000) ))
        if as_owner "$(pg_bin pg_ctl)" -D "$data" -l "$home/server.log" -w -t 30 \
             -o "-p $port -c listen_addresses=127.0.0.1 -k $home -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300 ${PG_CLUSTER_OPTIONS:-}" \
             start >/dev/null 2>&1; then
          echo "$port" >"$dir/port"
          break
        fi
        port=""
      done
      [ -n "$port" ] || { tail -n 20 "$home/server.log" >&2; exit 1; }
    fi
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    stop
    ;;
  restart)
    as_owner "$(pg_bin pg_ctl)" -D "$data" -m fast -w -t 30 restart >/dev/null
    ;;
  log)
    echo "$home/server.log"
    ;;
  destroy)
    stop
    [ "$home" = "$dir" ] || rm -rf "$home"
    rm -rf "$dir"
    ;;
  *)
    echo "$usage" >&2
    exit 2
    ;;
esac
