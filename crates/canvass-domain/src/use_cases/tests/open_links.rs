//! Open links: a LINK sendout has a handle of its account's form and the rules of its visits; its handle can be
//! rotated (no other type's can); respondents are never added to it.

use crate::distribution::{
    survey_link_route, DispatchType, LinkRoute, MessageInput, OpenLinkInput, RespondentInput, SendoutInput,
};
use crate::error::{ConflictKind, DomainError};
use crate::ids::SurveyId;
use crate::language::LanguageWish;
use crate::survey::SurveyInput;
use crate::testing::Memory;
use crate::use_cases::{respondents, sendouts, surveys};
use crate::AccountId;

use super::seeds::{invalid_fields, not_found, two_accounts, At, NOW};

fn link(max_responses: Option<i64>, one_response_per_browser: Option<bool>) -> SendoutInput {
    SendoutInput {
        name: "Poster".into(),
        kind: DispatchType::Link,
        message: MessageInput::default(),
        expiry_date: None,
        language: None,
        open_link: OpenLinkInput { max_responses, one_response_per_browser },
    }
}

fn survey_of(memory: &mut Memory, account: AccountId) -> SurveyId {
    surveys::create(memory, &At(NOW), account, SurveyInput { name: "Event".into(), ..SurveyInput::default() })
        .unwrap()
        .id
}

fn is_conflict<T: std::fmt::Debug>(result: &Result<T, DomainError>, kind: ConflictKind) -> bool {
    matches!(result, Err(DomainError::Conflict { kind: found, .. }) if *found == kind)
}

#[test]
fn a_link_sendout_has_a_handle_of_its_account_and_its_rules() {
    let (mut memory, acme, _) = two_accounts();
    let survey = survey_of(&mut memory, acme);
    let open = sendouts::create(&mut memory, &At(NOW), acme, survey, link(None, None)).unwrap();
    let capped = sendouts::create(&mut memory, &At(NOW), acme, survey, link(Some(250), Some(false))).unwrap();

    let (open_link, capped_link) = (open.open_link.clone().unwrap(), capped.open_link.clone().unwrap());
    assert_eq!(survey_link_route(&open_link.handle), Some(LinkRoute::Account(acme)));
    assert_ne!(open_link.handle, capped_link.handle);
    assert_eq!((open_link.max_responses, open_link.one_response_per_browser), (None, true));
    assert_eq!((capped_link.max_responses, capped_link.one_response_per_browser), (Some(250), false));
    assert_eq!(sendouts::get(&mut memory, acme, survey, capped.id).unwrap(), capped);
    assert!(!format!("{open:?}").contains(&open_link.handle), "the handle stays out of Debug");
    assert!(invalid_fields(sendouts::create(&mut memory, &At(NOW), acme, survey, link(Some(0), None)))
        .contains(&"maxResponses".to_owned()));
}

#[test]
fn rotating_gives_a_new_handle_and_only_a_link_sendout_has_one() {
    let (mut memory, acme, other) = two_accounts();
    let survey = survey_of(&mut memory, acme);
    let created = sendouts::create(&mut memory, &At(NOW), acme, survey, link(Some(5), None)).unwrap();
    let rotated = sendouts::rotate_open_link(&mut memory, acme, survey, created.id).unwrap();

    let (before, after) = (created.open_link.unwrap(), rotated.open_link.clone().unwrap());
    assert_ne!(before.handle, after.handle);
    assert_eq!(survey_link_route(&after.handle), Some(LinkRoute::Account(acme)));
    assert_eq!(after.max_responses, Some(5), "the rules stay");
    assert_eq!(sendouts::get(&mut memory, acme, survey, created.id).unwrap(), rotated);

    let login = SendoutInput { kind: DispatchType::Login, open_link: OpenLinkInput::default(), ..link(None, None) };
    let login = sendouts::create(&mut memory, &At(NOW), acme, survey, login).unwrap();
    assert_eq!(login.open_link, None);
    assert!(is_conflict(&sendouts::rotate_open_link(&mut memory, acme, survey, login.id), ConflictKind::NoPublicLink));
    assert!(not_found(&sendouts::rotate_open_link(&mut memory, other, survey, created.id), "survey"));
}

