//! Insight: a sendout's statistics, a survey's results, reports and alerts, figures checked exactly over HTTP
//! (those that do not depend on the clock).

mod alerts;
mod breakdowns;
mod reports;
mod results;
mod statistics;
