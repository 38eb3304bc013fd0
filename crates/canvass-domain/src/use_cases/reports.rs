//! A survey's report and one item's chart: its results (with the same filters and breakdown) and what only a
//! report shows, each sendout's funnel, each Numeric item's histogram and a few of each OpenText item's texts.
//! A few aggregate reads of the store, none per item or per group: the histograms count the numbers the results
//! read, the texts are those the top words read.

use time::OffsetDateTime;

use super::insight::{survey_and_results, ResultsRequest};
use crate::clock::Clock;
use crate::error::{DomainError, Resource};
use crate::ids::{AccountId, QuestionItemId, SurveyId};
use crate::insight::{
    BinLayout, Histogram, ItemFigures, ItemResult, NumberCount, QuotedTexts, SendoutFunnel, SurveyResults,
};
use crate::ports::{AccountRepository, InsightRepository, SendoutRepository, SurveyRepository};
use crate::survey::Survey;

/// Everything a survey's report shows.
#[derive(Debug, Clone, PartialEq)]
pub struct SurveyReport {
    /// The survey.
    pub survey: Survey,
    /// What was asked: the filter, the breakdown and the smallest group shown.
    pub request: ResultsRequest,
    /// The sendout the filter names, with its name.
    pub sendout_name: Option<String>,
    /// The results.
    pub results: SurveyResults,
    /// Each sendout's funnel, in id order.
    pub funnels: Vec<SendoutFunnel>,
    /// Each Numeric item's histogram, of the items with a number.
    pub histograms: Vec<Histogram>,
    /// A few texts of each OpenText item with one.
    pub texts: Vec<QuotedTexts>,
    /// When it was made.
    pub generated_at: OffsetDateTime,
}

impl SurveyReport {
    /// The histogram of the item, if it has one.
    pub fn histogram(&self, item: QuestionItemId) -> Option<&Histogram> {
        self.histograms.iter().find(|histogram| histogram.layout.item == item)
    }

    /// The quoted texts of the item (none when it has none).
    pub fn texts_of(&self, item: QuestionItemId) -> &[String] {
        self.texts.iter().find(|texts| texts.item == item).map_or(&[], |texts| &texts.texts)
    }
}

/// One item's results and, for a Numeric item, its histogram: what its chart draws.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemChart {
    /// The survey's name.
    pub survey_name: String,
    /// The item's results.
    pub item: ItemResult,
    /// Its histogram, for a Numeric item with a number.
    pub histogram: Option<Histogram>,
}

/// The report of the survey's answer sets that pass the request's filter, with its breakdown: checked as
/// [`super::insight::survey_results`] checks it.
pub fn survey_report(
    uow: &mut (impl AccountRepository + InsightRepository + SendoutRepository + SurveyRepository + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    survey: SurveyId,
    request: &ResultsRequest,
) -> Result<SurveyReport, DomainError> {
    let analysed = survey_and_results(uow, account, survey, request, None)?;
    let funnels = uow.sendout_funnels(account, survey)?;
    let sendout_name = request
        .filter
        .sendout_id
        .and_then(|sendout| funnels.iter().find(|funnel| funnel.sendout == sendout))
        .map(|funnel| funnel.name.clone());
    let histograms = histograms(&analysed.results.items, &analysed.numbers);
    Ok(SurveyReport {
        survey: analysed.survey,
        request: request.clone(),
        sendout_name,
        results: analysed.results,
        funnels,
        histograms,
        texts: analysed.quoted,
        generated_at: clock.now(),
    })
}

/// The chart of one item of the survey over the answer sets that pass the filter. An item the survey does not
/// have is `NotFound(Resource::QuestionItem)`; an Info or Date item, which has no chart, is invalid, naming
/// `questionItemId`.
pub fn item_chart(
    uow: &mut (impl AccountRepository + InsightRepository + SendoutRepository + SurveyRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
    item: QuestionItemId,
    request: &ResultsRequest,
) -> Result<ItemChart, DomainError> {
    let analysed = survey_and_results(uow, account, survey, request, Some(item))?;
    let Some(result) = analysed.results.items.into_iter().find(|result| result.question_item_id == item) else {
        return Err(DomainError::NotFound(Resource::QuestionItem));
    };
    if matches!(result.figures, ItemFigures::Info | ItemFigures::Date { .. }) {
        let message = format!("item {item} is a {} item, which has no chart", result.kind.as_str());
        return Err(DomainError::invalid("questionItemId", message));
    }
    let histogram = histograms(std::slice::from_ref(&result), &analysed.numbers).pop();
    Ok(ItemChart { survey_name: analysed.survey.name, item: result, histogram })
}

/// The histograms of the Numeric items among `items` that have a number, from the numbers answered to them.
fn histograms(items: &[ItemResult], numbers: &[NumberCount]) -> Vec<Histogram> {
    items
        .iter()
        .filter_map(|item| match item.figures {
            ItemFigures::Numeric { summary, .. } => {
                Some(BinLayout::of(item.question_item_id, summary.min?, summary.max?))
            }
            _ => None,
        })
        .map(|layout| {
            let of_item = numbers.iter().filter(|given| given.item == layout.item);
            Histogram::of(layout, of_item.map(|given| (layout.bin_of(given.number), given.count)))
        })
        .collect()
}
