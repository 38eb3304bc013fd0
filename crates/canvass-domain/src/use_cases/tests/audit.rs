//! The audit log: pages newest first with a cursor, filters, bad paging refused, and the purge by age.

use time::Duration;

use crate::account::KeyPrefix;
use crate::audit::{Actor, AuditCursor, AuditFilter, NewAuditEvent, Target};
use crate::ids::{AccountId, UserId};
use crate::use_cases::audit::{page, purge, record};

use super::seeds::{invalid_fields, NOW};
use crate::testing::Memory;

fn event(minutes: i64, user: i64, action: &str) -> NewAuditEvent {
    NewAuditEvent {
        at: NOW + Duration::minutes(minutes),
        actor: Actor { user_id: UserId::new(user), key: KeyPrefix::parse("cvs_0123456789ab").unwrap() },
        action: action.into(),
        target: Target { kind: "survey".into(), id: Some(minutes.to_string()) },
        client_address: Some("192.0.2.7".into()),
        request_id: Some(format!("r{minutes}")),
        status: 201,
    }
}

#[test]
fn pages_run_newest_first_until_the_cursor_ends() {
    let mut memory = Memory::default();
    let (acme, other) = (AccountId::new(1), AccountId::new(2));
    for minute in 0..5 {
        record(&mut memory, acme, &event(minute, 1, "survey.create")).unwrap();
    }
    record(&mut memory, other, &event(9, 1, "survey.create")).unwrap();

    let first = page(&mut memory, acme, AuditFilter::default(), None, 2).unwrap();
    let minutes = |page: &crate::audit::AuditPage| {
        page.events.iter().map(|e| e.event.target.id.clone().unwrap()).collect::<Vec<_>>()
    };
    assert_eq!(minutes(&first), ["4", "3"]);
    let second = page(&mut memory, acme, AuditFilter::default(), first.next, 2).unwrap();
    assert_eq!(minutes(&second), ["2", "1"]);
    let last = page(&mut memory, acme, AuditFilter::default(), second.next, 2).unwrap();
    assert_eq!((minutes(&last), last.next), (vec!["0".to_owned()], None));
    let exact = page(&mut memory, acme, AuditFilter::default(), None, 5).unwrap();
    assert_eq!((exact.events.len(), exact.next), (5, None), "no empty page after the last");
}

#[test]
fn filters_narrow_by_time_actor_and_action_and_bad_ones_name_their_field() {
    let mut memory = Memory::default();
    let acme = AccountId::new(1);
    record(&mut memory, acme, &event(0, 1, "survey.create")).unwrap();
    record(&mut memory, acme, &event(10, 2, "survey.create")).unwrap();
    record(&mut memory, acme, &event(20, 2, "key.revoke")).unwrap();
    let read = |memory: &mut Memory, filter: AuditFilter| page(memory, acme, filter, None, 100).unwrap().events.len();

    assert_eq!(read(&mut memory, AuditFilter { actor: Some(UserId::new(2)), ..AuditFilter::default() }), 2);
    assert_eq!(read(&mut memory, AuditFilter { action: Some("key.revoke".into()), ..AuditFilter::default() }), 1);
    let window = AuditFilter {
        from: Some(NOW + Duration::minutes(5)),
        to: Some(NOW + Duration::minutes(20)),
        ..AuditFilter::default()
    };
    assert_eq!(read(&mut memory, window), 1, "from is inclusive, to exclusive");

    assert_eq!(invalid_fields(page(&mut memory, acme, AuditFilter::default(), None, 0)), ["pageSize"]);
    assert_eq!(invalid_fields(page(&mut memory, acme, AuditFilter::default(), None, 1001)), ["pageSize"]);
    let backwards =
        AuditFilter { from: Some(NOW), to: Some(NOW), action: Some(String::new()), ..AuditFilter::default() };
    assert_eq!(invalid_fields(page(&mut memory, acme, backwards, None, 10)), ["to", "action"]);
    assert!(AuditCursor::parse("-3").is_none());
}

#[test]
fn the_purge_removes_what_is_older_than_the_retention_in_every_account() {
    let mut memory = Memory::default();
    record(&mut memory, AccountId::new(1), &event(0, 1, "survey.create")).unwrap();
    record(&mut memory, AccountId::new(2), &event(0, 1, "survey.create")).unwrap();
    record(&mut memory, AccountId::new(2), &event(60 * 24 * 10, 1, "survey.create")).unwrap();
    assert_eq!(purge(&mut memory, NOW + Duration::days(405), 400).unwrap(), 2);
    assert_eq!(memory.state.audit.len(), 1);
}
