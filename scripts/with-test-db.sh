#!/usr/bin/env bash
# Runs a command with TEST_DATABASE_URL set: to TEST_DATABASE_URL or DATABASE_URL when given, otherwise to a
# throwaway PostgreSQL cluster started for this run and removed afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${TEST_DATABASE_URL:-}" ] && [ -n "${DATABASE_URL:-}" ]; then
  export TEST_DATABASE_URL="$DATABASE_URL"
fi
if [ -z "${TEST_DATABASE_URL:-}" ]; then
  mkdir -p .canvass
  cluster=$(mktemp -d "$PWD/.canvass/test-pg.XXXXXX")
  trap 'scripts/pg-cluster.sh destroy "$cluster"' EXIT
  TEST_DATABASE_URL=$(scripts/pg-cluster.sh start "$cluster")
  export TEST_DATABASE_URL
  echo "== throwaway PostgreSQL at $TEST_DATABASE_URL"
fi
"$@"
