//! `POST /accounts/erasure`: one person erased across every sendout of the account, answers kept or deleted, the
//! blocklist kept, repeats harmless, other accounts untouched.

use serde_json::{json, Value};

use crate::helpers::{answered, erased_counts, spawn_app, TestApp};

const PERSON: &str = "Kari.Nordmann@Example.com";

/// The person in two sendouts of two surveys, written in different case, each with an answer set, beside another
/// respondent who answered too; returns the person's answer sets and the other's, as `(survey, set)` pairs.
async fn two_sendouts(app: &TestApp) -> (Vec<(i64, i64)>, (i64, i64), [(i64, i64); 2]) {
    let (first, first_tree) = app.sample_survey().await;
    let (second, second_tree) = app.sample_survey().await;
    let (sendout_a, _, set_a) = answered(app, first, &first_tree, PERSON).await;
    let (sendout_b, _, set_b) = answered(app, second, &second_tree, "kari.nordmann@EXAMPLE.COM").await;
    let other = app
        .post(
            &format!("/surveys/{first}/sendouts/{sendout_a}/respondents"),
            json!({"contactDetails": "ola@example.com", "sendMail": true}),
        )
        .await
        .expect(201)["respondentId"]
        .as_i64()
        .unwrap();
    let answers = json!({"respondentId": other, "answers": [{"questionItemId": crate::helpers::item_id(&first_tree, 0, 0), "value": "no"}]});
    let other_set =
        app.post(&format!("/surveys/{first}/answers"), answers).await.expect(201)["answerSetId"].as_i64().unwrap();
    (vec![(first, set_a), (second, set_b)], (first, other_set), [(first, sendout_a), (second, sendout_b)])
}

async fn contacts(app: &TestApp, (survey, sendout): (i64, i64)) -> Vec<Value> {
    let list = app.get(&format!("/surveys/{survey}/sendouts/{sendout}/respondents")).await.expect(200);
    list.as_array().unwrap().iter().map(|r| r["contactDetails"].clone()).collect()
}

async fn respondent_count(app: &TestApp, (survey, sendout): (i64, i64)) -> Value {
    app.get(&format!("/surveys/{survey}/sendouts/{sendout}")).await.expect(200)["respondentCount"].clone()
}

#[tokio::test]
async fn the_person_goes_from_every_sendout_whatever_the_case_and_their_answers_stay_without_them() {
    let app = spawn_app().await;
    let (sets, other_set, sendouts) = two_sendouts(&app).await;
    app.post("/accounts/blocklist", json!({"contactDetails": PERSON, "type": "OptedOut"})).await.expect(201);
    let failure = json!({"failures": [{"emailAddress": "kari.nordmann@example.com", "sendingDomain": "acme.example",
        "failedAt": "2020-11-20T10:00:00Z", "reason": "550 no such user"}]});
    app.post("/email-bounces/permanent-failures", failure).await.expect(200);

    let erased =
        app.post("/accounts/erasure", json!({"contactDetails": "KARI.nordmann@example.com"})).await.expect(200);
    assert_eq!(erased_counts(erased), json!({"respondentsErased": 2, "answerSetsDeleted": 0}));

    assert_eq!(contacts(&app, sendouts[0]).await, [json!("ola@example.com")]);
    assert!(contacts(&app, sendouts[1]).await.is_empty());
    assert_eq!(respondent_count(&app, sendouts[0]).await, 1, "the stored count follows");
    for (survey, set) in sets {
        let kept = app.get(&format!("/surveys/{survey}/answers/{set}")).await.expect(200);
        assert_eq!(kept["respondentId"], Value::Null, "the answers stay, without the person");
        assert!(!kept["answers"].as_array().unwrap().is_empty());
    }
    let other = app.get(&format!("/surveys/{}/answers/{}", other_set.0, other_set.1)).await.expect(200);
    assert!(other["respondentId"].is_i64(), "another respondent keeps their answers and link");
    let blocklist = app.get("/accounts/blocklist").await.expect(200);
    assert_eq!(blocklist[0]["contactDetails"], PERSON, "the blocklist entry stays, so they are never contacted");
    let failures = app.get("/email-bounces/permanent-failures?pageNumber=1&pageSize=10").await.expect(200);
    assert_eq!(failures["totalCount"], 0, "the bounce records held the address");

    let again = app.post("/accounts/erasure", json!({"contactDetails": PERSON})).await.expect(200);
    assert_eq!(erased_counts(again), json!({"respondentsErased": 0, "answerSetsDeleted": 0}), "a repeat is harmless");
}

