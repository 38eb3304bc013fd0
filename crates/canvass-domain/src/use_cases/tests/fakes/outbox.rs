//! A fake of the delivery ports (the outbox, and the surveys TWOWAY conversations start from), lent one step at a
//! time like a store, and transports that record what they were given.

use std::sync::Mutex;

use time::OffsetDateTime;

use super::Snapshots;
use crate::delivery::{
    ClaimedMessage, Hold, HoldKind, Mailer, Outcome, OutgoingMessage, Pace, SendError, Settled, SmsSender,
};
use crate::distribution::{DispatchType, TokenContext};
use crate::error::DomainError;
use crate::ids::{AccountId, RespondentId, SendoutId, SurveyId};
use crate::ports::{
    HoldStarted, OutboxBacklog, OutboxRepository, PaceRepository, RecordedRound, RepoResult, SentLookup,
};
use crate::testing::{HoldsSurveys, Surveys};
use crate::use_cases::delivery::DeliveryLender;

/// What the fake holds; cloned for each transaction.
#[derive(Debug, Clone, Default)]
pub struct State {
    /// Every message of the outbox, claimed or not.
    pub messages: Vec<ClaimedMessage>,
    /// Reminders that come due, enqueued by the next round.
    pub reminders_due: u64,
    /// The rounds recorded, each as it was handed over.
    pub recorded: Vec<Vec<Settled>>,
    /// Messages whose lease ran out before their round was recorded: `record_round` leaves them out.
    pub lost_leases: Vec<i64>,
    /// The surveys TWOWAY conversations start from.
    pub surveys: Surveys,
    /// What `backlog` answers.
    pub backlog: OutboxBacklog,
    /// The webhook events written.
    pub webhook_events: super::WebhookEvents,
    /// The shared pace.
    pub pace: Option<Pace>,
    /// The sendouts held now (a message of theirs was held, and none sent since).
    pub held_sendouts: Vec<SendoutId>,
}

/// The outbox fake: its state and its transactions.
#[derive(Debug, Default)]
pub struct Outbox {
    pub state: State,
    pub transactions: Snapshots<State>,
    /// How many more times `record_round` fails as a store that cannot be reached does (kept outside `state`, so
    /// a rolled-back transaction does not give it back), and with what.
    pub failing_records: (u32, Option<fn() -> crate::RepoError>),
}

/// Lends the outbox one step at a time, as a store lends a unit of work.
#[derive(Debug, Default)]
pub struct Lent(pub Mutex<Outbox>);

impl Lent {
    /// What the outbox holds now.
    pub fn state(&self) -> State {
        self.0.lock().map(|outbox| outbox.state.clone()).unwrap_or_default()
    }
}

impl DeliveryLender for Lent {
    type Unit<'u> = Outbox;

    fn step<T>(&self, work: impl FnOnce(&mut Outbox) -> Result<T, DomainError>) -> Result<T, DomainError> {
        let mut outbox = self.0.lock().map_err(|_| DomainError::Repo(crate::RepoError::Other("poisoned".into())))?;
        work(&mut outbox)
    }
}

/// A message due now for `recipient` on `channel`.
pub fn due(id: i64, channel: DispatchType, recipient: &str) -> ClaimedMessage {
    ClaimedMessage {
        account_id: AccountId::new(1),
        id,
        respondent_id: RespondentId::new(100 + id),
        sendout_id: SendoutId::new(10),
        survey_id: SurveyId::new(1),
        is_reminder: false,
        own_text: false,
        idempotency_key: format!("key-{id}"),
        message_token: format!("{id:032x}"),
        attempts: 0,
        holds: 0,
        aged: time::Duration::ZERO,
        sendout_held: false,
        lease_until: None,
        channel,
        recipient: recipient.into(),
        token: format!("{id:040x}"),
        sender: "hr@acme.example".into(),
        subject: Some("Your view".into()),
        template: "Answer here: {{surveyLink}}".into(),
        expiry_date: None,
        blocklisted: false,
    }
}

/// A transport that records each message and refuses recipients that say so: `bounce` permanently, `later` for
/// now, `held` as a relay refusing the sender does.
#[derive(Debug, Default)]
pub struct Recorder(pub Mutex<Vec<OutgoingMessage>>);

