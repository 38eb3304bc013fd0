//! The report (`GET /surveys/{id}/report`, HTML and PDF) and one item's chart (`GET .../items/{id}/chart`, SVG and
//! PNG) over HTTP: what each shows, under the filters and the breakdown, texts escaped, and every bad parameter
//! named. The browser's view of the HTML (axe-core, a phone's width) is `tests/system/accessibility.rs`'s.

use serde_json::json;

use super::breakdowns::teams;
use crate::helpers::{item_id, spawn_app, TestApp};

/// A GET with the app's key, answering `(status, content type, body)`.
async fn fetch(app: &TestApp, path: &str) -> (u16, String, Vec<u8>) {
    let response =
        app.client.get(format!("{}/api/v1{path}", app.address)).header("X-API-KEY", &app.key).send().await.unwrap();
    let content_type =
        response.headers().get("content-type").map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default();
    (response.status().as_u16(), content_type, response.bytes().await.unwrap().to_vec())
}

/// The five teams' survey with one more set whose open text is markup.
async fn answered(app: &TestApp) -> (i64, serde_json::Value, i64) {
    let (survey, tree, _, label) = teams(app).await;
    let set = json!({"completed": false, "answers": [
        {"questionItemId": item_id(&tree, 2, 0), "value": "<script>alert('canteen')</script> & more"}]});
    app.post(&format!("/surveys/{survey}/answers"), set).await.expect(201);
    (survey, tree, label)
}

fn text(body: &[u8]) -> String {
    String::from_utf8(body.to_vec()).expect("UTF-8")
}

#[tokio::test]
async fn the_html_report_is_one_document_with_a_chart_and_a_table_per_item() {
    let app = spawn_app().await;
    let (survey, tree, label) = answered(&app).await;
    let (status, content_type, body) = fetch(&app, &format!("/surveys/{survey}/report")).await;
    assert_eq!((status, content_type.as_str()), (200, "text/html; charset=utf-8"));
    let html = text(&body);
    assert!(html.starts_with("<!DOCTYPE html><html lang=\"en\">"), "{html}");
    assert!(!html.contains("<script") && !html.contains("src="), "no script and nothing fetched");
    let quoted = "<blockquote>&lt;script&gt;alert('canteen')&lt;/script&gt; &amp; more</blockquote>";
    assert!(html.contains(quoted), "the open text quoted, escaped: {html}");
    assert!(html.contains("<title>Report: Pulse</title>"));
    // Every item that takes answers has a table; those with a plot a chart (Info has neither).
    assert_eq!(html.matches("<svg role=\"img\"").count(), 5, "Happy, Why, Hours, Rate and Anything else");
    assert_eq!(html.matches("<table>").count(), 1 + 5, "the funnel and one per item");
    assert!(html.contains("<th scope=\"row\">Invite</th><td class=\"n\">4</td>"), "the sendout's 4 respondents");
    assert!(html.contains("5 answers; mean 7; NPS 0 (0 promoters, 5 passives, 0 detractors)"), "{html}");
    assert!(html.contains("<dd>6</dd>"), "six answer sets: {html}");
    assert!(
        html.contains("<th scope=\"row\">10 to &lt; 15</th><td class=\"n\">1</td>"),
        "the hours' histogram: {html}"
    );

    let happy = item_id(&tree, 0, 0);
    let path = format!("/surveys/{survey}/report?where={happy}:eq:yes&breakdownBy=bg:{label}&minGroupSize=2");
    let (status, _, body) = fetch(&app, &path).await;
    let html = text(&body);
    assert_eq!(status, 200, "{html}");
    assert!(html.contains("the answer to “Happy?” is “yes”"), "the filter said: {html}");
    assert!(html.contains("<dt>Broken down by</dt><dd>background data label"), "{html}");
    assert!(html.contains("<dd>3</dd>"), "three sets answered yes: {html}");
    assert!(html.contains("<th scope=\"row\">Sales</th><td class=\"n\">2</td>"), "Sales' two yes: {html}");
    assert!(html.contains("too few to show"), "the anonymous set's group is suppressed: {html}");
}

#[tokio::test]
async fn the_pdf_report_is_a4_with_its_text_selectable() {
    let app = spawn_app().await;
    let (survey, _, _) = answered(&app).await;
    let (status, content_type, body) = fetch(&app, &format!("/surveys/{survey}/report?format=pdf")).await;
    assert_eq!((status, content_type.as_str()), (200, "application/pdf"));
    assert!(body.starts_with(b"%PDF-"), "a PDF");
    let Some(text) = poppler("pdftotext", &body) else { return };
    let quoted = "<script>alert('canteen')</script> & more";
    for expected in ["Pulse", "Sendouts", "1. Happy?", "NPS 0", "Some of the answers", quoted] {
        assert!(text.contains(expected), "{expected:?} in the PDF's text: {text}");
    }
    let info = poppler("pdfinfo", &body).unwrap_or_default();
    assert!(info.contains("595.28 x 841.89 pts (A4)"), "{info}");
    let fonts = poppler("pdffonts", &body).unwrap_or_default();
    assert!(fonts.contains("DejaVuSans ") && fonts.lines().skip(2).all(|font| font.contains(" yes yes ")), "{fonts}");
}

