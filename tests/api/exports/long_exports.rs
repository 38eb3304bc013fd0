//! Exports longer than a chunk (1,000 sets): every format comes back whole, in id order, each row the right set's,
//! the filter holding across chunks; a client that stops reading a big export holds no database connection (a
//! server with a pool of one goes on answering), and one that goes away ends it.

use std::time::{Duration, Instant};

use futures::StreamExt;
use serde_json::{json, Value};

use super::{csv_records, export, export_survey, json_lines, listed_ids, record, xlsx_rows, Items};
use crate::helpers::{spawn_app_with, TestApp};

/// More sets than one chunk holds, and not a multiple of it.
const SETS: usize = 1_100;

/// A key rate these tests never reach: what they measure is the export, not the per-key limit.
const PER_KEY: std::num::NonZeroU32 = std::num::NonZeroU32::new(100_000).unwrap();

/// Records `count` sets, eight at a time, set `n` made by `body(n)`; returns `(answerSetId, n)` in id order.
async fn many_sets(app: &TestApp, survey: i64, count: usize, body: impl Fn(usize) -> Value) -> Vec<(i64, usize)> {
    let posts = (0..count).map(|n| {
        let body = body(n);
        async move { (record(app, survey, body).await["answerSetId"].as_i64().unwrap(), n) }
    });
    let mut sets: Vec<(i64, usize)> = futures::stream::iter(posts).buffer_unordered(8).collect().await;
    sets.sort_unstable();
    sets
}

/// Set `n`: a rating of `n % 11`, the open text `set n`, completed when `n` is a multiple of 3.
fn numbered(items: &Items) -> impl Fn(usize) -> Value + '_ {
    move |n| {
        json!({"completed": n % 3 == 0, "answers": [
            {"questionItemId": items.rating, "value": n % 11},
            {"questionItemId": items.open, "value": format!("set {n}")}]})
    }
}

#[tokio::test]
async fn exports_longer_than_a_chunk_come_back_whole_in_order_and_filtered() {
    // 1,100 sets and eight exports: more than the default key's burst of 1,000 on a machine that records them fast.
    let app = spawn_app_with(|settings| settings.protection.rate_limit_per_key = PER_KEY).await;
    let (survey, items) = export_survey(&app, &app.key).await;
    let sets = many_sets(&app, survey, SETS, numbered(&items)).await;

    let records = csv_records(&export(&app, survey, "").await);
    assert_eq!(records.len(), 1 + SETS);
    for ((id, n), record) in sets.iter().zip(&records[1..]) {
        let expected = [id.to_string(), (n % 11).to_string(), format!("set {n}")];
        assert_eq!([record[0].clone(), record[9].clone(), record[10].clone()], expected);
    }
    let lines = json_lines(&export(&app, survey, "format=jsonl").await);
    assert_eq!(lines.len(), SETS);
    for ((id, n), line) in sets.iter().zip(&lines) {
        assert_eq!(
            (line["answerSetId"].as_i64(), line["answers"][items.open.to_string()].as_str()),
            (Some(*id), Some(&*format!("set {n}")))
        );
    }
    let xlsx = export(&app, survey, "format=xlsx").await;
    let rows = xlsx_rows(xlsx);
    assert_eq!(rows.len(), 1 + SETS);
    assert_eq!(rows[SETS][10], calamine::Data::String(format!("set {}", sets[SETS - 1].1)));

    let completed = csv_records(&export(&app, survey, "completed=true").await);
    let completed: Vec<i64> = completed[1..].iter().map(|record| record[0].parse().unwrap()).collect();
    assert_eq!(completed.len(), 367, "n = 0, 3, ... 1098");
    assert_eq!(completed, listed_ids(&app, survey, "completed=true").await);
}

/// Asks for the survey `times` times; each must answer within two seconds (a held connection would keep it waiting 5 s, then 503).
async fn answers_promptly(app: &TestApp, survey: i64, times: usize) {
    for _ in 0..times {
        let started = Instant::now();
        app.get(&format!("/surveys/{survey}")).await.expect(200);
        assert!(started.elapsed() < Duration::from_secs(2), "waited {:?} for the pool", started.elapsed());
    }
}

/// An export of the survey, its headers and first piece read, the rest left unread.
async fn started(app: &TestApp, survey: i64, format: &str) -> (reqwest::Response, Vec<u8>) {
    let url = format!("{}/api/v1/surveys/{survey}/answers/export?format={format}", app.address);
    let mut response = app.client.get(url).header("X-API-KEY", &app.key).send().await.unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let first = response.chunk().await.unwrap().unwrap().to_vec();
    (response, first)
}

#[tokio::test]
async fn a_client_that_stops_reading_holds_no_connection_and_one_that_goes_away_ends_the_export() {
    let app = spawn_app_with(|settings| {
        settings.pool_size = 1;
        settings.protection.rate_limit_per_key = PER_KEY;
    })
    .await;
    let (survey, items) = export_survey(&app, &app.key).await;
    // About 11 MB of CSV, more than the sockets between the server and the client buffer.
    let long = "x".repeat(10_000);
    let sets =
        many_sets(&app, survey, SETS, |_| json!({"answers": [{"questionItemId": items.open, "value": long}]})).await;

    let (mut stalled, mut body) = started(&app, survey, "csv").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    answers_promptly(&app, survey, 5).await;
    while let Some(piece) = stalled.chunk().await.unwrap() {
        body.extend_from_slice(&piece);
    }
    let records = csv_records(&body);
    let ids: Vec<i64> = records[1..].iter().map(|record| record[0].parse().unwrap()).collect();
    assert_eq!(ids, sets.iter().map(|(id, _)| *id).collect::<Vec<_>>(), "read on after the pause, whole");
    assert!(records[1..].iter().all(|record| record[10] == long));

    for format in ["csv", "xlsx", "jsonl"] {
        let (gone, first) = started(&app, survey, format).await;
        assert!(!first.is_empty());
        drop(gone);
        answers_promptly(&app, survey, 3).await;
    }
    let lines = json_lines(&export(&app, survey, "format=jsonl").await);
    assert_eq!(lines.len(), SETS);
}