impl Recorder {
    fn take(&self, message: &OutgoingMessage) -> Result<(), SendError> {
        if let Ok(mut sent) = self.0.lock() {
            sent.push(message.clone());
        }
        if message.to.contains("bounce") {
            Err(SendError::Permanent("550 5.1.1 no such user".into()))
        } else if message.to.contains("later") {
            Err(SendError::Transient("451 4.3.0 try again later".into()))
        } else if message.to.contains("held") {
            Err(SendError::Held(Hold::new(HoldKind::Sender, "553 5.7.1 sender not owned")))
        } else if message.to.contains("slow") {
            Err(SendError::Held(Hold::new(HoldKind::Throttled, "454 4.7.0 Throttling failure")))
        } else {
            Ok(())
        }
    }

    /// The recipients given, in order.
    pub fn recipients(&self) -> Vec<String> {
        self.0.lock().map(|sent| sent.iter().map(|m| m.to.clone()).collect()).unwrap_or_default()
    }
}

impl Mailer for Recorder {
    fn send(&self, message: &OutgoingMessage) -> Result<(), SendError> {
        self.take(message)
    }
}

impl SmsSender for Recorder {
    fn send(&self, message: &OutgoingMessage) -> Result<(), SendError> {
        self.take(message)
    }
}

super::snapshot_transactions!(Outbox);
super::record_webhook_events!(Outbox);

impl HoldsSurveys for Outbox {
    fn surveys(&mut self) -> &mut Surveys {
        &mut self.state.surveys
    }
}
impl PaceRepository for Outbox {
    fn pace(&mut self, _lock: bool) -> RepoResult<Option<Pace>> {
        Ok(self.state.pace)
    }

    fn save_pace(&mut self, pace: &Pace) -> RepoResult<()> {
        self.state.pace = Some(*pace);
        Ok(())
    }
}

impl OutboxRepository for Outbox {
    fn enqueue_due_reminders(&mut self, now: OffsetDateTime) -> RepoResult<u64> {
        let _ = now;
        Ok(std::mem::take(&mut self.state.reminders_due))
    }

    fn claim_due(
        &mut self,
        now: OffsetDateTime,
        lease_until: OffsetDateTime,
        limit: i64,
    ) -> RepoResult<Vec<ClaimedMessage>> {
        let free = |m: &&mut ClaimedMessage| m.lease_until.is_none_or(|until| until <= now);
        let claimed: Vec<ClaimedMessage> = self
            .state
            .messages
            .iter_mut()
            .filter(free)
            .take(usize::try_from(limit).unwrap_or(0))
            .map(|m| {
                m.lease_until = Some(lease_until);
                m.clone()
            })
            .collect();
        Ok(claimed)
    }

    fn record_round(&mut self, settled: &[Settled], now: OffsetDateTime) -> RepoResult<RecordedRound> {
        let _ = now;
        if let (left @ 1.., Some(error)) = &mut self.failing_records {
            *left -= 1;
            return Err(error());
        }
        self.state.recorded.push(settled.to_vec());
        let ids: Vec<i64> =
            settled.iter().map(|done| done.message.id).filter(|id| !self.state.lost_leases.contains(id)).collect();
        let mut holds_started = Vec::new();
        for Settled { message, outcome } in settled.iter().filter(|done| ids.contains(&done.message.id)) {
            let held = &mut self.state.held_sendouts;
            match outcome {
                Outcome::Held(_, hold) if !held.contains(&message.sendout_id) => {
                    held.push(message.sendout_id);
                    holds_started.push(HoldStarted {
                        account_id: message.account_id,
                        survey_id: message.survey_id,
                        sendout_id: message.sendout_id,
                        kind: hold.kind,
                    });
                }
                Outcome::Sent => held.retain(|sendout| *sendout != message.sendout_id),
                _ => {}
            }
        }
        Ok(RecordedRound { ids, holds_started })
    }

    fn find_sent_by_token(&mut self, message_token: &str) -> RepoResult<SentLookup> {
        let Some(message) = self.state.messages.iter().find(|m| m.message_token == message_token) else {
            return Ok(SentLookup::Unknown);
        };
        // What the last round that recorded the message made of it; claimed and not recorded yet: in flight.
        let last = self.state.recorded.iter().flatten().rev().find(|done| done.message.id == message.id);
        Ok(match last.map(|done| &done.outcome) {
            Some(Outcome::Sent) => SentLookup::Sent(Box::new(message.clone())),
            None if message.lease_until.is_some() => SentLookup::InFlight,
            _ => SentLookup::Unknown,
        })
    }

    fn backlog(&mut self, now: OffsetDateTime) -> RepoResult<OutboxBacklog> {
        let _ = now;
        Ok(self.state.backlog)
    }

    super::not_kept! {
        fn enqueue_message(&mut self, context: &TokenContext, key: &str, body: &str, now: OffsetDateTime) -> RepoResult<bool>;
    }
}
