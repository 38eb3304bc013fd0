//! The outbox claim shares a round among the accounts with due messages: each gets its share, an account's large
//! backlog cannot hold another's messages back, and what one account leaves unused fills the round from the others.

use std::collections::HashMap;

use canvass_domain::ports::{StoreExt, UnitOfWork};
use serde_json::{json, Value};
use time::{Duration, OffsetDateTime};

use crate::delivery::activated;
use crate::helpers::spawn_app;

#[tokio::test]
async fn a_round_is_shared_among_accounts_and_filled_by_those_with_more() {
    let app = spawn_app().await;
    let contacts: Vec<String> = (0..8).map(|n| format!("a{n}@example.com")).collect();
    let refs: Vec<&str> = contacts.iter().map(String::as_str).collect();
    activated(&app, &refs, None).await;
    let (small, key) = app.new_account("Small", "owner@small.example");
    let survey = app.call_as(&key, "POST", "/surveys", Some(json!({"name": "Pulse"}))).await.expect(201)["surveyId"]
        .as_i64()
        .unwrap();
    let body = json!({"name": "Invite", "type": "EMAIL", "sendDate": "2026-01-01T08:00:00Z", "sender": "hr@small.example",
        "subject": "Your view", "message": "Answer: {{surveyLink}}"});
    let sendout = app.call_as(&key, "POST", &format!("/surveys/{survey}/sendouts"), Some(body)).await.expect(201)
        ["sendoutId"]
        .as_i64()
        .unwrap();
    let base = format!("/surveys/{survey}/sendouts/{sendout}");
    let people: Value = json!({"surveyRespondents": [{"contactDetails": "b@example.com", "sendMail": true}]});
    app.call_as(&key, "POST", &format!("{base}/respondents/batch"), Some(people)).await.expect(200);
    app.call_as(&key, "POST", &format!("{base}/activate"), Some(json!({}))).await.expect(200);

    let now = OffsetDateTime::now_utc();
    let store = app.db.store();
    let claim = |limit: i64| {
        let batch = store
            .with_uow(|uow: &mut dyn UnitOfWork| Ok(uow.claim_due(now, now + Duration::minutes(5), limit)?))
            .unwrap();
        let mut by_account: HashMap<bool, Vec<i64>> = HashMap::new();
        for message in batch {
            by_account.entry(message.account_id.get() == small).or_default().push(message.id);
        }
        by_account
    };
    let first = claim(5);
    assert_eq!(first.get(&true).map(Vec::len), Some(1), "the small account is served beside the large one");
    assert_eq!(first.get(&false).map(Vec::len), Some(4), "its unused share fills the round: {first:?}");
    let second = claim(10);
    assert_eq!((second.get(&true), second.get(&false).map(Vec::len)), (None, Some(4)), "the rest, once each");
    let mut all: Vec<i64> = first.into_values().chain(second.into_values()).flatten().collect();
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), 9);
    assert!(claim(10).is_empty(), "everything is leased");
}
