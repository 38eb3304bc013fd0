//! The blocklist and permanent failures: a contact joins the list once and its respondents that were not yet
//! sent to are never sent to; it leaves by its key; failures are recorded once and bounce the account's
//! respondents; each account keeps and reads its own.

use crate::chunks::ChunkRequest;
use crate::distribution::{
    BlocklistType, BounceFilter, DispatchType, NewPermanentFailure, PermanentFailure, RespondentStatus,
};
use crate::error::{ConflictKind, DomainError};
use crate::ids::{RespondentId, SendoutId};
use crate::paging::{Page, PageRequest};
use crate::use_cases::blocklist;
use crate::AccountId;

use super::seeds::distribution::ACCOUNT;
use super::seeds::{invalid_fields, not_found, At, NOW};
use crate::testing::Memory;

const OTHER: AccountId = AccountId::new(2);

fn status_of(fake: &Memory, id: RespondentId) -> RespondentStatus {
    fake.respondent_rows().into_iter().find(|r| r.id == id).map(|r| r.status).unwrap()
}

fn set_status(fake: &mut Memory, id: RespondentId, status: RespondentStatus) {
    let respondent = fake.respondent_row(id);
    respondent.status = status;
}

fn pending_count(fake: &Memory, sendout: SendoutId) -> i64 {
    fake.sendout_row(sendout).pending_count
}

fn failure(address: &str, domain: &str, minutes: i64) -> NewPermanentFailure {
    let at = NOW + time::Duration::minutes(minutes);
    NewPermanentFailure::check(address, domain, at, "550 no such user", "").unwrap()
}

fn addresses(page: &Page<PermanentFailure>) -> Vec<&str> {
    page.items.iter().map(|f| f.email_address.as_str()).collect()
}

fn page(number: i64, size: i64) -> PageRequest {
    PageRequest::new(number, size, "page", "pagesize").unwrap()
}

#[test]
fn adding_a_contact_blocklists_the_accounts_respondents_not_yet_sent_to() {
    let (mut fake, survey, first) = Memory::with_sendout(DispatchType::Email);
    let second = fake.another_sendout(survey, DispatchType::Email);
    let third = fake.another_sendout(survey, DispatchType::Email);
    let pending = fake.pending(first, "ann@example.com");
    let scheduled = fake.pending(second, "ANN@example.com");
    set_status(&mut fake, scheduled, RespondentStatus::Scheduled);
    let sent = fake.pending(third, "Ann@Example.com");
    set_status(&mut fake, sent, RespondentStatus::Sent);
    let someone_else = fake.pending(first, "bob@example.com");

    let entry = blocklist::add(&mut fake, &At(NOW), ACCOUNT, " Ann@Example.COM ", BlocklistType::OptedOut).unwrap();

    assert_eq!(entry.contact_details, "Ann@Example.COM", "kept as given, trimmed");
    assert_eq!((entry.kind, entry.created_at), (BlocklistType::OptedOut, NOW));
    assert_eq!(status_of(&fake, pending), RespondentStatus::Blocklisted);
    assert_eq!(status_of(&fake, scheduled), RespondentStatus::Blocklisted, "email addresses compare by their key");
    assert_eq!(status_of(&fake, sent), RespondentStatus::Sent, "a sent invitation stays sent");
    assert_eq!(status_of(&fake, someone_else), RespondentStatus::Pending);
    assert_eq!(pending_count(&fake, first), 1, "the blocklisted respondent left the pending count");
    let listed = blocklist::list_chunk(&mut fake, ACCOUNT, &ChunkRequest::first(10)).unwrap();
    assert_eq!(listed.items, [entry]);
    assert_eq!((fake.transactions.committed, fake.transactions.rolled_back), (1, 0));
}

#[test]
fn a_contact_already_on_the_list_is_a_duplicate_and_changes_nothing() {
    let (mut fake, _, sendout) = Memory::with_sendout(DispatchType::Email);
    let first = blocklist::add(&mut fake, &At(NOW), ACCOUNT, "ann@example.com", BlocklistType::Blocked).unwrap();
    // Added behind the use case's back, after the contact was listed.
    let later = fake.pending(sendout, "ann@example.com");

    let later_clock = At(NOW + time::Duration::hours(1));
    let again = blocklist::add(&mut fake, &later_clock, ACCOUNT, " ANN@example.com", BlocklistType::OptedOut);

    assert!(matches!(again, Err(DomainError::Conflict { kind: ConflictKind::Duplicate, .. })), "{again:?}");
    assert_eq!(
        fake.state.blocklist.iter().map(|(.., entry)| entry).collect::<Vec<_>>(),
        [&first],
        "the first entry stays as it was"
    );
    assert_eq!(status_of(&fake, later), RespondentStatus::Pending, "nothing is marked by a refused add");
    assert_eq!((fake.transactions.committed, fake.transactions.rolled_back), (1, 1));
}

