//! Bodies of the questionnaire's editing endpoints (pages and items added, patched and moved) and the answer
//! checks an item carries.

use canvass_domain::ids::PageId;
use canvass_domain::survey::{Finite, ItemPatch, ItemSettings, PageInput, PagePatch, QuestionType, TextFormat};
use serde::{Deserialize, Deserializer, Serialize};
use time::Date;
use utoipa::ToSchema;

use super::logic_schemas::ConditionsSchema;
use super::survey::{OptionBody, QuestionTypeBody};

/// Dates as `YYYY-MM-DD` in bodies (`day::option` for an optional one).
#[expect(missing_docs)]
pub mod day {
    time::serde::format_description!(pub day, Date, "[year]-[month]-[day]");
    pub use day::*;
}

/// Reads a field that may be absent (`None`: keep), `null` (`Some(None)`: remove) or a value.
pub(crate) fn given<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    deserializer: D,
) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(deserializer).map(Some)
}

/// Reads a date field that may be absent (`None`), `null` (`Some(None)`) or a `YYYY-MM-DD` date.
fn given_day<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Option<Date>>, D::Error> {
    day::option::deserialize(deserializer).map(Some)
}

/// The form an OpenText answer must have.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum TextFormatBody {
    /// An email address.
    Email,
    /// A phone number in E.164 form.
    Phone,
    /// The item's `pattern`, matched by the whole answer.
    Pattern,
}

impl From<TextFormatBody> for TextFormat {
    fn from(format: TextFormatBody) -> Self {
        match format {
            TextFormatBody::Email => Self::Email,
            TextFormatBody::Phone => Self::Phone,
            TextFormatBody::Pattern => Self::Pattern,
        }
    }
}

impl From<TextFormat> for TextFormatBody {
    fn from(format: TextFormat) -> Self {
        match format {
            TextFormat::Email => Self::Email,
            TextFormat::Phone => Self::Phone,
            TextFormat::Pattern => Self::Pattern,
        }
    }
}

/// The checks of an item's answers as served: each only when set, and on the types that take it; `wholeNumber`
/// on every Numeric item, `multiline` on every OpenText item and `randomizeOptions` on every choice, Dropdown and
/// Ranking item.
#[derive(Debug, Default, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AnswerChecksResponse {
    /// Numeric: the lowest answer allowed.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub min: Option<f64>,
    /// Numeric: the highest answer allowed.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub max: Option<f64>,
    /// Numeric: whether answers must be whole numbers.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub whole_number: Option<bool>,
    /// OpenText: the fewest characters of an answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false, maximum = 10000)]
    pub min_length: Option<u32>,
    /// OpenText: the most characters of an answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false, minimum = 1, maximum = 10000)]
    pub max_length: Option<u32>,
    /// OpenText: whether an answer may hold line breaks.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub multiline: Option<bool>,
    /// OpenText: the form answers must have.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub format: Option<TextFormatBody>,
    /// OpenText with `format` `pattern`: the regular expression the whole answer matches.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false, min_length = 1, max_length = 200)]
    pub pattern: Option<String>,
    /// MultipleChoice: the fewest values an answer chooses.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub min_selected: Option<u32>,
    /// MultipleChoice: the most values an answer chooses.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub max_selected: Option<u32>,
    /// SingleChoice, MultipleChoice, Dropdown and Ranking: whether each respondent sees the options in an order
    /// drawn for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub randomize_options: Option<bool>,
    /// With `randomizeOptions`: how many of the last options keep their place.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false, maximum = 1000)]
    pub fixed_last: Option<u32>,
    /// Date: the earliest date allowed.
    #[serde(skip_serializing_if = "Option::is_none", with = "day::option")]
    #[schema(value_type = Option<String>, format = Date, nullable = false, max_length = 10)]
    pub min_date: Option<Date>,
    /// Date: the latest date allowed.
    #[serde(skip_serializing_if = "Option::is_none", with = "day::option")]
    #[schema(value_type = Option<String>, format = Date, nullable = false, max_length = 10)]
    pub max_date: Option<Date>,
}

