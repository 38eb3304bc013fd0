//! Bodies of the survey endpoints: surveys, question trees, logic and the copy query.

use canvass_domain::ids::CategoryId;
use canvass_domain::limits::check_length;
use canvass_domain::survey::{
    ChoiceOption, Conditions, CopyRequest, Finite, ItemSettings, LogicRule, Page, PageDraft, QuestionItem,
    QuestionItemDraft, QuestionTree, QuestionType, Survey, SurveyInput,
};
use canvass_domain::timestamp::DayEdge;
use canvass_domain::FieldError;
use serde::{Deserialize, Serialize};
use time::{Date, OffsetDateTime};
use utoipa::{IntoParams, ToSchema};

use super::logic_schemas::{ConditionsSchema, LogicRuleSchema};
use super::questionnaire::{AnswerChecksResponse, TextFormatBody};
use super::schemas::DateText;
use super::sendout::LanguageBody;

use super::client_date::{instant, ClientDate};
use super::mirror::mirrored;

/// A survey.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SurveyResponse {
    /// The survey's id.
    pub survey_id: i64,
    /// Name.
    pub name: String,
    /// Description.
    pub description: String,
    /// When it opens.
    #[serde(with = "time::serde::rfc3339")]
    pub start_date: OffsetDateTime,
    /// When it closes.
    #[serde(with = "time::serde::rfc3339")]
    pub end_date: OffsetDateTime,
    /// Its category; null when uncategorized.
    pub category_id: Option<i64>,
    /// Whether it takes answers.
    pub active: bool,
    /// When it was created.
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// When it was last changed.
    #[serde(with = "time::serde::rfc3339")]
    pub updated_at: OffsetDateTime,
    /// The survey's own thank-you text, shown after completion in place of the service's; null when none.
    #[schema(required = true, max_length = 2000)]
    pub thank_you_message: Option<String>,
    /// The version of the question tree: 1 at creation and in a copy, one more with every change of its pages,
    /// items or logic (each change also moves `updatedAt`).
    #[schema(minimum = 1)]
    pub tree_version: i32,
    /// The language its own texts are written in (its translations are into the others).
    pub language: LanguageBody,
}

impl From<Survey> for SurveyResponse {
    fn from(s: Survey) -> Self {
        Self {
            survey_id: s.id.get(),
            name: s.name,
            description: s.description,
            start_date: s.start_date,
            end_date: s.end_date,
            category_id: s.category_id.map(CategoryId::get),
            active: s.active,
            created_at: s.created_at,
            updated_at: s.updated_at,
            thank_you_message: s.thank_you_message,
            tree_version: s.tree_version,
            language: s.language.into(),
        }
    }
}

mirrored! {
    /// The type of a question item.
    #[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema)]
    pub enum QuestionTypeBody <=> QuestionType {
        /// One option value.
        SingleChoice,
        /// Several option values.
        MultipleChoice,
        /// Free text.
        OpenText,
        /// A number.
        Numeric,
        /// A whole number from 0 to 10.
        Rating,
        /// Text only; takes no answer.
        Info,
        /// One option value, from a drop-down list.
        Dropdown,
        /// A date, `YYYY-MM-DD`.
        Date,
        /// Rows sharing one scale of options: one option value per row.
        Matrix,
        /// Every option value, in the order ranked.
        Ranking,
    }
}

/// An option of a choice item.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct OptionBody {
    /// The value answers carry.
    #[schema(min_length = 1, max_length = 500, pattern = "\\S")]
    pub value: String,
    /// The text shown; defaults to the value.
    #[serde(default)]
    #[schema(min_length = 1, max_length = 500, pattern = "\\S")]
    pub label: Option<String>,
}

