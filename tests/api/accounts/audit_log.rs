//! The audit log: every change, export, report and erasure and every key and user change is recorded with who,
//! what, which thing, from where and the status; refusals (4xx) with theirs; reads and other accounts' events are
//! not in it; nothing personal is in it; it reads newest first a page at a time and cannot be changed.

use serde_json::{json, Value};

use crate::helpers::{sample_survey_body, spawn_app, TestApp};

async fn events(app: &TestApp, query: &str) -> Vec<Value> {
    let page = app.get(&format!("/accounts/audit-events{query}")).await.expect(200);
    page["events"].as_array().unwrap().clone()
}

#[tokio::test]
async fn changes_are_recorded_with_who_what_which_and_the_status_and_reads_are_not() {
    let app = spawn_app().await;
    let created = app.post("/surveys", sample_survey_body()).await;
    let request_id = created.headers.get("x-request-id").unwrap().to_str().unwrap().to_owned();
    let survey = created.expect(201)["surveyId"].as_i64().unwrap();
    app.get("/surveys").await.expect(200);
    app.get(&format!("/surveys/{survey}/answers/export")).await.expect(200);
    let page = app.post(&format!("/surveys/{survey}/pages"), json!({"title": "More"})).await.expect(201);
    let page_id = page["pageId"].as_i64().unwrap();
    app.call("PATCH", &format!("/surveys/{survey}/pages/{page_id}"), Some(json!({"title": "Most"}))).await.expect(200);

    let log = events(&app, "").await;
    let actions: Vec<&str> = log.iter().map(|e| e["action"].as_str().unwrap()).collect();
    assert_eq!(actions, ["page.change", "page.create", "answers.export", "survey.create"], "newest first, no reads");
    let first = &log[3];
    assert_eq!(first["target"], json!({"type": "survey", "id": survey.to_string()}));
    assert_eq!((first["status"].as_i64(), first["requestId"].as_str()), (Some(201), Some(request_id.as_str())));
    assert_eq!(first["actor"]["keyPrefix"], app.key[..16]);
    assert!(first["actor"]["userId"].is_i64() && first["clientAddress"] == "127.0.0.1", "{first}");
    assert_eq!(log[0]["target"], json!({"type": "page", "id": page_id.to_string()}));
    assert_eq!(log[1]["target"], json!({"type": "page", "id": page_id.to_string()}), "what the create made");
    assert_eq!((log[2]["status"].as_i64(), log[2]["target"]["type"].as_str()), (Some(200), Some("survey")));
}

#[tokio::test]
async fn refusals_are_recorded_with_their_status_and_change_nothing() {
    let app = spawn_app().await;
    let (survey, _) = app.sample_survey().await;
    let viewer = app.post("/accounts/users", json!({"name": "V", "email": "v@acme.example", "role": "viewer"})).await;
    let viewer_id = viewer.expect(201)["userId"].as_i64().unwrap();
    let key = app.post(&format!("/accounts/users/{viewer_id}/keys"), json!({"name": "v"})).await.expect(201);
    let viewer_key = key["apiKey"].as_str().unwrap().to_owned();

    app.call_as(&viewer_key, "POST", "/surveys", Some(sample_survey_body())).await.problem(403, "/forbidden");
    app.post("/surveys", json!({"name": ""})).await.problem(400, "/validation");
    app.delete(&format!("/surveys/{survey}/quotas/999999")).await.problem(404, "/not-found");
    let twice = json!({"name": "V2", "email": "V@acme.example", "role": "viewer"});
    app.post("/accounts/users", twice).await.problem(409, "/duplicate");

    let log = events(&app, "").await;
    let seen: Vec<(&str, i64)> =
        log.iter().map(|e| (e["action"].as_str().unwrap(), e["status"].as_i64().unwrap())).collect();
    assert_eq!(
        seen,
        [
            ("user.create", 409),
            ("quota.delete", 404),
            ("survey.create", 400),
            ("survey.create", 403),
            ("key.create", 201),
            ("user.create", 201),
            ("survey.create", 201),
        ]
    );
    assert_eq!(log[3]["actor"]["userId"], viewer_id);
    assert_eq!(log[1]["target"], json!({"type": "quota", "id": "999999"}), "the id the path named");
    assert_eq!(app.get("/surveys").await.expect(200).as_array().unwrap().len(), 1, "no refusal made a survey");
}