#[tokio::test]
async fn with_include_answers_the_answer_sets_go_too() {
    let app = spawn_app().await;
    let (sets, other_set, _) = two_sendouts(&app).await;

    let body = json!({"contactDetails": PERSON, "includeAnswers": true});
    let erased = app.post("/accounts/erasure", body.clone()).await.expect(200);
    assert_eq!(erased_counts(erased), json!({"respondentsErased": 2, "answerSetsDeleted": 2}));
    for (survey, set) in sets {
        app.get(&format!("/surveys/{survey}/answers/{set}")).await.expect(404);
    }
    app.get(&format!("/surveys/{}/answers/{}", other_set.0, other_set.1)).await.expect(200);
    assert_eq!(app.post("/accounts/erasure", body).await.expect(200)["answerSetsDeleted"], 0);
}

#[tokio::test]
async fn another_account_with_the_same_contact_is_untouched() {
    let app = spawn_app().await;
    let (_, other_key) = app.new_account("Globex", "owner@globex.example");
    let (_, _, sendouts) = two_sendouts(&app).await;

    let call = |body: Value| app.call_as(&other_key, "POST", "/accounts/erasure", Some(body));
    let erased = call(json!({"contactDetails": PERSON, "includeAnswers": true})).await.expect(200);
    assert_eq!(erased_counts(erased), json!({"respondentsErased": 0, "answerSetsDeleted": 0}));
    assert_eq!(contacts(&app, sendouts[0]).await.len(), 2, "the first account keeps its respondents");
    assert_eq!(contacts(&app, sendouts[1]).await.len(), 1);
}

#[tokio::test]
async fn a_missing_or_empty_contact_is_a_400_naming_the_field() {
    let app = spawn_app().await;
    for body in [json!({}), json!({"contactDetails": ""}), json!({"contactDetails": "  "})] {
        let problem = app.post("/accounts/erasure", body).await.problem(400, "/validation");
        assert!(problem["errors"].to_string().contains("contactDetails"), "{problem}");
    }
    let problem = app.post("/accounts/erasure", json!({"contactDetails": PERSON, "includeAnswers": "yes"})).await;
    assert!(problem.problem(400, "/validation")["errors"].to_string().contains("includeAnswers"));
}

/// POSTs `body` to `/api/v1{path}` with the key of `api_key` and `idempotency_key`; returns the status, whether it
/// was replayed and the JSON body.
async fn keyed(app: &TestApp, api_key: &str, path: &str, idempotency_key: &str, body: Value) -> (u16, bool, Value) {
    let reply = app.post_keyed_as(api_key, path, idempotency_key, &body).await;
    let (status, replayed) = (reply.status.as_u16(), reply.replayed());
    if status == 410 {
        let content_type = reply.headers.get("content-type").and_then(|v| v.to_str().ok());
        assert_eq!(content_type, Some("application/problem+json"), "{}", reply.body);
    }
    (status, replayed, reply.body)
}

