//! The ports: what the domain needs from a store. Adapters implement these synchronous traits; use cases take a
//! [`UnitOfWork`], whose [`UnitOfWork::transaction`] is the transaction boundary.
//!
//! Every method is scoped by the caller's [`AccountId`]: an adapter MUST NOT return or change a row of another
//! account, and MUST answer `None` (or `false`) for another account's ids exactly as for ids that do not exist.
//! Adapters MUST map a broken uniqueness rule to [`RepoError::Duplicate`] and a lost or exhausted connection to
//! [`RepoError::Unavailable`].

pub use crate::clock::Clock;

use time::OffsetDateTime;

use crate::account::{ApiKey, NewAccount, StoredKey, User};
use crate::answer::{AnswerFilter, AnswerSet, AnswerSetDraft};
use crate::category::{Category, CategoryName};
use crate::error::{DomainError, RepoError};
use crate::ids::{
    AccountId, AnswerSetId, CategoryId, QuestionItemId, RespondentId, SendoutId, SurveyId, UserId,
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
    fn create_key(
        &mut self,
        user_id: UserId,
        key: &ApiKey,
        now: OffsetDateTime,
    ) -> RepoResult<Option<AccountId>>;
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
    fn find_category(&mut self, account: AccountId, id: CategoryId)
        -> RepoResult<Option<Category>>;
    /// Stores a new category.
    fn insert_category(
        &mut self,
        account: AccountId,
        name: &CategoryName,
        now: OffsetDateTime,
    ) -> RepoResult<Category>;
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
    fn replace_logic(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        rules: &LogicRules,
    ) -> RepoResult<()>;
    /// Deletes an item of the survey and its answers; `false` when the survey has no such item. Logic rules that
    /// name it stay.
    fn delete_question_item(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        item: QuestionItemId,
    ) -> RepoResult<bool>;
    /// Moves the survey's `updatedAt`.
    fn touch_survey(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        now: OffsetDateTime,
    ) -> RepoResult<()>;
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

/// Every repository at once: what a use case works with.
pub trait Repositories:
    AccountRepository + CategoryRepository + SurveyRepository + AnswerRepository
{
}

impl<T: AccountRepository + CategoryRepository + SurveyRepository + AnswerRepository> Repositories
    for T
{
}

/// The transaction boundary. Reads may use the repositories directly; writes that must stand or fall together
/// run inside [`UnitOfWork::transaction`].
pub trait UnitOfWork: Repositories {
    /// Runs `work` in one transaction: committed when it returns `Ok`, rolled back when it returns `Err`.
    fn transaction<T>(
        &mut self,
        work: impl FnOnce(&mut Self) -> Result<T, DomainError>,
    ) -> Result<T, DomainError>;
}
