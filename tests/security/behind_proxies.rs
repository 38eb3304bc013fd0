//! The per-address limits of the respondent pages behind proxies and offices (`TRUSTED_PROXIES`): entries a client
//! writes before its proxy's are never believed, clients behind one proxy keep their own budgets, headers from a
//! peer that is not a trusted proxy change nothing, and a login page's budget grows with its sendout.

use reqwest::Response;
use serde_json::{json, Value};

use crate::helpers::{spawn_app_with, TestApp};

/// The address nginx saw and appended after whatever the client wrote.
const CLIENT: &str = "203.0.113.7";

/// A test app whose loopback peer (the test client) stands for a reverse proxy in `trusted`.
async fn behind(trusted: &str) -> TestApp {
    let trusted = trusted.parse().expect("trusted proxies");
    spawn_app_with(|settings| settings.protection.trusted_proxies = trusted).await
}

/// Opens `/r/<token>` with these forwarding headers.
async fn open(app: &TestApp, token: &str, headers: &[(&str, String)]) -> u16 {
    let mut request = app.client.get(format!("{}/r/{token}", app.address));
    for (name, value) in headers {
        request = request.header(*name, value);
    }
    request.send().await.expect("open").status().as_u16()
}

/// Posts `identifier` to `/login/<sendout>` with these forwarding headers.
async fn log_in(app: &TestApp, sendout: i64, identifier: &str, headers: &[(&str, String)]) -> Response {
    let client = TestApp::client_without_redirects();
    let mut request = client.post(format!("{}/login/{sendout}", app.address)).form(&[("identifier", identifier)]);
    for (name, value) in headers {
        request = request.header(*name, value);
    }
    request.send().await.expect("log in")
}

/// An Active LOGIN sendout whose `people` respondents log in with `employee-0` … `employee-<people - 1>`.
async fn office(app: &TestApp, people: usize) -> i64 {
    let survey = json!({"name": "Staff", "pages": [{"items": [{"type": "OpenText", "text": "Why?"}]}]});
    let survey = app.post("/surveys", survey).await.expect(201)["surveyId"].as_i64().expect("surveyId");
    let login = json!({"name": "Login", "type": "LOGIN"});
    let sendout = app.post(&format!("/surveys/{survey}/sendouts"), login).await.expect(201)["sendoutId"].as_i64();
    let base = format!("/surveys/{survey}/sendouts/{}", sendout.expect("sendoutId"));
    let people: Vec<Value> =
        (0..people).map(|n| json!({"contactDetails": format!("employee-{n}"), "sendMail": false})).collect();
    app.post(&format!("{base}/respondents/batch"), json!({"surveyRespondents": people})).await.expect(200);
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    sendout.expect("sendoutId")
}

/// The number of the first attempt answered 429 among `statuses`, counting from 1.
fn first_refused(statuses: &[u16]) -> Option<usize> {
    statuses.iter().position(|status| *status == 429).map(|at| at + 1)
}