#[test]
fn a_blank_overlong_or_control_contact_is_refused_naming_the_field_before_the_store_is_touched() {
    let (mut fake, _, _) = Memory::with_sendout(DispatchType::Email);
    let overlong = "x".repeat(crate::limits::CONTACT + 1);
    for bad in ["", "   ", "ann\u{7}@example.com", &overlong] {
        let added = blocklist::add(&mut fake, &At(NOW), ACCOUNT, bad, BlocklistType::Blocked);
        assert_eq!(invalid_fields(added), ["contactDetails"], "{bad:?}");
    }
    assert!(fake.state.blocklist.is_empty());
    assert_eq!(fake.transactions.committed + fake.transactions.rolled_back, 0);
}

#[test]
fn a_contact_leaves_the_list_by_its_key_and_can_be_added_again() {
    let (mut fake, _, _) = Memory::with_sendout(DispatchType::Email);
    blocklist::add(&mut fake, &At(NOW), ACCOUNT, "Ann@Example.com", BlocklistType::Blocked).unwrap();

    blocklist::remove(&mut fake, ACCOUNT, " ann@EXAMPLE.com ").unwrap();

    assert!(fake.state.blocklist.is_empty());
    assert!(not_found(&blocklist::remove(&mut fake, ACCOUNT, "ann@example.com"), "blocklist entry"), "gone already");
    // A contact that adding would refuse is refused as adding refuses it, not looked for.
    for never_added in ["ann\n@example.com", " ", ""] {
        let refused = blocklist::remove(&mut fake, ACCOUNT, never_added);
        assert!(matches!(&refused, Err(DomainError::Invalid(errors)) if errors[0].field == "contactDetails"));
    }
    blocklist::add(&mut fake, &At(NOW), ACCOUNT, "ann@example.com", BlocklistType::Blocked).unwrap();
    assert_eq!(fake.state.blocklist.len(), 1);
}

#[test]
fn another_account_neither_reads_nor_removes_nor_marks_the_accounts_list() {
    let (mut fake, _, sendout) = Memory::with_sendout(DispatchType::Email);
    let ann = fake.pending(sendout, "ann@example.com");
    blocklist::add(&mut fake, &At(NOW), ACCOUNT, "bob@example.com", BlocklistType::Blocked).unwrap();

    // Removing the account's entry as another account answers what removing a contact never listed answers.
    let foreign = blocklist::remove(&mut fake, OTHER, "bob@example.com");
    let missing = blocklist::remove(&mut fake, ACCOUNT, "nobody@example.com");
    assert!(not_found(&foreign, "blocklist entry") && not_found(&missing, "blocklist entry"), "{foreign:?}");
    assert_eq!(fake.state.blocklist.len(), 1, "the entry stays");
    let read = blocklist::list_chunk(&mut fake, OTHER, &ChunkRequest::first(10)).unwrap();
    assert!(read.items.is_empty());

    // Another account's list is its own: the contact is no duplicate there, and the account's respondent stays.
    blocklist::add(&mut fake, &At(NOW), OTHER, "bob@example.com", BlocklistType::Blocked).unwrap();
    blocklist::add(&mut fake, &At(NOW), OTHER, "ann@example.com", BlocklistType::Blocked).unwrap();
    assert_eq!(status_of(&fake, ann), RespondentStatus::Pending);
}

