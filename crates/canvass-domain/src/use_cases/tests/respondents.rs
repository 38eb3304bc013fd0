//! Adding one respondent: it joins its sendout as Pending, unless its contact is malformed, on the account's
//! blocklist or in the sendout already; another account's sendout is not found, as a missing one is.

use crate::distribution::{BackgroundData, BlocklistType, DispatchType, LabelType, RespondentInput, RespondentStatus};
use crate::error::{ConflictKind, DomainError};
use crate::ids::{LabelId, SendoutId, SurveyId};
use crate::use_cases::{blocklist, respondents, sendouts};
use crate::AccountId;

use super::seeds::distribution::ACCOUNT;
use super::seeds::{invalid_fields, not_found, At, NOW};
use crate::testing::Memory;

fn contact(details: &str) -> RespondentInput {
    RespondentInput {
        contact_details: details.into(),
        send_mail: true,
        background_data: BackgroundData::new(),
        language: None,
    }
}

fn counts(fake: &Memory, sendout: SendoutId) -> (i64, i64) {
    let row = fake.sendout_row(sendout);
    (row.respondent_count, row.pending_count)
}

fn is_conflict<T: std::fmt::Debug>(result: &Result<T, DomainError>, kind: ConflictKind) -> bool {
    matches!(result, Err(DomainError::Conflict { kind: found, .. }) if *found == kind)
}

#[test]
fn a_respondent_joins_its_sendout_as_pending() {
    let (mut fake, survey, sendout) = Memory::with_sendout(DispatchType::Email);
    let input = RespondentInput { send_mail: false, ..contact(" Ann@Example.com ") };

    let added = respondents::add(&mut fake, &At(NOW), ACCOUNT, survey, sendout, input).unwrap();

    assert_eq!(added.contact_details, "Ann@Example.com", "trimmed, case kept");
    assert_eq!((added.sendout_id, added.status, added.added_at), (sendout, RespondentStatus::Pending, NOW));
    assert!(!added.send_mail);
    assert!(added.token.starts_with(&format!("{ACCOUNT}-")), "the link token names the account: {}", added.token);
    assert_eq!(fake.respondent_rows(), [added]);
    assert_eq!(counts(&fake, sendout), (1, 1));
    assert_eq!((fake.transactions.committed, fake.transactions.rolled_back), (1, 0));
}

#[test]
fn a_contact_the_sendout_has_already_is_a_duplicate_and_nothing_is_added() {
    let (mut fake, survey, sendout) = Memory::with_sendout(DispatchType::Email);
    let other_sendout = fake.another_sendout(survey, DispatchType::Email);
    respondents::add(&mut fake, &At(NOW), ACCOUNT, survey, sendout, contact("ann@example.com")).unwrap();

    let again = respondents::add(&mut fake, &At(NOW), ACCOUNT, survey, sendout, contact(" ANN@example.com"));

    assert!(is_conflict(&again, ConflictKind::Duplicate), "{again:?}");
    assert_eq!(fake.state.respondents.len(), 1);
    assert_eq!(counts(&fake, sendout), (1, 1));
    assert_eq!(fake.transactions.rolled_back, 1);
    // Another sendout may have the same contact.
    respondents::add(&mut fake, &At(NOW), ACCOUNT, survey, other_sendout, contact("ann@example.com")).unwrap();
    assert_eq!(counts(&fake, other_sendout), (1, 1));
}

#[test]
fn a_blocklisted_contact_is_refused_until_it_leaves_the_list() {
    let (mut fake, survey, sendout) = Memory::with_sendout(DispatchType::Email);
    blocklist::add(&mut fake, &At(NOW), ACCOUNT, "Ann@Example.com", BlocklistType::OptedOut).unwrap();

    let refused = respondents::add(&mut fake, &At(NOW), ACCOUNT, survey, sendout, contact("ann@example.COM"));

    assert!(is_conflict(&refused, ConflictKind::Blocklisted), "{refused:?}");
    assert!(fake.state.respondents.is_empty());
    assert_eq!(counts(&fake, sendout), (0, 0));
    assert_eq!(fake.transactions.rolled_back, 1);

    blocklist::remove(&mut fake, ACCOUNT, "ann@example.com").unwrap();
    let added = respondents::add(&mut fake, &At(NOW), ACCOUNT, survey, sendout, contact("ann@example.COM")).unwrap();
    assert_eq!(added.status, RespondentStatus::Pending);
}

#[test]
fn a_blocklisted_contact_that_the_sendout_has_already_is_reported_as_blocklisted() {
    let (mut fake, survey, sendout) = Memory::with_sendout(DispatchType::Email);
    respondents::add(&mut fake, &At(NOW), ACCOUNT, survey, sendout, contact("ann@example.com")).unwrap();
    blocklist::add(&mut fake, &At(NOW), ACCOUNT, "ann@example.com", BlocklistType::Blocked).unwrap();

    let refused = respondents::add(&mut fake, &At(NOW), ACCOUNT, survey, sendout, contact("ann@example.com"));
    assert!(is_conflict(&refused, ConflictKind::Blocklisted), "the blocklist is checked first: {refused:?}");
    assert_eq!(fake.state.respondents[0].row.status, RespondentStatus::Blocklisted);
}

