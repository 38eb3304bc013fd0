//! The ports of delivery's store: the outbox of messages to send and the outcomes of sending them.
//!
//! Every method is scoped by the caller's `AccountId` unless its documentation says otherwise; the rules every
//! adapter follows are in [`crate::ports`].

use crate::delivery::{ClaimedAlert, ClaimedMessage, HoldKind, Pace, Settled, SettledAlert};
use crate::distribution::TokenContext;
use crate::ids::{AccountId, SendoutId, SurveyId};
use crate::ports::RepoResult;
use time::OffsetDateTime;

/// The outbox of messages to send, and the outcomes of sending them.
pub trait OutboxRepository {
    /// Turns reminders whose send date has come into outbox messages for the respondents their SendoutLogic
    /// selects (released, sent to by the service, never blocklisted, bounced or failed); returns how many.
    fn enqueue_due_reminders(&mut self, now: OffsetDateTime) -> RepoResult<u64>;
    /// Claims up to `limit` due messages of any account that no live lease holds, leasing them until
    /// `lease_until` and counting the attempt; a held message claimed is held no longer while it is tried (its
    /// outcome may hold it again). Concurrent workers never claim the same message. The limit is
    /// shared fairly among the accounts with due messages (an account's backlog cannot hold another's messages
    /// back; what one account leaves unused goes to the others), and an adapter may claim account by account.
    fn claim_due(
        &mut self,
        now: OffsetDateTime,
        lease_until: OffsetDateTime,
        limit: i64,
    ) -> RepoResult<Vec<ClaimedMessage>>;
    /// Claims up to `limit` due alert emails of any account that no live lease holds, leasing them until
    /// `lease_until` and counting the attempt, oldest due first; the limit is shared among accounts as
    /// [`Self::claim_due`] shares it.
    fn claim_due_alerts(
        &mut self,
        now: OffsetDateTime,
        lease_until: OffsetDateTime,
        limit: i64,
    ) -> RepoResult<Vec<ClaimedAlert>>;
    /// Records what became of a round's alert emails, with a fixed number of statements per account: Sent,
    /// Bounced or Failed (each with its text dropped, as it holds answers), due again after a transient failure,
    /// or held (relay or sender trouble, no attempt counted). Only emails still held under the lease they were
    /// claimed with are recorded; returns their ids.
    fn record_alert_round(&mut self, settled: &[SettledAlert], now: OffsetDateTime) -> RepoResult<Vec<i64>>;
    /// Records what became of a round's messages, with a fixed number of set-based statements per account
    /// whatever their count: Sent (and the respondent of an invitation), Bounced (a permanent failure with sendout and respondent,
    /// the respondent Bounced and its other queued messages Cancelled), due again, Failed (and the respondent of an
    /// invitation), or Cancelled (the respondent Blocklisted or Expired). Bounces are recorded last, so a bounce
    /// cancels a message of the same respondent that the same round put off. Only messages still held under the
    /// lease they were claimed with (a late bounce's: still Sent) are recorded; returns the outbox ids of those, so
    /// that a worker whose lease ran out, or a report another one recorded first, writes no event.
    ///
    /// A held message (relay or sender trouble) sets its sendout's delivery issue (kind, reply, and since when,
    /// kept from the hold's start) and a message handed over clears it; the sendouts whose hold starts with this
    /// round are returned beside the ids, once per hold.
    fn record_round(&mut self, settled: &[Settled], now: OffsetDateTime) -> RepoResult<RecordedRound>;
    /// The message (of any account) with this Message-ID token: recorded as Sent, or still in a worker's hands
    /// (pending after an attempt: sent, perhaps, but not recorded yet), or neither (unknown, bounced already, or
    /// never sent).
    fn find_sent_by_token(&mut self, message_token: &str) -> RepoResult<SentLookup>;
    /// Writes a message of its own text to a respondent, due at `now`; `false` when a message with this key
    /// exists already.
    fn enqueue_message(
        &mut self,
        context: &TokenContext,
        key: &str,
        body: &str,
        now: OffsetDateTime,
    ) -> RepoResult<bool>;
    /// How many messages of every account wait to be sent, and when the longest-waiting one came due, in one
    /// statement whose cost does not grow with the backlog (for monitoring: an adapter keeps the counts as the
    /// messages change rather than counting them here). Like [`Self::claim_due`], it spans accounts and counts
    /// only what a worker would send: Pending messages of active EMAIL, SMS and TWOWAY sendouts (claimed ones
    /// still in flight included), not those of a deactivated sendout, which wait for its next activation.
    fn backlog(&mut self, now: OffsetDateTime) -> RepoResult<OutboxBacklog>;
}

/// What [`OutboxRepository::record_round`] recorded.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecordedRound {
    /// The outbox ids of the messages recorded.
    pub ids: Vec<i64>,
    /// The sendouts whose hold started with this round, and whose trouble it is.
    pub holds_started: Vec<HoldStarted>,
}

/// A sendout whose messages began to wait on relay or sender trouble.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HoldStarted {
    /// The owning account.
    pub account_id: AccountId,
    /// The sendout's survey.
    pub survey_id: SurveyId,
    /// The sendout.
    pub sendout_id: SendoutId,
    /// Whose trouble.
    pub kind: HoldKind,
}

/// The pace all workers sharing the database keep together: one row, spanning accounts.
pub trait PaceRepository {
    /// The shared pace, locked until the transaction ends when `lock` is set; `None` before it is first saved.
    fn pace(&mut self, lock: bool) -> RepoResult<Option<Pace>>;
    /// Stores the shared pace.
    fn save_pace(&mut self, pace: &Pace) -> RepoResult<()>;
}

/// What [`OutboxRepository::backlog`] found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OutboxBacklog {
    /// Messages waiting to be sent.
    pub pending: u64,
    /// Those among them held by relay or sender trouble.
    pub held: u64,
    /// The earliest due date among them that has come by `now`; `None` when none is due yet.
    pub oldest_due: Option<OffsetDateTime>,
}

/// What [`OutboxRepository::find_sent_by_token`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SentLookup {
    /// A message recorded as Sent.
    Sent(Box<ClaimedMessage>),
    /// A message that has been attempted and is not recorded yet.
    InFlight,
    /// No message the relay could have taken.
    Unknown,
}
