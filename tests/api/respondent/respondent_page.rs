//! The respondent page over HTTP, as a browser without JavaScript uses it: open the link, answer page by page
//! (following the logic), leave, resume, complete; opt out.

use serde_json::{json, Value};

use crate::helpers::{item_id, page_id, spawn_app, TestApp};

struct Page {
    status: u16,
    html: String,
}

async fn get(app: &TestApp, path: &str) -> Page {
    let response = app.client.get(format!("{}{path}", app.address)).send().await.unwrap();
    Page { status: response.status().as_u16(), html: response.text().await.unwrap() }
}

async fn post_form(app: &TestApp, path: &str, form: &[(String, String)]) -> Page {
    let response = app.client.post(format!("{}{path}", app.address)).form(form).send().await.unwrap();
    Page { status: response.status().as_u16(), html: response.text().await.unwrap() }
}

/// A survey of three pages (answering "no" on page one jumps to page three), an active EMAIL sendout and one
/// respondent; returns `(survey, tree, sendout base path, link path, respondent)`.
async fn invited(app: &TestApp, name: &str) -> (i64, Value, String, String, Value) {
    let body = json!({"name": name, "pages": [
        {"title": "Mood", "items": [{"type": "SingleChoice", "text": "Happy?", "required": true,
            "options": [{"value": "yes", "label": "Yes"}, {"value": "no", "label": "No"}]}]},
        {"title": "Hours", "items": [{"type": "Numeric", "text": "Hours worked?"}]},
        {"title": "More", "items": [{"type": "OpenText", "text": "Anything else?"}, {"type": "MultipleChoice", "text": "Topics",
            "options": [{"value": "pay"}, {"value": "team"}]}]}
    ]});
    let survey = app.post("/surveys", body).await.expect(201)["surveyId"].as_i64().unwrap();
    let tree = app.get(&format!("/surveys/{survey}/questions")).await.expect(200);
    let rule = json!([{"questionItemId": item_id(&tree, 0, 0), "equals": "no", "goToPageId": page_id(&tree, 2)}]);
    app.put(&format!("/surveys/{survey}/logic"), rule).await.expect(200);
    let sendout = app.post(&format!("/surveys/{survey}/sendouts"), crate::helpers::email_sendout()).await.expect(201)
        ["sendoutId"]
        .as_i64()
        .unwrap();
    let base = format!("/surveys/{survey}/sendouts/{sendout}");
    let respondent = app
        .post(&format!("{base}/respondents"), json!({"contactDetails": "Ann@example.com", "sendMail": true}))
        .await
        .expect(201);
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    let link = respondent["surveyLink"].as_str().unwrap().strip_prefix(&app.address).unwrap().to_owned();
    (survey, tree, base, link, respondent)
}

fn field(item: i64, value: &str) -> (String, String) {
    (format!("q{item}"), value.to_owned())
}

fn on_page(page: i64) -> (String, String) {
    ("page".to_owned(), page.to_string())
}

