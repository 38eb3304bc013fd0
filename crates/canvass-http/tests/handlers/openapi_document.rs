//! The OpenAPI document states what the reader takes: NUL refused in every string it reads, the rules across fields
//! that JSON Schema can state (a rule patch's fields, a sendout's shapes), `copysendoutids` as the parser takes it,
//! integers written with a fraction of zero, and 422 on every keyed POST.

use std::collections::HashSet;

use actix_web::http::Method;
use actix_web::test::TestRequest;
use canvass_domain::distribution::check_sms_sender;
use canvass_domain::survey::QuestionType;
use canvass_http::problem::ProblemKind;
use regex::Regex;
use serde_json::{json, Value};
use strum::VariantArray;

use crate::support::TestApp;

async fn document(app: &TestApp) -> Value {
    app.call(TestRequest::default().method(Method::GET).uri("/api/openapi.json")).await.expect(200)
}

/// Texts that hold NUL, where a pattern that takes any of them would let NUL through.
const WITH_NUL: [&str; 5] = ["\0", "a\0", "\0a", "a\0b", " \0 7"];

fn regex(pattern: &str) -> Regex {
    Regex::new(pattern).unwrap_or_else(|error| panic!("{pattern} is not a valid pattern: {error}"))
}

/// Every string schema a request can carry under `schema`, through `$ref`s (each component once), as
/// `(where, schema)`.
fn strings<'a>(
    document: &'a Value,
    schema: &'a Value,
    at: &str,
    seen: &mut HashSet<&'a str>,
    found: &mut Vec<(String, &'a Value)>,
) {
    if let Some(name) = schema["$ref"].as_str().and_then(|r| r.strip_prefix("#/components/schemas/")) {
        if seen.insert(name) {
            strings(document, &document["components"]["schemas"][name], name, seen, found);
        }
        return;
    }
    let types = match &schema["type"] {
        Value::String(one) => vec![one.as_str()],
        Value::Array(many) => many.iter().filter_map(Value::as_str).collect(),
        _ => vec![],
    };
    if types.contains(&"string") {
        found.push((at.to_owned(), schema));
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        for (index, branch) in schema[key].as_array().into_iter().flatten().enumerate() {
            strings(document, branch, &format!("{at}.{key}[{index}]"), seen, found);
        }
    }
    for (name, property) in schema["properties"].as_object().into_iter().flatten() {
        strings(document, property, &format!("{at}.{name}"), seen, found);
    }
    for key in ["items", "additionalProperties", "propertyNames"] {
        if schema[key].is_object() {
            strings(document, &schema[key], &format!("{at}.{key}"), seen, found);
        }
    }
}

#[actix_web::test]
async fn every_string_the_service_reads_says_it_refuses_nul() {
    let app = TestApp::new().await;
    let document = document(&app).await;
    let (mut seen, mut found) = (HashSet::new(), Vec::new());
    for (path, item) in document["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            for parameter in operation["parameters"].as_array().into_iter().flatten() {
                if parameter["in"] == "query" || parameter["in"] == "path" {
                    let at = format!("{method} {path} {}", parameter["name"]);
                    strings(&document, &parameter["schema"], &at, &mut seen, &mut found);
                }
            }
            let json = &operation["requestBody"]["content"]["application/json"]["schema"];
            strings(&document, json, &format!("{method} {path} body"), &mut seen, &mut found);
        }
    }
    assert!(found.len() > 50, "the walk finds the document's strings: {}", found.len());
    assert!(seen.contains("CreateSurveyBody") && !seen.contains("Problem"), "requests only: {seen:?}");
    let mut open = Vec::new();
    for (at, schema) in &found {
        let closed = schema.get("format").is_some() || schema.get("enum").is_some() || schema["maxLength"] == 0;
        match schema["pattern"].as_str() {
            Some(pattern) => {
                let pattern = regex(pattern);
                if let Some(text) = WITH_NUL.iter().find(|text| pattern.is_match(text)) {
                    open.push(format!("{at}: {pattern} takes {text:?}"));
                }
            }
            None if closed => {}
            None => open.push(format!("{at}: no pattern")),
        }
    }
    assert!(open.is_empty(), "strings that let NUL through:\n{}", open.join("\n"));
}

