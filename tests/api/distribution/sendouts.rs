//! Sendouts: body rules per type, the state machine, labels and reminders.

use serde_json::{json, Value};

use crate::helpers::{email_sendout, spawn_app, survey_with_sendout};

#[tokio::test]
async fn a_sendout_is_created_as_a_draft_and_read_back() {
    let app = spawn_app().await;
    let (survey, _) = app.sample_survey().await;
    // One read answers both: a survey without sendouts lists none, a survey that does not exist is not found.
    assert_eq!(app.get(&format!("/surveys/{survey}/sendouts")).await.expect(200), json!([]));
    app.get(&format!("/surveys/{}/sendouts", survey + 1000)).await.expect(404);
    let created = app.post(&format!("/surveys/{survey}/sendouts"), email_sendout()).await.expect(201);
    assert_eq!(created["status"], "Draft");
    assert_eq!(created["type"], "EMAIL");
    assert_eq!(created["surveyId"], survey);
    assert_eq!(created["expiryDate"], "2099-12-15T00:00:00Z");
    assert_eq!((created["respondentCount"].clone(), created["pendingCount"].clone()), (json!(0), json!(0)));
    assert_eq!(created["activatedAt"], Value::Null);
    let id = created["sendoutId"].as_i64().unwrap();
    assert_eq!(app.get(&format!("/surveys/{survey}/sendouts/{id}")).await.expect(200), created);
    assert_eq!(app.get(&format!("/surveys/{survey}/sendouts")).await.expect(200), json!([created]));
    let login = json!({"name": "Staff login", "type": "LOGIN"});
    let login = app.post(&format!("/surveys/{survey}/sendouts"), login).await.expect(201);
    assert_eq!(login["sendDate"], Value::Null);
    let sms = json!({"name": "Text", "type": "SMS", "sendDate": "2099-12-01", "sender": "+4791234567", "message": "{{surveyLink}}"});
    app.post(&format!("/surveys/{survey}/sendouts"), sms).await.expect(201);
    let twoway = json!({"name": "Chat", "type": "TWOWAY", "sendDate": "2099-12-01", "sender": "12345", "message": "Hi {{surveyLink}}"});
    app.post(&format!("/surveys/{survey}/sendouts"), twoway).await.expect(201);
    assert_eq!(app.get(&format!("/surveys/{survey}/sendouts")).await.expect(200).as_array().unwrap().len(), 4);
}

#[tokio::test]
async fn each_body_rule_is_a_400_naming_its_field() {
    let app = spawn_app().await;
    let (survey, _) = app.sample_survey().await;
    let with = |changes: Value| {
        let mut body = email_sendout();
        for (key, value) in changes.as_object().unwrap() {
            if value.is_null() {
                body.as_object_mut().unwrap().remove(key);
            } else {
                body[key] = value.clone();
            }
        }
        body
    };
    let cases = [
        (with(json!({"name": ""})), "name"),
        (with(json!({"type": "FAX"})), "type"),
        (with(json!({"sendDate": null})), "sendDate"),
        (with(json!({"sendDate": "next week"})), "sendDate"),
        (with(json!({"sender": "not-an-address"})), "sender"),
        (with(json!({"sender": null})), "sender"),
        (with(json!({"subject": ""})), "subject"),
        (with(json!({"message": "no link here"})), "message"),
        (with(json!({"message": null})), "message"),
        (with(json!({"expiryDate": "2099-11-30"})), "expiryDate"),
        (json!({"name": "x", "type": "LOGIN", "sender": "hr@acme.example"}), "sender"),
        (json!({"name": "x", "type": "LOGIN", "message": "{{surveyLink}}"}), "message"),
        (json!({"name": "x", "type": "LOGIN", "sendDate": "2099-12-01"}), "sendDate"),
        (
            json!({"name": "x", "type": "SMS", "sendDate": "2099-12-01", "sender": "Acme Corporation", "message": "{{surveyLink}}"}),
            "sender",
        ),
        (
            json!({"name": "x", "type": "TWOWAY", "sendDate": "2099-12-01", "sender": "a@b.example", "message": "{{surveyLink}}"}),
            "sender",
        ),
    ];
    for (body, field) in cases {
        let reply = app.post(&format!("/surveys/{survey}/sendouts"), body.clone()).await;
        let fields = reply.fields();
        reply.problem(400, "/validation");
        assert_eq!(fields, [field], "{body}");
    }
    let reply = app.post(&format!("/surveys/{survey}/sendouts"), with(json!({"type": "FAX"}))).await;
    assert_eq!(reply.body["supportedValues"], json!(["EMAIL", "SMS", "LOGIN", "TWOWAY", "LINK"]));
    let reply = app.post(&format!("/surveys/{survey}/sendouts"), with(json!({"type": 5}))).await;
    assert_eq!(
        (reply.fields(), reply.body["supportedValues"].clone()),
        (vec!["type".to_owned()], json!(["EMAIL", "SMS", "LOGIN", "TWOWAY", "LINK"]))
    );
    assert_eq!(app.get(&format!("/surveys/{survey}/sendouts")).await.expect(200), json!([]));
    app.post("/surveys/999999/sendouts", email_sendout()).await.problem(404, "/not-found");
}

