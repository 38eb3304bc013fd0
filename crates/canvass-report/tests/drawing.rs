//! Every kind of chart drawn as SVG and rasterised as PNG: valid documents of the expected size, marked as one
//! image, their labels and figures as text. `CHARTS_OUT=<dir>` keeps the pictures to look at.

use canvass_domain::ids::QuestionItemId;
use canvass_domain::insight::{
    BinLayout, Histogram, ItemFigures, ItemResult, NumericSummary, OptionCount, RatingSummary, RowCounts, WordCount,
};
use canvass_domain::survey::QuestionType;
use canvass_report::{png::png, svg::svg, Chart};

fn option(label: &str, count: i64) -> OptionCount {
    OptionCount { value: label.to_lowercase(), label: label.to_owned(), count }
}

fn item(kind: QuestionType, text: &str, figures: ItemFigures) -> ItemResult {
    ItemResult { question_item_id: QuestionItemId::new(1), kind, text: text.to_owned(), figures }
}

/// One chart of each kind that has a plot.
fn charts() -> Vec<(&'static str, Chart)> {
    let choices = ItemFigures::Choices {
        answered: 40,
        options: vec![
            option("Very satisfied & happy", 18),
            option("Satisfied", 12),
            option("Neither <nor>", 6),
            option("A label much longer than any chart should draw in full, cut", 4),
        ],
    };
    let mut ratings = [0; 11];
    for (rating, count) in [(10, 9), (9, 7), (8, 5), (7, 3), (5, 2), (2, 1), (0, 1)] {
        ratings[rating] = count;
    }
    let rating = ItemFigures::Rating { answered: 28, summary: RatingSummary::of(ratings) };
    let summary = NumericSummary { count: 30, mean: Some(41.5), median: Some(39.0), min: Some(18.0), max: Some(67.0) };
    let layout = BinLayout::of(QuestionItemId::new(1), 18.0, 67.0);
    let histogram = Histogram::of(layout, (0..11).map(|bin| (bin, i64::from(bin % 4 + 1))));
    let words = ItemFigures::OpenText {
        answered: 12,
        top_words: ["staff", "fast", "price", "friendly"]
            .iter()
            .zip([7, 5, 3, 1])
            .map(|(word, count)| WordCount { word: (*word).to_owned(), count })
            .collect(),
    };
    let row = |label: &str, counts: [i64; 3]| RowCounts {
        value: label.to_lowercase(),
        label: label.to_owned(),
        options: vec![option("Agree", counts[0]), option("Neutral", counts[1]), option("Disagree", counts[2])],
    };
    let matrix = ItemFigures::Matrix { answered: 20, rows: vec![row("Price", [12, 5, 3]), row("Staff", [15, 4, 1])] };
    vec![
        ("choices", Chart::of(&item(QuestionType::SingleChoice, "How satisfied are you?", choices), None)),
        ("rating", Chart::of(&item(QuestionType::Rating, "How likely are you to recommend us?", rating), None)),
        (
            "numeric",
            Chart::of(
                &item(QuestionType::Numeric, "Your age", ItemFigures::Numeric { answered: 30, summary }),
                Some(&histogram),
            ),
        ),
        ("words", Chart::of(&item(QuestionType::OpenText, "What did you like?", words), None)),
        ("matrix", Chart::of(&item(QuestionType::Matrix, "Do you agree?", matrix), None)),
    ]
}

#[test]
fn every_kind_of_chart_is_an_svg_and_a_png_of_its_size() {
    let out = std::env::var_os("CHARTS_OUT").map(std::path::PathBuf::from);
    for (name, chart) in charts() {
        let drawn = svg(&chart, true).expect("drawn").expect("a plot");
        assert!(drawn.contains("<svg role=\"img\""), "{name}: {drawn}");
        assert!(drawn.contains(&format!("<title>Chart of “{}”: ", chart.title)), "{name}");
        assert!(drawn.contains("font-family=\"DejaVu Sans\""), "{name}");
        for row in &chart.table.rows {
            if name != "matrix" {
                assert!(drawn.contains(&format!("{} ({})", row[1], row[2])), "{name}: figures of {row:?}");
            }
        }
        let image = png(&drawn).expect("rasterised");
        assert_eq!(&image[1..4], b"PNG");
        let width = u32::from_be_bytes([image[16], image[17], image[18], image[19]]);
        assert_eq!(width, 2 * canvass_report::svg::WIDTH, "{name}: twice the SVG's width");
        if let Some(dir) = &out {
            std::fs::write(dir.join(format!("{name}.svg")), &drawn).expect("kept");
            std::fs::write(dir.join(format!("{name}.png")), &image).expect("kept");
        }
    }
}

#[test]
fn labels_are_escaped_and_cut() {
    let (_, chart) = charts().remove(0);
    let drawn = svg(&chart, false).expect("drawn").expect("a plot");
    assert!(drawn.contains("Very satisfied &amp; happy") && drawn.contains("Neither &lt;nor&gt;"), "{drawn}");
    assert!(drawn.contains("A label much longer than any ch…"), "{drawn}");
    assert!(!drawn.contains(">How satisfied are you?\n<"), "no title drawn in a report's chart");
}

#[test]
fn a_chart_of_a_thousand_options_is_rasterised_within_the_pixel_bound() {
    let options = (0..1000).map(|n| option(&format!("Option {n}"), n)).collect();
    let figures = ItemFigures::Choices { answered: 499_500, options };
    let chart = Chart::of(&item(QuestionType::Dropdown, "Which shop?", figures), None);
    let drawn = svg(&chart, true).expect("drawn").expect("a plot");
    let image = png(&drawn).expect("rasterised");
    let dimension = |at: usize| u32::from_be_bytes([image[at], image[at + 1], image[at + 2], image[at + 3]]);
    let (width, height) = (dimension(16), dimension(20));
    assert!(height > 10 * width, "the whole tall chart: {width}x{height}");
    assert!((width * height) as f32 <= canvass_report::png::MAX_PIXELS, "{width}x{height}");
}
