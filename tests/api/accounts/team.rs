//! The team through the API: users with roles, keys per user, and who may do what. Each role's keys reach what the
//! table grants and answer 403 `forbidden`, naming the permission, for the rest; a read-only key changes nothing;
//! a revoked key or a deactivated user's key answers 401 from the next request on; the last owner stays.

use serde_json::{json, Value};

use crate::helpers::{spawn_app, TestApp};

/// Adds a user with `role` and makes a key for it; returns the user's id and the key.
async fn member(app: &TestApp, email: &str, role: &str, key: Value) -> (i64, String) {
    let user = app.post("/accounts/users", json!({"name": "A member", "email": email, "role": role})).await.expect(201);
    assert_eq!((user["role"].as_str(), user["active"].as_bool()), (Some(role), Some(true)));
    let id = user["userId"].as_i64().unwrap();
    let made = app.post(&format!("/accounts/users/{id}/keys"), key).await.expect(201);
    (id, made["apiKey"].as_str().unwrap().to_owned())
}

#[track_caller]
fn forbidden(reply: canvass_testkit::Reply, permission: &str) {
    let body = reply.problem(403, "/forbidden");
    assert!(body["detail"].as_str().unwrap().contains(permission), "{body}");
}

#[tokio::test]
async fn each_role_reaches_what_the_table_grants_and_no_more() {
    let app = spawn_app().await;
    let (survey, _) = app.sample_survey().await;
    let (_, viewer) = member(&app, "viewer@acme.example", "viewer", json!({"name": "look"})).await;
    let (_, editor) = member(&app, "editor@acme.example", "editor", json!({"name": "edit"})).await;
    let (_, analyst) = member(&app, "analyst@acme.example", "analyst", json!({"name": "count"})).await;
    let body = crate::helpers::sample_survey_body();

    app.call_as(&viewer, "GET", "/surveys", None).await.expect(200);
    app.call_as(&viewer, "GET", &format!("/surveys/{survey}/sendouts"), None).await.expect(200);
    forbidden(app.call_as(&viewer, "POST", "/surveys", Some(body.clone())).await, "surveys.write");
    forbidden(app.call_as(&viewer, "GET", &format!("/surveys/{survey}/answers"), None).await, "answers.read");
    forbidden(app.call_as(&viewer, "GET", "/accounts/users", None).await, "admin");
    forbidden(app.call_as(&viewer, "GET", "/data-retention/account", None).await, "governance");
    // The permission is checked before the ids and the body: an unknown survey and a body that is no JSON.
    let refused =
        app.raw_as(&viewer, "POST", "/api/v1/surveys/999999/pages", Some("application/json"), b"{".to_vec()).await;
    forbidden(refused, "surveys.write");

    app.call_as(&editor, "POST", "/surveys", Some(body.clone())).await.expect(201);
    app.call_as(&editor, "GET", &format!("/surveys/{survey}/copy"), None).await.expect(200);
    let sendout = json!({"name": "Spring", "type": "EMAIL", "startDate": "2031-03-01", "endDate": "2031-03-31"});
    let path = format!("/surveys/{survey}/sendouts");
    forbidden(app.call_as(&editor, "POST", &path, Some(sendout)).await, "distribution.write");
    forbidden(app.call_as(&editor, "GET", &format!("/surveys/{survey}/results"), None).await, "answers.read");

    app.call_as(&analyst, "GET", &format!("/surveys/{survey}/results"), None).await.expect(200);
    forbidden(app.call_as(&analyst, "POST", "/surveys", Some(body)).await, "surveys.write");
    assert_eq!(
        app.get("/surveys").await.expect(200).as_array().unwrap().len(),
        3,
        "the sample, the editor's, the copy"
    );
}

