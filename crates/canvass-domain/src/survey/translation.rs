//! A survey's texts in another language: what one language's translation holds, the rules it obeys against the
//! survey's tree, which texts it still lacks, and what of it outlives a change of the tree.
//!
//! A translation is keyed by the ids of pages and items and by the values of options and Matrix rows, never by
//! position, so moving an item keeps its translation. A text that is blank is taken as not translated.

use std::collections::BTreeMap;

use time::OffsetDateTime;

use crate::error::FieldError;
use crate::ids::{PageId, QuestionItemId};
use crate::language::Language;
use crate::limits;

use super::{ChoiceOption, QuestionItem, QuestionTree, Survey};

/// One language's texts of a survey, as stored: every key names a page, item, option or row that the survey held
/// when it was stored (read it through [`TranslatedTexts::within`] for what the survey holds now).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TranslatedTexts {
    /// The survey's name.
    pub name: Option<String>,
    /// The survey's description.
    pub description: Option<String>,
    /// The survey's own thank-you text.
    pub thank_you_message: Option<String>,
    /// Page titles, by page.
    pub pages: BTreeMap<PageId, String>,
    /// The texts of items, by item.
    pub items: BTreeMap<QuestionItemId, ItemTexts>,
}

/// The texts of one item in another language.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ItemTexts {
    /// The question or information text.
    pub text: Option<String>,
    /// The words at the low end of a Rating item's scale.
    pub min_label: Option<String>,
    /// The words at the high end of a Rating item's scale.
    pub max_label: Option<String>,
    /// Option labels, by option value.
    pub options: BTreeMap<String, String>,
    /// Matrix row labels, by row value.
    pub rows: BTreeMap<String, String>,
}

/// A stored translation of a survey.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Translation {
    /// The language it is in; never the survey's own.
    pub language: Language,
    /// Its texts.
    pub texts: TranslatedTexts,
    /// When the language was first stored.
    pub created_at: OffsetDateTime,
    /// When its texts were last replaced.
    pub updated_at: OffsetDateTime,
}

/// One language's texts as a client gives them, before checking: page and item ids as the text of their keys, so
/// that a key that is no id can be named.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TranslationInput {
    /// The survey's name.
    pub name: Option<String>,
    /// The survey's description.
    pub description: Option<String>,
    /// The survey's own thank-you text.
    pub thank_you_message: Option<String>,
    /// Page titles, by the page id's text.
    pub pages: BTreeMap<String, Option<String>>,
    /// Item texts, by the item id's text.
    pub items: BTreeMap<String, ItemTexts>,
}

impl TranslatedTexts {
    /// Checks `input` against the survey and its tree: every page, item, option and row it names must be the
    /// survey's, scale labels only on Rating items, every text within the length of the text it translates. Blank
    /// texts are dropped. Every broken rule is reported, each naming its field (`pages.12`,
    /// `items.34.options.yes`, `items.34.text`).
    ///
    /// ```
    /// use canvass_domain::ids::{PageId, QuestionItemId, SurveyId};
    /// use canvass_domain::survey::{QuestionTree, TranslatedTexts, TranslationInput};
    ///
    /// let tree = QuestionTree::assemble(SurveyId::new(1), vec![], vec![]);
    /// let input = TranslationInput { name: Some("Personal".into()), pages: [("7".into(), Some("Start".into()))].into(),
    ///     ..Default::default() };
    /// let errors = TranslatedTexts::check(input, &tree).unwrap_err();
    /// assert_eq!(errors[0].field, "pages.7");
    /// ```
    pub fn check(input: TranslationInput, tree: &QuestionTree) -> Result<Self, Vec<FieldError>> {
        let mut errors = Vec::new();
        let mut texts = Self {
            name: kept(&mut errors, "name".into(), input.name, limits::NAME),
            description: kept(&mut errors, "description".into(), input.description, limits::DESCRIPTION),
            thank_you_message: kept(
                &mut errors,
                "thankYouMessage".into(),
                input.thank_you_message,
                limits::THANK_YOU_MESSAGE,
            ),
            ..Self::default()
        };
        if let Some(message) = &texts.thank_you_message {
            // The thank-you page comes after every page: it may pipe any item's answer.
            super::check_pipes(message, "thankYouMessage", tree, tree.pages.len(), &mut errors);
        }
        for (key, title) in input.pages {
            let field = format!("pages.{key}");
            let Some(page) = key.parse().ok().and_then(|id| tree.pages.iter().find(|p| p.id == PageId::new(id))) else {
                errors.push(FieldError::new(field, format!("`{key}` is not a page of survey {}", tree.survey_id)));
                continue;
            };
            if let Some(title) = kept(&mut errors, format!("{field}.title"), title, limits::PAGE_TITLE) {
                let index = tree.page_index(page.id).unwrap_or(0);
                super::check_pipes(&title, &format!("{field}.title"), tree, index, &mut errors);
                texts.pages.insert(page.id, title);
            }
        }
        for (key, given) in input.items {
            let field = format!("items.{key}");
            let Some(item) = key.parse().ok().and_then(|id| tree.item(QuestionItemId::new(id))) else {
                errors.push(FieldError::new(field, format!("`{key}` is not an item of survey {}", tree.survey_id)));
                continue;
            };
            let item_texts = ItemTexts::check(given, item, &field, &mut errors);
            item_texts.check_pipes(tree, item, &field, &mut errors);
            if item_texts != ItemTexts::default() {
                texts.items.insert(item.id, item_texts);
            }
        }
        if errors.is_empty() {
            Ok(texts)
        } else {
            Err(errors)
        }
    }

