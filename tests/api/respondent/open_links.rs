//! Open links over HTTP, as a visitor's browser without JavaScript meets them: a LINK sendout's rules and its
//! `openLink`, the start page (which changes nothing), the start (303 to the visitor's own page, with a cookie
//! that sends the browser back there), the cap, rotation, and the 409s of the distribution routes.

use reqwest::header::{COOKIE, LOCATION, SET_COOKIE};
use serde_json::{json, Value};

use crate::helpers::{spawn_app, TestApp};

/// A one-page survey with one open question and a LINK sendout of it (`extra` merged into the sendout's body);
/// returns the sendout's base path and the sendout.
async fn link_sendout(app: &TestApp, extra: Value) -> (String, Value) {
    let body = json!({"name": "Town hall", "description": "Ten seconds, no names.",
        "pages": [{"items": [{"type": "OpenText", "text": "What should we change?"}]}]});
    let survey = app.post("/surveys", body).await.expect(201)["surveyId"].as_i64().unwrap();
    let mut sendout = json!({"name": "Poster", "type": "LINK"});
    sendout.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    let sendout = app.post(&format!("/surveys/{survey}/sendouts"), sendout).await.expect(201);
    (format!("/surveys/{survey}/sendouts/{}", sendout["sendoutId"]), sendout)
}

fn path_of(app: &TestApp, link: &Value) -> String {
    link.as_str().unwrap().strip_prefix(&app.address).unwrap().to_owned()
}

async fn visit(app: &TestApp, method: reqwest::Method, path: &str, cookie: Option<&str>) -> reqwest::Response {
    let client = TestApp::client_without_redirects();
    let mut request = client.request(method, format!("{}{path}", app.address));
    if let Some(cookie) = cookie {
        request = request.header(COOKIE, cookie);
    }
    request.send().await.unwrap()
}

async fn respondents(app: &TestApp, base: &str) -> Vec<Value> {
    app.get(&format!("{base}/respondents")).await.expect(200).as_array().unwrap().clone()
}

#[tokio::test]
async fn a_link_sendout_states_its_open_link_and_rules_and_other_types_state_none() {
    let app = spawn_app().await;
    let (_, open) = link_sendout(&app, json!({})).await;
    let link = open["openLink"].as_str().unwrap();
    let handle = link.strip_prefix(&format!("{}/s/", app.address)).expect("under PUBLIC_URL/s/");
    let (account, random) = handle.split_once('-').unwrap();
    assert_eq!(account, app.account_id.to_string());
    assert!(random.len() == 40 && random.bytes().all(|b| b.is_ascii_hexdigit()), "{handle}");
    assert_eq!((&open["maxResponses"], &open["oneResponsePerBrowser"]), (&Value::Null, &json!(true)));

    let (_, capped) = link_sendout(&app, json!({"maxResponses": 250, "oneResponsePerBrowser": false})).await;
    assert_eq!((&capped["maxResponses"], &capped["oneResponsePerBrowser"]), (&json!(250), &json!(false)));
    let survey = capped["surveyId"].as_i64().unwrap();
    let email = app.post(&format!("/surveys/{survey}/sendouts"), crate::helpers::email_sendout()).await.expect(201);
    for field in ["openLink", "maxResponses", "oneResponsePerBrowser"] {
        assert_eq!(email.get(field), Some(&Value::Null), "{field} on EMAIL");
    }

    let (app, sendouts) = (&app, format!("/surveys/{survey}/sendouts"));
    let refused = |body: Value| {
        let sendouts = sendouts.clone();
        async move { app.post(&sendouts, body).await }
    };
    let with_message = json!({"name": "P", "type": "LINK", "sender": "hr@acme.example", "maxResponses": 0});
    assert_eq!(refused(with_message).await.fields(), ["sender", "maxResponses"]);
    let mut on_email = crate::helpers::email_sendout();
    on_email["oneResponsePerBrowser"] = json!(true);
    assert_eq!(refused(on_email).await.fields(), ["oneResponsePerBrowser"]);
    let too_many = json!({"name": "P", "type": "LINK", "maxResponses": 10_000_001});
    assert_eq!(refused(too_many).await.fields(), ["maxResponses"]);
}

