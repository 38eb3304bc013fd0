//! `canvass serve`: the API, with the delivery and webhook workers and the retention timer beside it.

use std::time::Duration;

use anyhow::Context;
use canvass_domain::clock::SystemClock;
use serde_json::json;

use super::admin::{print_json, require_migrated, with_uow};
use super::args::ServeArgs;
use crate::{demo, Application, Settings};

/// Serves until SIGTERM or SIGINT; with `--demo`, first makes sure the demo account exists and prints its key.
pub(super) fn serve(
    database_url: String,
    statement_timeout: Duration,
    args: ServeArgs,
    limits_url: Option<canvass_limits::LimitsUrl>,
) -> anyhow::Result<()> {
    require_migrated(&database_url)?;
    if args.demo {
        announce_demo(&database_url, &args.bind)?;
    }
    let settings = Settings { limits_url, ..args.into_settings(database_url, statement_timeout) };
    actix_web::rt::System::new().block_on(async move {
        let app = Application::build(&settings)?;
        tracing::info!(http.port = app.port(), "serving");
        app.run_until_stopped().await.context("server failed")
    })
}

/// Makes sure the demo account with its sample survey exists, prints a fresh key for it as JSON on stdout, and
/// tells the person at the terminal how to try it on stderr.
fn announce_demo(database_url: &str, bind: &str) -> anyhow::Result<()> {
    let demo = with_uow(database_url, |uow| demo::ensure_demo(uow, &SystemClock))?;
    let host = bind.rsplit_once(':').map_or("127.0.0.1", |(host, _)| host);
    let host = if host == "0.0.0.0" { "127.0.0.1" } else { host };
    let port = bind.rsplit_once(':').map_or("8080", |(_, port)| port);
    let base = format!("http://{host}:{port}");
    print_json(&json!({
        "accountId": demo.account_id.get(),
        "apiKey": demo.api_key.secret(),
        "baseUrl": format!("{base}/api/v1"),
        "docsUrl": format!("{base}/docs/"),
    }))?;
    eprintln!(
        "\nCanvass demo is starting.\n  API key:  {}\n  Base URL: {base}/api/v1\n  Docs:     {base}/docs/\n  Try:      curl -H 'X-API-KEY: {}' {base}/api/v1/surveys\n",
        demo.api_key.secret(),
        demo.api_key.secret()
    );
    Ok(())
}
