//! Bodies of the answer endpoints: answer sets, answers, pages of answer sets and the date filters.

use canvass_domain::answer::{Answer, AnswerCondition, AnswerFilter, AnswerSet, MAX_CONDITIONS, WHERE};
use canvass_domain::ids::{QuestionItemId, RespondentId, SendoutId};
use canvass_domain::language::Language;
use canvass_domain::paging::Page;
use canvass_domain::timestamp::DayEdge;
use canvass_domain::FieldError;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::{IntoParams, ToSchema};

use super::schemas::{AnswerValueSchema, DateText};

use super::answer_value::AnswerValueBody;
use super::client_date::{instant, ClientDate};
use super::sendout::LanguageBody;

/// One answer: a string (OpenText, SingleChoice), an array of option values (MultipleChoice) or a number
/// (Numeric, Rating).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AnswerBody {
    /// The item answered.
    pub question_item_id: i64,
    /// The answer.
    #[schema(value_type = AnswerValueSchema)]
    pub value: AnswerValueBody,
}

impl From<Answer> for AnswerBody {
    fn from(answer: Answer) -> Self {
        Self { question_item_id: answer.question_item_id.get(), value: AnswerValueBody(answer.value) }
    }
}

impl From<AnswerBody> for Answer {
    fn from(body: AnswerBody) -> Self {
        Self { question_item_id: QuestionItemId::new(body.question_item_id), value: body.value.0 }
    }
}

/// Records or replaces an answer set.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AnswerSetBody {
    /// A respondent of a sendout of this survey (ignored on replace).
    #[serde(default)]
    pub respondent_id: Option<i64>,
    /// Whether the respondent finished (default false); a completed set answers every required item.
    #[serde(default)]
    pub completed: bool,
    /// The answers, at most one per item.
    #[serde(default)]
    pub answers: Vec<AnswerBody>,
    /// The language the answers were given in, if known (the set records it; absent or null: none).
    #[serde(default)]
    pub language: Option<LanguageBody>,
}

/// An answer set; `answers` is present where the endpoint returns answers.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AnswerSetResponse {
    /// The set's id.
    pub answer_set_id: i64,
    /// The survey.
    pub survey_id: i64,
    /// The respondent; null for anonymous sets and once distribution data is removed.
    pub respondent_id: Option<i64>,
    /// The sendout the respondent came through.
    pub sendout_id: Option<i64>,
    /// When it was created.
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// When its answers last changed.
    #[serde(with = "time::serde::rfc3339")]
    pub updated_at: OffsetDateTime,
    /// Whether the respondent finished.
    pub completed: bool,
    /// Whether a full `endSurvey` quota ended it (it is then not completed).
    pub quota_full: bool,
    /// The orders its respondent was shown randomized pages and options in, kept when its first page was saved
    /// (empty for a set recorded through the API, or of a survey that randomizes nothing).
    pub shown_order: ShownOrderBody,
    /// The language its last page was shown in (through the API: the one its body named); null when none was.
    #[schema(required = true)]
    pub language: Option<LanguageBody>,
    /// The answers, in question tree order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answers: Option<Vec<AnswerBody>>,
}

/// The orders a respondent was shown: `items` maps each randomized item's id to its option values in the order
/// shown, `pages` each randomized page's id to its item ids in the order shown.
#[derive(Debug, Serialize, ToSchema)]
pub struct ShownOrderBody {
    /// Option values by item id, in the order shown.
    pub items: std::collections::BTreeMap<String, Vec<String>>,
    /// Item ids by page id, in the order shown.
    pub pages: std::collections::BTreeMap<String, Vec<i64>>,
}

impl From<&canvass_domain::survey::ShownOrder> for ShownOrderBody {
    fn from(order: &canvass_domain::survey::ShownOrder) -> Self {
        Self {
            items: order.items.iter().map(|(id, values)| (id.get().to_string(), values.clone())).collect(),
            pages: order
                .pages
                .iter()
                .map(|(id, items)| (id.get().to_string(), items.iter().map(|i| i.get()).collect()))
                .collect(),
        }
    }
}

