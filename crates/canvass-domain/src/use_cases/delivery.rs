//! The delivery worker's work: turn due reminders into messages, claim due messages, send them, record what
//! happened. A round takes a unit of work to claim and another to record, and holds none while its messages are
//! on the network. [`deliver_all_due`] runs rounds back to back and records one round and claims the next while
//! the current one is sent. A crash between sending and recording leaves the lease to expire, and the message is
//! sent again with the same Message-ID and idempotency key.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};

use time::{Duration, OffsetDateTime};

use crate::clock::Clock;
use crate::delivery::{
    Accepted, ClaimedAlert, ClaimedMessage, HoldKind, LinkBase, Outcome, OutgoingMessage, PaceGrant, PaceLimits,
    RetryPolicy, SendError, Settled, SettledAlert, Transports,
};
use crate::distribution::{DispatchType, RespondentStatus};
use crate::error::{DomainError, RepoError};
use crate::ids::{AccountId, SurveyId};
use crate::limits::{truncated, REASON};
use crate::ports::{
    transaction, OutboxRepository, PaceRepository, Store, StoreExt, SurveyRepository, Transactional, UnitOfWork,
    WebhookEvents,
};
use crate::webhook::{EventSubject, WebhookEvent};

mod paced;
mod report;

pub use paced::PACE_WAIT_MOST;
use paced::{give_back, measured, paced_rounds, put_back, slow_down, take_slots};
pub use report::{ChannelCounts, DeliveryReport};

/// How long a claimed message is reserved for the worker that claimed it, unless the worker says otherwise.
pub const LEASE: Duration = Duration::minutes(5);

/// The ports a delivery round uses: the outbox, the shared pace, the question trees TWOWAY conversations start
/// with, and the webhook events its outcomes write.
pub trait DeliveryPorts: OutboxRepository + PaceRepository + SurveyRepository + Transactional + WebhookEvents {}

impl<T: OutboxRepository + PaceRepository + SurveyRepository + Transactional + WebhookEvents + ?Sized> DeliveryPorts
    for T
{
}

