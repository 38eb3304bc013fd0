//! A report as both of its formats show it: the facts at the top (the period, the filters, the breakdown), the
//! sendouts' funnel, and per item its chart, its table, a few texts and, with a breakdown, a table of its groups.
//! The HTML and the PDF lay out the same view.

use canvass_domain::answer::{AnswerFilter, FilterOp};
use canvass_domain::insight::{Breakdown, ItemFigures, ItemResult, ResultGroup, SurveyResults};
use canvass_domain::use_cases::reports::SurveyReport;
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

use crate::chart::{number, percent, printable, Chart, Table};
use crate::svg::{svg, DrawError};

/// One item's part of a report.
#[derive(Debug, Clone)]
pub struct ItemView {
    /// Its place among the items that take answers, from 1.
    pub number: usize,
    /// Its chart and table.
    pub chart: Chart,
    /// The chart as SVG, without its title (the item's heading says it); `None` without a plot.
    pub svg: Option<String>,
    /// A few of its texts (an OpenText item).
    pub texts: Vec<String>,
    /// With a breakdown, its figures per group.
    pub groups: Option<Table>,
}

/// A whole report.
#[derive(Debug, Clone)]
pub struct ReportView {
    /// The survey's name.
    pub title: String,
    /// When the report was made.
    pub made: String,
    /// What it covers, as `(what, value)`.
    pub facts: Vec<(String, String)>,
    /// Each sendout's funnel.
    pub funnel: Table,
    /// Every item that takes answers, in tree order.
    pub items: Vec<ItemView>,
}

/// A moment as people read it: `2026-11-30 14:05 UTC`.
pub fn moment(at: OffsetDateTime) -> String {
    let at = at.to_offset(time::UtcOffset::UTC);
    format!("{} {:02}:{:02} UTC", at.date(), at.hour(), at.minute())
}

impl ReportView {
    /// The view of a report, its charts drawn.
    pub fn of(report: &SurveyReport) -> Result<Self, DrawError> {
        let results = &report.results;
        let mut items = Vec::new();
        for item in results.items.iter().filter(|item| item.figures != ItemFigures::Info) {
            let chart = Chart::of(item, report.histogram(item.question_item_id));
            let svg = svg(&chart, false)?;
            items.push(ItemView {
                number: items.len() + 1,
                svg,
                texts: report.texts_of(item.question_item_id).iter().map(|text| printable(text)).collect(),
                groups: results.groups.as_deref().map(|groups| group_table(item, groups)),
                chart,
            });
        }
        Ok(Self {
            title: printable(&report.survey.name),
            made: moment(report.generated_at),
            facts: facts(report),
            funnel: funnel_table(report),
            items,
        })
    }
}

/// The period, the filters, the breakdown and the count of answer sets.
fn facts(report: &SurveyReport) -> Vec<(String, String)> {
    let filter = &report.request.filter;
    let stamp = |at: Option<OffsetDateTime>| at.and_then(|at| at.format(&Rfc3339).ok());
    let period = match (stamp(filter.created_from), stamp(filter.created_to), stamp(filter.updated_since)) {
        (None, None, None) => "every answer set, whenever created".to_owned(),
        (from, to, None) => format!(
            "created {} {}",
            from.map_or_else(|| "any time".to_owned(), |from| format!("from {from}")),
            to.map_or_else(|| "until now".to_owned(), |to| format!("to {to}"))
        ),
        (_, _, Some(since)) => format!("changed since {since}"),
    };
    let mut facts = vec![
        ("Period".to_owned(), period),
        ("Filters".to_owned(), filters(filter, report.sendout_name.as_deref(), &report.results)),
        ("Answer sets".to_owned(), report.results.answer_sets.to_string()),
    ];
    if let Some(breakdown) = report.request.breakdown {
        facts.push(("Broken down by".to_owned(), breakdown_name(breakdown, &report.results)));
    }
    facts
}