#[test]
fn respondents_are_never_added_to_a_link_sendout() {
    let (mut memory, acme, _) = two_accounts();
    let survey = survey_of(&mut memory, acme);
    let sendout = sendouts::create(&mut memory, &At(NOW), acme, survey, link(None, None)).unwrap().id;
    let person = || RespondentInput {
        contact_details: "ann@example.com".into(),
        send_mail: true,
        background_data: Default::default(),
        language: None,
    };

    let single = respondents::add(&mut memory, &At(NOW), acme, survey, sendout, person());
    assert!(is_conflict(&single, ConflictKind::LinkSendout), "{single:?}");
    let batch = respondents::add_batch(&mut memory, &At(NOW), acme, survey, sendout, vec![person()]);
    assert!(is_conflict(&batch, ConflictKind::LinkSendout));
    assert!(memory.state.respondents.is_empty());
}

/// An Active LINK sendout of a new survey of `acme`, with `cap`; its survey, itself and its handle.
fn active_link(memory: &mut Memory, acme: AccountId, cap: Option<i64>) -> (SurveyId, crate::ids::SendoutId, String) {
    let survey = survey_of(memory, acme);
    let sendout = sendouts::create(memory, &At(NOW), acme, survey, link(cap, None)).unwrap();
    sendouts::activate(memory, &At(NOW), acme, survey, sendout.id).unwrap();
    (survey, sendout.id, sendout.open_link.unwrap().handle)
}

fn complete_a_set(memory: &mut Memory, acme: AccountId, (survey, sendout): (SurveyId, crate::ids::SendoutId)) {
    let id = crate::ids::AnswerSetId::new(memory.state.next_id());
    let set = crate::answer::AnswerSet {
        id,
        survey_id: survey,
        respondent_id: None,
        sendout_id: Some(sendout),
        completed: true,
        quota_full: false,
        shown_order: Default::default(),
        created_at: NOW,
        updated_at: NOW,
        language: None,
        answers: Vec::new(),
    };
    memory.state.answer_sets.push(crate::testing::HeldAnswerSet { account_id: acme, set, page: None, original: None });
}

#[test]
fn a_visitor_starts_as_an_anonymous_released_respondent_with_a_token_of_its_own() {
    use crate::distribution::RespondentStatus;
    use crate::use_cases::open_link::{self, OpenLinkView, StartOutcome};
    let (mut memory, acme, _) = two_accounts();
    let (survey, sendout, handle) = active_link(&mut memory, acme, None);

    let page = open_link::start_page(&mut memory, &At(NOW), &handle, &LanguageWish::default()).unwrap();
    assert!(matches!(page, OpenLinkView::Start { ref survey_name, .. } if survey_name == "Event"), "{page:?}");
    assert!(memory.state.respondents.is_empty(), "the start page changes nothing");

    let StartOutcome::Started(first) =
        open_link::start(&mut memory, &At(NOW), &handle, &[], &LanguageWish::default()).unwrap()
    else {
        panic!()
    };
    let StartOutcome::Started(second) =
        open_link::start(&mut memory, &At(NOW), &handle, &[], &LanguageWish::default()).unwrap()
    else {
        panic!()
    };
    assert_ne!(first.token, second.token);
    assert_eq!(survey_link_route(&first.token), Some(LinkRoute::Account(acme)));
    assert!(first.one_response_per_browser);
    let held = memory.state.respondents.iter().find(|r| r.row.id == first.respondent_id).unwrap().clone();
    assert_eq!((held.row.sendout_id, held.row.status), (sendout, RespondentStatus::Released));
    assert_eq!((held.row.contact_details.as_str(), held.released_at), ("", Some(NOW)));
    assert_eq!(held.survey_id, survey);
}

