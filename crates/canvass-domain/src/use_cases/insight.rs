//! Insight: a sendout's statistics and a survey's results, each a few aggregate reads of the store (no
//! transaction: like every read, its statements are not one snapshot).

use time::UtcOffset;

use super::{answers, surveys};
use crate::answer::AnswerFilter;
use crate::clock::Clock;
use crate::error::{DomainError, Resource};
use crate::ids::{AccountId, SendoutId, SurveyId};
use crate::insight::{stop_words, SendoutStatistics, SurveyResults};
use crate::language::Language;
use crate::ports::{InsightRepository, SendoutRepository, SurveyRepository};
use crate::survey::QuestionType;

/// The statistics of a sendout of the survey, its daily series up to the clock's UTC day. An unknown survey is
/// `NotFound(Resource::Survey)`, a sendout the survey does not have `NotFound(Resource::Sendout)` (another
/// account's ids alike).
pub fn sendout_statistics(
    uow: &mut (impl InsightRepository + SendoutRepository + SurveyRepository + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    survey: SurveyId,
    sendout: SendoutId,
) -> Result<SendoutStatistics, DomainError> {
    // One read finds the sendout of the survey; only when it is missing does a second say which of the two is.
    if uow.sendout_kind(account, survey, sendout)?.is_none() {
        surveys::get(uow, account, survey)?;
        return Err(DomainError::NotFound(Resource::Sendout));
    }
    let today = clock.now().to_offset(UtcOffset::UTC).date();
    let figures = uow.sendout_figures(account, sendout, today)?;
    Ok(SendoutStatistics::new(sendout, figures))
}

/// The survey's results over its answer sets that pass the filter, one entry per item of its tree in tree order.
/// An unknown survey is `NotFound`; a filter's sendout that is not one of the survey's is invalid, naming
/// `sendoutId`.
pub fn survey_results(
    uow: &mut (impl InsightRepository + SendoutRepository + SurveyRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
    filter: &AnswerFilter,
) -> Result<SurveyResults, DomainError> {
    let (found, tree) = surveys::get_with_tree(uow, account, survey)?;
    answers::check_filter_sendout(uow, account, survey, filter)?;
    let mut tallies = uow.result_tallies(account, &tree, filter)?;
    if tallies.answer_sets > 0 && tree.items().any(|item| item.kind == QuestionType::OpenText) {
        // The stop words of the survey's own language and of every language it is translated into.
        let (translated, _) = uow.page_translation(account, survey, found.language, Some(&[]))?;
        let languages: Vec<Language> = std::iter::once(found.language).chain(translated).collect();
        tallies.words = uow.word_tallies(account, &tree, filter, &stop_words(&languages))?;
    }
    Ok(SurveyResults::assemble(&tree, tallies))
}