#[tokio::test]
async fn keys_users_and_erasures_are_recorded_without_personal_data() {
    let app = spawn_app().await;
    let person = json!({"contactDetails": "ann@example.com", "sendMail": false});
    let sendout = json!({"name": "Spring", "type": "LOGIN", "startDate": "2031-03-01", "endDate": "2031-03-31"});
    app.one_respondent_sendout(&app.key, sample_survey_body(), sendout, person).await;
    let user =
        app.post("/accounts/users", json!({"name": "Ann Admin", "email": "ann.admin@acme.example", "role": "admin"}));
    let user = user.await.expect(201)["userId"].as_i64().unwrap();
    let key = app.post(&format!("/accounts/users/{user}/keys"), json!({"name": "k"})).await.expect(201);
    let prefix = key["prefix"].as_str().unwrap().to_owned();
    app.delete(&format!("/accounts/keys/{prefix}")).await.expect(204);
    app.call("PATCH", &format!("/accounts/users/{user}"), Some(json!({"active": false}))).await.expect(200);
    app.post("/accounts/erasure", json!({"contactDetails": "ann@example.com"})).await.expect(200);
    app.post("/accounts/blocklist", json!({"contactDetails": "bo@example.com", "type": "Blocked"})).await.expect(201);
    app.delete("/accounts/blocklist/bo@example.com").await.expect(204);

    let log = events(&app, "").await;
    let actions: Vec<&str> = log.iter().map(|e| e["action"].as_str().unwrap()).collect();
    assert_eq!(
        actions[..7],
        ["blocklist.remove", "blocklist.add", "person.erase", "user.change", "key.revoke", "key.create", "user.create"]
    );
    assert_eq!(log[4]["target"], json!({"type": "key", "id": prefix}));
    assert_eq!(log[5]["target"], json!({"type": "key", "id": prefix}));
    assert_eq!(log[3]["target"], json!({"type": "user", "id": user.to_string()}));
    let text = serde_json::to_string(&log).unwrap();
    for personal in
        ["ann@example.com", "bo@example.com", "ann.admin@acme.example", "Ann Admin", key["apiKey"].as_str().unwrap()]
    {
        assert!(!text.contains(personal), "{personal} in the audit log: {text}");
    }
}

#[tokio::test]
async fn the_log_reads_newest_first_by_page_and_filter_and_only_its_own_account() {
    let app = spawn_app().await;
    for name in ["A", "B", "C"] {
        app.post("/accounts/categories", json!({"name": name})).await.expect(201);
    }
    app.post("/surveys", sample_survey_body()).await.expect(201);
    let (_, other_key) = app.new_account("Other", "owner@other.example");
    app.call_as(&other_key, "POST", "/accounts/categories", Some(json!({"name": "X"}))).await.expect(201);

    let first = app.get("/accounts/audit-events?pageSize=2").await.expect(200);
    assert_eq!(first["events"].as_array().unwrap().len(), 2);
    let cursor = first["nextCursor"].as_str().unwrap();
    let second = app.get(&format!("/accounts/audit-events?pageSize=2&cursor={cursor}")).await.expect(200);
    assert_eq!((second["events"].as_array().unwrap().len(), &second["nextCursor"]), (2, &Value::Null));
    assert!(first["events"][1]["eventId"].as_i64() > second["events"][0]["eventId"].as_i64());

    assert_eq!(events(&app, "?action=category.create").await.len(), 3);
    let owner = app.get("/accounts/users").await.expect(200)[0]["userId"].as_i64().unwrap();
    assert_eq!(events(&app, &format!("?actor={owner}")).await.len(), 4);
    assert_eq!(events(&app, &format!("?actor={}", owner + 1000)).await.len(), 0);
    assert_eq!(events(&app, "?to=2000-01-01").await.len(), 0);
    let others = app.call_as(&other_key, "GET", "/accounts/audit-events", None).await.expect(200);
    assert_eq!(others["events"].as_array().unwrap().len(), 1);

    assert_eq!(app.get("/accounts/audit-events?cursor=abc").await.fields(), ["cursor"]);
    assert_eq!(app.get("/accounts/audit-events?pageSize=0").await.fields(), ["pageSize"]);
    assert_eq!(app.get("/accounts/audit-events?actor=0").await.fields(), ["actor"], "no user has id 0");
    assert_eq!(app.get("/accounts/audit-events?actor=-3").await.fields(), ["actor"]);
    assert_eq!(app.get("/accounts/audit-events?pageSize=1001").await.fields(), ["pageSize"]);
    assert_eq!(app.delete("/accounts/audit-events").await.status.as_u16(), 405, "nothing deletes an event");
}
