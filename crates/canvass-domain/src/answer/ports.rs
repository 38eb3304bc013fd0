//! The ports of answering: what the domain needs from a store for answer sets, and for the respondent page
//! (the respondent behind a link, a login or a number, and where it is in the survey).
//!
//! Every method is scoped by the caller's `AccountId` unless its documentation says otherwise; the rules every
//! adapter follows are in [`crate::ports`].

use crate::answer::export::BackgroundCell;
use crate::answer::{AnswerFilter, AnswerSet, AnswerSetDraft, ReplacedAnswerSet};
use crate::chunks::{ChunkRequest, Weighed};
use crate::distribution::{BackgroundData, LinkRoute, LoginPage, OpenLinkTarget, TokenContext};
use crate::ids::{AccountId, AnswerSetId, PageId, QuestionItemId, RespondentId, SendoutId, SurveyId};
use crate::paging::{Page, PageRequest};
use crate::ports::RepoResult;
use time::OffsetDateTime;

/// What an answer set weighs before its answers (see [`AnswerRepository::weigh_answer_sets`]): its row, and the
/// list that holds its answers.
pub const ANSWER_SET_BYTES: u64 = 256;

/// What each answer weighs besides its value's text: its item, its place in the list, the value's own allocation.
pub const ANSWER_BYTES: u64 = 64;

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
    /// Replaces the answers and the completed flag of a set and moves its `updatedAt`, and tells whether the set
    /// was completed before; `None` when the survey has no such set. Callers run it inside a transaction: the set
    /// stays locked until it ends, so that a concurrent replacement of the same set waits and then replaces the
    /// whole of it, and sees the flag the first one left.
    fn replace_answers(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        id: AnswerSetId,
        draft: &AnswerSetDraft,
        now: OffsetDateTime,
    ) -> RepoResult<Option<ReplacedAnswerSet>>;
    /// Marks a set that a full `endSurvey` quota ended, in the transaction that wrote it: not completed (a
    /// `completedAt` this transaction gave it at `now` is taken back), `quotaFull`.
    fn hold_for_quota(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        id: AnswerSetId,
        now: OffsetDateTime,
    ) -> RepoResult<()>;
    /// One chunk of the survey's answer sets that pass the filter, in creation (id) order, without their answers:
    /// at most `request.size()` sets with ids after `request.after_key()`.
    fn answer_sets_chunk(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        filter: &AnswerFilter,
        request: &ChunkRequest<AnswerSetId>,
    ) -> RepoResult<Vec<AnswerSet>>;
    /// The ids of one chunk of the survey's answer sets that pass the filter (at most `request.size()` sets with ids
    /// after `request.after_key()`, in id order), each weighed before it is read: [`ANSWER_SET_BYTES`] plus, for each
    /// of its answers, [`ANSWER_BYTES`] and the length of its value as JSON text.
    fn weigh_answer_sets(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        filter: &AnswerFilter,
        request: &ChunkRequest<AnswerSetId>,
    ) -> RepoResult<Vec<Weighed<AnswerSetId>>>;
    /// The ids of one page of the survey's answer sets that pass the filter, in creation order, weighed as
    /// [`Self::weigh_answer_sets`] weighs them, and how many sets pass the filter.
    fn weigh_answer_set_page(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        filter: &AnswerFilter,
        page: PageRequest,
    ) -> RepoResult<Page<Weighed<AnswerSetId>>>;
    /// The survey's answer sets with these ids, in id order, each with its answers in question tree order: what an
    /// export or a page writes. Ids of no set of the survey are left out.
    fn answer_sets_with_answers(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        ids: &[AnswerSetId],
    ) -> RepoResult<Vec<AnswerSet>>;
    /// The names of the background data labels of the sendouts that the survey's answer sets passing the filter
    /// belong to, each name once (same-named labels of different sendouts share it), in the order the first label
    /// of each name was made: the background data columns of an export.
    fn export_label_names(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        filter: &AnswerFilter,
    ) -> RepoResult<Vec<String>>;
    /// The background data of these respondents, each value with its label's name and type, in no set order.
    /// Ids of no respondent of the account are left out.
    fn background_cells(
        &mut self,
        account: AccountId,
        respondents: &[RespondentId],
    ) -> RepoResult<Vec<(RespondentId, BackgroundCell)>>;
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
    /// respondent or sendout, and each keeps which original answer set it copies (a copy of a copy, the same
    /// original), so that an erasure of the person who answered it reaches the copy. Returns how many answers were
    /// copied.
    fn copy_answer_sets(
        &mut self,
        account: AccountId,
        from: SurveyId,
        to: SurveyId,
        items: &[(QuestionItemId, QuestionItemId)],
    ) -> RepoResult<u64>;
    /// Whether any answer set holds an answer to the item.
    fn item_has_answers(&mut self, account: AccountId, item: QuestionItemId) -> RepoResult<bool>;
    /// Those of `values` that some answer to the item holds (as its value, among its chosen values, or as a row or
    /// option of a Matrix answer), in the order of `values`.
    fn values_in_answers(
        &mut self,
        account: AccountId,
        item: QuestionItemId,
        values: &[String],
    ) -> RepoResult<Vec<String>>;
}

/// What the respondent page reads and keeps: the respondent behind a link token, and where it is in the survey.
pub trait RespondentPageRepository {
    /// The respondent whose survey link has this token, among the respondents of the account `route` names (of
    /// any account for [`LinkRoute::AnyAccount`], a token of the old form).
    fn find_by_token(&mut self, route: LinkRoute, token: &str) -> RepoResult<Option<TokenContext>>;
    /// The link token and respondent of a LOGIN sendout (of any account: the store finds the sendout's account
    /// first) whose login identifier has this key.
    fn find_login(&mut self, sendout: SendoutId, contact_key: &str) -> RepoResult<Option<(String, TokenContext)>>;
    /// The language and respondent count of the LOGIN sendout with this id (of any account), `None` when there
    /// is none.
    fn login_page(&mut self, sendout: SendoutId) -> RepoResult<Option<LoginPage>>;
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
    /// Marks that the respondent opted out through its own link at `now`; a respondent marked before keeps the
    /// first time (a sendout's statistics count the respondents opted out through its links).
    fn mark_opted_out(&mut self, account: AccountId, respondent: RespondentId, now: OffsetDateTime) -> RepoResult<()>;
    /// Sets the language the respondent sees the survey in (its choice among the survey's languages).
    fn set_respondent_language(
        &mut self,
        account: AccountId,
        respondent: RespondentId,
        language: crate::language::Language,
    ) -> RepoResult<()>;
    /// Stores the page an answer set was left on (`None` once completed).
    fn save_progress(&mut self, account: AccountId, answer_set: AnswerSetId, page: Option<PageId>) -> RepoResult<()>;
    /// The LINK sendout of the account whose open link has this handle, `None` when there is none (another
    /// type's sendouts have no handle). Its completed answer sets are counted only when it has a cap.
    fn find_open_link(&mut self, account: AccountId, handle: &str) -> RepoResult<Option<OpenLinkTarget>>;
    /// Adds an anonymous visitor to a LINK sendout: no contact details, its key [`visitor_key`] of `token`, its
    /// own link token `token`, `background` (its hidden fields), Released at `now`; the sendout counts one
    /// respondent more.
    ///
    /// [`visitor_key`]: crate::distribution::visitor_key
    fn insert_visitor(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        token: &str,
        background: &BackgroundData,
        now: OffsetDateTime,
    ) -> RepoResult<RespondentId>;
}
