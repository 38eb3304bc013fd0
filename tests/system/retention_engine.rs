//! The retention engine, driven by its `now` argument (never by sleeping): rules at three scopes with a paused
//! fallback, answers preserved, partial and complete deletes, excluded labels kept, idempotent runs.
//! A system test: the engine is run here on the store at the `now` each step needs, and the outbox read and a
//! failing trigger planted with SQL.

use canvass_domain::governance::RunTrigger;
use canvass_domain::ports::StoreExt;
use canvass_domain::use_cases::retention::RetentionSummary;
use serde_json::{json, Value};
use time::{Duration, OffsetDateTime};

use crate::helpers::{answered, email_sendout, item_id, spawn_app, TestApp};

const ACTION: &str = "RemoveRespondentDataWithoutAnswers";

fn run(app: &TestApp, now: OffsetDateTime, dry_run: bool) -> RetentionSummary {
    app.db
        .store()
        .with_uow(|uow| canvass_server::jobs::retention::run_once(uow, now, dry_run, true, RunTrigger::Command))
        .unwrap()
}

/// The statuses of the outbox's messages, oldest first.
fn outbox_statuses(app: &TestApp) -> Vec<String> {
    use diesel::prelude::*;
    #[derive(QueryableByName)]
    struct Row {
        #[diesel(sql_type = diesel::sql_types::Text)]
        status: String,
    }
    let rows: Vec<Row> =
        diesel::sql_query("SELECT status FROM outbox ORDER BY id").load(&mut app.db.connect()).unwrap();
    rows.into_iter().map(|row| row.status).collect()
}

async fn respondent_count(app: &TestApp, survey: i64, sendout: i64) -> usize {
    app.get(&format!("/surveys/{survey}/sendouts/{sendout}/respondents")).await.expect(200).as_array().unwrap().len()
}

#[tokio::test]
async fn the_most_specific_active_rule_removes_respondents_and_keeps_answers() {
    let app = spawn_app().await;
    let now = OffsetDateTime::now_utc();
    let (survey, tree) = app.sample_survey().await;
    let (other_survey, other_tree) = app.sample_survey().await;
    let (paused_sendout, r1, set1) = answered(&app, survey, &tree, "a@example.com").await;
    let (plain_sendout, r2, _) = answered(&app, survey, &tree, "b@example.com").await;
    let (other_sendout, _, _) = answered(&app, other_survey, &other_tree, "c@example.com").await;
    let rule = |days: i64, status: &str| Some(json!({"action": ACTION, "retentionDays": days, "status": status}));
    app.v1_5("POST", "/data-retention/rules/account", rule(30, "Active")).await.expect(200);
    app.v1_5("POST", &format!("/data-retention/rules/surveys/{survey}"), rule(10, "Active")).await.expect(200);
    app.v1_5("POST", &format!("/data-retention/rules/surveys/{survey}/sendouts/{paused_sendout}"), rule(5, "Paused"))
        .await
        .expect(200);

    assert_eq!(run(&app, now + Duration::days(6), false).respondents_removed, 0, "the paused 5-day rule is skipped");
    let dry = run(&app, now + Duration::days(11), true);
    assert_eq!((dry.respondents_removed, dry.dry_run), (2, true));
    assert_eq!(respondent_count(&app, survey, paused_sendout).await, 1, "a dry run changes nothing");
    assert_eq!(run(&app, now + Duration::days(11), false).respondents_removed, 2, "the survey's 10-day rule applies");
    assert_eq!(respondent_count(&app, survey, paused_sendout).await, 0);
    assert_eq!(respondent_count(&app, survey, plain_sendout).await, 0);
    assert_eq!(respondent_count(&app, other_survey, other_sendout).await, 1, "the account's 30 days are not over");
    assert_eq!(
        run(&app, now + Duration::days(11), false),
        RetentionSummary { ran: true, ..Default::default() },
        "a second run changes nothing"
    );

    for respondent in [r1, r2] {
        app.get(&format!("/surveys/{survey}/answers/respondent/{respondent}")).await.problem(404, "/not-found");
    }
    let sets = app.get(&format!("/surveys/{survey}/answers")).await.expect(200);
    assert_eq!(sets.as_array().unwrap().len(), 2, "answer sets stay");
    assert!(sets.as_array().unwrap().iter().all(|s| s["respondentId"].is_null()));
    let with_data = app.get(&format!("/surveys/{survey}/answersWithData")).await.expect(200);
    assert_eq!(with_data["answerSets"][0]["answers"][0]["value"], "yes");
    assert_eq!(app.get(&format!("/surveys/{survey}/answers/{set1}")).await.expect(200)["respondentId"], Value::Null);

    assert_eq!(run(&app, now + Duration::days(31), false).respondents_removed, 1);
    assert_eq!(respondent_count(&app, other_survey, other_sendout).await, 0);
}

