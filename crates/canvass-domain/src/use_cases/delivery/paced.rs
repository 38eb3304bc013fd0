//! Delivery under the shared pace: rounds claimed one after another with the slots the pace grants, the pace
//! halved when the relay asks to slow down, and a claimed round put back unsent when it must not go out.

use time::{Duration, OffsetDateTime};

use super::{claim, record, send, Claimed, DeliveryLender, DeliveryReport, Round, Sent};
use crate::clock::Clock;
use crate::delivery::{HoldKind, Outcome, Pace, PaceGrant, PaceLimits, Settled, SettledAlert, Transports};
use crate::error::DomainError;
use crate::ports::{transaction, PaceRepository, Transactional};

/// A claimed round that is not sent: every message held without an attempt counted, due again at once.
pub(super) fn put_back(claimed: Claimed, reason: &str) -> Sent {
    let hold = crate::delivery::Hold::new(HoldKind::Throttled, reason);
    let held = Outcome::Held(claimed.at, hold);
    let settled: Vec<Settled> =
        claimed.messages.into_iter().map(|message| Settled { message, outcome: held.clone() }).collect();
    let alerts: Vec<SettledAlert> =
        claimed.alerts.into_iter().map(|alert| SettledAlert { alert, outcome: held.clone() }).collect();
    let mut report = DeliveryReport::default();
    for done in &settled {
        report.count(done.message.channel, &done.outcome);
    }
    for done in &alerts {
        report.count(crate::distribution::DispatchType::Email, &done.outcome);
    }
    Sent { at: claimed.at, report, settled, alerts, throttled: false }
}

/// The messages a second this worker handed over since `started`.
pub(super) fn measured(total: &DeliveryReport, started: OffsetDateTime, now: OffsetDateTime) -> f64 {
    total.claimed as f64 / (now - started).as_seconds_f64().max(1.0)
}

/// Rounds one after another under the shared pace: each claims what the pace grants, is sent and recorded before
/// the next is claimed (so that no more messages are on the network than the pace let out), and when the pace has
/// no slot the worker waits for the next one. It stops when a round finds fewer messages than it was granted (no
/// more are due), when the day's limit is reached, or when `stop` answers true.
pub(super) fn paced_rounds<L: DeliveryLender + ?Sized>(
    store: &L,
    transports: Transports<'_>,
    clock: &dyn Clock,
    round: &Round,
    stop: &dyn Fn() -> bool,
    observe: &dyn Fn(&DeliveryReport),
    first: Claimed,
) -> Result<DeliveryReport, DomainError> {
    let started = clock.now();
    let mut total = DeliveryReport::default();
    let mut claimed = first;
    loop {
        let grant = claimed.paced.unwrap_or(PaceGrant { slots: round.limit, wait: None });
        let found_all = claimed.len() as i64 >= grant.slots;
        if claimed.len() == 0 {
            total.reminders_enqueued += claimed.reminders_enqueued;
        } else {
            let sent = send(transports, claimed, round);
            observe(&sent.report);
            total.add(&sent.report);
            record(store, &sent, round.lease)?;
            if sent.throttled {
                slow_down(store, clock.now(), measured(&total, started, clock.now()), &round.pace)?;
            }
        }
        match grant.wait {
            _ if stop() || !found_all => break,
            Some(wait) if wait > PACE_WAIT_MOST => break,
            Some(wait) => std::thread::sleep(std::time::Duration::try_from(wait).unwrap_or_default()),
            None => {}
        }
        claimed = claim(store, clock.now(), round)?;
    }
    Ok(total)
}

/// The longest a paced worker sleeps for its next slot before it hands back to its caller's poll (a day's limit
/// reached waits for the next day there).
pub const PACE_WAIT_MOST: Duration = Duration::seconds(5);

/// The relay asked to slow down: halves the shared pace, in a transaction of its own.
pub(super) fn slow_down<L: DeliveryLender + ?Sized>(
    store: &L,
    now: OffsetDateTime,
    measured: f64,
    limits: &PaceLimits,
) -> Result<(), DomainError> {
    store.step(|uow| {
        transaction(uow, |tx| {
            let mut pace = tx.pace(true)?.unwrap_or_else(|| Pace::new(now, limits));
            pace.throttle(now, measured, limits);
            Ok(tx.save_pace(&pace)?)
        })
    })
}

/// Takes the round's slots from the shared pace: `None` when neither a limit nor a throttle's ceiling applies
/// (the round takes its whole limit, and the pace is only read), else what the pace granted; beside it the pace in
/// messages a second (infinite for none).
pub(super) fn take_slots(
    uow: &mut (impl PaceRepository + Transactional + ?Sized),
    now: OffsetDateTime,
    round: &Round,
) -> Result<(Option<PaceGrant>, f64), DomainError> {
    let unpaced = |pace: &Option<Pace>| !round.pace.is_limited() && pace.is_none_or(|pace| pace.ceiling.is_none());
    if unpaced(&uow.pace(false)?) {
        return Ok((None, f64::INFINITY));
    }
    transaction(uow, |tx| {
        let mut pace = tx.pace(true)?.unwrap_or_else(|| Pace::new(now, &round.pace));
        let grant = pace.take(now, round.limit, &round.pace);
        tx.save_pace(&pace)?;
        Ok((Some(grant), pace.per_second(&round.pace).unwrap_or(f64::INFINITY)))
    })
}

/// Gives back the slots a round was granted and did not use.
pub(super) fn give_back(
    uow: &mut (impl PaceRepository + Transactional + ?Sized),
    now: OffsetDateTime,
    unused: i64,
    limits: &PaceLimits,
) -> Result<(), DomainError> {
    if unused <= 0 {
        return Ok(());
    }
    transaction(uow, |tx| {
        let mut pace = tx.pace(true)?.unwrap_or_else(|| Pace::new(now, limits));
        pace.give_back(unused, limits);
        Ok(tx.save_pace(&pace)?)
    })
}