#[test]
fn failures_are_recorded_once_and_bounce_the_accounts_respondents_but_blocklisted_ones() {
    let (mut fake, survey, first) = Memory::with_sendout(DispatchType::Email);
    let second = fake.another_sendout(survey, DispatchType::Email);
    let pending = fake.pending(first, "ann@example.com");
    let sent = fake.pending(second, "Ann@Example.com");
    set_status(&mut fake, sent, RespondentStatus::Sent);
    let listed = fake.pending(first, "carol@example.com");
    blocklist::add(&mut fake, &At(NOW), ACCOUNT, "carol@example.com", BlocklistType::Blocked).unwrap();
    let untouched = fake.pending(first, "dave@example.com");

    let batch = vec![failure("ANN@example.com", "mail.acme.example", 0), failure("carol@example.com", "x.example", 1)];
    assert_eq!(blocklist::record_failures(&mut fake, ACCOUNT, batch).unwrap(), 2);

    assert_eq!(status_of(&fake, pending), RespondentStatus::Bounced);
    assert_eq!(status_of(&fake, sent), RespondentStatus::Bounced);
    assert_eq!(status_of(&fake, listed), RespondentStatus::Blocklisted, "a blocklisted respondent stays so");
    assert_eq!(status_of(&fake, untouched), RespondentStatus::Pending);
    assert_eq!(pending_count(&fake, first), 1, "dave is the one pending left");

    // The same address at the same time is no new failure; at another time it is.
    let repeat =
        vec![failure("ann@example.com", "mail.acme.example", 0), failure("ann@example.com", "mail.acme.example", 5)];
    assert_eq!(blocklist::record_failures(&mut fake, ACCOUNT, repeat).unwrap(), 1);
    assert_eq!(fake.state.failures.len(), 3);
    assert_eq!(fake.transactions.rolled_back, 0);
}

#[test]
fn an_empty_or_oversized_list_of_failures_is_refused_before_the_store_is_touched() {
    let (mut fake, _, _) = Memory::with_sendout(DispatchType::Email);
    assert_eq!(invalid_fields(blocklist::record_failures(&mut fake, ACCOUNT, Vec::new())), ["failures"]);
    let too_many: Vec<_> = (0..1001).map(|n| failure(&format!("p{n}@example.com"), "acme.example", 0)).collect();
    assert_eq!(invalid_fields(blocklist::record_failures(&mut fake, ACCOUNT, too_many)), ["failures"]);
    let most: Vec<_> = (0..1000).map(|n| failure(&format!("p{n}@example.com"), "acme.example", 0)).collect();
    assert_eq!(blocklist::record_failures(&mut fake, ACCOUNT, most).unwrap(), 1000);
    assert_eq!((fake.transactions.committed, fake.transactions.rolled_back), (1, 0));
}

#[test]
fn failures_page_oldest_first_filtered_by_domain_and_time_within_the_account() {
    let (mut fake, _, _) = Memory::with_sendout(DispatchType::Email);
    let recorded = vec![
        failure("late@example.com", "mail.acme.example", 30),
        failure("first@example.com", "mail.acme.example", 0),
        failure("other@example.com", "news.acme.example", 10),
        failure("mid@example.com", "Mail.Acme.Example", 20),
    ];
    blocklist::record_failures(&mut fake, ACCOUNT, recorded).unwrap();

    let all = BounceFilter::default();
    let first = blocklist::page_failures(&mut fake, ACCOUNT, &all, page(1, 3)).unwrap();
    assert_eq!(addresses(&first), ["first@example.com", "other@example.com", "mid@example.com"]);
    assert_eq!(first.total_count, 4);
    let second = blocklist::page_failures(&mut fake, ACCOUNT, &all, page(2, 3)).unwrap();
    assert_eq!(addresses(&second), ["late@example.com"]);
    let beyond = blocklist::page_failures(&mut fake, ACCOUNT, &all, page(3, 3)).unwrap();
    assert!(beyond.items.is_empty() && beyond.total_count == 4);

    let domain = BounceFilter::new(Some(" MAIL.acme.example ".into()), None).unwrap();
    let mail = blocklist::page_failures(&mut fake, ACCOUNT, &domain, page(1, 10)).unwrap();
    assert_eq!(addresses(&mail), ["first@example.com", "mid@example.com", "late@example.com"]);
    let since = BounceFilter::new(None, Some(NOW + time::Duration::minutes(10))).unwrap();
    let recent = blocklist::page_failures(&mut fake, ACCOUNT, &since, page(1, 10)).unwrap();
    assert_eq!(addresses(&recent), ["other@example.com", "mid@example.com", "late@example.com"], "from is inclusive");

    let foreign = blocklist::page_failures(&mut fake, OTHER, &all, page(1, 10)).unwrap();
    assert!(foreign.items.is_empty() && foreign.total_count == 0);
}
