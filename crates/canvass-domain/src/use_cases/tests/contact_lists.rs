//! Lists of contacts: members added (another account's contacts not found) and removed, counted, filtered by; and a
//! list added to a sendout, chunk by chunk, with the batch's refusals and the contact's language, id and attributes
//! carried to each respondent.

use std::collections::BTreeMap;

use crate::directory::{Contact, ContactInput};
use crate::distribution::{DispatchType, RespondentStatus};
use crate::error::{ConflictKind, DomainError};
use crate::ids::{ContactListId, LabelId};
use crate::language::Language;
use crate::paging::PageRequest;
use crate::testing::Memory;
use crate::use_cases::contact_lists::{self, add_in_chunks};
use crate::use_cases::contacts;
use crate::use_cases::respondents::RejectReason;

use super::seeds::distribution::ACCOUNT;
use super::seeds::{invalid_fields, not_found, At, NOW};

fn contact(fake: &mut Memory, email: Option<&str>, phone: Option<&str>) -> Contact {
    let input =
        ContactInput { email: email.map(str::to_owned), phone: phone.map(str::to_owned), ..ContactInput::default() };
    contacts::create(fake, &At(NOW), ACCOUNT, input).unwrap()
}

fn list_of(fake: &mut Memory, members: &[&Contact]) -> ContactListId {
    let list = contact_lists::create(fake, &At(NOW), ACCOUNT, " Customers ").unwrap();
    let ids: Vec<_> = members.iter().map(|c| c.id).collect();
    contact_lists::add_members(fake, &At(NOW), ACCOUNT, list.id, &ids).unwrap();
    list.id
}

#[test]
fn members_are_the_accounts_own_contacts_counted_once() {
    let (mut fake, _, _) = Memory::with_sendout(DispatchType::Email);
    let other = crate::AccountId::new(2);
    fake.seed_account(other);
    let anna = contact(&mut fake, Some("anna@example.com"), None);
    let bo = contact(&mut fake, None, Some("+4791234567"));
    let theirs = contacts::create(
        &mut fake,
        &At(NOW),
        other,
        ContactInput { email: Some("x@example.com".into()), ..ContactInput::default() },
    )
    .unwrap();
    let list = contact_lists::create(&mut fake, &At(NOW), ACCOUNT, " Customers ").unwrap();
    assert_eq!(list.name, "Customers");
    assert_eq!(invalid_fields(contact_lists::create(&mut fake, &At(NOW), ACCOUNT, " ")), ["name"]);

    let add = |fake: &mut Memory, ids: &[_]| contact_lists::add_members(fake, &At(NOW), ACCOUNT, list.id, ids);
    assert_eq!(add(&mut fake, &[anna.id, anna.id]).unwrap(), 1, "a repeat counts once");
    assert_eq!(add(&mut fake, &[anna.id, bo.id]).unwrap(), 1, "anna is a member already");
    assert!(not_found(&add(&mut fake, &[theirs.id]), "contact"), "another account's contact");
    assert_eq!(invalid_fields(add(&mut fake, &[])), ["contactIds"]);
    assert!(not_found(&contact_lists::add_members(&mut fake, &At(NOW), other, list.id, &[theirs.id]), "contact list"));
    assert_eq!(contact_lists::list(&mut fake, ACCOUNT).unwrap()[0].member_count, 2);

    let page = PageRequest::new(1, 10, "pageNumber", "pageSize").unwrap();
    contact(&mut fake, Some("outsider@example.com"), None);
    let members = contacts::page(&mut fake, ACCOUNT, None, Some(list.id), page).unwrap();
    assert_eq!(members.items.iter().map(|c| c.id).collect::<Vec<_>>(), [anna.id, bo.id]);
    assert!(not_found(&contacts::page(&mut fake, other, None, Some(list.id), page), "contact list"));

    contact_lists::remove_member(&mut fake, ACCOUNT, list.id, bo.id).unwrap();
    assert!(not_found(&contact_lists::remove_member(&mut fake, ACCOUNT, list.id, bo.id), "contact"));
    contacts::delete(&mut fake, ACCOUNT, anna.id).unwrap();
    assert_eq!(contact_lists::list(&mut fake, ACCOUNT).unwrap()[0].member_count, 0, "a deleted contact leaves");
    assert!(not_found(&contact_lists::delete(&mut fake, other, list.id), "contact list"));
    contact_lists::delete(&mut fake, ACCOUNT, list.id).unwrap();
    assert!(contact_lists::list(&mut fake, ACCOUNT).unwrap().is_empty());
}

