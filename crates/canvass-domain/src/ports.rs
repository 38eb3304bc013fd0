//! The ports: what the domain needs from a store. Adapters implement these synchronous traits; use cases take a
//! [`UnitOfWork`], and [`transaction`] is the transaction boundary. A [`Store`] lends units of work.
//!
//! Every method is scoped by the caller's [`AccountId`]: an adapter MUST NOT return or change a row of another
//! account, and MUST answer `None` (or `false`) for another account's ids exactly as for ids that do not exist.
//! Adapters MUST map a broken uniqueness rule to [`RepoError::Duplicate`] and a lost or exhausted connection to
//! [`RepoError::Unavailable`].

mod store;

pub use crate::clock::Clock;
pub use store::{transaction, Readiness, Store, StoreExt, Transactional, UnitOfWork};

use time::OffsetDateTime;

use crate::account::{ApiKey, NewAccount, StoredKey, User};
use crate::answer::{AnswerFilter, AnswerSet, AnswerSetDraft};
use crate::category::{Category, CategoryName};
use crate::delivery::{ClaimedMessage, Settled};
use crate::distribution::TokenContext;
use crate::distribution::{
    BackgroundData, BgDocument, BlocklistEntry, BlocklistType, BounceFilter, Label, LabelDraft, NewPermanentFailure,
    NewRespondent, PermanentFailure, ProvisionedSender, Reminder, ReminderDraft, Respondent, SenderNumber, Sendout,
    SendoutDraft, Transition,
};
use crate::error::RepoError;
use crate::governance::{AccountPolicy, FrequencySetting, RetentionAction, RetentionRule, RuleScope, SurveyPolicy};
use crate::ids::{
    AccountId, AnswerSetId, BgDocumentId, CategoryId, LabelId, PageId, QuestionItemId, RespondentId, SendoutId,
    SurveyId, UserId,
};
use crate::paging::{Page, PageRequest};
use crate::survey::{LogicRules, QuestionTree, Survey, SurveyDraft};

/// What every repository method returns.
pub type RepoResult<T> = Result<T, RepoError>;

/// Accounts, users and API keys.
pub trait AccountRepository {
    /// Creates an account, its first user (role `owner`) and that user's first key.
    fn create_account(
        &mut self,
        account: &NewAccount,
        key: &ApiKey,
        now: OffsetDateTime,
    ) -> RepoResult<(AccountId, UserId)>;
    /// Adds a key for a user; `None` when the user does not exist.
    fn create_key(&mut self, user_id: UserId, key: &ApiKey, now: OffsetDateTime) -> RepoResult<Option<AccountId>>;
    /// Revokes every unrevoked key with this lookup prefix; returns how many.
    fn revoke_keys(&mut self, lookup_prefix: &str, now: OffsetDateTime) -> RepoResult<u64>;
    /// The unrevoked keys with this lookup prefix (normally one).
    fn active_keys_with_prefix(&mut self, lookup_prefix: &str) -> RepoResult<Vec<StoredKey>>;
    /// The user with this email address (compared case-insensitively) in any account: for operators' tools.
    fn find_user_by_email(&mut self, email: &str) -> RepoResult<Option<User>>;
    /// The account's users, in creation order.
    fn list_users(&mut self, account: AccountId) -> RepoResult<Vec<User>>;
    /// One user of the account.
    fn find_user(&mut self, account: AccountId, id: UserId) -> RepoResult<Option<User>>;
}

/// Survey categories.
pub trait CategoryRepository {
    /// The account's categories, in creation order.
    fn list_categories(&mut self, account: AccountId) -> RepoResult<Vec<Category>>;
    /// One category of the account.
    fn find_category(&mut self, account: AccountId, id: CategoryId) -> RepoResult<Option<Category>>;
    /// Stores a new category.
    fn insert_category(&mut self, account: AccountId, name: &CategoryName, now: OffsetDateTime)
        -> RepoResult<Category>;
}

