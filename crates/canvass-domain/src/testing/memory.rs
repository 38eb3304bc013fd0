//! [`Memory`], the unit of work of the in-memory store: one `Clone` [`State`] that every repository reads and
//! changes, scoped by account, and snapshot transactions over it. Each port is implemented in the file of its area
//! (`memory/<area>.rs`), as the PostgreSQL adapter splits its own; what they share is here.

mod accounts;
mod alerts;
mod answers;
mod audit;
mod blocklist;
mod categories;
mod contact_lists;
mod contacts;
mod erasure;
mod governance;
mod insight;
mod outbox;
mod pages;
mod quotas;
mod respondents;
mod retention;
mod senders;
mod sendouts;
mod timeline;
mod webhooks;

use time::OffsetDateTime;

use super::{HoldsKeys, HoldsSurveys, Keys, Snapshots, Surveys};
use crate::account::{ApiKeyHash, User};
use crate::answer::AnswerSet;
use crate::delivery::ClaimedMessage;
use crate::delivery::Pace;
use crate::distribution::{
    BgDocument, BlocklistEntry, Label, PermanentFailure, ProvisionedSender, Reminder, Respondent, RespondentStatus,
    Sendout,
};
use crate::governance::{AccountPolicy, FrequencySetting, RetentionRule, SurveyPolicy};
use crate::ids::{AccountId, KeyId, PageId, RespondentId, SendoutId, SurveyId, WebhookId};
use crate::ports::{RepoResult, Transactional};
use crate::webhook::{DeliveryStatus, DeliveryView, EventSubject, Webhook, WebhookEvent, WebhookSecret};
use crate::RepoError;

pub use alerts::HeldAlertEmail;
pub use answers::weighed;
pub use outbox::MessageStatus;

/// A stored API key: only its lookup prefix and hash, as the real store keeps it.
#[derive(Debug, Clone)]
pub struct KeyRow {
    /// The key's id.
    pub id: KeyId,
    /// The account of its user.
    pub account_id: crate::ids::AccountId,
    /// The key's hash.
    pub hash: ApiKeyHash,
    /// What is listed of it: prefix, name, times, read-only.
    pub record: crate::account::KeyRecord,
}

/// A webhook delivery written by an event or a test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredDelivery {
    /// The webhook's account.
    pub account_id: AccountId,
    /// The webhook.
    pub webhook_id: WebhookId,
    /// What the event was about (`None` for `webhook.test`).
    pub subject: Option<EventSubject>,
    /// The delivery as the API lists it.
    pub view: DeliveryView,
    /// When the event happened.
    pub occurred_at: OffsetDateTime,
    /// Until when a worker holds it, if one claimed it and has not recorded its attempt.
    pub lease_until: Option<OffsetDateTime>,
}

/// A respondent of a sendout, with what the adapter keeps beside the row the API shows.
#[derive(Debug, Clone)]
pub struct HeldRespondent {
    /// Its account.
    pub account_id: AccountId,
    /// Its sendout's survey.
    pub survey_id: SurveyId,
    /// The row.
    pub row: Respondent,
    /// When an activation released it.
    pub released_at: Option<OffsetDateTime>,
    /// When it opted out through its own link.
    pub opted_out_at: Option<OffsetDateTime>,
}

/// An answer set, with the page it was left on and the set it copies.
#[derive(Debug, Clone)]
pub struct HeldAnswerSet {
    /// Its account.
    pub account_id: AccountId,
    /// The set, with its answers.
    pub set: AnswerSet,
    /// The page its respondent left off on.
    pub page: Option<PageId>,
    /// The original set this one is a copy of (of a copy: the same original).
    pub original: Option<crate::ids::AnswerSetId>,
}

/// A message of the outbox, with where it stands.
#[derive(Debug, Clone)]
pub struct HeldMessage {
    /// The message as a worker claims it.
    pub message: ClaimedMessage,
    /// Where it stands.
    pub status: MessageStatus,
    /// When it is due (again).
    pub due_at: OffsetDateTime,
    /// When it was written.
    pub created_at: OffsetDateTime,
    /// When it was handed over.
    pub sent_at: Option<OffsetDateTime>,
    /// The last refusal.
    pub last_error: Option<String>,
    /// Whose trouble holds it, while relay or sender trouble does.
    pub hold_kind: Option<crate::delivery::HoldKind>,
}

