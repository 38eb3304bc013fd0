//! The JSON of a survey's translations: one language's texts as a client puts them and as they are read back with
//! what they lack, and the list of a survey's languages.

use std::collections::BTreeMap;

use canvass_domain::survey::{ItemTexts, TranslatedTexts, TranslationInput};
use canvass_domain::use_cases::translations::{TranslationSummary, TranslationView};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;

use super::schemas::LabelsByValue;
use super::sendout::LanguageBody;

/// One language's texts of a survey, replacing whatever that language held. Every key names what the survey holds:
/// a page id under `pages`, an item id under `items`, an option or Matrix row value under `options` and `rows`
/// (another is a 400 naming it). A text left out, null or blank is not translated: the survey's own shows in its
/// place and `missing` lists it.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TranslationBody {
    /// The survey's name.
    #[serde(default)]
    #[schema(max_length = 500)]
    pub name: Option<String>,
    /// The survey's description.
    #[serde(default)]
    #[schema(max_length = 10000)]
    pub description: Option<String>,
    /// The survey's own thank-you text.
    #[serde(default)]
    #[schema(max_length = 2000)]
    pub thank_you_message: Option<String>,
    /// Page titles, by page id.
    #[serde(default)]
    pub pages: BTreeMap<String, PageTextsBody>,
    /// Item texts, by question item id.
    #[serde(default)]
    pub items: BTreeMap<String, ItemTextsBody>,
}

/// A page's texts in one language.
#[derive(Debug, Default, Serialize, Deserialize, ToSchema)]
pub struct PageTextsBody {
    /// The page's title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(max_length = 500)]
    pub title: Option<String>,
}

/// An item's texts in one language.
#[derive(Debug, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ItemTextsBody {
    /// The question or information text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(max_length = 10000)]
    pub text: Option<String>,
    /// The words at the low end of a Rating item's scale (Rating items only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(max_length = 60)]
    pub min_label: Option<String>,
    /// The words at the high end of a Rating item's scale (Rating items only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(max_length = 60)]
    pub max_label: Option<String>,
    /// Option labels, by option value.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[schema(value_type = Option<LabelsByValue>)]
    pub options: BTreeMap<String, String>,
    /// Matrix row labels, by row value.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[schema(value_type = Option<LabelsByValue>)]
    pub rows: BTreeMap<String, String>,
}

impl From<TranslationBody> for TranslationInput {
    fn from(body: TranslationBody) -> Self {
        Self {
            name: body.name,
            description: body.description,
            thank_you_message: body.thank_you_message,
            pages: body.pages.into_iter().map(|(id, page)| (id, page.title)).collect(),
            items: body.items.into_iter().map(|(id, item)| (id, item.into())).collect(),
        }
    }
}

impl From<ItemTextsBody> for ItemTexts {
    fn from(body: ItemTextsBody) -> Self {
        Self {
            text: body.text,
            min_label: body.min_label,
            max_label: body.max_label,
            options: body.options,
            rows: body.rows,
        }
    }
}

impl From<ItemTexts> for ItemTextsBody {
    fn from(texts: ItemTexts) -> Self {
        Self {
            text: texts.text,
            min_label: texts.min_label,
            max_label: texts.max_label,
            options: texts.options,
            rows: texts.rows,
        }
    }
}

/// A survey's texts in one language as they stand: only what the survey still holds (a text of a page, item, option
/// or row that a change of the tree removed is left out), with every text still lacking.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TranslationResponse {
    /// The language.
    pub language: LanguageBody,
    /// The survey's name; absent when not translated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The survey's description; absent when not translated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The survey's own thank-you text; absent when not translated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thank_you_message: Option<String>,
    /// Page titles, by page id.
    pub pages: BTreeMap<String, PageTextsBody>,
    /// Item texts, by question item id.
    pub items: BTreeMap<String, ItemTextsBody>,
    /// Every text of the survey with no translation here, in the order the survey shows them: `name`,
    /// `description` and `thankYouMessage` when the survey has them, then page by page `pages.<id>.title` and its
    /// items' `items.<id>.text`, `.minLabel`, `.maxLabel`, `.options.<value>`, `.rows.<value>`.
    pub missing: Vec<String>,
    /// When the language was first stored.
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// When its texts were last replaced.
    #[serde(with = "time::serde::rfc3339")]
    pub updated_at: OffsetDateTime,
}

impl From<TranslationView> for TranslationResponse {
    fn from(view: TranslationView) -> Self {
        let TranslatedTexts { name, description, thank_you_message, pages, items } = view.translation.texts;
        Self {
            language: view.translation.language.into(),
            name,
            description,
            thank_you_message,
            pages: pages
                .into_iter()
                .map(|(id, title)| (id.to_string(), PageTextsBody { title: Some(title) }))
                .collect(),
            items: items.into_iter().map(|(id, texts)| (id.to_string(), texts.into())).collect(),
            missing: view.missing,
            created_at: view.translation.created_at,
            updated_at: view.translation.updated_at,
        }
    }
}

/// One language of a survey's translations.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TranslationSummaryResponse {
    /// The language.
    pub language: LanguageBody,
    /// How many texts of the survey have no translation in it (the length of its `missing`).
    pub missing_count: usize,
    /// When its texts were last replaced.
    #[serde(with = "time::serde::rfc3339")]
    pub updated_at: OffsetDateTime,
}

impl From<TranslationSummary> for TranslationSummaryResponse {
    fn from(summary: TranslationSummary) -> Self {
        Self { language: summary.language.into(), missing_count: summary.missing_count, updated_at: summary.updated_at }
    }
}
