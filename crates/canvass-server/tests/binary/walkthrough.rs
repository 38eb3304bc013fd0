//! The README's walk-through and docs/insight.md's worked example, run as a newcomer runs them: every `sh` block of
//! the section in bash, in order, against `canvass serve --demo` on a fresh database, with `curl` and
//! `target/debug/canvass` as written. Each request must answer the status the document shows under it (a 2xx where
//! it shows none), and what the document promises must be there.

#![expect(clippy::expect_used)]

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use canvass_testdb::TestDatabase;
use canvass_testkit::{recipient, subject};
use serde_json::Value;

use crate::harness::canvass_binary;

const README: &str = include_str!("../../../../README.md");
const INSIGHT: &str = include_str!("../../../../docs/insight.md");
/// Where the README's commands expect the server.
const README_ADDRESS: &str = "http://127.0.0.1:8080";

/// The section of `document` under `heading` (a `## ` heading), up to the next one.
fn section(document: &'static str, heading: &str) -> &'static str {
    let start = document.find(&format!("\n## {heading}\n")).expect("the document has the section");
    let rest = &document[start + 1..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |end| end + 3);
    &rest[..end]
}

/// The `sh` blocks of the walk-through, in order.
fn blocks(section: &str) -> Vec<&str> {
    section.split("```sh\n").skip(1).map(|block| block.split("\n```").next().unwrap_or_default()).collect()
}

/// For each request (a `curl` outside a comment), the status the document shows under it, if it shows one.
fn documented_statuses(blocks: &[&str]) -> Vec<Option<u16>> {
    let mut statuses = Vec::new();
    for line in blocks.iter().flat_map(|block| block.lines()) {
        let command = line.split(" #").next().unwrap_or_default();
        if !line.starts_with('#') && command.contains("curl ") {
            statuses.extend(command.matches("curl ").map(|_| None));
        } else if let (Some(comment), Some(last)) = (line.strip_prefix("# "), statuses.last_mut()) {
            let comment = comment.strip_prefix("HTTP/1.1 ").unwrap_or(comment);
            let status = comment
                .get(..3)
                .and_then(|digits| digits.parse().ok())
                .filter(|_| comment.len() == 3 || comment.as_bytes()[3] == b' ');
            if last.is_none() {
                *last = status;
            }
        }
    }
    statuses
}

/// The script bash runs: the blocks as written, but for the `export` lines whose value the reader copies from
/// `just run` (the key, the database's URL), which the test sets, and the server's address. Each `curl` appends
/// the status it got to `$WALK_STATUSES`. A reader that stops early (`curl ... | head -1`) fails nothing, as in the
/// reader's own shell: without the ignored SIGPIPE, `pipefail` failed the walk whenever `head` left before the
/// wrapper's output was written (seen under load).
fn script(blocks: &[&str], address: &str) -> String {
    let mut script = String::from(
        "set -euo pipefail\n\
         trap '' PIPE\n\
         curl() {\n  local out\n  out=$(command curl -w '\\n%{http_code}' \"$@\")\n\
         \x20 printf '%s\\n' \"${out##*$'\\n'}\" >> \"$WALK_STATUSES\"\n  printf '%s\\n' \"${out%$'\\n'*}\" || true\n}\n",
    );
    for line in blocks.iter().flat_map(|block| block.lines()) {
        if line.starts_with("export KEY=") || line.starts_with("export DATABASE_URL=") {
            continue;
        }
        script.push_str(&line.replace(README_ADDRESS, address));
        script.push('\n');
    }
    script
}

/// `canvass serve --demo` on `db`, its outbox under `dir`; returns the process and the demo's key.
fn serve(db: &TestDatabase, dir: &Path, port: u16) -> (Child, String) {
    let mut child = Command::new(canvass_binary())
        .args(["serve", "--demo", "--bind", &format!("127.0.0.1:{port}")])
        .arg("--outbox-dir")
        .arg(dir.join(".canvass/outbox"))
        .env("DATABASE_URL", db.url())
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start canvass serve");
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut first).expect("the demo's line");
    let demo: Value = serde_json::from_str(&first).expect("the demo's JSON");
    (child, demo["apiKey"].as_str().expect("apiKey").to_owned())
}

/// A folder of the test's own, removed with it.
struct Folder(std::path::PathBuf);