#[tokio::test]
async fn a_respondent_answers_leaves_resumes_and_completes() {
    let app = spawn_app().await;
    let (survey, tree, _, link, respondent) = invited(&app, "Pulse <b>2026</b>").await;
    let first = get(&app, &link).await;
    assert_eq!(first.status, 200);
    assert!(first.html.contains("Page 1 of 3") && first.html.contains("Happy?"), "{}", first.html);
    assert!(first.html.contains("Pulse &lt;b&gt;2026&lt;/b&gt;"), "text is escaped");

    let refused = post_form(&app, &link, &[on_page(page_id(&tree, 0))]).await;
    assert_eq!(refused.status, 400);
    assert!(refused.html.contains("Please answer this question."));
    assert_eq!(app.get(&format!("/surveys/{survey}/answers")).await.expect(200), json!([]), "nothing saved");

    let jumped = post_form(&app, &link, &[on_page(page_id(&tree, 0)), field(item_id(&tree, 0, 0), "no")]).await;
    assert_eq!(jumped.status, 200);
    assert!(jumped.html.contains("Page 3 of 3"), "the logic skips page two: {}", jumped.html);
    let resumed = get(&app, &link).await;
    assert!(resumed.html.contains("Page 3 of 3"), "a returning respondent resumes where they left");
    let partial =
        app.get(&format!("/surveys/{survey}/answers/respondent/{}", respondent["respondentId"])).await.expect(200);
    assert_eq!(partial[0]["completed"], false);
    assert_eq!(partial[0]["sendoutId"], respondent["sendoutId"]);

    let last = [
        on_page(page_id(&tree, 2)),
        field(item_id(&tree, 2, 0), "All good"),
        field(item_id(&tree, 2, 1), "pay"),
        field(item_id(&tree, 2, 1), "team"),
    ];
    let done = post_form(&app, &link, &last).await;
    assert!(done.html.contains("Thank you"), "{}", done.html);
    let sets =
        app.get(&format!("/surveys/{survey}/answers/respondent/{}", respondent["respondentId"])).await.expect(200);
    assert_eq!(sets.as_array().unwrap().len(), 1);
    assert_eq!(sets[0]["completed"], true);
    assert_eq!(
        sets[0]["answers"],
        json!([
            {"questionItemId": item_id(&tree, 0, 0), "value": "no"},
            {"questionItemId": item_id(&tree, 2, 0), "value": "All good"},
            {"questionItemId": item_id(&tree, 2, 1), "value": ["pay", "team"]}
        ])
    );
    assert!(get(&app, &link).await.html.contains("Thank you"), "a completed survey stays completed");
}

