//! Migration `000034_survey_translations` through the adapter: a survey's language is stored and read by every read
//! of the survey; a translation is inserted, replaced in place (its first `created_at` kept), listed in the order
//! languages were first stored, found, deleted, scoped to its account, and removed with its survey.

use canvass_domain::ids::{AccountId, PageId, SurveyId};
use canvass_domain::language::Language;
use canvass_domain::ports::SurveyRepository;
use canvass_domain::survey::{ItemTexts, PageDraft, QuestionItemDraft, SurveyDraft, SurveyInput, TranslatedTexts};
use canvass_postgres::PgUnitOfWork;
use canvass_testdb::TestDatabase;
use diesel::sql_types::BigInt;
use diesel::RunQueryDsl;
use time::macros::datetime;
use time::{Duration, OffsetDateTime};

use crate::support::account_at;

const NOW: OffsetDateTime = datetime!(2040-03-01 10:00 UTC);

fn finnish_survey(uow: &mut PgUnitOfWork<'_>, account: AccountId) -> SurveyId {
    let note = QuestionItemDraft { text: "Miksi?".into(), ..QuestionItemDraft::default() };
    let input = SurveyInput {
        name: "Pulssi".into(),
        language: Some(Language::Fi),
        pages: vec![PageDraft { title: "Työ".into(), items: vec![note], randomize_items: false }],
        ..SurveyInput::default()
    };
    uow.insert_survey(account, &SurveyDraft::new(input, NOW).unwrap(), NOW).unwrap().id
}

fn named(name: &str, page: PageId) -> TranslatedTexts {
    TranslatedTexts {
        name: Some(name.into()),
        pages: [(page, format!("{name} page"))].into(),
        items: Default::default(),
        ..TranslatedTexts::default()
    }
}

#[test]
fn a_survey_s_language_is_read_by_every_read_of_the_survey() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let mut uow = PgUnitOfWork::new(&mut conn);
    let acme = account_at(&mut uow, "a@acme.example", NOW);
    let survey = finnish_survey(&mut uow, acme);
    assert_eq!(uow.find_survey(acme, survey).unwrap().unwrap().language, Language::Fi);
    assert_eq!(uow.find_survey_tree(acme, survey).unwrap().unwrap().0.language, Language::Fi);
    assert_eq!(uow.list_surveys(acme).unwrap()[0].language, Language::Fi);
}

#[test]
fn a_translation_is_replaced_in_place_listed_in_first_stored_order_and_deleted() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let mut uow = PgUnitOfWork::new(&mut conn);
    let acme = account_at(&mut uow, "a@acme.example", NOW);
    let other = account_at(&mut uow, "o@other.example", NOW);
    let survey = finnish_survey(&mut uow, acme);
    let page = uow.question_tree(acme, survey).unwrap().pages[0].id;
    let later = NOW + Duration::hours(1);

    uow.put_translation(acme, survey, Language::Sv, &named("Puls", page), NOW).unwrap();
    uow.put_translation(acme, survey, Language::En, &named("Pulse", page), NOW).unwrap();
    let mut texts = named("Puls 2", page);
    texts.items.insert(
        uow.question_tree(acme, survey).unwrap().pages[0].items[0].id,
        ItemTexts { text: Some("Varför?".into()), ..ItemTexts::default() },
    );
    let replaced = uow.put_translation(acme, survey, Language::Sv, &texts, later).unwrap();
    assert_eq!((replaced.created_at, replaced.updated_at), (NOW, later));
    assert_eq!(replaced.texts, texts);

    let listed: Vec<_> = uow.list_translations(acme, survey).unwrap().into_iter().map(|t| t.language).collect();
    assert_eq!(listed, [Language::Sv, Language::En], "a replaced language keeps its place");
    assert_eq!(uow.find_translation(acme, survey, Language::Sv).unwrap().unwrap().texts, texts);
    assert_eq!(uow.find_translation(acme, survey, Language::De).unwrap(), None);

    assert_eq!(uow.find_translation(other, survey, Language::Sv).unwrap(), None, "another account's");
    assert!(uow.list_translations(other, survey).unwrap().is_empty());
    assert!(!uow.delete_translation(other, survey, Language::Sv).unwrap());

    assert!(uow.delete_translation(acme, survey, Language::Sv).unwrap());
    assert!(!uow.delete_translation(acme, survey, Language::Sv).unwrap());
    let left: Vec<_> = uow.list_translations(acme, survey).unwrap().into_iter().map(|t| t.language).collect();
    assert_eq!(left, [Language::En]);
}