#[tokio::test]
async fn a_read_only_key_reads_and_changes_nothing() {
    let app = spawn_app().await;
    let owner = app.get("/accounts/users").await.expect(200)[0]["userId"].as_i64().unwrap();
    let made = app.post(&format!("/accounts/users/{owner}/keys"), json!({"name": "audit", "readOnly": true})).await;
    let key = made.expect(201)["apiKey"].as_str().unwrap().to_owned();

    app.call_as(&key, "GET", "/surveys", None).await.expect(200);
    app.call_as(&key, "GET", "/accounts/keys", None).await.expect(200);
    let refused = app.call_as(&key, "POST", "/surveys", Some(crate::helpers::sample_survey_body())).await;
    let body = refused.problem(403, "/forbidden");
    assert!(body["detail"].as_str().unwrap().contains("read-only"), "{body}");
    let refused = app.call_as(
        &key,
        "POST",
        "/accounts/users",
        Some(json!({"name": "X", "email": "x@acme.example", "role": "viewer"})),
    );
    refused.await.problem(403, "/forbidden");
    assert_eq!(app.get("/surveys").await.expect(200), json!([]));
    assert_eq!(app.get("/accounts/users").await.expect(200).as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn keys_are_listed_without_their_secret_and_revoked_or_deactivated_ones_answer_401_at_once() {
    let app = spawn_app().await;
    let (ann, first) = member(&app, "ann@acme.example", "analyst", json!({"name": "one"})).await;
    let in_a_day = (time::OffsetDateTime::now_utc() + time::Duration::days(1))
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap();
    let made = app.post(&format!("/accounts/users/{ann}/keys"), json!({"name": "two", "expiresAt": in_a_day})).await;
    let made = made.expect(201);
    let second = made["apiKey"].as_str().unwrap().to_owned();
    assert_eq!((made["prefix"].as_str(), made["userId"].as_i64()), (Some(&second[..16]), Some(ann)));
    assert!(made["expiresAt"].is_string() && made["lastUsedAt"].is_null() && made["readOnly"] == false);

    app.call_as(&first, "GET", "/surveys", None).await.expect(200);
    app.call_as(&second, "GET", "/surveys", None).await.expect(200);
    let keys = app.get("/accounts/keys").await.expect(200);
    assert_eq!(keys.as_array().unwrap().len(), 3, "the owner's, and Ann's two");
    assert!(keys.as_array().unwrap().iter().all(|key| key.get("apiKey").is_none()), "{keys}");
    assert!(keys[1]["lastUsedAt"].is_string(), "used once: {keys}");

    app.delete(&format!("/accounts/keys/{}", &second[..16])).await.expect(204);
    app.call_as(&second, "GET", "/surveys", None).await.problem(401, "/unauthorized");
    app.delete(&format!("/accounts/keys/{}", &second[..16])).await.problem(404, "/not-found");
    let bad = app.delete("/accounts/keys/cvs_XYZ").await;
    assert_eq!(bad.fields(), ["prefix"]);
    app.call_as(&first, "GET", "/surveys", None).await.expect(200);

    let off = app.call("PATCH", &format!("/accounts/users/{ann}"), Some(json!({"active": false}))).await.expect(200);
    assert_eq!(off["active"], false);
    app.call_as(&first, "GET", "/surveys", None).await.problem(401, "/unauthorized");
}

#[tokio::test]
async fn only_an_owner_touches_owners_and_the_last_owner_stays() {
    let app = spawn_app().await;
    let owner = app.get("/accounts/users").await.expect(200)[0]["userId"].as_i64().unwrap();
    let (_, admin) = member(&app, "admin@acme.example", "admin", json!({"name": "admin"})).await;

    let new_owner = json!({"name": "O", "email": "o2@acme.example", "role": "owner"});
    app.call_as(&admin, "POST", "/accounts/users", Some(new_owner.clone())).await.problem(403, "/forbidden");
    let demote = json!({"role": "viewer"});
    let path = format!("/accounts/users/{owner}");
    app.call_as(&admin, "PATCH", &path, Some(demote.clone())).await.problem(403, "/forbidden");
    let keys = format!("/accounts/users/{owner}/keys");
    app.call_as(&admin, "POST", &keys, Some(json!({"name": "mine"}))).await.problem(403, "/forbidden");
    app.call_as(&admin, "DELETE", &format!("/accounts/keys/{}", &app.key[..16]), None).await.problem(403, "/forbidden");
    let analyst = json!({"name": "A", "email": "a@acme.example", "role": "analyst"});
    app.call_as(&admin, "POST", "/accounts/users", Some(analyst)).await.expect(201);

    app.call("PATCH", &path, Some(demote.clone())).await.problem(409, "/last-owner");
    app.call("PATCH", &path, Some(json!({"active": false}))).await.problem(409, "/last-owner");
    app.post("/accounts/users", new_owner).await.expect(201);
    assert_eq!(app.call("PATCH", &path, Some(demote)).await.expect(200)["role"], "viewer");
}

#[tokio::test]
async fn bad_input_and_another_accounts_users_and_keys_change_nothing() {
    let app = spawn_app().await;
    let (_, other_key) = app.new_account("Other", "owner@other.example");
    let other_user = app.call_as(&other_key, "GET", "/accounts/users", None).await.expect(200)[0]["userId"].clone();

    let unknown =
        app.post("/accounts/users", json!({"name": "S", "email": "s@acme.example", "role": "superuser"})).await;
    let body = unknown.problem(400, "/validation");
    assert_eq!(body["errors"][0]["field"], "role");
    assert_eq!(body["supportedValues"].as_array().unwrap().len(), 6, "{body}");
    let twice = json!({"name": "Owner", "email": "OWNER@acme.example", "role": "viewer"});
    app.post("/accounts/users", twice).await.problem(409, "/duplicate");
    let missing = app.post("/accounts/users", json!({"name": " ", "email": "no address", "role": "viewer"})).await;
    assert_eq!(missing.fields(), ["name", "email"]);

    app.get(&format!("/accounts/users/{other_user}")).await.problem(404, "/not-found");
    let path = format!("/accounts/users/{other_user}");
    app.call("PATCH", &path, Some(json!({"active": false}))).await.problem(404, "/not-found");
    app.post(&format!("{path}/keys"), json!({"name": "x"})).await.problem(404, "/not-found");
    app.delete(&format!("/accounts/keys/{}", &other_key[..16])).await.problem(404, "/not-found");
    let past = app
        .post(
            &format!("/accounts/users/{}/keys", app.get("/accounts/users").await.expect(200)[0]["userId"]),
            json!({"name": "", "expiresAt": "2020-01-01T00:00:00Z"}),
        )
        .await;
    assert_eq!(past.fields(), ["name", "expiresAt"]);

    app.call_as(&other_key, "GET", "/surveys", None).await.expect(200);
    assert_eq!(app.get("/accounts/users").await.expect(200).as_array().unwrap().len(), 1);
    assert_eq!(app.get("/accounts/keys").await.expect(200).as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn a_viewer_reads_every_contact_detail_as_null_and_no_answers() {
    let app = spawn_app().await;
    let (_, viewer) = member(&app, "viewer@acme.example", "viewer", json!({"name": "look"})).await;
    let person = json!({"contactDetails": "ann@example.com", "sendMail": false});
    let sendout = json!({"name": "Spring", "type": "LOGIN", "startDate": "2031-03-01", "endDate": "2031-03-31"});
    let body = crate::helpers::sample_survey_body();
    let (survey, base, _, respondent) = app.one_respondent_sendout(&app.key, body, sendout, person).await;
    let contact =
        app.post("/contacts", json!({"email": "bo@example.com", "firstName": "Bo", "attributes": {"team": "A"}}));
    let contact = contact.await.expect(201)["contactId"].as_i64().unwrap();
    app.post("/accounts/blocklist", json!({"contactDetails": "cy@example.com", "type": "Blocked"})).await.expect(201);

    let city = app.post(&format!("{base}/labels"), json!({"name": "City", "labelType": "Text"})).await.expect(201);
    let city = city["labelId"].as_i64().unwrap().to_string();
    let respondents = format!("{base}/respondents");
    let dee = json!({"contactDetails": "dee@example.com", "sendMail": false, "backgroundData": {city.clone(): "Oslo"}});
    app.post(&respondents, dee).await.expect(201);
    let owner_sees = app.get(&respondents).await.expect(200);
    assert_eq!(
        (&owner_sees[0]["contactDetails"], &owner_sees[1]["backgroundData"][&city]),
        (&json!("ann@example.com"), &json!("Oslo"))
    );
    let viewer_sees = app.call_as(&viewer, "GET", &respondents, None).await.expect(200);
    assert_eq!(viewer_sees[0]["respondentId"], respondent["respondentId"]);
    for seen in viewer_sees.as_array().unwrap() {
        assert!(seen["contactDetails"].is_null() && seen["lastDeliveryError"].is_null(), "{seen}");
        assert_eq!(seen["backgroundData"], json!({}));
    }

    let listed = app.call_as(&viewer, "GET", "/contacts", None).await.expect(200);
    let one = app.call_as(&viewer, "GET", &format!("/contacts/{contact}"), None).await.expect(200);
    for seen in [&listed["contacts"][0], &one] {
        assert_eq!(seen["contactId"], contact);
        assert!(["email", "phone", "firstName", "lastName"].iter().all(|field| seen[field].is_null()), "{seen}");
        assert_eq!(seen["attributes"], json!({}));
    }
    assert_eq!(app.get(&format!("/contacts/{contact}")).await.expect(200)["firstName"], "Bo");

    let blocked = app.call_as(&viewer, "GET", "/accounts/blocklist", None).await.expect(200);
    assert!(blocked[0]["contactDetails"].is_null() && blocked[0]["type"] == "Blocked", "{blocked}");
    assert_eq!(app.get("/accounts/blocklist").await.expect(200)[0]["contactDetails"], "cy@example.com");

    let events = format!("{respondents}/{}/events", respondent["respondentId"]);
    let timeline = app.call_as(&viewer, "GET", &events, None).await.expect(200);
    assert!(timeline.as_array().unwrap().iter().all(|event| event["detail"].is_null()), "{timeline}");

    let export = format!("/surveys/{survey}/answers/export");
    forbidden(app.call_as(&viewer, "GET", &export, None).await, "answers.read");
    forbidden(app.call_as(&viewer, "GET", &format!("/surveys/{survey}/report"), None).await, "answers.read");
}
