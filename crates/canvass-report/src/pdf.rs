//! A report as an A4 PDF made by krilla: text set in the report's fonts (embedded and subset, selectable), each
//! chart's SVG drawn as vectors by krilla-svg (its text selectable too), and the same view as the HTML laid out
//! in blocks that flow down the pages: an item's heading and chart stay together, long tables break between rows.

use std::sync::OnceLock;

use ab_glyph::{Font as _, FontRef};
use canvass_domain::use_cases::reports::SurveyReport;
use krilla::color::rgb;
use krilla::geom::{PathBuilder, Point, Rect, Size};
use krilla::metadata::Metadata;
use krilla::page::PageSettings;
use krilla::paint::Fill;
use krilla::surface::Surface;
use krilla::text::{Font, TextDirection};
use krilla::Document;
use krilla_svg::{SurfaceExt, SvgSettings};
use resvg::usvg::{Options, Tree};

use crate::chart::Table;
use crate::fonts::{database, BOLD, REGULAR};
use crate::view::{ItemView, ReportView};

/// A4 in points.
const PAGE: (f32, f32) = (595.28, 841.89);
/// The margin on every side.
const MARGIN: f32 = 48.0;
/// The width text and charts take.
const WIDTH: f32 = PAGE.0 - 2.0 * MARGIN;
/// The height a page holds.
const HEIGHT: f32 = PAGE.1 - 2.0 * MARGIN;

const INK: (u8, u8, u8) = (0x22, 0x22, 0x22);
const MUTED: (u8, u8, u8) = (0x55, 0x55, 0x55);
const ACCENT: (u8, u8, u8) = (0x1f, 0x5f, 0x9e);
const RULE: (u8, u8, u8) = (0xbb, 0xbb, 0xbb);
const SHADE: (u8, u8, u8) = (0xee, 0xf2, 0xf7);

/// The PDF could not be made.
#[derive(Debug, thiserror::Error)]
pub enum PdfError {
    /// A chart could not be drawn.
    #[error(transparent)]
    Draw(#[from] crate::svg::DrawError),
    /// krilla refused the document.
    #[error("the PDF could not be written: {0}")]
    Write(String),
}

/// The report as a PDF.
pub fn report(report: &SurveyReport) -> Result<Vec<u8>, PdfError> {
    let view = ReportView::of(report)?;
    let pages = paginate(blocks(&view));
    write(&view.title, &pages)
}

/// Something drawn, at a place relative to its block's top left.
#[derive(Debug, Clone)]
enum Mark {
    /// A line of text, `y` its baseline.
    Text { x: f32, y: f32, size: f32, bold: bool, colour: (u8, u8, u8), text: String },
    /// A filled rectangle.
    Fill { x: f32, y: f32, w: f32, h: f32, colour: (u8, u8, u8) },
    /// An SVG document scaled to `w` by `h`.
    Svg { x: f32, y: f32, w: f32, h: f32, svg: String },
}

/// A piece of the flow that is never split across pages.
#[derive(Debug, Clone, Default)]
struct Block {
    height: f32,
    marks: Vec<Mark>,
    /// Moves to the next page with the block after it (a heading, a table's head).
    keep_with_next: bool,
}

/// The faces as measured for wrapping (`None` if they were not TrueType, which the tests rule out).
fn faces() -> Option<&'static (FontRef<'static>, FontRef<'static>)> {
    static FACES: OnceLock<Option<(FontRef<'static>, FontRef<'static>)>> = OnceLock::new();
    FACES.get_or_init(|| Some((FontRef::try_from_slice(REGULAR).ok()?, FontRef::try_from_slice(BOLD).ok()?))).as_ref()
}

/// The width of `text` set at `size` (an average glyph's width each without the faces).
fn measure(text: &str, size: f32, bold: bool) -> f32 {
    let Some((regular, heavy)) = faces() else { return text.chars().count() as f32 * size * 0.6 };
    let face = if bold { heavy } else { regular };
    // `size` is the em, as the PDF sets it (ab_glyph's own scale is the font's height).
    let per_unit = size / face.units_per_em().unwrap_or(2048.0);
    text.chars().map(|c| face.h_advance_unscaled(face.glyph_id(c)) * per_unit).sum()
}

