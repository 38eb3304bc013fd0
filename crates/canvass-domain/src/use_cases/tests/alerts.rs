//! Alerts: checked against the survey's tree and scoped to the account; a completed set that meets an alert writes
//! one email per recipient in the transaction that completes it (an incomplete set, one that does not meet it, and
//! one a full quota ends write none); a delivery round sends alert emails beside messages within its limit, and
//! records each outcome by the rules invitations follow.

use crate::alert::{AlertEmail, AlertInput};
use crate::answer::{Answer, AnswerValue};
use crate::delivery::{LinkBase, Transports};
use crate::distribution::DispatchType;
use crate::ids::{AlertId, AnswerSetId, PageId, QuestionItemId, SurveyId};
use crate::ports::AlertRepository;
use crate::survey::{
    ChoiceOption, Condition, ConditionValue, Conditions, Operator, Page, QuestionItem, QuestionTree, QuestionType,
    QuotaAction, QuotaInput, Subject,
};
use crate::testing::{Memory, MemoryStore, MessageStatus};
use crate::use_cases::answers::{self, AnswerSetInput};
use crate::use_cases::delivery::{deliver_due, Round, LEASE};
use crate::use_cases::{alerts, quotas};
use crate::AccountId;

use super::seeds::outbox::{due, Recorder};
use super::seeds::{invalid_fields, not_found, At, NOW};

const ACCOUNT: AccountId = AccountId::new(1);
const OTHER: AccountId = AccountId::new(2);
const SURVEY: SurveyId = SurveyId::new(1);
/// A single choice of `north` and `south`.
const REGION: QuestionItemId = QuestionItemId::new(10);

fn fixture() -> Memory {
    let mut fake = Memory::default();
    fake.seed_survey(ACCOUNT, SURVEY);
    fake.seed_survey(OTHER, SurveyId::new(2));
    let page = PageId::new(20);
    let options = ["north", "south"].map(|v| ChoiceOption { value: v.into(), label: format!("The {v}") }).to_vec();
    let region = QuestionItem {
        id: REGION,
        page_id: page,
        kind: QuestionType::SingleChoice,
        text: "Where?".into(),
        required: false,
        options,
        min_label: None,
        max_label: None,
        settings: Default::default(),
    };
    let pages = vec![Page { id: page, title: String::new(), items: vec![region], randomize_items: false }];
    fake.state.surveys.trees.push(QuestionTree::assemble(SURVEY, pages, Vec::new()));
    fake
}

fn of_region(name: &str) -> Conditions {
    let value = Some(ConditionValue::Text(name.into()));
    Conditions::One(Condition { subject: Subject::Item(REGION), operator: Operator::Equals, value })
}

fn north_alert(recipients: &[&str]) -> AlertInput {
    AlertInput {
        name: "North answered".into(),
        when: of_region("north"),
        recipients: recipients.iter().map(|r| (*r).to_owned()).collect(),
        include_answers: true,
    }
}

fn record(fake: &mut Memory, region: &str, completed: bool) -> crate::answer::AnswerSet {
    let answers = vec![Answer { question_item_id: REGION, value: AnswerValue::Text(region.into()) }];
    let input = AnswerSetInput { respondent_id: None, completed, answers, language: None };
    answers::record(fake, &At(NOW), ACCOUNT, SURVEY, input).unwrap()
}

fn written(fake: &Memory) -> Vec<(String, AnswerSetId)> {
    let emails = fake.state.alert_emails.iter();
    emails.map(|held| (held.email.recipient.clone(), held.email.answer_set_id)).collect()
}

#[test]
fn alerts_are_checked_against_the_tree_and_scoped_to_the_account() {
    let mut fake = fixture();
    let made = alerts::create(&mut fake, &At(NOW), ACCOUNT, SURVEY, north_alert(&["boss@example.com"])).unwrap();
    assert_eq!(made.created_at, NOW);
    assert_eq!(alerts::list(&mut fake, ACCOUNT, SURVEY).unwrap(), std::slice::from_ref(&made));
    assert_eq!(alerts::get(&mut fake, ACCOUNT, SURVEY, made.id).unwrap(), made);
    let theirs = alerts::get(&mut fake, OTHER, SURVEY, made.id);
    assert!(not_found(&theirs, "survey"), "another account's survey is unknown");
    let bad = AlertInput { recipients: vec!["boss".into()], ..north_alert(&[]) };
    assert_eq!(invalid_fields(alerts::create(&mut fake, &At(NOW), ACCOUNT, SURVEY, bad)), ["recipients[0]"]);
    assert!(not_found(&alerts::delete(&mut fake, OTHER, SURVEY, made.id), "survey"));
    alerts::delete(&mut fake, ACCOUNT, SURVEY, made.id).unwrap();
    assert!(not_found(&alerts::get(&mut fake, ACCOUNT, SURVEY, made.id), "alert"));
}