/// A question item to create.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ItemBody {
    /// Its type.
    #[serde(rename = "type")]
    pub kind: QuestionTypeBody,
    /// Question or information text.
    #[schema(min_length = 1, max_length = 10000, pattern = "\\S")]
    pub text: String,
    /// Whether a completed answer set must answer it (default false).
    #[serde(default)]
    pub required: bool,
    /// Options of choice items: at least one, at most 1,000 (none for the other types).
    #[serde(default)]
    #[schema(max_items = 1000)]
    pub options: Vec<OptionBody>,
    /// Words at the low end of the scale (0); Rating items only. Empty or blank means none.
    #[serde(default)]
    #[schema(max_length = 60)]
    pub min_label: Option<String>,
    /// Words at the high end of the scale (10); Rating items only. Empty or blank means none.
    #[serde(default)]
    #[schema(max_length = 60)]
    pub max_label: Option<String>,
    // The checks of its answers, each on the types that take it (on another type a 400). Written out here, not
    // flattened from a struct of their own: a flattened field's wrong type would be named as the whole body.
    /// Numeric: the lowest answer allowed.
    #[serde(default)]
    pub min: Option<f64>,
    /// Numeric: the highest answer allowed; not below `min`.
    #[serde(default)]
    pub max: Option<f64>,
    /// Numeric: whether answers must be whole numbers (default false).
    #[serde(default)]
    pub whole_number: Option<bool>,
    /// OpenText: the fewest characters of an answer.
    #[serde(default)]
    #[schema(maximum = 10000)]
    pub min_length: Option<u32>,
    /// OpenText: the most characters of an answer, 1 to 10,000; not below `minLength`.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 10000)]
    pub max_length: Option<u32>,
    /// OpenText: whether an answer may hold line breaks (default true; false shows a one-line field).
    #[serde(default)]
    pub multiline: Option<bool>,
    /// OpenText: the form answers must have.
    #[serde(default)]
    pub format: Option<TextFormatBody>,
    /// OpenText with `format` `pattern`: a regular expression (the Rust `regex` crate's syntax) that the whole
    /// answer must match; at most 200 characters and 1 MiB compiled.
    #[serde(default)]
    #[schema(min_length = 1, max_length = 200)]
    pub pattern: Option<String>,
    /// MultipleChoice: the fewest values an answer chooses.
    #[serde(default)]
    #[schema(maximum = 1000)]
    pub min_selected: Option<u32>,
    /// MultipleChoice: the most values an answer chooses; not below `minSelected`.
    #[serde(default)]
    #[schema(maximum = 1000)]
    pub max_selected: Option<u32>,
    /// Matrix: its rows (1 to 50, distinct values), which share its `options` (2 to 11).
    #[serde(default)]
    #[schema(max_items = 50)]
    pub rows: Vec<OptionBody>,
    /// Date: the earliest date allowed (inclusive), `YYYY-MM-DD`.
    #[serde(default, with = "super::questionnaire::day::option")]
    #[schema(value_type = Option<String>, format = Date, max_length = 10)]
    pub min_date: Option<Date>,
    /// Date: the latest date allowed (inclusive), `YYYY-MM-DD`; not before `minDate`.
    #[serde(default, with = "super::questionnaire::day::option")]
    #[schema(value_type = Option<String>, format = Date, max_length = 10)]
    pub max_date: Option<Date>,
    /// SingleChoice, MultipleChoice, Dropdown and Ranking: whether each respondent is shown the options in an
    /// order drawn for it (the same on every view; kept with its answer set as `shownOrder`). Default false.
    #[serde(default)]
    pub randomize_options: Option<bool>,
    /// With `randomizeOptions`: how many of the last options keep their place ("Other", "Don't know"); not above
    /// the number of options.
    #[serde(default)]
    #[schema(maximum = 1000)]
    pub fixed_last: Option<u32>,
    /// When the item shows: conditions on items of earlier pages and on background labels (on a new survey,
    /// background labels only); it always shows without them. A hidden item is never required, and an answer it
    /// had is dropped when the set is completed.
    #[serde(default)]
    #[schema(value_type = Option<ConditionsSchema>)]
    pub display_when: Option<serde_json::Value>,
    /// Where the item goes on its page, from 0 (default: the end; past the end is a 400). Taken only when an item
    /// is added to a page (`POST /surveys/{surveyId}/pages/{pageId}/items`); a new survey's items go in order.
    #[serde(default)]
    pub position: Option<usize>,
}