/// Everything the store holds; cloned when a transaction begins.
#[derive(Debug, Clone, Default)]
pub struct State {
    /// Accounts and their names, in creation order; ids count from 1.
    pub accounts: Vec<(AccountId, String)>,
    /// Users of every account; ids count from 1.
    pub users: Vec<User>,
    /// API keys of every account.
    pub keys: Vec<KeyRow>,
    /// Retention runs that ran, in the order kept (a run's id is its place, from 1).
    pub retention_runs: Vec<crate::governance::NewRetentionRun>,
    /// Erasure receipts by account, in the order kept.
    pub erasures: Vec<(crate::ids::AccountId, crate::governance::ErasureReceipt)>,
    /// The audit log: each account's events, in the order recorded.
    pub audit: Vec<(crate::ids::AccountId, crate::audit::AuditEvent)>,
    /// Idempotency keys.
    pub idempotency: Keys,
    /// Categories by account.
    pub categories: Vec<(AccountId, crate::category::Category)>,
    /// The directory's contacts by account, in creation order.
    pub contacts: Vec<(AccountId, crate::directory::Contact)>,
    /// The directory's lists by account, in creation order (their member counts are computed when read).
    pub contact_lists: Vec<(AccountId, crate::directory::ContactList)>,
    /// List memberships: account, list, contact.
    pub list_members: Vec<(AccountId, crate::ids::ContactListId, crate::ids::ContactId)>,
    /// Surveys and their trees.
    pub surveys: Surveys,
    /// Sendouts by account (their counts are computed when read).
    pub sendouts: Vec<(AccountId, Sendout)>,
    /// Background data documents by account, one per sendout.
    pub documents: Vec<(AccountId, BgDocument)>,
    /// Labels by account, in creation order.
    pub labels: Vec<(AccountId, Label)>,
    /// Reminders by account, in creation order.
    pub reminders: Vec<(AccountId, Reminder)>,
    /// Respondents of every sendout, in the order they were added.
    pub respondents: Vec<HeldRespondent>,
    /// Answer sets of every survey, in creation order.
    pub answer_sets: Vec<HeldAnswerSet>,
    /// Quotas of every survey by account, in creation order.
    pub quotas: Vec<(AccountId, crate::survey::Quota)>,
    /// Alerts of every survey by account, in creation order.
    pub alerts: Vec<(AccountId, crate::alert::Alert)>,
    /// The alert outbox of every account, in the order its emails were written.
    pub alert_emails: Vec<HeldAlertEmail>,
    /// The blocklist by account, each entry with its contact key.
    pub blocklist: Vec<(AccountId, String, BlocklistEntry)>,
    /// Permanent failures by account, in the order they were recorded.
    pub failures: Vec<(AccountId, PermanentFailure)>,
    /// The outbox of every account, in the order its messages were written.
    pub outbox: Vec<HeldMessage>,
    /// The pace all workers keep.
    pub pace: Option<Pace>,
    /// Frequency settings by account.
    pub frequency: Vec<(AccountId, FrequencySetting)>,
    /// Retention rules by account.
    pub rules: Vec<(AccountId, RetentionRule)>,
    /// Account retention policies.
    pub account_policies: Vec<(AccountId, AccountPolicy)>,
    /// Survey retention policies.
    pub survey_policies: Vec<(AccountId, SurveyId, SurveyPolicy)>,
    /// Sender numbers by account, in the order they were provisioned.
    pub senders: Vec<(AccountId, ProvisionedSender)>,
    /// Webhooks by account, with their secrets.
    pub webhooks: Vec<(AccountId, Webhook, WebhookSecret)>,
    /// Webhook deliveries, in the order they were written.
    pub deliveries: Vec<StoredDelivery>,
    /// Every respondent event recorded, by account, in the order written.
    pub timeline: Vec<(AccountId, crate::distribution::RespondentEvent)>,
    /// Every webhook event written, subscribed to or not, in order: what a test checks an event against.
    pub events: Vec<(WebhookEvent, EventSubject)>,
    /// Whether this unit of work holds the retention engine's lock.
    pub retention_locked: bool,
    /// Each account's settings, once it has set them.
    pub settings: Vec<(AccountId, crate::account::AccountSettings)>,
    next_id: i64,
}

impl State {
    /// A fresh id for any row the store makes (surveys keep their own sequence).
    pub fn next_id(&mut self) -> i64 {
        self.next_id += 1;
        self.next_id
    }

    fn has_account(&self, account: AccountId) -> bool {
        self.accounts.iter().any(|(id, _)| *id == account)
    }

    fn sendout(&self, account: AccountId, survey: SurveyId, id: SendoutId) -> Option<&Sendout> {
        let found = self.sendouts.iter().find(|(owner, s)| *owner == account && s.id == id && s.survey_id == survey);
        found.map(|(_, sendout)| sendout)
    }

    /// The account's sendout, of whichever survey.
    pub(in crate::testing) fn own_sendout(&self, account: AccountId, id: SendoutId) -> Option<&Sendout> {
        self.sendouts.iter().find(|(owner, s)| *owner == account && s.id == id).map(|(_, sendout)| sendout)
    }

    fn own_sendout_mut(&mut self, account: AccountId, id: SendoutId) -> Option<&mut Sendout> {
        self.sendouts.iter_mut().find(|(owner, s)| *owner == account && s.id == id).map(|(_, sendout)| sendout)
    }

    /// The sendout of any account, with its account.
    fn any_sendout(&self, id: SendoutId) -> Option<(AccountId, &Sendout)> {
        self.sendouts.iter().find(|(_, s)| s.id == id).map(|(owner, sendout)| (*owner, sendout))
    }

