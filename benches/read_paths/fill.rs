//! The benchmark's data: an account, a survey of 4 pages of 5 items with its answer sets, a second survey like
//! it to post answers to, and five sendouts of which one holds the respondents. Made through the API, except the
//! answer sets: a few are posted, then copied in SQL up to the count.

use canvass_domain::clock::SystemClock;
use canvass_domain::ports::{StoreExt, UnitOfWork};
use canvass_domain::use_cases::accounts;
use diesel::{Connection, PgConnection};
use serde_json::{json, Value};

use crate::cluster::exec;
use crate::support::{survey_body, JsonApi};

/// What the endpoints are called with.
pub struct Data {
    pub key: String,
    /// The account the key belongs to (the bare anchor reads as it).
    pub account: i64,
    survey: i64,
    post_survey: i64,
    sendout: i64,
    answers_body: String,
    /// A survey like `post_survey` with three quotas that every posted set meets, and its answers to post.
    quota_survey: i64,
    quota_body: String,
    /// The survey of 200 items (20 Matrix items of 10 rows among them).
    large_survey: i64,
    /// The respondent page of a respondent of the large survey: its first page, ten Matrix items.
    matrix_page: String,
    /// The surveys of 100 items in one language and in twelve ([`languages`]).
    pub languages: Languages,
    /// A page of 30 items without logic and with it (`logic.rs`).
    pub logic: crate::logic::LogicPages,
}

/// A survey of 100 items in its own language only, the same survey with translations into the eleven others,
/// and the first page of a respondent of each (of the second, one shown Finnish); a translation of all 100 items
/// to PUT.
pub struct Languages {
    pub one_page: String,
    pub twelve_page: String,
    put_path: String,
    put_body: String,
}

/// One endpoint under load.
pub struct Endpoint {
    pub name: &'static str,
    pub method: &'static str,
    pub path: String,
    pub body: Option<String>,
    /// Whether the bare anchor (bare.rs) serves it too, at the same path.
    pub anchored: bool,
    /// Whether `path` is a respondent page (from the server's root, no key) rather than under `/api/v1`.
    pub page: bool,
}

/// The endpoints the benchmark measures, in the order it measures them (posting last: it adds answer sets, to a
/// survey of its own).
pub fn endpoints(data: &Data) -> Vec<Endpoint> {
    let (survey, sendout) = (data.survey, data.sendout);
    let get = |name, path: String| Endpoint { name, method: "GET", path, body: None, anchored: false, page: false };
    let anchored = |name, path| Endpoint { anchored: true, ..get(name, path) };
    vec![
        anchored("GET survey", format!("/surveys/{survey}")),
        anchored("GET questions", format!("/surveys/{survey}/questions")),
        get("GET questions (200 items)", format!("/surveys/{}/questions", data.large_survey)),
        Endpoint { page: true, ..get("GET Matrix page", data.matrix_page.clone()) },
        Endpoint { page: true, ..get("GET page, 1 language", data.languages.one_page.clone()) },
        Endpoint { page: true, ..get("GET page, 12 languages", data.languages.twelve_page.clone()) },
        Endpoint {
            name: "PUT translation (100)",
            method: "PUT",
            path: data.languages.put_path.clone(),
            body: Some(data.languages.put_body.clone()),
            anchored: false,
            page: false,
        },
        get("GET answers", format!("/surveys/{survey}/answers")),
        get("GET answersWithData", format!("/surveys/{survey}/answersWithData?page=1&pagesize=100")),
        get("GET sendouts", format!("/surveys/{survey}/sendouts")),
        get("GET respondents", format!("/surveys/{survey}/sendouts/{sendout}/respondents")),
        Endpoint {
            name: "POST answers",
            method: "POST",
            path: format!("/surveys/{}/answers", data.post_survey),
            body: Some(data.answers_body.clone()),
            anchored: false,
            page: false,
        },
        Endpoint {
            name: "POST answers, 3 quotas",
            method: "POST",
            path: format!("/surveys/{}/answers", data.quota_survey),
            body: Some(data.quota_body.clone()),
            anchored: false,
            page: false,
        },
    ]
}