impl ItemBody {
    /// The domain's draft of the item (its `position` aside), or what is wrong with its `displayWhen` (at
    /// `{path}.displayWhen`, or `displayWhen` when `path` is empty).
    pub fn into_draft(self, path: &str) -> Result<QuestionItemDraft, Vec<FieldError>> {
        let defaults = ItemSettings::default();
        let at = if path.is_empty() { "displayWhen".to_owned() } else { format!("{path}.displayWhen") };
        let display_when = display_when(self.display_when.as_ref(), &at)?;
        Ok(QuestionItemDraft {
            kind: self.kind.into(),
            text: self.text,
            required: self.required,
            options: self.options.into_iter().map(OptionBody::into_option).collect(),
            min_label: self.min_label,
            max_label: self.max_label,
            settings: ItemSettings {
                rows: self.rows.into_iter().map(OptionBody::into_option).collect(),
                min_date: self.min_date,
                max_date: self.max_date,
                min: self.min.and_then(Finite::new),
                max: self.max.and_then(Finite::new),
                whole_number: self.whole_number.unwrap_or(defaults.whole_number),
                min_length: self.min_length,
                max_length: self.max_length,
                multiline: self.multiline.unwrap_or(defaults.multiline),
                format: self.format.map(Into::into),
                pattern: self.pattern,
                min_selected: self.min_selected,
                max_selected: self.max_selected,
                display_when,
                randomize_options: self.randomize_options.unwrap_or(defaults.randomize_options),
                fixed_last: self.fixed_last,
            },
        })
    }
}

/// Conditions read from a body's `displayWhen` at `at` (none when it is absent or null).
pub fn display_when(given: Option<&serde_json::Value>, at: &str) -> Result<Option<Conditions>, Vec<FieldError>> {
    match given {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(value) => Conditions::from_json(value, at).map(Some),
    }
}

impl OptionBody {
    /// The option, its label the value when none is given.
    pub fn into_option(self) -> ChoiceOption {
        ChoiceOption { label: self.label.unwrap_or_else(|| self.value.clone()), value: self.value }
    }
}

const _: () = assert!(canvass_domain::limits::OPTIONS == 1000, "the schema's maxItems follows the domain's");

/// The most rows of a Matrix, as the schemas state it.
pub const MATRIX_ROWS: usize = canvass_domain::survey::MATRIX_ROWS;
const _: () = assert!(MATRIX_ROWS == 50, "the schemas' maxItems of rows follow the domain's");

/// A page to create.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PageBody {
    /// Title; default empty.
    #[serde(default)]
    #[schema(max_length = 500)]
    pub title: String,
    /// Items in order.
    #[serde(default)]
    pub items: Vec<ItemBody>,
    /// Whether each respondent sees the page's items in an order of its own (default false).
    #[serde(default)]
    pub randomize_items: bool,
}

impl PageBody {
    fn into_draft(self, path: &str) -> Result<PageDraft, Vec<FieldError>> {
        let (mut items, mut errors) = (Vec::with_capacity(self.items.len()), Vec::new());
        for (index, item) in self.items.into_iter().enumerate() {
            match item.into_draft(&format!("{path}.items[{index}]")) {
                Ok(item) => items.push(item),
                Err(found) => errors.extend(found),
            }
        }
        if errors.is_empty() {
            Ok(PageDraft { title: self.title, items, randomize_items: self.randomize_items })
        } else {
            Err(errors)
        }
    }
}

/// Creates a survey.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateSurveyBody {
    /// Non-empty name.
    #[schema(min_length = 1, max_length = 500, pattern = "\\S")]
    pub name: String,
    /// Description.
    #[serde(default)]
    #[schema(max_length = 10000)]
    pub description: Option<String>,
    /// RFC 3339 date-time or YYYY-MM-DD; default now.
    #[serde(default)]
    #[schema(value_type = Option<DateText>)]
    pub start_date: Option<ClientDate>,
    /// RFC 3339 date-time or YYYY-MM-DD; default start plus 14 days; after the start.
    #[serde(default)]
    #[schema(value_type = Option<DateText>)]
    pub end_date: Option<ClientDate>,
    /// A category of the account; null or -999 for none.
    #[serde(default)]
    pub category_id: Option<i64>,
    /// Default true.
    #[serde(default)]
    pub active: Option<bool>,
    /// The survey's own thank-you text, shown after completion in place of the service's. Empty or blank means
    /// none (stored as null).
    #[serde(default)]
    #[schema(max_length = 2000)]
    pub thank_you_message: Option<String>,
    /// The language its own texts are written in; `en` when absent or null. A sendout of the survey created
    /// without a `language` takes this one.
    #[serde(default)]
    pub language: Option<LanguageBody>,
    /// Pages in order.
    #[serde(default)]
    pub pages: Vec<PageBody>,
}

