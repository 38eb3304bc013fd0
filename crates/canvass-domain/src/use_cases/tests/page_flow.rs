//! The respondent page flow: pages in the logic's order, required answers, leaving and resuming, completing, and
//! no short cut to the last page.

use crate::answer::{AnswerValue, ValueProblem};
use crate::ids::QuestionItemId;
use crate::language::Language;
use crate::use_cases::respondent_page::{open, submit, PageError, PageState, PageView};

use super::seeds::pages::{four_pages, progress, sendout, ACCOUNT, RESPONDENT, SENDOUT, TOKEN};
use super::seeds::{At, NOW};
use crate::distribution::{DispatchType, SendoutStatus};
use crate::testing::Memory;

fn answer(fake: &mut Memory, page: i64, value: &str) -> PageView {
    let form = [(format!("q{}", page * 10), value.to_owned())];
    submit(fake, &At(NOW), TOKEN, crate::ids::PageId::new(page), &form).unwrap()
}

fn page_of(view: &PageView) -> Option<usize> {
    match &view.state {
        PageState::Page(page) => Some(page.number),
        _ => None,
    }
}

fn errors_of(view: &PageView) -> Vec<PageError> {
    match &view.state {
        PageState::Page(page) => page.errors.clone(),
        _ => Vec::new(),
    }
}

fn view(state: PageState) -> PageView {
    PageView {
        survey_name: "Staff".into(),
        language: Language::En,
        state,
        survey_language: Language::En,
        untranslated: Default::default(),
        languages: Vec::new(),
    }
}

fn done() -> PageView {
    view(PageState::Done { thank_you_message: None })
}

#[test]
fn the_logic_leads_from_page_to_page_until_the_set_is_complete() {
    let mut fake = four_pages();
    assert_eq!(page_of(&open(&mut fake, &At(NOW), TOKEN, None).unwrap()), Some(1));

    assert_eq!(page_of(&answer(&mut fake, 1, "skip")), Some(4), "the logic jumps to page 4");
    assert!(fake.hooks.locked.contains(&RESPONDENT), "the respondent's row is locked while a page is saved");
    assert_eq!(answer(&mut fake, 4, "done"), done());

    let (set, left_on) = progress(&fake).unwrap();
    assert!(set.completed);
    assert_eq!(left_on, None);
    let values: Vec<AnswerValue> = set.answers.iter().map(|a| a.value.clone()).collect();
    assert_eq!(values, [AnswerValue::Text("skip".into()), AnswerValue::Text("done".into())]);
    assert_eq!(open(&mut fake, &At(NOW), TOKEN, None).unwrap(), done());
}

#[test]
fn a_respondent_who_leaves_resumes_where_they_left_off() {
    let mut fake = four_pages();
    answer(&mut fake, 1, "first");
    answer(&mut fake, 2, "second");
    let resumed = open(&mut fake, &At(NOW), TOKEN, None).unwrap();
    assert_eq!(page_of(&resumed), Some(3));
    assert!(!progress(&fake).unwrap().0.completed);
}

#[test]
fn a_missing_required_answer_shows_the_page_again_and_saves_nothing() {
    let mut fake = four_pages();
    let view = answer(&mut fake, 1, "");
    assert_eq!(page_of(&view), Some(1));
    assert_eq!(errors_of(&view), [PageError::Unanswered(QuestionItemId::new(10))]);
    assert!(progress(&fake).is_none());
}

#[test]
fn the_last_page_cannot_be_posted_first() {
    let mut fake = four_pages();
    let view = answer(&mut fake, 4, "done");
    assert_eq!(page_of(&view), Some(1), "the page to answer now is shown");
    assert_eq!(errors_of(&view), [PageError::OutOfOrder]);
    assert!(progress(&fake).is_none(), "nothing is saved, nothing completed");

    answer(&mut fake, 1, "first");
    let skipped_ahead = answer(&mut fake, 3, "third");
    assert_eq!((page_of(&skipped_ahead), errors_of(&skipped_ahead)), (Some(2), vec![PageError::OutOfOrder]));
}

#[test]
fn a_closed_sendout_takes_no_answers() {
    let mut fake = four_pages();
    sendout(&mut fake).status = SendoutStatus::Inactive;
    let closed = view(PageState::Closed);
    assert_eq!(open(&mut fake, &At(NOW), TOKEN, None).unwrap(), closed);
    assert_eq!(answer(&mut fake, 1, "late"), closed);
    assert!(progress(&fake).is_none());
}

#[test]
fn an_unknown_token_is_not_found() {
    let mut fake = four_pages();
    let unknown = "00000000000000000000000000000000000000cc";
    assert!(matches!(open(&mut fake, &At(NOW), unknown, None), Err(crate::DomainError::NotFound(_))));
}

#[test]
fn a_link_is_looked_up_within_the_account_its_token_names_and_old_links_everywhere() {
    let mut fake = four_pages();
    assert_eq!(page_of(&open(&mut fake, &At(NOW), TOKEN, None).unwrap()), Some(1), "a token naming its account");
    let old = super::seeds::pages::OLD_TOKEN;
    fake.respondent_row(RESPONDENT).token = old.into();
    assert_eq!(page_of(&open(&mut fake, &At(NOW), old, None).unwrap()), Some(1), "a token of the old form");
    // The same random part under another account's id finds nothing: the whole token must match in that account.
    let forged = TOKEN.replacen("1-", "2-", 1);
    assert!(matches!(open(&mut fake, &At(NOW), &forged, None), Err(crate::DomainError::NotFound(_))), "{forged}");
    for malformed in ["erased:7", "01-00000000000000000000000000000000000000aa", "1-"] {
        assert!(
            matches!(open(&mut fake, &At(NOW), malformed, None), Err(crate::DomainError::NotFound(_))),
            "{malformed}"
        );
    }
}

