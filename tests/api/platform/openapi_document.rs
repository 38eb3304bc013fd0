//! The served OpenAPI document states what the service answers: invariants every operation must keep, and 405
//! with `Allow` for methods the document does not declare.

use serde_json::Value;

use crate::helpers::spawn_app;

const METHODS: [&str; 8] = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

async fn document() -> Value {
    let app = spawn_app().await;
    app.client.get(format!("{}/api/openapi.json", app.address)).send().await.unwrap().json().await.unwrap()
}

/// Every operation as `(label, operation)`.
fn operations(document: &Value) -> Vec<(String, &Value)> {
    let mut found = Vec::new();
    for (path, item) in document["paths"].as_object().unwrap() {
        for method in METHODS {
            if let Some(operation) = item.get(method) {
                found.push((format!("{} {path}", method.to_uppercase()), operation));
            }
        }
    }
    found
}

fn resolve<'a>(document: &'a Value, schema: &'a Value) -> &'a Value {
    match schema["$ref"].as_str().and_then(|r| r.strip_prefix("#/components/schemas/")) {
        Some(name) => &document["components"]["schemas"][name],
        None => schema,
    }
}

/// Where a string schema without `maxLength` is reachable from `schema`, as paths.
fn unbounded_strings(document: &Value, schema: &Value, at: &str, found: &mut Vec<String>, depth: usize) {
    let schema = resolve(document, schema);
    if depth > 12 {
        return;
    }
    let types: Vec<&str> = match &schema["type"] {
        Value::String(one) => vec![one.as_str()],
        Value::Array(many) => many.iter().filter_map(Value::as_str).collect(),
        _ => vec![],
    };
    if types.contains(&"string") && schema.get("maxLength").is_none() && schema.get("enum").is_none() {
        found.push(at.to_owned());
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        for (index, branch) in schema[key].as_array().into_iter().flatten().enumerate() {
            unbounded_strings(document, branch, &format!("{at}.{key}[{index}]"), found, depth + 1);
        }
    }
    for (name, property) in schema["properties"].as_object().into_iter().flatten() {
        unbounded_strings(document, property, &format!("{at}.{name}"), found, depth + 1);
    }
    if schema["items"].is_object() {
        unbounded_strings(document, &schema["items"], &format!("{at}[]"), found, depth + 1);
    }
    if schema["additionalProperties"].is_object() {
        unbounded_strings(document, &schema["additionalProperties"], &format!("{at}.*"), found, depth + 1);
    }
}

#[tokio::test]
async fn every_error_response_is_problem_json() {
    let document = document().await;
    for (label, operation) in operations(&document) {
        for (status, response) in operation["responses"].as_object().unwrap() {
            if status.starts_with('4') || status.starts_with('5') {
                let types: Vec<&String> = response["content"].as_object().unwrap().keys().collect();
                assert_eq!(types, ["application/problem+json"], "{label} {status}");
            }
        }
    }
}

/// The permissions of the domain's table, as the document names them.
const PERMISSIONS: [&str; 8] = [
    "surveys.read",
    "surveys.write",
    "distribution.read",
    "distribution.write",
    "answers.read",
    "answers.write",
    "governance",
    "admin",
];

#[tokio::test]
async fn every_keyed_operation_names_one_permission_of_the_table_and_no_keyless_one_does() {
    let document = document().await;
    let mut keyed = 0;
    for (label, operation) in operations(&document) {
        let permission = operation.get("x-canvass-permission");
        if operation["security"].as_array().is_some_and(|s| !s.is_empty()) {
            keyed += 1;
            let named = permission.and_then(Value::as_str).unwrap_or_else(|| panic!("{label} names no permission"));
            assert!(PERMISSIONS.contains(&named), "{label}: {named} is no permission of the table");
            let audited = operation.get("x-canvass-audit").and_then(Value::as_str);
            let changes = !label.starts_with("GET ") && !named.ends_with(".read");
            assert!(!changes || audited.is_some(), "{label} changes something: the audit log records it");
            assert!(audited.is_none_or(|action| action.split_once('.').is_some()), "{label}: <resource>.<verb>");
        } else {
            assert!(permission.is_none(), "{label} needs no key, so no permission");
        }
    }
    assert!(keyed > 100, "{keyed} keyed operations");
}

#[tokio::test]
async fn shared_statuses_are_listed_where_they_can_be_answered() {
    let document = document().await;
    for (label, operation) in operations(&document) {
        let responses = operation["responses"].as_object().unwrap();
        let lists = |statuses: &[&str]| statuses.iter().all(|s| responses.contains_key(*s));
        if operation["security"].as_array().is_some_and(|s| !s.is_empty()) {
            assert!(lists(&["401", "403", "429", "503"]), "{label} is keyed: 401, 403, 429 and 503");
            assert!(responses["429"]["headers"].get("Retry-After").is_some(), "{label}: 429 has Retry-After");
        }
        if operation["requestBody"].is_object() {
            assert!(lists(&["400", "408", "413", "415"]), "{label} takes a body: 400, 408, 413, 415");
        }
        let parameters: Vec<&Value> = operation["parameters"].as_array().into_iter().flatten().collect();
        if parameters.iter().any(|p| p["in"] == "path") {
            assert!(lists(&["400", "404"]), "{label} has path parameters: 400 and 404");
        }
        // Liveness asks no database, and /metrics serves without the outbox gauges when the database cannot answer.
        if !label.ends_with("/health/live") && !label.ends_with(" /metrics") {
            assert!(responses["503"]["headers"].get("Retry-After").is_some(), "{label}: 503 with Retry-After");
        }
    }
}

