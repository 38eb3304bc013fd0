//! How failures become problems: an unreachable store, pending migrations, unknown paths and undeclared methods.

use actix_web::http::Method;
use actix_web::test::TestRequest;
use canvass_domain::ports::Readiness;
use canvass_http::problem::ProblemKind;

use crate::support::{as_key, TestApp, API};

#[actix_web::test]
async fn an_unreachable_store_answers_503_with_retry_after_whether_or_not_the_key_was_checked() {
    let app = TestApp::new().await;
    app.get("/surveys").await.expect(200);
    let fresh = app.other_account("Other", "owner@other.example");
    app.store.set_available(false);

    // The seeded key is in the key cache: the handler's own hop fails.
    let cached = app.get("/surveys").await;
    let problem = cached.problem(ProblemKind::Unavailable);
    assert_eq!(cached.header("retry-after"), "5");
    assert!(problem["detail"].as_str().unwrap().contains("database"), "{problem}");
    // A key not seen yet: authentication's hop fails, and that is a 503 too, not a 401.
    let uncached = app.call(as_key(&fresh, Method::GET, "/surveys")).await;
    uncached.problem(ProblemKind::Unavailable);
    assert_eq!(uncached.header("retry-after"), "5");
    assert_eq!(uncached.header("www-authenticate"), "");

    app.store.set_available(true);
    app.call(as_key(&fresh, Method::GET, "/surveys")).await.expect(200);
}

#[actix_web::test]
async fn readiness_answers_503_while_the_store_is_unreachable_or_migrations_are_pending() {
    let app = TestApp::new().await;
    let ready = || app.call(TestRequest::get().uri("/health/ready"));
    assert_eq!(ready().await.expect(200)["status"], "ok");

    app.store.set_readiness(Readiness { pending_migrations: 2 });
    let pending = ready().await;
    let problem = pending.problem(ProblemKind::Unavailable);
    assert!(problem["detail"].as_str().unwrap().starts_with("2 migrations"), "{problem}");
    assert_eq!(pending.header("retry-after"), "5");

    app.store.set_readiness(Readiness { pending_migrations: 0 });
    app.store.set_available(false);
    ready().await.problem(ProblemKind::Unavailable);
    // Liveness does not ask the store.
    assert_eq!(app.call(TestRequest::get().uri("/health/live")).await.expect(200)["status"], "ok");
}

#[actix_web::test]
async fn an_unknown_path_answers_404_problem_json() {
    let app = TestApp::new().await;
    let outside = app.call(TestRequest::get().uri("/no/such/page")).await.problem(ProblemKind::NotFound);
    assert_eq!(outside["detail"], "no such endpoint");
    app.get("/nothing-here").await.problem(ProblemKind::NotFound);
    app.call(app.api(Method::DELETE, "/surveys/1/nothing")).await.problem(ProblemKind::NotFound);
    // Under /api the key is checked first.
    let keyless = app.call(TestRequest::get().uri(&format!("{API}/nothing-here"))).await;
    keyless.problem(ProblemKind::Unauthorized);
}

#[actix_web::test]
async fn a_retention_rule_path_under_an_earlier_version_answers_404_naming_version_1_5() {
    let app = TestApp::new().await;
    let problem = app.get("/data-retention/rules").await.problem(ProblemKind::NotFound);
    assert!(problem["detail"].as_str().unwrap().contains("/api/v1.5"), "{problem}");
}

#[actix_web::test]
async fn a_served_path_with_an_undeclared_method_answers_405_with_allow() {
    let app = TestApp::new().await;
    for (method, path, allow) in [
        (Method::PUT, "/surveys", "GET, POST"),
        (Method::DELETE, "/surveys", "GET, POST"),
        (Method::PATCH, "/surveys/7", "GET"),
        (Method::POST, "/surveys/frequency", "GET, PUT"),
    ] {
        let reply = app.call(app.api(method.clone(), path)).await;
        let problem = reply.problem(ProblemKind::MethodNotAllowed);
        assert_eq!(reply.header("allow"), allow, "{method} {path}");
        assert!(problem["detail"].as_str().unwrap().starts_with(method.as_str()), "{problem}");
    }
    let live = app.call(TestRequest::post().uri("/health/live")).await;
    live.problem(ProblemKind::MethodNotAllowed);
    assert_eq!(live.header("allow"), "GET");
}