#[tokio::test]
async fn a_keyed_request_that_added_the_person_is_not_carried_out_again_after_the_erasure() {
    let app = spawn_app().await;
    let (other_account, other_key) = app.new_account("Globex", "owner@globex.example");
    let (survey, tree) = app.sample_survey().await;
    let (sendout, _, _) = answered(&app, survey, &tree, "ola@example.com").await;
    let path = format!("/surveys/{survey}/sendouts/{sendout}/respondents");
    let person = json!({"contactDetails": PERSON, "sendMail": true});
    assert_eq!(keyed(&app, &app.key, &path, "add-kari", person.clone()).await.0, 201);
    let failure = json!({"failures": [{"emailAddress": "KARI.NORDMANN@example.com", "sendingDomain": "acme.example",
        "failedAt": "2020-11-20T10:00:00Z", "reason": "550 5.1.1 <kari.nordmann@EXAMPLE.com>: no such user"}]});
    let bounces = "/email-bounces/permanent-failures";
    assert_eq!(keyed(&app, &app.key, bounces, "bounce", failure.clone()).await.0, 200);
    let bystander = json!({"contactDetails": "nils@example.com", "sendMail": true});
    assert_eq!(keyed(&app, &app.key, &path, "add-nils", bystander.clone()).await.0, 201);
    // The other account adds the same person under the same key: its keys are its own.
    let (_, other_base, _, _) = app
        .one_respondent_sendout(
            &other_key,
            json!({"name": "Other"}),
            crate::helpers::email_sendout(),
            json!({"contactDetails": "someone@example.com", "sendMail": true}),
        )
        .await;
    let other_path = format!("{other_base}/respondents");
    assert_eq!(keyed(&app, &other_key, &other_path, "add-kari", person.clone()).await.0, 201);
    assert_ne!(other_account, app.account_id);

    let erased = app.post("/accounts/erasure", json!({"contactDetails": "kari.nordmann@example.com"})).await;
    assert_eq!(
        erased_counts(erased.expect(200)),
        json!({"respondentsErased": 1, "answerSetsDeleted": 0}),
        "no field but the receipt is added"
    );

    let (status, replayed, problem) = keyed(&app, &app.key, &path, "add-kari", person.clone()).await;
    assert_eq!((status, replayed), (410, false), "{problem}");
    assert!(problem["type"].as_str().unwrap().ends_with("/idempotency-answer-erased"), "{problem}");
    assert_eq!(problem["status"], 410);
    assert!(!problem.to_string().to_lowercase().contains("kari"), "the problem names no one: {problem}");
    assert_eq!(contacts(&app, (survey, sendout)).await, [json!("ola@example.com"), json!("nils@example.com")]);
    // The recorded failure's answer (`{"recorded": 1}`) holds no one: it is replayed, and records nothing again.
    let (status, replayed, _) = keyed(&app, &app.key, bounces, "bounce", failure).await;
    assert_eq!((status, replayed), (200, true));
    let failures = app.get("/email-bounces/permanent-failures?pageNumber=1&pageSize=10").await.expect(200);
    assert_eq!(failures["totalCount"], 0, "the failure holding the address is gone and stays gone");
    let (status, _, _) = keyed(&app, &app.key, &path, "add-kari", json!({"contactDetails": "x@example.com"})).await;
    assert_eq!(status, 422, "another request with the key is still a mismatch");
    let (status, replayed, _) = keyed(&app, &app.key, &path, "add-nils", bystander).await;
    assert_eq!((status, replayed), (201, true), "a kept answer without the person is replayed");
    let (status, replayed, _) = keyed(&app, &other_key, &other_path, "add-kari", person).await;
    assert_eq!((status, replayed), (201, true), "only the erasing account's kept answers are touched");
}

#[tokio::test]
async fn an_erasure_leaves_a_receipt_of_when_who_and_what_but_never_whom() {
    let app = spawn_app().await;
    two_sendouts(&app).await;
    let erased = app.post("/accounts/erasure", json!({"contactDetails": PERSON, "includeAnswers": true}));
    let receipt_id = erased.await.expect(200)["receiptId"].as_i64().unwrap();

    let receipt = app.get(&format!("/accounts/erasures/{receipt_id}")).await.expect(200);
    assert_eq!(receipt["receiptId"], receipt_id);
    assert_eq!((receipt["respondentsErased"].as_i64(), receipt["answerSetsDeleted"].as_i64()), (Some(2), Some(2)));
    assert_eq!(
        (receipt["includeAnswers"].as_bool(), receipt["actor"]["keyPrefix"].as_str()),
        (Some(true), Some(&app.key[..16]))
    );
    assert!(receipt["at"].is_string() && receipt["actor"]["userId"].is_i64());
    assert!(!receipt.to_string().to_lowercase().contains("kari"), "the receipt names no one: {receipt}");

    let (_, other_key) = app.new_account("Other", "owner@other.example");
    let path = format!("/accounts/erasures/{receipt_id}");
    app.call_as(&other_key, "GET", &path, None).await.problem(404, "/not-found");
    app.get("/accounts/erasures/999999").await.problem(404, "/not-found");
    assert_eq!(app.get("/accounts/erasures/first").await.fields(), ["path"]);
}