/// Surveys and their question trees.
pub trait SurveyRepository {
    /// The account's surveys, in creation order.
    fn list_surveys(&mut self, account: AccountId) -> RepoResult<Vec<Survey>>;
    /// One survey of the account.
    fn find_survey(&mut self, account: AccountId, id: SurveyId) -> RepoResult<Option<Survey>>;
    /// Stores a survey with its pages and items, keeping their order; returns the survey and its tree.
    fn insert_survey(
        &mut self,
        account: AccountId,
        draft: &SurveyDraft,
        now: OffsetDateTime,
    ) -> RepoResult<(Survey, QuestionTree)>;
    /// The tree of a survey the caller has found; empty when it has no pages.
    fn question_tree(&mut self, account: AccountId, survey: SurveyId) -> RepoResult<QuestionTree>;
    /// Replaces the survey's logic rules, keeping their order.
    fn replace_logic(&mut self, account: AccountId, survey: SurveyId, rules: &LogicRules) -> RepoResult<()>;
    /// Deletes an item of the survey and its answers; `false` when the survey has no such item. Logic rules that
    /// name it stay.
    fn delete_question_item(&mut self, account: AccountId, survey: SurveyId, item: QuestionItemId) -> RepoResult<bool>;
    /// Moves the survey's `updatedAt`.
    fn touch_survey(&mut self, account: AccountId, survey: SurveyId, now: OffsetDateTime) -> RepoResult<()>;
}

/// Answer sets and their answers.
pub trait AnswerRepository {
    /// Stores a new answer set.
    fn insert_answer_set(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        respondent: Option<(RespondentId, SendoutId)>,
        draft: &AnswerSetDraft,
        now: OffsetDateTime,
    ) -> RepoResult<AnswerSet>;
    /// Replaces the answers and the completed flag of a set and moves its `updatedAt`; `None` when the survey
    /// has no such set.
    fn replace_answers(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        id: AnswerSetId,
        draft: &AnswerSetDraft,
        now: OffsetDateTime,
    ) -> RepoResult<Option<AnswerSet>>;
    /// The survey's answer sets that pass the filter, in creation order, without their answers.
    fn list_answer_sets(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        filter: &AnswerFilter,
    ) -> RepoResult<Vec<AnswerSet>>;
    /// One page of the survey's answer sets that pass the filter, in creation order, with their answers.
    fn page_answer_sets(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        filter: &AnswerFilter,
        page: PageRequest,
    ) -> RepoResult<Page<AnswerSet>>;
    /// One answer set of the survey, with its answers.
    fn find_answer_set(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        id: AnswerSetId,
    ) -> RepoResult<Option<AnswerSet>>;
    /// The respondent's answer sets of the survey, with their answers, in creation order.
    fn answer_sets_of_respondent(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        respondent: RespondentId,
    ) -> RepoResult<Vec<AnswerSet>>;
    /// Copies every answer set of `from` to `to`, mapping item ids by `items` (old, new); the copies belong to no
    /// respondent or sendout. Returns how many answers were copied.
    fn copy_answer_sets(
        &mut self,
        account: AccountId,
        from: SurveyId,
        to: SurveyId,
        items: &[(QuestionItemId, QuestionItemId)],
    ) -> RepoResult<u64>;
}

/// Sendouts, their labels, reminders and background data documents.
pub trait SendoutRepository {
    /// Stores a Draft sendout of the survey with its background data document.
    fn insert_sendout(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        draft: &SendoutDraft,
        now: OffsetDateTime,
    ) -> RepoResult<Sendout>;
    /// The survey's sendouts, in creation order, with their counts.
    fn list_sendouts(&mut self, account: AccountId, survey: SurveyId) -> RepoResult<Vec<Sendout>>;
    /// One sendout of the survey, with its counts; with `lock`, its row stays locked until the transaction ends.
    fn find_sendout(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        id: SendoutId,
        lock: bool,
    ) -> RepoResult<Option<Sendout>>;
    /// Stores a transition (the status, and the activation time when it activates). Releasing the pending
    /// respondents is [`ReleaseRepository::release_pending`].
    fn apply_transition(
        &mut self,
        account: AccountId,
        id: SendoutId,
        transition: Transition,
        now: OffsetDateTime,
    ) -> RepoResult<()>;
    /// Copies sendouts of `from` to `to` as Drafts: settings, labels (background data remapped) and respondents
    /// as Pending (Blocklisted when their contact is on the blocklist) with new link tokens. The caller has checked
    /// that each id is a sendout of `from`; an adapter copies only sendouts of `from` all the same.
    fn copy_sendouts(
        &mut self,
        account: AccountId,
        from: SurveyId,
        to: SurveyId,
        ids: &[SendoutId],
        now: OffsetDateTime,
    ) -> RepoResult<()>;
    /// Stores a label; `Duplicate` when the sendout has a label of that name.
    fn insert_label(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        draft: &LabelDraft,
        now: OffsetDateTime,
    ) -> RepoResult<Label>;
    /// The sendout's labels, in creation order.
    fn list_labels(&mut self, account: AccountId, sendout: SendoutId) -> RepoResult<Vec<Label>>;
    /// Every background data label (function 0) of the account.
    fn background_label_ids(&mut self, account: AccountId) -> RepoResult<Vec<LabelId>>;
    /// Stores a reminder.
    fn insert_reminder(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        draft: &ReminderDraft,
        now: OffsetDateTime,
    ) -> RepoResult<Reminder>;
    /// The sendout's reminders, in creation order.
    fn list_reminders(&mut self, account: AccountId, sendout: SendoutId) -> RepoResult<Vec<Reminder>>;
    /// The account's background data documents, in creation order.
    fn list_documents(&mut self, account: AccountId) -> RepoResult<Vec<BgDocument>>;
    /// One background data document.
    fn find_document(&mut self, account: AccountId, id: BgDocumentId) -> RepoResult<Option<BgDocument>>;
}