/// An answer to every item of a question tree.
fn answers_of(tree: &Value) -> Value {
    let answers: Vec<Value> = tree["pages"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|page| page["items"].as_array().unwrap().iter())
        .map(|item| {
            let value = match item["type"].as_str().unwrap() {
                "SingleChoice" => json!("good"),
                "MultipleChoice" => json!(["web", "phone"]),
                "OpenText" => json!("It went well, thank you; the second visit was quicker."),
                "Numeric" => json!(3),
                _ => json!(4),
            };
            json!({"questionItemId": item["questionItemId"], "value": value})
        })
        .collect();
    json!({"completed": true, "answers": answers})
}

/// Fills the database behind the server at `base`.
pub fn fill(base: &str, database_url: &str, answer_sets: usize, respondents: usize) -> Data {
    let store = canvass_postgres::PgStore::connect_one(database_url).unwrap();
    let create = |uow: &mut dyn UnitOfWork| accounts::create_account(uow, &SystemClock, "Bench", "b@bench.example");
    let created = store.with_uow(create).unwrap();
    let key = created.api_key.secret().to_owned();
    let account = created.account_id.get();
    let api = JsonApi::new(base, &key);
    let survey = api.call("POST", "/surveys".into(), Some(survey_body("Bench")))["surveyId"].as_i64().unwrap();
    let post_survey =
        api.call("POST", "/surveys".into(), Some(survey_body("Bench posts")))["surveyId"].as_i64().unwrap();
    let tree = api.call("GET", format!("/surveys/{survey}/questions"), None);
    let post_tree = api.call("GET", format!("/surveys/{post_survey}/questions"), None);
    let first = api.call("POST", format!("/surveys/{survey}/answers"), Some(answers_of(&tree)))["answerSetId"]
        .as_i64()
        .unwrap();

    let sendout_body = |n: usize| {
        json!({"name": format!("Wave {n}"), "type": "EMAIL", "sendDate": "2030-01-01", "sender": "hr@bench.example",
            "subject": "Your view", "message": "Hello, answer here: {{surveyLink}}"})
    };
    let sendouts: Vec<i64> = (1..=5)
        .map(|n| {
            api.call("POST", format!("/surveys/{survey}/sendouts"), Some(sendout_body(n)))["sendoutId"]
                .as_i64()
                .unwrap()
        })
        .collect();
    for start in (0..respondents).step_by(1000) {
        let people: Vec<Value> = (start..respondents.min(start + 1000))
            .map(|n| json!({"contactDetails": format!("person{n}@bench.example"), "sendMail": true}))
            .collect();
        let path = format!("/surveys/{survey}/sendouts/{}/respondents/batch", sendouts[0]);
        api.call("POST", path, Some(json!({"surveyRespondents": people})));
    }

    // The posted set, copied in SQL to the count: answer sets as the API stores them, made in a second.
    let mut conn = PgConnection::establish(database_url).unwrap();
    let copies = answer_sets.saturating_sub(1);
    exec(
        &mut conn,
        &format!(
            "WITH copies AS (INSERT INTO answer_sets (account_id, survey_id, completed, created_at, updated_at) \
             SELECT account_id, survey_id, completed, created_at, updated_at FROM answer_sets, generate_series(1, {copies}) \
             WHERE account_id = {account} AND id = {first} RETURNING id) \
             INSERT INTO answers (account_id, answer_set_id, question_item_id, value) \
             SELECT {account}, copies.id, answers.question_item_id, answers.value FROM copies \
             JOIN answers ON answers.account_id = {account} AND answers.answer_set_id = {first}"
        ),
    );
    exec(&mut conn, "VACUUM ANALYZE");
    let answers_body = answers_of(&post_tree).to_string();
    let (quota_survey, quota_body) = quota_survey(&api);
    let (large_survey, matrix_page) = large_survey(&api, base);
    let languages = languages(&api, base);
    let logic = crate::logic::fill(&api, base);
    Data {
        key,
        account,
        survey,
        post_survey,
        sendout: sendouts[0],
        answers_body,
        quota_survey,
        quota_body,
        large_survey,
        matrix_page,
        languages,
        logic,
    }
}

