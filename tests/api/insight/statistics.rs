//! A sendout's statistics over HTTP: respondents released without messages (`sendMail: false`) answer through the
//! API and one opts out through her link; the counts, rates and statuses are exact, the median and the days are
//! checked for what does not depend on the clock.

use serde_json::{json, Value};

use crate::helpers::{item_id, spawn_app, TestApp};

/// The sample survey's required items answered (a completed set may not leave them out).
fn required_answers(tree: &Value) -> Value {
    json!([{"questionItemId": item_id(tree, 0, 0), "value": "yes"}, {"questionItemId": item_id(tree, 1, 1), "value": 9}])
}

/// The sample survey with an EMAIL sendout of ann, bob, cat and eve (their links given out, released as
/// `Released`) and dan (to be sent, `Scheduled`), activated, and fay added afterwards (`Pending`); returns the
/// survey, its tree, the sendout's base path and the respondents in that order.
async fn released(app: &TestApp) -> (i64, Value, String, Vec<Value>) {
    let (survey, tree) = app.sample_survey().await;
    let sendout = app.post(&format!("/surveys/{survey}/sendouts"), crate::helpers::email_sendout()).await.expect(201);
    let base = format!("/surveys/{survey}/sendouts/{}", sendout["sendoutId"]);
    let person = |name: &str, send| json!({"contactDetails": format!("{name}@example.com"), "sendMail": send});
    let people =
        [person("ann", false), person("bob", false), person("cat", false), person("dan", true), person("eve", false)];
    let added = app.post(&format!("{base}/respondents/batch"), json!({"surveyRespondents": people})).await.expect(200);
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    let mut respondents = added["added"].as_array().unwrap().clone();
    respondents.push(app.post(&format!("{base}/respondents"), person("fay", true)).await.expect(201));
    (survey, tree, base, respondents)
}

async fn answer(app: &TestApp, survey: i64, respondent: &Value, completed: bool, answers: Value) {
    let body = json!({"respondentId": respondent["respondentId"], "completed": completed, "answers": answers});
    app.post(&format!("/surveys/{survey}/answers"), body).await.expect(201);
}

fn sum(daily: &Value, field: &str) -> i64 {
    daily.as_array().unwrap().iter().map(|day| day[field].as_i64().unwrap()).sum()
}

#[tokio::test]
async fn the_statistics_count_the_reached_who_started_completed_and_opted_out() {
    let app = spawn_app().await;
    let (survey, tree, base, people) = released(&app).await;
    let (ann, bob, dan, eve) = (&people[0], &people[1], &people[3], &people[4]);
    let empty = app.get(&format!("{base}/statistics")).await.expect(200);
    assert_eq!((&empty["reached"], &empty["started"], &empty["responseRate"]), (&json!(4), &json!(0), &json!(0.0)));
    assert_eq!(empty["medianSecondsToComplete"], Value::Null, "nobody completed");

    answer(&app, survey, ann, true, required_answers(&tree)).await;
    answer(&app, survey, bob, false, json!([{"questionItemId": item_id(&tree, 2, 0), "value": "later"}])).await;
    // Dan has not been sent his invitation: he is not reached, and his answers count nowhere.
    answer(&app, survey, dan, true, required_answers(&tree)).await;
    let link = eve["surveyLink"].as_str().unwrap().strip_prefix(&app.address).unwrap().to_owned();
    let opted = app.client.post(format!("{}{link}/opt-out", app.address)).send().await.unwrap();
    assert_eq!(opted.status().as_u16(), 200);

    let statistics = app.get(&format!("{base}/statistics")).await.expect(200);
    assert_eq!(statistics["sendoutId"], json!(base.rsplit('/').next().unwrap().parse::<i64>().unwrap()));
    assert_eq!(statistics["respondents"], 6);
    assert_eq!(
        statistics["byStatus"],
        json!({"Pending": 1, "Scheduled": 1, "Released": 3, "Sent": 0, "Bounced": 0, "Failed": 0,
            "FrequencyLimitReached": 0, "Blocklisted": 1, "Expired": 0}),
        "eve's opt-out made her Blocklisted"
    );
    // Ann, bob and cat are reached; ann and bob started, ann completed.
    assert_eq!(
        (&statistics["reached"], &statistics["started"], &statistics["completed"]),
        (&json!(3), &json!(2), &json!(1))
    );
    assert_eq!(statistics["optedOut"], 1);
    assert_eq!((&statistics["responseRate"], &statistics["completionRate"]), (&json!(0.6667), &json!(0.3333)));
    let median = statistics["medianSecondsToComplete"].as_f64().expect("a number once someone completed");
    assert!(median >= 0.0, "{median}");
    let daily = &statistics["daily"];
    assert!(!daily.as_array().unwrap().is_empty(), "activated: at least today");
    assert_eq!((sum(daily, "sent"), sum(daily, "started"), sum(daily, "completed")), (0, 2, 1));
    let last = daily.as_array().unwrap().last().unwrap()["date"].as_str().unwrap().to_owned();
    assert!(last.len() == 10 && last.as_bytes()[4] == b'-' && last.as_bytes()[7] == b'-', "YYYY-MM-DD: {last}");
}

#[tokio::test]
async fn a_draft_sendout_has_no_days_and_no_rates() {
    let app = spawn_app().await;
    let (survey, _) = app.sample_survey().await;
    let sendout = app.post(&format!("/surveys/{survey}/sendouts"), crate::helpers::email_sendout()).await.expect(201);
    let base = format!("/surveys/{survey}/sendouts/{}", sendout["sendoutId"]);
    app.post(&format!("{base}/respondents"), json!({"contactDetails": "ann@example.com", "sendMail": true}))
        .await
        .expect(201);
    let statistics = app.get(&format!("{base}/statistics")).await.expect(200);
    assert_eq!(statistics["respondents"], 1);
    assert_eq!(statistics["byStatus"]["Pending"], 1);
    assert_eq!((&statistics["responseRate"], &statistics["completionRate"]), (&Value::Null, &Value::Null));
    assert_eq!(statistics["daily"], json!([]));
}

#[tokio::test]
async fn another_surveys_or_accounts_sendout_is_not_found() {
    let app = spawn_app().await;
    let (survey, _, base, _) = released(&app).await;
    let sendout = base.rsplit('/').next().unwrap().to_owned();
    let (second, _) = app.sample_survey().await;
    app.get(&format!("/surveys/{second}/sendouts/{sendout}/statistics")).await.problem(404, "/not-found");
    app.get(&format!("/surveys/{survey}/sendouts/999999/statistics")).await.problem(404, "/not-found");
    app.get(&format!("/surveys/999999/sendouts/{sendout}/statistics")).await.problem(404, "/not-found");
    let (_, other) = app.new_account("Other", "owner@other.example");
    let theirs = app.call_as(&other, "GET", &format!("{base}/statistics"), None).await;
    theirs.problem(404, "/not-found");
}
