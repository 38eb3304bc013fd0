//! The port of insight: the figures of a sendout's statistics and the tallies of a survey's results, each computed
//! by the store over any number of rows (no row per respondent or per answer set comes back).
//!
//! Every method is scoped by the caller's `AccountId`; the rules every adapter follows are in [`crate::ports`].

use time::Date;

use super::{BinLayout, Breakdown, QuotedTexts, ResultTallies, SendoutFigures, SendoutFunnel, TallyGroup, WordTally};
use crate::answer::AnswerFilter;
use crate::ids::{AccountId, LabelId, QuestionItemId, SendoutId, SurveyId};
use crate::ports::RepoResult;
use crate::survey::QuestionTree;

/// Statistics and results.
pub trait InsightRepository {
    /// The figures of the sendout's statistics, its daily series running from the UTC day of its first activation
    /// to `today` (empty when it was never activated, or first activated after `today`). A sendout the account does
    /// not have answers empty figures: callers check the sendout first.
    ///
    /// The first activation is the earlier of the sendout's `activated_at` (its last activation) and the earliest
    /// release of its respondents (an activation stamps the respondents it releases).
    fn sendout_figures(&mut self, account: AccountId, sendout: SendoutId, today: Date) -> RepoResult<SendoutFigures>;

    /// The tallies of the tree's items over the answer sets of its survey that pass the filter (the same sets the
    /// answer lists return for it, narrowed to `filter.sendout_id` when given), all together ([`TallyGroup::Whole`])
    /// and, with a breakdown, per group of sets with the same key (its value as text; a number as its digits). A
    /// group with no set is left out, the whole too when no set passes. The tree says which items are choice,
    /// numeric and rating items and which options each choice item has: only those are tallied by value.
    fn result_tallies(
        &mut self,
        account: AccountId,
        tree: &QuestionTree,
        filter: &AnswerFilter,
        breakdown: Option<Breakdown>,
    ) -> RepoResult<Vec<(TallyGroup, ResultTallies)>>;

    /// Whether the label is a background data label of a sendout of the survey.
    fn survey_has_label(&mut self, account: AccountId, survey: SurveyId, label: LabelId) -> RepoResult<bool>;

    /// Per OpenText item of the tree, the words found in the most answers of the sets that pass the filter (each
    /// answer counting a word once; words as [`super::words_of`] reads them), leaving out `stop_words` (sorted): at least the
    /// item's top [`super::TOP_WORDS`] with their counts, in the whole and in each group of the breakdown.
    fn word_tallies(
        &mut self,
        account: AccountId,
        tree: &QuestionTree,
        filter: &AnswerFilter,
        breakdown: Option<Breakdown>,
        stop_words: &[String],
    ) -> RepoResult<Vec<(TallyGroup, WordTally)>>;

    /// Each sendout of the survey, in id order, with its funnel (zeros for one with no respondent).
    fn sendout_funnels(&mut self, account: AccountId, survey: SurveyId) -> RepoResult<Vec<SendoutFunnel>>;

    /// Per layout, how many numbers answered to its item in the sets of the survey that pass the filter fall in
    /// each of its bins ([`BinLayout::bin_of`]): `(item, bin, count)`, bins without a number left out.
    fn numeric_bins(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        filter: &AnswerFilter,
        layouts: &[BinLayout],
    ) -> RepoResult<Vec<(QuestionItemId, u32, i64)>>;

    /// Per item (in any order), its `per_item` texts that are not empty from the latest answer sets (by id) of
    /// the survey that pass the filter, the latest first; items without a text left out.
    fn quoted_texts(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        filter: &AnswerFilter,
        items: &[QuestionItemId],
        per_item: u32,
    ) -> RepoResult<Vec<QuotedTexts>>;
}