#[tokio::test]
async fn every_request_string_has_a_maximum_length() {
    let document = document().await;
    let mut found = Vec::new();
    for (label, operation) in operations(&document) {
        for parameter in operation["parameters"].as_array().into_iter().flatten() {
            let at = format!("{label} {} {}", parameter["in"], parameter["name"]);
            if parameter["in"] != "header" {
                unbounded_strings(&document, &parameter["schema"], &at, &mut found, 0);
            }
        }
        for (media_type, content) in operation["requestBody"]["content"].as_object().into_iter().flatten() {
            if media_type == "application/json" {
                unbounded_strings(&document, &content["schema"], &format!("{label} body"), &mut found, 0);
            }
        }
    }
    assert!(found.is_empty(), "strings without maxLength:\n{}", found.join("\n"));
}

/// Every `$ref` under `value`, with where it is.
fn references(value: &Value, at: &str, found: &mut Vec<(String, String)>) {
    match value {
        Value::Object(fields) => {
            for (name, field) in fields {
                match (name.as_str(), field) {
                    ("$ref", Value::String(target)) => found.push((at.to_owned(), target.clone())),
                    _ => references(field, &format!("{at}/{name}"), found),
                }
            }
        }
        Value::Array(items) => {
            items.iter().enumerate().for_each(|(i, item)| references(item, &format!("{at}/{i}"), found))
        }
        _ => {}
    }
}

#[tokio::test]
async fn every_reference_resolves() {
    let document = document().await;
    let mut found = Vec::new();
    references(&document, "", &mut found);
    assert!(found.len() > 100, "the document refers to its schemas: {}", found.len());
    let dangling: Vec<String> = found
        .into_iter()
        .filter(|(_, target)| {
            let path = target.strip_prefix("#/").unwrap_or(target);
            path.split('/').try_fold(&document, |node, part| node.get(part)).is_none()
        })
        .map(|(at, target)| format!("{at} -> {target}"))
        .collect();
    assert!(dangling.is_empty(), "references to nothing:\n{}", dangling.join("\n"));
}

#[tokio::test]
async fn paging_and_days_state_their_ranges() {
    let document = document().await;
    let page = &document["paths"]["/api/v1/email-bounces/permanent-failures"]["get"]["parameters"];
    let size = page.as_array().unwrap().iter().find(|p| p["name"] == "pageSize").unwrap();
    assert_eq!((size["schema"]["minimum"].clone(), size["schema"]["maximum"].clone()), (1.into(), 1000.into()));
    let survey = resolve(&document, &document["components"]["schemas"]["CreateSurveyBody"]);
    assert_eq!(survey["properties"]["name"]["maxLength"], 500);
    assert_eq!(survey["properties"]["name"]["minLength"], 1);
}

#[tokio::test]
async fn undeclared_methods_answer_405_with_allow() {
    let app = spawn_app().await;
    for (method, path, allow) in [
        ("TRACE", "/api/v1/surveys", "GET, POST"),
        ("DELETE", "/api/v1.3/surveys", "GET, POST"),
        ("POST", "/api/v1/surveys/frequency", "GET, PUT"),
        ("PATCH", "/api/v1/surveys/7", "GET"),
        ("PATCH", "/api/v1/contacts/import", "POST"),
        ("GET", "/api/v1/contacts/import", "POST"),
        ("TRACE", "/health/live", "GET"),
    ] {
        let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let request = app.client.request(method.clone(), format!("{}{path}", app.address));
        let response = request.header("X-API-KEY", &app.key).send().await.unwrap();
        assert_eq!(response.status().as_u16(), 405, "{method} {path}");
        assert_eq!(response.headers()["allow"], allow, "{method} {path}");
        assert_eq!(response.headers()["content-type"], "application/problem+json");
    }
    let unknown = app.client.request(reqwest::Method::TRACE, format!("{}/api/v1/nothing", app.address));
    assert_eq!(unknown.header("X-API-KEY", &app.key).send().await.unwrap().status().as_u16(), 404);
    // Authentication comes before everything else: without a key even an undeclared method answers 401.
    let keyless = app.client.request(reqwest::Method::TRACE, format!("{}/api/v1/surveys", app.address));
    assert_eq!(keyless.send().await.unwrap().status().as_u16(), 401);
}