#[tokio::test]
async fn activation_and_deactivation_follow_the_state_machine() {
    let app = spawn_app().await;
    let (survey, id) = survey_with_sendout(&app, email_sendout()).await;
    let base = format!("/surveys/{survey}/sendouts/{id}");
    app.post(&format!("{base}/deactivate"), json!({})).await.problem(409, "/not-activated");
    let active = app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    assert_eq!(active["status"], "Active");
    assert!(active["activatedAt"].is_string());
    assert_eq!(app.post(&format!("{base}/activate"), json!({})).await.expect(200)["status"], "Active");
    assert_eq!(app.post(&format!("{base}/deactivate"), json!({})).await.expect(200)["status"], "Inactive");
    assert_eq!(app.post(&format!("{base}/deactivate"), json!({})).await.expect(200)["status"], "Inactive");
    assert_eq!(app.post(&format!("{base}/activate"), json!({})).await.expect(200)["status"], "Active");
    app.post(&format!("/surveys/{survey}/sendouts/999999/activate"), json!({})).await.problem(404, "/not-found");
}

#[tokio::test]
async fn a_sendout_of_another_survey_is_not_found_under_this_one() {
    let app = spawn_app().await;
    let (_, id) = survey_with_sendout(&app, email_sendout()).await;
    let (other, _) = app.sample_survey().await;
    for path in ["", "/respondents", "/labels", "/reminders"] {
        app.get(&format!("/surveys/{other}/sendouts/{id}{path}")).await.problem(404, "/not-found");
    }
    app.post(&format!("/surveys/{other}/sendouts/{id}/activate"), json!({})).await.problem(404, "/not-found");
}

#[tokio::test]
async fn labels_have_unique_names_within_a_sendout() {
    let app = spawn_app().await;
    let (survey, id) = survey_with_sendout(&app, email_sendout()).await;
    let base = format!("/surveys/{survey}/sendouts/{id}/labels");
    let label = app.post(&base, json!({"name": "Department", "labelType": "Text"})).await.expect(201);
    assert_eq!(label["function"], 0);
    assert_eq!(label["labelType"], "Text");
    app.post(&base, json!({"name": "Department", "labelType": "Number"})).await.problem(409, "/duplicate");
    // Names are compared whatever their case, as people read them.
    app.post(&base, json!({"name": "DEPARTMENT", "labelType": "Text"})).await.problem(409, "/duplicate");
    let age = app.post(&base, json!({"name": "Age", "labelType": "Number"})).await.expect(201);
    assert_eq!(app.get(&base).await.expect(200), json!([label, age]));
    assert_eq!(app.post(&base, json!({"name": "", "labelType": "Text"})).await.fields(), ["name"]);
    let reply = app.post(&base, json!({"name": "x", "labelType": "Colour"})).await;
    assert_eq!(reply.fields(), ["labelType"]);
    assert_eq!(reply.body["supportedValues"], json!(["Text", "Number", "Date", "Email", "Phone"]));
    let (other_survey, other_sendout) = survey_with_sendout(&app, email_sendout()).await;
    app.post(
        &format!("/surveys/{other_survey}/sendouts/{other_sendout}/labels"),
        json!({"name": "Department", "labelType": "Text"}),
    )
    .await
    .expect(201);
}

#[tokio::test]
async fn reminders_follow_the_message_rules_of_their_sendout() {
    let app = spawn_app().await;
    let (survey, id) = survey_with_sendout(&app, email_sendout()).await;
    let base = format!("/surveys/{survey}/sendouts/{id}/reminders");
    let body = json!({"sendoutLogic": "NotCompleted", "sendDate": "2099-12-05T08:00:00Z", "sender": "hr@acme.example",
        "subject": "Reminder", "message": "Please answer: {{surveyLink}}"});
    let reminder = app.post(&base, body.clone()).await.expect(201);
    assert_eq!(reminder["sendoutLogic"], "NotCompleted");
    assert_eq!(reminder["status"], "Scheduled");
    assert_eq!(reminder["sendoutId"], id);
    assert_eq!(app.get(&base).await.expect(200), json!([reminder]));
    for (change, field) in [
        (json!({"sendoutLogic": "Everyone"}), "sendoutLogic"),
        (json!({"sendDate": null}), "sendDate"),
        (json!({"sender": "Acme"}), "sender"),
        (json!({"subject": null}), "subject"),
        (json!({"message": "no link"}), "message"),
    ] {
        let mut broken = body.clone();
        for (key, value) in change.as_object().unwrap() {
            if value.is_null() {
                broken.as_object_mut().unwrap().remove(key);
            } else {
                broken[key] = value.clone();
            }
        }
        let reply = app.post(&base, broken).await;
        assert_eq!(reply.fields(), [field], "{change}");
    }
    let sms =
        json!({"name": "Text", "type": "SMS", "sendDate": "2099-12-01", "sender": "Acme", "message": "{{surveyLink}}"});
    let (sms_survey, sms_id) = survey_with_sendout(&app, sms).await;
    let sms_reminder = json!({"sendoutLogic": "All", "sendDate": "2099-12-05", "sender": "Acme", "message": "Reminder {{surveyLink}}"});
    app.post(&format!("/surveys/{sms_survey}/sendouts/{sms_id}/reminders"), sms_reminder).await.expect(201);
}
