//! The unpaged lists (answer sets, respondents, the blocklist) stream their array in chunks of 1,000 rows: a list
//! longer than a chunk comes back whole, in order, as valid JSON; filters apply across chunks; what the path names
//! is still checked before the response starts; a chunk that cannot be read truncates the body.

use canvass_domain::clock::SystemClock;
use canvass_domain::distribution::BlocklistType;
use canvass_domain::ids::SurveyId;
use canvass_domain::ports::StoreExt;
use canvass_domain::use_cases::answers::{self, AnswerSetInput};
use canvass_domain::use_cases::blocklist;
use canvass_domain::AccountId;
use serde_json::{json, Value};

use crate::helpers::{spawn_app, TestApp};
use crate::sendouts::{email_sendout, survey_with_sendout};

/// More rows than one chunk (1,000) holds, and not a multiple of it.
const LONG: usize = 2_200;

/// A survey with one optional item, so that an empty answer set may be complete.
async fn survey(app: &TestApp, key: &str) -> i64 {
    let body = json!({"name": "Long", "pages": [{"items": [{"type": "OpenText", "text": "Why?"}]}]});
    let created = app.call_as(key, "POST", "/surveys", Some(body)).await.expect(201);
    created["surveyId"].as_i64().unwrap()
}

/// Records `count` empty answer sets through the domain, every other one complete (the first is); returns their
/// ids and completed flags, in the order they were added.
fn add_answer_sets(app: &TestApp, account: i64, survey: i64, count: usize) -> Vec<(i64, bool)> {
    let (account, survey) = (AccountId::new(account), SurveyId::new(survey));
    app.db
        .store()
        .with_uow(|uow| {
            (0..count)
                .map(|n| {
                    let input = AnswerSetInput { respondent_id: None, completed: n % 2 == 0, answers: Vec::new() };
                    let set = answers::record(uow, &SystemClock, account, survey, input)?;
                    Ok((set.id.get(), set.completed))
                })
                .collect()
        })
        .unwrap()
}

/// GET under `/api/v1` with the app's key; returns the status, the content type and the raw body.
async fn raw_get(app: &TestApp, path: &str) -> (u16, String, Vec<u8>) {
    let response =
        app.client.get(format!("{}/api/v1{path}", app.address)).header("X-API-KEY", &app.key).send().await.unwrap();
    let status = response.status().as_u16();
    let content_type = response.headers()["content-type"].to_str().unwrap().to_owned();
    (status, content_type, response.bytes().await.unwrap().to_vec())
}

/// A list read raw: 200, `application/json`, and a body that parses as a JSON array written compactly.
async fn list(app: &TestApp, path: &str) -> Vec<Value> {
    let (status, content_type, body) = raw_get(app, path).await;
    assert_eq!((status, content_type.as_str()), (200, "application/json"), "{path}");
    assert!(body.starts_with(b"[") && body.ends_with(b"]"), "{path}");
    assert!(!body.contains(&b'\n'), "compact, as serde_json writes a list whole");
    match serde_json::from_slice(&body) {
        Ok(Value::Array(items)) => items,
        other => panic!("{path}: not a JSON array: {other:?}"),
    }
}

fn ids(items: &[Value], field: &str) -> Vec<i64> {
    items.iter().map(|item| item[field].as_i64().unwrap()).collect()
}

