#!/usr/bin/env bash
# `just test-citus`: the black-box suite (tests/), the adapter's tests, the delivery worker tests and the many-servers
# test on a real Citus cluster, a coordinator and two workers started for this run and removed afterwards
# (scripts/citus.sh). Each test database is
# made on all three nodes, migrated and distributed with docs/citus-distribute.sql (crates/dev/canvass-testdb).
# Without citus.so installed it says so in one line and exits 0: see docs/scaling.md, "Testing on a real Citus
# cluster", for how to install it.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

scripts/citus.sh installed || exit 0

mkdir -p .canvass
cluster=$(mktemp -d "$PWD/.canvass/test-citus.XXXXXX")
# CITUS_KEEP=1 leaves the cluster (and its logs) in place for a look afterwards.
[ -n "${CITUS_KEEP:-}" ] || trap 'scripts/citus.sh destroy "$cluster"' EXIT
mapfile -t nodes < <(scripts/citus.sh start "$cluster")
export TEST_DATABASE_URL=${nodes[0]}
export TEST_CITUS_WORKERS="${nodes[*]:1}"
unset DATABASE_URL
echo "== Citus cluster: coordinator ${nodes[0]}, workers ${nodes[*]:1}"

failed=0
echo "== black-box suite on the coordinator"
cargo test -p canvass-blackbox-tests --test blackbox "$@" || failed=1
echo "== the adapter's tests on the coordinator"
# Two are about a single PostgreSQL node: one replays a migration step by step on a test database, one watches a
# lock wait in the coordinator's pg_stat_activity (on Citus the wait happens on a worker).
cargo test -p canvass-postgres --test adapter -- \
  --skip public_handles::the_migration_maps_every_login_sendout_that_exists_and_no_other \
  --skip one_statement::a_replacement_that_waited_for_another_replaces_the_whole_set || failed=1
echo "== delivery worker and many-servers tests on the coordinator"
cargo test -p canvass-server --test binary -- workers:: pace:: many_servers:: || failed=1
if [ "$failed" = 1 ]; then
  echo "== errors the coordinator logged, by message (its log: $(scripts/pg-cluster.sh log "$cluster/coordinator"))"
  grep -h 'ERROR:' "$(scripts/pg-cluster.sh log "$cluster/coordinator")" | sed -E 's/^.*ERROR: +//' | sort | uniq -c \
    | sort -rn | head -n 20
fi
exit "$failed"
