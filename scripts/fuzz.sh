#!/usr/bin/env bash
# `just fuzz`: runs schemathesis (pinned, in a virtualenv under .canvass/) in its default configuration with
# `--checks all` against the OpenAPI document served by a real `canvass serve` on a fresh database, with two
# accounts as peers for its object-level authorization check and scripts/fuzz-accepted.toml as the only accepted
# failures. Exits non-zero on any failure.
#   scripts/fuzz.sh [MAX_SECONDS] [schemathesis run options...]
# MAX_SECONDS (default 900) bounds the whole run; FUZZ_SEED fixes the generator's seed. The database server is
# TEST_DATABASE_URL or DATABASE_URL when set, otherwise a throwaway cluster (scripts/with-test-db.sh); each run
# makes its own database and drops it afterwards, so runs do not see each other's data.
set -euo pipefail
cd "$(dirname "$0")/.."

SCHEMATHESIS_VERSION=4.32.5
max_time=${1:-900}
shift || true

if [ -z "${FUZZ_INSIDE_TEST_DB:-}" ]; then
  export FUZZ_INSIDE_TEST_DB=1
  exec scripts/with-test-db.sh "$0" "$max_time" "$@"
fi

venv=.canvass/fuzz-venv
if [ "$("$venv/bin/schemathesis" --version 2>/dev/null)" != "schemathesis, version $SCHEMATHESIS_VERSION" ]; then
  echo "== installing schemathesis $SCHEMATHESIS_VERSION into $venv"
  mkdir -p .canvass
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

cargo build --quiet -p canvass-server --bin canvass
# The binary cargo just built, in CARGO_TARGET_DIR when one is set (a second worktree may share a target).
canvass=$(cd "${CARGO_TARGET_DIR:-target}" && pwd)/debug/canvass

work=$(mktemp -d "$PWD/.canvass/fuzz.XXXXXX")
database="canvass_fuzz_$(basename "$work" | tr -dc 'a-zA-Z0-9' | tr 'A-Z' 'a-z')"
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  psql "$TEST_DATABASE_URL" -qc "DROP DATABASE IF EXISTS $database WITH (FORCE)" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

psql "$TEST_DATABASE_URL" -qc "CREATE DATABASE $database"
export DATABASE_URL="${TEST_DATABASE_URL%/*}/$database"
"$canvass" migrate >/dev/null
key_of() { "$canvass" account create --name "$1" --email "$1@example.com" | python3 -c 'import json,sys; print(json.load(sys.stdin)["apiKey"])'; }
alice=$(key_of alice)
bob=$(key_of bob)

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"
RATE_LIMIT_PER_KEY=1000000 PUBLIC_URL="$base" RUST_LOG=${RUST_LOG:-warn} \
  INBOUND_SECRET=fuzz-inbound-secret SMS_INBOUND_SECRET=fuzz-sms-secret \
  "$canvass" serve --bind "127.0.0.1:$port" 2>"$work/server.log" &
server_pid=$!
for _ in $(seq 1 100); do
  curl -fs "$base/health/ready" >/dev/null 2>&1 && break
  sleep 0.2
done
curl -fs "$base/health/ready" >/dev/null || { cat "$work/server.log" >&2; exit 1; }

cat >"$work/auth.json" <<EOF
{"auth": [
  {"name": "alice", "fixedHeaders": [{"name": "X-API-KEY", "value": "$alice"}]},
  {"name": "bob", "fixedHeaders": [{"name": "X-API-KEY", "value": "$bob"}]}
]}
EOF
# schemathesis's default configuration (every check, NUL and all generated), the two accounts as peers, and the
# accepted-failure list: the rules JSON Schema cannot state (scripts/fuzz-accepted.toml, docs/decisions.md).
cat >"$work/schemathesis.toml" <<EOF
[auth.wfc]
path = "$work/auth.json"
peers = ["alice", "bob"]

EOF
cat scripts/fuzz-accepted.toml >>"$work/schemathesis.toml"

report=.canvass/fuzz-report
rm -rf "$report"
echo "== schemathesis $SCHEMATHESIS_VERSION against $base for at most ${max_time}s (report in $report)"
status=0
# Run from the run's own folder: schemathesis keeps its cache of past failures in the working directory, and each
# run starts without it, as it starts on a fresh database.
(cd "$work" && PYTHONPATH="$OLDPWD/scripts" SCHEMATHESIS_HOOKS=fuzz_hooks "$OLDPWD/$venv/bin/schemathesis" \
  --config-file "$work/schemathesis.toml" run "$base/api/openapi.json" \
  --checks all --max-time "$max_time" --workers 2 ${FUZZ_SEED:+--seed "$FUZZ_SEED"} \
  --header "X-Canvass-Inbound-Secret: fuzz-inbound-secret" --header "X-Canvass-Sms-Secret: fuzz-sms-secret" \
  --report junit --report-dir "$OLDPWD/$report" --output-truncate false "$@") || status=$?
if grep -q "panicked" "$work/server.log"; then
  echo "fuzz: the server panicked:" >&2
  grep -A3 "panicked" "$work/server.log" >&2
  status=1
fi
exit "$status"
