//! Bodies of the insight endpoints: a sendout's statistics, a survey's results, and the results' query (the answer
//! list's filters and a sendout).

use canvass_domain::answer::AnswerFilter;
use canvass_domain::distribution::RespondentStatus;
use canvass_domain::insight::{
    Breakdown, DailyActivity, GroupKey, ItemFigures, ItemResult, Nps, NumericSummary, OptionCount, RatingSummary,
    ResultGroup, SendoutStatistics, StatusCounts, SurveyResults, MIN_GROUP_SIZE, RATINGS,
};
use canvass_domain::survey::QuestionType;
use canvass_domain::use_cases::insight::ResultsRequest;
use canvass_domain::FieldError;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::answer::{results_filter, AnswerFilterQuery};
use super::client_date::ClientDate;
use super::schemas::DateText;
use super::sendout::LanguageBody;

mod richer;

pub use richer::{DateItemResult, MatrixItemResult, RankedOptionBody, RankingItemResult, RowCountsBody};

/// Filters of `GET /surveys/{surveyId}/results`, its report and its charts: those of `GET
/// /surveys/{surveyId}/answers`, a sendout and a language.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ResultsFilterQuery {
    /// Created at or after (RFC 3339 or YYYY-MM-DD).
    #[param(value_type = Option<DateText>)]
    pub from: Option<ClientDate>,
    /// Created at or before (a date-only value includes that whole day).
    #[param(value_type = Option<DateText>)]
    pub to: Option<ClientDate>,
    /// Updated at or after; cannot be combined with from or to.
    #[param(value_type = Option<DateText>)]
    pub updated: Option<ClientDate>,
    /// true: completed sets only; false (default): no filter.
    pub completed: Option<bool>,
    /// The answer sets of this sendout's respondents only: a sendout of the survey (else 400).
    #[serde(rename = "sendoutId")]
    #[param(rename = "sendoutId")]
    pub sendout_id: Option<i64>,
    /// The answer sets last shown (or given) in this language only.
    pub language: Option<LanguageBody>,
    /// Answer conditions, all of which a set must meet: `<questionItemId>:<op>:<value>`, `op` one of `eq`, `ne`,
    /// `gt`, `lt`, `in` (values split by `|`); repeat the parameter for more (at most 20).
    #[serde(default, rename = "where")]
    #[param(rename = "where", style = Form, explode, max_items = 20,
        value_type = Option<Vec<super::schemas::ConditionText>>, example = json!(["12:eq:yes", "14:gt:6"]))]
    pub conditions: Vec<String>,
}

impl ResultsFilterQuery {
    /// The checked filter.
    pub fn into_domain(self) -> Result<AnswerFilter, Vec<FieldError>> {
        let filters = AnswerFilterQuery {
            from: self.from,
            to: self.to,
            updated: self.updated,
            completed: self.completed,
            conditions: self.conditions,
        };
        results_filter(filters, self.sendout_id, self.language)
    }
}

/// The breakdown of `GET /surveys/{surveyId}/results` and its report.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct BreakdownQuery {
    /// Groups the sets and answers each group's results beside the whole: by the answer to a SingleChoice,
    /// Dropdown or Rating item (its id), by a background data label of a sendout of the survey (`bg:<labelId>`), by
    /// `language` or by `sendout`.
    #[serde(rename = "breakdownBy")]
    #[param(
        rename = "breakdownBy",
        pattern = "^([1-9][0-9]*|bg:[1-9][0-9]*|language|sendout)$",
        max_length = 23,
        example = "bg:12"
    )]
    pub breakdown_by: Option<String>,
    /// The smallest group shown (default: the larger of 5 and the account's floor, `POST /accounts/settings`; a
    /// value under the floor is a 400); a smaller group shows only its key and label, `suppressed: true`.
    #[serde(rename = "minGroupSize")]
    #[param(rename = "minGroupSize", minimum = 1)]
    pub min_group_size: Option<i64>,
}

/// The checked request of a filter and a breakdown, every fault of both named.
pub fn results_request(
    filter: ResultsFilterQuery,
    breakdown: BreakdownQuery,
) -> Result<ResultsRequest, Vec<FieldError>> {
    let min_group_size = match breakdown.min_group_size {
        Some(size) if size < 1 => Err(vec![FieldError::new(MIN_GROUP_SIZE, "must be at least 1")]),
        size => Ok(size),
    };
    let breakdown = breakdown.breakdown_by.as_deref().map(Breakdown::parse).transpose().map_err(|error| vec![error]);
    match (filter.into_domain(), breakdown, min_group_size) {
        (Ok(filter), Ok(breakdown), Ok(min_group_size)) => Ok(ResultsRequest { filter, breakdown, min_group_size }),
        (filter, breakdown, size) => {
            Err([filter.err(), breakdown.err(), size.err()].into_iter().flatten().flatten().collect())
        }
    }
}