/// Respondents of sendouts.
pub trait RespondentRepository {
    /// Which of these contact keys the sendout already has.
    fn existing_contact_keys(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        keys: &[String],
    ) -> RepoResult<Vec<String>>;
    /// Inserts respondents as Pending in one statement, skipping any whose contact key the sendout already has
    /// (also when another transaction added it meanwhile); returns those inserted, in the given order.
    fn insert_respondents(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        rows: &[NewRespondent],
        now: OffsetDateTime,
    ) -> RepoResult<Vec<Respondent>>;
    /// The sendout's respondents, in the order they were added.
    fn list_respondents(&mut self, account: AccountId, sendout: SendoutId) -> RepoResult<Vec<Respondent>>;
    /// One respondent of the sendout.
    fn find_respondent(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        id: RespondentId,
    ) -> RepoResult<Option<Respondent>>;
    /// The sendout of a respondent, when the respondent belongs to a sendout of the survey.
    fn respondent_sendout(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        respondent: RespondentId,
    ) -> RepoResult<Option<SendoutId>>;
    /// Sets the cells in `set` and removes the cells in `remove` of a respondent of the sendout; returns its
    /// background data afterwards, `None` when the sendout has no such respondent.
    fn update_background_data(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        respondent: RespondentId,
        set: &BackgroundData,
        remove: &[LabelId],
    ) -> RepoResult<Option<BackgroundData>>;
}

/// The blocklist and permanent email failures.
pub trait BlocklistRepository {
    /// Which of these contact keys are on the account's blocklist.
    fn blocked_keys(&mut self, account: AccountId, keys: &[String]) -> RepoResult<Vec<String>>;
    /// The account's blocklist, in the order entries were added.
    fn list_blocklist(&mut self, account: AccountId) -> RepoResult<Vec<BlocklistEntry>>;
    /// Adds an entry and marks the account's respondents with that contact that were not yet sent to (Pending,
    /// Scheduled or Released) as Blocklisted; `None` when the contact is already on the list.
    fn insert_blocklist(
        &mut self,
        account: AccountId,
        contact_details: &str,
        contact_key: &str,
        kind: BlocklistType,
        now: OffsetDateTime,
    ) -> RepoResult<Option<BlocklistEntry>>;
    /// Removes an entry; `false` when there was none.
    fn delete_blocklist(&mut self, account: AccountId, contact_key: &str) -> RepoResult<bool>;
    /// Records failures, ignoring any already recorded for the same address and time, and marks the account's
    /// respondents with those addresses as Bounced; returns how many were new.
    fn record_failures(&mut self, account: AccountId, failures: &[NewPermanentFailure]) -> RepoResult<u64>;
    /// One page of the account's failures that pass the filter, oldest first.
    fn page_failures(
        &mut self,
        account: AccountId,
        filter: &BounceFilter,
        page: PageRequest,
    ) -> RepoResult<Page<PermanentFailure>>;
}