#[tokio::test]
async fn what_is_held_on_a_person_is_one_document_and_after_an_erasure_only_the_blocklist_holds_them() {
    let app = spawn_app().await;
    let (sets, other_set, _) = two_sendouts(&app).await;
    app.post("/contacts", json!({"email": "KARI.nordmann@example.com", "firstName": "Kari"})).await.expect(201);
    app.post("/accounts/blocklist", json!({"contactDetails": PERSON, "type": "OptedOut"})).await.expect(201);
    let failure = json!({"failures": [{"emailAddress": "kari.nordmann@example.com", "sendingDomain": "acme.example",
        "failedAt": "2020-11-20T10:00:00Z", "reason": "550 no such user"}]});
    app.post("/email-bounces/permanent-failures", failure).await.expect(200);
    let copy = app.get(&format!("/surveys/{}/copy?copyanswers=true", sets[0].0)).await.expect(200);

    let asked = format!("/accounts/persons?contactDetails={}", "Kari.Nordmann%40example.COM");
    let held = app.get(&asked).await.expect(200);
    assert_eq!(held["contactDetails"], "kari.nordmann@example.com");
    assert_eq!(held["contacts"].as_array().unwrap().len(), 1);
    assert_eq!(held["contacts"][0]["firstName"], "Kari");
    let respondents = held["respondents"].as_array().unwrap();
    assert_eq!(respondents.len(), 2, "both sendouts, whatever the case: {held}");
    let surveys: Vec<i64> = respondents.iter().map(|r| r["surveyId"].as_i64().unwrap()).collect();
    assert_eq!(surveys, [sets[0].0, sets[1].0]);
    for (respondent, (_, set)) in respondents.iter().zip(&sets) {
        assert_eq!(respondent["answerSets"][0]["answerSetId"], *set);
        assert!(respondent["contactDetails"].as_str().unwrap().eq_ignore_ascii_case(PERSON));
        assert!(respondent["events"].is_array());
    }
    assert_eq!(held["copiedAnswerSets"].as_array().unwrap().len(), 1, "the copy of the survey holds one: {copy}");
    assert_eq!(held["blocklist"][0]["type"], "OptedOut");
    assert_eq!(held["permanentFailures"][0]["reason"], "550 no such user");
    assert!(held["pendingMessages"]["invitations"].is_u64());
    assert!(!held.to_string().contains(&format!("\"answerSetId\":{}", other_set.1)), "no one else's answers");

    let nobody = app.get("/accounts/persons?contactDetails=nobody%40example.com").await.expect(200);
    for list in ["contacts", "respondents", "copiedAnswerSets", "blocklist", "permanentFailures"] {
        assert_eq!(nobody[list], json!([]), "{list}");
    }
    assert_eq!(app.get("/accounts/persons?contactDetails=").await.fields(), ["contactDetails"]);
    let (_, other_key) = app.new_account("Other", "owner@other.example");
    let theirs = app.call_as(&other_key, "GET", &asked, None).await.expect(200);
    assert_eq!(theirs["respondents"], json!([]), "another account holds nothing of them");

    app.post("/accounts/erasure", json!({"contactDetails": PERSON, "includeAnswers": true})).await.expect(200);
    let after = app.get(&asked).await.expect(200);
    for list in ["contacts", "respondents", "copiedAnswerSets", "permanentFailures"] {
        assert_eq!(after[list], json!([]), "{list} after the erasure");
    }
    assert_eq!(after["blocklist"].as_array().unwrap().len(), 1, "the blocklist keeps them, so they are never asked");
}