#[tokio::test]
async fn policies_erase_then_delete_and_keep_excluded_labels() {
    let app = spawn_app().await;
    let end = OffsetDateTime::now_utc() + Duration::days(1);
    let end_text = end.format(&time::format_description::well_known::Rfc3339).unwrap();
    let mut body = crate::helpers::sample_survey_body();
    body["endDate"] = json!(end_text);
    let survey = app.post("/surveys", body.clone()).await.expect(201)["surveyId"].as_i64().unwrap();
    let excluded = app.post("/surveys", body).await.expect(201)["surveyId"].as_i64().unwrap();
    let tree = app.get(&format!("/surveys/{survey}/questions")).await.expect(200);
    let sendout = app.post(&format!("/surveys/{survey}/sendouts"), email_sendout()).await.expect(201)["sendoutId"]
        .as_i64()
        .unwrap();
    let base = format!("/surveys/{survey}/sendouts/{sendout}");
    let city = app.post(&format!("{base}/labels"), json!({"name": "City", "labelType": "Text"})).await.expect(201)
        ["labelId"]
        .as_i64()
        .unwrap();
    let age = app.post(&format!("{base}/labels"), json!({"name": "Age", "labelType": "Number"})).await.expect(201)
        ["labelId"]
        .as_i64()
        .unwrap();
    let respondent = json!({"contactDetails": "a@example.com", "sendMail": true,
        "backgroundData": {city.to_string(): "Oslo", age.to_string(): "41"}});
    let respondent =
        app.post(&format!("{base}/respondents"), respondent).await.expect(201)["respondentId"].as_i64().unwrap();
    let answers = json!({"respondentId": respondent, "answers": [
        {"questionItemId": item_id(&tree, 0, 0), "value": "yes"}, {"questionItemId": item_id(&tree, 2, 0), "value": "my secret"}]});
    let set = app.post(&format!("/surveys/{survey}/answers"), answers.clone()).await.expect(201)["answerSetId"]
        .as_i64()
        .unwrap();
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    let excluded_tree = app.get(&format!("/surveys/{excluded}/questions")).await.expect(200);
    let kept_answers = json!({"answers": [{"questionItemId": item_id(&excluded_tree, 2, 0), "value": "kept"}]});
    app.post(&format!("/surveys/{excluded}/answers"), kept_answers).await.expect(201);

    app.post(
        "/data-retention/account",
        json!({"partialDeleteAfterDays": 1, "completeDeleteAfterDays": 100,
        "includeOpenTextInPartialDelete": true}),
    )
    .await
    .expect(200);
    app.post(&format!("/data-retention/surveys/{survey}"), json!({"excludedBgDataLabelIds": [city]})).await.expect(200);
    app.post(&format!("/data-retention/surveys/{excluded}"), json!({"excludeFromRetentionPolicies": true}))
        .await
        .expect(200);

    assert_eq!(run(&app, end + Duration::hours(12), false).respondents_erased, 0, "not yet a day after the end");
    let partial = run(&app, end + Duration::days(2), false);
    assert_eq!((partial.respondents_erased, partial.open_text_answers_removed), (1, 1));
    let erased = &app.get(&format!("{base}/respondents")).await.expect(200)[0];
    assert_eq!(erased["contactDetails"], "");
    assert_eq!(erased["backgroundData"], json!({city.to_string(): "Oslo"}), "the excluded label is kept");
    assert_eq!(outbox_statuses(&app), ["Cancelled"], "an erased respondent's queued invitation is not sent");
    let remaining = app.get(&format!("/surveys/{survey}/answers/{set}")).await.expect(200)["answers"].clone();
    assert_eq!(remaining, json!([{"questionItemId": item_id(&tree, 0, 0), "value": "yes"}]), "closed answers stay");
    let again = run(&app, end + Duration::days(2), false);
    assert_eq!((again.respondents_erased, again.open_text_answers_removed), (0, 0), "a second run changes nothing");

    let complete = run(&app, end + Duration::days(101), false);
    assert_eq!((complete.answer_sets_removed, complete.survey_respondents_removed), (1, 1));
    assert_eq!(app.get(&format!("/surveys/{survey}/answers")).await.expect(200), json!([]));
    assert_eq!(app.get(&format!("{base}/respondents")).await.expect(200), json!([]));
    assert_eq!(
        app.get(&format!("/surveys/{excluded}/answersWithData")).await.expect(200)["answerSets"][0]["answers"][0]
            ["value"],
        "kept"
    );
}