fn filters(filter: &AnswerFilter, sendout: Option<&str>, results: &SurveyResults) -> String {
    let mut said = Vec::new();
    if filter.completed_only {
        said.push("completed answer sets only".to_owned());
    }
    if let Some(name) = sendout {
        said.push(format!("sendout “{}”", printable(name)));
    }
    if let Some(language) = filter.language {
        said.push(format!("answered in {}", language.native_name()));
    }
    for condition in &filter.conditions {
        let item = item_text(results, condition.item);
        let values = condition.values.iter().map(|value| format!("“{}”", printable(value))).collect::<Vec<_>>();
        let test = match condition.op {
            FilterOp::Eq => format!("is {}", values.join("")),
            FilterOp::Ne => format!("is not {}", values.join("")),
            FilterOp::Gt => format!("is greater than {}", values.join("")),
            FilterOp::Lt => format!("is less than {}", values.join("")),
            FilterOp::In => format!("is one of {}", values.join(", ")),
        };
        said.push(format!("the answer to “{item}” {test}"));
    }
    if said.is_empty() {
        "none".to_owned()
    } else {
        said.join("; ")
    }
}

fn item_text(results: &SurveyResults, item: canvass_domain::ids::QuestionItemId) -> String {
    let found = results.items.iter().find(|found| found.question_item_id == item);
    found.map_or_else(|| item.to_string(), |found| printable(&found.text))
}

fn breakdown_name(breakdown: Breakdown, results: &SurveyResults) -> String {
    match breakdown {
        Breakdown::Item(item) => format!("the answer to “{}”", item_text(results, item)),
        Breakdown::Label(label) => format!("background data label {label}"),
        Breakdown::Language => "language".to_owned(),
        Breakdown::Sendout => "sendout".to_owned(),
    }
}

/// Each sendout with its respondents, those reached, started and completed, and the share of the reached who
/// completed.
fn funnel_table(report: &SurveyReport) -> Table {
    let head = ["Sendout", "Respondents", "Reached", "Started", "Completed", "Completion rate"];
    Table {
        head: head.iter().map(|heading| (*heading).to_owned()).collect(),
        rows: report
            .funnels
            .iter()
            .map(|funnel| {
                vec![
                    printable(&funnel.name),
                    funnel.respondents.to_string(),
                    funnel.reached.to_string(),
                    funnel.started.to_string(),
                    funnel.completed.to_string(),
                    percent(funnel.completed, funnel.reached),
                ]
            })
            .collect(),
    }
}

/// One item's figures per group: each group's answer sets and the item's key figure in it (each option's share, a
/// rating's mean and NPS, a number's mean and median, or how many answered); a suppressed group says so.
fn group_table(item: &ItemResult, groups: &[ResultGroup]) -> Table {
    let mut head = vec!["Group".to_owned(), "Answer sets".to_owned()];
    match &item.figures {
        ItemFigures::Choices { options, .. } => head.extend(options.iter().map(|o| printable(&o.label))),
        ItemFigures::Rating { .. } => head.extend(["Mean".to_owned(), "NPS".to_owned()]),
        ItemFigures::Numeric { .. } => head.extend(["Mean".to_owned(), "Median".to_owned()]),
        _ => head.push("Answered".to_owned()),
    }
    let columns = head.len();
    let rows = groups
        .iter()
        .map(|group| {
            let name = group.label.as_deref().map_or_else(|| "No value".to_owned(), printable);
            let Some(results) = &group.results else {
                let mut row = vec![name, "too few to show".to_owned()];
                row.resize(columns, String::new());
                return row;
            };
            let mut row = vec![name, results.answer_sets.to_string()];
            let figures = results.items.iter().find(|found| found.question_item_id == item.question_item_id);
            let optional = |value: Option<f64>| value.map_or_else(|| "–".to_owned(), number);
            match figures.map(|found| &found.figures) {
                Some(ItemFigures::Choices { answered, options }) => {
                    row.extend(options.iter().map(|o| percent(o.count, *answered)));
                }
                Some(ItemFigures::Rating { summary, .. }) => {
                    row.push(optional(summary.mean));
                    row.push(summary.nps.score.map_or_else(|| "–".to_owned(), |score| score.to_string()));
                }
                Some(ItemFigures::Numeric { summary, .. }) => {
                    row.push(optional(summary.mean));
                    row.push(optional(summary.median));
                }
                Some(ItemFigures::Date { answered, .. })
                | Some(ItemFigures::Matrix { answered, .. })
                | Some(ItemFigures::Ranking { answered, .. })
                | Some(ItemFigures::OpenText { answered, .. }) => row.push(answered.to_string()),
                Some(ItemFigures::Info) | None => {}
            }
            row.resize(columns, String::new());
            row
        })
        .collect();
    Table { head, rows }
}
