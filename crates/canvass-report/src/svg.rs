//! A chart drawn as SVG by plotters' SVG backend (axes, ticks and text placed by plotters, measured with the
//! report's own fonts), marked as one image (`role="img"`, a `<title>`) for assistive technology.

use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::chart::{percent, Bar, Chart, Plot};
use crate::fonts::{register_for_charts, FAMILY};

/// The width of every chart, in pixels.
pub const WIDTH: u32 = 720;
/// The height of one bar's band.
const BAND: u32 = 26;
/// Room for the title, when drawn.
const TITLE: u32 = 36;
/// Room for the horizontal axis and its description.
const AXIS: u32 = 48;
/// Labels longer than this are cut (the table beside shows them whole).
const LABEL_CHARS: usize = 32;

/// The colour of bars: a blue with 4.5:1 contrast on white.
const BAR: RGBColor = RGBColor(0x1f, 0x5f, 0x9e);
/// The colours of a Matrix's options, told apart by people with any colour vision (Okabe and Ito).
const SERIES: [RGBColor; 8] = [
    RGBColor(0x00, 0x72, 0xb2),
    RGBColor(0xe6, 0x9f, 0x00),
    RGBColor(0x00, 0x9e, 0x73),
    RGBColor(0xcc, 0x79, 0xa7),
    RGBColor(0x56, 0xb4, 0xe9),
    RGBColor(0xd5, 0x5e, 0x00),
    RGBColor(0xf0, 0xe4, 0x42),
    RGBColor(0x00, 0x00, 0x00),
];
/// Text: near black.
const INK: RGBColor = RGBColor(0x22, 0x22, 0x22);

/// A chart could not be drawn (plotters' error, as text).
#[derive(Debug, thiserror::Error)]
#[error("the chart could not be drawn: {0}")]
pub struct DrawError(String);

fn failed(error: impl std::fmt::Display) -> DrawError {
    DrawError(error.to_string())
}

/// A label as drawn: cut to [`LABEL_CHARS`] with an ellipsis.
fn cut(label: &str) -> String {
    if label.chars().count() <= LABEL_CHARS {
        return label.to_owned();
    }
    let kept: String = label.chars().take(LABEL_CHARS - 1).collect();
    format!("{}…", kept.trim_end())
}

/// The chart as an SVG document, with its title drawn above the plot when `titled` (a chart on its own) or not (in
/// a report, under the item's heading). `None` for a chart with no plot.
pub fn svg(chart: &Chart, titled: bool) -> Result<Option<String>, DrawError> {
    let Some(plot) = &chart.plot else { return Ok(None) };
    register_for_charts();
    let bands = match plot {
        Plot::Bars { bars, .. } => bars.len().max(1),
        Plot::Rows { rows, .. } => rows.len().max(1),
    } as u32;
    let legend = match plot {
        Plot::Rows { options, .. } => BAND * legend(options).last().map_or(1, |(_, line, _)| line + 1),
        Plot::Bars { .. } => 0,
    };
    let height = if titled { TITLE } else { 8 } + BAND * bands + AXIS + legend;
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(failed)?;
        let area = if titled {
            let title = cut_title(&chart.title);
            root.titled(&title, (FAMILY, 17).into_font().style(FontStyle::Bold).color(&INK)).map_err(failed)?
        } else {
            root.clone()
        };
        match plot {
            Plot::Bars { bars, of, counting } => draw_bars(&area, bars, *of, counting)?,
            Plot::Rows { options, rows } => draw_rows(&area, options, rows)?,
        }
        root.present().map_err(failed)?;
    }
    Ok(Some(accessible(&out, chart)))
}

fn cut_title(title: &str) -> String {
    const TITLE_CHARS: usize = 80;
    if title.chars().count() <= TITLE_CHARS {
        return title.to_owned();
    }
    let kept: String = title.chars().take(TITLE_CHARS - 1).collect();
    format!("{}…", kept.trim_end())
}

/// The width the longest label needs, in pixels (about 7 per character at 12 px).
fn label_area(labels: impl Iterator<Item = usize>) -> u32 {
    let longest = labels.max().unwrap_or(1).min(LABEL_CHARS) as u32;
    (longest * 7 + 16).clamp(40, 260)
}

/// A chart of horizontal bands on `area`, its left margin as wide as the longest of the bands' `labels` needs.
fn banded<'a, 'b, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, plotters::coord::Shift>,
    labels: &[String],
) -> ChartBuilder<'a, 'b, DB> {
    let mut builder = ChartBuilder::on(area);
    builder
        .margin_right(16)
        .margin_top(4)
        .x_label_area_size(AXIS - 8)
        .y_label_area_size(label_area(labels.iter().map(|label| label.chars().count())));
    builder
}

/// The label of a band's centre: the bands run from the top, the first label the highest.
fn band_label(labels: &[String], value: &SegmentValue<i32>) -> String {
    match value {
        SegmentValue::CenterOf(at) => {
            let from_top = labels.len() as i32 - 1 - at;
            usize::try_from(from_top).ok().and_then(|at| labels.get(at)).cloned().unwrap_or_default()
        }
        _ => String::new(),
    }
}

