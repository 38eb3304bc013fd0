#!/usr/bin/env bash
# A real Citus for the developer loop (docs/scaling.md, "Testing on a real Citus cluster").
#   citus.sh install SRC    builds the Citus checkout SRC (tag v13.2.2 for PostgreSQL 15) against the Debian server
#                           headers and installs citus.so into the PostgreSQL the PATH or /usr/lib/postgresql gives
#   citus.sh installed      exits 0 when citus.so is installed, 1 (and says so in one line) when not
#   citus.sh start DIR      a coordinator and two workers as local clusters under DIR, workers registered; prints
#                           the three URLs, coordinator first, one a line
#   citus.sh stop DIR       stops the three
#   citus.sh destroy DIR    stops them and removes their files
# No Citus code lives in this repository: bring its public source onto the machine (the search tool's fetch of
# citusdata/citus, or `git clone`), check out v13.2.2, and give that folder to `install`.
set -euo pipefail
cd "$(dirname "$0")/.."

usage="usage: citus.sh install SRC | installed | start|stop|destroy DIR"
cmd=${1:?$usage}

pg_config_bin() {
  if command -v pg_config >/dev/null 2>&1; then command -v pg_config; else
    ls -d /usr/lib/postgresql/*/bin/pg_config 2>/dev/null | sort -V | tail -n 1
  fi
}

# PostgreSQL 15.20 declares have_createdb_privilege() in commands/dbcommands.h; Citus 13.2's pg_version_compat.h
# defines a static inline of the same name for PostgreSQL 15, and the two clash. Fenced off for 15.20 and later
# (the server's own function does the same). Idempotent: a checkout patched once is left as it is.
patch_compat() {
  local header="$1/src/include/pg_version_compat.h"
  grep -q 'canvass: have_createdb_privilege' "$header" && return 0
  perl -0pi -e 's{\nstatic inline bool\nhave_createdb_privilege\(void\)\n\{.*?\n\}\n}{\n/* canvass: have_createdb_privilege comes from commands/dbcommands.h since PostgreSQL 15.20 */\n#if PG_VERSION_NUM < 150020$&#else\n#include "commands/dbcommands.h"\n#endif\n}s' "$header"
  grep -q 'canvass: have_createdb_privilege' "$header" || { echo "citus.sh: $header: have_createdb_privilege not found" >&2; exit 1; }
}

install_citus() {
  local src=${1:?$usage}
  [ -x "$src/configure" ] || { echo "citus.sh: $src is not a Citus checkout" >&2; exit 1; }
  local pg_config
  pg_config=$(pg_config_bin)
  [ -n "$pg_config" ] || { echo "citus.sh: pg_config not found; apt-get install postgresql-server-dev-15" >&2; exit 1; }
  if [ ! -e "$("$pg_config" --includedir-server)/postgres.h" ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "postgresql-server-dev-$("$pg_config" --version | sed -E 's/[^0-9]*([0-9]+).*/\1/')"
  fi
  # What Citus's configure asks for: curl (statistics collection, off below), lz4 and zstd (columnar compression).
  local need=()
  for pkg in liblz4-dev libzstd-dev libkrb5-dev libssl-dev libselinux1-dev libxslt1-dev libpam0g-dev libreadline-dev; do
    dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
  done
  if [ ${#need[@]} -gt 0 ]; then DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}"; fi
  patch_compat "$src"
  (
    cd "$src"
    # A fresh clone's files all carry the checkout's time, in no set order: make would then take configure for
    # older than configure.ac and regenerate it, which needs autoconf. configure is the checked-in, newer one.
    touch configure
    PG_CONFIG="$pg_config" ./configure --without-libcurl >configure.log 2>&1 || { tail -n 30 configure.log >&2; exit 1; }
    make -j"$(nproc)" >make.log 2>&1 || { grep -m 20 -E 'error' make.log >&2; exit 1; }
    make install >install.log 2>&1 || { tail -n 30 install.log >&2; exit 1; }
  )
  echo "citus.sh: installed $(ls "$("$pg_config" --pkglibdir)/citus.so")"
}

is_installed() {
  local pg_config
  pg_config=$(pg_config_bin)
  [ -n "$pg_config" ] && [ -e "$("$pg_config" --pkglibdir)/citus.so" ]
}

nodes=(coordinator worker1 worker2)

# The three clusters are pg-cluster.sh's, with citus preloaded; a node's port is in DIR/NODE/port.
start_cluster() {
  local dir=${1:?$usage} node url port
  # Four shards a table (Citus's default is 32) keep a test database's distribution quick and still spread every
  # table over both workers; CITUS_SHARD_COUNT changes it.
  local options="-c shared_preload_libraries=citus -c citus.shard_count=${CITUS_SHARD_COUNT:-4} -c max_prepared_transactions=300"
  local urls=()
  for node in "${nodes[@]}"; do
    url=$(PG_CLUSTER_OPTIONS="$options" scripts/pg-cluster.sh start "$dir/$node")
    urls+=("$url")
  done
  port=$(cat "$dir/coordinator/port")
  local coordinator=${urls[0]}
  psql -qAt "$coordinator" -v ON_ERROR_STOP=1 -c "CREATE EXTENSION IF NOT EXISTS citus" >/dev/null
  psql -qAt "$coordinator" -v ON_ERROR_STOP=1 -c "SELECT citus_set_coordinator_host('127.0.0.1', $port)" >/dev/null
  for node in worker1 worker2; do
    psql -qAt "${urls[$([ "$node" = worker1 ] && echo 1 || echo 2)]}" -v ON_ERROR_STOP=1 \
      -c "CREATE EXTENSION IF NOT EXISTS citus" >/dev/null
    psql -qAt "$coordinator" -v ON_ERROR_STOP=1 \
      -c "SELECT citus_add_node('127.0.0.1', $(cat "$dir/$node/port"))" >/dev/null
  done
  printf '%s\n' "${urls[@]}"
}

case "$cmd" in
  install) install_citus "${2:-}" ;;
  installed)
    is_installed || { echo "citus.so is not installed: see docs/scaling.md, \"Testing on a real Citus cluster\""; exit 1; }
    ;;
  start) start_cluster "${2:-}" ;;
  stop | destroy)
    for node in "${nodes[@]}"; do scripts/pg-cluster.sh "$cmd" "${2:?$usage}/$node"; done
    [ "$cmd" = stop ] || rm -rf "${2:?$usage}"
    ;;
  *)
    echo "$usage" >&2
    exit 2
    ;;
esac
