//! Delivery by email through the outbox to a real SMTP conversation: sent, bounced, retried then failed,
//! cancelled when blocklisted or expired, reminders for those their SendoutLogic names, and claims that two
//! workers never share.
//! A system test: each delivery round is run here at the `now` it needs (`tests/helpers/worker.rs`), and the
//! claims are taken from the store directly.

use canvass_domain::delivery::{LinkBase, RetryPolicy, Transports};
use canvass_domain::ports::{StoreExt, UnitOfWork};
use canvass_domain::use_cases::delivery::{DeliveryReport, Round, LEASE};
use canvass_mail::SmtpMailer;
use serde_json::{json, Value};
use time::format_description::well_known::Rfc3339;
use time::{Duration, OffsetDateTime};

use crate::helpers::{activated, deliver_on, header, inbound, item_id, spawn_app, TestApp, PUBLIC};
use canvass_sinks::{SmsSink, SmtpSink};
use canvass_sms::HttpSmsSender;

fn deliver(app: &TestApp, sink: &SmtpSink, now: OffsetDateTime) -> DeliveryReport {
    deliver_on(app, &sink.url, &SmsSink::start("", "").url, now)
}

#[tokio::test]
async fn invitations_are_sent_bounced_retried_and_failed() {
    let app = spawn_app().await;
    let sink = SmtpSink::start("bounce@", "later@");
    let (_, base, added) = activated(&app, &["ok@example.com", "bounce@example.com", "later@example.com"], None).await;
    let now = OffsetDateTime::now_utc();

    let first = deliver(&app, &sink, now);
    assert_eq!((first.claimed, first.sent, first.bounced, first.retried), (3, 1, 1, 1));
    assert_eq!(app.statuses(&base).await, ["Sent", "Bounced", "Scheduled"]);
    // Long lines arrive quoted-printable with soft line breaks.
    let messages: Vec<String> = sink.messages().iter().map(|m| m.replace("=\r\n", "")).collect();
    assert_eq!(messages.len(), 1);
    let token = added[0]["surveyLink"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
    assert!(messages[0].contains(&format!("{PUBLIC}/r/{token}")), "{}", messages[0]);
    assert!(messages[0].contains(&format!("{PUBLIC}/r/{token}/opt-out")));
    let message_id = header(&messages[0], "Message-ID:");
    let local = message_id.strip_prefix('<').and_then(|id| id.strip_suffix("@survey.example>")).unwrap_or_default();
    assert!(local.len() == 32 && local.bytes().all(|b| b.is_ascii_hexdigit()), "no ids in {message_id}");
    let sent = app.get(&format!("{base}/respondents")).await.expect(200)[0].clone();
    assert!(sent["sentAt"].is_string());

    let failures = app.get("/email-bounces/permanent-failures?pageNumber=1&pageSize=10").await.expect(200);
    assert_eq!(failures["totalCount"], 1);
    assert_eq!(failures["failures"][0]["emailAddress"], "bounce@example.com");
    assert_eq!(failures["failures"][0]["sendingDomain"], "acme.example");
    assert_eq!(failures["failures"][0]["respondentId"], added[1]["respondentId"]);
    assert_eq!(failures["failures"][0]["sendoutId"], added[1]["sendoutId"]);

    assert_eq!(deliver(&app, &sink, now).claimed, 0, "a retry waits for its backoff");
    let later = app.get(&format!("{base}/respondents")).await.expect(200)[2].clone();
    assert_eq!((later["deliveryAttempts"].clone(), later["status"].clone()), (json!(1), json!("Scheduled")));
    assert!(later["lastDeliveryError"].as_str().is_some_and(|error| error.contains("451")), "{later}");
    let next = OffsetDateTime::parse(later["nextAttemptAt"].as_str().unwrap(), &Rfc3339).unwrap();
    assert!((next - now - Duration::seconds(30)).abs() < Duration::seconds(1), "the first retry waits 30 s: {next}");
    // Its lifetime (here ten minutes, retries at most four apart) counts only the waits between its tries.
    let mut round = Round::new(100, LEASE, LinkBase::new(PUBLIC));
    round.retry = RetryPolicy { max_age: Duration::minutes(10), max_backoff: Duration::minutes(4) };
    let mailer = SmtpMailer::from_url(&sink.url).unwrap();
    let sms = HttpSmsSender::new("http://127.0.0.1:9/");
    let mut at = now;
    let mut tries = 1;
    while app.statuses(&base).await[2] == "Scheduled" {
        at += Duration::minutes(5);
        let report = app.deliver_shaped(Transports { email: &mailer, sms: &sms }, at, &round);
        assert_eq!(report.claimed, 1);
        tries += 1;
        assert!(tries < 20, "the lifetime ends the retries");
    }
    // Waits of 30 s, 1, 2 and 4 minutes, then 2.5 (cut to end the ten): the sixth try is the last.
    assert_eq!(tries, 6, "five waits fill the lifetime and the sixth try is the last");
    assert_eq!(app.statuses(&base).await, ["Sent", "Bounced", "Failed"]);
    assert_eq!(deliver(&app, &sink, at + Duration::days(1)).claimed, 0, "nothing is sent twice");
    assert_eq!(sink.messages().len(), 1);
}

#[tokio::test]
async fn messages_are_cancelled_for_blocklisted_and_expired_respondents() {
    let app = spawn_app().await;
    let sink = SmtpSink::start("", "");
    let (_, base, _) = activated(&app, &["stays@example.com", "leaves@example.com"], None).await;
    app.post("/accounts/blocklist", json!({"contactDetails": "LEAVES@example.com", "type": "OptedOut"}))
        .await
        .expect(201);
    let report = deliver(&app, &sink, OffsetDateTime::now_utc());
    assert_eq!((report.sent, report.cancelled), (1, 1));
    assert_eq!(app.statuses(&base).await, ["Sent", "Blocklisted"]);

    let (_, expired, _) = activated(&app, &["late@example.com"], Some("2020-01-02T00:00:00Z")).await;
    assert_eq!(deliver(&app, &sink, OffsetDateTime::now_utc()).cancelled, 1);
    assert_eq!(app.statuses(&expired).await, ["Expired"]);
    assert_eq!(sink.messages().len(), 1);
}

#[tokio::test]
async fn a_deactivated_sendout_sends_nothing_until_it_is_activated_again() {
    let app = spawn_app().await;
    let sink = SmtpSink::start("", "");
    let (_, base, _) = activated(&app, &["paused@example.com"], None).await;
    app.post(&format!("{base}/deactivate"), json!({})).await.expect(200);
    assert_eq!(deliver(&app, &sink, OffsetDateTime::now_utc()).claimed, 0);
    assert_eq!(app.statuses(&base).await, ["Scheduled"]);

    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    assert_eq!(deliver(&app, &sink, OffsetDateTime::now_utc()).sent, 1);
    assert_eq!(app.statuses(&base).await, ["Sent"]);
    assert_eq!(sink.messages().len(), 1);
}

#[tokio::test]
async fn reminders_reach_exactly_those_their_logic_names() {
    let app = spawn_app().await;
    let sink = SmtpSink::start("bounce@", "");
    let contacts = ["done@example.com", "started@example.com", "silent@example.com", "bounce@example.com"];
    let (survey, base, added) = activated(&app, &contacts, None).await;
    deliver(&app, &sink, OffsetDateTime::now_utc());
    let respondent = |i: usize| added[i]["respondentId"].clone();
    app.post(
        &format!("/surveys/{survey}/answers"),
        json!({"respondentId": respondent(0), "completed": true, "answers": []}),
    )
    .await
    .expect(201);
    app.post(&format!("/surveys/{survey}/answers"), json!({"respondentId": respondent(1), "answers": []}))
        .await
        .expect(201);
    let reminder = |logic: &str, day: &str| json!({"sendoutLogic": logic, "sendDate": day, "sender": "hr@acme.example", "subject": "Reminder", "message": "Please: {{surveyLink}}"});
    app.post(&format!("{base}/reminders"), reminder("NotCompleted", "2020-02-01")).await.expect(201);
    app.post(&format!("{base}/reminders"), reminder("NotResponded", "2099-01-01")).await.expect(201);
    let before = sink.messages().len();
    let report = deliver(&app, &sink, OffsetDateTime::now_utc());
    assert_eq!((report.reminders_enqueued, report.sent), (2, 2), "started and silent; never the bounced one");
    let reminded: Vec<String> = sink.messages()[before..]
        .iter()
        .map(|m| m.lines().find(|l| l.starts_with("To:")).unwrap().to_owned())
        .collect();
    assert!(
        reminded.iter().any(|to| to.contains("started@")) && reminded.iter().any(|to| to.contains("silent@")),
        "{reminded:?}"
    );
    assert_eq!(app.get(&format!("{base}/reminders")).await.expect(200)[0]["status"], "Sent");
    assert_eq!(
        deliver(&app, &sink, OffsetDateTime::now_utc()).reminders_enqueued,
        0,
        "the later reminder waits for its date"
    );
    let later = deliver(
        &app,
        &sink,
        OffsetDateTime::parse("2099-01-02T00:00:00Z", &time::format_description::well_known::Rfc3339).unwrap(),
    );
    assert_eq!(later.reminders_enqueued, 1, "only silent has not responded");
}

#[tokio::test]
async fn two_workers_never_claim_the_same_message() {
    let app = spawn_app().await;
    let contacts: Vec<String> = (0..60).map(|n| format!("p{n}@example.com")).collect();
    let refs: Vec<&str> = contacts.iter().map(String::as_str).collect();
    activated(&app, &refs, None).await;
    let now = OffsetDateTime::now_utc();
    let claims: Vec<Vec<i64>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                scope.spawn(|| {
                    let store = app.db.store();
                    let mut mine = Vec::new();
                    loop {
                        let claim = |uow: &mut dyn UnitOfWork| Ok(uow.claim_due(now, now + Duration::minutes(5), 7)?);
                        let batch = store.with_uow(claim).unwrap();
                        if batch.is_empty() {
                            return mine;
                        }
                        mine.extend(batch.into_iter().map(|m| m.id));
                    }
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    let mut all: Vec<i64> = claims.concat();
    let total = all.len();
    all.sort_unstable();
    all.dedup();
    assert_eq!((total, all.len()), (60, 60), "every message claimed once");
}

#[tokio::test]
async fn text_messages_go_to_the_sms_provider() {
    let app = spawn_app().await;
    let smtp = SmtpSink::start("", "");
    let sms = SmsSink::start("+4790000001", "+4790000002");
    let survey = app.post("/surveys", json!({"name": "Pulse"})).await.expect(201)["surveyId"].as_i64().unwrap();
    let body = json!({"name": "Text", "type": "SMS", "sendDate": "2020-01-01", "sender": "Acme", "message": "Answer: {{surveyLink}}"});
    let sendout =
        app.post(&format!("/surveys/{survey}/sendouts"), body).await.expect(201)["sendoutId"].as_i64().unwrap();
    let base = format!("/surveys/{survey}/sendouts/{sendout}");
    let people: Vec<Value> = ["+4791234567", "+4790000001", "+4790000002"]
        .iter()
        .map(|c| json!({"contactDetails": c, "sendMail": true}))
        .collect();
    let added = app.post(&format!("{base}/respondents/batch"), json!({"surveyRespondents": people})).await.expect(200);
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    let report = deliver_on(&app, &smtp.url, &sms.url, OffsetDateTime::now_utc());
    assert_eq!((report.sent, report.bounced, report.retried), (1, 1, 1));
    assert_eq!(app.statuses(&base).await, ["Sent", "Bounced", "Scheduled"]);
    let bodies = sms.bodies();
    assert_eq!(bodies.len(), 1);
    let payload: Value = serde_json::from_str(&bodies[0]).unwrap();
    assert_eq!((payload["to"].as_str(), payload["from"].as_str()), (Some("+4791234567"), Some("Acme")));
    let link = added["added"][0]["surveyLink"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
    assert_eq!(payload["text"], format!("Answer: {PUBLIC}/r/{link}"));
    assert!(payload["idempotencyKey"].as_str().unwrap().starts_with("inv-"));
    assert!(smtp.messages().is_empty());
}

#[tokio::test]
async fn a_twoway_conversation_asks_one_question_at_a_time_and_records_replies() {
    let app = spawn_app().await;
    let (smtp, sms) = (SmtpSink::start("", ""), SmsSink::start("", ""));
    let body = json!({"name": "Chat", "pages": [
        {"items": [{"type": "SingleChoice", "text": "Happy?", "required": true,
            "options": [{"value": "yes", "label": "Yes"}, {"value": "no", "label": "No"}]}]},
        {"items": [{"type": "Numeric", "text": "Hours?"}]},
        {"items": [{"type": "OpenText", "text": "Anything else?"}]}
    ]});
    let survey = app.post("/surveys", body).await.expect(201)["surveyId"].as_i64().unwrap();
    let tree = app.get(&format!("/surveys/{survey}/questions")).await.expect(200);
    let rule =
        json!([{"questionItemId": item_id(&tree, 0, 0), "equals": "no", "goToPageId": tree["pages"][2]["pageId"]}]);
    app.put(&format!("/surveys/{survey}/logic"), rule).await.expect(200);
    let ours = "+4790000100";
    app.provision_sender(app.account_id, ours);
    let chat = json!({"name": "Chat", "type": "TWOWAY", "sendDate": "2020-01-01", "sender": ours, "message": "Hi! {{surveyLink}}"});
    let sendout =
        app.post(&format!("/surveys/{survey}/sendouts"), chat).await.expect(201)["sendoutId"].as_i64().unwrap();
    let base = format!("/surveys/{survey}/sendouts/{sendout}");
    let respondent = app
        .post(&format!("{base}/respondents"), json!({"contactDetails": "+4791234567", "sendMail": true}))
        .await
        .expect(201);
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    let send = || deliver_on(&app, &smtp.url, &sms.url, OffsetDateTime::now_utc());
    let texts = || {
        sms.bodies()
            .iter()
            .map(|b| serde_json::from_str::<Value>(b).unwrap()["text"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };

    assert_eq!(send().sent, 1);
    assert!(texts()[0].ends_with("\n\nHappy? Reply 1 = Yes, 2 = No"), "{:?}", texts());
    assert_eq!(app.statuses(&base).await, ["Sent"]);

    let reply =
        |text: &str, id: Option<&str>| json!({"from": "+4791234567", "to": ours, "text": text, "messageId": id});
    assert_eq!(inbound(&app, "wrong", reply("1", None)).await.0, 401);
    assert_eq!(inbound(&app, "inbound-secret", reply("maybe", None)).await.1["outcome"], "askedAgain");
    send();
    assert!(texts()[1].starts_with("Please reply with one of the numbers. Happy?"), "{:?}", texts());
    assert_eq!(inbound(&app, "inbound-secret", reply("2", None)).await.1["outcome"], "recorded");
    send();
    assert_eq!(texts()[2], "Anything else?", "the logic skips the hours");
    let (status, last) = inbound(&app, "inbound-secret", reply("All fine", Some("m-1"))).await;
    assert_eq!((status, last["outcome"].as_str(), last["completed"].as_bool()), (200, Some("recorded"), Some(true)));
    assert_eq!(inbound(&app, "inbound-secret", reply("All fine", Some("m-1"))).await.1["outcome"], "ignored");
    send();
    assert_eq!(texts()[3], canvass_domain::language::words::words(canvass_domain::language::Language::En).thank_you);
    assert_eq!(texts().len(), 4);

    let sets =
        app.get(&format!("/surveys/{survey}/answers/respondent/{}", respondent["respondentId"])).await.expect(200);
    assert_eq!(sets[0]["completed"], true);
    assert_eq!(
        sets[0]["answers"],
        json!([{"questionItemId": item_id(&tree, 0, 0), "value": "no"}, {"questionItemId": item_id(&tree, 2, 0), "value": "All fine"}])
    );
    let stranger = json!({"from": "+4799999999", "to": ours, "text": "hello"});
    assert_eq!(inbound(&app, "inbound-secret", stranger).await.1["outcome"], "ignored");
    let (status, problem) = inbound(&app, "inbound-secret", json!({"from": "", "to": ours, "text": "1"})).await;
    assert_eq!((status, &problem["errors"][0]["field"]), (400, &json!("from")), "no sender: {problem}");
    assert!(smtp.messages().is_empty());
}

#[tokio::test]
async fn a_twoway_conversation_speaks_the_respondents_language_in_its_invitation_questions_and_hints() {
    let app = spawn_app().await;
    let (smtp, sms) = (SmtpSink::start("", ""), SmsSink::start("", ""));
    let body = json!({"name": "Chat", "pages": [{"items": [{"type": "SingleChoice", "text": "Happy?",
        "required": true, "options": [{"value": "yes", "label": "Yes"}, {"value": "no", "label": "No"}]}]}]});
    let survey = app.post("/surveys", body).await.expect(201)["surveyId"].as_i64().unwrap();
    let tree = app.get(&format!("/surveys/{survey}/questions")).await.expect(200);
    let polish = json!({"items": {item_id(&tree, 0, 0).to_string(): {"text": "Zadowolony?", "options": {"yes": "Tak", "no": "Nie"}}}});
    app.call("PUT", &format!("/surveys/{survey}/translations/pl"), Some(polish)).await.expect(200);
    let ours = "+4790000100";
    app.provision_sender(app.account_id, ours);
    let chat = json!({"name": "Chat", "type": "TWOWAY", "sendDate": "2020-01-01", "sender": ours,
        "message": "Hi! {{surveyLink}}", "messages": {"pl": {"message": "Cześć! {{surveyLink}}"}}});
    let sendout = app.post(&format!("/surveys/{survey}/sendouts"), chat).await.expect(201)["sendoutId"].clone();
    let base = format!("/surveys/{survey}/sendouts/{sendout}");
    let person = json!({"contactDetails": "+4791234567", "sendMail": true, "language": "pl"});
    app.post(&format!("{base}/respondents"), person).await.expect(201);
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    let send = || deliver_on(&app, &smtp.url, &sms.url, OffsetDateTime::now_utc());
    let texts = || {
        let bodies = sms.bodies();
        bodies
            .iter()
            .map(|b| serde_json::from_str::<Value>(b).unwrap()["text"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };

    assert_eq!(send().sent, 1);
    let first = &texts()[0];
    assert!(first.starts_with("Cześć! ") && first.ends_with("\n\nZadowolony? Odpowiedz 1 = Tak, 2 = Nie"), "{first}");
    let reply = |text: &str| json!({"from": "+4791234567", "to": ours, "text": text});
    assert_eq!(inbound(&app, "inbound-secret", reply("może")).await.1["outcome"], "askedAgain");
    send();
    assert_eq!(texts()[1], "Odpowiedz jednym z numerów. Zadowolony? Odpowiedz 1 = Tak, 2 = Nie");
    assert_eq!(inbound(&app, "inbound-secret", reply("tak")).await.1["outcome"], "recorded", "a translated label");
    send();
    assert_eq!(texts()[2], "Dziękujemy! Twoje odpowiedzi zostały zapisane.");
    let sets = app.get(&format!("/surveys/{survey}/answers")).await.expect(200);
    assert_eq!((sets[0]["language"].as_str(), sets[0]["completed"].as_bool()), (Some("pl"), Some(true)));
}
