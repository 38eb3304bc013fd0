//! Erasure reaches everything that holds the person: the address is put into every place the API and the workers
//! can put it (respondents of two sendouts, their background data, a message sent and bounced late, one a relay
//! held quoting the address, permanent failures, an answer that quotes it and its copies in a survey copied with
//! its answers and in a copy of that copy, an alert email about the answer not yet sent, webhook deliveries about
//! the respondent, keyed requests whose kept answers hold it), then `POST /accounts/erasure`, and every text, varchar, text array, bytea and jsonb column of
//! every table (from `information_schema.columns`) is scanned for it. With `includeAnswers` the copies of the
//! person's answer sets go with them, and their exports hold nothing of the person.
//! A system test: it runs the delivery and webhook workers' rounds and reads the database.

use canvass_sinks::{postfix_dsn, SmsSink, SmtpSink, WebhookSink};
use diesel::sql_types::{BigInt, Text};
use diesel::{QueryableByName, RunQueryDsl};
use serde_json::{json, Value};
use time::OffsetDateTime;

use crate::api::accounts::webhooks::{app_allowing_private, create};
use crate::api::exports::export;
use crate::helpers::{deliver_on, erased_counts, header, post_dsn, spawn_app, TestApp, DSN_SECRET};
use crate::system::webhook_delivery::deliver as deliver_webhooks;

/// The person, as their address is written in the places it reaches (each compares case-insensitively).
const WRITTEN: [&str; 3] = ["Kari.Nordmann@Example.NO", "kari.nordmann@example.no", "KARI.NORDMANN@EXAMPLE.NO"];

/// Where the address may stay after its erasure: the blocklist keeps its entry, so that the person is never
/// contacted again (the contract's "Erasure of one person").
const KEPT_BY_CONTRACT: [&str; 2] = ["blocklist.contact_details", "blocklist.contact_key"];

#[derive(QueryableByName)]
struct Column {
    #[diesel(sql_type = Text)]
    table_name: String,
    #[diesel(sql_type = Text)]
    column_name: String,
    /// The column as text: itself, `::text` of jsonb, the escape form of bytea, the elements of an array.
    #[diesel(sql_type = Text)]
    as_text: String,
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    count: i64,
}

/// Every `table.column` of the database whose value holds the address in any case (or percent-encoded, as in a
/// path), sorted.
fn columns_holding(app: &TestApp, address: &str) -> Vec<String> {
    let mut conn = app.db.connect();
    let columns: Vec<Column> = diesel::sql_query(
        "SELECT table_name::text, column_name::text, CASE \
             WHEN data_type = 'jsonb' THEN format('%I::text', column_name) \
             WHEN data_type = 'bytea' THEN format('encode(%I, ''escape'')', column_name) \
             WHEN data_type = 'ARRAY' THEN format('array_to_string(%I, '' '')', column_name) \
             ELSE quote_ident(column_name) END AS as_text \
         FROM information_schema.columns \
         WHERE table_schema = 'public' \
           AND (data_type IN ('text', 'character varying', 'character', 'bytea', 'jsonb', 'json') \
                OR (data_type = 'ARRAY' AND udt_name IN ('_text', '_varchar'))) \
         ORDER BY table_name, column_name",
    )
    .load(&mut conn)
    .unwrap();
    assert!(columns.len() > 40, "every table's text columns are scanned: {}", columns.len());
    let encoded = address.replace('@', "%40");
    let mut holding: Vec<String> = columns
        .into_iter()
        .filter(|column| {
            let sql = format!(
                "SELECT count(*) AS count FROM {} WHERE {expr} ILIKE $1 OR {expr} ILIKE $2",
                quote(&column.table_name),
                expr = column.as_text
            );
            let found: Count = diesel::sql_query(sql)
                .bind::<Text, _>(format!("%{address}%"))
                .bind::<Text, _>(format!("%{encoded}%"))
                .get_result(&mut conn)
                .unwrap();
            found.count > 0
        })
        .map(|column| format!("{}.{}", column.table_name, column.column_name))
        .collect();
    holding.sort();
    holding
}