impl CreateSurveyBody {
    /// The domain's input, or the items that give a `position` (taken only when an item is added to a page).
    pub fn into_domain(self) -> Result<SurveyInput, Vec<FieldError>> {
        let placed: Vec<FieldError> = self
            .pages
            .iter()
            .enumerate()
            .flat_map(|(p, page)| page.items.iter().enumerate().map(move |(i, item)| (p, i, item)))
            .filter(|(_, _, item)| item.position.is_some())
            .map(|(p, i, _)| {
                let field = format!("pages[{p}].items[{i}].position");
                FieldError::new(field, "is taken only when an item is added to a page; a new survey's go in order")
            })
            .collect();
        if !placed.is_empty() {
            return Err(placed);
        }
        self.into_input()
    }

    fn into_input(self) -> Result<SurveyInput, Vec<FieldError>> {
        let (mut pages, mut errors) = (Vec::with_capacity(self.pages.len()), Vec::new());
        for (index, page) in self.pages.into_iter().enumerate() {
            match page.into_draft(&format!("pages[{index}]")) {
                Ok(page) => pages.push(page),
                Err(found) => errors.extend(found),
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(SurveyInput {
            name: self.name,
            description: self.description,
            start_date: instant(self.start_date, DayEdge::Start),
            end_date: instant(self.end_date, DayEdge::Start),
            category_id: self.category_id.map(CategoryId::new),
            active: self.active,
            thank_you_message: self.thank_you_message,
            language: self.language.map(Into::into),
            pages,
        })
    }
}

/// A question item.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ItemResponse {
    /// The item's id.
    pub question_item_id: i64,
    /// Its type.
    #[serde(rename = "type")]
    pub kind: QuestionTypeBody,
    /// Its text.
    pub text: String,
    /// Whether a completed answer set must answer it.
    pub required: bool,
    /// Options of a choice item.
    pub options: Vec<OptionResponse>,
    /// Words at the low end of a Rating item's scale; null when none (always for other types).
    #[schema(required = true, max_length = 60)]
    pub min_label: Option<String>,
    /// Words at the high end of a Rating item's scale; null when none (always for other types).
    #[schema(required = true, max_length = 60)]
    pub max_label: Option<String>,
    /// Matrix: its rows, which share its options (absent on other types).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(max_items = 50)]
    pub rows: Vec<OptionResponse>,
    /// When it shows (absent: always).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<ConditionsSchema>, nullable = false)]
    pub display_when: Option<serde_json::Value>,
    /// The checks of its answers: each on the types that take it, and only when set (`wholeNumber` on every
    /// Numeric item, `multiline` on every OpenText item).
    #[serde(flatten)]
    pub checks: AnswerChecksResponse,
}

/// An option of a choice item.
#[derive(Debug, Serialize, ToSchema)]
pub struct OptionResponse {
    /// The value answers carry.
    pub value: String,
    /// The text shown.
    pub label: String,
}

impl From<QuestionItem> for ItemResponse {
    fn from(item: QuestionItem) -> Self {
        Self {
            question_item_id: item.id.get(),
            kind: item.kind.into(),
            text: item.text,
            required: item.required,
            options: item.options.into_iter().map(|o| OptionResponse { value: o.value, label: o.label }).collect(),
            min_label: item.min_label,
            max_label: item.max_label,
            rows: item
                .settings
                .rows
                .iter()
                .map(|r| OptionResponse { value: r.value.clone(), label: r.label.clone() })
                .collect(),
            display_when: item.settings.display_when.as_ref().map(Conditions::to_json),
            checks: AnswerChecksResponse::new(item.kind, item.settings),
        }
    }
}

/// A page of the tree.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PageResponse {
    /// The page's id.
    pub page_id: i64,
    /// Its title.
    pub title: String,
    /// Its items in order.
    pub items: Vec<ItemResponse>,
    /// Whether each respondent sees its items in an order of its own.
    pub randomize_items: bool,
}

