//! The benchmark's data: one survey of `pages` pages of five items (one of each answering type on each; the second
//! page also a Matrix of four rows on a five-point scale and a Ranking of three), one EMAIL
//! sendout of `count` respondents added through the API, and `count` answer sets, one per respondent. Delivery and
//! answering are planted in SQL, as the service would have left them over eleven days: most respondents `Sent` on
//! one of those days, a few `Bounced` or still `Scheduled`, four sets in five completed within two hours of their
//! invitation, a few opted out. Each respondent is in one of 20 teams (a `Team` background data label).

use canvass_domain::clock::SystemClock;
use canvass_domain::ports::{StoreExt, UnitOfWork};
use canvass_domain::use_cases::accounts;
use diesel::{Connection, PgConnection};
use serde_json::{json, Value};

use crate::cluster::exec;
use crate::support::JsonApi;

/// What the endpoints are called with.
pub struct Data {
    pub key: String,
    pub account: i64,
    pub survey: i64,
    pub sendout: i64,
    /// The sendout's `Team` label: each respondent in one of 20 teams.
    pub label: i64,
    /// The survey's items in tree order: (id, type).
    pub items: Vec<(i64, String)>,
}

/// `pages` pages (at least two) of one item of each answering type.
fn survey_body(pages: usize) -> Value {
    let choices = |a: &str, b: &str, c: &str| {
        json!([{"value": a.to_lowercase(), "label": a}, {"value": b.to_lowercase(), "label": b},
            {"value": c.to_lowercase(), "label": c}])
    };
    let page = |n: usize| {
        json!({"title": format!("Page {n}"), "items": [
            {"type": "SingleChoice", "text": format!("How was visit {n}?"), "options": choices("Good", "Fair", "Poor")},
            {"type": "MultipleChoice", "text": format!("What did you use on visit {n}?"),
                "options": choices("Web", "App", "Phone")},
            {"type": "OpenText", "text": format!("Tell us about visit {n}")},
            {"type": "Numeric", "text": format!("Minutes waited on visit {n}")},
            {"type": "Rating", "text": format!("How likely are you to recommend us after visit {n}?")},
        ]})
    };
    let mut second = page(2);
    let items = second["items"].as_array_mut().unwrap();
    items.push(
        json!({"type": "Matrix", "text": "How do you rate our", "rows": MATRIX_ROWS.map(|row| json!({"value": row})),
        "options": [{"value": "1"}, {"value": "2"}, {"value": "3"}, {"value": "4"}, {"value": "5"}]}),
    );
    items.push(json!({"type": "Ranking", "text": "Rank what matters", "options": choices("Price", "Speed", "Staff")}));
    let rest = (3..=pages).map(page);
    let pages: Vec<Value> = [page(1), second].into_iter().chain(rest).collect();
    json!({"name": "Insight bench", "description": "Benchmark survey", "pages": pages})
}

/// The rows of the Matrix item.
pub const MATRIX_ROWS: [&str; 4] = ["speed", "price", "staff", "place"];

/// The stored JSON value of an answer to an item of `kind` in the set `set` (an SQL expression).
fn value_sql(kind: &str, set: &str) -> String {
    match kind {
        "SingleChoice" => format!("to_jsonb((ARRAY['good','fair','poor'])[1 + {set} % 3])"),
        "MultipleChoice" => format!(
            "CASE WHEN {set} % 4 = 0 THEN '[\"web\",\"phone\"]'::jsonb ELSE to_jsonb(ARRAY[(ARRAY['web','app','phone'])[1 + {set} % 3]]) END"
        ),
        "OpenText" => format!("to_jsonb('Visit ' || {set} || ' went well, thanks; \"quick\" and, mostly, on time')"),
        "Numeric" => format!("to_jsonb({set} % 90)"),
        "Matrix" => format!(
            "jsonb_build_object('speed', (1 + {set} % 5)::text, 'price', (1 + {set} / 5 % 5)::text, \
             'staff', (1 + {set} / 25 % 5)::text, 'place', (1 + {set} / 125 % 5)::text)"
        ),
        "Ranking" => format!(
            "(ARRAY['[\"price\",\"speed\",\"staff\"]', '[\"speed\",\"staff\",\"price\"]', \
             '[\"staff\",\"price\",\"speed\"]'])[1 + {set} % 3]::jsonb"
        ),
        _ => format!("to_jsonb({set} % 11)"),
    }
}