#[test]
fn a_survey_s_translations_go_with_it() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let (acme, survey) = {
        let mut uow = PgUnitOfWork::new(&mut conn);
        let acme = account_at(&mut uow, "a@acme.example", NOW);
        let survey = finnish_survey(&mut uow, acme);
        let page = uow.question_tree(acme, survey).unwrap().pages[0].id;
        uow.put_translation(acme, survey, Language::Sv, &named("Puls", page), NOW).unwrap();
        (acme, survey)
    };
    diesel::sql_query("DELETE FROM surveys WHERE account_id = $1 AND id = $2")
        .bind::<BigInt, _>(acme.get())
        .bind::<BigInt, _>(survey.get())
        .execute(&mut conn)
        .unwrap();
    let mut uow = PgUnitOfWork::new(&mut conn);
    assert!(uow.list_translations(acme, survey).unwrap().is_empty());
}

#[test]
fn a_page_reads_the_texts_of_its_own_items_and_the_survey_s_languages() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let mut uow = PgUnitOfWork::new(&mut conn);
    let acme = account_at(&mut uow, "a@acme.example", NOW);
    let other = account_at(&mut uow, "o@other.example", NOW);
    let note = |text: &str| QuestionItemDraft { text: text.into(), ..QuestionItemDraft::default() };
    let input = SurveyInput {
        name: "Pulssi".into(),
        language: Some(Language::Fi),
        pages: vec![PageDraft {
            title: "Työ".into(),
            items: vec![note("Miksi?"), note("Milloin?")],
            randomize_items: false,
        }],
        ..SurveyInput::default()
    };
    let survey = uow.insert_survey(acme, &SurveyDraft::new(input, NOW).unwrap(), NOW).unwrap().id;
    let tree = uow.question_tree(acme, survey).unwrap();
    let (page, why, when) = (tree.pages[0].id, tree.pages[0].items[0].id, tree.pages[0].items[1].id);
    let mut texts = named("Pulse", page);
    for (item, text) in [(why, "Why \"really\"?\n\\ – 😀"), (when, "When?")] {
        texts.items.insert(item, ItemTexts { text: Some(text.into()), ..ItemTexts::default() });
    }
    uow.put_translation(acme, survey, Language::En, &texts, NOW).unwrap();
    uow.put_translation(acme, survey, Language::Sv, &named("Puls", page), NOW).unwrap();

    let (languages, whole) = uow.page_translation(acme, survey, Language::En, None).unwrap();
    assert_eq!((languages, whole.as_ref()), (vec![Language::En, Language::Sv], Some(&texts)));
    let (_, one) = uow.page_translation(acme, survey, Language::En, Some(&[when])).unwrap();
    let one = one.unwrap();
    assert_eq!(one.items.keys().copied().collect::<Vec<_>>(), [when], "only the item asked for");
    assert_eq!((one.name.as_deref(), one.pages.get(&page).map(String::as_str)), (Some("Pulse"), Some("Pulse page")));
    let (languages, none) = uow.page_translation(acme, survey, Language::Fi, Some(&[])).unwrap();
    assert_eq!((languages.len(), none), (2, None), "the survey's own language has no translation");
    let (_, no_items) = uow.page_translation(acme, survey, Language::En, Some(&[])).unwrap();
    assert!(no_items.unwrap().items.is_empty());
    assert_eq!(uow.page_translation(other, survey, Language::En, None).unwrap(), (vec![], None), "another account's");
}