/// A table name quoted as an identifier.
fn quote(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// POSTs `body` to `/api/v1{path}` with an Idempotency-Key; returns the status and body.
async fn keyed(app: &TestApp, path: &str, key: &str, body: Value) -> (u16, Value) {
    let reply = app.post_keyed_as(&app.key, path, key, &body).await;
    (reply.status.as_u16(), reply.body)
}

/// An EMAIL sendout of `survey`, sent from 2020-01-01; returns its base path.
async fn sendout(app: &TestApp, survey: i64) -> String {
    let body = json!({"name": "Invite", "type": "EMAIL", "sendDate": "2020-01-01T08:00:00Z",
        "sender": "hr@acme.example", "subject": "Your view", "message": "Answer: {{surveyLink}}"});
    let id = app.post(&format!("/surveys/{survey}/sendouts"), body).await.expect(201)["sendoutId"].clone();
    format!("/surveys/{survey}/sendouts/{id}")
}

/// Copies `survey` with its answers (`copyanswers=true`); returns the copy's id.
async fn copy_with_answers(app: &TestApp, survey: i64) -> i64 {
    let copy = app.get(&format!("/surveys/{survey}/copy?surveyname=Copy&copyanswers=true")).await.expect(200);
    copy["surveyId"].as_i64().unwrap()
}

/// One round of the delivery worker through `relay`.
fn round(app: &TestApp, relay: &SmtpSink) {
    deliver_on(app, &relay.url, &SmsSink::start("", "").url, OffsetDateTime::now_utc());
}

#[tokio::test]
async fn after_an_erasure_no_column_of_any_table_holds_the_address() {
    let app = app_allowing_private().await;
    let hooks = WebhookSink::start();
    create(&app, &app.key, &hooks.url, &["respondent.sent", "respondent.bounced", "answerSet.completed"]).await;
    let survey = json!({"name": "Pulse", "pages": [{"items": [{"type": "OpenText", "text": "Anything else?"}]}]});
    let survey = app.post("/surveys", survey).await.expect(201)["surveyId"].as_i64().unwrap();
    let item = app.get(&format!("/surveys/{survey}/questions")).await.expect(200)["pages"][0]["items"][0]
        ["questionItemId"]
        .clone();

    // The first sendout: the person added by a keyed request, beside a bystander; sent, then bounced late.
    let first = sendout(&app, survey).await;
    let person = json!({"contactDetails": WRITTEN[0], "sendMail": true});
    let (status, added) = keyed(&app, &format!("{first}/respondents"), "add-kari", person).await;
    assert_eq!(status, 201, "{added}");
    let bystander = json!({"contactDetails": "ola@example.no", "sendMail": true});
    app.post(&format!("{first}/respondents"), bystander).await.expect(201);
    app.post(&format!("{first}/activate"), json!({})).await.expect(200);
    let relay = SmtpSink::start("", "");
    round(&app, &relay);
    let message = relay.messages().into_iter().find(|m| header(m, "To:").contains(WRITTEN[0])).unwrap();
    let diagnostic = format!("smtp; 550 5.1.1 <{}>: Recipient address rejected: User unknown", WRITTEN[2]);
    let report = postfix_dsn(header(&message, "Message-ID:"), WRITTEN[0], "failed", "5.1.1", &diagnostic);
    assert_eq!(post_dsn(&app, Some(DSN_SECRET), report).await.0, 200);
    // An alert that includes the answers: its email about her set quotes her answer, and waits (its recipient
    // is refused for now by the relay of the second sendout's round below).
    let alert = json!({"name": "Any answer", "recipients": ["kari.boss@acme.example"], "includeAnswers": true,
        "when": {"questionItemId": item, "operator": "answered"}});
    app.post(&format!("/surveys/{survey}/alerts"), alert).await.expect(201);
    let answer = json!({"respondentId": added["respondentId"], "completed": true,
        "answers": [{"questionItemId": item, "value": format!("Write to {} please", WRITTEN[2])}]});
    app.post(&format!("/surveys/{survey}/answers"), answer).await.expect(201);
    // The survey copied with its answers, and the copy copied again: their answer sets belong to no respondent.
    let copy = copy_with_answers(&app, survey).await;
    let copy_of_copy = copy_with_answers(&app, copy).await;

    // The second sendout: the person with background data that holds the address, held by a relay that quotes it.
    let second = sendout(&app, survey).await;
    let label = json!({"name": "Work email", "labelType": "Email"});
    let label = app.post(&format!("{second}/labels"), label).await.expect(201)["labelId"].to_string();
    let person = json!({"contactDetails": WRITTEN[1], "sendMail": true, "backgroundData": {label.clone(): WRITTEN[0]}});
    let again = app.post(&format!("{second}/respondents"), person).await.expect(201)["respondentId"].clone();
    let bystander = json!({"contactDetails": "nils@example.no", "sendMail": true});
    app.post(&format!("{second}/respondents"), bystander).await.expect(201);
    app.post(&format!("{second}/activate"), json!({})).await.expect(200);
    let refusal = format!("454 4.7.1 <{}>: Recipient address rejected: try again later", WRITTEN[0]);
    round(&app, &SmtpSink::builder().refuse_rcpt("kari", refusal).start());
    let held = app.get(&second).await.expect(200);
    assert!(held["deliveryIssue"]["reply"].as_str().unwrap().contains(WRITTEN[0]), "{held}");

    // The webhook's deliveries about the respondent, delivered; a failure recorded through the API; a keyed read of
    // the background data row; the blocklist entry, last, so that it held back no message.
    deliver_webhooks(&app, OffsetDateTime::now_utc(), true).await;
    assert!(hooks.received().len() >= 3, "sent, bounced and completed reached the webhook");
    let failure = json!({"failures": [{"emailAddress": WRITTEN[2], "sendingDomain": "acme.example",
        "failedAt": "2020-11-20T10:00:00Z", "reason": format!("550 5.1.1 <{}>: no such user", WRITTEN[1])}]});
    assert_eq!(keyed(&app, "/email-bounces/permanent-failures", "bounce", failure).await.0, 200);
    let documents = app.get("/bgdata/bgdocuments").await.expect(200);
    let second_id: i64 = second.rsplit('/').next().unwrap().parse().unwrap();
    let document = documents.as_array().unwrap().iter().find(|d| d["sendoutId"] == second_id).unwrap().clone();
    let row = format!("/bgdata/bgdocuments/{}/rows/{again}", document["bgDocumentId"]);
    assert_eq!(keyed(&app, &row, "read-row", json!({"labels": [label.parse::<i64>().unwrap()]})).await.0, 200);
    let entry = json!({"contactDetails": WRITTEN[2], "type": "OptedOut"});
    assert_eq!(keyed(&app, "/accounts/blocklist", "block-kari", entry).await.0, 201);
    // The directory's contact, created with a key and put in a list.
    let (status, contact) = keyed(&app, "/contacts", "contact-kari", json!({"email": WRITTEN[0]})).await;
    assert_eq!(status, 201);
    let list = app.post("/contact-lists", json!({"name": "Everyone"})).await.expect(201)["listId"].clone();
    let members = json!({"contactIds": [contact["contactId"]]});
    app.post(&format!("/contact-lists/{list}/members"), members).await.expect(200);

    // Before: the scan finds the address wherever it was put, so that the scan after cannot pass for want of it.
    let before = columns_holding(&app, WRITTEN[1]);
    for place in [
        "alert_emails.body",
        "answers.value",
        "blocklist.contact_details",
        "contacts.email",
        "contacts.email_key",
        "idempotency_keys.body",
        "outbox.last_error",
        "permanent_failures.email_address",
        "permanent_failures.reason",
        "respondents.background_data",
        "respondents.contact_details",
        "respondents.contact_key",
        "sendouts.delivery_issue_reply",
    ] {
        assert!(before.contains(&place.to_owned()), "{place} holds the address before the erasure: {before:?}");
    }

    let erased = app.post("/accounts/erasure", json!({"contactDetails": WRITTEN[2]})).await.expect(200);
    assert_eq!(erased_counts(erased), json!({"respondentsErased": 2, "answerSetsDeleted": 0}));

    assert_eq!(columns_holding(&app, WRITTEN[1]), KEPT_BY_CONTRACT, "only the blocklist keeps the address");
    assert_eq!(app.get("/contact-lists").await.expect(200)[0]["memberCount"], 0, "the contact left its list");
    // What stays, stays, without the person: the bystanders, the redacted reply and answer.
    assert_eq!(app.statuses(&first).await.len(), 1);
    assert_eq!(app.statuses(&second).await.len(), 1);
    let reply = app.get(&second).await.expect(200)["deliveryIssue"]["reply"].clone();
    assert_eq!(reply, json!("454 4.7.1 <[erased]>: Recipient address rejected: try again later"));
    let sets = app.get(&format!("/surveys/{survey}/answersWithData")).await.expect(200);
    assert!(sets.to_string().contains("Write to [erased] please"), "{sets}");
    for copied in [copy, copy_of_copy] {
        let sets = app.get(&format!("/surveys/{copied}/answersWithData")).await.expect(200);
        assert!(sets.to_string().contains("Write to [erased] please"), "survey {copied}: {sets}");
    }
}

/// A phone number the person gives in an open text answer.
const PHONE: &str = "+4791234567";

#[tokio::test]
async fn with_answers_an_erasure_leaves_no_copy_of_them() {
    let app = spawn_app().await;
    let survey = json!({"name": "Pulse", "pages": [{"items": [{"type": "OpenText", "text": "How do we reach you?"}]}]});
    let person = json!({"contactDetails": WRITTEN[0], "sendMail": false});
    let invite = json!({"name": "Invite", "type": "EMAIL", "sendDate": "2020-01-01T08:00:00Z",
        "sender": "hr@acme.example", "subject": "Your view", "message": "Answer: {{surveyLink}}"});
    let (survey, base, _, kari) = app.one_respondent_sendout(&app.key, survey, invite, person).await;
    let bystander = json!({"contactDetails": "ola@example.no", "sendMail": false});
    let ola = app.post(&format!("{base}/respondents"), bystander).await.expect(201);
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    let item = app.get(&format!("/surveys/{survey}/questions")).await.expect(200)["pages"][0]["items"][0]
        ["questionItemId"]
        .clone();
    for (respondent, text) in [(&kari, format!("Mail {} or call {PHONE}", WRITTEN[2])), (&ola, "Not at all".into())] {
        let answer = json!({"respondentId": respondent["respondentId"], "completed": true,
            "answers": [{"questionItemId": item, "value": text}]});
        app.post(&format!("/surveys/{survey}/answers"), answer).await.expect(201);
    }
    let copy = copy_with_answers(&app, survey).await;
    let copy_of_copy = copy_with_answers(&app, copy).await;
    let entry = json!({"contactDetails": WRITTEN[1], "type": "OptedOut"});
    app.post("/accounts/blocklist", entry).await.expect(201);
    for copied in [copy, copy_of_copy] {
        let csv = String::from_utf8(export(&app, copied, "format=csv").await).unwrap();
        assert!(csv.contains(WRITTEN[2]) && csv.contains(PHONE), "the copy's export holds her before: {csv}");
    }

    let erased = app.post("/accounts/erasure", json!({"contactDetails": WRITTEN[1], "includeAnswers": true})).await;
    assert_eq!(
        erased_counts(erased.expect(200)),
        json!({"respondentsErased": 1, "answerSetsDeleted": 3}),
        "hers and two copies"
    );

    assert_eq!(columns_holding(&app, WRITTEN[0]), KEPT_BY_CONTRACT, "only the blocklist keeps the address");
    assert_eq!(columns_holding(&app, PHONE), Vec::<String>::new(), "the number she gave is nowhere");
    for copied in [copy, copy_of_copy] {
        let csv = String::from_utf8(export(&app, copied, "format=csv").await).unwrap();
        assert!(!csv.to_lowercase().contains(WRITTEN[1]) && !csv.contains(PHONE), "survey {copied}: {csv}");
        assert!(csv.contains("Not at all"), "the bystander's copy stays: {csv}");
    }
}