#[test]
fn every_view_speaks_the_sendouts_language_and_the_survey_thanks_in_its_own_words() {
    let mut fake = four_pages();
    sendout(&mut fake).language = Language::Sv;
    fake.state.surveys.rows[0].1.thank_you_message = Some("Tack för din tid!".into());
    assert_eq!(open(&mut fake, &At(NOW), TOKEN, None).unwrap().language, Language::Sv);
    answer(&mut fake, 1, "skip");
    let thanks = answer(&mut fake, 4, "done");
    assert_eq!(thanks.language, Language::Sv);
    assert_eq!(thanks.state, PageState::Done { thank_you_message: Some("Tack för din tid!".into()) });
    sendout(&mut fake).status = SendoutStatus::Inactive;
    assert_eq!(open(&mut fake, &At(NOW), TOKEN, None).unwrap().language, Language::Sv, "the closed page too");
}

#[test]
fn the_thank_you_message_pipes_the_answers_at_completion_and_on_every_later_visit() {
    let mut fake = four_pages();
    fake.state.surveys.rows[0].1.thank_you_message = Some("You said {{answer.10}} then {{answer.40|nothing}}.".into());
    answer(&mut fake, 1, "skip");
    let thanks = PageState::Done { thank_you_message: Some("You said skip then <done>.".into()) };
    assert_eq!(answer(&mut fake, 4, "<done>").state, thanks, "the page escapes it, not the domain");
    assert_eq!(open(&mut fake, &At(NOW), TOKEN, None).unwrap().state, thanks, "a later visit");
}

#[test]
fn a_value_that_does_not_fit_is_named_with_its_item_and_nothing_is_saved() {
    let mut fake = four_pages();
    let long = "x".repeat(crate::answer::MAX_TEXT_LEN + 1);
    let view = answer(&mut fake, 1, &long);
    let too_long = ValueProblem::TooLong { max: crate::answer::MAX_TEXT_LEN };
    assert_eq!(errors_of(&view), [PageError::Invalid(QuestionItemId::new(10), too_long)]);
    assert!(progress(&fake).is_none());
    let twice = [("q10".to_owned(), "a".to_owned()), ("q10".to_owned(), "b".to_owned())];
    let view = submit(&mut fake, &At(NOW), TOKEN, crate::ids::PageId::new(1), &twice).unwrap();
    assert_eq!(errors_of(&view), [PageError::Invalid(QuestionItemId::new(10), ValueProblem::OneValue)]);
}

#[test]
fn a_login_opens_the_link_or_shows_the_form_again_in_the_sendouts_language_with_its_size() {
    use crate::distribution::LoginPage;
    use crate::use_cases::respondent_page::{login, LoginOutcome};
    let mut fake = four_pages();
    sendout(&mut fake).kind = DispatchType::Login;
    sendout(&mut fake).language = Language::De;
    let sendout_id = super::seeds::pages::SENDOUT;
    let opened = login(&mut fake, &At(NOW), sendout_id, " ANN@example.com ").unwrap();
    assert_eq!(opened, LoginOutcome::Opens(TOKEN.into()), "identifiers compare by their key");
    let unknown = login(&mut fake, &At(NOW), sendout_id, "bob@example.com").unwrap();
    let german = LoginPage { language: Language::De, respondents: 1 };
    assert_eq!(unknown, LoginOutcome::Nothing(german));
    let other = crate::ids::SendoutId::new(99);
    let none = LoginOutcome::Nothing(LoginPage { language: Language::En, respondents: 0 });
    assert_eq!(login(&mut fake, &At(NOW), other, "ann@example.com").unwrap(), none);
    sendout(&mut fake).status = SendoutStatus::Inactive;
    assert_eq!(login(&mut fake, &At(NOW), sendout_id, "ann@example.com").unwrap(), LoginOutcome::Nothing(german));
}

#[test]
fn the_timeline_keeps_each_pages_first_view_its_saves_and_the_completion() {
    use crate::distribution::EventKind;
    use crate::ports::TimelineRepository;
    let mut fake = four_pages();
    for _ in 0..2 {
        open(&mut fake, &At(NOW), TOKEN, None).unwrap();
    }
    answer(&mut fake, 1, "skip");
    answer(&mut fake, 4, "done");
    let events = fake.respondent_events(ACCOUNT, SENDOUT, RESPONDENT).unwrap();
    let kinds: Vec<(EventKind, Option<i64>)> =
        events.iter().map(|e| (e.kind, e.detail.as_ref().and_then(|d| d["pageId"].as_i64()))).collect();
    assert_eq!(
        kinds,
        [
            (EventKind::PageViewed, Some(1)),
            (EventKind::PageSaved, Some(1)),
            (EventKind::PageViewed, Some(4)),
            (EventKind::PageSaved, Some(4)),
            (EventKind::Completed, None),
        ],
        "a second view of page 1 writes nothing"
    );
}
