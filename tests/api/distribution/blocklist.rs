//! The blocklist and permanent email failures.

use serde_json::json;

use crate::helpers::{email_sendout, spawn_app, survey_with_sendout};

#[tokio::test]
async fn contacts_are_blocked_listed_and_removed() {
    let app = spawn_app().await;
    assert_eq!(app.get("/accounts/blocklist").await.expect(200), json!([]));
    let entry = app
        .post("/accounts/blocklist", json!({"contactDetails": "Ann@Example.com", "type": "OptedOut"}))
        .await
        .expect(201);
    assert_eq!(entry["contactDetails"], "Ann@Example.com");
    assert_eq!(entry["type"], "OptedOut");
    app.post("/accounts/blocklist", json!({"contactDetails": "ann@example.com", "type": "Blocked"}))
        .await
        .problem(409, "/duplicate");
    let phone =
        app.post("/accounts/blocklist", json!({"contactDetails": "+4791234567", "type": "Blocked"})).await.expect(201);
    assert_eq!(app.get("/accounts/blocklist").await.expect(200), json!([entry, phone]));
    for (body, field) in [
        (json!({"contactDetails": "", "type": "Blocked"}), "contactDetails"),
        (json!({"contactDetails": "x@example.com", "type": "Banned"}), "type"),
        (json!({"contactDetails": "x@example.com"}), "type"),
    ] {
        assert_eq!(app.post("/accounts/blocklist", body).await.fields(), [field]);
    }
    let reply = app.delete("/accounts/blocklist/ANN%40example.com").await;
    assert_eq!(reply.status.as_u16(), 204);
    app.delete("/accounts/blocklist/ann%40example.com").await.problem(404, "/not-found");
    // A contact that could never have been added is checked as adding checks it.
    for blank in ["%20", "%09"] {
        let reply = app.delete(&format!("/accounts/blocklist/{blank}")).await;
        assert_eq!(reply.fields(), ["contactDetails"], "{blank}");
        reply.problem(400, "/validation");
    }
    app.delete("/accounts/blocklist/%2B4791234567").await;
    assert_eq!(app.get("/accounts/blocklist").await.expect(200), json!([]));
}

#[tokio::test]
async fn blocking_marks_respondents_not_yet_sent_to() {
    let app = spawn_app().await;
    let (survey, id) = survey_with_sendout(&app, email_sendout()).await;
    let base = format!("/surveys/{survey}/sendouts/{id}");
    app.post(&format!("{base}/respondents"), json!({"contactDetails": "a@example.com", "sendMail": true}))
        .await
        .expect(201);
    app.post(&format!("{base}/respondents"), json!({"contactDetails": "b@example.com", "sendMail": true}))
        .await
        .expect(201);
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    app.post("/accounts/blocklist", json!({"contactDetails": "A@example.com", "type": "OptedOut"})).await.expect(201);
    assert_eq!(app.statuses(&base).await, ["Blocklisted", "Scheduled"]);
}

#[tokio::test]
async fn failures_are_recorded_once_paged_filtered_and_bounce_respondents() {
    let app = spawn_app().await;
    let (survey, id) = survey_with_sendout(&app, email_sendout()).await;
    let base = format!("/surveys/{survey}/sendouts/{id}");
    app.post(&format!("{base}/respondents"), json!({"contactDetails": "Gone@example.com", "sendMail": true}))
        .await
        .expect(201);
    let failures = json!({"failures": [
        {"emailAddress": "gone@example.com", "sendingDomain": "mail.acme.example", "failedAt": "2020-11-20T10:00:00Z", "reason": "550 no such user"},
        {"emailAddress": "old@example.com", "sendingDomain": "mail.acme.example", "failedAt": "2020-11-01T10:00:00Z", "reason": "550"},
        {"emailAddress": "x@example.com", "sendingDomain": "news.acme.example", "failedAt": "2020-11-21T10:00:00Z", "reason": "554"}
    ]});
    assert_eq!(app.post("/email-bounces/permanent-failures", failures.clone()).await.expect(200)["recorded"], 3);
    assert_eq!(app.post("/email-bounces/permanent-failures", failures).await.expect(200)["recorded"], 0, "idempotent");
    assert_eq!(app.get(&format!("{base}/respondents")).await.expect(200)[0]["status"], "Bounced");

    let page = app.get("/email-bounces/permanent-failures?pageNumber=1&pageSize=2").await.expect(200);
    assert_eq!((page["pageNumber"].clone(), page["pageSize"].clone()), (json!(1), json!(2)));
    assert_eq!((page["pageCount"].clone(), page["totalCount"].clone()), (json!(2), json!(3)));
    assert_eq!(page["failures"][0]["emailAddress"], "old@example.com");
    assert_eq!(page["failures"][0]["sendoutId"], serde_json::Value::Null);
    assert_eq!(page["failures"][0]["respondentId"], serde_json::Value::Null);
    let domain = app
        .get("/email-bounces/permanent-failures?pageNumber=1&pageSize=10&sendingDomain=news.acme.example")
        .await
        .expect(200);
    assert_eq!(domain["totalCount"], 1);
    let since = app.get("/email-bounces/permanent-failures?pageNumber=1&pageSize=10&from=2020-11-15").await.expect(200);
    assert_eq!(since["totalCount"], 2);
    let past = app.get("/email-bounces/permanent-failures?pageNumber=5&pageSize=10").await.expect(200);
    assert_eq!(past["failures"], json!([]));

    for (query, field) in [
        ("pageSize=10", "pageNumber"),
        ("pageNumber=1", "pageSize"),
        ("pageNumber=1&pageSize=1001", "pageSize"),
        ("pageNumber=0&pageSize=10", "pageNumber"),
        ("pageNumber=1&pageSize=10&from=soon", "from"),
    ] {
        assert_eq!(app.get(&format!("/email-bounces/permanent-failures?{query}")).await.fields(), [field], "{query}");
    }
    let bad = json!({"failures": [{"emailAddress": "nope", "sendingDomain": "d", "failedAt": "2020-11-20T10:00:00Z"},
        {"emailAddress": "a@b.example", "sendingDomain": "d", "failedAt": "yesterday"}]});
    assert_eq!(
        app.post("/email-bounces/permanent-failures", bad).await.fields(),
        ["failures[0].emailAddress", "failures[1].failedAt"]
    );
    assert_eq!(app.post("/email-bounces/permanent-failures", json!({"failures": []})).await.fields(), ["failures"]);
}
