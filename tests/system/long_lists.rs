//! Unpaged lists longer than a chunk (1,000 rows), filled through the store because the API would take thousands of
//! requests to fill them (answer sets, the blocklist), and a chunk made unreadable with SQL, which no API call can
//! do. The lists are read over HTTP; the shared readers are in `api/platform/long_lists.rs`.

use canvass_domain::clock::SystemClock;
use canvass_domain::distribution::BlocklistType;
use canvass_domain::ids::SurveyId;
use canvass_domain::ports::StoreExt;
use canvass_domain::use_cases::answers::{self, AnswerSetInput};
use canvass_domain::use_cases::blocklist;
use canvass_domain::AccountId;
use serde_json::{json, Value};

use crate::api::platform::long_lists::{ids, list, survey, LONG};
use crate::helpers::{email_sendout, spawn_app, survey_with_sendout, TestApp};

/// Records `count` empty answer sets through the domain, every other one complete (the first is); returns their
/// ids and completed flags, in the order they were added.
fn add_answer_sets(app: &TestApp, account: i64, survey: i64, count: usize) -> Vec<(i64, bool)> {
    let (account, survey) = (AccountId::new(account), SurveyId::new(survey));
    app.db
        .store()
        .with_uow(|uow| {
            (0..count)
                .map(|n| {
                    let input = AnswerSetInput {
                        respondent_id: None,
                        completed: n % 2 == 0,
                        answers: Vec::new(),
                        language: None,
                    };
                    let set = answers::record(uow, &SystemClock, account, survey, input)?;
                    Ok((set.id.get(), set.completed))
                })
                .collect()
        })
        .unwrap()
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