/// A sendout's respondents by status: every status, zeros included.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ByStatusBody {
    /// Added, waiting for an activation.
    #[schema(minimum = 0)]
    pub pending: i64,
    /// Released; the service sends at the send date.
    #[schema(minimum = 0)]
    pub scheduled: i64,
    /// Released with sendMail false: the caller distributes the link.
    #[schema(minimum = 0)]
    pub released: i64,
    /// Handed to the relay.
    #[schema(minimum = 0)]
    pub sent: i64,
    /// The address failed permanently.
    #[schema(minimum = 0)]
    pub bounced: i64,
    /// Sending failed after every retry.
    #[schema(minimum = 0)]
    pub failed: i64,
    /// Held back by the survey frequency limit.
    #[schema(minimum = 0)]
    pub frequency_limit_reached: i64,
    /// Opted out or blocked after being added.
    #[schema(minimum = 0)]
    pub blocklisted: i64,
    /// The sendout expired before sending.
    #[schema(minimum = 0)]
    pub expired: i64,
}

impl From<StatusCounts> for ByStatusBody {
    fn from(counts: StatusCounts) -> Self {
        let count = |status| counts.count(status);
        Self {
            pending: count(RespondentStatus::Pending),
            scheduled: count(RespondentStatus::Scheduled),
            released: count(RespondentStatus::Released),
            sent: count(RespondentStatus::Sent),
            bounced: count(RespondentStatus::Bounced),
            failed: count(RespondentStatus::Failed),
            frequency_limit_reached: count(RespondentStatus::FrequencyLimitReached),
            blocklisted: count(RespondentStatus::Blocklisted),
            expired: count(RespondentStatus::Expired),
        }
    }
}

/// One UTC day of a sendout.
#[derive(Debug, Serialize, ToSchema)]
pub struct DailyActivityBody {
    /// The day, YYYY-MM-DD (UTC).
    #[schema(format = Date)]
    pub date: String,
    /// Invitations handed over that day.
    #[schema(minimum = 0)]
    pub sent: i64,
    /// Reached respondents whose first answer set was created that day.
    #[schema(minimum = 0)]
    pub started: i64,
    /// Reached respondents who first completed that day.
    #[schema(minimum = 0)]
    pub completed: i64,
}

impl From<DailyActivity> for DailyActivityBody {
    fn from(day: DailyActivity) -> Self {
        Self { date: day.date.to_string(), sent: day.sent, started: day.started, completed: day.completed }
    }
}

/// A sendout's statistics.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SendoutStatisticsResponse {
    /// The sendout.
    pub sendout_id: i64,
    /// All its respondents.
    #[schema(minimum = 0)]
    pub respondents: i64,
    /// Its respondents by status, every status named.
    pub by_status: ByStatusBody,
    /// Respondents whose invitation was handed over (Sent) or whose link was given out (Released).
    #[schema(minimum = 0)]
    pub reached: i64,
    /// Reached respondents with at least one answer set.
    #[schema(minimum = 0)]
    pub started: i64,
    /// Reached respondents with at least one completed answer set.
    #[schema(minimum = 0)]
    pub completed: i64,
    /// Respondents who opted out through one of the sendout's links.
    #[schema(minimum = 0)]
    pub opted_out: i64,
    /// started / reached, rounded to 4 decimals; null when none was reached.
    #[schema(required = true, minimum = 0, maximum = 1)]
    pub response_rate: Option<f64>,
    /// completed / reached, rounded to 4 decimals; null when none was reached.
    #[schema(required = true, minimum = 0, maximum = 1)]
    pub completion_rate: Option<f64>,
    /// Median over completed respondents of the seconds from sentAt (addedAt when Released) to the first
    /// completion; null when none completed.
    #[schema(required = true)]
    pub median_seconds_to_complete: Option<f64>,
    /// One entry per UTC day from the first activation to today; empty when never activated.
    pub daily: Vec<DailyActivityBody>,
}

impl From<SendoutStatistics> for SendoutStatisticsResponse {
    fn from(statistics: SendoutStatistics) -> Self {
        Self {
            sendout_id: statistics.sendout_id.get(),
            respondents: statistics.respondents,
            by_status: statistics.by_status.into(),
            reached: statistics.reached,
            started: statistics.started,
            completed: statistics.completed,
            opted_out: statistics.opted_out,
            response_rate: statistics.response_rate,
            completion_rate: statistics.completion_rate,
            median_seconds_to_complete: statistics.median_seconds_to_complete,
            daily: statistics.daily.into_iter().map(DailyActivityBody::from).collect(),
        }
    }
}

