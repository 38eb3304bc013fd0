#!/usr/bin/env bash
# Installs the command-line tools that `just test` runs, at pinned versions, when they are missing or at another
# version (`cargo install --locked`, into ~/.cargo/bin):
#   cargo-machete  finds dependencies a crate declares but never uses;
#   diesel_cli     prints the schema of a migrated database (the schema drift check), PostgreSQL only; kept at the
#                  version of diesel in Cargo.lock.
set -euo pipefail
export PATH="$HOME/.cargo/bin:$PATH"

MACHETE_VERSION=0.9.2
DIESEL_CLI_VERSION=2.3.14

if [ "$(cargo-machete --version 2>/dev/null)" != "$MACHETE_VERSION" ]; then
  echo "== installing cargo-machete $MACHETE_VERSION (cargo install --locked; about 2 minutes, once)"
  cargo install --quiet --locked "cargo-machete@$MACHETE_VERSION"
fi

if ! diesel --version 2>/dev/null | grep -qx " *Version: $DIESEL_CLI_VERSION"; then
  echo "== installing diesel_cli $DIESEL_CLI_VERSION (cargo install --locked, PostgreSQL only; about 3 minutes, once)"
  cargo install --quiet --locked "diesel_cli@$DIESEL_CLI_VERSION" --no-default-features --features postgres
fi
