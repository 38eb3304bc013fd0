//! TWOWAY conversations: a reply to the number a conversation is sent from is recorded as the answer to the
//! current question and the next one (by the logic) or the thank-you is written; a reply that does not fit is
//! asked again, a repeated one changes nothing, and replies to no open conversation are ignored.

use crate::answer::AnswerValue;
use crate::use_cases::twoway::{reply, Reply, ReplyOutcome};
use crate::webhook::WebhookEvent;

use super::seeds::pages::{four_pages, messages, progress, sendout, RESPONDENT as ANN};
use super::seeds::{At, NOW};
use crate::distribution::{DispatchType, ProvisionedSender, SendoutStatus};
use crate::testing::Memory;

const RESPONDENT: &str = "+4790000099";
const SENDER: &str = "+4790000001";

/// The four-page survey as a TWOWAY conversation with [`RESPONDENT`], sent from [`SENDER`].
fn conversation() -> Memory {
    let mut fake = four_pages();
    fake.respondent_row(ANN).contact_details = RESPONDENT.into();
    (sendout(&mut fake).kind, sendout(&mut fake).sender) = (DispatchType::TwoWay, Some(SENDER.into()));
    let number = ProvisionedSender { number: SENDER.into(), created_at: NOW };
    fake.state.senders.push((super::seeds::pages::ACCOUNT, number));
    fake
}

fn send(fake: &mut Memory, text: &str, id: &str) -> ReplyOutcome {
    reply(fake, &At(NOW), Reply { from: RESPONDENT, to: Some(SENDER), text, message_id: Some(id) }).unwrap()
}

fn texts(fake: &Memory) -> Vec<String> {
    messages(fake)
}

fn answers(fake: &Memory) -> Vec<AnswerValue> {
    let set = progress(fake).map(|(set, _)| set.answers).unwrap_or_default();
    set.into_iter().map(|answer| answer.value).collect()
}

#[test]
fn replies_are_recorded_and_the_logic_leads_to_the_next_question_until_the_thank_you() {
    let mut fake = conversation();

    assert_eq!(send(&mut fake, "skip", "m1"), ReplyOutcome::Recorded { completed: false });
    assert_eq!(texts(&fake), ["Question 4"], "the logic jumps to page 4");
    assert!(fake.hooks.locked.contains(&ANN), "replies of one respondent are recorded one at a time");
    assert_eq!(progress(&fake).map(|(_, page)| page), Some(Some(crate::ids::PageId::new(4))));

    assert_eq!(send(&mut fake, "done", "m2"), ReplyOutcome::Recorded { completed: true });
    assert_eq!(texts(&fake), ["Question 4", crate::language::words::words(crate::language::Language::En).thank_you]);
    assert_eq!(answers(&fake), [AnswerValue::Text("skip".into()), AnswerValue::Text("done".into())]);
    assert!(progress(&fake).is_some_and(|(set, page)| set.completed && page.is_none()));
    let events: Vec<WebhookEvent> = fake.state.events.iter().map(|(event, _)| *event).collect();
    assert_eq!(events, [WebhookEvent::AnswerSetCompleted]);

    assert_eq!(send(&mut fake, "more", "m3"), ReplyOutcome::Ignored, "a completed conversation takes no more");
    assert_eq!(texts(&fake).len(), 2);
}

#[test]
fn an_empty_reply_is_asked_again_and_a_repeated_one_changes_nothing() {
    let mut fake = conversation();
    assert_eq!(send(&mut fake, "  ", "m1"), ReplyOutcome::AskedAgain);
    assert_eq!(texts(&fake), ["Please reply with an answer. Question 1"]);
    assert!(progress(&fake).is_none(), "nothing is recorded");

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

    sendout(&mut fake).status = SendoutStatus::Inactive;
    assert_eq!(send(&mut fake, "first", "m1"), ReplyOutcome::Ignored, "a closed sendout");
    sendout(&mut fake).status = SendoutStatus::Active;
    sendout(&mut fake).expiry_date = Some(NOW);
    assert_eq!(send(&mut fake, "first", "m2"), ReplyOutcome::Ignored, "an expired link");

    assert!(messages(&fake).is_empty() && progress(&fake).is_none());
}

#[test]
fn a_reply_that_fails_the_items_checks_is_asked_again_saying_why() {
    let mut fake = conversation();
    let tree = &mut fake.state.surveys.trees[0];
    tree.pages[0].items[0].settings.min_length = Some(3);
    assert_eq!(send(&mut fake, "ok", "m1"), ReplyOutcome::AskedAgain);
    assert_eq!(texts(&fake), ["Please write at least 3 characters. Question 1"]);
    assert!(progress(&fake).is_none(), "nothing is recorded");
    assert_eq!(send(&mut fake, "fine", "m2"), ReplyOutcome::Recorded { completed: false });
}

#[test]
fn a_respondent_in_swedish_is_asked_in_the_translation_with_the_services_words_in_swedish() {
    use crate::language::Language;
    use crate::survey::{ItemTexts, TranslationInput};
    let mut fake = conversation();
    fake.respondent_row(ANN).language = Some(Language::Sv);
    let fourth = ItemTexts { text: Some("Fråga 4".into()), ..ItemTexts::default() };
    let swedish = TranslationInput { items: [("40".to_owned(), fourth)].into(), ..TranslationInput::default() };
    let account = super::seeds::pages::ACCOUNT;
    let survey = super::seeds::pages::SURVEY;
    crate::use_cases::translations::put(&mut fake, &At(NOW), account, survey, Language::Sv, swedish).unwrap();

    assert_eq!(send(&mut fake, "skip", "m1"), ReplyOutcome::Recorded { completed: false });
    assert_eq!(texts(&fake), ["Fråga 4"], "the translated question");
    assert_eq!(send(&mut fake, "   ", "m2"), ReplyOutcome::AskedAgain);
    assert_eq!(texts(&fake)[1], "Skriv ett svar. Fråga 4", "the hint from the Swedish catalogue");
    assert_eq!(send(&mut fake, "klart", "m3"), ReplyOutcome::Recorded { completed: true });
    assert_eq!(texts(&fake)[2], "Tack! Dina svar har sparats.");
    assert_eq!(progress(&fake).unwrap().0.language, Some(Language::Sv), "the set records the language");
}
