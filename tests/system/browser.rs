//! End to end in a real browser (headless Chromium through chromedriver): an invitation's link is opened,
//! two pages are answered, the respondent leaves and comes back, resumes and completes; and opts out. The
//! answers are checked through the API. Skipped, saying so, where chromedriver is not installed, except in CI
//! (`CI` set), where its absence fails the test (`chromium`).
//! A system test: the invitation is sent by a delivery round run here (`tests/helpers/worker.rs`).

use std::time::Duration;

use canvass_domain::delivery::Transports;
use canvass_mail::SmtpMailer;
use canvass_sinks::{SmsSink, SmtpSink};
use canvass_sms::HttpSmsSender;
use fantoccini::{Client, Locator};
use serde_json::{json, Value};
use time::OffsetDateTime;

use super::chromium::{browser, chromedriver};
use crate::helpers::{item_id, spawn_app, TestApp};

/// Waits (up to 30 s: Chromium shares two cores with the rest of the suite) until the page shows `text`; fails
/// the test otherwise.
async fn shows(client: &Client, text: &str) {
    let found = client
        .wait()
        .at_most(Duration::from_secs(30))
        .for_element(Locator::XPath(&format!("//*[contains(text(), '{text}')]")))
        .await;
    assert!(found.is_ok(), "the page never showed {text:?}: {}", client.source().await.unwrap_or_default());
}

/// Invites one respondent to a three-page survey and delivers the invitation; returns the survey, its tree and
/// the link as the invitation carries it.
async fn invitation(app: &TestApp) -> (i64, Value, String, Value) {
    let body = json!({"name": "Weekly pulse", "pages": [
        {"title": "Mood", "items": [{"type": "SingleChoice", "text": "Happy?", "required": true,
            "options": [{"value": "yes", "label": "Yes"}, {"value": "no", "label": "No"}]}]},
        {"title": "Hours", "items": [{"type": "Numeric", "text": "Hours worked?"}]},
        {"title": "More", "items": [{"type": "OpenText", "text": "Anything else?"}]}
    ]});
    let survey = app.post("/surveys", body).await.expect(201)["surveyId"].as_i64().unwrap();
    let tree = app.get(&format!("/surveys/{survey}/questions")).await.expect(200);
    let mut invite = crate::helpers::email_sendout();
    invite["sendDate"] = json!("2020-01-01T08:00:00Z");
    invite.as_object_mut().unwrap().remove("expiryDate");
    let sendout =
        app.post(&format!("/surveys/{survey}/sendouts"), invite).await.expect(201)["sendoutId"].as_i64().unwrap();
    let base = format!("/surveys/{survey}/sendouts/{sendout}");
    let respondent = app
        .post(&format!("{base}/respondents"), json!({"contactDetails": "ann@example.com", "sendMail": true}))
        .await
        .expect(201);
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    let smtp = SmtpSink::start("", "");
    let (mailer, sms) = (SmtpMailer::from_url(&smtp.url).unwrap(), HttpSmsSender::new(&SmsSink::start("", "").url));
    let now = OffsetDateTime::now_utc();
    let report = app.deliver_round(Transports { email: &mailer, sms: &sms }, now, &app.address, 10);
    assert_eq!(report.sent, 1, "{report:?}");
    let message = smtp.messages()[0].replace("=\r\n", "");
    let link =
        message.split_whitespace().find(|w| w.starts_with(&app.address) && !w.ends_with("opt-out")).unwrap().to_owned();
    (survey, tree, link, respondent)
}

#[tokio::test]
async fn a_respondent_answers_leaves_resumes_and_completes_in_a_browser() {
    let Some(driver) = chromedriver("browser test") else { return };
    let app = spawn_app().await;
    let (survey, tree, link, respondent) = invitation(&app).await;

    let client = browser(&driver).await;
    client.goto(&link).await.unwrap();
    shows(&client, "Page 1 of 3").await;
    client.find(Locator::Css("input[value='yes']")).await.unwrap().click().await.unwrap();
    client.find(Locator::Css("button[type='submit']")).await.unwrap().click().await.unwrap();
    shows(&client, "Page 2 of 3").await;
    client.find(Locator::Css("input[type='number']")).await.unwrap().send_keys("37.5").await.unwrap();
    client.find(Locator::Css("button[type='submit']")).await.unwrap().click().await.unwrap();
    shows(&client, "Page 3 of 3").await;
    client.goto("about:blank").await.unwrap();
    client.close().await.unwrap();

    let client = browser(&driver).await;
    client.goto(&link).await.unwrap();
    shows(&client, "Page 3 of 3").await;
    client.find(Locator::Css("textarea")).await.unwrap().send_keys("Good week").await.unwrap();
    client.find(Locator::Css("button[type='submit']")).await.unwrap().click().await.unwrap();
    shows(&client, "Thank you").await;

    client.goto(&format!("{link}/opt-out")).await.unwrap();
    client.find(Locator::Css("button[type='submit']")).await.unwrap().click().await.unwrap();
    shows(&client, "You have opted out").await;
    client.close().await.unwrap();

    let sets =
        app.get(&format!("/surveys/{survey}/answers/respondent/{}", respondent["respondentId"])).await.expect(200);
    assert_eq!(sets[0]["completed"], true);
    assert_eq!(
        sets[0]["answers"],
        json!([
            {"questionItemId": item_id(&tree, 0, 0), "value": "yes"},
            {"questionItemId": item_id(&tree, 1, 0), "value": 37.5},
            {"questionItemId": item_id(&tree, 2, 0), "value": "Good week"}
        ])
    );
    let blocklist = app.get("/accounts/blocklist").await.expect(200);
    assert_eq!(
        (blocklist[0]["contactDetails"].as_str(), blocklist[0]["type"].as_str()),
        (Some("ann@example.com"), Some("OptedOut"))
    );
}