/// Where `value` holds a `propertyNames` schema that is not a string one, as JSON pointers.
fn non_string_property_names(value: &Value, at: &str, found: &mut Vec<String>) {
    match value {
        Value::Object(fields) => {
            if let Some(names) = fields.get("propertyNames") {
                if names["type"] != "string" {
                    found.push(at.to_owned());
                }
            }
            for (key, child) in fields {
                non_string_property_names(child, &format!("{at}/{key}"), found);
            }
        }
        Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                non_string_property_names(child, &format!("{at}/{index}"), found);
            }
        }
        _ => {}
    }
}

#[tokio::test]
async fn object_keys_are_documented_as_strings() {
    // JSON object keys are strings: a map keyed by label id must say so (digits), or no response can match it.
    let document = document().await;
    let mut found = Vec::new();
    non_string_property_names(&document, "", &mut found);
    assert!(found.is_empty(), "propertyNames that no JSON key can match: {found:?}");
}

#[tokio::test]
async fn delivery_state_is_stated_on_sendouts_and_respondents() {
    let document = document().await;
    let schemas = &document["components"]["schemas"];
    let sendout = resolve(&document, &schemas["SendoutResponse"]);
    let required: Vec<&str> = sendout["required"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    assert!(required.contains(&"delivery"), "{sendout}");
    let delivery = resolve(&document, &sendout["properties"]["delivery"]);
    for count in ["queued", "sent", "bounced", "failed", "expired", "held"] {
        assert_eq!(delivery["properties"][count]["minimum"], 0, "{count}: {delivery}");
    }
    let issue = serde_json::to_string(&sendout["properties"]["deliveryIssue"]).unwrap();
    assert!(issue.contains("DeliveryIssueBody") && issue.contains("null"), "nullable: {issue}");
    let kind = resolve(&document, &schemas["DeliveryIssueBody"]["properties"]["kind"]);
    assert_eq!(kind["enum"], serde_json::json!(["relay", "sender", "throttled", "dailyLimit"]));
    let respondent = resolve(&document, &schemas["RespondentResponse"]);
    assert_eq!(respondent["properties"]["nextAttemptAt"]["format"], "date-time", "{respondent}");
    assert!(
        respondent["properties"]["deliveryAttempts"].is_object()
            && respondent["properties"]["lastDeliveryError"].is_object()
    );
}

/// The types a property schema allows (`"string"`, `["string", "null"]`, or a `oneOf` with a `null` branch).
fn allows_null(schema: &Value) -> bool {
    let types = schema["type"].as_array().is_some_and(|types| types.iter().any(|t| t == "null"));
    types || schema["oneOf"].as_array().is_some_and(|branches| branches.iter().any(|b| b["type"] == "null"))
}

/// The schema a property refers to, through a `oneOf` with a `null` branch when it is nullable.
fn referred<'a>(document: &'a Value, schema: &'a Value) -> &'a Value {
    let branch = schema["oneOf"].as_array().and_then(|branches| branches.iter().find(|b| b["type"] != "null"));
    resolve(document, branch.unwrap_or(schema))
}

fn required(schema: &Value) -> Vec<&str> {
    schema["required"].as_array().into_iter().flatten().filter_map(Value::as_str).collect()
}

#[tokio::test]
async fn the_respondent_language_fields_state_what_is_served() {
    let document = document().await;
    let schemas = &document["components"]["schemas"];
    let codes = serde_json::json!(["en", "sv", "da", "nb", "fi", "de", "fr", "es", "nl", "pl", "it", "pt"]);

    // A sendout is one of its shapes by type, each with the same optional language.
    let shapes = schemas["CreateSendoutBody"]["oneOf"].as_array().unwrap();
    assert_eq!(shapes.len(), 4, "LOGIN, EMAIL, SMS and TWOWAY, LINK");
    for create in shapes.iter().map(|shape| resolve(&document, shape)) {
        let language = referred(&document, &create["properties"]["language"]);
        assert_eq!((&language["type"], &language["enum"]), (&Value::from("string"), &codes), "{language}");
        assert!(language["description"].as_str().is_some_and(|d| d.contains("ISO 639-1")), "{language}");
        assert!(allows_null(&create["properties"]["language"]) && !required(create).contains(&"language"), "{create}");
    }
    let sendout = &schemas["SendoutResponse"];
    assert_eq!(referred(&document, &sendout["properties"]["language"])["enum"], codes);
    assert!(required(sendout).contains(&"language") && !allows_null(&sendout["properties"]["language"]));

    for (name, property, max, always) in [
        ("CreateSurveyBody", "thankYouMessage", 2000, false),
        ("SurveyResponse", "thankYouMessage", 2000, true),
        ("RatingItemBody", "minLabel", 60, false),
        ("RatingItemBody", "maxLabel", 60, false),
        ("RatingItem", "minLabel", 60, true),
        ("RatingItem", "maxLabel", 60, true),
    ] {
        let schema = &schemas[name];
        let field = &schema["properties"][property];
        assert_eq!(field["maxLength"], max, "{name}.{property}: {field}");
        assert!(allows_null(field), "{name}.{property} is nullable: {field}");
        assert_eq!(required(schema).contains(&property), always, "{name}.{property} required: {schema}");
    }
}