impl AnswerSetResponse {
    /// The set with its answers.
    pub fn with_answers(set: AnswerSet) -> Self {
        let answers = set.answers.iter().cloned().map(AnswerBody::from).collect();
        Self { answers: Some(answers), ..Self::without_answers(set) }
    }

    /// The set alone.
    pub fn without_answers(set: AnswerSet) -> Self {
        Self {
            answer_set_id: set.id.get(),
            survey_id: set.survey_id.get(),
            respondent_id: set.respondent_id.map(RespondentId::get),
            sendout_id: set.sendout_id.map(SendoutId::get),
            created_at: set.created_at,
            updated_at: set.updated_at,
            completed: set.completed,
            quota_full: set.quota_full,
            shown_order: ShownOrderBody::from(&set.shown_order),
            language: set.language.map(LanguageBody::from),
            answers: None,
        }
    }
}

/// A page of answer sets with their answers.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AnswerSetPageResponse {
    /// The page number, from 1.
    pub page_number: i64,
    /// The page size.
    pub page_size: i64,
    /// How many pages of this size the list fills.
    pub page_count: i64,
    /// How many answer sets pass the filters.
    pub total_count: i64,
    /// The page's answer sets; empty past the end.
    pub answer_sets: Vec<AnswerSetResponse>,
}

impl From<Page<AnswerSet>> for AnswerSetPageResponse {
    fn from(page: Page<AnswerSet>) -> Self {
        Self {
            page_number: page.request.number(),
            page_size: page.request.size(),
            page_count: page.page_count(),
            total_count: page.total_count,
            answer_sets: page.items.into_iter().map(AnswerSetResponse::with_answers).collect(),
        }
    }
}

/// Filters of `GET /surveys/{surveyId}/answers` and `answersWithData`: dates, completion and answer conditions.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AnswerFilterQuery {
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
    /// Answer conditions, all of which a set must meet: `<questionItemId>:<op>:<value>`, `op` one of `eq`, `ne`,
    /// `gt`, `lt`, `in` (values split by `|`); repeat the parameter for more (at most 20).
    #[serde(default, rename = "where")]
    #[param(rename = "where", style = Form, explode, max_items = 20,
        value_type = Option<Vec<super::schemas::ConditionText>>, example = json!(["12:eq:yes", "14:gt:6"]))]
    pub conditions: Vec<String>,
}

impl AnswerFilterQuery {
    /// The checked filter.
    pub fn into_domain(self) -> Result<AnswerFilter, Vec<FieldError>> {
        let (from, to) = (instant(self.from, DayEdge::Start), instant(self.to, DayEdge::End));
        let updated = instant(self.updated, DayEdge::Start);
        let conditions = conditions(&self.conditions)?;
        let filter = AnswerFilter::new(from, to, updated, self.completed.unwrap_or(false)).map_err(|e| vec![e])?;
        Ok(filter.meeting(conditions))
    }
}

/// The answer conditions of `where`, read (their items are checked against the survey by the use case).
pub fn conditions(texts: &[String]) -> Result<Vec<AnswerCondition>, Vec<FieldError>> {
    if texts.len() > MAX_CONDITIONS {
        return Err(vec![FieldError::new(WHERE, format!("at most {MAX_CONDITIONS} conditions"))]);
    }
    texts.iter().map(|text| AnswerCondition::parse(text)).collect::<Result<_, _>>().map_err(|error| vec![error])
}

/// The checked filter of results and exports: the answer list's filters, a sendout (`sendoutId`) and a language.
pub fn results_filter(
    filter: AnswerFilterQuery,
    sendout: Option<i64>,
    language: Option<LanguageBody>,
) -> Result<AnswerFilter, Vec<FieldError>> {
    Ok(filter.into_domain()?.of_sendout(sendout.map(SendoutId::new)).in_language(language.map(Language::from)))
}

/// Paging of `GET /surveys/{surveyId}/answersWithData` (its filters are [`AnswerFilterQuery`]).
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AnswerPageQuery {
    /// Page number from 1 (default 1).
    #[param(minimum = 1)]
    pub page: Option<i64>,
    /// Page size from 1 to 1000 (default 100).
    #[param(minimum = 1, maximum = 1000)]
    pub pagesize: Option<i64>,
}