impl AnswerChecksResponse {
    /// The checks of an item of `kind` with these settings.
    pub fn new(kind: QuestionType, settings: ItemSettings) -> Self {
        Self {
            min: settings.min.map(Finite::get),
            max: settings.max.map(Finite::get),
            whole_number: (kind == QuestionType::Numeric).then_some(settings.whole_number),
            min_length: settings.min_length,
            max_length: settings.max_length,
            multiline: (kind == QuestionType::OpenText).then_some(settings.multiline),
            format: settings.format.map(Into::into),
            pattern: settings.pattern,
            min_selected: settings.min_selected,
            max_selected: settings.max_selected,
            randomize_options: kind.shuffles_options().then_some(settings.randomize_options),
            fixed_last: settings.fixed_last,
            min_date: settings.min_date,
            max_date: settings.max_date,
        }
    }
}

/// A page to add.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NewPageBody {
    /// Title; default empty.
    #[serde(default)]
    #[schema(max_length = 500)]
    pub title: String,
    /// Where it goes among the pages, from 0 (default: the end); past the end is a 400.
    #[serde(default)]
    pub position: Option<usize>,
    /// Whether each respondent sees its items in an order of its own (default false).
    #[serde(default)]
    pub randomize_items: bool,
}

impl From<NewPageBody> for PageInput {
    fn from(body: NewPageBody) -> Self {
        Self { title: body.title, position: body.position, randomize_items: body.randomize_items }
    }
}

/// A change of a page: each field given replaces the page's.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PagePatchBody {
    /// A new title.
    #[serde(default)]
    #[schema(max_length = 500)]
    pub title: Option<String>,
    /// A new place among the pages, from 0; past the last page is a 400.
    #[serde(default)]
    pub position: Option<usize>,
    /// Whether each respondent sees its items in an order of its own.
    #[serde(default)]
    pub randomize_items: Option<bool>,
}

impl From<PagePatchBody> for PagePatch {
    fn from(body: PagePatchBody) -> Self {
        Self { title: body.title, position: body.position, randomize_items: body.randomize_items }
    }
}

