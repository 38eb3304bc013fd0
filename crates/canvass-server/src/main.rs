//! The `canvass` binary.

use clap::Parser;

fn main() -> std::process::ExitCode {
    match canvass_server::cli::run(canvass_server::cli::Cli::parse()) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("canvass: {error:#}");
            let status = error.downcast_ref::<canvass_server::cli::Exit>().map_or(1, |exit| exit.status);
            std::process::ExitCode::from(status)
        }
    }
}