#[tokio::test]
async fn a_client_writing_its_own_first_entries_is_limited_and_a_neighbour_keeps_its_budget() {
    let app = behind("127.0.0.1").await;
    let mut statuses = Vec::new();
    for guess in 0..60 {
        // A new made-up first entry each time, then the address the proxy appended.
        let forwarded = format!("198.51.{}.{}, {CLIENT}", guess / 200, guess % 200 + 1);
        statuses.push(open(&app, &format!("{guess:040x}"), &[("x-forwarded-for", forwarded)]).await);
    }
    assert_eq!(first_refused(&statuses), Some(32), "30 unknown tokens a minute, then 429: {statuses:?}");
    assert!(statuses[31..].iter().all(|status| *status == 429), "{statuses:?}");
    let neighbour = [("x-forwarded-for", "198.51.100.9".to_owned())];
    assert_eq!(open(&app, &format!("{:040x}", 999), &neighbour).await, 404, "another client behind the proxy");
    let by_forwarded = [("forwarded", r#"for="[2001:db8::7]:4711";proto=https"#.to_owned())];
    assert_eq!(open(&app, &format!("{:040x}", 998), &by_forwarded).await, 404, "one named by RFC 7239");
    let same_client = [("forwarded", format!("for={CLIENT}"))];
    assert_eq!(open(&app, &format!("{:040x}", 997), &same_client).await, 429, "the client, however named");
}

#[tokio::test]
async fn made_up_first_entries_do_not_lift_the_brake_on_guessing_login_identifiers() {
    let app = behind("127.0.0.0/8").await;
    let sendout = office(&app, 5).await;
    let mut statuses = Vec::new();
    for guess in 0..14 {
        let forwarded = [("x-forwarded-for", format!("192.0.2.{guess}, {CLIENT}"))];
        statuses.push(log_in(&app, sendout, &format!("guess-{guess}"), &forwarded).await.status().as_u16());
    }
    assert_eq!(first_refused(&statuses), Some(12), "a budget of 10 for 5 people: {statuses:?}");
    let real = [("x-forwarded-for", format!("192.0.2.200, {CLIENT}"))];
    assert_eq!(log_in(&app, sendout, "employee-1", &real).await.status().as_u16(), 429, "over the budget");
    let colleague = [("x-forwarded-for", "198.51.100.20".to_owned())];
    assert_eq!(log_in(&app, sendout, "employee-2", &colleague).await.status().as_u16(), 303);
}

#[tokio::test]
async fn headers_from_a_peer_that_is_no_trusted_proxy_change_nothing() {
    let app = behind("10.0.0.0/8").await;
    let mut statuses = Vec::new();
    for guess in 0..33 {
        let forged = [
            ("x-forwarded-for", format!("198.51.100.{}", guess + 1)),
            ("forwarded", format!("for=192.0.2.{}", guess + 1)),
        ];
        statuses.push(open(&app, &format!("{guess:040x}"), &forged).await);
    }
    assert_eq!(first_refused(&statuses), Some(32), "every attempt counted against the socket's peer: {statuses:?}");
}

#[tokio::test]
async fn a_200_person_office_survives_25_typos_and_is_limited_past_30() {
    let app = behind("").await;
    let sendout = office(&app, 200).await;
    for typo in 0..25 {
        assert_eq!(log_in(&app, sendout, &format!("employe-{typo}"), &[]).await.status().as_u16(), 200, "typo {typo}");
        if typo % 5 == 4 {
            let colleague = log_in(&app, sendout, &format!("employee-{typo}"), &[]).await;
            assert_eq!(colleague.status().as_u16(), 303, "a colleague after typo {typo} logs in");
        }
    }
    for typo in 25..31 {
        assert_eq!(log_in(&app, sendout, &format!("employe-{typo}"), &[]).await.status().as_u16(), 200, "typo {typo}");
    }
    let over = log_in(&app, sendout, "employee-150", &[]).await;
    assert_eq!(over.status().as_u16(), 429, "31 unknown identifiers: past the budget of 10 + 200 / 10");
    let retry_after: u64 = over.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!(retry_after > 500 && retry_after <= 600, "{retry_after}");
}

#[tokio::test]
async fn the_addresses_of_one_ipv6_64_share_one_budget_and_the_next_64_has_its_own() {
    let app = behind("127.0.0.1").await;
    let mut statuses = Vec::new();
    for guess in 0..40u32 {
        // A new address of the same /64 each time, by either header.
        let address = format!("2001:db8:7:1:{:x}:{:x}::{:x}", guess * 7 + 1, guess, guess + 1);
        let header = match guess % 2 {
            0 => ("x-forwarded-for", address),
            _ => ("forwarded", format!(r#"for="[{address}]""#)),
        };
        statuses.push(open(&app, &format!("{guess:040x}"), &[header]).await);
    }
    assert_eq!(first_refused(&statuses), Some(32), "one /64 is one client: {statuses:?}");
    let next_network = [("x-forwarded-for", "2001:db8:7:2::1".to_owned())];
    assert_eq!(open(&app, &format!("{:040x}", 999), &next_network).await, 404, "the next /64 is another client");
}