/// An option of a choice item and how many answers chose it.
#[derive(Debug, Serialize, ToSchema)]
pub struct OptionCountBody {
    /// The option value.
    pub value: String,
    /// Its label.
    pub label: String,
    /// Answers that chose it.
    #[schema(minimum = 0)]
    pub count: i64,
}

impl From<OptionCount> for OptionCountBody {
    fn from(option: OptionCount) -> Self {
        Self { value: option.value, label: option.label, count: option.count }
    }
}

/// The Net Promoter Score of a Rating item.
#[derive(Debug, Serialize, ToSchema)]
pub struct NpsBody {
    /// Ratings of 9 and 10.
    #[schema(minimum = 0)]
    pub promoters: i64,
    /// Ratings of 7 and 8.
    #[schema(minimum = 0)]
    pub passives: i64,
    /// Ratings of 0 to 6.
    #[schema(minimum = 0)]
    pub detractors: i64,
    /// round(100 × (promoters − detractors) / count), halves away from zero; null when count is 0.
    #[schema(required = true, minimum = -100, maximum = 100)]
    pub score: Option<i64>,
}

impl From<Nps> for NpsBody {
    fn from(nps: Nps) -> Self {
        Self { promoters: nps.promoters, passives: nps.passives, detractors: nps.detractors, score: nps.score }
    }
}

/// A SingleChoice or MultipleChoice item's results.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChoiceItemResult {
    /// The item.
    pub question_item_id: i64,
    /// Its text.
    pub text: String,
    /// Matching answer sets that answered it.
    #[schema(minimum = 0)]
    pub answered: i64,
    /// Every option in the item's order, zeros included (a MultipleChoice answer counts each option it chose).
    pub options: Vec<OptionCountBody>,
}

/// A Numeric item's results; the figures are null when count is 0.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NumericItemResult {
    /// The item.
    pub question_item_id: i64,
    /// Its text.
    pub text: String,
    /// Matching answer sets that answered it.
    #[schema(minimum = 0)]
    pub answered: i64,
    /// Numbers answered.
    #[schema(minimum = 0)]
    pub count: i64,
    /// Their mean.
    #[schema(required = true)]
    pub mean: Option<f64>,
    /// Their median (the mean of the two middle values for an even count).
    #[schema(required = true)]
    pub median: Option<f64>,
    /// The lowest.
    #[schema(required = true)]
    pub min: Option<f64>,
    /// The highest.
    #[schema(required = true)]
    pub max: Option<f64>,
}

/// A Rating item's results.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RatingItemResult {
    /// The item.
    pub question_item_id: i64,
    /// Its text.
    pub text: String,
    /// Matching answer sets that answered it.
    #[schema(minimum = 0)]
    pub answered: i64,
    /// Ratings given.
    #[schema(minimum = 0)]
    pub count: i64,
    /// Their mean; null when count is 0.
    #[schema(required = true, minimum = 0, maximum = 10)]
    pub mean: Option<f64>,
    /// How many of each rating, 0 to 10.
    #[schema(min_items = 11, max_items = 11)]
    pub distribution: [i64; RATINGS],
    /// The Net Promoter Score.
    pub nps: NpsBody,
}

/// One of an OpenText item's top words.
#[derive(Debug, Serialize, ToSchema)]
pub struct WordCountBody {
    /// The word, lower-cased.
    #[schema(min_length = 2)]
    pub word: String,
    /// Answers that hold it.
    #[schema(minimum = 1)]
    pub count: i64,
}

/// An OpenText item's results.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OpenTextItemResult {
    /// The item.
    pub question_item_id: i64,
    /// Its text.
    pub text: String,
    /// Matching answer sets that answered it.
    #[schema(minimum = 0)]
    pub answered: i64,
    /// Texts answered.
    #[schema(minimum = 0)]
    pub count: i64,
    /// The 25 words found in the most answers (each answer counts a word once), most first, ties by word: runs of
    /// letters and digits of two characters or more, lower-cased, not stemmed, without the stop words of the
    /// survey's languages.
    #[schema(max_items = 25)]
    pub top_words: Vec<WordCountBody>,
}

/// An Info item, which takes no answer.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InfoItemResult {
    /// The item.
    pub question_item_id: i64,
    /// Its text.
    pub text: String,
}

/// One item's results, by its `type` (the variants in the order of the question types).
#[derive(Debug, Serialize, ToSchema)]
#[serde(tag = "type")]
pub enum ItemResultBody {
    /// A SingleChoice item.
    SingleChoice(ChoiceItemResult),
    /// A MultipleChoice item.
    MultipleChoice(ChoiceItemResult),
    /// An OpenText item.
    OpenText(OpenTextItemResult),
    /// A Numeric item.
    Numeric(NumericItemResult),
    /// A Rating item.
    Rating(RatingItemResult),
    /// An Info item.
    Info(InfoItemResult),
    /// A Dropdown item.
    Dropdown(ChoiceItemResult),
    /// A Date item.
    Date(DateItemResult),
    /// A Matrix item.
    Matrix(MatrixItemResult),
    /// A Ranking item.
    Ranking(RankingItemResult),
}