#[tokio::test]
async fn pages_are_answered_in_the_order_of_the_logic() {
    let app = spawn_app().await;
    let body = json!({"name": "Order", "pages": [
        {"items": [{"type": "SingleChoice", "text": "Happy?", "required": true,
            "options": [{"value": "yes"}, {"value": "no"}]}]},
        {"items": [{"type": "Rating", "text": "Rate us", "required": true}]},
        {"items": [{"type": "OpenText", "text": "Anything else?"}]}
    ]});
    let survey = app.post("/surveys", body).await.expect(201)["surveyId"].as_i64().unwrap();
    let tree = app.get(&format!("/surveys/{survey}/questions")).await.expect(200);
    let sendout = app.post(&format!("/surveys/{survey}/sendouts"), crate::helpers::email_sendout()).await.expect(201)
        ["sendoutId"]
        .clone();
    let base = format!("/surveys/{survey}/sendouts/{sendout}");
    let person = json!({"contactDetails": "ann@example.com", "sendMail": true});
    let link = app.post(&format!("{base}/respondents"), person).await.expect(201)["surveyLink"].as_str().unwrap()
        [app.address.len()..]
        .to_owned();
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);

    let last = [on_page(page_id(&tree, 2)), field(item_id(&tree, 2, 0), "done")];
    let skipped = post_form(&app, &link, &last).await;
    assert_eq!(skipped.status, 400, "the last page posted first completes nothing");
    assert!(skipped.html.contains("Page 1 of 3") && skipped.html.contains("in order"), "{}", skipped.html);
    assert_eq!(app.get(&format!("/surveys/{survey}/answers")).await.expect(200), json!([]), "nothing saved");

    post_form(&app, &link, &[on_page(page_id(&tree, 0)), field(item_id(&tree, 0, 0), "yes")]).await;
    let skipped = post_form(&app, &link, &last).await;
    assert_eq!(skipped.status, 400, "page two and its required rating come first");
    assert!(skipped.html.contains("Page 2 of 3"), "{}", skipped.html);
    let sets = app.get(&format!("/surveys/{survey}/answers?completed=true")).await.expect(200);
    assert_eq!(sets, json!([]), "no answer set is complete");

    let back = post_form(&app, &link, &[on_page(page_id(&tree, 0)), field(item_id(&tree, 0, 0), "no")]).await;
    assert!(back.html.contains("Page 2 of 3"), "a passed page can be answered again: {}", back.html);
    post_form(&app, &link, &[on_page(page_id(&tree, 1)), field(item_id(&tree, 1, 0), "7")]).await;
    let done = post_form(&app, &link, &last).await;
    assert!(done.html.contains("Thank you"), "{}", done.html);
    let sets = app.get(&format!("/surveys/{survey}/answers?completed=true")).await.expect(200);
    assert_eq!(sets.as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn wrong_values_closed_sendouts_and_unknown_links() {
    let app = spawn_app().await;
    let (_, tree, base, link, _) = invited(&app, "Pulse").await;
    post_form(&app, &link, &[on_page(page_id(&tree, 0)), field(item_id(&tree, 0, 0), "yes")]).await;
    let wrong = post_form(&app, &link, &[on_page(page_id(&tree, 1)), field(item_id(&tree, 1, 0), "many")]).await;
    assert_eq!(wrong.status, 400);
    assert!(wrong.html.contains("Please enter a number."), "{}", wrong.html);
    assert_eq!(get(&app, "/r/0000000000000000000000000000000000000000").await.status, 404);
    for garbage in ["erased:1", "%00", "abc%00def", &"f".repeat(400)] {
        assert_eq!(get(&app, &format!("/r/{garbage}")).await.status, 404, "{garbage}");
        assert_eq!(post_form(&app, &format!("/r/{garbage}"), &[on_page(1)]).await.status, 404, "{garbage}");
    }
    let nul = post_form(&app, &link, &[on_page(page_id(&tree, 1)), field(item_id(&tree, 1, 0), "4\0")]).await;
    assert_eq!(nul.status, 400, "a NUL in a form value");
    assert_eq!(post_form(&app, &link, &[]).await.status, 400, "a form without its page");
    app.post(&format!("{base}/deactivate"), json!({})).await.expect(200);
    assert!(get(&app, &link).await.html.contains("closed"));
}

#[tokio::test]
async fn a_respondent_opts_out_with_or_without_a_form() {
    let app = spawn_app().await;
    let (_, _, _, link, _) = invited(&app, "Pulse").await;
    let confirm = get(&app, &format!("{link}/opt-out")).await;
    assert!(confirm.status == 200 && confirm.html.contains("<form"));
    let response = app.client.post(format!("{}{link}/opt-out", app.address)).send().await.unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let blocklist = app.get("/accounts/blocklist").await.expect(200);
    assert_eq!(blocklist[0]["contactDetails"], "Ann@example.com");
    assert_eq!(blocklist[0]["type"], "OptedOut");
    assert_eq!(post_form(&app, &format!("{link}/opt-out"), &[("confirm".into(), "yes".into())]).await.status, 200);
    assert_eq!(app.get("/accounts/blocklist").await.expect(200).as_array().unwrap().len(), 1);
}

/// A LOGIN sendout of a one-question survey in the account behind `key`, with one respondent; returns the
/// sendout's base path, its login page and the respondent.
async fn login_sendout(app: &TestApp, key: &str, identifier: &str) -> (String, String, Value) {
    let body = json!({"name": "Staff", "pages": [{"items": [{"type": "OpenText", "text": "Why?"}]}]});
    let sendout = json!({"name": "Login", "type": "LOGIN"});
    let person = json!({"contactDetails": identifier, "sendMail": false});
    let (_, base, sendout, respondent) = app.one_respondent_sendout(key, body, sendout, person).await;
    (base, format!("/login/{sendout}"), respondent)
}

#[tokio::test]
async fn a_login_identifier_opens_its_survey_on_its_sendouts_login_page() {
    let app = spawn_app().await;
    let (_, other_key) = app.new_account("Other", "other@example.com");
    let (base, page, respondent) = login_sendout(&app, &app.key, "employee-42").await;
    let (other_base, other_page, other) = login_sendout(&app, &other_key, "employee-42").await;
    let no_redirects = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let login = |page: &str, identifier: &'static str| {
        no_redirects.post(format!("{}{page}", app.address)).form(&[("identifier", identifier)]).send()
    };
    let form = get(&app, &page).await.html;
    assert!(form.contains("name=\"identifier\"") && form.contains(&format!("action=\"{page}\"")), "{form}");
    let before = login(&page, "employee-42").await.unwrap();
    assert_eq!(before.status().as_u16(), 200, "a sendout that is not active opens nothing");
    assert!(before.text().await.unwrap().contains("No open survey"));
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    app.call_as(&other_key, "POST", &format!("{other_base}/activate"), Some(json!({}))).await.expect(200);
    for (page, respondent) in [(&page, &respondent), (&other_page, &other)] {
        let opened = login(page, "employee-42").await.unwrap();
        assert_eq!(opened.status().as_u16(), 303);
        let location = opened.headers()["location"].to_str().unwrap().to_owned();
        assert_eq!(format!("{}{location}", app.address), respondent["surveyLink"].as_str().unwrap(), "{page}");
        assert!(get(&app, &location).await.html.contains("Why?"));
    }
    assert_eq!(login(&page, "employee-43").await.unwrap().status().as_u16(), 200);
    let nul = no_redirects.post(format!("{}{page}", app.address)).form(&[("identifier", "employee\0")]).send();
    assert_eq!(nul.await.unwrap().status().as_u16(), 400);
    assert_eq!(login("/login/nope", "employee-42").await.unwrap().status().as_u16(), 404);
    assert_eq!(login("/login/999999", "employee-42").await.unwrap().status().as_u16(), 200, "no such sendout");
    assert_eq!(get(&app, "/login").await.status, 404, "there is no login page across sendouts");
}

