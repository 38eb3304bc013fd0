//! Respondents: adding one and in batches, refusals, release on activation, concurrency.

use serde_json::{json, Value};

use crate::helpers::{email_sendout, spawn_app, survey_with_sendout};

fn person(contact: &str) -> Value {
    json!({"contactDetails": contact, "sendMail": true})
}

#[tokio::test]
async fn a_respondent_is_added_pending_with_a_personal_link() {
    let app = spawn_app().await;
    let (survey, id) = survey_with_sendout(&app, email_sendout()).await;
    let base = format!("/surveys/{survey}/sendouts/{id}");
    let label = app.post(&format!("{base}/labels"), json!({"name": "City", "labelType": "Text"})).await.expect(201);
    let label_id = label["labelId"].as_i64().unwrap();
    let body = json!({"contactDetails": "Ann@Example.com", "sendMail": true, "backgroundData": {label_id.to_string(): "Oslo"}});
    let added = app.post(&format!("{base}/respondents"), body).await.expect(201);
    assert_eq!(added["status"], "Pending");
    assert_eq!(added["sendoutId"], id);
    assert_eq!(added["contactDetails"], "Ann@Example.com");
    assert_eq!(added["backgroundData"], json!({label_id.to_string(): "Oslo"}));
    assert_eq!(added["sentAt"], Value::Null);
    let link = added["surveyLink"].as_str().unwrap();
    let token = link.strip_prefix(&format!("{}/r/", app.address)).expect("link under the public URL");
    let (account, random) = token.split_once('-').expect("the account, then the random part");
    assert_eq!(account, app.account_id.to_string(), "the link names its account");
    assert!(random.len() == 40 && random.chars().all(|c| c.is_ascii_hexdigit()), "{token}");
    assert_eq!(app.get(&format!("{base}/respondents")).await.expect(200), json!([added]));
    let sendout = app.get(&base).await.expect(200);
    assert_eq!((sendout["respondentCount"].clone(), sendout["pendingCount"].clone()), (json!(1), json!(1)));

    app.post(&format!("{base}/respondents"), person("ann@example.COM")).await.problem(409, "/duplicate");
    app.post("/accounts/blocklist", json!({"contactDetails": "bob@example.com", "type": "OptedOut"})).await.expect(201);
    app.post(&format!("{base}/respondents"), person("BOB@example.com")).await.problem(409, "/blocklisted");
    assert_eq!(app.get(&format!("{base}/respondents")).await.expect(200).as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn contact_details_and_background_data_are_checked() {
    let app = spawn_app().await;
    let (survey, id) = survey_with_sendout(&app, email_sendout()).await;
    let base = format!("/surveys/{survey}/sendouts/{id}/respondents");
    let label = app
        .post(&format!("/surveys/{survey}/sendouts/{id}/labels"), json!({"name": "City", "labelType": "Text"}))
        .await
        .expect(201)["labelId"]
        .as_i64()
        .unwrap();
    let cases = [
        (json!({"contactDetails": "not an email", "sendMail": true}), "contactDetails"),
        (json!({"contactDetails": "a@b.example"}), "sendMail"),
        (json!({"sendMail": true}), "contactDetails"),
        (
            json!({"contactDetails": "a@b.example", "sendMail": true, "backgroundData": {"424242": "x"}}),
            "backgroundData.424242",
        ),
        (
            json!({"contactDetails": "a@b.example", "sendMail": true, "backgroundData": {label.to_string(): ""}}),
            &*format!("backgroundData.{label}"),
        ),
        (
            json!({"contactDetails": "a@b.example", "sendMail": true, "backgroundData": {label.to_string(): null}}),
            "backgroundData",
        ),
        (json!({"contactDetails": "a@b.example", "sendMail": true, "backgroundData": {"abc": "x"}}), "backgroundData"),
    ];
    for (body, field) in cases {
        let reply = app.post(&base, body.clone()).await;
        let fields = reply.fields();
        reply.problem(400, "/validation");
        assert!(fields.iter().any(|f| f.starts_with(field)), "{body}: {fields:?}");
    }
    let sms =
        json!({"name": "Text", "type": "SMS", "sendDate": "2099-12-01", "sender": "Acme", "message": "{{surveyLink}}"});
    let (sms_survey, sms_id) = survey_with_sendout(&app, sms).await;
    let sms_base = format!("/surveys/{sms_survey}/sendouts/{sms_id}/respondents");
    assert_eq!(app.post(&sms_base, person("a@b.example")).await.fields(), ["contactDetails"]);
    app.post(&sms_base, person("+4791234567")).await.expect(201);
    let (login_survey, login_id) = survey_with_sendout(&app, json!({"name": "Login", "type": "LOGIN"})).await;
    app.post(&format!("/surveys/{login_survey}/sendouts/{login_id}/respondents"), person("employee-42"))
        .await
        .expect(201);
    assert_eq!(app.get(&base).await.expect(200), json!([]));
}

#[tokio::test]
async fn activation_releases_every_pending_respondent() {
    let app = spawn_app().await;
    let (survey, id) = survey_with_sendout(&app, email_sendout()).await;
    let base = format!("/surveys/{survey}/sendouts/{id}");
    app.post(&format!("{base}/respondents"), person("a@example.com")).await.expect(201);
    app.post(&format!("{base}/respondents"), json!({"contactDetails": "b@example.com", "sendMail": false}))
        .await
        .expect(201);
    let active = app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    assert_eq!((active["respondentCount"].clone(), active["pendingCount"].clone()), (json!(2), json!(0)));
    let statuses = |list: Value| {
        list.as_array().unwrap().iter().map(|r| r["status"].as_str().unwrap().to_owned()).collect::<Vec<_>>()
    };
    assert_eq!(statuses(app.get(&format!("{base}/respondents")).await.expect(200)), ["Scheduled", "Released"]);

    app.post(&format!("{base}/respondents"), person("c@example.com")).await.expect(201);
    assert_eq!(app.get(&base).await.expect(200)["pendingCount"], 1, "added after activation: pending again");
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    assert_eq!(
        statuses(app.get(&format!("{base}/respondents")).await.expect(200)),
        ["Scheduled", "Released", "Scheduled"]
    );
}

#[tokio::test]
async fn a_batch_adds_what_it_can_and_names_each_refusal() {
    let app = spawn_app().await;
    let (survey, id) = survey_with_sendout(&app, email_sendout()).await;
    let base = format!("/surveys/{survey}/sendouts/{id}/respondents");
    app.post(&base, person("taken@example.com")).await.expect(201);
    app.post("/accounts/blocklist", json!({"contactDetails": "blocked@example.com", "type": "Blocked"}))
        .await
        .expect(201);
    let batch = json!({"surveyRespondents": [
        person("new1@example.com"), person("TAKEN@example.com"), person("blocked@example.com"),
        person("new2@example.com"), person("New1@example.com")
    ]});
    let outcome = app.post(&format!("{base}/batch"), batch).await.expect(200);
    let added: Vec<_> = outcome["added"].as_array().unwrap().iter().map(|r| r["contactDetails"].clone()).collect();
    assert_eq!(added, [json!("new1@example.com"), json!("new2@example.com")]);
    assert_eq!(
        outcome["rejected"],
        json!([
            {"index": 1, "contactDetails": "TAKEN@example.com", "reason": "duplicate"},
            {"index": 2, "contactDetails": "blocked@example.com", "reason": "blocklisted"},
            {"index": 4, "contactDetails": "New1@example.com", "reason": "duplicate"}
        ])
    );
    assert_eq!(app.get(&base).await.expect(200).as_array().unwrap().len(), 3);
}

#[tokio::test]
async fn a_malformed_batch_adds_nothing_and_names_every_bad_index() {
    let app = spawn_app().await;
    let (survey, id) = survey_with_sendout(&app, email_sendout()).await;
    let base = format!("/surveys/{survey}/sendouts/{id}/respondents");
    let batch =
        json!({"surveyRespondents": [person("ok@example.com"), person("bad"), person("ok2@example.com"), person("")]});
    let reply = app.post(&format!("{base}/batch"), batch).await;
    assert_eq!(reply.fields(), ["surveyRespondents[1].contactDetails", "surveyRespondents[3].contactDetails"]);
    reply.problem(400, "/validation");
    let wrong_types = json!({"surveyRespondents": [person("ok@example.com"), {"contactDetails": "x@example.com", "sendMail": "yes"},
        person("ok3@example.com"), {"contactDetails": "y@example.com"}, 7]});
    assert_eq!(
        app.post(&format!("{base}/batch"), wrong_types).await.fields(),
        ["surveyRespondents[1].sendMail", "surveyRespondents[3].sendMail", "surveyRespondents[4]"]
    );
    let mixed =
        json!({"surveyRespondents": [person("bad"), {"contactDetails": "z@example.com"}, person("ok@example.com")]});
    assert_eq!(
        app.post(&format!("{base}/batch"), mixed).await.fields(),
        ["surveyRespondents[0].contactDetails", "surveyRespondents[1].sendMail"],
        "unreadable items and items that break a rule are named together"
    );
    assert_eq!(
        app.post(&format!("{base}/batch"), json!({"surveyRespondents": []})).await.fields(),
        ["surveyRespondents"]
    );
    let too_many: Vec<_> = (0..1001).map(|n| person(&format!("p{n}@example.com"))).collect();
    assert_eq!(
        app.post(&format!("{base}/batch"), json!({"surveyRespondents": too_many})).await.fields(),
        ["surveyRespondents"]
    );
    assert_eq!(app.post(&format!("{base}/batch"), json!({})).await.fields(), ["surveyRespondents"]);
    assert_eq!(app.get(&base).await.expect(200), json!([]));
    let thousand: Vec<_> = (0..1000).map(|n| person(&format!("p{n}@example.com"))).collect();
    let outcome = app.post(&format!("{base}/batch"), json!({"surveyRespondents": thousand})).await.expect(200);
    assert_eq!(outcome["added"].as_array().unwrap().len(), 1000);
}

#[tokio::test]
async fn two_batches_of_the_same_contacts_at_once_add_each_contact_once() {
    let app = spawn_app().await;
    let (survey, id) = survey_with_sendout(&app, email_sendout()).await;
    let base = format!("/surveys/{survey}/sendouts/{id}/respondents");
    let contacts: Vec<_> = (0..300).map(|n| person(&format!("same{n}@example.com"))).collect();
    let batch = json!({"surveyRespondents": contacts});
    for _ in 0..3 {
        let path = format!("{base}/batch");
        let (one, two) = tokio::join!(app.post(&path, batch.clone()), app.post(&path, batch.clone()));
        let (one, two) = (one.expect(200), two.expect(200));
        let added = one["added"].as_array().unwrap().len() + two["added"].as_array().unwrap().len();
        let rejected = one["rejected"].as_array().unwrap().len() + two["rejected"].as_array().unwrap().len();
        assert_eq!(added + rejected, 600);
        let listed = app.get(&base).await.expect(200);
        assert_eq!(listed.as_array().unwrap().len(), 300);
    }
}

#[tokio::test]
async fn answers_can_name_a_respondent_of_the_survey() {
    let app = spawn_app().await;
    let (survey, id) = survey_with_sendout(&app, email_sendout()).await;
    let respondent =
        app.post(&format!("/surveys/{survey}/sendouts/{id}/respondents"), person("a@example.com")).await.expect(201)
            ["respondentId"]
            .as_i64()
            .unwrap();
    let set = app
        .post(&format!("/surveys/{survey}/answers"), json!({"respondentId": respondent, "answers": []}))
        .await
        .expect(201);
    assert_eq!(set["respondentId"], respondent);
    assert_eq!(set["sendoutId"], id);
    let sets = app.get(&format!("/surveys/{survey}/answers/respondent/{respondent}")).await.expect(200);
    assert_eq!(sets.as_array().unwrap().len(), 1);
    let (other_survey, _) = app.sample_survey().await;
    let reply =
        app.post(&format!("/surveys/{other_survey}/answers"), json!({"respondentId": respondent, "answers": []})).await;
    assert_eq!(reply.fields(), ["respondentId"]);
}