fn draw_bars<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    bars: &[Bar],
    of: i64,
    counting: &str,
) -> Result<(), DrawError> {
    let n = bars.len().max(1) as i32;
    let most = bars.iter().map(|bar| bar.count).max().unwrap_or(0).max(1);
    // Room right of the longest bar for its count and share.
    let end = most + (most as f64 * 0.35).ceil() as i64;
    let labels: Vec<String> = bars.iter().map(|bar| cut(&bar.label)).collect();
    let mut chart = banded(area, &labels).build_cartesian_2d(0i64..end, (0..n - 1).into_segmented()).map_err(failed)?;
    let label_of = |value: &SegmentValue<i32>| band_label(&labels, value);
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(bars.len().max(1))
        .y_label_formatter(&label_of)
        .x_labels(6)
        .x_label_formatter(&|count| count.to_string())
        .x_desc(counting)
        .axis_desc_style((FAMILY, 13).into_font().color(&INK))
        .label_style((FAMILY, 13).into_font().color(&INK))
        .max_light_lines(1)
        .light_line_style(RGBColor(0xee, 0xee, 0xee))
        .bold_line_style(RGBColor(0xc8, 0xc8, 0xc8))
        .draw()
        .map_err(failed)?;
    let place = |at: usize| n - 1 - at as i32;
    chart
        .draw_series(bars.iter().enumerate().map(|(at, bar)| {
            let y = place(at);
            let mut rectangle =
                Rectangle::new([(0, SegmentValue::Exact(y)), (bar.count, SegmentValue::Exact(y + 1))], BAR.filled());
            rectangle.set_margin(4, 4, 0, 0);
            rectangle
        }))
        .map_err(failed)?;
    let figure_style = (FAMILY, 13).into_font().color(&INK).pos(Pos::new(HPos::Left, VPos::Center));
    chart
        .draw_series(bars.iter().enumerate().map(|(at, bar)| {
            let text = format!("{} ({})", bar.count, percent(bar.count, of));
            EmptyElement::at((bar.count, SegmentValue::CenterOf(place(at))))
                + Text::new(text, (6, 0), figure_style.clone())
        }))
        .map_err(failed)?;
    Ok(())
}

fn draw_rows<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    options: &[String],
    rows: &[(String, Vec<i64>)],
) -> Result<(), DrawError> {
    let entries = legend(options);
    let lines = entries.last().map_or(1, |(_, line, _)| line + 1);
    let (strip, area) = area.split_vertically(BAND * lines);
    let style = (FAMILY, 13).into_font().color(&INK).pos(Pos::new(HPos::Left, VPos::Center));
    for (option, (x, line, name)) in entries.iter().enumerate() {
        let (x, y) = (*x as i32, (line * BAND + BAND / 2) as i32);
        let colour = SERIES[option % SERIES.len()];
        strip.draw(&Rectangle::new([(x, y - 6), (x + 12, y + 6)], colour.filled())).map_err(failed)?;
        strip.draw(&Text::new(name.clone(), (x + 17, y), style.clone())).map_err(failed)?;
    }
    let n = rows.len().max(1) as i32;
    let labels: Vec<String> = rows.iter().map(|(label, _)| cut(label)).collect();
    let mut chart =
        banded(&area, &labels).build_cartesian_2d(0f64..100f64, (0..n - 1).into_segmented()).map_err(failed)?;
    let label_of = |value: &SegmentValue<i32>| band_label(&labels, value);
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(rows.len().max(1))
        .y_label_formatter(&label_of)
        .x_labels(6)
        .x_label_formatter(&|share| format!("{share:.0}%"))
        .x_desc("Share of the row's answers")
        .axis_desc_style((FAMILY, 13).into_font().color(&INK))
        .label_style((FAMILY, 13).into_font().color(&INK))
        .max_light_lines(1)
        .light_line_style(RGBColor(0xee, 0xee, 0xee))
        .bold_line_style(RGBColor(0xc8, 0xc8, 0xc8))
        .draw()
        .map_err(failed)?;
    for (option, _) in options.iter().enumerate() {
        let colour = SERIES[option % SERIES.len()];
        let segments = rows.iter().enumerate().filter_map(|(at, (_, counts))| {
            let total: i64 = counts.iter().sum();
            if total == 0 {
                return None;
            }
            let share = |count: i64| 100.0 * count as f64 / total as f64;
            let start: f64 = counts.iter().take(option).map(|count| share(*count)).sum();
            let width = share(counts.get(option).copied().unwrap_or(0));
            let y = n - 1 - at as i32;
            let mut rectangle = Rectangle::new(
                [(start, SegmentValue::Exact(y)), (start + width, SegmentValue::Exact(y + 1))],
                colour.filled(),
            );
            rectangle.set_margin(4, 4, 0, 0);
            Some(rectangle)
        });
        chart.draw_series(segments).map_err(failed)?;
    }
    Ok(())
}

/// Where each option of a legend goes: its left edge, its line (from 0) and its label, lines filled left to right.
fn legend(options: &[String]) -> Vec<(u32, u32, String)> {
    let mut placed = Vec::new();
    let (mut x, mut line) = (8, 0);
    for option in options {
        let label = cut(option);
        let width = 17 + 8 * label.chars().count() as u32 + 20;
        if x > 8 && x + width > WIDTH - 8 {
            (x, line) = (8, line + 1);
        }
        placed.push((x, line, label));
        x += width;
    }
    placed
}

/// The SVG marked as one image named by the chart's title, its figures being in the table beside it.
fn accessible(svg: &str, chart: &Chart) -> String {
    let title = escape(&format!("Chart of “{}”: {}", chart.title, chart.summary));
    match svg.split_once("<svg ") {
        Some((before, after)) => match after.split_once('>') {
            Some((attributes, rest)) => {
                format!("{before}<svg role=\"img\" {attributes}><title>{title}</title>{rest}")
            }
            None => svg.to_owned(),
        },
        None => svg.to_owned(),
    }
}

/// Text as XML character data.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}
