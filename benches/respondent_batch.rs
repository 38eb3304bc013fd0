//! Benchmark: 1000 respondents added through `POST .../respondents/batch` against one raw multi-row INSERT of the
//! same rows on the same database. Run with `just bench`; `BENCH_ROUNDS` sets the rounds (default 15).
//!
//! Then flat batches: `BENCH_FLAT_BATCHES` (default 100) batches of 1000 added to one sendout, through HTTP and
//! raw, comparing the last five batches with the first five: a batch must cost the same however many respondents
//! the sendout already has (target: last ≤ 1.2 × first).

#![expect(clippy::unwrap_used)]

use std::time::{Duration, Instant};

use canvass_domain::clock::SystemClock;
use canvass_domain::ports::{StoreExt, UnitOfWork};
use canvass_domain::use_cases::accounts;
use canvass_server::{Application, Settings};
use canvass_testdb::TestDatabase;
use diesel::RunQueryDsl;
use serde_json::{json, Value};

const BATCH: usize = 1000;

fn median(samples: &mut [Duration]) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

fn main() {
    let rounds: usize = std::env::var("BENCH_ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(15);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    runtime.block_on(async move {
        let db = TestDatabase::new();
        let settings = Settings {
            database_url: db.url().to_owned(),
            bind: "127.0.0.1:0".into(),
            pool_size: 4,
            workers: Some(2),
            public_url: None,
            retention_interval: std::time::Duration::ZERO,
            audit_retention_days: canvass_domain::audit::DEFAULT_RETENTION_DAYS,
        delivery: None,
        sms_inbound_secret: Some("inbound-secret".into()),
        inbound_secret: None,
        webhook_allow_private: false,
        statement_timeout: std::time::Duration::from_secs(30),
        // The benchmark measures the batch path, not the rate limit.
        protection: canvass_server::Protection {
            rate_limit_per_key: std::num::NonZeroU32::new(1_000_000).unwrap(),
            ..canvass_server::Protection::default()
        },
        limits_url: None,
        metrics_token: None,
        cookie_key: None,
        keep_alive: canvass_server::settings::DEFAULT_KEEP_ALIVE,
        };
        let app = Application::build(&settings).unwrap();
        let address = format!("http://127.0.0.1:{}/api/v1", app.port());
        tokio::spawn(app.run_until_stopped());
        let create = |uow: &mut dyn UnitOfWork| accounts::create_account(uow, &SystemClock, "Bench", "b@bench.example");
        let created = db.store().with_uow(create).unwrap();
        let mut conn = db.connect();
        let account = created.account_id.get();
        let client = reqwest::Client::new();
        let key = created.api_key.secret().to_owned();
        let post = |path: String, body: Value| {
            let request = client.post(format!("{address}{path}")).header("X-API-KEY", &key).json(&body);
            async move {
                let response = request.send().await.unwrap();
                assert!(response.status().is_success(), "{}", response.status());
                response.json::<Value>().await.unwrap()
            }
        };
        let survey = post("/surveys".into(), json!({"name": "Bench"})).await["surveyId"].as_i64().unwrap();
        let sendout_body = json!({"name": "Bench", "type": "EMAIL", "sendDate": "2030-01-01", "sender": "b@bench.example",
            "subject": "s", "message": "{{surveyLink}}"});

        let (mut http, mut raw) = (Vec::new(), Vec::new());
        for round in 0..=rounds {
            let sendout = post(format!("/surveys/{survey}/sendouts"), sendout_body.clone()).await["sendoutId"].as_i64().unwrap();
            let people: Vec<Value> = (0..BATCH)
                .map(|n| json!({"contactDetails": format!("person{n}.r{round}@bench.example"), "sendMail": true}))
                .collect();
            let started = Instant::now();
            let outcome = post(format!("/surveys/{survey}/sendouts/{sendout}/respondents/batch"), json!({"surveyRespondents": people})).await;
            let elapsed = started.elapsed();
            assert_eq!(outcome["added"].as_array().unwrap().len(), BATCH);

            let raw_sendout = post(format!("/surveys/{survey}/sendouts"), sendout_body.clone()).await["sendoutId"].as_i64().unwrap();
            let values: Vec<String> = (0..BATCH)
                .map(|n| {
                    let contact = format!("person{n}.r{round}@bench.example");
                    let token = canvass_domain::distribution::new_survey_link_token(canvass_domain::AccountId::new(account));
                    format!("({account}, {raw_sendout}, '{contact}', '{contact}', true, '{{}}', 'Pending', '{token}', now())")
                })
                .collect();
            let sql = format!(
                "INSERT INTO respondents (account_id, sendout_id, contact_details, contact_key, send_mail, background_data, \
                 status, token, added_at) VALUES {}",
                values.join(", ")
            );
            let started = Instant::now();
            let inserted = diesel::sql_query(sql).execute(&mut conn).unwrap();
            let raw_elapsed = started.elapsed();
            assert_eq!(inserted, BATCH);
            if round > 0 {
                // Round 0 warms caches and connections; it is not counted.
                http.push(elapsed);
                raw.push(raw_elapsed);
            }
        }
        let flat_batches: usize = std::env::var("BENCH_FLAT_BATCHES").ok().and_then(|n| n.parse().ok()).unwrap_or(100);
        let (flat_http, flat_raw) = {
            let sendout = post(format!("/surveys/{survey}/sendouts"), sendout_body.clone()).await["sendoutId"].as_i64().unwrap();
            let raw_sendout = post(format!("/surveys/{survey}/sendouts"), sendout_body.clone()).await["sendoutId"].as_i64().unwrap();
            let (mut http, mut raw) = (Vec::new(), Vec::new());
            for batch in 0..flat_batches {
                let contact = |n: usize| format!("flat{n}.b{batch}@bench.example");
                let people: Vec<Value> = (0..BATCH).map(|n| json!({"contactDetails": contact(n), "sendMail": true})).collect();
                let started = Instant::now();
                let outcome = post(format!("/surveys/{survey}/sendouts/{sendout}/respondents/batch"), json!({"surveyRespondents": people})).await;
                http.push(started.elapsed());
                assert_eq!(outcome["added"].as_array().unwrap().len(), BATCH);
                let values: Vec<String> = (0..BATCH)
                    .map(|n| {
                        let token = canvass_domain::distribution::new_survey_link_token(canvass_domain::AccountId::new(account));
                        format!("({account}, {raw_sendout}, '{0}', '{0}', true, '{{}}', 'Pending', '{token}', now())", contact(n))
                    })
                    .collect();
                let sql = format!(
                    "INSERT INTO respondents (account_id, sendout_id, contact_details, contact_key, send_mail, background_data, \
                     status, token, added_at) VALUES {}",
                    values.join(", ")
                );
                let started = Instant::now();
                assert_eq!(diesel::sql_query(sql).execute(&mut conn).unwrap(), BATCH);
                raw.push(started.elapsed());
            }
            (http, raw)
        };
        let ends = |samples: &[Duration]| {
            let edge = 5.min(samples.len() / 2).max(1);
            (median(&mut samples[1..=edge].to_vec()), median(&mut samples[samples.len() - edge..].to_vec()))
        };
        let ((http_first, http_last), (raw_first, raw_last)) = (ends(&flat_http), ends(&flat_raw));
        let (http_median, raw_median) = (median(&mut http), median(&mut raw));
        println!("respondent batch of {BATCH}, {rounds} rounds (median):");
        println!("  HTTP POST .../respondents/batch: {:8.2} ms  ({:.0} respondents/s)", ms(http_median), BATCH as f64 / http_median.as_secs_f64());
        println!("  raw multi-row INSERT:            {:8.2} ms  ({:.0} rows/s)", ms(raw_median), BATCH as f64 / raw_median.as_secs_f64());
        println!("  ratio HTTP / raw:                {:8.2}", http_median.as_secs_f64() / raw_median.as_secs_f64());
        println!("flat batches: {flat_batches} batches of {BATCH} to one sendout (median of the first five after the first, and of the last five):");
        println!("  HTTP: first {:8.2} ms, last {:8.2} ms, last / first {:5.2}", ms(http_first), ms(http_last), http_last.as_secs_f64() / http_first.as_secs_f64());
        println!("  raw:  first {:8.2} ms, last {:8.2} ms, last / first {:5.2}", ms(raw_first), ms(raw_last), raw_last.as_secs_f64() / raw_first.as_secs_f64());
    });
}
