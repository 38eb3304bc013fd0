//! What an export (or a page of answer sets) may hold on the server, whatever its client does: chunks sized by
//! bytes, a connection closed once its client stops reading, at most four exports per account at once, an XLSX
//! export that stops within a chunk of its client leaving, and caps on what XLSX exports keep in temporary files.
//! What the server read is seen through `/metrics` (`canvass_streamed_chunks_total`, ...).

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::{export_survey, record};
use crate::helpers::{spawn_app, spawn_app_with, TestApp};

/// The most characters an open text answer holds.
const TEXT: usize = 9_000;

/// A survey of `items` open text items in the app's account; returns it and its items in order.
async fn wide_survey(app: &TestApp, items: usize) -> (i64, Vec<i64>) {
    let texts: Vec<Value> = (0..items).map(|n| json!({"type": "OpenText", "text": format!("Text {n}")})).collect();
    let body = json!({"name": "Wide", "pages": [{"items": texts}]});
    let survey = app.post("/surveys", body).await.expect(201)["surveyId"].as_i64().unwrap();
    let tree = app.get(&format!("/surveys/{survey}/questions")).await.expect(200);
    let ids = tree["pages"][0]["items"].as_array().unwrap().iter().map(|item| item["questionItemId"].as_i64().unwrap());
    (survey, ids.collect())
}

/// Records `count` sets answering the first `pieces` items with 9,000 letters each (set `n`'s first answer starts
/// with `n` and a space); returns their ids in order.
async fn sets_of(app: &TestApp, survey: i64, items: &[i64], count: usize, pieces: usize) -> Vec<i64> {
    let mut ids = Vec::new();
    for n in 0..count {
        let answers: Vec<Value> = items[..pieces]
            .iter()
            .enumerate()
            .map(|(index, item)| {
                let text = if index == 0 { format!("{n} {}", "x".repeat(TEXT)) } else { "x".repeat(TEXT) };
                json!({"questionItemId": item, "value": text})
            })
            .collect();
        ids.push(record(app, survey, json!({ "answers": answers })).await["answerSetId"].as_i64().unwrap());
    }
    ids
}

/// The value of a metric without labels, as `/metrics` serves it now.
async fn metric(app: &TestApp, name: &str) -> f64 {
    let text = app.client.get(format!("{}/metrics", app.address)).send().await.unwrap().text().await.unwrap();
    let line = text.lines().find(|line| line.split(' ').next() == Some(name));
    line.and_then(|line| line.split(' ').nth(1))
        .and_then(|value| value.parse().ok())
        .unwrap_or_else(|| panic!("{name} in {text}"))
}

/// The metric once it has stopped changing (read every 300 ms until two reads agree, for at most 10 s).
async fn settled(app: &TestApp, name: &str) -> f64 {
    let mut last = metric(app, name).await;
    for _ in 0..33 {
        tokio::time::sleep(Duration::from_millis(300)).await;
        let now = metric(app, name).await;
        if now == last {
            return now;
        }
        last = now;
    }
    last
}

/// `GET` of an API path with the app's key, its headers read and its body left unread.
async fn opened(app: &TestApp, key: &str, path: &str) -> reqwest::Response {
    let url = format!("{}/api/v1{path}", app.address);
    app.client.get(url).header("X-API-KEY", key).send().await.unwrap()
}

/// Asks for `path` on a socket with a small receive buffer (16 KiB) and reads only the answer's head: a client that
/// stops reading, whatever the machine's own buffers (loopback's grow to 32 MiB here, and hold a whole export).
async fn stalled(app: &TestApp, path: &str) -> tokio::net::TcpStream {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let address: std::net::SocketAddr = app.address.trim_start_matches("http://").parse().unwrap();
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(16 * 1024).unwrap();
    let mut stream = socket.connect(address).await.unwrap();
    let request =
        format!("GET /api/v1{path} HTTP/1.1\r\nHost: {address}\r\nX-API-KEY: {}\r\nConnection: close\r\n\r\n", app.key);
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut head = [0u8; 512];
    let read = stream.read(&mut head).await.unwrap();
    assert!(head[..read].starts_with(b"HTTP/1.1 200"), "{}", String::from_utf8_lossy(&head[..read]));
    stream
}

/// Reads a socket until the server closes it: the bytes read.
async fn drain(mut stream: tokio::net::TcpStream) -> usize {
    use tokio::io::AsyncReadExt;
    let (mut buffer, mut total) = (vec![0u8; 64 * 1024], 0);
    loop {
        match stream.read(&mut buffer).await {
            Ok(0) | Err(_) => return total,
            Ok(read) => total += read,
        }
    }
}