/// Survey frequency settings, retention rules and retention policies.
pub trait GovernanceRepository {
    /// The account's frequency setting (`survey` none) or the survey's own.
    fn find_frequency(&mut self, account: AccountId, survey: Option<SurveyId>) -> RepoResult<Option<FrequencySetting>>;
    /// Creates or replaces the setting of its scope.
    fn save_frequency(&mut self, account: AccountId, setting: &FrequencySetting) -> RepoResult<()>;
    /// Every retention rule of the account.
    fn list_rules(&mut self, account: AccountId) -> RepoResult<Vec<RetentionRule>>;
    /// Creates the rule of its scope and action, or overwrites it in place.
    fn save_rule(&mut self, account: AccountId, rule: &RetentionRule, now: OffsetDateTime) -> RepoResult<()>;
    /// Deletes the rule of a scope and action; `false` when there was none.
    fn delete_rule(&mut self, account: AccountId, scope: RuleScope, action: RetentionAction) -> RepoResult<bool>;
    /// The account's retention policy, if one was set.
    fn account_policy(&mut self, account: AccountId) -> RepoResult<Option<AccountPolicy>>;
    /// Stores the account's retention policy.
    fn save_account_policy(
        &mut self,
        account: AccountId,
        policy: &AccountPolicy,
        now: OffsetDateTime,
    ) -> RepoResult<()>;
    /// A survey's retention policy, if one was set.
    fn survey_policy(&mut self, account: AccountId, survey: SurveyId) -> RepoResult<Option<SurveyPolicy>>;
    /// Stores a survey's retention policy.
    fn save_survey_policy(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        policy: &SurveyPolicy,
        now: OffsetDateTime,
    ) -> RepoResult<()>;
    /// Of these label ids, the account's labels and their functions.
    fn label_functions(&mut self, account: AccountId, labels: &[LabelId]) -> RepoResult<Vec<(LabelId, i16)>>;
}

/// Releasing the pending respondents of a sendout, with the frequency limit.
pub trait ReleaseRepository {
    /// Takes a transaction-scoped lock on each contact pending in the sendout (in a fixed order), so that two
    /// activations never count the same contact's surveys at once.
    fn lock_pending_contacts(&mut self, account: AccountId, sendout: SendoutId) -> RepoResult<()>;
    /// For each pending respondent of the sendout, how many distinct surveys other than `survey` its contact was
    /// released in since `since`.
    fn pending_other_surveys(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        survey: SurveyId,
        since: OffsetDateTime,
    ) -> RepoResult<Vec<(RespondentId, i64)>>;
    /// Releases every pending respondent of the sendout, except those in `held_back`, which become
    /// FrequencyLimitReached. Released respondents become Scheduled when the service sends them their link
    /// (`sends_messages` and `sendMail`), else Released.
    fn release_pending(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        held_back: &[RespondentId],
        sends_messages: bool,
        now: OffsetDateTime,
    ) -> RepoResult<()>;
}

/// What the retention engine reads and removes. Removal methods work on at most `limit` rows and, with
/// `dry_run`, change nothing and count every row they would change.
pub trait RetentionRepository {
    /// Takes the engine's lock (session-wide): waits for it, or with `wait` false gives up at once (`false`).
    fn lock_retention(&mut self, wait: bool) -> RepoResult<bool>;
    /// Releases the engine's lock.
    fn unlock_retention(&mut self) -> RepoResult<()>;
    /// Accounts that have any retention rule or policy.
    fn accounts_with_retention(&mut self) -> RepoResult<Vec<AccountId>>;
    /// Every sendout of the account with its survey.
    fn sendouts_of_account(&mut self, account: AccountId) -> RepoResult<Vec<(SurveyId, SendoutId)>>;
    /// Removes respondents of the sendout added before `added_before`; their answer sets stay, without them.
    fn remove_respondents(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        added_before: OffsetDateTime,
        limit: i64,
        dry_run: bool,
    ) -> RepoResult<u64>;
    /// Every survey of the account with its end date and its policy.
    fn surveys_for_policies(
        &mut self,
        account: AccountId,
    ) -> RepoResult<Vec<(SurveyId, OffsetDateTime, Option<SurveyPolicy>)>>;
    /// Partial delete of the survey's respondents: contact details, survey links and background data cells except
    /// `kept_labels`; returns respondents changed.
    fn erase_respondents(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        kept_labels: &[LabelId],
        limit: i64,
        dry_run: bool,
    ) -> RepoResult<u64>;
    /// Removes the open-text answers of the survey; returns answers removed.
    fn remove_open_text(&mut self, account: AccountId, survey: SurveyId, limit: i64, dry_run: bool) -> RepoResult<u64>;
    /// Complete delete: removes the survey's answer sets (with their answers); returns sets removed.
    fn remove_answer_sets(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        limit: i64,
        dry_run: bool,
    ) -> RepoResult<u64>;
    /// Complete delete: removes the respondents of every sendout of the survey; returns respondents removed.
    fn remove_survey_respondents(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        limit: i64,
        dry_run: bool,
    ) -> RepoResult<u64>;
}