#[tokio::test]
async fn a_double_submitted_first_page_saves_one_answer_set() {
    let app = spawn_app().await;
    let (survey, tree, _, link, respondent) = invited(&app, "Pulse").await;
    let answer = [on_page(page_id(&tree, 0)), field(item_id(&tree, 0, 0), "yes")];
    let submissions: Vec<_> = (0..8).map(|_| post_form(&app, &link, &answer)).collect();
    for page in futures::future::join_all(submissions).await {
        assert_eq!(page.status, 200, "{}", page.html);
    }
    let sets =
        app.get(&format!("/surveys/{survey}/answers/respondent/{}", respondent["respondentId"])).await.expect(200);
    assert_eq!(sets.as_array().unwrap().len(), 1, "{sets}");
}

#[tokio::test]
async fn a_respondent_whose_page_was_deleted_resumes_on_the_first_page_not_complete() {
    let app = spawn_app().await;
    let (survey, tree, _, link, _) = invited(&app, "Live").await;
    let yes = [on_page(page_id(&tree, 0)), field(item_id(&tree, 0, 0), "yes")];
    assert!(post_form(&app, &link, &yes).await.html.contains("Page 2 of 3"));
    let second = format!("/surveys/{survey}/pages/{}", page_id(&tree, 1));
    let emptied = app.get(&format!("/surveys/{survey}/questions")).await.expect(200);
    for item in emptied["pages"][1]["items"].as_array().unwrap() {
        app.delete(&format!("/surveys/{survey}/questions/{}", item["questionItemId"])).await.expect(204);
    }
    app.delete(&second).await.expect(204);

    let resumed = get(&app, &link).await;
    assert!(resumed.html.contains("Page 2 of 2") && resumed.html.contains("Anything else?"), "{}", resumed.html);
    let stale = post_form(&app, &link, &[on_page(page_id(&tree, 1))]).await;
    assert_ne!(stale.status, 200, "the deleted page takes no answers: {}", stale.html);
    let last = [on_page(page_id(&tree, 2)), field(item_id(&tree, 2, 0), "Fine")];
    assert!(post_form(&app, &link, &last).await.html.contains("Thank you"));
}