/// Fills the database behind the server at `base` with a survey of `pages` pages.
pub fn fill(base: &str, database_url: &str, count: usize, pages: usize) -> Data {
    let store = canvass_postgres::PgStore::connect_one(database_url).unwrap();
    let create = |uow: &mut dyn UnitOfWork| accounts::create_account(uow, &SystemClock, "Bench", "b@bench.example");
    let created = store.with_uow(create).unwrap();
    let key = created.api_key.secret().to_owned();
    let account = created.account_id.get();
    let api = JsonApi::new(base, &key);
    let survey = api.call("POST", "/surveys".into(), Some(survey_body(pages)))["surveyId"].as_i64().unwrap();
    let tree = api.call("GET", format!("/surveys/{survey}/questions"), None);
    let items: Vec<(i64, String)> = tree["pages"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|page| page["items"].as_array().unwrap().iter())
        .map(|item| (item["questionItemId"].as_i64().unwrap(), item["type"].as_str().unwrap().to_owned()))
        .collect();
    let sendout_body = json!({"name": "Wave 1", "type": "EMAIL", "sendDate": "2030-01-01",
        "sender": "hr@bench.example", "subject": "Your view", "message": "Hello, answer here: {{surveyLink}}"});
    let sendout =
        api.call("POST", format!("/surveys/{survey}/sendouts"), Some(sendout_body))["sendoutId"].as_i64().unwrap();
    for start in (0..count).step_by(1000) {
        let people: Vec<Value> = (start..count.min(start + 1000))
            .map(|n| json!({"contactDetails": format!("person{n}@bench.example"), "sendMail": true}))
            .collect();
        let path = format!("/surveys/{survey}/sendouts/{sendout}/respondents/batch");
        api.call("POST", path, Some(json!({"surveyRespondents": people})));
    }
    let team = json!({"name": "Team", "labelType": "Text"});
    let label = api.call("POST", format!("/surveys/{survey}/sendouts/{sendout}/labels"), Some(team))["labelId"]
        .as_i64()
        .unwrap();
    api.call("POST", format!("/surveys/{survey}/sendouts/{sendout}/activate"), None);

    let mut conn = PgConnection::establish(database_url).unwrap();
    let day = "date_trunc('day', now()) - interval '10 days'";
    exec(
        &mut conn,
        &format!("UPDATE sendouts SET activated_at = {day} WHERE account_id = {account} AND id = {sendout}"),
    );
    exec(
        &mut conn,
        &format!(
            "UPDATE respondents SET \
                 status = CASE WHEN id % 50 = 0 THEN 'Bounced' WHEN id % 50 = 1 THEN 'Scheduled' ELSE 'Sent' END, \
                 sent_at = CASE WHEN id % 50 = 1 THEN NULL ELSE {day} + (id % 11) * interval '1 day' + (id % 600) * interval '1 minute' END, \
                 opted_out_at = CASE WHEN id % 97 = 0 THEN {day} + interval '12 days' END, \
                 background_data = jsonb_build_object('{label}', 'Team ' || lpad((id % 20)::text, 2, '0')) \
             WHERE account_id = {account} AND sendout_id = {sendout}"
        ),
    );
    let values: Vec<String> =
        items.iter().map(|(id, kind)| format!("({id}, {})", value_sql(kind, "sets.id"))).collect();
    exec(
        &mut conn,
        &format!(
            "WITH sets AS ( \
                 INSERT INTO answer_sets (account_id, survey_id, respondent_id, sendout_id, completed, created_at, \
                     updated_at, completed_at) \
                 SELECT {account}, {survey}, id, sendout_id, id % 5 <> 0, \
                     coalesce(sent_at, {day}) + interval '5 minutes', coalesce(sent_at, {day}) + interval '20 minutes', \
                     CASE WHEN id % 5 <> 0 THEN coalesce(sent_at, {day}) + (id % 7200) * interval '1 second' END \
                 FROM respondents WHERE account_id = {account} AND sendout_id = {sendout} ORDER BY id \
                 RETURNING id) \
             INSERT INTO answers (account_id, answer_set_id, question_item_id, value) \
             SELECT {account}, sets.id, item.id, item.value \
             FROM sets CROSS JOIN LATERAL (VALUES {}) AS item (id, value)",
            values.join(", ")
        ),
    );
    exec(&mut conn, "VACUUM ANALYZE");
    Data { key, account, survey, sendout, label, items }
}

/// PostgreSQL's own CSV of the same rows pivoted the same way as `values=codes&header=ids`: one row per set in id
/// order, the six fixed columns, then one column per item (MultipleChoice and Ranking codes joined with `; `), a
/// Matrix one per row.
pub fn copy_sql(data: &Data) -> String {
    let columns: Vec<String> = data
        .items
        .iter()
        .flat_map(|(id, kind)| {
            let column = |cell: &str, name: String| {
                format!("max(CASE WHEN a.question_item_id = {id} THEN {cell} END) AS {name}")
            };
            match kind.as_str() {
                "MultipleChoice" | "Ranking" => vec![column(
                    "array_to_string(ARRAY(SELECT jsonb_array_elements_text(a.value)), '; ')",
                    format!("q{id}"),
                )],
                "Matrix" => MATRIX_ROWS
                    .iter()
                    .map(|row| column(&format!("a.value ->> '{row}'"), format!("q{id}_{row}")))
                    .collect(),
                _ => vec![column("a.value #>> '{}'", format!("q{id}"))],
            }
        })
        .collect();
    format!(
        "COPY (SELECT s.id AS \"answerSetId\", s.respondent_id AS \"respondentId\", s.sendout_id AS \"sendoutId\", \
             s.completed, s.created_at AS \"createdAt\", s.updated_at AS \"updatedAt\", {} \
         FROM answer_sets s JOIN answers a ON a.account_id = s.account_id AND a.answer_set_id = s.id \
         WHERE s.account_id = {} AND s.survey_id = {} GROUP BY s.account_id, s.id ORDER BY s.id) TO STDOUT WITH (FORMAT csv, HEADER)",
        columns.join(", "),
        data.account,
        data.survey
    )
}
