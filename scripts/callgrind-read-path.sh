#!/usr/bin/env bash
# Instructions per request on the read path, counted by `valgrind --tool=callgrind` (repeatable whatever else the
# machine runs; docs/benchmarks.md, "The request path at the stack's own cost"): the release `canvass serve` and
# the bench's bare anchor (benches/read_paths/bare.rs) on the same database, 100 warm-up requests, counters
# zeroed, then REQUESTS (default 1000) GETs of one survey on one keep-alive connection, counters dumped.
#
#   scripts/callgrind-read-path.sh CANVASS_BINARY READ_PATHS_BENCH_BINARY [OUT_DIR]
#
# The bench binary is the one `just bench --bench read_paths` built (target/release/deps/read_paths-*). The
# database is a fresh one on DATABASE_URL's server (default: PostgreSQL on 127.0.0.1:5432, user postgres), reached
# without TLS. Prints one line per target: user-space instructions per request. Needs valgrind, curl and psql.
set -euo pipefail
canvass=$(realpath "$1")
anchor=$(realpath "$2")
out=${3:-$(mktemp -d)}
requests=${REQUESTS:-1000}
server=${CALLGRIND_PG:-postgres://postgres@127.0.0.1:5432}
database=canvass_callgrind
url="$server/$database?sslmode=disable"
mkdir -p "$out"

psql "$server/postgres" -qc "DROP DATABASE IF EXISTS $database" -c "CREATE DATABASE $database" >/dev/null
DATABASE_URL=$url "$canvass" migrate >/dev/null

port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_for() { for _ in $(seq 600); do curl -s -o /dev/null "http://127.0.0.1:$1/" && return 0; sleep 0.1; done; return 1; }

# A demo account and one survey of 4 pages of 5 items, made by the server run natively.
p=$(port)
DATABASE_URL=$url "$canvass" serve --bind "127.0.0.1:$p" --demo --outbox-dir "$out/outbox" >"$out/demo.json" 2>/dev/null &
demo=$!
wait_for "$p"
key=$(head -1 "$out/demo.json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["apiKey"])')
account=$(head -1 "$out/demo.json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["accountId"])')
body=$(python3 -c '
import json
items = [{"type": "SingleChoice", "text": "How was it?", "options": [{"value": "good"}, {"value": "poor"}]},
         {"type": "OpenText", "text": "Tell us more"}, {"type": "Numeric", "text": "How many times?"},
         {"type": "Rating", "text": "Rate us"}, {"type": "MultipleChoice", "text": "What did you use?",
          "options": [{"value": "web"}, {"value": "app"}]}]
print(json.dumps({"name": "Callgrind", "pages": [{"title": "Page %d" % p, "items": items} for p in range(4)]}))')
survey=$(curl -sf -H "X-API-KEY: $key" -H 'Content-Type: application/json' -d "$body" \
  "http://127.0.0.1:$p/api/v1/surveys" | python3 -c 'import json,sys; print(json.load(sys.stdin)["surveyId"])')
kill "$demo"; wait "$demo" || true

# Counts `count` GETs of `path` on the server at `port`, run as process `pid`, after 100 warm-up requests.
measure() {
  local name=$1 port=$2 pid=$3 path=$4 header=${5:-X-Nothing: 1}
  local config=$out/requests.curl
  rm -f "$config"
  for _ in $(seq 100); do printf 'url = "http://127.0.0.1:%s%s"\noutput = /dev/null\n' "$port" "$path"; done >"$config"
  curl -sf -H "$header" -K "$config"
  callgrind_control -z "$pid" >/dev/null
  rm -f "$config"
  for _ in $(seq "$requests"); do printf 'url = "http://127.0.0.1:%s%s"\noutput = /dev/null\n' "$port" "$path"; done >"$config"
  curl -sf -H "$header" -K "$config"
  callgrind_control -d "$name" "$pid" >/dev/null
  local dump
  dump=$(grep -l "^desc: Trigger: dump $name$" "$out"/callgrind.out.* | head -1)
  local total
  total=$(grep '^summary:' "$dump" | awk '{print $2}')
  printf '%-14s %8d instructions per request (%s)\n' "$name" $((total / requests)) "$dump"
}

p=$(port)
(cd "$out" && DATABASE_URL=$url exec valgrind --tool=callgrind --quiet "$canvass" serve --bind "127.0.0.1:$p" \
  --outbox-dir "$out/outbox") 2>/dev/null &
served=$!
wait_for "$p"
measure canvass "$p" "$served" "/api/v1/surveys/$survey" "X-API-KEY: $key"
kill "$served"; wait "$served" || true

p=$(port)
(cd "$out" && BENCH_BARE_SERVE="$url $account $p" exec valgrind --tool=callgrind --quiet "$anchor") 2>/dev/null &
bare=$!
wait_for "$p"
for prefix in plain gated laned; do measure "bare-$prefix" "$p" "$bare" "/$prefix/api/v1/surveys/$survey"; done
kill "$bare"; wait "$bare" || true
psql "$server/postgres" -qc "DROP DATABASE IF EXISTS $database" >/dev/null