#[tokio::test]
async fn a_randomized_page_shows_each_respondent_its_own_order_every_time() {
    let app = spawn_app().await;
    let items: Vec<Value> = (1..=6).map(|n| json!({"type": "OpenText", "text": format!("Question {n}")})).collect();
    let body = json!({"name": "Shuffled", "pages": [{"title": "All", "randomizeItems": true, "items": items}]});
    let survey = app.post("/surveys", body).await.expect(201)["surveyId"].as_i64().unwrap();
    let sendout = app.post(&format!("/surveys/{survey}/sendouts"), crate::helpers::email_sendout()).await.expect(201)
        ["sendoutId"]
        .clone();
    let base = format!("/surveys/{survey}/sendouts/{sendout}");
    let mut links = Vec::new();
    for contact in ["a@example.com", "b@example.com", "c@example.com"] {
        let added = app
            .post(&format!("{base}/respondents"), json!({"contactDetails": contact, "sendMail": true}))
            .await
            .expect(201);
        links.push(added["surveyLink"].as_str().unwrap().strip_prefix(&app.address).unwrap().to_owned());
    }
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    let order = |html: &str| -> Vec<usize> {
        let mut found: Vec<(usize, usize)> =
            (1..=6).map(|n| (html.find(&format!("Question {n}<")).expect("every item is shown"), n)).collect();
        found.sort_unstable();
        found.into_iter().map(|(_, n)| n).collect()
    };
    let mut orders = Vec::new();
    for link in &links {
        let first = order(&get(&app, link).await.html);
        assert_eq!(order(&get(&app, link).await.html), first, "the same order on every view");
        orders.push(first);
    }
    orders.dedup();
    assert!(orders.len() > 1, "respondents see orders of their own: {orders:?}");
    assert!(orders.iter().any(|order| order != &[1, 2, 3, 4, 5, 6]), "{orders:?}");
}