#[tokio::test]
async fn answer_sets_longer_than_a_chunk_come_back_whole_in_order_and_filtered() {
    let app = spawn_app().await;
    let id = survey(&app, &app.key).await;
    let added = add_answer_sets(&app, app.account_id, id, LONG);

    let all = list(&app, &format!("/surveys/{id}/answers")).await;
    assert_eq!(ids(&all, "answerSetId"), added.iter().map(|(set, _)| *set).collect::<Vec<_>>());
    let flags: Vec<bool> = all.iter().map(|set| set["completed"].as_bool().unwrap()).collect();
    assert_eq!(flags, added.iter().map(|(_, completed)| *completed).collect::<Vec<_>>());
    assert!(all.iter().all(|set| set["surveyId"] == id && set.get("answers").is_none()));
    // A row of the list is the set as read alone, without its answers.
    for index in [0, 999, 1000, LONG - 1] {
        let mut one = app.get(&format!("/surveys/{id}/answers/{}", added[index].0)).await.expect(200);
        one.as_object_mut().unwrap().remove("answers");
        assert_eq!(all[index], one);
    }

    // 1,100 completed sets: the filter holds in both chunks.
    let completed = list(&app, &format!("/surveys/{id}/answers?completed=true")).await;
    let expected: Vec<i64> = added.iter().filter(|(_, completed)| *completed).map(|(set, _)| *set).collect();
    assert_eq!(expected.len(), 1_100);
    assert_eq!(ids(&completed, "answerSetId"), expected);
    // From the creation time of the 150th set on: 2,051 sets in three chunks.
    let from = all[149]["createdAt"].as_str().unwrap().replace(':', "%3A");
    let since = list(&app, &format!("/surveys/{id}/answers?from={from}")).await;
    assert_eq!(ids(&since, "answerSetId"), ids(&all[149..], "answerSetId"));
    let both = list(&app, &format!("/surveys/{id}/answers?from={from}&completed=true")).await;
    assert_eq!(
        ids(&both, "answerSetId"),
        ids(&all[149..], "answerSetId").into_iter().filter(|set| expected.contains(set)).collect::<Vec<_>>()
    );
}

#[tokio::test]
async fn answer_lists_check_the_survey_and_the_filter_before_they_start() {
    let app = spawn_app().await;
    let id = survey(&app, &app.key).await;
    let (_, other_key) = app.new_account("Other", "owner@other.example");
    let foreign = survey(&app, &other_key).await;

    let (status, content_type, body) = raw_get(&app, &format!("/surveys/{id}/answers")).await;
    assert_eq!((status, content_type.as_str(), body.as_slice()), (200, "application/json", b"[]".as_slice()));
    assert_eq!(list(&app, &format!("/surveys/{id}/answers?completed=true")).await, Vec::<Value>::new());
    app.get(&format!("/surveys/{foreign}/answers")).await.problem(404, "/not-found");
    app.get("/surveys/987654321/answers").await.problem(404, "/not-found");
    app.get(&format!("/surveys/{id}/answers?from=soon")).await.problem(400, "/validation");
    app.get("/surveys/987654321/answers?completed=maybe").await.problem(400, "/validation");
}

#[tokio::test]
async fn respondents_longer_than_a_chunk_come_back_whole_and_in_order() {
    let app = spawn_app().await;
    let (survey, sendout) = survey_with_sendout(&app, email_sendout()).await;
    let base = format!("/surveys/{survey}/sendouts/{sendout}");
    assert_eq!(list(&app, &format!("{base}/respondents")).await, Vec::<Value>::new());
    let mut added = Vec::new();
    for batch in 0..3 {
        let people: Vec<Value> = (0..LONG / 3)
            .map(|n| json!({"contactDetails": format!("p{batch}-{n}@example.com"), "sendMail": n % 2 == 0}))
            .collect();
        let reply = app.post(&format!("{base}/respondents/batch"), json!({"surveyRespondents": people})).await;
        added.extend(reply.expect(200)["added"].as_array().unwrap().iter().cloned());
    }
    assert_eq!(added.len(), LONG - LONG % 3);

    let all = list(&app, &format!("{base}/respondents")).await;
    assert_eq!(all, added, "every respondent once, as it was added, in the order it was added");
    let ids = ids(&all, "respondentId");
    assert!(ids.windows(2).all(|pair| pair[0] < pair[1]));
}

