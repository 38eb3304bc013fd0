//! The backlog monitoring reads: the age of the longest-waiting due message, zero when nothing is due.

use time::Duration;

use crate::ports::OutboxBacklog;
use crate::use_cases::monitoring::{outbox_backlog, Backlog};

use super::fakes::outbox::Outbox;
use super::fakes::{At, NOW};

fn backlog(found: OutboxBacklog) -> Backlog {
    let mut outbox = Outbox::default();
    outbox.state.backlog = found;
    outbox_backlog(&mut outbox, &At(NOW)).unwrap()
}

#[test]
fn the_oldest_due_age_is_how_long_the_earliest_due_message_has_waited() {
    let found = OutboxBacklog { pending: 7, held: 0, oldest_due: Some(NOW - Duration::seconds(90)) };
    assert_eq!(backlog(found), Backlog { pending: 7, held: 0, oldest_due_age: Duration::seconds(90) });
}

#[test]
fn nothing_due_is_an_age_of_zero() {
    let waiting = OutboxBacklog { pending: 3, held: 0, oldest_due: None };
    assert_eq!(backlog(waiting), Backlog { pending: 3, held: 0, oldest_due_age: Duration::ZERO });
    let clock_behind = OutboxBacklog { pending: 1, held: 0, oldest_due: Some(NOW + Duration::seconds(5)) };
    assert_eq!(backlog(clock_behind).oldest_due_age, Duration::ZERO, "never negative");
}
