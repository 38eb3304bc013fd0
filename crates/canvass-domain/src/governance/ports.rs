//! The ports of governance: what the domain needs from a store for frequency settings, retention rules and
//! policies, and what the retention engine reads and removes.
//!
//! Every method is scoped by the caller's `AccountId` unless its documentation says otherwise; the rules every
//! adapter follows are in [`crate::ports`].

use crate::governance::{
    AccountPolicy, ContactPatterns, ErasureReceipt, FrequencySetting, HeldOnPerson, NewErasureReceipt, NewRetentionRun,
    RetentionAction, RetentionRule, RetentionRun, RuleScope, SurveyPolicy,
};
use crate::ids::{AccountId, ErasureReceiptId, LabelId, SendoutId, SurveyId};
use crate::ports::RepoResult;
use time::OffsetDateTime;

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

/// What the retention engine reads and removes. Removal methods work on at most `limit` rows and, with
/// `dry_run`, change nothing and count every row they would change.
pub trait RetentionRepository {
    /// Keeps a run that ran, with the figures of each account it removed something in or failed for; returns its
    /// id. Spans accounts: the engine's.
    fn record_retention_run(&mut self, run: &NewRetentionRun) -> RepoResult<i64>;
    /// The newest `limit` runs, each with the account's figures (zeros where it removed nothing there).
    fn retention_runs(&mut self, account: AccountId, limit: i64) -> RepoResult<Vec<RetentionRun>>;
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

/// What erasing one person across an account removes (see [`ErasureRepository::erase_contact`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Erased {
    /// Respondents removed, in every sendout of the account.
    pub respondents: u64,
    /// Their answer sets removed, copies included (only when answers were asked to go too).
    pub answer_sets: u64,
}

/// Erasure of one person on request (a data-protection officer's call), across every sendout of an account.
pub trait ErasureRepository {
    /// Removes every respondent of the account whose contact key is `contact.key()`, with their contact details,
    /// background data cells, survey links and messages, the permanent failures recorded for that address, and the
    /// directory's contacts whose email address or phone number it is.
    /// Their answer sets, and every copy of them (a survey copied with its answers, a copy of that copy), are
    /// removed with `include_answers`; otherwise they stay, with no respondent, the contact replaced by
    /// [`ERASED_MARK`](crate::governance::ERASED_MARK) where their answers or the copies' quote it. Where the account
    /// keeps other traces of the contact, found by `contact`'s patterns, they go as well: the relay replies their
    /// sendouts' messages and delivery issue quote it in are redacted the same way, and the account's kept
    /// `Idempotency-Key` answers that hold it become erased (their status, content type and body cleared). The
    /// blocklist is not touched. Locks the sendouts concerned in id order before their respondents, as every
    /// removal does.
    fn erase_contact(
        &mut self,
        account: AccountId,
        contact: &ContactPatterns,
        include_answers: bool,
    ) -> RepoResult<Erased>;
    /// Everything the account holds on the person whose contact key is `contact.key()` (an email address compared
    /// case-insensitively, a phone number as written): see [`HeldOnPerson`]. Reads set-based, a statement per kind
    /// of thing, whatever the number of sendouts.
    fn held_on_person(&mut self, account: AccountId, contact: &ContactPatterns) -> RepoResult<HeldOnPerson>;
    /// Keeps an erasure's receipt; returns its id.
    fn record_erasure(&mut self, account: AccountId, receipt: &NewErasureReceipt) -> RepoResult<ErasureReceiptId>;
    /// One receipt of the account.
    fn find_erasure(&mut self, account: AccountId, id: ErasureReceiptId) -> RepoResult<Option<ErasureReceipt>>;
}