#[tokio::test]
async fn respondents_are_not_added_to_a_link_sendout_and_only_its_link_rotates() {
    let app = spawn_app().await;
    let (base, sendout) = link_sendout(&app, json!({})).await;
    let person = json!({"contactDetails": "ann@example.com", "sendMail": true});
    app.post(&format!("{base}/respondents"), person.clone()).await.problem(409, "/problems/link-sendout");
    let batch = json!({"surveyRespondents": [person]});
    app.post(&format!("{base}/respondents/batch"), batch).await.problem(409, "/problems/link-sendout");
    let documents = app.get("/bgdata/bgdocuments").await.expect(200);
    let document = documents.as_array().unwrap().iter().find(|d| d["sendoutId"] == sendout["sendoutId"]).unwrap();
    let row = json!({"contactDetails": "ann@example.com", "cellData": {}});
    let rows = format!("/bgdata/bgdocuments/{}/rows", document["bgDocumentId"]);
    app.post(&rows, row).await.problem(409, "/problems/link-sendout");
    assert!(respondents(&app, &base).await.is_empty());

    let old = path_of(&app, &sendout["openLink"]);
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    let rotated = app.post(&format!("{base}/open-link/rotate"), json!({})).await.expect(200);
    let new = path_of(&app, &rotated["openLink"]);
    assert_ne!(old, new);
    assert_eq!(app.get(&base).await.expect(200)["openLink"], rotated["openLink"]);
    assert_eq!(visit(&app, reqwest::Method::GET, &old, None).await.status(), 404, "the old link opens nothing");
    assert_eq!(visit(&app, reqwest::Method::POST, &old, None).await.status(), 404);
    assert_eq!(visit(&app, reqwest::Method::GET, &new, None).await.status(), 200);

    let survey = sendout["surveyId"].as_i64().unwrap();
    let email = app.post(&format!("/surveys/{survey}/sendouts"), crate::helpers::email_sendout()).await.expect(201);
    let email_base = format!("/surveys/{survey}/sendouts/{}", email["sendoutId"]);
    app.post(&format!("{email_base}/open-link/rotate"), json!({})).await.problem(409, "/problems/no-public-link");
    let (_, other_key) = app.new_account("Other", "other@example.com");
    let theirs = app.call_as(&other_key, "POST", &format!("{base}/open-link/rotate"), Some(json!({}))).await;
    theirs.problem(404, "/problems/not-found");
}

#[tokio::test]
async fn a_visitor_starts_answers_and_is_sent_back_to_its_own_page() {
    let app = spawn_app().await;
    let (base, sendout) = link_sendout(&app, json!({"language": "sv"})).await;
    let link = path_of(&app, &sendout["openLink"]);

    let closed = visit(&app, reqwest::Method::GET, &link, None).await;
    assert_eq!(closed.status(), 200);
    assert!(!closed.text().await.unwrap().contains("<form"), "a Draft sendout shows the closed page");
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);

    let start = visit(&app, reqwest::Method::GET, &link, None).await;
    assert_eq!(start.status(), 200);
    let html = start.text().await.unwrap();
    assert!(html.contains("<html lang=\"sv\"") && html.contains("Town hall") && html.contains("Ten seconds"));
    assert!(html.contains(&format!("action=\"{link}\"")) && html.contains("Starta enkäten"), "{html}");
    assert!(respondents(&app, &base).await.is_empty(), "the start page changes nothing");

    let started = visit(&app, reqwest::Method::POST, &link, None).await;
    assert_eq!(started.status(), 303);
    let own = started.headers()[LOCATION].to_str().unwrap().to_owned();
    let set_cookie = started.headers()[SET_COOKIE].to_str().unwrap().to_owned();
    let token = own.strip_prefix("/r/").unwrap();
    assert!(set_cookie.contains("HttpOnly") && set_cookie.contains("SameSite=Lax"), "{set_cookie}");
    assert!(set_cookie.contains(&format!("Path={link}")) && !set_cookie.contains("Secure"), "{set_cookie}");
    assert!(!set_cookie.contains(token.split_once('-').unwrap().1), "the token is never readable in the cookie");
    let cookie = set_cookie.split(';').next().unwrap().to_owned();

    let listed = respondents(&app, &base).await;
    assert_eq!(listed.len(), 1);
    assert_eq!((&listed[0]["status"], &listed[0]["sendMail"]), (&json!("Released"), &json!(false)));
    assert_eq!(listed[0]["contactDetails"], Value::Null, "an anonymous visitor has no contact details");
    assert_eq!(listed[0]["surveyLink"], json!(format!("{}{own}", app.address)));
    let page = visit(&app, reqwest::Method::GET, &own, None).await.text().await.unwrap();
    assert!(page.contains("What should we change?"), "{page}");

    for method in [reqwest::Method::GET, reqwest::Method::POST] {
        let again = visit(&app, method.clone(), &link, Some(&cookie)).await;
        assert_eq!((again.status().as_u16(), again.headers()[LOCATION].to_str().unwrap()), (303, own.as_str()));
    }
    let (name, value) = cookie.split_once('=').unwrap();
    let tampered = format!("{name}={}A", &value[..value.len() - 1]);
    let fresh = visit(&app, reqwest::Method::POST, &link, Some(&tampered)).await;
    assert_eq!(fresh.status(), 303);
    assert_ne!(fresh.headers()[LOCATION].to_str().unwrap(), own, "a tampered cookie starts afresh");
    assert_eq!(respondents(&app, &base).await.len(), 2);
}