/// Lends units of work with the delivery ports one step at a time, so that a round holds no connection while its
/// messages are on the network. Every [`Store`] is one, the in-memory store of the tests included.
pub trait DeliveryLender: Sync {
    /// What is lent.
    type Unit<'u>: DeliveryPorts + ?Sized + 'u;
    /// Runs one step on a unit of work lent for its length and returns what it returns.
    fn step<T>(&self, work: impl FnOnce(&mut Self::Unit<'_>) -> Result<T, DomainError>) -> Result<T, DomainError>;
}

impl<S: Store + ?Sized> DeliveryLender for S {
    type Unit<'u> = dyn UnitOfWork + 'u;

    fn step<T>(
        &self,
        work: impl FnOnce(&mut (dyn UnitOfWork + '_)) -> Result<T, DomainError>,
    ) -> Result<T, DomainError> {
        self.with_uow(work)
    }
}

/// The shape of a round: how many messages it claims, how long it leases them, where their links point.
#[derive(Debug, Clone, PartialEq)]
pub struct Round {
    /// Messages claimed at most.
    pub limit: i64,
    /// How long they stay reserved for this worker.
    pub lease: Duration,
    /// Where links point, and the Message-IDs' domain.
    pub links: LinkBase,
    /// How long a failing message is retried, and how far apart.
    pub retry: RetryPolicy,
    /// The pace shared with every worker on the database.
    pub pace: PaceLimits,
    /// The sender of alert emails.
    pub alert_sender: String,
}

impl Round {
    /// A round of `limit` messages leased for `lease`, links under `links`, the default retry policy and no pace.
    /// Alert emails go from `alerts@` the links' host (`alerts@localhost` when it is an IP address).
    pub fn new(limit: i64, lease: Duration, links: LinkBase) -> Self {
        let host = &links.message_domain;
        let named = host.contains(|c: char| c.is_ascii_alphabetic()) && !host.starts_with('[');
        let alert_sender = format!("alerts@{}", if named { host } else { "localhost" });
        Self {
            limit,
            lease,
            links,
            retry: RetryPolicy::default(),
            pace: PaceLimits { rate: None, burst: limit, daily: None },
            alert_sender,
        }
    }
}

/// The first question of each TWOWAY survey met in a round, read once per survey and language.
/// Keyed by survey and language, and by respondent too where the survey's logic reads background data or its
/// texts pipe.
type FirstQuestions =
    HashMap<(AccountId, SurveyId, crate::language::Language, Option<crate::ids::RespondentId>), Option<String>>;

/// A claimed round: the due reminders enqueued, the messages and alert emails claimed at `at`, the TWOWAY first
/// questions.
struct Claimed {
    at: OffsetDateTime,
    reminders_enqueued: u64,
    messages: Vec<ClaimedMessage>,
    alerts: Vec<ClaimedAlert>,
    questions: FirstQuestions,
    /// What the shared pace granted, when it limited the round.
    paced: Option<PaceGrant>,
    /// The pace it was claimed under, in messages a second (infinite for none).
    per_second: f64,
}

impl Claimed {
    /// How many messages and alert emails it holds.
    fn len(&self) -> usize {
        self.messages.len() + self.alerts.len()
    }
}

/// A sent round: what it did, and each message's and alert email's outcome to record as of the instant it was
/// claimed.
struct Sent {
    at: OffsetDateTime,
    report: DeliveryReport,
    settled: Vec<Settled>,
    alerts: Vec<SettledAlert>,
    /// Whether the relay asked to slow down (`421`, `454`, an SMS 429 or 503).
    throttled: bool,
}

/// Runs one round at `now`: enqueues due reminders, claims up to `round.limit` due messages under a lease, sends
/// them on their channels' transports (which may send several at once), and records every outcome together in
/// one transaction. EMAIL, SMS and TWOWAY messages are claimed; TWOWAY conversations start with their
/// invitation followed by the first question.
pub fn deliver_due<L: DeliveryLender + ?Sized>(
    store: &L,
    transports: Transports<'_>,
    now: OffsetDateTime,
    round: &Round,
) -> Result<DeliveryReport, DomainError> {
    let sent = send(transports, claim(store, now, round)?, round);
    record(store, &sent, round.lease)?;
    if sent.throttled {
        slow_down(store, now, sent.report.claimed as f64, &round.pace)?;
    }
    Ok(sent.report)
}

/// Runs rounds back to back, as [`deliver_due`] does one, for as long as they come back full, and returns what
/// they did together. While a round's messages are on the network, a second thread records the previous round's
/// outcomes and claims the next round, so the transports never wait for the database. A round that waited for
/// more than half its lease is not sent (its messages wait for their lease to run out) and a fresh one is claimed
/// once what was sent is recorded, so that a lease does not run out while its message is sent as long as a round
/// takes less than half a lease. Whatever fails, what was sent is recorded before this returns (while the store is
/// unavailable a round's record is tried again for up to half a lease, and a round whose recording failed is tried
/// once more at the end), so a worker repeats messages only when it is killed, or the database stays away longer:
/// at most two rounds, the one sent but not recorded and the one in flight.
///
/// Once `stop` answers true no further round is claimed: the round on the network, and one claimed beside it
/// (unless it waited more than half its lease, as above), are still sent and recorded before this returns, so a
/// worker that is asked to stop finishes its round and leaves nothing in flight.
pub fn deliver_all_due<L: DeliveryLender + ?Sized>(
    store: &L,
    transports: Transports<'_>,
    clock: &dyn Clock,
    round: &Round,
    stop: &dyn Fn() -> bool,
) -> Result<DeliveryReport, DomainError> {
    deliver_all_due_observed(store, transports, clock, round, stop, &|_| {})
}

/// [`deliver_all_due`], handing each round's report to `observe` as soon as the round has been sent (before it is
/// recorded), so that a long run of full rounds shows its progress (the worker's metrics) while it goes on, and
/// what was sent is seen even when recording, or the run, fails afterwards.
pub fn deliver_all_due_observed<L: DeliveryLender + ?Sized>(
    store: &L,
    transports: Transports<'_>,
    clock: &dyn Clock,
    round: &Round,
    stop: &dyn Fn() -> bool,
    observe: &dyn Fn(&DeliveryReport),
) -> Result<DeliveryReport, DomainError> {
    let first = claim(store, clock.now(), round)?;
    if first.paced.is_some() {
        return paced_rounds(store, transports, clock, round, stop, observe, first);
    }
    let started = clock.now();
    let mut total = DeliveryReport::default();
    let mut unrecorded: Vec<Sent> = Vec::new();
    let mut next = Some(first);
    let stopped = loop {
        let Some(current) = next.take() else { break Ok(()) };
        if current.len() == 0 {
            total.reminders_enqueued += current.reminders_enqueued;
            break Ok(());
        }
        let claim_next = current.len() as i64 >= round.limit && !stop();
        let previous = std::mem::take(&mut unrecorded);
        let (sent, (kept, claimed)) = std::thread::scope(|scope| {
            let database = scope.spawn(move || match record_all(store, &previous, round.lease) {
                Ok(()) => (Vec::new(), claim_next.then(|| claim(store, clock.now(), round)).transpose()),
                Err(error) => (previous, Err(error)),
            });
            let sent = send(transports, current, round);
            (sent, database.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
        });
        observe(&sent.report);
        total.add(&sent.report);
        unrecorded = kept;
        let throttled = sent.throttled;
        unrecorded.push(sent);
        next = match claimed {
            Ok(claimed) => claimed,
            Err(error) => break Err(error),
        };
        if throttled {
            // The relay asks to slow down: the pace halves, the round claimed beside this one goes back unsent
            // (held, no attempt counted), and the next claim is paced. Both are recorded below.
            unrecorded.extend(next.take().map(|claimed| put_back(claimed, "waiting for the relay's pace")));
            break slow_down(store, clock.now(), measured(&total, started, clock.now()), &round.pace);
        }
        if next.as_ref().is_some_and(|claimed| clock.now() - claimed.at > round.lease / 2) {
            // The last round took so long to send that this one's lease could run out while it is sent, and
            // another worker send it too: it is left to its lease; what was sent is recorded, and a fresh round
            // claimed.
            let sent = std::mem::take(&mut unrecorded);
            if let Err(error) = record_all(store, &sent, round.lease) {
                unrecorded = sent;
                break Err(error);
            }
            if stop() {
                break Ok(());
            }
            next = match claim(store, clock.now(), round) {
                Ok(claimed) => Some(claimed),
                Err(error) => break Err(error),
            };
        }
    };
    record_all(store, &unrecorded, round.lease).and(stopped).map(|()| total)
}

/// Records rounds, each in its own transaction; tries every one and answers the first failure.
fn record_all<L: DeliveryLender + ?Sized>(store: &L, rounds: &[Sent], lease: Duration) -> Result<(), DomainError> {
    let mut first_failure = Ok(());
    for sent in rounds {
        let recorded = record(store, sent, lease);
        if first_failure.is_ok() {
            first_failure = recorded;
        }
    }
    first_failure
}

/// Enqueues due reminders and claims a round, with one unit of work that goes back before anything is sent.
/// Alert emails and messages share the round's limit: alert emails take up to half of it first, messages what
/// is left, and alert emails what messages leave, so that neither kind holds the other back.
fn claim<L: DeliveryLender + ?Sized>(store: &L, now: OffsetDateTime, round: &Round) -> Result<Claimed, DomainError> {
    store.step(|uow| {
        let reminders_enqueued = transaction(uow, |tx| Ok(tx.enqueue_due_reminders(now)?))?;
        let (paced, per_second) = take_slots(uow, now, round)?;
        let limit = paced.map_or(round.limit, |grant| grant.slots);
        let lease_until = now + round.lease;
        let claim_alerts = |uow: &mut L::Unit<'_>, limit: i64| match limit {
            0 => Ok(Vec::new()),
            _ => transaction(uow, |tx| Ok(tx.claim_due_alerts(now, lease_until, limit)?)),
        };
        let mut alerts = claim_alerts(uow, (limit + 1) / 2)?;
        let messages = match limit - alerts.len() as i64 {
            0 => Vec::new(),
            left => transaction(uow, |tx| Ok(tx.claim_due(now, lease_until, left)?))?,
        };
        if alerts.len() as i64 == (limit + 1) / 2 {
            alerts.extend(claim_alerts(uow, limit - (alerts.len() + messages.len()) as i64)?);
        }
        if paced.is_some() {
            give_back(uow, now, limit - (alerts.len() + messages.len()) as i64, &round.pace)?;
        }
        let questions = first_questions(uow, &messages)?;
        Ok(Claimed { at: now, reminders_enqueued, messages, alerts, questions, paced, per_second })
    })
}

/// Sends a claimed round.
fn send(transports: Transports<'_>, claimed: Claimed, round: &Round) -> Sent {
    let mut report = DeliveryReport {
        reminders_enqueued: claimed.reminders_enqueued,
        claimed: claimed.len(),
        pace_per_second: Some(claimed.per_second),
        ..Default::default()
    };
    let at = claimed.at;
    let (settled, alerts) = send_round(transports, claimed, round);
    let email_outcomes = || {
        let messages = settled.iter().filter(|done| done.message.channel == DispatchType::Email);
        messages.map(|done| &done.outcome).chain(alerts.iter().map(|done| &done.outcome))
    };
    for done in &settled {
        report.count(done.message.channel, &done.outcome);
    }
    for done in &alerts {
        report.count(DispatchType::Email, &done.outcome);
    }
    let held = |outcome: &Outcome| matches!(outcome, Outcome::Held(_, hold) if hold.kind == HoldKind::Throttled);
    let throttled = settled.iter().any(|done| held(&done.outcome)) || alerts.iter().any(|done| held(&done.outcome));
    report.relay_up = relay_up(email_outcomes());
    Sent { at, report, settled, alerts, throttled }
}

/// Whether the mail relay took a session in this round, from its emails' outcomes: no when an email was held
/// because the relay could not be reached or refused the session, yes when one reached the recipient stage or
/// beyond; `None` when no email went.
fn relay_up<'a>(emails: impl Iterator<Item = &'a Outcome>) -> Option<bool> {
    emails.fold(None, |up, outcome| match outcome {
        Outcome::Held(_, hold) if hold.kind == HoldKind::Relay => Some(false),
        Outcome::Sent(_) | Outcome::Bounced(_) | Outcome::DueAgain(..) | Outcome::Failed(_) => up.or(Some(true)),
        _ => up,
    })
}

/// The first pause before a round's record is tried again while the store is unavailable; it doubles up to
/// [`RECORD_RETRY_MAX_PAUSE`].
pub const RECORD_RETRY_FIRST_PAUSE: std::time::Duration = std::time::Duration::from_millis(100);
/// The longest pause between two tries of a round's record.
pub const RECORD_RETRY_MAX_PAUSE: std::time::Duration = std::time::Duration::from_secs(2);

/// Records a round's outcomes in one transaction. Its messages have been handed over, so a store that is
/// unavailable (a database restarting, a connection lost) does not lose the record: it is tried again with backoff
/// ([`RECORD_RETRY_FIRST_PAUSE`], doubling up to [`RECORD_RETRY_MAX_PAUSE`]) for up to half the lease, which
/// leaves the other half for the record to land while the messages are still leased to this worker. Only when the
/// store stays away longer are they sent again, by whichever worker claims them after their lease. Any other
/// failure is answered at once.
fn record<L: DeliveryLender + ?Sized>(store: &L, sent: &Sent, lease: Duration) -> Result<(), DomainError> {
    if sent.settled.is_empty() && sent.alerts.is_empty() {
        return Ok(());
    }
    let patience = std::time::Duration::try_from(lease / 2).unwrap_or_default();
    let started = std::time::Instant::now();
    let mut pause = RECORD_RETRY_FIRST_PAUSE;
    loop {
        let recorded = store.step(|uow| {
            transaction(uow, |tx| {
                record_outcomes(tx, &sent.settled, sent.at)?;
                Ok(tx.record_alert_round(&sent.alerts, sent.at).map(drop)?)
            })
        });
        match recorded {
            Err(DomainError::Repo(RepoError::Unavailable(_))) if started.elapsed() + pause <= patience => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(RECORD_RETRY_MAX_PAUSE);
            }
            recorded => return recorded,
        }
    }
}

/// Records outcomes with [`OutboxRepository::record_round`] and writes their webhook events beside them, in the
/// caller's transaction: `respondent.sent` for each invitation handed over, `respondent.bounced` for each bounce
/// (one statement per kind, whatever the number of messages). Only the messages the store recorded (still held
/// under their lease) have events; returns how many were recorded.
pub(crate) fn record_outcomes(
    tx: &mut (impl OutboxRepository + WebhookEvents + ?Sized),
    settled: &[Settled],
    now: OffsetDateTime,
) -> Result<usize, DomainError> {
    let round = tx.record_round(settled, now)?;
    let recorded: HashSet<i64> = round.ids.iter().copied().collect();
    let subject =
        |m: &ClaimedMessage| EventSubject::respondent(m.account_id, m.survey_id, m.sendout_id, m.respondent_id);
    let events = |wanted: fn(&Settled) -> bool| -> Vec<EventSubject> {
        let held = settled.iter().filter(|done| recorded.contains(&done.message.id));
        held.filter(|done| wanted(done)).map(|done| subject(&done.message)).collect()
    };
    let sent = events(|done| matches!(done.outcome, Outcome::Sent(_)) && done.message.is_invitation());
    let bounced = events(|done| matches!(done.outcome, Outcome::Bounced(_)));
    super::webhooks::emit(tx, WebhookEvent::RespondentSent, &sent, now)?;
    super::webhooks::emit(tx, WebhookEvent::RespondentBounced, &bounced, now)?;
    let held: Vec<EventSubject> = round
        .holds_started
        .iter()
        .map(|hold| EventSubject::held_sendout(hold.account_id, hold.survey_id, hold.sendout_id, hold.kind))
        .collect();
    super::webhooks::emit(tx, WebhookEvent::SendoutDeliveryHeld, &held, now)?;
    Ok(recorded.len())
}

/// The first question of every TWOWAY survey whose conversation starts in this round, in each language one starts in.
fn first_questions(
    uow: &mut (impl SurveyRepository + ?Sized),
    claimed: &[ClaimedMessage],
) -> Result<FirstQuestions, DomainError> {
    let mut questions = FirstQuestions::new();
    let mut trees = HashMap::new();
    for message in claimed.iter().filter(|m| m.channel == DispatchType::TwoWay && m.is_invitation()) {
        let (account, survey) = (message.account_id, message.survey_id);
        let tree = match trees.entry((account, survey)) {
            Entry::Occupied(read) => read.into_mut(),
            Entry::Vacant(unread) => unread.insert(uow.question_tree(account, survey)?),
        };
        let respondent = (tree.names_background() || tree.pipes()).then_some(message.respondent_id);
        if let Entry::Vacant(unread) = questions.entry((account, survey, message.language, respondent)) {
            let voice = super::twoway::Voice::of(uow, account, survey, message.language)?;
            unread.insert(super::twoway::first_question(tree, &voice, &message.personal));
        }
    }
    Ok(questions)
}

/// Decides what is not sent at all, sends the rest (alert emails with the emails), and pairs every message and
/// alert email with its outcome.
fn send_round(transports: Transports<'_>, claimed: Claimed, round: &Round) -> (Vec<Settled>, Vec<SettledAlert>) {
    let now = claimed.at;
    let mut settled = Vec::with_capacity(claimed.messages.len());
    let mut to_send = Vec::with_capacity(claimed.messages.len());
    for message in claimed.messages {
        match held_back(&message, now) {
            Some(status) => settled.push(Settled { message, outcome: Outcome::Cancelled(status) }),
            None => to_send.push(message),
        }
    }
    let mut outgoing: Vec<(DispatchType, OutgoingMessage)> =
        to_send.iter().map(|message| (message.channel, outgoing(message, &claimed.questions, &round.links))).collect();
    let alert_mail = claimed.alerts.iter().map(|alert| alert.render(&round.links, &round.alert_sender));
    outgoing.extend(alert_mail.map(|mail| (DispatchType::Email, mail)));
    let mut results = transports.send_all(outgoing).into_iter();
    settled.extend(to_send.into_iter().zip(results.by_ref()).map(|(message, result)| {
        let outcome = outcome((message.attempts, message.aged, message.holds), result, now, &round.retry);
        Settled { message, outcome }
    }));
    let alerts = claimed.alerts.into_iter().zip(results).map(|(alert, result)| {
        let outcome = outcome((alert.attempts, alert.aged, alert.holds), result, now, &round.retry);
        SettledAlert { alert, outcome }
    });
    (settled, alerts.collect())
}

/// Why a message is not sent: its contact is blocklisted, or its survey link has expired.
fn held_back(message: &ClaimedMessage, now: OffsetDateTime) -> Option<RespondentStatus> {
    if message.blocklisted {
        Some(RespondentStatus::Blocklisted)
    } else if message.expiry_date.is_some_and(|expiry| expiry <= now) {
        Some(RespondentStatus::Expired)
    } else {
        None
    }
}

/// The message as it goes out; a TWOWAY conversation starts with the invitation's text and the first question.
fn outgoing(message: &ClaimedMessage, questions: &FirstQuestions, links: &LinkBase) -> OutgoingMessage {
    let mut outgoing = message.render(links);
    if message.channel == DispatchType::TwoWay && message.is_invitation() {
        let key = |respondent| (message.account_id, message.survey_id, message.language, respondent);
        let question = questions.get(&key(Some(message.respondent_id))).or_else(|| questions.get(&key(None)));
        if let Some(Some(question)) = question {
            outgoing.body = format!("{}\n\n{question}", outgoing.body);
        }
    }
    outgoing
}

/// What a transport's answer makes of a message tried `attempts` times (this one included), with `aged` of its
/// lifetime used and held `holds` times before: a transient failure waits for its next try until its lifetime
/// ([`RetryPolicy`]) is used up, and relay or sender trouble holds it without using any.
fn outcome(
    (attempts, aged, holds): (i32, Duration, i32),
    result: Result<Accepted, SendError>,
    now: OffsetDateTime,
    retry: &RetryPolicy,
) -> Outcome {
    match result {
        Ok(Accepted(reply)) => Outcome::Sent(Accepted(truncated(reply, REASON))),
        Err(SendError::Permanent(reason)) => Outcome::Bounced(truncated(reason, REASON)),
        Err(SendError::Unsendable(error)) => Outcome::Failed(truncated(error, REASON)),
        Err(SendError::Transient(error)) => match retry.next_try(attempts, aged) {
            Some(wait) => Outcome::DueAgain(now + wait, truncated(error, REASON)),
            None => Outcome::Failed(truncated(error, REASON)),
        },
        Err(SendError::Held(hold)) => {
            let at = hold.due_again(holds, now);
            Outcome::Held(at, crate::delivery::Hold { reason: truncated(hold.reason, REASON), ..hold })
        }
    }
}
