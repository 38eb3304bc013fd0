//! Browser defences: security headers on pages and API answers, and the Origin check on form posts.

use serde_json::json;

use crate::helpers::{spawn_app, TestApp};

#[tokio::test]
async fn pages_and_api_answers_carry_security_headers() {
    let app = spawn_app().await;
    let survey = json!({"name": "Staff", "pages": [{"items": [{"type": "OpenText", "text": "Why?"}]}]});
    let person = json!({"contactDetails": "a@example.com", "sendMail": true});
    let sendout = crate::helpers::email_sendout();
    let (_, base, sendout_id, respondent) = app.one_respondent_sendout(&app.key, survey, sendout, person).await;
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    let link = respondent["surveyLink"].as_str().unwrap().to_owned();
    for url in [link.clone(), format!("{}/login/{sendout_id}", app.address), format!("{}/r/{:040x}", app.address, 1)] {
        let response = app.client.get(&url).send().await.unwrap();
        let headers = response.headers();
        let csp = headers["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("default-src 'none'") && csp.contains("frame-ancestors 'none'"), "{csp}");
        assert!(csp.contains("form-action 'self'") && !csp.contains("script"), "{csp}");
        assert_eq!(headers["x-content-type-options"], "nosniff", "{url}");
        assert_eq!(headers["referrer-policy"], "same-origin", "{url}");
        assert_eq!(headers["cache-control"], "no-store", "{url}");
    }
    for reply in [
        app.get("/surveys").await,
        app.call_as("wrong", "GET", "/surveys", None).await,
        app.get("/surveys/999999").await,
    ] {
        assert_eq!(reply.headers["cache-control"], "no-store");
        assert_eq!(reply.headers["x-content-type-options"], "nosniff");
    }
}

#[tokio::test]
async fn form_posts_from_another_origin_answer_403() {
    let app = spawn_app().await;
    let sendout = app.active_login_sendout("employee-1").await;
    let client = TestApp::client_without_redirects();
    let post = |origin: Option<&'static str>| {
        let mut request = client.post(format!("{}/login/{sendout}", app.address)).form(&[("identifier", "employee-1")]);
        if let Some(origin) = origin {
            request = request.header("origin", origin);
        }
        request.send()
    };
    assert_eq!(post(Some("https://evil.example")).await.unwrap().status().as_u16(), 403);
    assert_eq!(post(Some("null")).await.unwrap().status().as_u16(), 403);
    assert_eq!(post(None).await.unwrap().status().as_u16(), 303, "no Origin: allowed");
    let own: &'static str = Box::leak(app.address.clone().into_boxed_str());
    let opened = post(Some(own)).await.unwrap();
    assert_eq!(opened.status().as_u16(), 303, "the own origin");
    let location = opened.headers()["location"].to_str().unwrap().to_owned();
    let answer = client
        .post(format!("{}{location}", app.address))
        .header("origin", "https://evil.example")
        .form(&[("page", "1")])
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status().as_u16(), 403, "answer posts are checked too");
    let opt_out = client.post(format!("{}{location}/opt-out", app.address)).header("origin", "https://evil.example");
    assert_ne!(opt_out.send().await.unwrap().status().as_u16(), 403, "the one-click opt-out is exempt");
}
