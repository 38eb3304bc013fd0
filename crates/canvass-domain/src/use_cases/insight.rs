//! Insight: a sendout's statistics and a survey's results, each a few aggregate reads of the store (no
//! transaction: like every read, its statements are not one snapshot).

use std::collections::HashMap;

use time::UtcOffset;

use super::{answers, surveys};
use crate::answer::{check_conditions, AnswerFilter};
use crate::clock::Clock;
use crate::error::{DomainError, Resource};
use crate::ids::{AccountId, QuestionItemId, SendoutId, SurveyId};
use crate::insight::{
    assemble_groups, item_label, language_label, stop_words, Breakdown, ItemTally, NumberCount, NumericSummary,
    QuotedTexts, SendoutStatistics, SurveyResults, TallyGroup, TextTallies, BREAKDOWN_BY, DEFAULT_MIN_GROUP_SIZE,
    QUOTED_TEXTS,
};
use crate::language::Language;
use crate::ports::{AccountRepository, InsightRepository, SendoutRepository, SurveyRepository};
use crate::survey::{QuestionType, Survey};

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

/// What results are asked for: the answer sets that pass the filter, and optionally their breakdown into groups with
/// the smallest group shown (the account's default when not given).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ResultsRequest {
    /// Which sets count.
    pub filter: AnswerFilter,
    /// How the sets are grouped, if they are.
    pub breakdown: Option<Breakdown>,
    /// The smallest group shown, if the query names one.
    pub min_group_size: Option<i64>,
}

/// The survey's results over its answer sets that pass the filter, one entry per item of its tree in tree order,
/// and with a breakdown the same per group of sets. An unknown survey is `NotFound`; a filter's sendout that is not
/// one of the survey's is invalid, naming `sendoutId`; a condition that does not fit the tree names `where`; a
/// breakdown by an item that groups no answers or a label of none of the survey's sendouts names `breakdownBy`; a
/// smallest group under the account's floor names `minGroupSize`.
pub fn survey_results(
    uow: &mut (impl AccountRepository + InsightRepository + SendoutRepository + SurveyRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
    request: &ResultsRequest,
) -> Result<SurveyResults, DomainError> {
    Ok(survey_and_results(uow, account, survey, request, None)?.results)
}

/// A survey's results with what a report draws beside them.
pub(super) struct Analysed {
    /// The survey.
    pub survey: Survey,
    /// Its results.
    pub results: SurveyResults,
    /// The numbers answered to its Numeric items in the whole, in number order per item.
    pub numbers: Vec<NumberCount>,
    /// The latest few texts of its OpenText items in the whole ([`QUOTED_TEXTS`] per item, items in id order).
    pub quoted: Vec<QuotedTexts>,
}

/// The survey and its results ([`survey_results`]), of its one item `only` when given (checked against the whole
/// tree; an item the tree does not have gives no item).
pub(super) fn survey_and_results(
    uow: &mut (impl AccountRepository + InsightRepository + SendoutRepository + SurveyRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
    request: &ResultsRequest,
    only: Option<QuestionItemId>,
) -> Result<Analysed, DomainError> {
    let filter = &request.filter;
    let (found, whole_tree) = surveys::get_with_tree(uow, account, survey)?;
    let tree = &whole_tree;
    answers::check_filter_sendout(uow, account, survey, filter)?;
    check_conditions(tree, &filter.conditions).map_err(|error| DomainError::Invalid(vec![error]))?;
    if let Some(breakdown) = request.breakdown {
        breakdown.check(tree).map_err(|error| DomainError::Invalid(vec![error]))?;
        if let Breakdown::Label(label) = breakdown {
            if !uow.survey_has_label(account, survey, label)? {
                let message = format!("{label} is not a background data label of a sendout of survey {survey}");
                return Err(DomainError::invalid(BREAKDOWN_BY, message));
            }
        }
    }
    let min_group_size = match (request.breakdown, request.min_group_size) {
        (None, None) => DEFAULT_MIN_GROUP_SIZE,
        (_, asked) => {
            let settings = uow.account_settings(account)?;
            settings.min_group_size(asked).map_err(|error| DomainError::Invalid(vec![error]))?
        }
    };
    let narrowed = only.map(|item| whole_tree.narrowed_to(item));
    let tree = narrowed.as_ref().unwrap_or(&whole_tree);
    let mut tallies = uow.result_tallies(account, tree, filter, request.breakdown)?;
    let mut quoted = Vec::new();
    if !tallies.is_empty() && tree.items().any(|item| item.kind == QuestionType::OpenText) {
        // The stop words of the survey's own language and of every language it is translated into.
        let (translated, _) = uow.page_translation(account, survey, found.language, Some(&[]))?;
        let languages: Vec<Language> = std::iter::once(found.language).chain(translated).collect();
        let stop = stop_words(&languages);
        let mut texts = TextTallies::new(&stop, QUOTED_TEXTS);
        uow.open_texts(account, tree, filter, request.breakdown, &mut |group, item, set, text| {
            texts.add(group, item, set, text);
        })?;
        let figures = texts.finish();
        quoted = figures.quoted;
        // Each group found by its key: a breakdown by a background label may have thousands.
        let at: HashMap<TallyGroup, usize> =
            tallies.iter().enumerate().map(|(at, (group, _))| (group.clone(), at)).collect();
        for (group, item, answered) in figures.answered {
            if let Some(&at) = at.get(&group) {
                tallies[at].1.items.push(ItemTally { item, answered, numbers: NumericSummary::default() });
            }
        }
        for (group, word) in figures.words {
            if let Some(&at) = at.get(&group) {
                tallies[at].1.words.push(word);
            }
        }
    }
    let whole = tallies.iter().position(|(group, _)| *group == TallyGroup::Whole);
    let mut whole_tallies = whole.map(|at| tallies.swap_remove(at).1).unwrap_or_default();
    let numbers = std::mem::take(&mut whole_tallies.numbers);
    let mut results = SurveyResults::assemble(tree, whole_tallies);
    if let Some(breakdown) = request.breakdown {
        let groups = tallies
            .into_iter()
            .filter_map(|(group, tallies)| match group {
                TallyGroup::Key(key) => Some((key, tallies)),
                TallyGroup::Whole => None,
            })
            .collect();
        let names = group_names(uow, account, survey, breakdown)?;
        let label_of = |key: &str| match breakdown {
            Breakdown::Item(item) => item_label(tree, item, key),
            Breakdown::Label(_) => Some(key.to_owned()),
            Breakdown::Language => language_label(key),
            Breakdown::Sendout => {
                names.iter().find(|(id, _)| id.get().to_string() == key).map(|(_, name)| name.clone())
            }
        };
        results.groups = Some(assemble_groups(tree, breakdown, groups, &label_of, min_group_size));
    }
    Ok(Analysed { survey: found, results, numbers, quoted })
}

/// The survey's sendouts' names, for a breakdown by sendout (none for any other).
fn group_names(
    uow: &mut (impl SendoutRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
    breakdown: Breakdown,
) -> Result<Vec<(SendoutId, String)>, DomainError> {
    if breakdown != Breakdown::Sendout {
        return Ok(Vec::new());
    }
    let sendouts = uow.list_sendouts(account, survey)?.unwrap_or_default();
    Ok(sendouts.into_iter().map(|sendout| (sendout.id, sendout.name)).collect())
}