impl Folder {
    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

async fn wait_until_live(address: &str) {
    let started = Instant::now();
    while reqwest::get(format!("{address}/health/live")).await.is_err() {
        assert!(started.elapsed() < Duration::from_secs(30), "the server did not start");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// What running a document's section left.
struct Walk {
    /// The script's output, shown when an assertion fails.
    stdout: String,
    /// The files the delivery worker wrote, by their text.
    outbox: Vec<String>,
}

/// Runs the `sh` blocks of `section` on a fresh `canvass serve --demo` and checks every request's status; waits
/// (up to 5 s) for `messages` files in the outbox (at least one).
async fn walk(section: &str, messages: usize) -> Walk {
    let blocks = blocks(section);
    let expected = documented_statuses(&blocks);
    assert!(expected.len() > 5, "the section's requests: {expected:?}");

    let db = TestDatabase::new();
    let port = free_port();
    let dir = Folder(std::env::temp_dir().join(format!("canvass-walkthrough-{port}")));
    std::fs::create_dir_all(dir.path().join("target/debug")).unwrap();
    std::os::unix::fs::symlink(canvass_binary(), dir.path().join("target/debug/canvass")).unwrap();
    let address = format!("http://127.0.0.1:{port}");
    let (mut server, key) = serve(&db, dir.path(), port);
    wait_until_live(&address).await;

    let statuses = dir.path().join("statuses");
    let output = Command::new("bash")
        .arg("-c")
        .arg(script(&blocks, &address))
        .current_dir(dir.path())
        .env("KEY", &key)
        .env("DATABASE_URL", db.url())
        .env("WALK_STATUSES", &statuses)
        .output()
        .expect("run bash");
    let outbox = dir.path().join(".canvass/outbox");
    let started = Instant::now();
    let outbox = loop {
        let files: Vec<String> = std::fs::read_dir(&outbox)
            .map(|entries| entries.filter_map(|e| std::fs::read_to_string(e.ok()?.path()).ok()).collect())
            .unwrap_or_default();
        if files.len() >= messages.max(1) || started.elapsed() > Duration::from_secs(5) {
            break files;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    server.kill().unwrap();
    server.wait().unwrap();

    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "{}\n{stdout}", String::from_utf8_lossy(&output.stderr));
    let got: Vec<u16> = std::fs::read_to_string(&statuses).unwrap().lines().map(|line| line.parse().unwrap()).collect();
    assert_eq!(got.len(), expected.len(), "every request ran: {got:?}\n{stdout}");
    for (index, (got, documented)) in got.iter().zip(&expected).enumerate() {
        match documented {
            Some(status) => assert_eq!(got, status, "request {} of the section\n{stdout}", index + 1),
            None => assert!((200..300).contains(got), "request {} answered {got}\n{stdout}", index + 1),
        }
    }
    Walk { stdout, outbox }
}

#[tokio::test]
async fn the_readmes_walkthrough_runs_as_written() {
    let section = section(README, "A walk-through with curl");
    assert!(documented_statuses(&blocks(section)).contains(&Some(400)), "the walk-through shows a refusal");
    let walked = walk(section, 1).await;
    assert!(
        walked.outbox.iter().any(|message| recipient(message) == "ann@example.com"),
        "ann's invitation is in the outbox: {:?}",
        walked.outbox
    );
    assert!(walked.stdout.contains(r#""dryRun":true"#), "the retention dry run ran: {}", walked.stdout);
}

#[tokio::test]
async fn the_poster_walkthrough_runs_as_written() {
    let walked = walk(section(README, "Run a survey on a poster"), 1).await;
    assert!(walked.stdout.contains("Start the survey"), "the start page showed: {}", walked.stdout);
    assert!(walked.stdout.contains("Thank you"), "the visitor's answer completed the survey: {}", walked.stdout);
    assert!(walked.stdout.contains(r#""count":1"#), "the results count the visitor: {}", walked.stdout);
    assert!(
        walked.stdout.contains(",How was lunch today?,site\r\n"),
        "the export heads a site column: {}",
        walked.stdout
    );
    assert!(walked.stdout.contains(",8,North\r\n"), "the hidden field came out beside the answer: {}", walked.stdout);
}

#[tokio::test]
async fn the_two_language_walkthrough_runs_as_written() {
    let walked = walk(section(README, "A survey in two languages"), 2).await;
    let subject_to =
        |to: &str| walked.outbox.iter().find(|message| recipient(message) == to).map(|message| subject(message));
    assert_eq!(subject_to("ann@example.com").as_deref(), Some("How was lunch?"), "{:?}", walked.outbox);
    assert_eq!(subject_to("bob@example.com").as_deref(), Some("Hur var lunchen?"), "{:?}", walked.outbox);
    assert!(walked.stdout.contains("Hur var lunchen?\nTack!"), "bob's page in Swedish: {}", walked.stdout);
    assert!(walked.stdout.contains(",sv,Good"), "the export's language column: {}", walked.stdout);
    assert!(walked.stdout.contains(r#""answerSets":0"#), "no set was answered in English: {}", walked.stdout);
}

#[tokio::test]
async fn the_contacts_walkthrough_runs_as_written() {
    let walked = walk(section(README, "Contacts, a list and a personal invitation"), 3).await;
    let mut subjects: Vec<&str> = walked
        .outbox
        .iter()
        .filter_map(|message| message.lines().find_map(|line| line.strip_prefix("Subject: ")))
        .collect();
    subjects.sort_unstable();
    assert_eq!(subjects, ["A question for you, Ann", "A question for you, Bob", "A question for you, there"]);
    assert!(walked.stdout.contains(r#""text":"Hello Ann of Sales: http"#), "the preview: {}", walked.stdout);
    assert!(walked.stdout.contains(r#""rejected":[{"line":5,"#), "the import's rejection: {}", walked.stdout);
}

#[tokio::test]
async fn the_insight_example_runs_as_written() {
    let walked = walk(section(INSIGHT, "A worked example"), 1).await;
    assert!(walked.stdout.contains(r#""optedOut":1"#), "the funnel counts the opt-out: {}", walked.stdout);
    // The export's lines key answers by item id; the answer sets the API returned list them.
    let jsonl = walked.stdout.lines().filter(|line| line.contains(r#""answers":{"7":"#)).count();
    assert_eq!(jsonl, 3, "the JSON Lines export of the completed sets was written and shown: {}", walked.stdout);
    let alerts: Vec<&String> = walked.outbox.iter().filter(|m| m.contains("Subject: Alert")).collect();
    assert_eq!(alerts.len(), 1, "one alert email, for the set completed after the alert was made");
    assert!(alerts[0].contains("Noisy on Mondays"), "with the answers: {}", alerts[0]);
    assert!(walked.stdout.contains("Answer set: 4 (completed"), "and shown: {}", walked.stdout);
}