#[actix_web::test]
async fn a_non_blank_pattern_takes_text_around_a_visible_character_and_refuses_blanks() {
    let app = TestApp::new().await;
    let document = document(&app).await;
    let name = &document["components"]["schemas"]["CreateSurveyBody"]["properties"]["name"];
    let pattern = regex(name["pattern"].as_str().unwrap());
    for taken in ["Pulse", " Pulse ", "x", "Q3 pulse\tcheck"] {
        assert!(pattern.is_match(taken), "{taken:?}");
    }
    for refused in ["", "   ", "\t\n", "a\0"] {
        assert!(!pattern.is_match(refused), "{refused:?}");
    }
}

/// The named branch of a `oneOf` whose `type` takes `kind`: the one its discriminator maps `kind` to.
fn shape<'a>(document: &'a Value, schema: &Value, kind: &str) -> &'a Value {
    let branches: Vec<&str> = (schema["oneOf"].as_array().into_iter().flatten())
        .filter_map(|branch| branch["$ref"].as_str()?.strip_prefix("#/components/schemas/"))
        .collect();
    let takes = |name: &&str| {
        document["components"]["schemas"][*name]["properties"]["type"]["enum"]
            .as_array()
            .is_some_and(|t| t.contains(&kind.into()))
    };
    let mut matching = branches.into_iter().filter(takes);
    let found = matching.next().unwrap_or_else(|| panic!("no named shape for {kind}"));
    assert!(matching.next().is_none(), "one shape for {kind}");
    let mapped = &schema["discriminator"]["mapping"][kind];
    assert_eq!(
        mapped.as_str(),
        Some(format!("#/components/schemas/{found}").as_str()),
        "the discriminator maps {kind}"
    );
    &document["components"]["schemas"][found]
}

fn required(schema: &Value) -> Vec<&str> {
    schema["required"].as_array().into_iter().flatten().filter_map(Value::as_str).collect()
}

#[actix_web::test]
async fn a_sendout_takes_one_shape_per_type_and_the_shapes_agree_with_the_service() {
    let app = TestApp::new().await;
    let document = document(&app).await;
    let sendout = &document["components"]["schemas"]["CreateSendoutBody"];
    assert_eq!(required(shape(&document, sendout, "LOGIN")), ["name", "type"]);
    assert_eq!(
        required(shape(&document, sendout, "EMAIL")),
        ["name", "type", "sendDate", "sender", "subject", "message"]
    );
    for kind in ["SMS", "TWOWAY"] {
        assert_eq!(required(shape(&document, sendout, kind)), ["name", "type", "sendDate", "sender", "message"]);
    }
    let sms_sender = regex(shape(&document, sendout, "SMS")["properties"]["sender"]["pattern"].as_str().unwrap());
    for sender in
        ["Acme", "ACME2026", "A1234567890", "+47", "+4791234567", "+123456789012345", "Acme Corp", "+4", "+0123"]
    {
        if sms_sender.is_match(sender) {
            assert!(check_sms_sender(sender).is_ok(), "the document takes {sender:?}, so must the service");
        } else {
            assert!(!["Acme", "+4791234567"].contains(&sender), "{sender:?} is an SMS sender");
        }
    }
    let message = regex(shape(&document, sendout, "EMAIL")["properties"]["message"]["pattern"].as_str().unwrap());
    assert!(message.is_match("Answer: {{surveyLink}}") && !message.is_match("Answer: {{ surveyLink }}"));

    let survey = app.post("/surveys", &json!({"name": "Pulse"})).await.expect(201)["surveyId"].clone();
    let path = format!("/surveys/{survey}/sendouts");
    let login = json!({"name": "Staff", "type": "LOGIN", "sendDate": "", "sender": " ", "message": null});
    app.post(&path, &login).await.expect(201);
    let text = json!({"name": "Text", "type": "SMS", "sendDate": "2100-01-01", "sender": "+4791234567",
        "message": "Go: {{surveyLink}}"});
    app.post(&path, &text).await.expect(201);
    let mut no_link = text.clone();
    no_link["message"] = "Go".into();
    assert_eq!(app.post(&path, &no_link).await.invalid_field(), "message", "the pattern's rule is the service's");
}

