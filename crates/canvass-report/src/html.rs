//! A report as one self-contained HTML document: its style inline, each chart inline SVG (marked as one image)
//! beside a table of its numbers, no script and nothing fetched; laid out for A4 when printed.

use canvass_domain::use_cases::reports::SurveyReport;
use maud::{html, Markup, PreEscaped, DOCTYPE};

use crate::chart::Table;
use crate::svg::DrawError;
use crate::view::{ItemView, ReportView};

/// The report's style: readable on a screen, A4 pages when printed, an item never split across pages.
const STYLE: &str = "\
:root { color: #222; background: #fff; font-family: 'DejaVu Sans', Verdana, sans-serif; font-size: 15px; }
body { margin: 0 auto; max-width: 60rem; padding: 1.5rem; line-height: 1.45; }
h1 { font-size: 1.7rem; margin: 0 0 .25rem; }
h2 { font-size: 1.3rem; margin: 2rem 0 .75rem; border-bottom: 2px solid #1f5f9e; padding-bottom: .25rem; }
h3 { font-size: 1.1rem; margin: 0 0 .25rem; }
h4 { font-size: 1rem; margin: .75rem 0 .25rem; }
.made { color: #555; margin: 0 0 1rem; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: 0; }
dl.facts dt { font-weight: bold; }
dl.facts dd { margin: 0; }
article { border-top: 1px solid #ccc; padding: 1rem 0; break-inside: avoid; page-break-inside: avoid; }
.summary { color: #444; margin: 0 0 .5rem; }
figure { margin: 0; display: flex; flex-wrap: wrap; gap: 1rem; align-items: flex-start; }
figure svg { flex: 1 1 30rem; max-width: 100%; height: auto; }
div.table { max-width: 100%; overflow-x: auto; }
table { border-collapse: collapse; font-size: .9rem; }
caption { text-align: left; font-weight: bold; padding: 0 0 .25rem; }
th, td { border: 1px solid #bbb; padding: .2rem .5rem; text-align: left; vertical-align: top; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
thead th { background: #eef2f7; }
blockquote { margin: .25rem 0; padding: .25rem .75rem; border-left: 3px solid #1f5f9e; background: #f6f8fa; }
@page { size: A4; margin: 15mm; }
@media print { :root { font-size: 11pt; } body { max-width: none; padding: 0; } h2 { break-after: avoid; } }
";

/// The report as an HTML document.
pub fn report(report: &SurveyReport) -> Result<String, DrawError> {
    let view = ReportView::of(report)?;
    Ok(document(&view).into_string())
}

fn document(view: &ReportView) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { "Report: " (view.title) }
                style { (PreEscaped(STYLE)) }
            }
            body {
                main {
                    header {
                        h1 { (view.title) }
                        p.made { "Report made " (view.made) }
                        dl.facts {
                            @for (what, value) in &view.facts {
                                dt { (what) }
                                dd { (value) }
                            }
                        }
                    }
                    section aria-labelledby="sendouts" {
                        h2 #sendouts { "Sendouts" }
                        @if view.funnel.rows.is_empty() {
                            p { "The survey has no sendout." }
                        } @else {
                            (table(&view.funnel, "Each sendout's respondents: reached, started and completed"))
                        }
                    }
                    section aria-labelledby="questions" {
                        h2 #questions { "Questions" }
                        @for item in &view.items {
                            (article(item))
                        }
                    }
                }
            }
        }
    }
}

fn article(item: &ItemView) -> Markup {
    let caption = format!("The numbers of question {}", item.number);
    html! {
        article {
            h3 { (item.number) ". " (item.chart.title) }
            p.summary { (item.chart.summary) }
            figure {
                @if let Some(svg) = &item.svg {
                    (PreEscaped(svg))
                }
                @if !item.chart.table.rows.is_empty() {
                    (table(&item.chart.table, &caption))
                }
            }
            @if !item.texts.is_empty() {
                h4 { "Some of the answers" }
                @for text in &item.texts {
                    blockquote { (text) }
                }
            }
            @if let Some(groups) = &item.groups {
                h4 { "By group" }
                (table(groups, &format!("Question {} by group", item.number)))
            }
        }
    }
}

/// A table with its caption, the first cell of each row its heading, numbers aligned right; in a region that
/// scrolls sideways (and takes the focus, so a keyboard scrolls it) where the table is wider than the screen.
fn table(table: &Table, caption: &str) -> Markup {
    let numeric = |cell: &str| cell.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '–');
    html! {
        div.table role="region" aria-label=(caption) tabindex="0" {
        table {
            caption { (caption) }
            thead {
                tr {
                    @for (at, heading) in table.head.iter().enumerate() {
                        th.n[at > 0] scope="col" { (heading) }
                    }
                }
            }
            tbody {
                @for row in &table.rows {
                    tr {
                        @for (at, cell) in row.iter().enumerate() {
                            @if at == 0 {
                                th scope="row" { (cell) }
                            } @else {
                                td.n[numeric(cell)] { (cell) }
                            }
                        }
                    }
                }
            }
        }
        }
    }
}
