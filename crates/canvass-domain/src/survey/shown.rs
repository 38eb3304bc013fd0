//! The survey's texts as a respondent is shown them: in the language it is shown, each text translated where the
//! survey holds a translation of it, else the survey's own, which is then named (by [`TextKey`]) so that a page can
//! mark it as being in the survey's language.

use std::collections::HashSet;

use crate::ids::{PageId, QuestionItemId};

use super::{Page, QuestionItem, TranslatedTexts};

/// One text of a survey.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TextKey {
    /// The survey's name.
    Name,
    /// The survey's own thank-you text.
    ThankYouMessage,
    /// A page's title.
    PageTitle(PageId),
    /// An item's question or information text.
    Text(QuestionItemId),
    /// A Rating item's low-end words.
    MinLabel(QuestionItemId),
    /// A Rating item's high-end words.
    MaxLabel(QuestionItemId),
    /// The label of an item's option, by its value.
    Option(QuestionItemId, String),
    /// The label of a Matrix row, by its value.
    Row(QuestionItemId, String),
}

impl TranslatedTexts {
    /// The text shown for `key`: its translation here, else `own` (and `key` joins `untranslated`).
    pub fn shown(
        &self,
        key: TextKey,
        own: &str,
        translated: Option<&String>,
        untranslated: &mut HashSet<TextKey>,
    ) -> String {
        match translated {
            Some(text) => text.clone(),
            None => {
                untranslated.insert(key);
                own.to_owned()
            }
        }
    }

    /// `page` with this translation's texts in place of the survey's own; every text left in the survey's own
    /// language joins `untranslated`.
    ///
    /// ```
    /// use std::collections::HashSet;
    /// use canvass_domain::ids::{PageId, SurveyId};
    /// use canvass_domain::survey::{Page, TextKey, TranslatedTexts};
    ///
    /// let page = Page { id: PageId::new(1), title: "Arbete".into(), items: vec![], randomize_items: false };
    /// let mut untranslated = HashSet::new();
    /// let shown = TranslatedTexts::default().translate_page(page, &mut untranslated);
    /// assert_eq!((shown.title.as_str(), untranslated.contains(&TextKey::PageTitle(PageId::new(1)))), ("Arbete", true));
    /// ```
    pub fn translate_page(&self, mut page: Page, untranslated: &mut HashSet<TextKey>) -> Page {
        if !page.title.trim().is_empty() {
            page.title = self.shown(TextKey::PageTitle(page.id), &page.title, self.pages.get(&page.id), untranslated);
        }
        for item in &mut page.items {
            self.translate_item_in(item, untranslated);
        }
        page
    }

    /// `item` with this translation's texts in place of the survey's own (a TWOWAY question, asked alone).
    pub fn translate_item(&self, mut item: QuestionItem) -> QuestionItem {
        self.translate_item_in(&mut item, &mut HashSet::new());
        item
    }

    fn translate_item_in(&self, item: &mut QuestionItem, untranslated: &mut HashSet<TextKey>) {
        let texts = self.items.get(&item.id);
        let id = item.id;
        item.text = self.shown(TextKey::Text(id), &item.text, texts.and_then(|t| t.text.as_ref()), untranslated);
        if let Some(label) = &item.min_label {
            let given = texts.and_then(|t| t.min_label.as_ref());
            item.min_label = Some(self.shown(TextKey::MinLabel(id), label, given, untranslated));
        }
        if let Some(label) = &item.max_label {
            let given = texts.and_then(|t| t.max_label.as_ref());
            item.max_label = Some(self.shown(TextKey::MaxLabel(id), label, given, untranslated));
        }
        for option in &mut item.options {
            let given = texts.and_then(|t| t.options.get(&option.value));
            let key = TextKey::Option(id, option.value.clone());
            option.label = self.shown(key, &option.label, given, untranslated);
        }
        for row in &mut item.settings.rows {
            let given = texts.and_then(|t| t.rows.get(&row.value));
            row.label = self.shown(TextKey::Row(id, row.value.clone()), &row.label, given, untranslated);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::survey::{ChoiceOption, ItemSettings, ItemTexts, QuestionItem, QuestionType};

    #[test]
    fn translated_texts_replace_the_survey_s_and_the_rest_are_named() {
        let item = QuestionItem {
            id: QuestionItemId::new(2),
            page_id: PageId::new(1),
            kind: QuestionType::Matrix,
            text: "Hur nöjd?".into(),
            required: false,
            options: vec![ChoiceOption { value: "1".into(), label: "Dålig".into() }],
            min_label: None,
            max_label: None,
            settings: ItemSettings {
                rows: vec![ChoiceOption { value: "pay".into(), label: "Lön".into() }],
                ..ItemSettings::default()
            },
        };
        let page = Page { id: PageId::new(1), title: String::new(), items: vec![item], randomize_items: false };
        let texts = TranslatedTexts {
            items: [(
                QuestionItemId::new(2),
                ItemTexts { rows: [("pay".into(), "Pay".into())].into(), ..ItemTexts::default() },
            )]
            .into(),
            ..TranslatedTexts::default()
        };
        let mut untranslated = HashSet::new();
        let shown = texts.translate_page(page, &mut untranslated);
        assert_eq!(shown.items[0].settings.rows[0].label, "Pay");
        assert_eq!(shown.items[0].text, "Hur nöjd?");
        let expected =
            HashSet::from([TextKey::Text(QuestionItemId::new(2)), TextKey::Option(QuestionItemId::new(2), "1".into())]);
        assert_eq!(untranslated, expected, "an empty title is no text to translate");
    }
}
