//! The backlog monitoring reads: the age of the longest-waiting due message, zero when nothing is due.

use time::Duration;

use crate::distribution::DispatchType;
use crate::testing::Memory;
use crate::use_cases::monitoring::{outbox_backlog, Backlog};

use super::seeds::outbox::due;
use super::seeds::{At, NOW};

/// An outbox of messages due at these offsets from [`NOW`]; the first held by sender trouble when `held`.
fn outbox(due_in: &[Duration], held: bool) -> Memory {
    let mut memory = Memory::default();
    for (id, offset) in (1..).zip(due_in) {
        memory.seed_message(due(id, DispatchType::Email, &format!("p{id}@example.com")));
        memory.state.outbox[usize::try_from(id - 1).unwrap_or(0)].due_at = NOW + *offset;
    }
    if held {
        memory.state.outbox[0].hold_kind = Some(crate::delivery::HoldKind::Sender);
    }
    memory
}

#[test]
fn the_oldest_due_age_is_how_long_the_earliest_due_message_has_waited() {
    let waited = [-90, -10, -30, 0, 60].map(Duration::seconds);
    let found = outbox_backlog(&mut outbox(&waited, true), &At(NOW)).unwrap();
    assert_eq!(found, Backlog { pending: 5, held: 1, oldest_due_age: Duration::seconds(90) });
}

#[test]
fn nothing_due_is_an_age_of_zero() {
    let later = [Duration::seconds(5), Duration::hours(1)];
    let found = outbox_backlog(&mut outbox(&later, false), &At(NOW)).unwrap();
    assert_eq!(found, Backlog { pending: 2, held: 0, oldest_due_age: Duration::ZERO });
}

#[test]
fn a_deactivated_sendouts_messages_wait_outside_the_backlog() {
    let mut memory = outbox(&[Duration::seconds(-90)], false);
    memory.state.sendouts[0].1.status = crate::distribution::SendoutStatus::Inactive;
    let found = outbox_backlog(&mut memory, &At(NOW)).unwrap();
    assert_eq!(found, Backlog { pending: 0, held: 0, oldest_due_age: Duration::ZERO });
}
