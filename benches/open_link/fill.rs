//! The benchmark's data: the survey of the crowd and its open link, and an earlier poster of the same account
//! whose visitors have all answered, planted in SQL, so that the crowd meets tables of the size a running service
//! has, with their statistics, rather than empty ones (on those the server's sessions keep the generic plans they
//! chose while the tables were empty; docs/benchmarks.md, "Open links").

use canvass_domain::clock::SystemClock;
use canvass_domain::ports::{StoreExt, UnitOfWork};
use canvass_domain::use_cases::accounts;
use diesel::{Connection, PgConnection};
use serde_json::{json, Value};

use crate::cluster::exec;
use crate::support::JsonApi;
use crate::visitor::THANKS;

/// What the crowd visits.
pub struct Data {
    pub account: i64,
    pub sendout: i64,
    /// The open link's path, `/s/<handle>`.
    pub link: String,
}

/// Two pages of two required items: a SingleChoice and a Rating, then an OpenText and a Numeric.
fn survey_body(name: &str) -> Value {
    let choices = json!([{"value": "good", "label": "Good"}, {"value": "fair", "label": "Fair"},
        {"value": "poor", "label": "Poor"}]);
    json!({"name": name, "description": "Two pages, four questions, one minute.", "thankYouMessage": THANKS,
        "pages": [
            {"title": "Your visit", "items": [
                {"type": "SingleChoice", "text": "How was your visit?", "required": true, "options": choices},
                {"type": "Rating", "text": "How likely are you to recommend us?", "required": true}]},
            {"title": "Tell us more", "items": [
                {"type": "OpenText", "text": "What should we change?", "required": true},
                {"type": "Numeric", "text": "How many minutes did you wait?", "required": true}]}]})
}

/// A survey and its Active LINK sendout (any number of responses per browser): (survey, sendout, open link).
fn poster(api: &JsonApi, name: &str) -> (i64, i64, String) {
    let survey = api.call("POST", "/surveys".into(), Some(survey_body(name)))["surveyId"].as_i64().unwrap();
    let body = json!({"name": name, "type": "LINK", "oneResponsePerBrowser": false});
    let sendout = api.call("POST", format!("/surveys/{survey}/sendouts"), Some(body))["sendoutId"].as_i64().unwrap();
    let activated = api.call("POST", format!("/surveys/{survey}/sendouts/{sendout}/activate"), None);
    (survey, sendout, activated["openLink"].as_str().unwrap().to_owned())
}

/// Makes the account, the earlier poster with `earlier` visitors who answered it, and the crowd's survey and open
/// link, through the server at `base`; the tables analyzed.
pub fn fill(base: &str, database_url: &str, earlier: usize) -> Data {
    let store = canvass_postgres::PgStore::connect_one(database_url).unwrap();
    let create = |uow: &mut dyn UnitOfWork| accounts::create_account(uow, &SystemClock, "Bench", "b@bench.example");
    let created = store.with_uow(create).unwrap();
    let account = created.account_id.get();
    let api = JsonApi::new(base, created.api_key.secret());

    let (old_survey, old_sendout, _) = poster(&api, "Open day 2025");
    let tree = api.call("GET", format!("/surveys/{old_survey}/questions"), None);
    let items: Vec<i64> = tree["pages"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|page| page["items"].as_array().unwrap().iter())
        .map(|item| item["questionItemId"].as_i64().unwrap())
        .collect();
    let values = ["'\"good\"'", "'8'", "'\"Shorter queues, please.\"'", "'12'"];
    let answers: Vec<String> =
        items.iter().zip(values).map(|(item, value)| format!("({item}, {value}::jsonb)")).collect();
    let mut conn = PgConnection::establish(database_url).unwrap();
    // As the start makes them: a token of the account's form (40 hex digits), the contact key made of it.
    exec(
        &mut conn,
        &format!(
            "INSERT INTO respondents (account_id, sendout_id, contact_details, contact_key, send_mail, \
                 background_data, status, token, added_at, released_at) \
             SELECT {account}, {old_sendout}, '', 'visitor:' || token, false, '{{}}', 'Released', token, at, at \
             FROM generate_series(1, {earlier}) AS n, \
                 LATERAL (SELECT '{account}-' || md5(n::text) || left(md5('more' || n), 8) AS token, \
                     now() - interval '400 days' + n * interval '1 minute' AS at) AS visitor"
        ),
    );
    exec(
        &mut conn,
        &format!(
            "UPDATE sendouts SET respondent_count = {earlier} WHERE account_id = {account} AND id = {old_sendout}"
        ),
    );
    exec(
        &mut conn,
        &format!(
            "WITH sets AS ( \
                 INSERT INTO answer_sets (account_id, survey_id, respondent_id, sendout_id, completed, created_at, \
                     updated_at, completed_at) \
                 SELECT {account}, {old_survey}, id, sendout_id, true, added_at + interval '1 minute', \
                     added_at + interval '2 minutes', added_at + interval '2 minutes' \
                 FROM respondents WHERE account_id = {account} AND sendout_id = {old_sendout} ORDER BY id \
                 RETURNING id) \
             INSERT INTO answers (account_id, answer_set_id, question_item_id, value) \
             SELECT {account}, sets.id, item.id, item.value FROM sets CROSS JOIN LATERAL (VALUES {}) AS item (id, value)",
            answers.join(", ")
        ),
    );

    let (_, sendout, link) = poster(&api, "Open day");
    exec(&mut conn, "VACUUM ANALYZE");
    let link = link.strip_prefix(base).expect("the open link is under PUBLIC_URL").to_owned();
    Data { account, sendout, link }
}
