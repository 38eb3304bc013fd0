//! States the API cannot reach, planted with SQL on the test database, then observed over HTTP: what a race leaves
//! behind (a contact blocklisted while a batch was adding it), and a survey link of the form sent before links named
//! their account. Each would otherwise need a race won on purpose or an old release.

use diesel::sql_types::{BigInt, Text};
use diesel::RunQueryDsl;
use serde_json::json;

use crate::api::respondent::public_handles::{active_login, login, open, token_of};
use crate::helpers::{email_sendout, spawn_app, survey_with_sendout};

#[tokio::test]
async fn a_contact_blocklisted_while_it_was_being_added_is_never_released() {
    let app = spawn_app().await;
    let (survey, sendout) = survey_with_sendout(&app, email_sendout()).await;
    let base = format!("/surveys/{survey}/sendouts/{sendout}");
    let people = json!({"surveyRespondents": [{"contactDetails": "late@example.com", "sendMail": true},
        {"contactDetails": "fine@example.com", "sendMail": false}]});
    app.post(&format!("{base}/respondents/batch"), people).await.expect(200);
    // What a blocklist entry committed between a batch's blocklist check and its insert leaves behind: an entry,
    // and a Pending respondent with that contact.
    diesel::sql_query(
        "INSERT INTO blocklist (account_id, contact_key, contact_details, entry_type, created_at) \
         SELECT account_id, 'late@example.com', 'late@example.com', 'OptedOut', now() FROM sendouts LIMIT 1",
    )
    .execute(&mut app.db.connect())
    .unwrap();
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    assert_eq!(app.statuses(&base).await, ["Blocklisted", "Released"]);
}

#[tokio::test]
async fn a_new_link_names_its_account_and_a_link_of_the_old_form_still_opens() {
    let app = spawn_app().await;
    let (_, sendout, respondent) = active_login(&app).await;
    let token = token_of(&respondent);
    let (account, random) = token.split_once('-').unwrap();
    assert_eq!(account, app.account_id.to_string(), "{token}");
    assert!(random.len() == 40 && random.bytes().all(|b| b.is_ascii_hexdigit()), "{token}");
    let (status, page) = open(&app, &format!("/r/{token}")).await;
    assert!(status == 200 && page.contains("Why?"), "{status}");

    // A link sent before tokens named their account: 40 hex digits alone, stored as it was.
    let old = "0123456789abcdef0123456789abcdef01234567";
    diesel::sql_query("UPDATE respondents SET token = $1 WHERE account_id = $2 AND id = $3")
        .bind::<Text, _>(old)
        .bind::<BigInt, _>(app.account_id)
        .bind::<BigInt, _>(respondent["respondentId"].as_i64().unwrap())
        .execute(&mut app.db.connect())
        .unwrap();
    let (status, page) = open(&app, &format!("/r/{old}")).await;
    assert!(status == 200 && page.contains("Why?"), "an old link opens its page: {status}");
    let (status, page) = open(&app, &format!("/r/{old}/opt-out")).await;
    assert!(status == 200 && page.contains("<form"), "and its opt-out page: {status}");
    assert_eq!(login(&app, &json!(sendout), "employee-7").await, Some(format!("/r/{old}")), "a login leads to it");
    assert_eq!(open(&app, &format!("/r/{token}")).await.0, 404, "the replaced token opens nothing");
    assert_eq!(open(&app, &format!("/r/{}-{old}", app.account_id)).await.0, 404, "its random part is no new token");
}