#[tokio::test]
async fn respondent_lists_of_unknown_and_foreign_sendouts_are_not_found() {
    let app = spawn_app().await;
    let (survey, sendout) = survey_with_sendout(&app, email_sendout()).await;
    let (other_survey, _) = survey_with_sendout(&app, email_sendout()).await;
    let (_, other_key) = app.new_account("Other", "owner@other.example");
    let other = app.call_as(&other_key, "POST", "/surveys", Some(crate::helpers::sample_survey_body())).await;
    let other_survey_of_other = other.expect(201)["surveyId"].as_i64().unwrap();
    let path = format!("/surveys/{other_survey_of_other}/sendouts");
    let foreign = app.call_as(&other_key, "POST", &path, Some(email_sendout())).await.expect(201);
    let foreign = foreign["sendoutId"].as_i64().unwrap();

    for path in [
        format!("/surveys/{survey}/sendouts/987654321/respondents"),
        format!("/surveys/{other_survey}/sendouts/{sendout}/respondents"),
        format!("/surveys/987654321/sendouts/{sendout}/respondents"),
        format!("/surveys/{other_survey_of_other}/sendouts/{foreign}/respondents"),
        format!("/surveys/{survey}/sendouts/{foreign}/respondents"),
    ] {
        app.get(&path).await.problem(404, "/not-found");
    }
}

#[tokio::test]
async fn a_chunk_that_cannot_be_read_truncates_the_body() {
    use diesel::RunQueryDsl;
    let app = spawn_app().await;
    let (survey, sendout) = survey_with_sendout(&app, email_sendout()).await;
    let base = format!("/surveys/{survey}/sendouts/{sendout}");
    let people: Vec<Value> =
        (0..1_000).map(|n| json!({"contactDetails": format!("p{n}@example.com"), "sendMail": true})).collect();
    app.post(&format!("{base}/respondents/batch"), json!({"surveyRespondents": people})).await.expect(200);
    let last = json!({"contactDetails": "last@example.com", "sendMail": true});
    app.post(&format!("{base}/respondents"), last).await.expect(201);
    // The last respondent, in the second chunk, gets a status no code reads: reading that chunk fails.
    let mut conn = app.db.connect();
    diesel::sql_query("ALTER TABLE respondents DROP CONSTRAINT respondents_status_check").execute(&mut conn).unwrap();
    diesel::sql_query("UPDATE respondents SET status = 'Unreadable' WHERE id = (SELECT max(id) FROM respondents)")
        .execute(&mut conn)
        .unwrap();

    let response = app
        .client
        .get(format!("{}/api/v1{base}/respondents", app.address))
        .header("X-API-KEY", &app.key)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200, "the first chunk was read before the response started");
    let body = response.bytes().await;
    assert!(body.is_err(), "the body breaks off instead of ending as a well-formed list: {body:?}");
    // The server goes on serving.
    app.get(&base).await.expect(200);
}

#[tokio::test]
async fn a_blocklist_longer_than_a_chunk_comes_back_whole_and_in_order() {
    let app = spawn_app().await;
    assert_eq!(list(&app, "/accounts/blocklist").await, Vec::<Value>::new());
    let (other, other_key) = app.new_account("Other", "owner@other.example");
    let store = app.db.store();
    let account = AccountId::new(app.account_id);
    let added: Vec<String> = store
        .with_uow(|uow| {
            (0..1_100)
                .map(|n| {
                    let kind = if n % 3 == 0 { BlocklistType::OptedOut } else { BlocklistType::Blocked };
                    let contact = format!("Person{n}@Example.com");
                    blocklist::add(uow, &SystemClock, account, &contact, kind).map(|entry| entry.contact_details)
                })
                .collect()
        })
        .unwrap();
    store
        .with_uow(|uow| {
            blocklist::add(uow, &SystemClock, AccountId::new(other), "x@other.example", BlocklistType::Blocked)
        })
        .unwrap();

    let all = list(&app, "/accounts/blocklist").await;
    let contacts: Vec<&str> = all.iter().map(|entry| entry["contactDetails"].as_str().unwrap()).collect();
    assert_eq!(contacts, added.iter().map(String::as_str).collect::<Vec<_>>());
    let kinds: Vec<&str> = all.iter().map(|entry| entry["type"].as_str().unwrap()).collect();
    assert!(kinds.iter().enumerate().all(|(n, kind)| *kind == if n % 3 == 0 { "OptedOut" } else { "Blocked" }));
    let theirs = app.call_as(&other_key, "GET", "/accounts/blocklist", None).await.expect(200);
    assert_eq!(theirs.as_array().unwrap().len(), 1);
    assert_eq!(theirs[0]["contactDetails"], "x@other.example");
}
