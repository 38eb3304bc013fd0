//! What the benchmarks that run the real `canvass` binary share: building it, child processes that are killed
//! when the benchmark ends or panics, a JSON client of its API, its memory, and the sizes read from the environment.

pub mod smtp;
pub mod worker;

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use canvass_domain::clock::SystemClock;
use canvass_domain::distribution::{DispatchType, MessageInput, RespondentInput, SendoutInput};
use canvass_domain::ids::{AccountId, SendoutId, SurveyId};
use canvass_domain::ports::{StoreExt, UnitOfWork};
use canvass_domain::survey::SurveyInput;
use canvass_domain::use_cases::{accounts, respondents, sendouts, surveys};
use canvass_testdb::TestDatabase;
use serde_json::{json, Value};
use time::OffsetDateTime;

/// A child process killed and reaped when dropped, also when the benchmark panics.
pub struct Killed(pub Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Whether the benchmark runs as root (PostgreSQL and Postfix programs then run as their own users).
pub fn running_as_root() -> bool {
    std::fs::metadata("/proc/self").map(|m| m.uid() == 0).unwrap_or(false)
}

/// The `canvass` binary built in release from the current source (the benchmark runs from target/release/deps),
/// or the one `BENCH_CANVASS` names (to measure another build, a copy of an earlier one, against the same baselines).
pub fn canvass_binary() -> PathBuf {
    if let Some(binary) = std::env::var_os("BENCH_CANVASS") {
        return PathBuf::from(binary);
    }
    let status = Command::new(env!("CARGO"))
        .args(["build", "--release", "--quiet", "-p", "canvass-server", "--bin", "canvass"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status()
        .unwrap();
    assert!(status.success(), "cannot build the canvass binary");
    let exe = std::env::current_exe().unwrap();
    exe.parent().and_then(|deps| deps.parent()).unwrap().join("canvass")
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Starts `canvass serve` on `database_url` and waits until it answers.
pub fn serve(binary: &Path, database_url: &str) -> (Killed, String) {
    serve_with(binary, database_url, &[])
}

/// Starts `canvass serve` on `database_url` with `settings` added to (or overriding) its environment, and waits
/// until it answers.
pub fn serve_with(binary: &Path, database_url: &str, settings: &[(&str, &str)]) -> (Killed, String) {
    let port = free_port();
    let child = Command::new(binary)
        .arg("serve")
        .env("DATABASE_URL", database_url)
        .env("BIND", format!("127.0.0.1:{port}"))
        .env("RETENTION_INTERVAL", "0")
        // The benchmark measures the paths, not the per-key rate limit.
        .env("RATE_LIMIT_PER_KEY", "100000000")
        .env("OUTBOX_DIR", std::env::temp_dir().join("canvass-bench-read-outbox"))
        .envs(settings.iter().copied())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let server = Killed(child);
    let base = format!("http://127.0.0.1:{port}");
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(started.elapsed() < Duration::from_secs(30), "canvass serve did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    (server, base)
}

/// An EMAIL sendout named Bench, sent from hr@bench.example now, with this subject and message.
fn email_due_now(subject: &str, message: &str) -> SendoutInput {
    let message = MessageInput {
        send_date: Some(OffsetDateTime::now_utc()),
        sender: Some("hr@bench.example".into()),
        subject: Some(subject.into()),
        message: Some(message.into()),
        messages: Vec::new(),
    };
    SendoutInput {
        name: "Bench".into(),
        kind: DispatchType::Email,
        message,
        expiry_date: None,
        language: None,
        open_link: Default::default(),
    }
}

/// A sendout ready to be activated: its account, survey and id.
#[derive(Clone, Copy)]
pub struct ReadySendout {
    pub account: AccountId,
    pub survey: SurveyId,
    pub sendout: SendoutId,
}

impl ReadySendout {
    /// Activates the sendout as `POST …/activate` does, queuing its invitations (and waking the workers).
    pub fn activate(self, db: &TestDatabase) {
        let activate = |uow: &mut dyn UnitOfWork| {
            sendouts::activate(uow, &SystemClock, self.account, self.survey, self.sendout).map(drop)
        };
        db.store().with_uow(activate).unwrap();
    }
}

/// `db`, given one account with an EMAIL sendout of `count` respondents, not yet activated, whose invitations are
/// due as soon as it is.
pub fn database_with_sendout(db: &TestDatabase, count: usize) -> ReadySendout {
    let clock = SystemClock;
    let fill = |uow: &mut dyn UnitOfWork| {
        let account = accounts::create_account(uow, &clock, "Bench", "b@bench.example")?.account_id;
        let survey = surveys::create(uow, &clock, account, SurveyInput { name: "Bench".into(), ..Default::default() })?;
        let input = email_due_now("Your view", "Hello, answer here: {{surveyLink}}\nOpt out: {{optOutLink}}");
        let sendout = sendouts::create(uow, &clock, account, survey.id, input)?;
        for chunk in (0..count).collect::<Vec<_>>().chunks(1000) {
            let people = chunk
                .iter()
                .map(|n| RespondentInput {
                    contact_details: format!("person{n}@bench.example"),
                    send_mail: true,
                    background_data: Default::default(),
                    language: None,
                })
                .collect();
            respondents::add_batch(uow, &clock, account, survey.id, sendout.id, people)?;
        }
        Ok(ReadySendout { account, survey: survey.id, sendout: sendout.id })
    };
    db.store().with_uow(fill).unwrap()
}

/// `db`, given one account with an EMAIL sendout of `count` respondents made from contacts of its directory
/// (names and an attribute each), whose subject and message fill personal placeholders; not yet activated.
pub fn database_with_personal_sendout(db: &TestDatabase, count: usize) -> ReadySendout {
    use canvass_domain::directory::ContactInput;
    use canvass_domain::use_cases::{contact_lists, contacts};
    let clock = SystemClock;
    let fill = |uow: &mut dyn UnitOfWork| {
        let account = accounts::create_account(uow, &clock, "Bench", "b@bench.example")?.account_id;
        let survey = surveys::create(uow, &clock, account, SurveyInput { name: "Bench".into(), ..Default::default() })?;
        let message = "Hello {{firstName|there}} {{lastName}} of {{contact.team|our team}}, answer here: \
                       {{surveyLink}}\nOpt out: {{optOutLink}}";
        let input = email_due_now("Your view, {{firstName|friend}}", message);
        let sendout = sendouts::create(uow, &clock, account, survey.id, input)?;
        let list = contact_lists::create(uow, &clock, account, "Everyone")?;
        let mut ids = Vec::with_capacity(count);
        for n in 0..count {
            let person = ContactInput {
                email: Some(format!("person{n}@bench.example")),
                first_name: Some(format!("First{n}")),
                last_name: Some(format!("Last{n}")),
                attributes: [("team".to_owned(), format!("Team {}", n % 7))].into(),
                ..ContactInput::default()
            };
            ids.push(contacts::create(uow, &clock, account, person)?.id);
        }
        for chunk in ids.chunks(10_000) {
            contact_lists::add_members(uow, &clock, account, list.id, chunk)?;
        }
        contact_lists::add_to_sendout(uow, &clock, account, survey.id, sendout.id, list.id)?;
        Ok(ReadySendout { account, survey: survey.id, sendout: sendout.id })
    };
    db.store().with_uow(fill).unwrap()
}

/// A survey of 4 pages of 5 items of every kind, as `POST /surveys` takes it.
pub fn survey_body(name: &str) -> Value {
    let item = |i: usize| match i {
        0 => json!({"type": "SingleChoice", "text": "How was it?",
            "options": [{"value": "good", "label": "Good"}, {"value": "fair", "label": "Fair"}, {"value": "poor", "label": "Poor"}]}),
        1 => json!({"type": "MultipleChoice", "text": "What did you use?",
            "options": [{"value": "web", "label": "Web"}, {"value": "app", "label": "App"}, {"value": "phone", "label": "Phone"}]}),
        2 => json!({"type": "OpenText", "text": "Tell us more"}),
        3 => json!({"type": "Numeric", "text": "How many times?"}),
        _ => json!({"type": "Rating", "text": "Rate us"}),
    };
    let pages: Vec<Value> = (0..4)
        .map(|p| json!({"title": format!("Page {}", p + 1), "items": (0..5).map(item).collect::<Vec<_>>()}))
        .collect();
    json!({"name": name, "description": "Benchmark survey", "pages": pages})
}

/// The middle of `values` (the upper one of an even count), as the benches' alternating rounds report.
pub fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// A number from the environment variable `name`, or `default` when it is unset or not a number.
pub fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// The resident memory of process `pid` now and at its peak since the last [`reset_peak`], in MiB.
pub fn memory(pid: u32) -> (f64, f64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let field = |name: &str| {
        status.lines().find_map(|l| l.strip_prefix(name)).and_then(|r| r.split_whitespace().next()?.parse::<f64>().ok())
    };
    (field("VmRSS:").unwrap_or(f64::NAN) / 1024.0, field("VmHWM:").unwrap_or(f64::NAN) / 1024.0)
}

/// Forgets the peak resident memory of process `pid`, so that the next reading is the peak of what follows.
pub fn reset_peak(pid: u32) {
    std::fs::write(format!("/proc/{pid}/clear_refs"), "5").unwrap();
}

/// A JSON client of a running server's API (`<base>/api/v1`) with an account's key, for filling a benchmark's
/// data: every call must succeed.
pub struct JsonApi {
    runtime: tokio::runtime::Runtime,
    client: reqwest::Client,
    api: String,
    key: String,
}

impl JsonApi {
    /// A client of the server at `base` calling with `key`.
    pub fn new(base: &str, key: &str) -> Self {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        Self { runtime, client: reqwest::Client::new(), api: format!("{base}/api/v1"), key: key.to_owned() }
    }

    /// `method path` with `body` as JSON; the answer's JSON (null when it has none). Panics unless it succeeds.
    pub fn call(&self, method: &str, path: String, body: Option<Value>) -> Value {
        let url = format!("{}{path}", self.api);
        let mut request = self.client.request(method.parse().unwrap(), url).header("X-API-KEY", &self.key);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = self.runtime.block_on(request.send()).unwrap();
        let status = response.status();
        let body: Value = self.runtime.block_on(response.json()).unwrap_or(Value::Null);
        assert!(status.is_success(), "{method} {path}: {status} {body}");
        body
    }

    /// A respondent page's form posted to `url` (no key); the page it answers. Panics unless it succeeds.
    pub fn post_form(&self, url: &str, form: &[(String, String)]) -> String {
        let response = self.runtime.block_on(self.client.post(url).form(form).send()).unwrap();
        assert!(response.status().is_success(), "POST {url}: {}", response.status());
        self.runtime.block_on(response.text()).unwrap()
    }
}
