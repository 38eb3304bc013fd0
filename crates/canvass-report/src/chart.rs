//! What one item's chart shows, by the item's type, and the table of the same numbers printed beside it: bars with
//! counts and shares for choices, Dropdown, Rating (with the NPS), Numeric (a histogram), Ranking (first places)
//! and OpenText (top words); one stacked row per Matrix row. Date and Info items have a table only.

use canvass_domain::insight::{Histogram, ItemFigures, ItemResult};
use canvass_domain::survey::QuestionType;

/// One bar: its label and how many answers it counts.
#[derive(Debug, Clone, PartialEq)]
pub struct Bar {
    /// What it counts.
    pub label: String,
    /// How many.
    pub count: i64,
}

/// What a chart draws.
#[derive(Debug, Clone, PartialEq)]
pub enum Plot {
    /// Horizontal bars, first at the top, each with its count and its share of `of`.
    Bars {
        /// The bars.
        bars: Vec<Bar>,
        /// What a share is of: the answers to the item.
        of: i64,
        /// What the bars count (the horizontal axis).
        counting: &'static str,
    },
    /// One bar per row, split by option into shares of the row's answers.
    Rows {
        /// The options, in order (the legend).
        options: Vec<String>,
        /// Each row's label with each option's count.
        rows: Vec<(String, Vec<i64>)>,
    },
}

/// A table of the chart's numbers, for those who do not see it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Table {
    /// The column headings.
    pub head: Vec<String>,
    /// The rows, the first cell of each its heading.
    pub rows: Vec<Vec<String>>,
}

/// One item's chart: its title, a line of key figures, the plot and the table beside it.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    /// The item's text.
    pub title: String,
    /// Key figures in a line (answers, mean, NPS), under the title.
    pub summary: String,
    /// What is drawn; `None` for an item that has no chart (Date, Info).
    pub plot: Option<Plot>,
    /// The same numbers as a table.
    pub table: Table,
}

/// A share of `of` as a whole percentage, `–` of nothing.
pub fn percent(count: i64, of: i64) -> String {
    if of <= 0 {
        return "–".to_owned();
    }
    format!("{}%", (100.0 * count as f64 / of as f64).round())
}

/// A number with at most two decimals and no trailing zeros.
pub fn number(value: f64) -> String {
    let text = format!("{value:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".to_owned()
    } else {
        text.to_owned()
    }
}

/// Text as a chart draws it: without control characters, which no SVG may hold.
pub fn printable(text: &str) -> String {
    text.chars().filter(|c| !c.is_control()).collect()
}

/// `1 answer`, `2 answers`: a count with its noun.
fn counted(count: i64, noun: &str) -> String {
    format!("{count} {noun}{}", if count == 1 { "" } else { "s" })
}

fn answers_line(answered: i64) -> String {
    counted(answered, "answer")
}