#[tokio::test]
async fn two_runs_never_overlap() {
    let app = spawn_app().await;
    // One connection: the lock is the session's, and outlives the unit of work that took it.
    let holder = app.db.store();
    assert!(holder.with_uow(|uow| Ok(uow.lock_retention(true)?)).unwrap());
    let now = OffsetDateTime::now_utc();
    let skipped = app
        .db
        .store()
        .with_uow(|uow| canvass_server::jobs::retention::run_once(uow, now, false, false, RunTrigger::Command))
        .unwrap();
    assert!(!skipped.ran, "the timer's run gives up while another run holds the lock");

    let store = app.db.store();
    let waiting = std::thread::spawn(move || {
        store
            .with_uow(|uow| canvass_server::jobs::retention::run_once(uow, now, false, true, RunTrigger::Command))
            .unwrap()
    });
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(!waiting.is_finished(), "`retention run` waits for the running job");
    holder.with_uow(|uow| Ok(uow.unlock_retention()?)).unwrap();
    assert!(waiting.join().unwrap().ran);
}

#[tokio::test]
async fn one_accounts_failure_does_not_stop_the_others() {
    use diesel::RunQueryDsl;
    let app = spawn_app().await;
    let now = OffsetDateTime::now_utc();
    let (other_account, other_key) = app.new_account("Other", "other@example.com");
    let rule = Some(json!({"action": ACTION, "retentionDays": 1}));
    let mut sendouts = Vec::new();
    for key in [&app.key, &other_key] {
        let survey = app.call_as(key, "POST", "/surveys", Some(json!({"name": "Pulse"}))).await.expect(201);
        let survey = survey["surveyId"].as_i64().unwrap();
        let sendout =
            app.call_as(key, "POST", &format!("/surveys/{survey}/sendouts"), Some(email_sendout())).await.expect(201);
        let base = format!("/surveys/{survey}/sendouts/{}", sendout["sendoutId"]);
        let person = json!({"contactDetails": "a@example.com", "sendMail": true});
        app.call_as(key, "POST", &format!("{base}/respondents"), Some(person)).await.expect(201);
        app.versioned(key, "v1.5", "POST", "/data-retention/rules/account", rule.clone()).await.expect(200);
        sendouts.push((key.clone(), base));
    }
    // The other account's respondents cannot be deleted: its part of the run fails. On a Citus cluster a trigger on
    // a distributed table needs `citus.enable_unsafe_triggers` (plain PostgreSQL takes the setting as a
    // placeholder), and each statement goes alone: Citus sends a command's whole text on to the workers.
    let mut conn = app.db.connect();
    for statement in [
        "SET citus.enable_unsafe_triggers = on".to_owned(),
        "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk trouble'; END $$"
            .to_owned(),
        format!(
            "CREATE TRIGGER refuse BEFORE DELETE ON respondents FOR EACH ROW WHEN (OLD.account_id = {other_account}) \
             EXECUTE FUNCTION refuse()"
        ),
    ] {
        diesel::sql_query(statement).execute(&mut conn).unwrap();
    }

    let summary = run(&app, now + Duration::days(2), false);
    assert_eq!(summary.respondents_removed, 1, "the first account's respondent is removed");
    let failed: Vec<i64> = summary.failed_accounts.iter().map(|(account, _)| account.get()).collect();
    assert_eq!(failed, [other_account]);
    for ((key, base), left) in sendouts.iter().zip([0, 1]) {
        let respondents = app.call_as(key, "GET", &format!("{base}/respondents"), None).await.expect(200);
        assert_eq!(respondents.as_array().unwrap().len(), left, "{base}");
    }
    diesel::sql_query("DROP TRIGGER refuse ON respondents").execute(&mut conn).unwrap();
    let retried = run(&app, now + Duration::days(2), false);
    assert_eq!((retried.respondents_removed, retried.failed_accounts.len()), (1, 0), "the next run catches up");
}