impl From<ItemResult> for ItemResultBody {
    fn from(item: ItemResult) -> Self {
        let (question_item_id, text) = (item.question_item_id.get(), item.text);
        match item.figures {
            ItemFigures::Choices { answered, options } => {
                let options = options.into_iter().map(OptionCountBody::from).collect();
                let result = ChoiceItemResult { question_item_id, text, answered, options };
                match item.kind {
                    QuestionType::MultipleChoice => Self::MultipleChoice(result),
                    QuestionType::Dropdown => Self::Dropdown(result),
                    _ => Self::SingleChoice(result),
                }
            }
            ItemFigures::Date { answered, count, min, max } => {
                Self::Date(DateItemResult { question_item_id, text, answered, count, min, max })
            }
            ItemFigures::Matrix { answered, rows } => {
                let rows = rows.into_iter().map(Into::into).collect();
                Self::Matrix(MatrixItemResult { question_item_id, text, answered, rows })
            }
            ItemFigures::Ranking { answered, options } => {
                let options = options.into_iter().map(Into::into).collect();
                Self::Ranking(RankingItemResult { question_item_id, text, answered, options })
            }
            ItemFigures::Numeric { answered, summary } => {
                let NumericSummary { count, mean, median, min, max } = summary;
                Self::Numeric(NumericItemResult { question_item_id, text, answered, count, mean, median, min, max })
            }
            ItemFigures::Rating { answered, summary } => {
                let RatingSummary { count, mean, distribution, nps } = summary;
                let nps = nps.into();
                Self::Rating(RatingItemResult { question_item_id, text, answered, count, mean, distribution, nps })
            }
            ItemFigures::OpenText { answered, top_words } => {
                let top_words = top_words.into_iter().map(|w| WordCountBody { word: w.word, count: w.count }).collect();
                Self::OpenText(OpenTextItemResult { question_item_id, text, answered, count: answered, top_words })
            }
            ItemFigures::Info => Self::Info(InfoItemResult { question_item_id, text }),
        }
    }
}

/// A survey's results over the answer sets that pass the filters.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SurveyResultsResponse {
    /// The survey.
    pub survey_id: i64,
    /// How many answer sets pass the filters.
    #[schema(minimum = 0)]
    pub answer_sets: i64,
    /// One entry per question item, in tree order.
    pub items: Vec<ItemResultBody>,
    /// With `breakdownBy`: each group of sets that holds at least one, in key order (text keys as text, number
    /// keys as numbers), the group with no value last.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub groups: Option<Vec<ResultGroupBody>>,
}

impl From<SurveyResults> for SurveyResultsResponse {
    fn from(results: SurveyResults) -> Self {
        Self {
            survey_id: results.survey_id.get(),
            answer_sets: results.answer_sets,
            items: results.items.into_iter().map(ItemResultBody::from).collect(),
            groups: results.groups.map(|groups| groups.into_iter().map(ResultGroupBody::from).collect()),
        }
    }
}

/// A group's key: an option value, background data value or language code (text), a rating or sendout id
/// (number); null for the sets with no value.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum GroupKeyBody {
    /// Text.
    Text(String),
    /// A whole number.
    Number(i64),
}

/// One group of a breakdown: its figures as the whole survey's, or only its key and label when it holds fewer
/// sets than `minGroupSize` (`suppressed`).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResultGroupBody {
    /// The key; null for the sets with no value.
    #[schema(required = true)]
    pub key: Option<GroupKeyBody>,
    /// What people call it: the option's label, the language's own name, the sendout's name, the value itself.
    #[schema(required = true)]
    pub label: Option<String>,
    /// Whether the group holds fewer sets than `minGroupSize`; it then has no `answerSets` and no `items`.
    pub suppressed: bool,
    /// How many answer sets it holds.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1)]
    pub answer_sets: Option<i64>,
    /// One entry per question item, in tree order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub items: Option<Vec<ItemResultBody>>,
}

impl From<ResultGroup> for ResultGroupBody {
    fn from(group: ResultGroup) -> Self {
        let key = group.key.map(|key| match key {
            GroupKey::Text(text) => GroupKeyBody::Text(text),
            GroupKey::Number(number) => GroupKeyBody::Number(number),
        });
        let (answer_sets, items) = match group.results {
            Some(results) => {
                (Some(results.answer_sets), Some(results.items.into_iter().map(ItemResultBody::from).collect()))
            }
            None => (None, None),
        };
        Self { key, label: group.label, suppressed: answer_sets.is_none(), answer_sets, items }
    }
}

#[cfg(test)]
mod tests;
