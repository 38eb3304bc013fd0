//! The ports of surveys: what the domain needs from a store for surveys and their question trees.
//!
//! Every method is scoped by the caller's `AccountId` unless its documentation says otherwise; the rules every
//! adapter follows are in [`crate::ports`].

use crate::ids::{AccountId, PageId, QuestionItemId, QuotaId, SurveyId};
use crate::language::Language;
use crate::ports::RepoResult;
use crate::survey::{
    LogicRules, QuestionItemDraft, QuestionTree, Quota, QuotaInput, Survey, SurveyDraft, TranslatedTexts, Translation,
};
use time::OffsetDateTime;

/// Surveys and their question trees.
pub trait SurveyRepository {
    /// The account's surveys, in creation order.
    fn list_surveys(&mut self, account: AccountId) -> RepoResult<Vec<Survey>>;
    /// One survey of the account.
    fn find_survey(&mut self, account: AccountId, id: SurveyId) -> RepoResult<Option<Survey>>;
    /// Stores a survey with its pages and items, keeping their order; returns the survey. Its tree, with the ids
    /// the store gave, is [`Self::question_tree`]'s: a create has no use for it.
    fn insert_survey(&mut self, account: AccountId, draft: &SurveyDraft, now: OffsetDateTime) -> RepoResult<Survey>;
    /// One survey of the account with its question tree, read together; `None` when the account has no such
    /// survey. A survey without pages has a tree without pages.
    fn find_survey_tree(&mut self, account: AccountId, id: SurveyId) -> RepoResult<Option<(Survey, QuestionTree)>>;
    /// The tree of a survey the caller has found; empty when it has no pages.
    fn question_tree(&mut self, account: AccountId, survey: SurveyId) -> RepoResult<QuestionTree>;
    /// The tree of a survey the caller has found, shared: one at `version` (read with the survey's link, say) may
    /// come from a cache the store keeps, for a tree never changes without a new version; otherwise it is read as
    /// [`Self::question_tree`] reads it (at that version or a later one). Not for a transaction that changes the
    /// tree.
    fn shared_question_tree(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        version: i32,
    ) -> RepoResult<std::sync::Arc<QuestionTree>> {
        let _ = version;
        self.question_tree(account, survey).map(std::sync::Arc::new)
    }
    /// Replaces the survey's logic rules, keeping their order.
    fn replace_logic(&mut self, account: AccountId, survey: SurveyId, rules: &LogicRules) -> RepoResult<()>;
    /// Deletes an item of the survey and its answers; `false` when the survey has no such item. Logic rules that
    /// name it stay.
    fn delete_question_item(&mut self, account: AccountId, survey: SurveyId, item: QuestionItemId) -> RepoResult<bool>;
    /// Starts a change of the survey's question tree (its pages, items or logic): moves its `updatedAt` to `now`
    /// and its tree version up by one, and holds the survey until the transaction ends, so that changes of one
    /// tree run one after another and none is lost. `false` when the account has no such survey. Callers run it
    /// first in the change's transaction: a change that then fails rolls the version back with it.
    fn begin_tree_change(&mut self, account: AccountId, survey: SurveyId, now: OffsetDateTime) -> RepoResult<bool>;
    /// Adds a page to the survey, placed after every other until [`Self::order_pages`] places it; its id.
    fn insert_page(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        title: &str,
        randomize_items: bool,
    ) -> RepoResult<PageId>;
    /// Sets a page's title and whether its items are shown in an order per respondent.
    fn update_page(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        page: PageId,
        title: &str,
        randomize_items: bool,
    ) -> RepoResult<()>;
    /// Deletes a page of the survey (the caller has checked it holds no items).
    fn delete_page(&mut self, account: AccountId, survey: SurveyId, page: PageId) -> RepoResult<()>;
    /// Puts the survey's pages in this order: `pages` is every page of the survey, once.
    fn order_pages(&mut self, account: AccountId, survey: SurveyId, pages: &[PageId]) -> RepoResult<()>;
    /// Adds an item to a page of the survey, placed after every other until [`Self::place_items`] places it;
    /// its id.
    fn insert_item(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        page: PageId,
        item: &QuestionItemDraft,
    ) -> RepoResult<QuestionItemId>;
    /// Replaces what an item of the survey is and holds (not where it stands); its answers stay.
    fn update_item(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        id: QuestionItemId,
        item: &QuestionItemDraft,
    ) -> RepoResult<()>;
    /// Puts items of the survey on these pages in this order: each entry is one page with every item it is to
    /// hold, the items that move onto it included.
    fn place_items(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        layout: &[(PageId, Vec<QuestionItemId>)],
    ) -> RepoResult<()>;
    /// Stores one language's texts of the survey in place of any it had in that language, and answers the stored
    /// translation: the first store of a language sets its `created_at`, every store its `updated_at`.
    fn put_translation(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        language: Language,
        texts: &TranslatedTexts,
        now: OffsetDateTime,
    ) -> RepoResult<Translation>;
    /// The survey's translations, in the order their languages were first stored.
    fn list_translations(&mut self, account: AccountId, survey: SurveyId) -> RepoResult<Vec<Translation>>;
    /// The survey's translation into `language`, when one is stored.
    fn find_translation(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        language: Language,
    ) -> RepoResult<Option<Translation>>;
    /// Deletes the survey's translation into `language`; `false` when none was stored.
    fn delete_translation(&mut self, account: AccountId, survey: SurveyId, language: Language) -> RepoResult<bool>;
    /// What a respondent page in `language` needs of the survey's translations, in one read: the languages of
    /// its translations in the order first stored, and the texts of the one into `language`, when there is one.
    /// Of the items' texts, only those of `items` are read (all of them when `None`): a page reads its own.
    fn page_translation(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        language: Language,
        items: Option<&[QuestionItemId]>,
    ) -> RepoResult<(Vec<Language>, Option<TranslatedTexts>)>;
}

/// A survey's quotas and their counts.
pub trait QuotaRepository {
    /// Stores a new quota of the survey, counting from zero.
    fn insert_quota(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        input: &QuotaInput,
        now: OffsetDateTime,
    ) -> RepoResult<Quota>;
    /// The survey's quotas with their counts, in creation (id) order. With `lock`, each is held until the
    /// transaction ends (a change of a quota reads them so).
    fn survey_quotas(&mut self, account: AccountId, survey: SurveyId, lock: bool) -> RepoResult<Vec<Quota>>;
    /// Replaces what a quota of the survey is (its name, conditions, limit and action); its count stays.
    fn update_quota(&mut self, account: AccountId, survey: SurveyId, id: QuotaId, input: &QuotaInput)
        -> RepoResult<()>;
    /// Deletes a quota of the survey; `false` when the survey has no such quota.
    fn delete_quota(&mut self, account: AccountId, survey: SurveyId, id: QuotaId) -> RepoResult<bool>;
    /// Counts one more set in each of these quotas of the survey that is below its limit as it stands now, and
    /// answers those it counted in. Each stays held until the transaction ends, so a concurrent count waits and
    /// then sees this one's: no count passes its limit however many sets complete at once.
    fn count_in_quotas(&mut self, account: AccountId, survey: SurveyId, ids: &[QuotaId]) -> RepoResult<Vec<QuotaId>>;
    /// Takes back a count this transaction made in each of these quotas of the survey.
    fn uncount_quotas(&mut self, account: AccountId, survey: SurveyId, ids: &[QuotaId]) -> RepoResult<()>;
}