/// The outbox of messages to send, and the outcomes of sending them.
pub trait OutboxRepository {
    /// Turns reminders whose send date has come into outbox messages for the respondents their SendoutLogic
    /// selects (released, sent to by the service, never blocklisted, bounced or failed); returns how many.
    fn enqueue_due_reminders(&mut self, now: OffsetDateTime) -> RepoResult<u64>;
    /// Claims up to `limit` due messages of any account that no live lease holds, leasing them until
    /// `lease_until` and counting the attempt. Concurrent workers never claim the same message.
    fn claim_due(
        &mut self,
        now: OffsetDateTime,
        lease_until: OffsetDateTime,
        limit: i64,
    ) -> RepoResult<Vec<ClaimedMessage>>;
    /// Records what became of a round's messages, with a fixed number of set-based statements whatever their
    /// count: Sent (and the respondent of an invitation), Bounced (a permanent failure with sendout and respondent,
    /// the respondent Bounced and its other queued messages Cancelled), due again, Failed (and the respondent of an
    /// invitation), or Cancelled (the respondent Blocklisted or Expired). Bounces are recorded last, so a bounce
    /// cancels a message of the same respondent that the same round put off.
    fn record_round(&mut self, settled: &[Settled], now: OffsetDateTime) -> RepoResult<()>;
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

/// Sender numbers provisioned to accounts (by an operator, `canvass sender`). A number belongs to at most one
/// account.
pub trait SenderRepository {
    /// Provisions the number to the account unless some account has it already; returns the account that owns
    /// it afterwards (this one, or the one that had it), `None` when the account does not exist.
    fn provision_sender(
        &mut self,
        account: AccountId,
        number: &SenderNumber,
        now: OffsetDateTime,
    ) -> RepoResult<Option<AccountId>>;
    /// The account's numbers, in the order they were provisioned.
    fn list_senders(&mut self, account: AccountId) -> RepoResult<Vec<ProvisionedSender>>;
    /// Takes a number from the account; `false` when the account does not have it.
    fn remove_sender(&mut self, account: AccountId, number: &SenderNumber) -> RepoResult<bool>;
    /// Whether `number` (as a sendout names it) is provisioned to the account. The number stays the account's
    /// until the transaction ends (a concurrent removal waits).
    fn holds_sender(&mut self, account: AccountId, number: &str) -> RepoResult<bool>;
}

/// What the respondent page reads and keeps: the respondent behind a link token, and where it is in the survey.
pub trait RespondentPageRepository {
    /// The respondent (of any account) whose survey link has this token.
    fn find_by_token(&mut self, token: &str) -> RepoResult<Option<TokenContext>>;
    /// The link token and respondent of a LOGIN sendout (of any account) whose login identifier has this key.
    fn find_login(&mut self, sendout: SendoutId, contact_key: &str) -> RepoResult<Option<(String, TokenContext)>>;
    /// The respondents whose number has this key in TWOWAY sendouts sent from the number `to`, of the account that
    /// `to` is provisioned to (no one's when it is provisioned to none), the one that was last sent a message
    /// first.
    fn find_conversations(&mut self, contact_key: &str, to: &str) -> RepoResult<Vec<TokenContext>>;
    /// Locks the respondent until the transaction ends, so that its answers are saved one submission at a time.
    fn lock_respondent(&mut self, account: AccountId, respondent: RespondentId) -> RepoResult<()>;
    /// The respondent's latest answer set of the survey, with answers, and the page it was left on.
    fn progress(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        respondent: RespondentId,
    ) -> RepoResult<Option<(AnswerSet, Option<PageId>)>>;
    /// Stores the page an answer set was left on (`None` once completed).
    fn save_progress(&mut self, account: AccountId, answer_set: AnswerSetId, page: Option<PageId>) -> RepoResult<()>;
}

/// Every repository at once: what a use case works with.
pub trait Repositories:
    AccountRepository
    + CategoryRepository
    + SurveyRepository
    + AnswerRepository
    + SendoutRepository
    + RespondentRepository
    + BlocklistRepository
    + GovernanceRepository
    + ReleaseRepository
    + RetentionRepository
    + OutboxRepository
    + RespondentPageRepository
    + SenderRepository
{
}

impl<T> Repositories for T where
    T: AccountRepository
        + CategoryRepository
        + SurveyRepository
        + AnswerRepository
        + SendoutRepository
        + RespondentRepository
        + BlocklistRepository
        + GovernanceRepository
        + ReleaseRepository
        + RetentionRepository
        + OutboxRepository
        + RespondentPageRepository
        + SenderRepository
{
}
