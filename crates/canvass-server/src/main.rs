//! The `canvass` binary.

use clap::Parser;

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
