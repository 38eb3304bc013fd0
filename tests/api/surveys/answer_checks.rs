//! Validated answers: an item's checks (Numeric `min`/`max`/`wholeNumber`, OpenText lengths, lines and formats,
//! MultipleChoice counts) refuse an answer through the API with a 400 naming `answers[i].value`, and on the
//! respondent page with the page again and the error by the item, in the page's language; an empty answer to an
//! item that is not required always passes; checks on the wrong type and bad patterns are refused at creation.

use serde_json::{json, Value};

use crate::helpers::{item_id, page_id, TestApp};

/// One page: age (16 to 120, whole), a one-line code matching `[A-Z]{2}[0-9]{4}`, an email, a phone, a comment
/// of 3 to 20 characters, and two or three topics out of four.
fn checked_survey() -> Value {
    json!({"name": "Checked", "pages": [{"title": "You", "items": [
        {"type": "Numeric", "text": "Age?", "min": 16, "max": 120, "wholeNumber": true},
        {"type": "OpenText", "text": "Code?", "multiline": false, "format": "pattern", "pattern": "[A-Z]{2}[0-9]{4}"},
        {"type": "OpenText", "text": "Email?", "format": "email", "multiline": false},
        {"type": "OpenText", "text": "Phone?", "format": "phone", "multiline": false},
        {"type": "OpenText", "text": "Comment?", "minLength": 3, "maxLength": 20},
        {"type": "MultipleChoice", "text": "Topics?", "minSelected": 2, "maxSelected": 3,
            "options": [{"value": "a"}, {"value": "b"}, {"value": "c"}, {"value": "d"}]}
    ]}]})
}

async fn created(app: &TestApp) -> (i64, Value) {
    let survey = app.post("/surveys", checked_survey()).await.expect(201)["surveyId"].as_i64().unwrap();
    (survey, app.get(&format!("/surveys/{survey}/questions")).await.expect(200))
}

fn answers(tree: &Value, values: [Value; 6]) -> Value {
    let answers: Vec<Value> = values
        .into_iter()
        .enumerate()
        .map(|(index, value)| json!({"questionItemId": item_id(tree, 0, index), "value": value}))
        .collect();
    json!({"completed": true, "answers": answers})
}

fn fields(problem: &Value) -> Vec<(String, String)> {
    let errors = problem["errors"].as_array().unwrap();
    errors
        .iter()
        .map(|e| (e["field"].as_str().unwrap().to_owned(), e["message"].as_str().unwrap().to_owned()))
        .collect()
}

#[tokio::test]
async fn the_api_refuses_answers_that_fail_their_items_checks_naming_each() {
    let app = crate::helpers::spawn_app().await;
    let (survey, tree) = created(&app).await;
    let path = format!("/surveys/{survey}/answers");
    let good =
        [json!(30), json!("AB1234"), json!("ann@example.com"), json!("+4790000001"), json!("Fine"), json!(["a", "b"])];
    app.post(&path, answers(&tree, good)).await.expect(201);

    let bad = [json!(-3), json!("ab1234"), json!("asdf"), json!("555-1234"), json!("No"), json!(["a", "b", "c", "d"])];
    let refused = app.post(&path, answers(&tree, bad)).await.problem(400, "/problems/validation");
    let named: Vec<String> = fields(&refused).into_iter().map(|(field, _)| field).collect();
    assert_eq!(named, (0..6).map(|i| format!("answers[{i}].value")).collect::<Vec<_>>());
    assert_eq!(fields(&refused)[0].1, "must be at least 16");
    let more = [
        json!(4000),
        json!("AB1234\nCD"),
        json!("ann@example.com"),
        json!("+4790000001"),
        json!("x".repeat(21)),
        json!(["a"]),
    ];
    let refused = app.post(&path, answers(&tree, more)).await.problem(400, "/problems/validation");
    let messages: Vec<String> = fields(&refused).into_iter().map(|(_, message)| message).collect();
    let expected =
        ["must be at most 120", "must be one line: the item takes no line breaks", "must be at most 20 characters"];
    assert_eq!(messages, [&expected[..], &["must choose at least 2 values"]].concat());
    let fraction = [json!(30.5), json!(""), json!(""), json!(""), json!(""), json!([])];
    let refused = app.post(&path, answers(&tree, fraction)).await.problem(400, "/problems/validation");
    assert_eq!(
        fields(&refused),
        [("answers[0].value".to_owned(), "must be a whole number".to_owned())],
        "empty answers pass"
    );
    assert_eq!(app.get(&path).await.expect(200).as_array().unwrap().len(), 1, "refused sets are not stored");
}

#[tokio::test]
async fn checks_on_the_wrong_type_and_bad_patterns_are_refused_at_creation() {
    let app = crate::helpers::spawn_app().await;
    let body = json!({"name": "Bad", "pages": [{"items": [
        {"type": "Rating", "text": "Rate", "min": 1},
        {"type": "OpenText", "text": "Code", "format": "pattern", "pattern": "a{1000}{1000}"},
        {"type": "OpenText", "text": "Code", "format": "pattern"},
        {"type": "Numeric", "text": "Age", "min": 10, "max": 1},
        {"type": "MultipleChoice", "text": "Pick", "maxSelected": 3, "options": [{"value": "a"}]}
    ]}]});
    let refused = app.post("/surveys", body).await.problem(400, "/problems/validation");
    let named: Vec<String> = fields(&refused).into_iter().map(|(field, _)| field).collect();
    let at = |i: usize, field: &str| format!("pages[0].items[{i}].{field}");
    assert_eq!(named, [at(0, "min"), at(1, "pattern"), at(2, "pattern"), at(3, "min"), at(4, "maxSelected")]);
    assert_eq!(app.get("/surveys").await.expect(200), json!([]), "nothing stored");
}

#[tokio::test]
async fn the_page_shows_the_check_that_failed_by_its_item_in_the_pages_language() {
    let app = crate::helpers::spawn_app().await;
    let mut sendout = crate::helpers::email_sendout();
    sendout["language"] = json!("de");
    sendout.as_object_mut().unwrap().remove("expiryDate");
    let person = json!({"contactDetails": "ann@example.com", "sendMail": false});
    let (survey, base, _, ann) = app.one_respondent_sendout(&app.key, checked_survey(), sendout, person).await;
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    let tree = app.get(&format!("/surveys/{survey}/questions")).await.expect(200);
    let link = ann["surveyLink"].as_str().unwrap().to_owned();
    let field = |index: usize, value: &str| (format!("q{}", item_id(&tree, 0, index)), value.to_owned());
    let form = [
        ("page".to_owned(), page_id(&tree, 0).to_string()),
        field(0, "12"),
        field(1, "AB1234"),
        field(2, "ann.example.com"),
        field(4, "Gut"),
        field(5, "a"),
    ];
    let response = app.client.post(&link).form(&form).send().await.unwrap();
    assert_eq!(response.status().as_u16(), 400);
    let page = response.text().await.unwrap();
    for said in ["Bitte geben Sie eine Zahl von mindestens 16 ein.", "name@example.com", "mindestens 2"] {
        assert!(page.contains(said), "{said}: {page}");
    }
    assert!(page.contains("value=\"AB1234\""), "what passed is kept: {page}");
    let saved = app.get(&format!("/surveys/{survey}/answers")).await.expect(200);
    assert_eq!(saved, json!([]), "nothing saved");
}
