//! The columns of migration `2020-11-27-000027_respondent_language` through the adapter: a sendout's language, a
//! survey's thank-you message and a Rating item's scale labels are stored, read back wherever their rows are read,
//! and kept by copies.

use canvass_domain::distribution::{DispatchType, MessageInput, SendoutDraft, SendoutInput};
use canvass_domain::ids::{AccountId, SurveyId};
use canvass_domain::language::Language;
use canvass_domain::ports::{SendoutRepository, SurveyRepository};
use canvass_domain::survey::{PageDraft, QuestionItemDraft, QuestionType, SurveyDraft, SurveyInput};
use canvass_postgres::PgUnitOfWork;
use canvass_testdb::TestDatabase;
use time::macros::datetime;
use time::OffsetDateTime;

use crate::support::account_at;

const NOW: OffsetDateTime = datetime!(2020-11-27 10:00 UTC);

fn rating(min_label: Option<&str>, max_label: Option<&str>) -> QuestionItemDraft {
    QuestionItemDraft {
        kind: QuestionType::Rating,
        text: "How likely?".into(),
        min_label: min_label.map(Into::into),
        max_label: max_label.map(Into::into),
        ..QuestionItemDraft::default()
    }
}

fn survey(uow: &mut PgUnitOfWork<'_>, account: AccountId, thank_you_message: Option<&str>) -> SurveyId {
    let input = SurveyInput {
        name: "Pulse".into(),
        thank_you_message: thank_you_message.map(Into::into),
        pages: vec![PageDraft { title: String::new(), items: vec![rating(None, None)], randomize_items: false }],
        ..SurveyInput::default()
    };
    uow.insert_survey(account, &SurveyDraft::new(input, NOW).unwrap(), NOW).unwrap().id
}

fn login(name: &str, language: Option<Language>) -> SendoutDraft {
    let input = SendoutInput {
        name: name.into(),
        kind: DispatchType::Login,
        message: MessageInput::default(),
        expiry_date: None,
        language,
        open_link: Default::default(),
    };
    SendoutDraft::new(input).unwrap()
}

#[test]
fn a_thank_you_message_is_stored_and_read_by_every_read_of_the_survey() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let mut uow = PgUnitOfWork::new(&mut conn);
    let acme = account_at(&mut uow, "a@acme.example", NOW);
    let message = "Tack för att du svarade! 🌷\nVi hörs.";
    let with = survey(&mut uow, acme, Some(message));
    let without = survey(&mut uow, acme, None);

    let message = Some(message.to_owned());
    assert_eq!(uow.find_survey(acme, with).unwrap().unwrap().thank_you_message, message);
    assert_eq!(uow.find_survey_tree(acme, with).unwrap().unwrap().0.thank_you_message, message);
    let listed: Vec<_> = uow.list_surveys(acme).unwrap().into_iter().map(|s| s.thank_you_message).collect();
    assert_eq!(listed, [message, None]);
    assert_eq!(uow.find_survey(acme, without).unwrap().unwrap().thank_you_message, None);
}

#[test]
fn scale_labels_are_stored_in_item_order_and_absent_ones_read_as_none() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let mut uow = PgUnitOfWork::new(&mut conn);
    let acme = account_at(&mut uow, "a@acme.example", NOW);
    let items = vec![rating(Some("Not at all"), Some("Extremely")), rating(None, Some("Very")), rating(None, None)];
    let input = SurveyInput {
        name: "Pulse".into(),
        pages: vec![PageDraft { title: String::new(), items, randomize_items: false }],
        ..SurveyInput::default()
    };
    let survey = uow.insert_survey(acme, &SurveyDraft::new(input, NOW).unwrap(), NOW).unwrap();

    let read = uow.question_tree(acme, survey.id).unwrap();
    let labels: Vec<_> = read.items().map(|item| (item.min_label.as_deref(), item.max_label.as_deref())).collect();
    assert_eq!(labels, [(Some("Not at all"), Some("Extremely")), (None, Some("Very")), (None, None)]);
}

#[test]
fn a_sendout_keeps_its_language_when_read_listed_and_copied() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let mut uow = PgUnitOfWork::new(&mut conn);
    let acme = account_at(&mut uow, "a@acme.example", NOW);
    let (from, to) = (survey(&mut uow, acme, None), survey(&mut uow, acme, None));
    let polish = uow.insert_sendout(acme, from, &login("Wiosna", Some(Language::Pl)), NOW).unwrap();
    let english = uow.insert_sendout(acme, from, &login("Spring", None), NOW).unwrap();
    assert_eq!((polish.language, english.language), (Language::Pl, Language::En));

    assert_eq!(uow.find_sendout(acme, from, polish.id, false).unwrap().unwrap().language, Language::Pl);
    assert_eq!(uow.find_sendout(acme, from, polish.id, true).unwrap().unwrap().language, Language::Pl);
    let listed: Vec<_> = uow.list_sendouts(acme, from).unwrap().unwrap().iter().map(|s| s.language).collect();
    assert_eq!(listed, [Language::Pl, Language::En]);

    uow.copy_sendouts(acme, from, to, &[polish.id, english.id], NOW).unwrap();
    let copies = uow.list_sendouts(acme, to).unwrap().unwrap();
    let kept: Vec<_> = copies.iter().map(|s| (s.name.as_str(), s.language)).collect();
    assert_eq!(kept, [("Wiosna", Language::Pl), ("Spring", Language::En)]);
}
