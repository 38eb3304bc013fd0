//! Canvass beside the bare anchor (bare.rs) on the same endpoint: the four targets, their medians over the rounds,
//! and the report.

use crate::load::Load;

/// A target measured against the anchor: `canvass serve`, or the anchor under a path prefix.
pub struct Target {
    pub name: &'static str,
    /// The anchor's path prefix; `None` for `canvass serve`.
    pub prefix: Option<&'static str>,
}

/// In the order each round measures them.
pub const TARGETS: [Target; 4] = [
    Target { name: "canvass", prefix: None },
    Target { name: "bare", prefix: Some("plain") },
    Target { name: "bare + gate", prefix: Some("gated") },
    Target { name: "bare + lane", prefix: Some("laned") },
];

/// One load of one target: its rate and p99, and CPU µs per request of the server and of PostgreSQL.
#[derive(Debug, Clone, Copy)]
pub struct Sample {
    pub load: Load,
    pub cpu: [f64; 2],
}

/// An endpoint's medians per target (in [`TARGETS`]' order).
pub struct Figures {
    pub name: &'static str,
    pub targets: [Sample; 4],
}

fn median(values: impl Iterator<Item = f64>) -> f64 {
    let mut values: Vec<f64> = values.collect();
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

impl Figures {
    /// The medians of each figure over the rounds.
    pub fn of(name: &'static str, samples: [Vec<Sample>; 4]) -> Self {
        let targets = samples.map(|samples| Sample {
            load: Load {
                rate: median(samples.iter().map(|s| s.load.rate)),
                p50_ms: median(samples.iter().map(|s| s.load.p50_ms)),
                p99_ms: median(samples.iter().map(|s| s.load.p99_ms)),
            },
            cpu: [median(samples.iter().map(|s| s.cpu[0])), median(samples.iter().map(|s| s.cpu[1]))],
        });
        Self { name, targets }
    }
}

/// Prints the comparison; `pgbench` gives the endpoint's pgbench rate on its own SQL.
pub fn report(figures: &[Figures], rounds: usize, pgbench: impl Fn(&str) -> Option<f64>) {
    if figures.is_empty() {
        return;
    }
    println!(
        "  against the bare stack (actix-web + diesel, one web::block hop, the adapter's statement, the same JSON), \
         medians of {rounds} alternating rounds; req/s, p99 ms, server CPU µs per request:"
    );
    println!(
        "  {:<16} {:>20} {:>20} {:>20} {:>20} {:>7} {:>7} {:>9}  target (≥ 0.9 of bare, p99 ≤ bare + gate's)",
        "endpoint", TARGETS[0].name, TARGETS[1].name, TARGETS[2].name, TARGETS[3].name, "/ bare", "/ lane", "/ pgbench"
    );
    for f in figures {
        let cell = |s: &Sample| format!("{:.0} {:.2} {:.0}", s.load.rate, s.load.p99_ms, s.cpu[0]);
        let [canvass, bare, gated, laned] = &f.targets;
        let to_bare = canvass.load.rate / bare.load.rate;
        let to_lane = canvass.load.rate / laned.load.rate;
        let to_pgbench = pgbench(f.name).map_or(f64::NAN, |rate| canvass.load.rate / rate);
        let met = to_bare >= 0.9 && canvass.load.p99_ms <= gated.load.p99_ms;
        println!(
            "  {:<16} {:>20} {:>20} {:>20} {:>20} {to_bare:>7.2} {to_lane:>7.2} {to_pgbench:>9.2}  {}",
            f.name,
            cell(canvass),
            cell(bare),
            cell(gated),
            cell(laned),
            if met { "met" } else { "not met" }
        );
    }
    println!(
        "  PostgreSQL CPU µs per request under each: {}",
        figures
            .iter()
            .map(|f| {
                let cpu: Vec<String> = f.targets.iter().map(|s| format!("{:.0}", s.cpu[1])).collect();
                format!("{} {}", f.name, cpu.join(" / "))
            })
            .collect::<Vec<_>>()
            .join("; ")
    );
}