/// A survey as the posted one, with three `endSurvey` quotas of a billion places that every posted set meets (on
/// its SingleChoice, its Numeric and both), so each completion counts three; the answers to post.
fn quota_survey(api: &JsonApi) -> (i64, String) {
    let survey = api.call("POST", "/surveys".into(), Some(survey_body("Bench quotas")))["surveyId"].as_i64().unwrap();
    let tree = api.call("GET", format!("/surveys/{survey}/questions"), None);
    let item_of = |kind: &str| {
        let items = tree["pages"].as_array().unwrap().iter().flat_map(|page| page["items"].as_array().unwrap());
        items.clone().find(|item| item["type"] == kind).unwrap()["questionItemId"].clone()
    };
    let choice = json!({"questionItemId": item_of("SingleChoice"), "operator": "equals", "value": "good"});
    let number = json!({"questionItemId": item_of("Numeric"), "operator": "atLeast", "value": 1});
    for (name, when) in [("Good", choice.clone()), ("Some", number.clone()), ("Both", json!({"all": [choice, number]}))]
    {
        let quota = json!({"name": name, "when": when, "limit": 1_000_000_000, "action": "endSurvey"});
        api.call("POST", format!("/surveys/{survey}/quotas"), Some(quota));
    }
    (survey, answers_of(&tree).to_string())
}

/// A survey of 5 pages of 20 items (choices of five options, Ratings with end labels, texts, numbers), a LOGIN
/// sendout with one respondent shown `language`, and that respondent's page path.
fn hundred_items(api: &JsonApi, base: &str, name: &str, language: Option<&str>) -> (i64, Value, String) {
    let options: Vec<Value> =
        (1..=5).map(|n| json!({"value": format!("o{n}"), "label": format!("Option {n} of five"), })).collect();
    let item = |n: usize| match n % 4 {
        0 => json!({"type": "SingleChoice", "text": format!("Question {n}: which fits best?"), "options": options}),
        1 => json!({"type": "Rating", "text": format!("Question {n}: how likely?"), "minLabel": "Not at all",
            "maxLabel": "Very likely"}),
        2 => json!({"type": "OpenText", "text": format!("Question {n}: why?")}),
        _ => json!({"type": "Numeric", "text": format!("Question {n}: how many?")}),
    };
    let pages: Vec<Value> = (0..5)
        .map(|p| json!({"title": format!("Part {}", p + 1), "items": (0..20).map(|i| item(p * 20 + i)).collect::<Vec<_>>()}))
        .collect();
    let survey =
        api.call("POST", "/surveys".into(), Some(json!({"name": name, "pages": pages})))["surveyId"].as_i64().unwrap();
    let tree = api.call("GET", format!("/surveys/{survey}/questions"), None);
    let sendout = api.call("POST", format!("/surveys/{survey}/sendouts"), Some(json!({"name": name, "type": "LOGIN"})));
    let sendout = sendout["sendoutId"].as_i64().unwrap();
    let person = json!({"contactDetails": format!("{name}-reader"), "sendMail": false, "language": language});
    let added = api.call("POST", format!("/surveys/{survey}/sendouts/{sendout}/respondents"), Some(person));
    api.call("POST", format!("/surveys/{survey}/sendouts/{sendout}/activate"), Some(json!({})));
    let link = added["surveyLink"].as_str().unwrap();
    (survey, tree, link.strip_prefix(base).unwrap_or(link).to_owned())
}

