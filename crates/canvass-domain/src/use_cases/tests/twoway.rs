//! TWOWAY conversations: a reply to the number a conversation is sent from is recorded as the answer to the
//! current question and the next one (by the logic) or the thank-you is written; a reply that does not fit is
//! asked again, a repeated one changes nothing, and replies to no open conversation are ignored.

use crate::answer::AnswerValue;
use crate::use_cases::twoway::{reply, Reply, ReplyOutcome, THANK_YOU};
use crate::webhook::WebhookEvent;

use super::fakes::pages::{four_pages, Pages};
use super::fakes::{At, NOW};

const RESPONDENT: &str = "+4790000099";
const SENDER: &str = "+4790000001";

/// The four-page survey as a TWOWAY conversation with [`RESPONDENT`], sent from [`SENDER`].
fn conversation() -> Pages {
    let mut fake = four_pages();
    fake.state.context.contact_details = RESPONDENT.into();
    fake.state.context.contact_key = RESPONDENT.into();
    fake.state.conversation_from = Some(SENDER.into());
    fake
}

fn send(fake: &mut Pages, text: &str, id: &str) -> ReplyOutcome {
    reply(fake, &At(NOW), Reply { from: RESPONDENT, to: Some(SENDER), text, message_id: Some(id) }).unwrap()
}

fn texts(fake: &Pages) -> Vec<&str> {
    fake.state.messages.iter().map(|(_, text)| text.as_str()).collect()
}

fn answers(fake: &Pages) -> Vec<AnswerValue> {
    let set = fake.state.progress.as_ref().map(|(set, _)| set.answers.clone()).unwrap_or_default();
    set.into_iter().map(|answer| answer.value).collect()
}

#[test]
fn replies_are_recorded_and_the_logic_leads_to_the_next_question_until_the_thank_you() {
    let mut fake = conversation();

    assert_eq!(send(&mut fake, "skip", "m1"), ReplyOutcome::Recorded { completed: false });
    assert_eq!(texts(&fake), ["Question 4"], "the logic jumps to page 4");
    assert!(fake.state.locked, "replies of one respondent are recorded one at a time");
    assert_eq!(fake.state.progress.as_ref().map(|(_, page)| *page), Some(Some(crate::ids::PageId::new(4))));

    assert_eq!(send(&mut fake, "done", "m2"), ReplyOutcome::Recorded { completed: true });
    assert_eq!(texts(&fake), ["Question 4", THANK_YOU]);
    assert_eq!(answers(&fake), [AnswerValue::Text("skip".into()), AnswerValue::Text("done".into())]);
    assert!(fake.state.progress.as_ref().is_some_and(|(set, page)| set.completed && page.is_none()));
    let events: Vec<WebhookEvent> = fake.state.webhook_events.iter().map(|(event, _)| *event).collect();
    assert_eq!(events, [WebhookEvent::AnswerSetCompleted]);

    assert_eq!(send(&mut fake, "more", "m3"), ReplyOutcome::Ignored, "a completed conversation takes no more");
    assert_eq!(texts(&fake).len(), 2);
}

#[test]
fn an_empty_reply_is_asked_again_and_a_repeated_one_changes_nothing() {
    let mut fake = conversation();
    assert_eq!(send(&mut fake, "  ", "m1"), ReplyOutcome::AskedAgain);
    assert_eq!(texts(&fake), ["Please reply with an answer. Question 1"]);
    assert!(fake.state.progress.is_none(), "nothing is recorded");

    assert_eq!(send(&mut fake, "first", "m2"), ReplyOutcome::Recorded { completed: false });
    assert_eq!(send(&mut fake, "first", "m2"), ReplyOutcome::Ignored, "the provider delivered it twice");
    assert_eq!(answers(&fake), [AnswerValue::Text("first".into())]);
    assert_eq!(texts(&fake), ["Please reply with an answer. Question 1", "Question 2"]);
}

#[test]
fn replies_to_no_open_conversation_are_ignored() {
    let mut fake = conversation();
    let unaddressed = Reply { from: RESPONDENT, to: None, text: "first", message_id: None };
    assert_eq!(reply(&mut fake, &At(NOW), unaddressed).unwrap(), ReplyOutcome::Ignored);
    let elsewhere = Reply { to: Some("+4790000002"), ..unaddressed };
    assert_eq!(reply(&mut fake, &At(NOW), elsewhere).unwrap(), ReplyOutcome::Ignored, "another number");
    let stranger = Reply { from: "+4790000055", to: Some(SENDER), ..unaddressed };
    assert_eq!(reply(&mut fake, &At(NOW), stranger).unwrap(), ReplyOutcome::Ignored);

    fake.state.context.sendout_active = false;
    assert_eq!(send(&mut fake, "first", "m1"), ReplyOutcome::Ignored, "a closed sendout");
    fake.state.context.sendout_active = true;
    fake.state.context.expiry_date = Some(NOW);
    assert_eq!(send(&mut fake, "first", "m2"), ReplyOutcome::Ignored, "an expired link");

    assert!(fake.state.messages.is_empty() && fake.state.progress.is_none());
}