/// Reads the rest of a body: its length, or `None` when the connection broke off before its end.
async fn rest(mut response: reqwest::Response) -> Option<usize> {
    let mut length = 0;
    loop {
        match response.chunk().await {
            Ok(Some(piece)) => length += piece.len(),
            Ok(None) => return Some(length),
            Err(_) => return None,
        }
    }
}

#[tokio::test]
async fn export_chunks_are_sized_by_bytes_not_only_by_sets() {
    let app = spawn_app().await;
    let (survey, items) = wide_survey(&app, 11).await;
    // 40 sets of about 100 KB: one chunk of 250 sets would hold 4 MB; by bytes (2 MiB) they take two chunks.
    sets_of(&app, survey, &items, 40, 11).await;
    let before = metric(&app, "canvass_streamed_chunks_total").await;
    let body = super::export(&app, survey, "format=jsonl").await;
    assert_eq!(super::json_lines(&body).len(), 40);
    let read_on = metric(&app, "canvass_streamed_chunks_total").await - before;
    assert!((1.0..=2.0).contains(&read_on), "chunks read after the first: {read_on}");
}

#[tokio::test]
async fn a_page_of_large_sets_is_read_in_chunks_and_comes_back_whole() {
    let app = spawn_app_with(|settings| settings.protection.chunk_bytes = 50_000).await;
    let (survey, items) = wide_survey(&app, 2).await;
    let ids = sets_of(&app, survey, &items, 12, 2).await;
    let before = metric(&app, "canvass_streamed_chunks_total").await;
    let page = app.get(&format!("/surveys/{survey}/answersWithData?page=2&pagesize=5")).await.expect(200);
    let read_on = metric(&app, "canvass_streamed_chunks_total").await - before;
    assert_eq!(read_on, 2.0, "five sets of 18 KB, two to a chunk of 50 KB: three chunks");
    assert_eq!(
        (&page["pageNumber"], &page["pageSize"], &page["pageCount"], &page["totalCount"]),
        (&json!(2), &json!(5), &json!(3), &json!(12))
    );
    let sets = page["answerSets"].as_array().unwrap();
    let got: Vec<i64> = sets.iter().map(|set| set["answerSetId"].as_i64().unwrap()).collect();
    assert_eq!(got, ids[5..10], "the page holds pagesize sets whatever their size");
    for (n, set) in (5..10).zip(sets) {
        let answers = set["answers"].as_array().unwrap();
        let first = answers[0]["value"].as_str().unwrap();
        assert_eq!(answers.len(), 2);
        assert!(first.starts_with(&format!("{n} ")) && first.len() == TEXT + n.to_string().len() + 1, "set {n}");
    }
    let past = app.get(&format!("/surveys/{survey}/answersWithData?page=9&pagesize=5")).await.expect(200);
    assert_eq!(past, json!({"pageNumber": 9, "pageSize": 5, "pageCount": 3, "totalCount": 12, "answerSets": []}));
    app.get("/surveys/987654/answersWithData").await.problem(404, "not-found");
}

/// A survey of the app's account with 40 sets of 400 KB: a 16 MB export, far more than the sockets between the
/// server and a client that stopped reading hold.
async fn big_survey(app: &TestApp) -> i64 {
    let (survey, items) = wide_survey(app, 44).await;
    sets_of(app, survey, &items, 40, 44).await;
    survey
}