#[tokio::test]
async fn a_full_link_shows_the_closed_page_and_those_who_started_finish() {
    let app = spawn_app().await;
    let (base, sendout) = link_sendout(&app, json!({"maxResponses": 1, "oneResponsePerBrowser": false})).await;
    let link = path_of(&app, &sendout["openLink"]);
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    let start = || async {
        let response = visit(&app, reqwest::Method::POST, &link, None).await;
        assert!(response.headers().get(SET_COOKIE).is_none(), "no cookie without oneResponsePerBrowser");
        response.headers().get(LOCATION).map(|l| l.to_str().unwrap().to_owned())
    };
    let (first, second) = (start().await.unwrap(), start().await.unwrap());
    let survey = sendout["surveyId"].as_i64().unwrap();
    let tree = app.get(&format!("/surveys/{survey}/questions")).await.expect(200);
    let (page, item) = (crate::helpers::page_id(&tree, 0), crate::helpers::item_id(&tree, 0, 0));
    let answer = [("page".to_owned(), page.to_string()), (format!("q{item}"), "More plants".to_owned())];
    let done = app.client.post(format!("{}{first}", app.address)).form(&answer).send().await.unwrap();
    assert_eq!(done.status(), 200);

    assert_eq!(start().await, None, "the cap is reached: the closed page, no one started");
    let page_now = visit(&app, reqwest::Method::GET, &link, None).await.text().await.unwrap();
    assert!(!page_now.contains("<form"), "the start page is the closed page");
    assert_eq!(respondents(&app, &base).await.len(), 2);
    let finish = app.client.post(format!("{}{second}", app.address)).form(&answer).send().await.unwrap();
    assert_eq!(finish.status(), 200, "a visitor who started before the cap finishes");
    let sets = app.get(&format!("/surveys/{survey}/answers?completed=true")).await.expect(200);
    assert_eq!(sets.as_array().unwrap().len(), 2);
    let funnel = app.get(&format!("{base}/statistics")).await.expect(200);
    let counts = ["respondents", "reached", "started", "completed"].map(|field| funnel[field].as_i64().unwrap());
    assert_eq!(counts, [2, 2, 2, 2], "visitors count as reached once they start: {funnel}");
    let by_status = (&funnel["byStatus"]["Released"], &funnel["byStatus"]["Sent"]);
    assert_eq!(by_status, (&json!(2), &json!(0)), "Released, no invitation sent: {funnel}");
}

