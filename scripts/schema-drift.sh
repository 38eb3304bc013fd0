#!/usr/bin/env bash
# The schema drift check: fails when crates/canvass-postgres/src/schema.rs is not what `diesel print-schema` prints
# (as diesel.toml configures it, schema.patch applied) for a scratch database migrated from migrations/.
#   schema-drift.sh           check (`just test` runs this)
#   schema-drift.sh --write   rewrite schema.rs from the migrations instead; review the diff before committing
# The scratch database lives on the server of TEST_DATABASE_URL (or DATABASE_URL) and is dropped afterwards; with
# neither set, a throwaway cluster is started (scripts/with-test-db.sh). Needs diesel_cli (scripts/dev-tools.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

mode=${1:-check}
case "$mode" in
  check|--write) ;;
  *) echo "usage: schema-drift.sh [--write]" >&2; exit 2 ;;
esac
if [ -z "${TEST_DATABASE_URL:-}" ] && [ -z "${DATABASE_URL:-}" ]; then
  exec scripts/with-test-db.sh "$0" "$@"
fi
server_url=${TEST_DATABASE_URL:-$DATABASE_URL}
command -v diesel >/dev/null 2>&1 || { echo "schema-drift: diesel_cli is missing; run scripts/dev-tools.sh" >&2; exit 1; }

# The same server, another database: replace the URL's path, keep its query.
query=""
case "$server_url" in *\?*) query="?${server_url#*\?}" ;; esac
base=${server_url%%\?*}
scratch="canvass_schema_drift_$$_$RANDOM"
url="${base%/*}/$scratch$query"
schema=crates/canvass-postgres/src/schema.rs
printed=$(mktemp)
trap 'diesel database drop --database-url "$url" >/dev/null 2>&1 || true; rm -f "$printed"' EXIT

if [ "$mode" = --write ]; then
  diesel database setup --no-default-migration --database-url "$url" >/dev/null
  echo "schema-drift: $schema rewritten from migrations/"
  exit 0
fi
if ! diesel database setup --no-default-migration --locked-schema --database-url "$url" >/dev/null; then
  if diesel print-schema --database-url "$url" >"$printed" 2>/dev/null; then
    diff -u "$schema" "$printed" >&2 || true
  fi
  echo "schema-drift: $schema does not match migrations/; run scripts/schema-drift.sh --write and review the diff" >&2
  exit 1
fi
echo "schema-drift: $schema matches migrations/"
