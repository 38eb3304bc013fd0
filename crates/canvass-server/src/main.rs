//! The `canvass` binary.

use clap::Parser;

fn main() -> std::process::ExitCode {
    match canvass_server::cli::run(canvass_server::cli::Cli::parse()) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("canvass: {error:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