/// A full `closeSurvey` quota closes an open link as a reached cap does: the closed page, and no one made.
#[tokio::test]
async fn a_full_close_quota_shows_the_closed_page_and_starts_no_one() {
    let app = spawn_app().await;
    let (base, sendout) = link_sendout(&app, json!({"oneResponsePerBrowser": false})).await;
    let link = path_of(&app, &sendout["openLink"]);
    let survey = sendout["surveyId"].as_i64().unwrap();
    let tree = app.get(&format!("/surveys/{survey}/questions")).await.expect(200);
    let (page, item) = (crate::helpers::page_id(&tree, 0), crate::helpers::item_id(&tree, 0, 0));
    let quota = json!({"name": "Enough", "when": {"questionItemId": item, "operator": "answered"}, "limit": 1,
        "action": "closeSurvey"});
    app.post(&format!("/surveys/{survey}/quotas"), quota).await.expect(201);
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    let started = visit(&app, reqwest::Method::POST, &link, None).await;
    let first = started.headers().get(LOCATION).unwrap().to_str().unwrap().to_owned();
    let answer = [("page".to_owned(), page.to_string()), (format!("q{item}"), "More plants".to_owned())];
    app.client.post(format!("{}{first}", app.address)).form(&answer).send().await.unwrap();

    let refused = visit(&app, reqwest::Method::POST, &link, None).await;
    assert!(refused.headers().get(LOCATION).is_none(), "the quota is full: no start");
    let page_now = visit(&app, reqwest::Method::GET, &link, None).await.text().await.unwrap();
    assert!(!page_now.contains("<form"), "the start page is the closed page");
    assert_eq!(respondents(&app, &base).await.len(), 1, "no respondent made");
}

#[tokio::test]
async fn starts_are_limited_per_address_and_link_and_a_start_from_another_site_is_refused() {
    let app = crate::helpers::spawn_app_with(|settings| {
        settings.protection.open_link_starts =
            canvass_server::FailureWindow { allowed: 3, window: std::time::Duration::from_secs(60) };
    })
    .await;
    let (base, sendout) = link_sendout(&app, json!({"oneResponsePerBrowser": false})).await;
    let (other_base, other) = link_sendout(&app, json!({"oneResponsePerBrowser": false})).await;
    for base in [&base, &other_base] {
        app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    }
    let (link, other_link) = (path_of(&app, &sendout["openLink"]), path_of(&app, &other["openLink"]));

    let cross_site = TestApp::client_without_redirects()
        .post(format!("{}{link}", app.address))
        .header("Origin", "https://evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(cross_site.status(), 403);
    for _ in 0..5 {
        assert_eq!(visit(&app, reqwest::Method::GET, &link, None).await.status(), 200, "views do not count");
    }
    for _ in 0..3 {
        assert_eq!(visit(&app, reqwest::Method::POST, &link, None).await.status(), 303);
    }
    let refused = visit(&app, reqwest::Method::POST, &link, None).await;
    assert_eq!(refused.status(), 429);
    let wait: u64 = refused.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    assert!(refused.text().await.unwrap().contains("<html"), "the 429 page is a page");
    assert_eq!(visit(&app, reqwest::Method::POST, &other_link, None).await.status(), 303, "another link's own count");
    assert_eq!(respondents(&app, &base).await.len(), 3, "the refused start made no one");
}

/// What a QR code of `path` (under the API) reads as, decoded from its PNG with rqrr.
async fn read_qr(app: &TestApp, path: &str) -> String {
    let response = app.client.get(format!("{}/api/v1{path}", app.address)).header("X-API-KEY", &app.key).send();
    let response = response.await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "image/png");
    let png = image::load_from_memory(&response.bytes().await.unwrap()).unwrap().to_luma8();
    let mut prepared = rqrr::PreparedImage::prepare(png);
    let grids = prepared.detect_grids();
    assert_eq!(grids.len(), 1, "one code");
    grids[0].decode().unwrap().1
}