/// `text` broken into lines no wider than `width`, between words where it can, inside a word where it must.
fn wrap(text: &str, width: f32, size: f32, bold: bool) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let candidate = if line.is_empty() { word.to_owned() } else { format!("{line} {word}") };
        if measure(&candidate, size, bold) <= width {
            line = candidate;
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        for c in word.chars() {
            line.push(c);
            if measure(&line, size, bold) > width && line.chars().count() > 1 {
                line.pop();
                lines.push(std::mem::take(&mut line));
                line.push(c);
            }
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// Text wrapped to `width` from `x`, as a block.
fn paragraph(text: &str, x: f32, width: f32, size: f32, bold: bool, colour: (u8, u8, u8), after: f32) -> Block {
    let leading = size * 1.35;
    let marks = wrap(text, width, size, bold)
        .into_iter()
        .enumerate()
        .map(|(at, line)| Mark::Text { x, y: leading * at as f32 + size, size, bold, colour, text: line })
        .collect::<Vec<_>>();
    Block { height: leading * marks.len() as f32 + after, marks, keep_with_next: false }
}

/// A section's heading with a rule under it.
fn heading(text: &str) -> Block {
    let mut block = paragraph(text, 0.0, WIDTH, 15.0, true, INK, 0.0);
    block.marks.push(Mark::Fill { x: 0.0, y: block.height + 2.0, w: WIDTH, h: 1.5, colour: ACCENT });
    block.height += 12.0;
    block.keep_with_next = true;
    block
}

/// The blocks of a table: its head, then each row; the first column takes what the others leave.
fn table(table: &Table, size: f32) -> Vec<Block> {
    const PAD: f32 = 5.0;
    let columns = table.head.len();
    if columns == 0 {
        return Vec::new();
    }
    let widest = |column: usize| {
        let cells = table.rows.iter().filter_map(|row| row.get(column));
        let head = measure(&table.head[column], size, true);
        cells.map(|cell| measure(cell, size, false)).fold(head, f32::max) + 2.0 * PAD
    };
    let mut widths: Vec<f32> = (0..columns).map(|column| widest(column).min(WIDTH * 0.3)).collect();
    let others: f32 = widths.iter().skip(1).sum();
    widths[0] = (WIDTH - others).clamp(WIDTH * 0.25, widest(0).max(WIDTH * 0.25));
    let total: f32 = widths.iter().sum();
    if total > WIDTH {
        let scale = WIDTH / total;
        widths.iter_mut().for_each(|width| *width *= scale);
    }
    let row = |cells: &[String], bold: bool, shade: bool| {
        let lines: Vec<Vec<String>> = cells
            .iter()
            .zip(&widths)
            .map(|(cell, width)| wrap(cell, width - 2.0 * PAD, size, bold || cell.is_empty()))
            .collect();
        let leading = size * 1.3;
        let height = leading * lines.iter().map(Vec::len).max().unwrap_or(1) as f32 + 2.0 * PAD;
        let mut marks = Vec::new();
        if shade {
            marks.push(Mark::Fill { x: 0.0, y: 0.0, w: total.min(WIDTH), h: height, colour: SHADE });
        }
        let mut x = 0.0;
        for (column, (cell_lines, width)) in lines.into_iter().zip(&widths).enumerate() {
            for (at, line) in cell_lines.into_iter().enumerate() {
                let right = column > 0;
                let offset = if right { width - PAD - measure(&line, size, bold) } else { PAD };
                let y = PAD + leading * at as f32 + size;
                marks.push(Mark::Text { x: x + offset, y, size, bold: bold || column == 0, colour: INK, text: line });
            }
            x += width;
        }
        marks.push(Mark::Fill { x: 0.0, y: height - 0.5, w: total.min(WIDTH), h: 0.5, colour: RULE });
        Block { height, marks, keep_with_next: false }
    };
    let mut blocks = vec![Block { keep_with_next: true, ..row(&table.head, true, true) }];
    blocks.extend(table.rows.iter().map(|cells| row(cells, false, false)));
    if let Some(last) = blocks.last_mut() {
        last.height += 10.0;
    }
    blocks
}

/// An item's blocks: its heading, key figures and chart together, then its table, texts and groups.
fn item_blocks(item: &ItemView) -> Vec<Block> {
    let title = format!("{}. {}", item.number, item.chart.title);
    let mut top = paragraph(&title, 0.0, WIDTH, 12.0, true, INK, 2.0);
    let summary = paragraph(&item.chart.summary, 0.0, WIDTH, 9.0, false, MUTED, 6.0);
    stack(&mut top, summary);
    if let Some((svg, (w, h))) = item.svg.as_ref().and_then(|svg| Some((svg, svg_size(svg)?))) {
        let scale = (WIDTH / w).min((HEIGHT - top.height - 8.0) / h);
        let mark = Mark::Svg { x: 0.0, y: top.height, w: w * scale, h: h * scale, svg: svg.clone() };
        top.marks.push(mark);
        top.height += h * scale + 8.0;
    }
    let mut blocks = vec![Block { keep_with_next: true, ..top }];
    blocks.extend(table(&item.chart.table, 8.5));
    if !item.texts.is_empty() {
        let mut label = paragraph("Some of the answers", 0.0, WIDTH, 10.0, true, INK, 2.0);
        label.keep_with_next = true;
        blocks.push(label);
        for text in &item.texts {
            let mut quote = paragraph(text, 10.0, WIDTH - 10.0, 9.0, false, INK, 4.0);
            quote.marks.push(Mark::Fill { x: 0.0, y: 0.0, w: 2.0, h: quote.height - 4.0, colour: ACCENT });
            blocks.push(quote);
        }
    }
    if let Some(groups) = &item.groups {
        let mut label = paragraph("By group", 0.0, WIDTH, 10.0, true, INK, 2.0);
        label.keep_with_next = true;
        blocks.push(label);
        blocks.extend(table(groups, 8.5));
    }
    if let Some(last) = blocks.last_mut() {
        last.height += 14.0;
    }
    blocks
}

/// `below` appended under `block`.
fn stack(block: &mut Block, below: Block) {
    let top = block.height;
    block.marks.extend(below.marks.into_iter().map(|mark| shifted(mark, 0.0, top)));
    block.height += below.height;
}

fn shifted(mark: Mark, dx: f32, dy: f32) -> Mark {
    match mark {
        Mark::Text { x, y, size, bold, colour, text } => Mark::Text { x: x + dx, y: y + dy, size, bold, colour, text },
        Mark::Fill { x, y, w, h, colour } => Mark::Fill { x: x + dx, y: y + dy, w, h, colour },
        Mark::Svg { x, y, w, h, svg } => Mark::Svg { x: x + dx, y: y + dy, w, h, svg },
    }
}

/// The width and height an SVG document declares.
fn svg_size(svg: &str) -> Option<(f32, f32)> {
    let attribute = |name: &str| -> Option<f32> {
        let start = svg.find(&format!(" {name}=\""))? + name.len() + 3;
        svg[start..].split('"').next()?.parse().ok()
    };
    Some((attribute("width")?, attribute("height")?))
}

/// Every block of the report, in reading order.
fn blocks(view: &ReportView) -> Vec<Block> {
    let mut blocks = vec![paragraph(&view.title, 0.0, WIDTH, 20.0, true, INK, 4.0)];
    blocks.push(paragraph(&format!("Report made {}", view.made), 0.0, WIDTH, 9.0, false, MUTED, 8.0));
    for (what, value) in &view.facts {
        let mut fact = paragraph(value, 110.0, WIDTH - 110.0, 9.5, false, INK, 3.0);
        fact.marks.push(Mark::Text { x: 0.0, y: 9.5, size: 9.5, bold: true, colour: INK, text: what.clone() });
        blocks.push(fact);
    }
    blocks.push(heading("Sendouts"));
    if view.funnel.rows.is_empty() {
        blocks.push(paragraph("The survey has no sendout.", 0.0, WIDTH, 9.5, false, INK, 8.0));
    } else {
        blocks.extend(table(&view.funnel, 8.5));
    }
    blocks.push(heading("Questions"));
    for item in &view.items {
        blocks.extend(item_blocks(item));
    }
    blocks
}

/// The blocks placed on pages: a block that does not fit what is left of a page starts the next, with the blocks
/// before it that keep with it.
fn paginate(blocks: Vec<Block>) -> Vec<Vec<Mark>> {
    let mut pages: Vec<Vec<Block>> = vec![Vec::new()];
    let mut used = 0.0;
    for block in blocks {
        if used + block.height > HEIGHT && used > 0.0 {
            let page = pages.last_mut().map(std::mem::take).unwrap_or_default();
            let split = page.iter().rposition(|kept| !kept.keep_with_next).map_or(0, |at| at + 1);
            let (stays, moves) = page.split_at(split);
            let moves = if stays.is_empty() { Vec::new() } else { moves.to_vec() };
            let stays = if stays.is_empty() { page.clone() } else { stays.to_vec() };
            if let Some(last) = pages.last_mut() {
                *last = stays;
            }
            used = moves.iter().map(|moved| moved.height).sum();
            pages.push(moves);
        }
        used += block.height;
        if let Some(page) = pages.last_mut() {
            page.push(block);
        }
    }
    pages
        .into_iter()
        .map(|page| {
            let mut top = 0.0;
            let mut marks = Vec::new();
            for block in page {
                marks.extend(block.marks.into_iter().map(|mark| shifted(mark, MARGIN, MARGIN + top)));
                top += block.height;
            }
            marks
        })
        .collect()
}

fn fill((r, g, b): (u8, u8, u8)) -> Fill {
    Fill { paint: rgb::Color::new(r, g, b).into(), ..Fill::default() }
}

/// The pages written as a PDF, with page numbers and the title in its metadata.
fn write(title: &str, pages: &[Vec<Mark>]) -> Result<Vec<u8>, PdfError> {
    let failed = || PdfError::Write("the report's fonts could not be read".to_owned());
    let regular = Font::new(REGULAR.into(), 0).ok_or_else(failed)?;
    let bold = Font::new(BOLD.into(), 0).ok_or_else(failed)?;
    let options = Options { fontdb: database(), ..Options::default() };
    let settings = PageSettings::from_wh(PAGE.0, PAGE.1).ok_or_else(failed)?;
    let mut document = Document::new();
    document.set_metadata(Metadata::new().title(title.to_owned()).language("en".to_owned()));
    for (number, marks) in pages.iter().enumerate() {
        let mut page = document.start_page_with(settings.clone());
        let mut surface = page.surface();
        for mark in marks {
            draw(&mut surface, mark, &regular, &bold, &options)?;
        }
        let footer = format!("{title} · page {} of {}", number + 1, pages.len());
        let footer =
            Mark::Text { x: MARGIN, y: PAGE.1 - MARGIN / 2.0, size: 8.0, bold: false, colour: MUTED, text: footer };
        draw(&mut surface, &footer, &regular, &bold, &options)?;
        surface.finish();
        page.finish();
    }
    document.finish().map_err(|error| PdfError::Write(format!("{error:?}")))
}

fn draw(
    surface: &mut Surface<'_>,
    mark: &Mark,
    regular: &Font,
    bold: &Font,
    options: &Options<'_>,
) -> Result<(), PdfError> {
    match mark {
        Mark::Text { x, y, size, bold: heavy, colour, text } => {
            surface.set_fill(Some(fill(*colour)));
            let font = if *heavy { bold.clone() } else { regular.clone() };
            surface.draw_text(Point::from_xy(*x, *y), font, *size, text, false, TextDirection::Auto);
        }
        Mark::Fill { x, y, w, h, colour } => {
            let mut path = PathBuilder::new();
            if let Some(rect) = Rect::from_xywh(*x, *y, *w, *h) {
                path.push_rect(rect);
            }
            if let Some(path) = path.finish() {
                surface.set_fill(Some(fill(*colour)));
                surface.draw_path(&path);
            }
        }
        Mark::Svg { x, y, w, h, svg } => {
            let tree = Tree::from_str(svg, options).map_err(|error| PdfError::Write(error.to_string()))?;
            let size = Size::from_wh(*w, *h).ok_or_else(|| PdfError::Write("an empty chart".to_owned()))?;
            surface.push_transform(&krilla::geom::Transform::from_translate(*x, *y));
            let settings = SvgSettings { embed_text: true, ..SvgSettings::default() };
            surface.draw_svg(&tree, size, settings);
            surface.pop();
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_wraps_between_words_and_inside_a_word_too_long() {
        let lines = wrap("one two three four five six seven eight nine ten", 80.0, 10.0, false);
        assert!(lines.len() > 2, "{lines:?}");
        assert!(lines.iter().all(|line| measure(line, 10.0, false) <= 80.0), "{lines:?}");
        assert_eq!(lines.join(" "), "one two three four five six seven eight nine ten");
        let long = wrap(&"x".repeat(100), 50.0, 10.0, true);
        assert!(long.len() > 1 && long.concat() == "x".repeat(100), "{long:?}");
        assert_eq!(wrap("", 50.0, 10.0, false), [""]);
    }

    #[test]
    fn a_block_that_does_not_fit_moves_to_the_next_page_with_its_heading() {
        let block = |height: f32, keep: bool| Block {
            height,
            marks: vec![Mark::Fill { x: 0.0, y: 0.0, w: 1.0, h: 1.0, colour: INK }],
            keep_with_next: keep,
        };
        let pages = paginate(vec![block(500.0, false), block(50.0, true), block(200.0, false), block(10.0, false)]);
        assert_eq!(pages.len(), 2);
        assert_eq!(pages[0].len(), 1, "the heading moved with the block it keeps with");
        assert_eq!(pages[1].len(), 3);
        let Mark::Fill { y, .. } = pages[1][0] else { panic!("a fill") };
        assert_eq!(y, MARGIN, "the next page starts at its top margin");
    }
}
