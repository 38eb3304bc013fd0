//! The respondent page of a survey in twelve languages against the same page of the survey in one: wrk on the
//! two in alternating rounds (`BENCH_LANGUAGE_ROUNDS`, default 5), so that what the machine does meanwhile falls on
//! both alike, and the median p50 of each.

use std::path::Path;

use crate::load::{self, Request};

/// The median p50 (ms) of the one-language and the twelve-language page over `rounds` alternating rounds.
pub fn medians(
    one: &Request<'_>,
    twelve: &Request<'_>,
    rounds: usize,
    connections: usize,
    seconds: u64,
    dir: &Path,
) -> Result<(f64, f64), String> {
    let (mut ones, mut twelves) = (Vec::with_capacity(rounds), Vec::with_capacity(rounds));
    for _ in 0..rounds {
        ones.push(load::wrk(one, connections, seconds, &dir.join("one"))?.p50_ms);
        twelves.push(load::wrk(twelve, connections, seconds, &dir.join("twelve"))?.p50_ms);
    }
    Ok((median(ones), median(twelves)))
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    load::percentile(&values, 0.5)
}
