#!/usr/bin/env bash
# `just test`: every check and test. Tests use TEST_DATABASE_URL or DATABASE_URL when set; otherwise a
# throwaway PostgreSQL cluster is started for this run and removed afterwards. Each test makes its own database.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

# cargo-machete and diesel_cli at their pinned versions; installed here when missing.
scripts/dev-tools.sh
# axe-core for the accessibility test, as tests/browser/package-lock.json pins it; without npm the test says it is
# skipped (CI installs npm and runs `npm ci` itself).
if [ ! -d tests/browser/node_modules ] && command -v npm >/dev/null 2>&1; then
  (cd tests/browser && npm ci --no-audit --no-fund)
fi

echo "== layering: the domain crate depends on no adapter or runtime, the HTTP crate on no storage or mail"
refuse() { # crate dependency...
  local crate=$1 dep
  shift
  for dep in "$@"; do
    # A dependency reached only through dev-dependencies (test support) prints an empty tree: not a dependency.
    if [ -n "$(cargo tree -q -p "$crate" -e normal,build -i "$dep" 2>/dev/null)" ]; then
      echo "$crate depends on $dep" >&2
      exit 1
    fi
  done
}
refuse canvass-domain diesel actix-web tokio
refuse canvass-http canvass-postgres diesel r2d2 pq-sys
# Mail is sent by the server's workers only; the HTTP crate reads notifications with canvass-dsn.
refuse canvass-http canvass-mail lettre mail-send mail-builder

echo "== the API and security tests speak HTTP only (docs/ARCHITECTURE.md, \"Testing\")"
# What needs the domain, the adapter or SQL goes to crates/canvass-postgres/tests or tests/system; the operator's
# actions (accounts, keys, sender numbers) are in tests/helpers.rs.
if grep -rlE 'canvass_domain|canvass_postgres|diesel|sql_query|\.db\.' tests/api.rs tests/api tests/security.rs tests/security; then
  echo "these black-box tests use more than HTTP" >&2
  exit 1
fi

echo "== tests that still pass next month: no literal date within two years of today in them"
scripts/dated-tests.py

echo "== migrations: one naming scheme (migrations/README.md)"
scripts/migration-names.py

echo "== unused dependencies (cargo-machete)"
cargo machete

echo "== schema drift: schema.rs is what diesel print-schema makes of the migrations"
scripts/schema-drift.sh

echo "== format and lints"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --quiet -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --quiet --no-deps -p canvass-domain

echo "== tests (each distinct statement the application sends to PostgreSQL is captured for the next check)"
statements=$(mktemp "${TMPDIR:-/tmp}/canvass-statements.XXXXXX")
trap 'rm -f "$statements"' EXIT
CANVASS_CAPTURE_STATEMENTS="$statements" scripts/with-test-db.sh cargo test --workspace --quiet

echo "== the store's lane, model-checked: its real code on shuttle's threads under drawn schedules (lane/model.rs)"
cargo test -p canvass-http --features lane-model --lib --quiet lane::model

echo "== one shard per statement: every statement on an account table names its account (docs/scaling.md)"
# `cargo test --workspace` built the checker (its own tests run it); running it directly avoids a second build.
"${CARGO_TARGET_DIR:-target}/debug/canvass-statements" "$statements" docs/citus-allowlist.txt

echo "== fuzz: the served OpenAPI document against the service (time-boxed, fixed seed; \`just fuzz\` explores)"
# A fixed seed makes this pass repeatable: the same cases on every run, so a red run is a change in the code, not a
# new draw. `just fuzz` draws a new seed each run to look further; FUZZ_SEED= (empty) draws one here too.
FUZZ_SEED=${FUZZ_SEED-299246638734824689451165627980769222050} scripts/fuzz.sh "${FUZZ_SECONDS:-180}"