#[actix_web::test]
async fn a_rule_patch_states_that_it_gives_days_status_or_both() {
    let app = TestApp::new().await;
    let document = document(&app).await;
    let patch = &document["components"]["schemas"]["RulePatchBody"];
    let all_of = patch["allOf"].as_array().unwrap();
    assert_eq!(all_of[0]["properties"]["retentionDays"]["maximum"], 3650, "the fields stay: {patch}");
    let either: Vec<Vec<&str>> = all_of[1]["anyOf"].as_array().unwrap().iter().map(required).collect();
    assert_eq!(either, [["retentionDays"], ["status"]]);
    for branch in all_of[1]["anyOf"].as_array().unwrap() {
        assert!(!serde_json::to_string(branch).unwrap().contains("null"), "a given field is not null: {branch}");
    }
    for body in [json!({}), json!({"retentionDays": null, "status": null})] {
        let path = "/api/v1.5/data-retention/rules/account/actions/RemoveRespondentDataWithoutAnswers";
        let request = TestRequest::default().method(Method::PATCH).uri(path).insert_header(("X-API-KEY", &*app.key));
        let reply = app.call(request.set_json(&body)).await;
        assert_eq!(reply.invalid_field(), "body", "{body}");
    }
}

#[actix_web::test]
async fn copysendoutids_takes_what_its_pattern_says_and_empty_entries_name_nothing() {
    let app = TestApp::new().await;
    let document = document(&app).await;
    let copy = &document["paths"]["/api/v1/surveys/{surveyId}/copy"]["get"]["parameters"];
    let parameter = copy.as_array().unwrap().iter().find(|p| p["name"] == "copysendoutids").unwrap();
    let pattern = regex(parameter["schema"]["pattern"].as_str().unwrap());

    let survey = app.post("/surveys", &json!({"name": "Pulse"})).await.expect(201)["surveyId"].clone();
    let sendout = app.post(&format!("/surveys/{survey}/sendouts"), &json!({"name": "Staff", "type": "LOGIN"})).await;
    let sendout = sendout.expect(201)["sendoutId"].clone();
    let copied = |list: &str| {
        let list: String = form_urlencoded::byte_serialize(list.as_bytes()).collect();
        format!("/surveys/{survey}/copy?copysendoutids={list}")
    };
    for taken in ["", ",", " , ,", &format!("{sendout},,"), &format!(",{sendout}"), &format!(" {sendout} ,, {sendout}")]
    {
        assert!(pattern.is_match(taken), "the document takes {taken:?}");
        let copy = app.get(&copied(taken)).await.expect(200);
        let sendouts = app.get(&format!("/surveys/{}/sendouts", copy["surveyId"])).await.expect(200);
        let expected = usize::from(taken.contains(&sendout.to_string()));
        assert_eq!(sendouts.as_array().unwrap().len(), expected, "{taken:?}");
    }
    for refused in ["a", "1 2", "0", "1,0", "-4", "+3", "1;2", "1,\t2"] {
        assert!(!pattern.is_match(refused), "the document refuses {refused:?}");
        assert_eq!(app.get(&copied(refused)).await.invalid_field(), "copysendoutids", "{refused:?}");
    }
}