/// What a poppler-utils tool (`pdftotext`, `pdfinfo`, `pdffonts`) reads from the PDF, or `None` (saying so) where
/// poppler-utils is not installed, except in CI, which installs it.
fn poppler(tool: &str, pdf: &[u8]) -> Option<String> {
    let path = std::env::temp_dir().join(format!("canvass-report-{tool}-{}.pdf", std::process::id()));
    std::fs::write(&path, pdf).unwrap();
    let mut command = std::process::Command::new(tool);
    if tool == "pdftotext" {
        command.arg("-layout");
    }
    command.arg(&path);
    if tool == "pdftotext" {
        command.arg("-");
    }
    let read = command.output();
    let _ = std::fs::remove_file(&path);
    match read {
        Ok(output) if output.status.success() => Some(String::from_utf8_lossy(&output.stdout).into_owned()),
        _ if std::env::var_os("CI").is_some() => panic!("{tool} (poppler-utils) is needed in CI"),
        _ => {
            eprintln!("skipped: the PDF read by {tool}, as poppler-utils is not installed");
            None
        }
    }
}

#[tokio::test]
async fn one_item_s_chart_is_an_svg_or_a_png_under_the_filters() {
    let app = spawn_app().await;
    let (survey, tree, _) = answered(&app).await;
    let (happy, info, hours) = (item_id(&tree, 0, 0), item_id(&tree, 0, 2), item_id(&tree, 1, 0));
    let (status, content_type, body) = fetch(&app, &format!("/surveys/{survey}/items/{happy}/chart")).await;
    assert_eq!((status, content_type.as_str()), (200, "image/svg+xml"));
    let svg = text(&body);
    assert!(svg.contains("<svg role=\"img\"") && svg.contains("<title>Chart of “Happy?”: 5 answers</title>"), "{svg}");
    assert!(svg.contains("3 (60%)") && svg.contains("2 (40%)"), "three yes and two no: {svg}");
    let narrowed = fetch(&app, &format!("/surveys/{survey}/items/{happy}/chart?where={hours}:gt:25")).await;
    let svg = text(&narrowed.2);
    assert!(svg.contains("1 (33%)") && svg.contains("2 (67%)"), "30, 40 and 50 hours: one yes, two no: {svg}");

    let (status, content_type, png) = fetch(&app, &format!("/surveys/{survey}/items/{hours}/chart?format=png")).await;
    assert_eq!((status, content_type.as_str()), (200, "image/png"));
    let image = image::load_from_memory(&png).expect("a PNG");
    assert_eq!(image.width(), 1440);

    let refused = app.get(&format!("/surveys/{survey}/items/{info}/chart")).await;
    assert_eq!(refused.fields(), ["questionItemId"], "an Info item has no chart");
    refused.problem(400, "/validation");
    let refused = app.get(&format!("/surveys/{survey}/items/{happy}/chart?format=gif")).await;
    assert_eq!(refused.fields(), ["format"]);
    app.get(&format!("/surveys/{survey}/items/999999/chart")).await.problem(404, "/not-found");
    let (_, other) = app.new_account("Other", "owner@other.example");
    let theirs = app.call_as(&other, "GET", &format!("/surveys/{survey}/items/{happy}/chart"), None).await;
    theirs.problem(404, "/not-found");
    let theirs = app.call_as(&other, "GET", &format!("/surveys/{survey}/report"), None).await;
    theirs.problem(404, "/not-found");
}

#[tokio::test]
async fn a_report_s_bad_parameters_are_named() {
    let app = spawn_app().await;
    let (survey, tree, _) = answered(&app).await;
    let hours = item_id(&tree, 1, 0);
    for (query, field) in [
        ("format=docx", "format"),
        ("breakdownBy=colour", "breakdownBy"),
        (&*format!("breakdownBy={hours}"), "breakdownBy"),
        ("where=999999:eq:1", "where"),
        ("minGroupSize=0", "minGroupSize"),
        ("from=yesterday", "from"),
    ] {
        let refused = app.get(&format!("/surveys/{survey}/report?{query}")).await;
        assert_eq!(refused.fields(), [field], "{query}");
        refused.problem(400, "/validation");
    }
}