#[tokio::test]
async fn a_qr_code_reads_as_exactly_the_public_url_of_a_link_or_login_sendout() {
    let app = spawn_app().await;
    let (base, sendout) = link_sendout(&app, json!({})).await;
    let open_link = sendout["openLink"].as_str().unwrap().to_owned();
    for size in [128, 512, 2048] {
        assert_eq!(read_qr(&app, &format!("{base}/qr?format=png&size={size}")).await, open_link, "{size} px");
    }
    let svg = app.client.get(format!("{}/api/v1{base}/qr", app.address)).header("X-API-KEY", &app.key).send();
    let svg = svg.await.unwrap();
    assert_eq!(svg.headers()["content-type"], "image/svg+xml");
    assert!(svg.text().await.unwrap().contains("<svg"));

    let survey = sendout["surveyId"].as_i64().unwrap();
    let login = json!({"name": "Staff", "type": "LOGIN"});
    let login = app.post(&format!("/surveys/{survey}/sendouts"), login).await.expect(201)["sendoutId"].clone();
    let login_base = format!("/surveys/{survey}/sendouts/{login}");
    let url = read_qr(&app, &format!("{login_base}/qr?format=png")).await;
    assert_eq!(url, format!("{}/login/{login}", app.address));

    let email = app.post(&format!("/surveys/{survey}/sendouts"), crate::helpers::email_sendout()).await.expect(201);
    let email_qr = format!("/surveys/{survey}/sendouts/{}/qr", email["sendoutId"]);
    app.get(&email_qr).await.problem(409, "/problems/no-public-link");
    let sized = app.client.get(format!("{}/api/v1{base}/qr?size=300", app.address)).header("X-API-KEY", &app.key);
    let sized = sized.send().await.unwrap().text().await.unwrap();
    let width: u32 = sized.split("width=\"").nth(1).and_then(|w| w.split('"').next()).unwrap().parse().unwrap();
    assert!((200..=300).contains(&width), "an SVG as near 300 wide as whole modules allow: {width}");
    for (query, field) in [("format=png&size=127", "size"), ("format=png&size=2049", "size"), ("size=100", "size")] {
        assert_eq!(app.get(&format!("{base}/qr?{query}")).await.fields(), [field], "{query}");
    }
    let gif = app.get(&format!("{base}/qr?format=gif")).await;
    assert_eq!(gif.body["supportedValues"], json!(["svg", "png"]));
    gif.problem(400, "/problems/validation");
}

#[tokio::test]
async fn hidden_fields_of_the_link_become_the_visitors_background_data_by_label_name_and_type() {
    let app = spawn_app().await;
    let (base, sendout) = link_sendout(&app, json!({"oneResponsePerBrowser": false})).await;
    let mut ids = Vec::new();
    for (name, kind) in [("dept", "Text"), ("age", "Number"), ("joined", "Date"), ("mail", "Email"), ("tel", "Phone")] {
        let label = app.post(&format!("{base}/labels"), json!({"name": name, "labelType": kind})).await.expect(201);
        ids.push(label["labelId"].as_i64().unwrap().to_string());
    }
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    let link = path_of(&app, &sendout["openLink"]);
    let query = "dept=Sales&src=poster&age=41.5&joined=2031-02-30&mail=ann%40example.com&tel=%2B4791234567";
    let page = visit(&app, reqwest::Method::GET, &format!("{link}?{query}"), None).await.text().await.unwrap();
    assert!(page.contains(r#"<input type="hidden" name="dept" value="Sales">"#), "{page}");

    // What the start form posts: the carried fields, a long one, a NUL and a wrong type among them.
    let long = "x".repeat(256);
    let form = [
        ("dept", "Sales"),
        ("src", "poster"),
        ("age", "41.5"),
        ("joined", "2031-02-30"),
        ("mail", "ann@example.com"),
        ("tel", "+4791234567"),
        ("dept", "HR"),
    ];
    let client = TestApp::client_without_redirects();
    let started = client.post(format!("{}{link}", app.address)).form(&form).send().await.unwrap();
    assert_eq!(started.status(), 303);
    let bad = [("dept", long.as_str()), ("age", "forty"), ("mail", "ann"), ("tel", "91234567")];
    let started = client.post(format!("{}{link}", app.address)).form(&bad).send().await.unwrap();
    assert_eq!(started.status(), 303, "fields that do not fit are dropped, the visitor starts");
    let nul = client.post(format!("{}{link}", app.address)).body("dept=a%00b").send().await.unwrap();
    assert_eq!(nul.status(), 303);

    let listed = respondents(&app, &base).await;
    let cells = |index: usize| listed[index]["backgroundData"].clone();
    let expected = json!({&ids[0]: "Sales", &ids[1]: "41.5", &ids[3]: "ann@example.com", &ids[4]: "+4791234567"});
    assert_eq!(cells(0), expected, "src has no label; 2031-02-30 is no date; the first dept counts");
    assert_eq!((cells(1), cells(2)), (json!({}), json!({})));
}