#[test]
fn a_contact_of_the_wrong_kind_or_an_unknown_label_is_refused_naming_the_field() {
    let (mut fake, survey, sendout) = Memory::with_sendout(DispatchType::Email);
    let sms = fake.another_sendout(survey, DispatchType::Sms);
    let clock = At(NOW);

    let not_email = respondents::add(&mut fake, &clock, ACCOUNT, survey, sendout, contact("+4791234567"));
    assert_eq!(invalid_fields(not_email), ["contactDetails"]);
    let not_number = respondents::add(&mut fake, &clock, ACCOUNT, survey, sms, contact("ann@example.com"));
    assert_eq!(invalid_fields(not_number), ["contactDetails"]);
    let unknown = RespondentInput {
        background_data: BackgroundData::from([(LabelId::new(77), "Oslo".to_owned())]),
        ..contact("ann@example.com")
    };
    let unknown = respondents::add(&mut fake, &clock, ACCOUNT, survey, sendout, unknown);
    assert_eq!(invalid_fields(unknown), ["backgroundData.77"], "no prefix for a single respondent");
    assert!(fake.state.respondents.is_empty());

    // A label made through a sendout is one of the account's background data labels.
    let office =
        sendouts::create_label(&mut fake, &clock, ACCOUNT, survey, sendout, "Office", LabelType::Text).unwrap();
    let data = BackgroundData::from([(office.id, "Oslo".to_owned())]);
    let input = RespondentInput { background_data: data.clone(), ..contact("ann@example.com") };
    let added = respondents::add(&mut fake, &clock, ACCOUNT, survey, sendout, input).unwrap();
    assert_eq!(added.background_data, data);
    assert_eq!(fake.state.respondents[0].row.background_data, data);
}

#[test]
fn another_accounts_or_a_missing_sendout_is_not_found_and_nothing_is_added() {
    let (mut fake, survey, sendout) = Memory::with_sendout(DispatchType::Email);
    let clock = At(NOW);
    let other = AccountId::new(2);

    // Another account does not see the survey, as it does not see one that never was.
    let foreign = respondents::add(&mut fake, &clock, other, survey, sendout, contact("ann@example.com"));
    let missing_survey =
        respondents::add(&mut fake, &clock, ACCOUNT, SurveyId::new(999), sendout, contact("ann@example.com"));
    assert!(not_found(&foreign, "survey") && not_found(&missing_survey, "survey"), "{foreign:?}");
    let missing_sendout =
        respondents::add(&mut fake, &clock, ACCOUNT, survey, SendoutId::new(999), contact("ann@example.com"));
    assert!(not_found(&missing_sendout, "sendout"), "{missing_sendout:?}");
    // Not found wins over a malformed contact: nothing about the sendout's rules leaks.
    let malformed = respondents::add(&mut fake, &clock, other, survey, sendout, contact("not an address"));
    assert!(not_found(&malformed, "survey"), "{malformed:?}");

    assert!(fake.state.respondents.is_empty());
    assert_eq!(counts(&fake, sendout), (0, 0));
    assert_eq!(fake.transactions.committed, 0);
}

#[test]
fn what_is_held_on_a_person_gathers_its_respondents_blocklist_entry_and_pending_invitations_and_no_one_elses() {
    let (mut fake, survey, sendout) = Memory::with_sendout(DispatchType::Email);
    respondents::add(&mut fake, &At(NOW), ACCOUNT, survey, sendout, contact("Ann@Example.com")).unwrap();
    respondents::add(&mut fake, &At(NOW), ACCOUNT, survey, sendout, contact("bo@example.com")).unwrap();
    blocklist::add(&mut fake, &At(NOW), ACCOUNT, "ann@example.COM", BlocklistType::OptedOut).unwrap();

    let held = crate::use_cases::erasure::held_on_person(&mut fake, ACCOUNT, "ANN@example.com").unwrap();
    assert_eq!(held.respondents.len(), 1);
    assert_eq!(
        (held.respondents[0].survey_id, held.respondents[0].respondent.contact_details.as_str()),
        (survey, "Ann@Example.com")
    );
    assert_eq!(held.blocklist.len(), 1);
    assert!(held.contacts.is_empty() && held.copied_answer_sets.is_empty() && held.permanent_failures.is_empty());
    let elsewhere =
        crate::use_cases::erasure::held_on_person(&mut fake, AccountId::new(ACCOUNT.get() + 1), "ann@example.com");
    assert!(elsewhere.unwrap().respondents.is_empty(), "another account holds nothing of her");
    assert_eq!(invalid_fields(crate::use_cases::erasure::held_on_person(&mut fake, ACCOUNT, " ")).len(), 1);
}