#[test]
fn a_completed_set_that_meets_an_alert_writes_an_email_per_recipient() {
    let mut fake = fixture();
    alerts::create(&mut fake, &At(NOW), ACCOUNT, SURVEY, north_alert(&["a@example.com", "b@example.com"])).unwrap();
    let north = record(&mut fake, "north", true);
    record(&mut fake, "south", true);
    record(&mut fake, "north", false);
    let to = |who: &str| (who.to_owned(), north.id);
    assert_eq!(written(&fake), [to("a@example.com"), to("b@example.com")]);
    let email = &fake.state.alert_emails[0];
    assert_eq!(email.status, MessageStatus::Pending);
    assert_eq!(email.email.subject, "Alert \"North answered\": Staff");
    assert!(email.email.body.contains("Where?\n  The north\n"), "{}", email.email.body);
}

#[test]
fn a_set_a_full_quota_ends_sets_off_no_alert() {
    let mut fake = fixture();
    alerts::create(&mut fake, &At(NOW), ACCOUNT, SURVEY, north_alert(&["a@example.com"])).unwrap();
    let full = QuotaInput { name: "North".into(), when: of_region("north"), limit: 1, action: QuotaAction::EndSurvey };
    quotas::create(&mut fake, &At(NOW), ACCOUNT, SURVEY, full).unwrap();
    let counted = record(&mut fake, "north", true);
    let ended = record(&mut fake, "north", true);
    assert!(ended.quota_full && !ended.completed);
    assert_eq!(written(&fake), [("a@example.com".to_owned(), counted.id)], "only the set that completed");
}

/// Alert emails of account 1, due now, to each of `recipients`.
fn alert_store(messages: usize, recipients: &[&str]) -> MemoryStore {
    let mut memory = Memory::default();
    for id in 1..=messages {
        memory.seed_message(due(id as i64, DispatchType::Email, &format!("invitee{id}@example.com")));
    }
    let emails: Vec<AlertEmail> = recipients
        .iter()
        .map(|to| AlertEmail {
            alert_id: AlertId::new(7),
            answer_set_id: AnswerSetId::new(8),
            recipient: (*to).to_owned(),
            subject: "Alert".into(),
            body: "An answer".into(),
        })
        .collect();
    memory.enqueue_alert_emails(ACCOUNT, &emails, NOW).unwrap();
    MemoryStore::with_memory(memory)
}

fn round(limit: i64) -> Round {
    Round::new(limit, LEASE, LinkBase::new("https://survey.example"))
}

#[test]
fn a_round_sends_alert_emails_beside_messages_within_its_limit() {
    let store = alert_store(5, &["a@example.com", "b@example.com", "c@example.com", "d@example.com"]);
    let (mail, sms) = (Recorder::default(), Recorder::default());
    let report = deliver_due(&store, Transports { email: &mail, sms: &sms }, NOW, &round(4)).unwrap();
    assert_eq!((report.claimed, report.sent), (4, 4));
    let sent = mail.recipients();
    assert_eq!(sent.iter().filter(|to| to.starts_with("invitee")).count(), 2, "half the round is left to messages");
    let alert = mail.0.lock().unwrap().iter().find(|m| m.to == "a@example.com").cloned().unwrap();
    assert_eq!((alert.from.as_str(), alert.subject.as_deref()), ("alerts@survey.example", Some("Alert")));
    assert_eq!((alert.html, alert.unsubscribe_url), (None, None));

    let store = alert_store(1, &["a@example.com", "b@example.com", "c@example.com", "d@example.com"]);
    let report = deliver_due(&store, Transports { email: &Recorder::default(), sms: &sms }, NOW, &round(4)).unwrap();
    assert_eq!(report.claimed, 4, "alert emails take what messages leave");
}

#[test]
fn alert_emails_are_held_retried_and_bounced_as_invitations_are_and_lose_their_text_once_done() {
    let store = alert_store(0, &["ok@example.com", "bounce@example.com", "later@example.com", "held@example.com"]);
    let (mail, sms) = (Recorder::default(), Recorder::default());
    let report = deliver_due(&store, Transports { email: &mail, sms: &sms }, NOW, &round(10)).unwrap();
    assert_eq!((report.sent, report.bounced, report.retried, report.email.retried), (1, 1, 2, 2));
    let held = store.inspect(|memory| memory.state.alert_emails.clone());
    let of = |to: &str| held.iter().find(|held| held.email.recipient == to).unwrap().clone();
    assert_eq!((of("ok@example.com").status, of("ok@example.com").email.body.as_str()), (MessageStatus::Sent, ""));
    assert_eq!(of("bounce@example.com").status, MessageStatus::Bounced);
    let later = of("later@example.com");
    assert_eq!(
        (later.status, later.email.attempts, later.email.body.as_str()),
        (MessageStatus::Pending, 1, "An answer")
    );
    let sender = of("held@example.com");
    assert_eq!((sender.email.attempts, sender.email.holds), (0, 1), "a hold counts no attempt");
    assert!(sender.due_at > NOW);
    let again = deliver_due(&store, Transports { email: &mail, sms: &sms }, NOW, &round(10)).unwrap();
    assert_eq!(again.claimed, 0, "nothing is due again at once");
}
