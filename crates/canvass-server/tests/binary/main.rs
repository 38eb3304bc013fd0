//! Tests of the `canvass` binary that cargo built for this test run (`CARGO_BIN_EXE_canvass`): its commands,
//! `canvass dsn` as a pipe transport, `canvass worker` processes killed, run side by side, given relays, and
//! stopped; three servers and two workers sharing one service's limits through Redis; and the in-process server's
//! delivery worker stopping with the server.
#![expect(clippy::unwrap_used)]

mod harness;
mod private_cluster;
mod round_robin;

mod commands;
mod dsn;
mod many_servers;
mod pace;
mod shutdown;
mod walkthrough;
mod workers;
