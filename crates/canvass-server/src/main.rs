//! The `canvass` binary.

use clap::Parser;

/// mimalloc for every allocation of the process: the worker's rounds and the API's requests allocate many small,
/// short-lived values, which it serves from per-thread pages without glibc's locking and consolidation.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    let cli = match canvass_server::cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return canvass_server::cli::usage_error(&error),
    };
    match canvass_server::cli::run(cli) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("canvass: {error:#}");
            let status = error.downcast_ref::<canvass_server::cli::Exit>().map_or(1, |exit| exit.status);
            std::process::ExitCode::from(status)
        }
    }
}
