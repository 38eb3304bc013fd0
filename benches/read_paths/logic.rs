//! A page with display logic against the same page without: two surveys of three pages (five Ratings; 30 items;
//! one), the second with a `displayWhen` of three conditions on each of the 30 items (all hold: every item shows)
//! and 20 rules on the first page's Ratings (none holds). A respondent of each has saved the first page, so its
//! link opens on the 30 items. The two pages are loaded in alternating rounds (`languages::medians`).

use serde_json::{json, Value};

use crate::support::JsonApi;

/// The respondent page paths: of the survey without logic, and of the survey with it.
pub struct LogicPages {
    pub plain: String,
    pub with_logic: String,
}

/// One survey, its LOGIN respondent past the first page; the path of its link.
fn survey(api: &JsonApi, base: &str, name: &str, logic: bool) -> String {
    let first: Vec<Value> = (1..=5).map(|n| json!({"type": "Rating", "text": format!("Rate part {n}")})).collect();
    let options: Vec<Value> =
        (1..=5).map(|n| json!({"value": format!("o{n}"), "label": format!("Option {n}")})).collect();
    let item = |n: usize| match n % 2 {
        0 => json!({"type": "SingleChoice", "text": format!("Question {n}: which fits?"), "options": options}),
        _ => json!({"type": "OpenText", "text": format!("Question {n}: why?")}),
    };
    let pages = json!([
        {"title": "Ratings", "items": first},
        {"title": "Details", "items": (0..30).map(item).collect::<Vec<_>>()},
        {"title": "Last", "items": [{"type": "OpenText", "text": "Anything else?"}]}
    ]);
    let survey =
        api.call("POST", "/surveys".into(), Some(json!({"name": name, "pages": pages})))["surveyId"].as_i64().unwrap();
    let tree = api.call("GET", format!("/surveys/{survey}/questions"), None);
    let ratings: Vec<i64> =
        tree["pages"][0]["items"].as_array().unwrap().iter().map(|i| i["questionItemId"].as_i64().unwrap()).collect();
    if logic {
        for (n, item) in tree["pages"][1]["items"].as_array().unwrap().iter().enumerate() {
            let on = |k: usize| json!({"questionItemId": ratings[(n + k) % 5], "operator": "atLeast", "value": 0});
            let when = json!({"all": [on(0), on(1), {"any": [on(2), {"questionItemId": ratings[0], "operator": "answered"}]}]});
            api.call(
                "PATCH",
                format!("/surveys/{survey}/questions/{}", item["questionItemId"]),
                Some(json!({"displayWhen": when})),
            );
        }
        let last = tree["pages"][2]["pageId"].as_i64().unwrap();
        let rules: Vec<Value> = (0..20)
            .map(|n| {
                let never = json!({"questionItemId": ratings[n % 5], "operator": "greaterThan", "value": 10 + n});
                json!({"when": {"all": [never, {"questionItemId": ratings[(n + 1) % 5], "operator": "answered"}]},
                    "action": "jump", "goToPageId": last})
            })
            .collect();
        api.call("PUT", format!("/surveys/{survey}/logic"), Some(Value::Array(rules)));
    }
    let sendout = api.call("POST", format!("/surveys/{survey}/sendouts"), Some(json!({"name": name, "type": "LOGIN"})));
    let sendout = sendout["sendoutId"].as_i64().unwrap();
    let person = json!({"contactDetails": format!("{name}-reader"), "sendMail": false});
    let added = api.call("POST", format!("/surveys/{survey}/sendouts/{sendout}/respondents"), Some(person));
    api.call("POST", format!("/surveys/{survey}/sendouts/{sendout}/activate"), Some(json!({})));
    let link = added["surveyLink"].as_str().unwrap().to_owned();
    let mut form: Vec<(String, String)> = vec![("page".into(), tree["pages"][0]["pageId"].to_string())];
    form.extend(ratings.iter().map(|id| (format!("q{id}"), "7".to_owned())));
    let saved = api.post_form(&link, &form);
    assert!(saved.contains("Question 1: why?"), "the respondent is on the second page");
    link.strip_prefix(base).unwrap_or(&link).to_owned()
}

/// The two surveys and their respondents' pages.
pub fn fill(api: &JsonApi, base: &str) -> LogicPages {
    LogicPages { plain: survey(api, base, "Without logic", false), with_logic: survey(api, base, "With logic", true) }
}
