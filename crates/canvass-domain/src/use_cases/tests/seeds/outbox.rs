//! Where the delivery flows' tests start in the one in-memory store: messages due now, seeded with what they
//! need, lent by a [`MemoryStore`] one step at a time; and transports that record what they were given.

use std::sync::Mutex;

use crate::delivery::{
    Accepted, ClaimedMessage, Hold, HoldKind, Mailer, OutgoingMessage, SendError, Settled, SmsSender,
};
use crate::distribution::DispatchType;
use crate::ids::{AccountId, RespondentId, SendoutId, SurveyId};
use crate::testing::{Memory, MemoryStore};

/// A store lending an outbox of these messages (each of respondent `100 + id` of sendout 10 of survey 1 of
/// account 1).
pub fn lent(messages: Vec<ClaimedMessage>) -> MemoryStore {
    let mut memory = Memory::default();
    messages.into_iter().for_each(|message| memory.seed_message(message));
    MemoryStore::with_memory(memory)
}

/// The rounds the store recorded so far, each as it was handed over.
pub fn rounds(store: &MemoryStore) -> Vec<Vec<Settled>> {
    store.inspect(|memory| memory.hooks.rounds.clone())
}

/// A mailer that records each message and, as it sends, lets the leases of every claimed message run out and
/// another worker claim them: the round that sent them no longer holds them when it records.
#[derive(Debug)]
pub struct LeaseLost<'s> {
    /// The store whose leases run out.
    pub store: &'s MemoryStore,
    /// What was sent.
    pub sent: Recorder,
}

impl Mailer for LeaseLost<'_> {
    fn send(&self, message: &OutgoingMessage) -> Result<Accepted, SendError> {
        self.store.inspect(|memory| {
            let claimed = memory.state.outbox.iter_mut().filter(|held| held.message.lease_until.is_some());
            claimed.for_each(|held| held.message.lease_until = Some(crate::testing::NOW + time::Duration::hours(1)));
        });
        self.sent.take(message)
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
        language: crate::language::Language::En,
        blocklisted: false,
        personal: Default::default(),
    }
}

/// A transport that records each message and refuses recipients that say so: `bounce` permanently, `later` for
/// now, `held` as a relay refusing the sender does.
#[derive(Debug, Default)]
pub struct Recorder(pub Mutex<Vec<OutgoingMessage>>);

impl Recorder {
    fn take(&self, message: &OutgoingMessage) -> Result<Accepted, SendError> {
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
            Ok(Accepted(format!("250 2.0.0 Ok: queued for {}", message.to)))
        }
    }

    /// The recipients given, in order.
    pub fn recipients(&self) -> Vec<String> {
        self.0.lock().map(|sent| sent.iter().map(|m| m.to.clone()).collect()).unwrap_or_default()
    }
}

impl Mailer for Recorder {
    fn send(&self, message: &OutgoingMessage) -> Result<Accepted, SendError> {
        self.take(message)
    }
}

impl SmsSender for Recorder {
    fn send(&self, message: &OutgoingMessage) -> Result<Accepted, SendError> {
        self.take(message)
    }
}