#[test]
fn a_closed_or_full_link_shows_the_closed_page_and_starts_no_one() {
    use crate::use_cases::open_link::{self, OpenLinkView, StartOutcome};
    let (mut memory, acme, _) = two_accounts();
    let (survey, full, full_handle) = active_link(&mut memory, acme, Some(2));
    complete_a_set(&mut memory, acme, (survey, full));
    assert!(matches!(
        open_link::start(&mut memory, &At(NOW), &full_handle, &[], &LanguageWish::default()).unwrap(),
        StartOutcome::Started(_)
    ));
    complete_a_set(&mut memory, acme, (survey, full));
    let closed = |memory: &mut Memory, handle: &str| {
        matches!(
            open_link::start_page(memory, &At(NOW), handle, &LanguageWish::default()).unwrap(),
            OpenLinkView::Closed { .. }
        ) && matches!(
            open_link::start(memory, &At(NOW), handle, &[], &LanguageWish::default()).unwrap(),
            StartOutcome::Closed(_)
        )
    };
    assert!(closed(&mut memory, &full_handle), "two completed sets reach the cap");

    let survey = survey_of(&mut memory, acme);
    let draft = sendouts::create(&mut memory, &At(NOW), acme, survey, link(None, None)).unwrap();
    assert!(closed(&mut memory, &draft.open_link.unwrap().handle), "a Draft sendout takes no visitors");
    assert_eq!(memory.state.respondents.len(), 1, "only the start before the cap made a respondent");
}

#[test]
fn an_unknown_a_rotated_or_a_malformed_handle_is_not_found() {
    use crate::use_cases::open_link;
    let (mut memory, acme, other) = two_accounts();
    let (survey, sendout, handle) = active_link(&mut memory, acme, None);
    let rotated = sendouts::rotate_open_link(&mut memory, acme, survey, sendout).unwrap().open_link.unwrap().handle;

    assert!(
        not_found(&open_link::start_page(&mut memory, &At(NOW), &handle, &LanguageWish::default()), "open link"),
        "the old handle"
    );
    assert!(not_found(&open_link::start(&mut memory, &At(NOW), &handle, &[], &LanguageWish::default()), "open link"));
    assert!(open_link::start_page(&mut memory, &At(NOW), &rotated, &LanguageWish::default()).is_ok());
    let random = rotated.split_once('-').unwrap().1;
    let elsewhere = format!("{}-{random}", other.get());
    for wrong in [random, elsewhere.as_str(), "", "x", &format!("0{rotated}")] {
        assert!(
            not_found(&open_link::start(&mut memory, &At(NOW), wrong, &[], &LanguageWish::default()), "open link"),
            "{wrong}"
        );
    }
    assert!(memory.state.respondents.is_empty());
}

#[test]
fn a_visitor_is_shown_the_survey_language_it_asks_for_and_keeps_it() {
    use crate::language::Language;
    use crate::survey::TranslationInput;
    use crate::use_cases::open_link::{self, OpenLinkView, StartOutcome};
    use crate::use_cases::translations;
    let (mut memory, acme, _) = two_accounts();
    let (survey, _, handle) = active_link(&mut memory, acme, None);
    let finnish = TranslationInput { name: Some("Tapahtuma".into()), ..TranslationInput::default() };
    translations::put(&mut memory, &At(NOW), acme, survey, Language::Fi, finnish).unwrap();

    let wish = LanguageWish { picked: Some(Language::De), accepted: vec![Language::Sv, Language::Fi] };
    let page = open_link::start_page(&mut memory, &At(NOW), &handle, &wish).unwrap();
    let expected =
        OpenLinkView::Start { survey_name: "Tapahtuma".into(), description: String::new(), language: Language::Fi };
    assert_eq!(page, expected, "German and Swedish are not the survey's; Finnish is");
    let StartOutcome::Started(visitor) = open_link::start(&mut memory, &At(NOW), &handle, &[], &wish).unwrap() else {
        panic!()
    };
    let held = memory.state.respondents.iter().find(|r| r.row.id == visitor.respondent_id).unwrap();
    assert_eq!(held.row.language, Some(Language::Fi));

    let none = LanguageWish { picked: Some(Language::Pl), accepted: vec![] };
    assert_eq!(open_link::start_page(&mut memory, &At(NOW), &handle, &none).unwrap().language(), Language::En);
}
