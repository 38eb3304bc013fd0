//! The rules of webhooks: what a new one may be, how an attempt is judged, what a body holds.

use time::macros::datetime;
use time::Duration;

use super::*;

fn draft(url: &str, events: Vec<WebhookEvent>, allow_private: bool) -> Result<WebhookDraft, Vec<FieldError>> {
    WebhookDraft::check(url, events, None, allow_private)
}

fn fields(errors: Vec<FieldError>) -> Vec<String> {
    errors.into_iter().map(|error| error.field).collect()
}

#[test]
fn a_webhook_needs_an_http_or_https_url_with_a_host() {
    let events = || vec![WebhookEvent::SendoutActivated];
    assert!(draft("https://hooks.example.com/canvass?x=1", events(), false).is_ok());
    assert!(draft("http://hooks.example.com:8080/", events(), false).is_ok());
    for bad in [
        "ftp://hooks.example.com/",
        "hooks.example.com/x",
        "",
        "javascript:alert(1)",
        "file:///etc/passwd",
        "http://",
        "mailto:a@example.com",
    ] {
        assert_eq!(fields(draft(bad, events(), false).unwrap_err()), ["url"], "{bad}");
    }
    let long = format!("https://example.com/{}", "x".repeat(URL_MAX));
    assert_eq!(fields(draft(&long, events(), false).unwrap_err()), ["url"]);
}

#[test]
fn private_addresses_are_refused_unless_allowed() {
    for url in [
        "http://127.0.0.1:9000/",
        "http://localhost/",
        "http://LOCALHOST.:80/",
        "http://api.localhost/",
        "http://10.1.2.3/",
        "http://169.254.169.254/latest",
        "http://[::1]:8080/",
        "http://[fe80::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://0.0.0.0/",
        "http://100.64.0.1/",
        "http://[fd00::1]/",
        "http://2130706433/",
    ] {
        assert_eq!(fields(draft(url, vec![WebhookEvent::RespondentSent], false).unwrap_err()), ["url"], "{url}");
        assert!(draft(url, vec![WebhookEvent::RespondentSent], true).is_ok(), "{url} with the setting");
    }
}

#[test]
fn events_are_not_empty_never_the_test_event_and_kept_once_in_order() {
    assert_eq!(fields(draft("https://example.com/", vec![], false).unwrap_err()), ["events"]);
    let test = draft("https://example.com/", vec![WebhookEvent::Test], false);
    assert_eq!(fields(test.unwrap_err()), ["events"]);
    let repeated = vec![WebhookEvent::RespondentSent, WebhookEvent::SendoutActivated, WebhookEvent::RespondentSent];
    let checked = draft("https://example.com/", repeated, false).unwrap();
    assert_eq!(checked.events(), [WebhookEvent::RespondentSent, WebhookEvent::SendoutActivated]);
}

#[test]
fn every_broken_rule_is_reported_and_descriptions_are_bounded() {
    let long = Some("d".repeat(DESCRIPTION_MAX + 1));
    let errors = WebhookDraft::check("ftp://x", vec![], long, false).unwrap_err();
    assert_eq!(fields(errors), ["url", "events", "description"]);
    let exact = Some("d".repeat(DESCRIPTION_MAX));
    let checked = WebhookDraft::check("https://example.com", vec![WebhookEvent::RespondentBounced], exact, false);
    assert_eq!(checked.unwrap().description().map(str::len), Some(DESCRIPTION_MAX));
    let blank =
        WebhookDraft::check("https://example.com", vec![WebhookEvent::RespondentBounced], Some(" ".into()), false);
    assert_eq!(blank.unwrap().description(), None);
    let long_blank = Some(" ".repeat(DESCRIPTION_MAX + 1));
    let refused = WebhookDraft::check("https://example.com", vec![WebhookEvent::RespondentBounced], long_blank, false);
    assert_eq!(fields(refused.unwrap_err()), ["description"]);
}

#[test]
fn event_names_are_those_of_the_contract() {
    let names: Vec<&str> = <WebhookEvent as strum::VariantArray>::VARIANTS.iter().map(|e| e.as_str()).collect();
    assert_eq!(
        names,
        [
            "answerSet.completed",
            "respondent.sent",
            "respondent.bounced",
            "respondent.optedOut",
            "sendout.activated",
            "sendout.deliveryHeld",
            "webhook.test"
        ]
    );
    assert_eq!("respondent.optedOut".parse::<WebhookEvent>().ok(), Some(WebhookEvent::RespondentOptedOut));
    assert!("respondent.opted_out".parse::<WebhookEvent>().is_err());
}