#[test]
fn a_list_joins_a_sendout_chunk_by_chunk_with_the_batchs_refusals() {
    let (mut fake, survey, sendout) = Memory::with_sendout(DispatchType::Email);
    fake.seed_label(ACCOUNT, sendout, LabelId::new(900));
    fake.state.labels.last_mut().unwrap().1.name = "region".into();
    let mut anna = ContactInput {
        email: Some("Anna@Example.com".into()),
        language: Some(Language::Sv),
        attributes: BTreeMap::from([("region".to_owned(), "North".to_owned()), ("tier".to_owned(), "gold".to_owned())]),
        ..ContactInput::default()
    };
    let anna = contacts::create(&mut fake, &At(NOW), ACCOUNT, std::mem::take(&mut anna)).unwrap();
    let phone_only = contact(&mut fake, None, Some("+4791234567"));
    let blocked = contact(&mut fake, Some("blocked@example.com"), None);
    let known = contact(&mut fake, Some("known@example.com"), None);
    let cleo = contact(&mut fake, Some("cleo@example.com"), Some("+4791234568"));
    fake.seed_blocked(ACCOUNT, "BLOCKED@example.com");
    fake.pending(sendout, "Known@example.com");
    let list = list_of(&mut fake, &[&anna, &phone_only, &blocked, &known, &cleo]);

    let outcome = add_in_chunks(&mut fake, &At(NOW), (ACCOUNT, survey, sendout), list, 2).unwrap();
    assert_eq!(outcome.added, 2);
    let rejected = [
        (phone_only.id, RejectReason::NoContactDetail),
        (blocked.id, RejectReason::Blocklisted),
        (known.id, RejectReason::Duplicate),
    ];
    assert_eq!(outcome.rejected, rejected);
    let added: Vec<_> = fake.state.respondents.iter().filter(|r| r.row.contact_id.is_some()).map(|r| &r.row).collect();
    assert_eq!(
        added.iter().map(|r| r.contact_details.as_str()).collect::<Vec<_>>(),
        ["Anna@Example.com", "cleo@example.com"]
    );
    assert!(added.iter().all(|r| r.status == RespondentStatus::Pending && r.send_mail && r.token.starts_with("1-")));
    assert_eq!((added[0].contact_id, added[0].language), (Some(anna.id), Some(Language::Sv)));
    assert_eq!(added[0].background_data, BTreeMap::from([(LabelId::new(900), "North".to_owned())]), "tier is no label");
    assert_ne!(added[0].token, added[1].token);

    let again = add_in_chunks(&mut fake, &At(NOW), (ACCOUNT, survey, sendout), list, 2).unwrap();
    assert_eq!((again.added, again.rejected.len()), (0, 5), "a second call adds no one twice");
}

#[test]
fn a_link_sendout_or_another_accounts_list_refuses_the_whole_call() {
    let (mut fake, survey, sendout) = Memory::with_sendout(DispatchType::Sms);
    let cleo = contact(&mut fake, Some("cleo@example.com"), Some("+4791234568"));
    let list = list_of(&mut fake, &[&cleo]);
    let link = fake.another_sendout(survey, DispatchType::Link);
    let refused = contact_lists::add_to_sendout(&mut fake, &At(NOW), ACCOUNT, survey, link, list);
    assert!(matches!(refused, Err(DomainError::Conflict { kind: ConflictKind::LinkSendout, .. })));
    let missing = contact_lists::add_to_sendout(&mut fake, &At(NOW), ACCOUNT, survey, sendout, ContactListId::new(999));
    assert!(not_found(&missing, "contact list"));
    let sms = contact_lists::add_to_sendout(&mut fake, &At(NOW), ACCOUNT, survey, sendout, list).unwrap();
    assert_eq!(sms.added, 1);
    assert_eq!(fake.state.respondents[0].row.contact_details, "+4791234568", "an SMS sendout takes the phone");
}