    /// What of these texts the survey still holds: texts of pages, items, options and rows that a change of the
    /// tree removed are left out, as are scale labels of an item that is no longer a Rating.
    pub fn within(mut self, tree: &QuestionTree) -> Self {
        self.pages.retain(|id, _| tree.page_index(*id).is_some());
        self.items.retain(|id, texts| match tree.item(*id) {
            Some(item) => {
                texts.keep_what(item);
                true
            }
            None => false,
        });
        self
    }

    /// Every text of the survey that has no translation here, in the order the survey shows them: `name`,
    /// `description` and `thankYouMessage` when the survey has them, then page by page its title
    /// (`pages.<id>.title`, when it has one) and its items' texts (`items.<id>.text`, `.minLabel`, `.maxLabel`,
    /// `.options.<value>`, `.rows.<value>`).
    pub fn missing(&self, survey: &Survey, tree: &QuestionTree) -> Vec<String> {
        let mut missing = Vec::new();
        let mut lacks = |path: String, has_source: bool, translated: bool| {
            if has_source && !translated {
                missing.push(path);
            }
        };
        lacks("name".into(), true, self.name.is_some());
        lacks("description".into(), !survey.description.trim().is_empty(), self.description.is_some());
        lacks("thankYouMessage".into(), survey.thank_you_message.is_some(), self.thank_you_message.is_some());
        for page in &tree.pages {
            let title = format!("pages.{}.title", page.id);
            lacks(title, !page.title.trim().is_empty(), self.pages.contains_key(&page.id));
            for item in &page.items {
                let texts = self.items.get(&item.id);
                let at = |name: &str| format!("items.{}.{name}", item.id);
                lacks(at("text"), true, texts.is_some_and(|t| t.text.is_some()));
                lacks(at("minLabel"), item.min_label.is_some(), texts.is_some_and(|t| t.min_label.is_some()));
                lacks(at("maxLabel"), item.max_label.is_some(), texts.is_some_and(|t| t.max_label.is_some()));
                for option in &item.options {
                    let translated = texts.is_some_and(|t| t.options.contains_key(&option.value));
                    lacks(at(&format!("options.{}", option.value)), true, translated);
                }
                for row in &item.settings.rows {
                    let translated = texts.is_some_and(|t| t.rows.contains_key(&row.value));
                    lacks(at(&format!("rows.{}", row.value)), true, translated);
                }
            }
        }
        missing
    }