#[actix_web::test]
async fn integers_written_with_a_zero_fraction_are_read_and_a_fraction_is_refused() {
    let app = TestApp::new().await;
    let body = |days: Value| json!({"enabled": true, "settings": {"numberOfDays": days, "maxNumberOfSurveys": 2.0}});
    let request = app.api(Method::PUT, "/surveys/frequency").set_json(body(json!(30.0)));
    let saved = app.call(request).await.expect(200);
    assert_eq!(
        (saved["settings"]["numberOfDays"].clone(), saved["settings"]["maxNumberOfSurveys"].clone()),
        (json!(30), json!(2))
    );
    for days in [json!(30.5), json!(1e-3)] {
        let request = app.api(Method::PUT, "/surveys/frequency").set_json(body(days.clone()));
        let reply = app.call(request).await;
        assert_eq!(reply.invalid_field(), "settings.numberOfDays", "{days}");
        reply.problem(ProblemKind::Validation);
    }
    let survey = app.post("/surveys", &json!({"name": "Pulse"})).await.expect(201)["surveyId"].clone();
    let category = app.post("/accounts/categories", &json!({"name": "HR"})).await.expect(201)["categoryId"].clone();
    let copy = app.get(&format!("/surveys/{survey}/copy?categoryid={category}.0")).await.expect(200);
    assert_eq!(copy["categoryId"], category, "a query's integer, too: {copy}");
    let fraction = app.get("/email-bounces/permanent-failures?pageNumber=1&pageSize=10.5").await;
    assert_eq!(fraction.invalid_field(), "pageSize");
}

#[actix_web::test]
async fn every_keyed_post_documents_the_422_of_a_key_used_for_another_request() {
    let app = TestApp::new().await;
    let document = document(&app).await;
    let mut posts = 0;
    for (path, item) in document["paths"].as_object().unwrap() {
        let Some(post) = item.get("post").filter(|_| path.starts_with("/api/")) else { continue };
        posts += 1;
        let reused = &post["responses"]["422"];
        assert!(
            reused["description"].as_str().is_some_and(|d| d.contains("idempotency-key-reused")),
            "{path}: {reused}"
        );
        assert!(reused["content"]["application/problem+json"].is_object(), "{path}");
    }
    assert!(posts > 20, "{posts}");
}

#[actix_web::test]
async fn a_question_item_has_one_shape_per_type_with_the_fields_of_its_type() {
    let app = TestApp::new().await;
    let document = document(&app).await;
    let schemas = &document["components"]["schemas"];
    for (parent, suffix) in [("ItemBody", "ItemBody"), ("ItemResponse", "Item")] {
        let variants: Vec<&str> = schemas[parent]["oneOf"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|v| v["$ref"].as_str()?.strip_prefix("#/components/schemas/"))
            .collect();
        let kinds: Vec<String> =
            QuestionType::VARIANTS.iter().map(|kind| format!("{}{suffix}", kind.as_str())).collect();
        assert_eq!(variants, kinds, "{parent}: one shape per type");
        assert_eq!(schemas[parent]["discriminator"]["propertyName"], "type");
    }
    let fields =
        |name: &str| -> Vec<String> { schemas[name]["properties"].as_object().unwrap().keys().cloned().collect() };
    assert_eq!(fields("MatrixItemBody"), ["displayWhen", "options", "position", "required", "rows", "text", "type"]);
    let choice = fields("SingleChoiceItem");
    assert!(choice.contains(&"randomizeOptions".into()) && !fields("MatrixItem").contains(&"randomizeOptions".into()));
    assert_eq!(schemas["MatrixItemBody"]["properties"]["type"]["enum"], json!(["Matrix"]));
    assert!(
        fields("NumericItem").iter().any(|f| f == "wholeNumber") && !fields("NumericItem").contains(&"rows".into())
    );
    assert!(fields("DateItem").contains(&"minDate".to_owned()));
    let answer = &schemas["AnswerValue"]["anyOf"];
    let shapes: Vec<&str> = answer.as_array().unwrap().iter().filter_map(|s| s["type"].as_str()).collect();
    assert_eq!(shapes, ["string", "array", "object", "number"], "a Matrix answer is an object");
}