/// Every text of a [`hundred_items`] tree in `language` (the code in front of each).
fn translation_of(tree: &Value, language: &str) -> Value {
    let mut pages = serde_json::Map::new();
    let mut items = serde_json::Map::new();
    for page in tree["pages"].as_array().unwrap() {
        pages.insert(
            page["pageId"].to_string(),
            json!({"title": format!("[{language}] {}", page["title"].as_str().unwrap())}),
        );
        for item in page["items"].as_array().unwrap() {
            let mut texts = json!({"text": format!("[{language}] {}", item["text"].as_str().unwrap())});
            if item["type"] == "Rating" {
                texts["minLabel"] = json!(format!("[{language}] Not at all"));
                texts["maxLabel"] = json!(format!("[{language}] Very likely"));
            }
            if let Some(options) = item["options"].as_array().filter(|o| !o.is_empty()) {
                let labels: serde_json::Map<String, Value> = options
                    .iter()
                    .map(|o| {
                        (
                            o["value"].as_str().unwrap().to_owned(),
                            json!(format!("[{language}] {}", o["label"].as_str().unwrap())),
                        )
                    })
                    .collect();
                texts["options"] = Value::Object(labels);
            }
            items.insert(item["questionItemId"].to_string(), texts);
        }
    }
    json!({"name": format!("[{language}] Survey"), "pages": pages, "items": items})
}

/// The surveys of 100 items in one and in twelve languages.
fn languages(api: &JsonApi, base: &str) -> Languages {
    let (_, _, one_page) = hundred_items(api, base, "One language", None);
    let (survey, tree, twelve_page) = hundred_items(api, base, "Twelve languages", Some("fi"));
    for language in ["sv", "da", "nb", "fi", "de", "fr", "es", "nl", "pl", "it", "pt"] {
        api.call("PUT", format!("/surveys/{survey}/translations/{language}"), Some(translation_of(&tree, language)));
    }
    let put_path = format!("/surveys/{survey}/translations/de");
    Languages { one_page, twelve_page, put_path, put_body: translation_of(&tree, "de").to_string() }
}

/// A survey of 10 pages of 20 items, the first two pages of ten Matrix items (ten rows on a five-point scale) and
/// ten others each, the rest of every type; and the path of the first page of one respondent's link.
fn large_survey(api: &JsonApi, base: &str) -> (i64, String) {
    let scale: Vec<Value> = ["Never", "Rarely", "Sometimes", "Often", "Always"]
        .iter()
        .enumerate()
        .map(|(n, label)| json!({"value": (n + 1).to_string(), "label": label}))
        .collect();
    let matrix = |n: usize| {
        let rows: Vec<Value> = (1..=10)
            .map(|r| json!({"value": format!("s{r}"), "label": format!("Statement {r} of block {n}")}))
            .collect();
        json!({"type": "Matrix", "text": format!("How often, block {n}?"), "rows": rows, "options": scale})
    };
    let other = |n: usize| match n % 5 {
        0 => json!({"type": "SingleChoice", "text": format!("Question {n}?"), "options": scale}),
        1 => json!({"type": "Dropdown", "text": format!("Question {n}?"), "options": scale}),
        2 => json!({"type": "OpenText", "text": format!("Question {n}?"), "maxLength": 500}),
        3 => json!({"type": "Numeric", "text": format!("Question {n}?"), "min": 0, "max": 100}),
        _ => json!({"type": "Rating", "text": format!("Question {n}?")}),
    };
    let pages: Vec<Value> = (0..10)
        .map(|p| {
            let items: Vec<Value> =
                (0..20).map(|i| if p < 2 && i < 10 { matrix(p * 10 + i) } else { other(p * 20 + i) }).collect();
            json!({"title": format!("Part {}", p + 1), "items": items})
        })
        .collect();
    let body = json!({"name": "Bench large", "pages": pages});
    let survey = api.call("POST", "/surveys".into(), Some(body))["surveyId"].as_i64().unwrap();
    let sendout = json!({"name": "Large", "type": "EMAIL", "sendDate": "2030-01-01", "sender": "hr@bench.example",
        "subject": "Your view", "message": "Hello, answer here: {{surveyLink}}"});
    let sendout = api.call("POST", format!("/surveys/{survey}/sendouts"), Some(sendout))["sendoutId"].as_i64().unwrap();
    let person = json!({"contactDetails": "large@bench.example", "sendMail": false});
    let added = api.call("POST", format!("/surveys/{survey}/sendouts/{sendout}/respondents"), Some(person));
    api.call("POST", format!("/surveys/{survey}/sendouts/{sendout}/activate"), Some(json!({})));
    let link = added["surveyLink"].as_str().unwrap();
    (survey, link.strip_prefix(base).unwrap_or(link).to_owned())
}