    /// These texts for the copy of their survey: each page and item under the id it has in the copy, by the
    /// (source, copy) pairs given, and each piped answer naming its item's copy; what has no pair is left out.
    pub fn for_copy(&self, pages: &[(PageId, PageId)], items: &[(QuestionItemId, QuestionItemId)]) -> Self {
        Self {
            name: self.name.clone(),
            description: self.description.clone(),
            thank_you_message: self.thank_you_message.as_ref().map(|message| super::pipes_mapped(message, items)),
            pages: self
                .pages
                .iter()
                .filter_map(|(id, title)| Some((super::copy::paired(pages, *id)?, super::pipes_mapped(title, items))))
                .collect(),
            items: self
                .items
                .iter()
                .filter_map(|(id, texts)| Some((super::copy::paired(items, *id)?, texts.pipes_mapped(items))))
                .collect(),
        }
    }
}

impl ItemTexts {
    /// The texts given for `item`, checked, with the broken rules pushed under `field`.
    fn check(given: Self, item: &QuestionItem, field: &str, errors: &mut Vec<FieldError>) -> Self {
        let mut texts =
            Self { text: kept(errors, format!("{field}.text"), given.text, limits::ITEM_TEXT), ..Self::default() };
        for (name, label, slot) in
            [("minLabel", given.min_label, &mut texts.min_label), ("maxLabel", given.max_label, &mut texts.max_label)]
        {
            if label.is_some() && !item.kind.has_scale_labels() {
                errors.push(FieldError::new(format!("{field}.{name}"), "only Rating items take scale labels"));
            } else {
                *slot = kept(errors, format!("{field}.{name}"), label, limits::SCALE_LABEL);
            }
        }
        texts.options = choice_labels(given.options, &item.options, &format!("{field}.options"), errors);
        texts.rows = choice_labels(given.rows, &item.settings.rows, &format!("{field}.rows"), errors);
        texts
    }

    /// Pushes under `field` each `{{answer...}}` of the text and option labels that names no item of an earlier page
    /// than `item`'s, as the survey's own texts are checked.
    fn check_pipes(&self, tree: &QuestionTree, item: &QuestionItem, field: &str, errors: &mut Vec<FieldError>) {
        let index = tree.page_index(item.page_id).unwrap_or(0);
        if let Some(text) = &self.text {
            super::check_pipes(text, &format!("{field}.text"), tree, index, errors);
        }
        for (value, label) in &self.options {
            super::check_pipes(label, &format!("{field}.options.{value}"), tree, index, errors);
        }
    }

    /// These texts with each piped answer naming its item's pair in `items` (source, copy).
    fn pipes_mapped(&self, items: &[(QuestionItemId, QuestionItemId)]) -> Self {
        let mapped = |text: &String| super::pipes_mapped(text, items);
        Self {
            text: self.text.as_ref().map(mapped),
            options: self.options.iter().map(|(value, label)| (value.clone(), mapped(label))).collect(),
            ..self.clone()
        }
    }

    /// Leaves out the labels of options and rows the item no longer has, and scale labels it no longer takes.
    fn keep_what(&mut self, item: &QuestionItem) {
        self.options.retain(|value, _| item.options.iter().any(|option| option.value == *value));
        self.rows.retain(|value, _| item.settings.rows.iter().any(|row| row.value == *value));
        if !item.kind.has_scale_labels() {
            self.min_label = None;
            self.max_label = None;
        }
    }
}

/// The labels given for a list of options or rows, each naming one of `choices` by its value.
fn choice_labels(
    given: BTreeMap<String, String>,
    choices: &[ChoiceOption],
    field: &str,
    errors: &mut Vec<FieldError>,
) -> BTreeMap<String, String> {
    let mut labels = BTreeMap::new();
    for (value, label) in given {
        let at = format!("{field}.{value}");
        if !choices.iter().any(|choice| choice.value == value) {
            errors.push(FieldError::new(at, format!("`{value}` is not one of the item's values")));
        } else if let Some(label) = kept(errors, at, Some(label), limits::OPTION) {
            labels.insert(value, label);
        }
    }
    labels
}

/// The text when it is not blank and fits in `limit` characters (else a field error and `None`).
fn kept(errors: &mut Vec<FieldError>, field: String, text: Option<String>, limit: usize) -> Option<String> {
    let text = text.filter(|text| !text.trim().is_empty())?;
    if limits::fits(&text, limit) {
        Some(text)
    } else {
        errors.push(FieldError::new(field, format!("must be at most {limit} characters")));
        None
    }
}

#[cfg(test)]
mod tests;
