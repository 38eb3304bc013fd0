//! The respondent page flow: pages in the logic's order, required answers, leaving and resuming, completing, and
//! no short cut to the last page.

use crate::answer::AnswerValue;
use crate::use_cases::respondent_page::{open, submit, PageView};

use super::fakes::pages::{four_pages, Pages, TOKEN};
use super::fakes::{At, NOW};

fn answer(fake: &mut Pages, page: i64, value: &str) -> PageView {
    let form = [(format!("q{}", page * 10), value.to_owned())];
    submit(fake, &At(NOW), TOKEN, crate::ids::PageId::new(page), &form).unwrap()
}

fn page_of(view: &PageView) -> Option<usize> {
    match view {
        PageView::Page { number, .. } => Some(*number),
        _ => None,
    }
}

fn errors_of(view: &PageView) -> Vec<String> {
    match view {
        PageView::Page { errors, .. } => errors.iter().map(|e| e.field.clone()).collect(),
        _ => Vec::new(),
    }
}

#[test]
fn the_logic_leads_from_page_to_page_until_the_set_is_complete() {
    let mut fake = four_pages();
    assert_eq!(page_of(&open(&mut fake, &At(NOW), TOKEN).unwrap()), Some(1));

    assert_eq!(page_of(&answer(&mut fake, 1, "skip")), Some(4), "the logic jumps to page 4");
    assert!(fake.state.locked, "the respondent's row is locked while a page is saved");
    assert_eq!(answer(&mut fake, 4, "done"), PageView::Done { survey_name: "Staff".into() });

    let (set, left_on) = fake.state.progress.clone().unwrap();
    assert!(set.completed);
    assert_eq!(left_on, None);
    let values: Vec<AnswerValue> = set.answers.iter().map(|a| a.value.clone()).collect();
    assert_eq!(values, [AnswerValue::Text("skip".into()), AnswerValue::Text("done".into())]);
    assert_eq!(open(&mut fake, &At(NOW), TOKEN).unwrap(), PageView::Done { survey_name: "Staff".into() });
}

#[test]
fn a_respondent_who_leaves_resumes_where_they_left_off() {
    let mut fake = four_pages();
    answer(&mut fake, 1, "first");
    answer(&mut fake, 2, "second");
    let resumed = open(&mut fake, &At(NOW), TOKEN).unwrap();
    assert_eq!(page_of(&resumed), Some(3));
    assert!(!fake.state.progress.unwrap().0.completed);
}

#[test]
fn a_missing_required_answer_shows_the_page_again_and_saves_nothing() {
    let mut fake = four_pages();
    let view = answer(&mut fake, 1, "");
    assert_eq!(page_of(&view), Some(1));
    assert_eq!(errors_of(&view), ["q10"]);
    assert!(fake.state.progress.is_none());
}

#[test]
fn the_last_page_cannot_be_posted_first() {
    let mut fake = four_pages();
    let view = answer(&mut fake, 4, "done");
    assert_eq!(page_of(&view), Some(1), "the page to answer now is shown");
    assert_eq!(errors_of(&view), ["page"]);
    assert!(fake.state.progress.is_none(), "nothing is saved, nothing completed");

    answer(&mut fake, 1, "first");
    let skipped_ahead = answer(&mut fake, 3, "third");
    assert_eq!((page_of(&skipped_ahead), errors_of(&skipped_ahead)), (Some(2), vec!["page".to_owned()]));
}

#[test]
fn a_closed_sendout_takes_no_answers() {
    let mut fake = four_pages();
    fake.state.context.sendout_active = false;
    let closed = PageView::Closed { survey_name: "Staff".into() };
    assert_eq!(open(&mut fake, &At(NOW), TOKEN).unwrap(), closed);
    assert_eq!(answer(&mut fake, 1, "late"), closed);
    assert!(fake.state.progress.is_none());
}

#[test]
fn an_unknown_token_is_not_found() {
    let mut fake = four_pages();
    let unknown = "00000000000000000000000000000000000000cc";
    assert!(matches!(open(&mut fake, &At(NOW), unknown), Err(crate::DomainError::NotFound(_))));
}

#[test]
fn a_link_is_looked_up_within_the_account_its_token_names_and_old_links_everywhere() {
    let mut fake = four_pages();
    assert_eq!(page_of(&open(&mut fake, &At(NOW), TOKEN).unwrap()), Some(1), "a token naming its account");
    let old = super::fakes::pages::OLD_TOKEN;
    assert_eq!(page_of(&open(&mut fake, &At(NOW), old).unwrap()), Some(1), "a token of the old form");
    // The same random part under another account's id finds nothing: the whole token must match in that account.
    let forged = TOKEN.replacen("1-", "2-", 1);
    assert!(matches!(open(&mut fake, &At(NOW), &forged), Err(crate::DomainError::NotFound(_))), "{forged}");
    for malformed in ["erased:7", "01-00000000000000000000000000000000000000aa", "1-"] {
        assert!(matches!(open(&mut fake, &At(NOW), malformed), Err(crate::DomainError::NotFound(_))), "{malformed}");
    }
}
