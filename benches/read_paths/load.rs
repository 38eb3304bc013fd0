//! A load's figures, and wrk running one HTTP request against the service.

use std::path::Path;
use std::process::Command;

/// Rate (requests or transactions per second), median and 99th percentile latency of a load.
#[derive(Debug, Clone, Copy)]
pub struct Load {
    pub rate: f64,
    pub p50_ms: f64,
    pub p99_ms: f64,
}

/// The `q` quantile of sorted samples.
pub fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

/// One request of the load: method, URL, API key and JSON body.
pub struct Request<'a> {
    pub method: &'a str,
    pub url: &'a str,
    pub key: &'a str,
    pub body: Option<&'a str>,
}

fn lua(request: &Request<'_>) -> String {
    let mut lua = format!("wrk.method = \"{}\"\nwrk.headers[\"X-API-KEY\"] = \"{}\"\n", request.method, request.key);
    if let Some(body) = request.body {
        lua.push_str(&format!("wrk.headers[\"Content-Type\"] = \"application/json\"\nwrk.body = [==[{body}]==]\n"));
    }
    lua
}

/// wrk's `12.3ms` style durations in milliseconds.
fn millis(text: &str) -> Option<f64> {
    let split = text.find(|c: char| c.is_ascii_alphabetic())?;
    let value: f64 = text[..split].parse().ok()?;
    match &text[split..] {
        "us" => Some(value / 1000.0),
        "ms" => Some(value),
        "s" => Some(value * 1000.0),
        "m" => Some(value * 60_000.0),
        _ => None,
    }
}

/// Runs wrk with `connections` connections for `seconds`; fails when any response was not 2xx or any socket
/// error happened.
pub fn wrk(request: &Request<'_>, connections: usize, seconds: u64, dir: &Path) -> Result<Load, String> {
    wrk_script(&lua(request), request.url, connections, seconds, dir)
}

/// Runs wrk with the Lua `script` against `url`, as [`wrk`] does.
pub fn wrk_script(script: &str, url: &str, connections: usize, seconds: u64, dir: &Path) -> Result<Load, String> {
    std::fs::create_dir_all(dir).unwrap();
    let file = dir.join("request.lua");
    std::fs::write(&file, script).unwrap();
    let output = Command::new("wrk")
        .args([
            "-t",
            "2",
            "-c",
            &connections.to_string(),
            "-d",
            &format!("{seconds}s"),
            "--latency",
            "--timeout",
            "10s",
        ])
        .args(["-s", file.to_str().unwrap(), url])
        .output()
        .map_err(|e| format!("cannot run wrk ({e}); install it with `apt-get install wrk`"))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        return Err(format!("wrk failed: {}", String::from_utf8_lossy(&output.stderr)));
    }
    if let Some(line) = stdout.lines().find(|l| l.contains("Non-2xx") || l.contains("Socket errors")) {
        return Err(format!("wrk saw failures: {}", line.trim()));
    }
    let field = |prefix: &str| stdout.lines().find_map(|l| l.trim().strip_prefix(prefix).map(|r| r.trim().to_owned()));
    let rate = field("Requests/sec:").and_then(|v| v.parse().ok()).ok_or_else(|| format!("no rate: {stdout}"))?;
    let p50_ms = field("50%").and_then(|v| millis(&v)).ok_or_else(|| format!("no p50: {stdout}"))?;
    let p99_ms = field("99%").and_then(|v| millis(&v)).ok_or_else(|| format!("no p99: {stdout}"))?;
    Ok(Load { rate, p50_ms, p99_ms })
}