#[tokio::test]
async fn a_client_that_stops_reading_has_its_connection_closed_after_the_idle_timeout() {
    let app = spawn_app_with(|settings| settings.protection.stream_idle_timeout = Duration::from_secs(3)).await;
    let survey = big_survey(&app).await;
    let whole = super::export(&app, survey, "format=csv").await.len();

    let paths = [format!("/surveys/{survey}/answers/export"), format!("/surveys/{survey}/answersWithData?pagesize=40")];
    for (closed_before, path) in paths.iter().enumerate() {
        let stalled = stalled(&app, path).await;
        // The server writes on until the socket's buffers are full, then waits the timeout: how long the first part
        // takes depends on the machine's load, so the test waits for the close itself (a minute at most).
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        while metric(&app, "canvass_streamed_idle_closed_total").await <= closed_before as f64
            && tokio::time::Instant::now() < deadline
        {
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
        let read = tokio::time::timeout(Duration::from_secs(60), drain(stalled)).await;
        assert!(
            read.as_ref().is_ok_and(|length| *length < whole),
            "{path}: read {read:?} of about {whole} after the pause"
        );
    }
    assert_eq!(metric(&app, "canvass_streamed_idle_closed_total").await, 2.0);

    // A reader that reads on is never closed, however long the body.
    let slow = opened(&app, &app.key, &format!("/surveys/{survey}/answers/export")).await;
    assert_eq!(rest(slow).await, Some(whole));
}

#[tokio::test]
async fn an_account_runs_at_most_four_exports_at_once() {
    let app = spawn_app().await;
    let survey = big_survey(&app).await;
    let path = format!("/surveys/{survey}/answers/export");
    let mut held = Vec::new();
    // (Not XLSX: its workbook of repeated letters zips small enough to go out whole.)
    for format in ["csv", "jsonl", "csv", "jsonl"] {
        let response = opened(&app, &app.key, &format!("{path}?format={format}")).await;
        assert_eq!(response.status(), 200, "{format}");
        held.push(response);
    }
    let refused = opened(&app, &app.key, &path).await;
    assert_eq!(refused.status(), 429);
    assert_eq!(refused.headers()["retry-after"], "10");
    assert_eq!(refused.headers()["content-type"], "application/problem+json");
    let problem: Value = refused.json().await.unwrap();
    assert_eq!(problem["type"], "/problems/too-many-exports");

    let (_, other_key) = app.new_account("Other", "owner@other.example");
    let (theirs, _) = export_survey(&app, &other_key).await;
    let their_export = super::export_as(&app, &other_key, theirs, "").await;
    assert_eq!(their_export.status, 200, "another account has slots of its own");

    // A client that leaves gives its slot back.
    drop(held.pop());
    let started = Instant::now();
    loop {
        let again = opened(&app, &app.key, &path).await;
        if again.status() == 200 {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "the slot did not come back: {}", again.status());
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test]
async fn an_abandoned_xlsx_export_stops_within_a_chunk() {
    let app = spawn_app_with(|settings| settings.protection.chunk_bytes = 25_000).await;
    let (survey, items) = wide_survey(&app, 1).await;
    // 60 sets of 9 KB, two to a chunk of 25 KB: thirty chunks, each written to the sheet's file before a byte of
    // the workbook can be sent.
    sets_of(&app, survey, &items, 60, 1).await;
    let before = metric(&app, "canvass_streamed_chunks_total").await;
    let abandoned = opened(&app, &app.key, &format!("/surveys/{survey}/answers/export?format=xlsx")).await;
    assert_eq!(abandoned.status(), 200);
    drop(abandoned);
    let read_on = settled(&app, "canvass_streamed_chunks_total").await - before;
    assert!(read_on <= 2.0, "chunks read after the client left: {read_on} of 29");
    assert_eq!(settled(&app, "canvass_export_temp_bytes").await, 0.0, "its temporary files are gone");

    let whole = super::xlsx_rows(super::export(&app, survey, "format=xlsx").await);
    assert_eq!(whole.len(), 61, "an export read to its end is whole");
}

#[tokio::test]
async fn xlsx_exports_stop_at_the_temporary_bytes_their_account_may_hold() {
    let app = spawn_app_with(|settings| settings.protection.export_temp_bytes_per_account = 400_000).await;
    let (survey, items) = wide_survey(&app, 1).await;
    sets_of(&app, survey, &items, 30, 1).await;
    let (small, small_items) = wide_survey(&app, 1).await;
    sets_of(&app, small, &small_items, 3, 1).await;

    // 30 rows of 9 KB count 570 KB (the sheet, then the zip): over the account's 400 KB.
    let over = opened(&app, &app.key, &format!("/surveys/{survey}/answers/export?format=xlsx")).await;
    assert_eq!(over.status(), 200);
    let ended = tokio::time::timeout(Duration::from_secs(10), rest(over)).await;
    assert_eq!(ended.expect("the connection of a broken-off export is closed at once"), None, "it broke off");
    assert_eq!(settled(&app, "canvass_export_temp_bytes").await, 0.0, "what it held is given back");
    assert_eq!(super::xlsx_rows(super::export(&app, small, "format=xlsx").await).len(), 4);
    let csv = super::csv_records(&super::export(&app, survey, "format=csv").await);
    assert_eq!(csv.len(), 31, "CSV keeps no temporary files");
}
