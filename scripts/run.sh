#!/usr/bin/env bash
# `just run`: builds canvass, makes sure it has a database (a private cluster under .canvass/pg unless
# DATABASE_URL is set), migrates it, and serves with a demo account whose key and URLs are printed.
set -euo pipefail
cd "$(dirname "$0")/.."
bind=${1:-127.0.0.1:8080}

# Cargo's own progress shows: the first build compiles about 450 crates and takes several minutes.
[ -x target/debug/canvass ] || echo "Building canvass for the first time: this takes several minutes." >&2
cargo build -p canvass-server --bin canvass
if [ -z "${DATABASE_URL:-}" ]; then
  server_url=$(scripts/pg-cluster.sh start .canvass/pg)
  psql "$server_url" -tAc "SELECT 1 FROM pg_database WHERE datname = 'canvass'" | grep -q 1 \
    || psql "$server_url" -qc "CREATE DATABASE canvass"
  export DATABASE_URL="${server_url%/postgres}/canvass"
  echo "Using the private PostgreSQL cluster in .canvass/pg; \`just stop-db\` stops it." >&2
  echo "For the command line in another terminal: export DATABASE_URL=$DATABASE_URL" >&2
fi
target/debug/canvass migrate >/dev/null
# The open links' cookie key (COOKIE_KEY): made once and kept under .canvass/, so a browser that started a survey
# is still known after a restart.
if [ -z "${COOKIE_KEY:-}" ]; then
  mkdir -p .canvass
  [ -s .canvass/cookie-key ] || (umask 077 && head -c 64 /dev/urandom | base64 -w0 > .canvass/cookie-key)
  COOKIE_KEY=$(cat .canvass/cookie-key)
  export COOKIE_KEY
fi
exec target/debug/canvass serve --bind "$bind" --demo