fn claimed(attempts: i32) -> ClaimedDelivery {
    ClaimedDelivery {
        account_id: AccountId::new(1),
        id: 7,
        message_id: "msg_abc".into(),
        url: "https://example.com/".into(),
        secret: WebhookSecret::from_stored("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw".into()),
        event: WebhookEvent::RespondentSent,
        subject: EventSubject::respondent(AccountId::new(1), SurveyId::new(2), SendoutId::new(3), RespondentId::new(4)),
        occurred_at: datetime!(2026-11-25 10:00:00.25 UTC),
        attempts,
        lease_until: datetime!(2026-11-25 10:02 UTC),
    }
}

const NOW: OffsetDateTime = datetime!(2026-11-25 10:00:30 UTC);

#[test]
fn a_2xx_delivers_and_anything_else_is_tried_again_until_the_last_attempt() {
    let delivered = AttemptRecord::of(&claimed(1), AttemptResult::Answered(204), NOW);
    assert_eq!(
        (delivered.status, delivered.status_code, delivered.error.clone(), delivered.due_at),
        (DeliveryStatus::Delivered, Some(204), None, None)
    );
    let retried = AttemptRecord::of(&claimed(2), AttemptResult::Answered(500), NOW);
    assert_eq!((retried.status, retried.status_code), (DeliveryStatus::Pending, Some(500)));
    assert_eq!(retried.due_at, Some(NOW + Duration::seconds(60)));
    let redirected = AttemptRecord::of(&claimed(1), AttemptResult::Answered(302), NOW);
    assert_eq!(redirected.status, DeliveryStatus::Pending);
    let unreached = AttemptRecord::of(&claimed(1), AttemptResult::NotReached("refused: private address".into()), NOW);
    assert_eq!((unreached.status, unreached.status_code), (DeliveryStatus::Pending, None));
    assert_eq!(unreached.error.as_deref(), Some("refused: private address"));
    let last = AttemptRecord::of(&claimed(MAX_ATTEMPTS), AttemptResult::Answered(503), NOW);
    assert_eq!((last.status, last.due_at), (DeliveryStatus::Failed, None));
    assert_eq!(last.error.as_deref(), Some("the receiver answered 503"), "the status is the reason");
    assert_eq!(
        [&delivered, &retried, &redirected, &unreached, &last].map(|attempt| (attempt.failed(), attempt.attempted_at)),
        [(false, NOW), (true, NOW), (true, NOW), (true, NOW), (true, NOW)],
        "only a 2xx counts as a success; every attempt is dated"
    );
    assert_eq!((last.id, last.lease_until), (7, datetime!(2026-11-25 10:02 UTC)));
}

#[test]
fn the_body_holds_type_timestamp_and_only_ids_and_is_signed_per_attempt() {
    let delivery = claimed(1);
    assert_eq!(
        delivery.body(),
        r#"{"type":"respondent.sent","timestamp":"2026-11-25T10:00:00.25Z","data":{"surveyId":2,"sendoutId":3,"respondentId":4}}"#
    );
    let request = delivery.request(NOW);
    assert_eq!((request.message_id.as_str(), request.timestamp), ("msg_abc", NOW.unix_timestamp()));
    assert_eq!(request.signature, delivery.secret.sign("msg_abc", NOW.unix_timestamp(), &request.body));
    let later = delivery.request(NOW + Duration::seconds(1));
    assert_ne!(later.signature, request.signature, "the timestamp is signed");
    let empty = EventSubject {
        account_id: AccountId::new(1),
        survey_id: None,
        sendout_id: None,
        respondent_id: None,
        answer_set_id: None,
        hold: None,
    };
    assert_eq!(empty.data_json(), "{}");
}

#[test]
fn secrets_never_show_in_debug_output() {
    let delivery = claimed(1);
    let shown = format!("{delivery:?}");
    assert!(!shown.contains("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"), "{shown}");
    assert!(shown.contains("<redacted>"));
}
