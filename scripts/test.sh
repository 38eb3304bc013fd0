#!/usr/bin/env bash
# `just test`: every check and test. Tests use TEST_DATABASE_URL or DATABASE_URL when set; otherwise a
# throwaway PostgreSQL cluster is started for this run and removed afterwards. Each test makes its own database.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

# cargo-machete and diesel_cli at their pinned versions; installed here when missing.
scripts/dev-tools.sh

echo "== layering: the domain crate depends on no adapter or runtime"
for dep in diesel actix-web tokio; do
  if cargo tree -q -p canvass-domain -e normal,build -i "$dep" >/dev/null 2>&1; then
    echo "canvass-domain depends on $dep" >&2
    exit 1
  fi
done

echo "== unused dependencies (cargo-machete)"
cargo machete

echo "== schema drift: schema.rs is what diesel print-schema makes of the migrations"
scripts/schema-drift.sh

echo "== format and lints"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --quiet -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --quiet --no-deps -p canvass-domain

echo "== tests"
scripts/with-test-db.sh cargo test --workspace --quiet

echo "== fuzz: the served OpenAPI document against the service (time-boxed; \`just fuzz\` runs longer)"
scripts/fuzz.sh "${FUZZ_SECONDS:-180}"