#[tokio::test]
async fn a_page_takes_a_dropdown_a_date_a_matrix_by_row_and_a_ranking_by_place() {
    let app = spawn_app().await;
    let body = json!({"name": "Richer", "pages": [{"items": [
        {"type": "Dropdown", "text": "City?", "options": [{"value": "osl", "label": "Oslo"}, {"value": "sto"}]},
        {"type": "Date", "text": "Since?", "maxDate": "2040-12-31"},
        {"type": "Matrix", "text": "Agree?", "required": true, "rows": [{"value": "pay"}, {"value": "team"}],
            "options": [{"value": "1", "label": "No"}, {"value": "2", "label": "Yes"}]},
        {"type": "Ranking", "text": "Rank", "options": [{"value": "a"}, {"value": "b"}, {"value": "c"}]}
    ]}]});
    let survey = app.post("/surveys", body).await.expect(201)["surveyId"].as_i64().unwrap();
    let tree = app.get(&format!("/surveys/{survey}/questions")).await.expect(200);
    let sendout = app.post(&format!("/surveys/{survey}/sendouts"), crate::helpers::email_sendout()).await.expect(201)
        ["sendoutId"]
        .clone();
    let base = format!("/surveys/{survey}/sendouts/{sendout}");
    let person = json!({"contactDetails": "ann@example.com", "sendMail": true});
    let added = app.post(&format!("{base}/respondents"), person).await.expect(201);
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    let link = added["surveyLink"].as_str().unwrap().strip_prefix(&app.address).unwrap().to_owned();
    let (dropdown, date, matrix, ranking) =
        (item_id(&tree, 0, 0), item_id(&tree, 0, 1), item_id(&tree, 0, 2), item_id(&tree, 0, 3));
    let page = get(&app, &link).await.html;
    for shown in [
        format!("<select id=\"q{dropdown}\""),
        format!("type=\"date\" id=\"q{date}\""),
        "<th scope=\"row\"".into(),
        format!("name=\"q{ranking}-2\""),
    ] {
        assert!(page.contains(&shown), "{shown}: {page}");
    }
    let field = |name: String, value: &str| (name, value.to_owned());
    let on = on_page(page_id(&tree, 0));
    let twice = [
        on.clone(),
        field(format!("q{matrix}-0"), "2"),
        field(format!("q{ranking}-0"), "1"),
        field(format!("q{ranking}-1"), "1"),
        field(format!("q{ranking}-2"), "2"),
    ];
    let refused = post_form(&app, &link, &twice).await;
    assert_eq!(refused.status, 400);
    assert!(
        refused.html.contains("Please answer every row.")
            && refused.html.contains("Please give each place to one option only."),
        "{}",
        refused.html
    );
    let form = [
        on,
        field(format!("q{dropdown}"), "sto"),
        field(format!("q{date}"), "2040-05-06"),
        field(format!("q{matrix}-0"), "2"),
        field(format!("q{matrix}-1"), "1"),
        field(format!("q{ranking}-0"), "3"),
        field(format!("q{ranking}-1"), "1"),
        field(format!("q{ranking}-2"), "2"),
    ];
    assert!(post_form(&app, &link, &form).await.html.contains("Thank you"));
    let sets = app.get(&format!("/surveys/{survey}/answers/respondent/{}", added["respondentId"])).await.expect(200);
    assert_eq!(
        sets[0]["answers"],
        json!([
            {"questionItemId": dropdown, "value": "sto"},
            {"questionItemId": date, "value": "2040-05-06"},
            {"questionItemId": matrix, "value": {"pay": "2", "team": "1"}},
            {"questionItemId": ranking, "value": ["b", "c", "a"]}
        ])
    );
}

/// The server keeps each survey's tree for the respondent pages (by its version): every change of the tree shows
/// on the next view, and a refused change (whose version is rolled back) leaves the page as it was.
#[tokio::test]
async fn each_change_of_the_tree_shows_on_the_next_view_of_the_page() {
    let app = spawn_app().await;
    let (survey, tree, _, link, _) = invited(&app, "Changing").await;
    let (happy, hours) = (item_id(&tree, 0, 0), item_id(&tree, 1, 0));
    assert!(get(&app, &link).await.html.contains("Happy?"));
    let item = format!("/surveys/{survey}/questions/{happy}");
    app.call("PATCH", &item, Some(json!({"text": "Glad?"}))).await.expect(200);
    let html = get(&app, &link).await.html;
    assert!(html.contains("Glad?") && !html.contains("Happy?"), "{html}");
    let refused = app.call("PATCH", &item, Some(json!({"text": "Content?", "options": []}))).await;
    assert_eq!(refused.status, 400);
    assert!(get(&app, &link).await.html.contains("Glad?"), "a refused change shows nothing");

    let saved = post_form(&app, &link, &[on_page(page_id(&tree, 0)), field(happy, "yes")]).await;
    assert!(saved.html.contains("Hours worked?"));
    let hide = json!({"displayWhen": {"questionItemId": happy, "operator": "equals", "value": "no"}});
    app.call("PATCH", &format!("/surveys/{survey}/questions/{hours}"), Some(hide)).await.expect(200);
    let html = get(&app, &link).await.html;
    assert!(!html.contains("Hours worked?") && html.contains("Anything else?"), "the page of hidden items is skipped");
    app.put(&format!("/surveys/{survey}/logic"), json!([])).await.expect(200);
    app.call("PATCH", &format!("/surveys/{survey}/questions/{hours}"), Some(json!({"displayWhen": null})))
        .await
        .expect(200);
    assert!(get(&app, &link).await.html.contains("Hours worked?"), "shown again");
}
