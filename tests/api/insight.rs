//! Insight: a sendout's statistics and a survey's results, figures checked exactly over HTTP (those that do not
//! depend on the clock).

mod breakdowns;
mod reports;
mod results;
mod statistics;