impl Chart {
    /// The chart of an item's results (with its histogram for a Numeric item).
    pub fn of(item: &ItemResult, histogram: Option<&Histogram>) -> Self {
        let title = printable(&item.text);
        let (summary, plot, table) = match &item.figures {
            ItemFigures::Choices { answered, options } => {
                let bars = options.iter().map(|o| Bar { label: printable(&o.label), count: o.count }).collect();
                let summary = if item.kind == QuestionType::MultipleChoice {
                    format!("{}; each answer may choose several options", answers_line(*answered))
                } else {
                    answers_line(*answered)
                };
                bars_with_table(summary, "Option", bars, *answered)
            }
            ItemFigures::Rating { answered, summary } => {
                let bars =
                    (0..).zip(summary.distribution).map(|(r, n): (i64, i64)| Bar { label: r.to_string(), count: n });
                let mut line = answers_line(*answered);
                if let (Some(mean), Some(score)) = (summary.mean, summary.nps.score) {
                    line.push_str(&format!(
                        "; mean {}; NPS {score} ({}, {}, {})",
                        number(mean),
                        counted(summary.nps.promoters, "promoter"),
                        counted(summary.nps.passives, "passive"),
                        counted(summary.nps.detractors, "detractor")
                    ));
                }
                bars_with_table(line, "Rating", bars.collect(), summary.count)
            }
            ItemFigures::Numeric { answered, summary } => {
                let mut line = answers_line(*answered);
                if let (Some(mean), Some(median), Some(min), Some(max)) =
                    (summary.mean, summary.median, summary.min, summary.max)
                {
                    line.push_str(&format!(
                        "; mean {}; median {}; from {} to {}",
                        number(mean),
                        number(median),
                        number(min),
                        number(max)
                    ));
                }
                let bars = histogram.map_or_else(Vec::new, |histogram| {
                    (0..)
                        .zip(&histogram.counts)
                        .map(|(bin, count)| {
                            let (lower, upper) = histogram.layout.edges(bin);
                            Bar { label: format!("{} to < {}", number(lower), number(upper)), count: *count }
                        })
                        .collect()
                });
                bars_with_table(line, "Range", bars, summary.count)
            }
            ItemFigures::OpenText { answered, top_words } => {
                let bars = top_words.iter().map(|w| Bar { label: w.word.clone(), count: w.count }).collect();
                let line = format!("{}; the words found in the most answers", answers_line(*answered));
                bars_with_table(line, "Word", bars, *answered)
            }
            ItemFigures::Ranking { answered, options } => {
                let bars: Vec<Bar> =
                    options.iter().map(|o| Bar { label: printable(&o.label), count: o.first_places }).collect();
                let mut table = share_table("Option", &bars, *answered);
                table.head.push("Mean place".to_owned());
                for (row, option) in table.rows.iter_mut().zip(options) {
                    row.push(option.mean_position.map_or_else(|| "–".to_owned(), number));
                }
                let line = format!("{}; bars count who put an option first", answers_line(*answered));
                let plot = Plot::Bars { bars, of: *answered, counting: "Answers ranking it first" };
                (line, Some(plot), table)
            }
            ItemFigures::Matrix { answered, rows } => {
                let options: Vec<String> = rows
                    .first()
                    .map(|row| row.options.iter().map(|o| printable(&o.label)).collect())
                    .unwrap_or_default();
                let mut head = vec!["Row".to_owned()];
                head.extend(options.iter().cloned());
                let table_rows = rows
                    .iter()
                    .map(|row| {
                        let of: i64 = row.options.iter().map(|o| o.count).sum();
                        let cells = row.options.iter().map(|o| format!("{} ({})", o.count, percent(o.count, of)));
                        std::iter::once(printable(&row.label)).chain(cells).collect()
                    })
                    .collect();
                let plotted = rows
                    .iter()
                    .map(|row| (printable(&row.label), row.options.iter().map(|o| o.count).collect()))
                    .collect();
                let plot = Plot::Rows { options, rows: plotted };
                (answers_line(*answered), Some(plot), Table { head, rows: table_rows })
            }
            ItemFigures::Date { answered, count, min, max } => {
                let date = |d: &Option<time::Date>| d.map_or_else(|| "–".to_owned(), |d| d.to_string());
                let table = Table {
                    head: vec!["Figure".to_owned(), "Value".to_owned()],
                    rows: vec![
                        vec!["Dates given".to_owned(), count.to_string()],
                        vec!["Earliest".to_owned(), date(min)],
                        vec!["Latest".to_owned(), date(max)],
                    ],
                };
                (answers_line(*answered), None, table)
            }
            ItemFigures::Info => ("Text shown to respondents; takes no answer".to_owned(), None, Table::default()),
        };
        Self { title, summary, plot, table }
    }
}

/// Bars of shares of `of`, and their table.
fn bars_with_table(summary: String, heading: &str, bars: Vec<Bar>, of: i64) -> (String, Option<Plot>, Table) {
    let table = share_table(heading, &bars, of);
    (summary, Some(Plot::Bars { bars, of, counting: "Answers" }), table)
}

/// The table of bars: each bar's label, count and share of `of`.
fn share_table(heading: &str, bars: &[Bar], of: i64) -> Table {
    Table {
        head: vec![heading.to_owned(), "Answers".to_owned(), "Share".to_owned()],
        rows: bars.iter().map(|bar| vec![bar.label.clone(), bar.count.to_string(), percent(bar.count, of)]).collect(),
    }
}

#[cfg(test)]
mod tests;
