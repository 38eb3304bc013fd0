//! The port of insight: the figures of a sendout's statistics and the tallies of a survey's results, each computed
//! by the store over any number of rows (no row per respondent or per answer set comes back).
//!
//! Every method is scoped by the caller's `AccountId`; the rules every adapter follows are in [`crate::ports`].

use time::Date;

use super::{Breakdown, ResultTallies, SendoutFigures, SendoutFunnel, TallyGroup};
use crate::answer::AnswerFilter;
use crate::ids::{AccountId, AnswerSetId, LabelId, QuestionItemId, SendoutId, SurveyId};
use crate::ports::RepoResult;
use crate::survey::QuestionTree;

/// What [`InsightRepository::open_texts`] hands each answer to: its group, item, set and text.
pub type OpenTextVisit<'visit> = dyn FnMut(&TallyGroup, QuestionItemId, AnswerSetId, Option<&str>) + 'visit;

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
    /// group with no set is left out, the whole too when no set passes. The answers to OpenText items are left out:
    /// [`Self::open_texts`] hands them over. The values are read by [`super::ValueTallies`].
    fn result_tallies(
        &mut self,
        account: AccountId,
        tree: &QuestionTree,
        filter: &AnswerFilter,
        breakdown: Option<Breakdown>,
    ) -> RepoResult<Vec<(TallyGroup, ResultTallies)>>;

    /// Whether the label is a background data label of a sendout of the survey.
    fn survey_has_label(&mut self, account: AccountId, survey: SurveyId, label: LabelId) -> RepoResult<bool>;

    /// Each answer to the tree's OpenText items in the answer sets of its survey that pass the filter, handed to
    /// `visit` with its item, set and text (`None` for a stored value that is not a text): once in the whole
    /// ([`TallyGroup::Whole`]) and, with a breakdown, once more in the set's group. In any order, and read as they
    /// come: the store does not gather them first.
    fn open_texts(
        &mut self,
        account: AccountId,
        tree: &QuestionTree,
        filter: &AnswerFilter,
        breakdown: Option<Breakdown>,
        visit: &mut OpenTextVisit<'_>,
    ) -> RepoResult<()>;

    /// Each sendout of the survey, in id order, with its funnel (zeros for one with no respondent).
    fn sendout_funnels(&mut self, account: AccountId, survey: SurveyId) -> RepoResult<Vec<SendoutFunnel>>;
}