/// A change of an item: each field given replaces the item's (`null` removes an optional one); `pageId` and
/// `position` move it. When the type changes, what the new type does not take goes unless given.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ItemPatchBody {
    /// A new type: refused (409 `item-has-answers`) once the item has answers.
    #[serde(rename = "type", default)]
    pub kind: Option<QuestionTypeBody>,
    /// A new text.
    #[serde(default)]
    #[schema(min_length = 1, max_length = 10000, pattern = "\\S")]
    pub text: Option<String>,
    /// Whether a completed answer set must answer it.
    #[serde(default)]
    pub required: Option<bool>,
    /// The options, whole, in their new order: removing a value that answers hold is a 409 `item-has-answers`.
    #[serde(default)]
    #[schema(max_items = 1000)]
    pub options: Option<Vec<OptionBody>>,
    /// Rating: words at the low end of the scale; null removes them.
    #[serde(default, deserialize_with = "given")]
    #[schema(value_type = Option<String>, max_length = 60)]
    pub min_label: Option<Option<String>>,
    /// Rating: words at the high end of the scale; null removes them.
    #[serde(default, deserialize_with = "given")]
    #[schema(value_type = Option<String>, max_length = 60)]
    pub max_label: Option<Option<String>>,
    /// Numeric: the lowest answer allowed; null removes it.
    #[serde(default, deserialize_with = "given")]
    #[schema(value_type = Option<f64>)]
    pub min: Option<Option<f64>>,
    /// Numeric: the highest answer allowed; null removes it.
    #[serde(default, deserialize_with = "given")]
    #[schema(value_type = Option<f64>)]
    pub max: Option<Option<f64>>,
    /// Numeric: whether answers must be whole numbers.
    #[serde(default)]
    pub whole_number: Option<bool>,
    /// OpenText: the fewest characters of an answer; null removes it.
    #[serde(default, deserialize_with = "given")]
    #[schema(value_type = Option<u32>, maximum = 10000)]
    pub min_length: Option<Option<u32>>,
    /// OpenText: the most characters of an answer; null removes it.
    #[serde(default, deserialize_with = "given")]
    #[schema(value_type = Option<u32>, minimum = 1, maximum = 10000)]
    pub max_length: Option<Option<u32>>,
    /// OpenText: whether an answer may hold line breaks.
    #[serde(default)]
    pub multiline: Option<bool>,
    /// OpenText: the form answers must have; null removes it (and its pattern).
    #[serde(default, deserialize_with = "given")]
    #[schema(value_type = Option<TextFormatBody>)]
    pub format: Option<Option<TextFormatBody>>,
    /// OpenText with `format` `pattern`: the regular expression the whole answer matches.
    #[serde(default, deserialize_with = "given")]
    #[schema(value_type = Option<String>, min_length = 1, max_length = 200)]
    pub pattern: Option<Option<String>>,
    /// MultipleChoice: the fewest values an answer chooses; null removes it.
    #[serde(default, deserialize_with = "given")]
    #[schema(value_type = Option<u32>, maximum = 1000)]
    pub min_selected: Option<Option<u32>>,
    /// MultipleChoice: the most values an answer chooses; null removes it.
    #[serde(default, deserialize_with = "given")]
    #[schema(value_type = Option<u32>, maximum = 1000)]
    pub max_selected: Option<Option<u32>>,
    /// Matrix: the rows, whole, in their new order: removing a row that answers hold is a 409 `item-has-answers`.
    #[serde(default)]
    #[schema(max_items = 50)]
    pub rows: Option<Vec<OptionBody>>,
    /// Date: the earliest date allowed, `YYYY-MM-DD`; null removes it.
    #[serde(default, deserialize_with = "given_day")]
    #[schema(value_type = Option<String>, format = Date, max_length = 10)]
    pub min_date: Option<Option<Date>>,
    /// Date: the latest date allowed, `YYYY-MM-DD`; null removes it.
    #[serde(default, deserialize_with = "given_day")]
    #[schema(value_type = Option<String>, format = Date, max_length = 10)]
    pub max_date: Option<Option<Date>>,
    /// SingleChoice, MultipleChoice, Dropdown and Ranking: whether each respondent sees the options in an order
    /// drawn for it.
    #[serde(default)]
    pub randomize_options: Option<bool>,
    /// With `randomizeOptions`: how many of the last options keep their place; null removes it.
    #[serde(default, deserialize_with = "given")]
    #[schema(value_type = Option<u32>, maximum = 1000)]
    pub fixed_last: Option<Option<u32>>,
    /// When it shows: conditions on items of earlier pages and background labels; null removes them (it always
    /// shows).
    #[serde(default, deserialize_with = "given")]
    #[schema(value_type = Option<ConditionsSchema>)]
    pub display_when: Option<Option<serde_json::Value>>,
    /// The page to move it to, a page of the same survey (400 otherwise).
    #[serde(default)]
    pub page_id: Option<i64>,
    /// Its new place on its (new) page, from 0 (default, on a new page: the end); past the end is a 400.
    #[serde(default)]
    pub position: Option<usize>,
}

impl TryFrom<ItemPatchBody> for ItemPatch {
    type Error = canvass_domain::DomainError;

    /// The patch, or what is wrong with its `displayWhen`.
    fn try_from(body: ItemPatchBody) -> Result<Self, Self::Error> {
        let finite = |given: Option<Option<f64>>| given.map(|value| value.and_then(Finite::new));
        let display_when = match &body.display_when {
            None => None,
            Some(given) => Some(
                super::survey::display_when(given.as_ref(), "displayWhen")
                    .map_err(canvass_domain::DomainError::Invalid)?,
            ),
        };
        Ok(Self {
            kind: body.kind.map(Into::into),
            text: body.text,
            required: body.required,
            options: body.options.map(|options| options.into_iter().map(OptionBody::into_option).collect()),
            min_label: body.min_label,
            max_label: body.max_label,
            min: finite(body.min),
            max: finite(body.max),
            whole_number: body.whole_number,
            min_length: body.min_length,
            max_length: body.max_length,
            multiline: body.multiline,
            format: body.format.map(|format| format.map(Into::into)),
            pattern: body.pattern,
            min_selected: body.min_selected,
            max_selected: body.max_selected,
            rows: body.rows.map(|rows| rows.into_iter().map(OptionBody::into_option).collect()),
            min_date: body.min_date,
            max_date: body.max_date,
            display_when,
            randomize_options: body.randomize_options,
            fixed_last: body.fixed_last,
            page_id: body.page_id.map(PageId::new),
            position: body.position,
        })
    }
}
