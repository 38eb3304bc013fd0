# Canvass: `just run` starts the service, `just test` runs every test.

set shell := ["bash", "-euo", "pipefail", "-c"]

# Start the service (a private PostgreSQL under .canvass/ unless DATABASE_URL is set), with a demo account.
run bind="127.0.0.1:8080":
    scripts/run.sh {{bind}}

# Run every test: layering check, formatting, clippy, unit, adapter and black-box tests (API, security, system).
test:
    scripts/test.sh

# The black-box suite, the adapter's tests and the delivery worker tests on a real Citus cluster (a coordinator and
# two workers started for the run). Needs citus.so installed (`scripts/citus.sh install SRC`, docs/scaling.md);
# says so and passes without it. `just test-citus NAME` runs the tests whose names hold NAME.
# Run the tests on a three-node Citus cluster (needs citus.so; `just test-citus NAME` filters).
test-citus *args:
    scripts/test-citus.sh {{args}}

# Fuzz the served OpenAPI document with schemathesis (pinned, `--checks all`, two accounts as peers) against a real
# `canvass serve` on a fresh database; fails on any failure. `just fuzz 60` bounds the run to 60 s (default 900).
# Fuzz the API with schemathesis against a real server (`just fuzz 60` runs for 60 s; default 900).
fuzz *args:
    scripts/fuzz.sh {{args}}

# Measure the hot paths against their baselines: raw SQL on the same database, and for delivery Postfix's
# smtp-source to its smtp-sink (needs `apt-get install postfix`), the read paths under wrk against pgbench on their
# own SQL (needs `apt-get install wrk`), a flash crowd of 10,000 visitors on one open link against pgbench on the
# statements of one visit (`--bench open_link`), and Citus beside plain PostgreSQL when Citus is installed
# (`--bench citus`).
# Release build; see docs/benchmarks.md.
# `just bench --bench delivery` runs one; BENCH_MESSAGES and BENCH_CONCURRENCY size the delivery run.
# Measure the hot paths against Postfix, pgbench and plain SQL (`just bench --bench delivery` runs one).
bench *args:
    scripts/with-test-db.sh cargo bench -p canvass-blackbox-tests {{args}}

# Format the code.
fmt:
    cargo fmt --all

# Stop the private PostgreSQL cluster that `just run` started.
stop-db:
    scripts/pg-cluster.sh stop .canvass/pg