    pub(in crate::testing) fn respondent(&self, account: AccountId, id: RespondentId) -> Option<&HeldRespondent> {
        self.respondents.iter().find(|r| r.account_id == account && r.row.id == id)
    }

    fn respondent_mut(&mut self, account: AccountId, id: RespondentId) -> Option<&mut HeldRespondent> {
        self.respondents.iter_mut().find(|r| r.account_id == account && r.row.id == id)
    }

    /// Whether the contact key is on the account's blocklist.
    fn is_blocked(&self, account: AccountId, key: &str) -> bool {
        self.blocklist.iter().any(|(owner, held, _)| *owner == account && held == key)
    }

    /// Moves the account's respondents with one of these contact keys from a status `from` picks to `to`.
    fn move_contacts(
        &mut self,
        account: AccountId,
        keys: &[&str],
        from: impl Fn(RespondentStatus) -> bool,
        to: RespondentStatus,
    ) -> Vec<RespondentId> {
        let mut moved = Vec::new();
        for held in self.respondents.iter_mut().filter(|r| r.account_id == account) {
            let key = crate::distribution::contact_key(&held.row.contact_details);
            if keys.contains(&key.as_str()) && from(held.row.status) {
                held.row.status = to;
                moved.push(held.row.id);
            }
        }
        moved
    }

    fn webhook(&self, account: AccountId, id: WebhookId) -> Option<&Webhook> {
        self.webhooks.iter().find(|(owner, w, _)| *owner == account && w.id == id).map(|(_, webhook, _)| webhook)
    }

    fn push_delivery(
        &mut self,
        account_id: AccountId,
        webhook_id: WebhookId,
        event: WebhookEvent,
        subject: Option<EventSubject>,
        now: OffsetDateTime,
    ) {
        let id = self.next_id();
        let view = DeliveryView {
            id,
            event,
            status: DeliveryStatus::Pending,
            attempts: 0,
            last_status_code: None,
            last_error: None,
            next_attempt_at: Some(now),
        };
        self.deliveries.push(StoredDelivery {
            account_id,
            webhook_id,
            subject,
            view,
            occurred_at: now,
            lease_until: None,
        });
    }
}

/// What a test asks of the store beyond its ports: failures to inject and reads to count. Kept outside the
/// [`State`], so that a rolled-back transaction neither gives a failure back nor forgets a read.
#[derive(Debug, Default)]
pub struct Hooks {
    /// Writing webhook events fails as a store that went away does.
    pub events_fail: bool,
    /// How many more times `record_round` fails, and with what.
    pub failing_rounds: (u32, Option<fn() -> RepoError>),
    /// An account whose retention rules cannot be read (a broken row).
    pub failing_account: Option<AccountId>,
    /// Another run holds the retention engine's lock.
    pub retention_held_elsewhere: bool,
    /// How many chunks of answer sets were read or weighed.
    pub chunks_read: usize,
    /// The ids each read of answer sets with their answers asked for, in order.
    pub sets_read: Vec<Vec<crate::ids::AnswerSetId>>,
    /// The respondents locked, in order.
    pub locked: Vec<RespondentId>,
    /// The sendouts locked (read with a lock, or their pending contacts locked), in order.
    pub locked_sendouts: Vec<SendoutId>,
    /// Each release of pending respondents: those held back, and whether messages are sent.
    pub released: Vec<(Vec<RespondentId>, bool)>,
    /// Every transaction fails to begin, with this error, as a store whose connection broke does.
    pub failing_begin: Option<fn() -> RepoError>,
    /// Each round recorded, as it was handed over.
    pub rounds: Vec<Vec<crate::delivery::Settled>>,
}

/// The in-memory unit of work: its state, its transactions and a test's hooks. [`super::MemoryStore`] lends one;
/// tests of a use case may also build one and pass it on directly.
#[derive(Debug, Default)]
pub struct Memory {
    /// What it holds.
    pub state: State,
    /// Its transactions, each a snapshot of the state.
    pub transactions: Snapshots<State>,
    /// Failures and counts a test set up or reads.
    pub hooks: Hooks,
}

impl Transactional for Memory {
    fn begin(&mut self) -> RepoResult<()> {
        if let Some(error) = self.hooks.failing_begin {
            return Err(error());
        }
        self.transactions.begin(&self.state);
        Ok(())
    }

    fn commit(&mut self) -> RepoResult<()> {
        self.transactions.commit();
        Ok(())
    }

    fn rollback(&mut self) -> RepoResult<()> {
        self.transactions.rollback(&mut self.state);
        Ok(())
    }
}

impl HoldsSurveys for Memory {
    fn surveys(&mut self) -> &mut Surveys {
        &mut self.state.surveys
    }
}

impl HoldsKeys for Memory {
    fn keys(&mut self) -> &mut Keys {
        &mut self.state.idempotency
    }
}

/// At most `limit` (a non-negative `LIMIT`) as a count.
fn limit_of(limit: i64) -> usize {
    usize::try_from(limit).unwrap_or(0)
}