#[tokio::test]
async fn every_run_that_ran_is_listed_with_what_it_removed_in_the_callers_account() {
    let app = spawn_app().await;
    let now = OffsetDateTime::now_utc();
    let (survey, tree) = app.sample_survey().await;
    answered(&app, survey, &tree, "a@example.com").await;
    answered(&app, survey, &tree, "b@example.com").await;
    let rule = json!({"action": ACTION, "retentionDays": 10, "status": "Active"});
    app.v1_5("POST", "/data-retention/rules/account", Some(rule)).await.expect(200);
    let (_, other_key) = app.new_account("Other", "owner@other.example");

    run(&app, now + Duration::days(5), false);
    run(&app, now + Duration::days(11), true);
    run(&app, now + Duration::days(11), false);
    let timer = |uow: &mut dyn canvass_domain::ports::UnitOfWork| {
        canvass_server::jobs::retention::run_once(uow, now + Duration::days(12), false, true, RunTrigger::Timer)
    };
    app.db.store().with_uow(timer).unwrap();

    let runs = app.get("/data-retention/runs").await.expect(200);
    let runs = runs.as_array().unwrap();
    assert_eq!(runs.len(), 3, "the dry run is not kept: {runs:?}");
    let triggers: Vec<&str> = runs.iter().map(|r| r["trigger"].as_str().unwrap()).collect();
    assert_eq!(triggers, ["timer", "command", "command"], "newest first");
    let removed: Vec<i64> = runs.iter().map(|r| r["respondentsRemoved"].as_i64().unwrap()).collect();
    assert_eq!(removed, [0, 2, 0]);
    assert!(runs[1]["startedAt"].as_str() <= runs[1]["finishedAt"].as_str() && runs[1]["failed"] == false);

    let theirs = app.call_as(&other_key, "GET", "/data-retention/runs?limit=2", None).await.expect(200);
    let theirs = theirs.as_array().unwrap();
    assert_eq!(theirs.len(), 2);
    assert!(theirs.iter().all(|r| r["respondentsRemoved"] == 0), "another account's figures are its own: {theirs:?}");
    assert_eq!(app.get("/data-retention/runs?limit=0").await.fields(), ["limit"]);
    assert_eq!(app.get("/data-retention/runs?limit=1001").await.fields(), ["limit"]);
}