impl From<Page> for PageResponse {
    fn from(page: Page) -> Self {
        Self {
            page_id: page.id.get(),
            title: page.title,
            items: page.items.into_iter().map(Into::into).collect(),
            randomize_items: page.randomize_items,
        }
    }
}

/// A stored logic rule in the form it was given (`{questionItemId, equals, goToPageId}`, `{when, action: "jump",
/// goToPageId}` or `{when, action: "endSurvey"}`), with its `ruleId` and `broken`.
#[derive(Debug, Serialize)]
#[serde(transparent)]
pub struct LogicRuleResponse(serde_json::Map<String, serde_json::Value>);

impl From<LogicRule> for LogicRuleResponse {
    fn from(rule: LogicRule) -> Self {
        let mut object = serde_json::Map::new();
        object.insert("ruleId".into(), rule.id.get().into());
        object.extend(rule.rule.to_json());
        object.insert("broken".into(), rule.broken.into());
        Self(object)
    }
}

/// The question tree of a survey.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct QuestionTreeResponse {
    /// The survey.
    pub survey_id: i64,
    /// Pages in order.
    pub pages: Vec<PageResponse>,
    /// Logic rules in order.
    #[schema(value_type = Vec<LogicRuleSchema>)]
    pub logic: Vec<LogicRuleResponse>,
    /// The survey's tree version this tree is (as `treeVersion` of the survey).
    #[schema(minimum = 1)]
    pub tree_version: i32,
}

impl From<QuestionTree> for QuestionTreeResponse {
    fn from(tree: QuestionTree) -> Self {
        Self {
            survey_id: tree.survey_id.get(),
            pages: tree.pages.into_iter().map(Into::into).collect(),
            logic: tree.logic.into_iter().map(Into::into).collect(),
            tree_version: tree.version,
        }
    }
}

/// The query of `GET /surveys/{surveyId}/copy`; every parameter is optional.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CopyQuery {
    /// Name of the copy (default: the source's).
    #[param(min_length = 1, max_length = 500, pattern = "\\S")]
    pub surveyname: Option<String>,
    /// Description (default: the source's); at most 4,000 characters, which a URL can carry.
    #[param(max_length = 4000)]
    pub description: Option<String>,
    /// Start (default: now).
    #[param(value_type = Option<DateText>)]
    pub startdate: Option<ClientDate>,
    /// End (default: start plus 14 days).
    #[param(value_type = Option<DateText>)]
    pub enddate: Option<ClientDate>,
    /// Category of the copy (default -999: uncategorized).
    pub categoryid: Option<i64>,
    /// Copy the answer sets (default false).
    pub copyanswers: Option<bool>,
    /// Copy the logic (default false); 409 when it is broken.
    pub copylogic: Option<bool>,
    /// Comma-separated sendout ids of the source to copy (default none), spaces around them allowed; an empty
    /// entry (`1,,2`, a lone `,`) names nothing. At most 100 different ids, each a sendout of the source (400).
    #[param(max_length = 2000, pattern = "^(?: *(?:0*[1-9][0-9]{0,17} *)?,)* *(?:0*[1-9][0-9]{0,17} *)?$")]
    pub copysendoutids: Option<String>,
    /// Whether the copy is active (default: the source's flag).
    pub active: Option<bool>,
}

/// The longest description the copy query takes: a URL holds at most 65,534 bytes, and a character may take 12
/// of them percent-encoded, beside the name and the other parameters.
pub const COPY_DESCRIPTION: usize = 4_000;

impl CopyQuery {
    /// The domain's copy request, or the description when it is longer than a URL can carry.
    pub fn into_domain(self) -> Result<CopyRequest, Vec<FieldError>> {
        if let Some(description) = &self.description {
            check_length("description", description, COPY_DESCRIPTION).map_err(|error| vec![error])?;
        }
        Ok(CopyRequest {
            name: self.surveyname,
            description: self.description,
            start_date: instant(self.startdate, DayEdge::Start),
            end_date: instant(self.enddate, DayEdge::Start),
            category_id: self.categoryid.map(CategoryId::new),
            copy_answers: self.copyanswers,
            copy_logic: self.copylogic,
            sendout_ids: self.copysendoutids,
            active: self.active,
        })
    }
}
