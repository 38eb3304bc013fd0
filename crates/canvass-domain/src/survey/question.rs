//! Question items: their types, choice options and the rules a new item must obey.

use std::collections::HashSet;

use crate::error::FieldError;
use crate::ids::{PageId, QuestionItemId};

use super::settings::ItemSettings;

/// The kinds of question item. Their names (`SingleChoice`, ...) are what clients send and see, and what the store
/// keeps.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    strum::Display,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
pub enum QuestionType {
    /// One option value out of the item's options.
    SingleChoice,
    /// Any number of distinct option values.
    MultipleChoice,
    /// Free text.
    OpenText,
    /// Any finite number.
    Numeric,
    /// A whole number from [`QuestionType::RATING_MIN`] to [`QuestionType::RATING_MAX`].
    Rating,
    /// Text shown to the respondent; takes no answer.
    Info,
    /// One option value out of a long list, shown as a drop-down list.
    Dropdown,
    /// A calendar date, `YYYY-MM-DD`.
    Date,
    /// A grid of rows (statements) that share one scale of options: one option value per row.
    Matrix,
    /// Every option value in the order the respondent ranks them.
    Ranking,
}

impl QuestionType {
    /// Lowest rating.
    pub const RATING_MIN: i64 = 0;
    /// Highest rating.
    pub const RATING_MAX: i64 = 10;

    /// The name clients send and see.
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// Whether items of this type need options (and only they may have them).
    pub const fn has_options(self) -> bool {
        matches!(self, Self::SingleChoice | Self::MultipleChoice | Self::Dropdown | Self::Matrix | Self::Ranking)
    }

    /// Whether items of this type may show their options in an order drawn per respondent (`randomizeOptions`).
    pub const fn shuffles_options(self) -> bool {
        matches!(self, Self::SingleChoice | Self::MultipleChoice | Self::Dropdown | Self::Ranking)
    }

    /// How many options items of this type take.
    pub const fn option_counts(self) -> std::ops::RangeInclusive<usize> {
        match self {
            Self::Matrix => 2..=11,
            Self::Ranking => 2..=20,
            _ if self.has_options() => 1..=crate::limits::OPTIONS,
            _ => 0..=0,
        }
    }

    /// Whether TWOWAY conversations ask items of this type (they skip Date, Matrix and Ranking items).
    pub const fn asked_by_sms(self) -> bool {
        !matches!(self, Self::Date | Self::Matrix | Self::Ranking)
    }

    /// Whether items of this type take an answer.
    pub const fn takes_answer(self) -> bool {
        !matches!(self, Self::Info)
    }

    /// Whether items of this type may have words at the low and high ends of their scale (only Rating items do).
    pub const fn has_scale_labels(self) -> bool {
        matches!(self, Self::Rating)
    }
}

/// One option of a choice item: the stored `value` and the `label` shown.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ChoiceOption {
    /// The value an answer carries.
    pub value: String,
    /// The text shown to the respondent.
    pub label: String,
}

/// A new question item as a client describes it, before checking.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuestionItemDraft {
    /// Its type.
    pub kind: QuestionType,
    /// The question or information text; non-empty.
    pub text: String,
    /// Whether a completed answer set must answer it; never for [`QuestionType::Info`].
    pub required: bool,
    /// Options of choice items; empty for the others.
    pub options: Vec<ChoiceOption>,
    /// The words at the low end of a Rating item's scale; none for the others (blank means none).
    pub min_label: Option<String>,
    /// The words at the high end of a Rating item's scale; none for the others (blank means none).
    pub max_label: Option<String>,
    /// What only some types take: the checks of their answers.
    pub settings: ItemSettings,
}

impl Default for QuestionItemDraft {
    fn default() -> Self {
        Self {
            kind: QuestionType::OpenText,
            text: String::new(),
            required: false,
            options: Vec::new(),
            min_label: None,
            max_label: None,
            settings: ItemSettings::default(),
        }
    }
}

impl QuestionItemDraft {
    /// The broken rules of this item, with field paths under `path`.
    ///
    /// ```
    /// use canvass_domain::survey::{ChoiceOption, QuestionItemDraft, QuestionType};
    ///
    /// let item = QuestionItemDraft { kind: QuestionType::SingleChoice, text: "Colour?".into(), required: true,
    ///     options: vec![], min_label: Some("Pale".into()), ..Default::default() };
    /// let fields: Vec<_> = item.check("items[0]").into_iter().map(|e| e.field).collect();
    /// assert_eq!(fields, ["items[0].minLabel", "items[0].options"]);
    /// ```
    pub fn check(&self, path: &str) -> Vec<FieldError> {
        let mut errors = Vec::new();
        if self.text.trim().is_empty() {
            errors.push(FieldError::new(format!("{path}.text"), "must not be empty"));
        }
        crate::limits::push_length(&mut errors, format!("{path}.text"), &self.text, crate::limits::ITEM_TEXT);
        if self.required && !self.kind.takes_answer() {
            errors.push(FieldError::new(format!("{path}.required"), "an Info item takes no answer"));
        }
        for (name, label) in [("minLabel", &self.min_label), ("maxLabel", &self.max_label)] {
            let field = format!("{path}.{name}");
            match crate::limits::check_optional_text(field.as_str(), label.as_deref(), crate::limits::SCALE_LABEL) {
                Ok(Some(_)) if !self.kind.has_scale_labels() => {
                    errors.push(FieldError::new(field, "only Rating items take scale labels"))
                }
                Ok(_) => {}
                Err(error) => errors.push(error),
            }
        }
        errors.extend(self.settings.check(self.kind, &self.options, path));
        if !self.kind.has_options() {
            if !self.options.is_empty() {
                errors.push(FieldError::new(format!("{path}.options"), format!("{} items have no options", self.kind)));
            }
            return errors;
        }
        let counts = self.kind.option_counts();
        if self.options.is_empty() {
            errors.push(FieldError::new(format!("{path}.options"), "choice items need at least one option"));
        } else if self.options.len() < *counts.start() {
            let message = format!("{} items need at least {} options", self.kind, counts.start());
            errors.push(FieldError::new(format!("{path}.options"), message));
        }
        if self.options.len() > *counts.end() {
            // One error for the list, none for each of its many options.
            errors.push(FieldError::new(
                format!("{path}.options"),
                format!("must hold at most {} options", counts.end()),
            ));
            return errors;
        }
        check_choices(&mut errors, &format!("{path}.options"), &self.options);
        errors
    }

    /// The item with a blank scale label taken as none, as it is stored.
    pub(crate) fn without_blank_labels(self) -> Self {
        let present = |label: Option<String>| label.filter(|label| !label.trim().is_empty());
        Self { min_label: present(self.min_label), max_label: present(self.max_label), ..self }
    }
}

/// The broken rules of a list of options (or Matrix rows) at `path`: non-empty distinct values, non-empty labels,
/// each within its length.
pub(crate) fn check_choices(errors: &mut Vec<FieldError>, path: &str, choices: &[ChoiceOption]) {
    let mut seen = HashSet::new();
    for (index, option) in choices.iter().enumerate() {
        let at = |field: &str| format!("{path}[{index}].{field}");
        if option.value.trim().is_empty() {
            errors.push(FieldError::new(at("value"), "must not be empty"));
        } else if !seen.insert(option.value.as_str()) {
            errors.push(FieldError::new(at("value"), "is given twice"));
        }
        if option.label.trim().is_empty() {
            errors.push(FieldError::new(at("label"), "must not be empty"));
        }
        crate::limits::push_length(errors, at("value"), &option.value, crate::limits::OPTION);
        crate::limits::push_length(errors, at("label"), &option.label, crate::limits::OPTION);
    }
}

/// A stored question item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuestionItem {
    /// The item's id.
    pub id: QuestionItemId,
    /// The page it is on.
    pub page_id: PageId,
    /// Its type.
    pub kind: QuestionType,
    /// Its text.
    pub text: String,
    /// Whether a completed answer set must answer it.
    pub required: bool,
    /// Options of a choice item.
    pub options: Vec<ChoiceOption>,
    /// The words at the low end of a Rating item's scale, if any.
    pub min_label: Option<String>,
    /// The words at the high end of a Rating item's scale, if any.
    pub max_label: Option<String>,
    /// What only some types take: the checks of their answers.
    pub settings: ItemSettings,
}

impl QuestionItem {
    /// What the item is and holds, as a draft: the copy of a survey stores it again.
    pub fn to_draft(&self) -> QuestionItemDraft {
        QuestionItemDraft {
            kind: self.kind,
            text: self.text.clone(),
            required: self.required,
            options: self.options.clone(),
            min_label: self.min_label.clone(),
            max_label: self.max_label.clone(),
            settings: self.settings.clone(),
        }
    }

    /// Whether `value` is one of this item's option values.
    pub fn has_option(&self, value: &str) -> bool {
        self.options.iter().any(|option| option.value == value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn option(value: &str) -> ChoiceOption {
        ChoiceOption { value: value.into(), label: value.to_uppercase() }
    }

    fn fields(item: &QuestionItemDraft) -> Vec<String> {
        item.check("i").into_iter().map(|e| e.field).collect()
    }

    #[test]
    fn type_names_round_trip() {
        for &kind in <QuestionType as strum::VariantArray>::VARIANTS {
            assert_eq!(kind.as_str().parse(), Ok(kind));
        }
        assert!("singlechoice".parse::<QuestionType>().is_err());
    }

    #[test]
    fn choice_items_need_distinct_non_empty_options() {
        let item = QuestionItemDraft {
            kind: QuestionType::MultipleChoice,
            text: "q".into(),
            options: vec![option("a"), option("a"), ChoiceOption { value: " ".into(), label: String::new() }],
            ..QuestionItemDraft::default()
        };
        assert_eq!(fields(&item), ["i.options[1].value", "i.options[2].value", "i.options[2].label"]);
    }

    #[test]
    fn choice_items_hold_at_most_the_options_limit() {
        for kind in [QuestionType::SingleChoice, QuestionType::MultipleChoice] {
            let options = |count: usize| (0..count).map(|n| option(&format!("v{n}"))).collect();
            let item =
                |count| QuestionItemDraft { kind, text: "q".into(), options: options(count), ..Default::default() };
            assert!(item(crate::limits::OPTIONS).check("i").is_empty(), "{kind}: the limit itself is allowed");
            let over = item(crate::limits::OPTIONS + 1).check("i");
            let found: Vec<_> = over.iter().map(|e| (e.field.as_str(), e.message.as_str())).collect();
            assert_eq!(found, [("i.options", "must hold at most 1000 options")], "{kind}: one error, for the list");
        }
    }

    #[test]
    fn other_items_take_no_options() {
        for kind in [QuestionType::OpenText, QuestionType::Numeric, QuestionType::Rating, QuestionType::Info] {
            let item = QuestionItemDraft {
                kind,
                text: "q".into(),
                options: vec![option("a")],
                ..QuestionItemDraft::default()
            };
            assert_eq!(fields(&item), ["i.options"], "{kind}");
        }
    }

    #[test]
    fn info_items_cannot_be_required() {
        let item = QuestionItemDraft {
            kind: QuestionType::Info,
            text: "hello".into(),
            required: true,
            ..QuestionItemDraft::default()
        };
        assert_eq!(fields(&item), ["i.required"]);
    }

    #[test]
    fn a_good_item_passes() {
        let item = QuestionItemDraft {
            kind: QuestionType::SingleChoice,
            text: "q".into(),
            required: true,
            options: vec![option("a")],
            ..QuestionItemDraft::default()
        };
        assert!(item.check("i").is_empty());
    }

    fn rating(min_label: Option<&str>, max_label: Option<&str>) -> QuestionItemDraft {
        QuestionItemDraft {
            kind: QuestionType::Rating,
            text: "How likely?".into(),
            min_label: min_label.map(Into::into),
            max_label: max_label.map(Into::into),
            ..QuestionItemDraft::default()
        }
    }

    #[test]
    fn rating_items_take_scale_labels_up_to_their_limit() {
        let longest = "é".repeat(crate::limits::SCALE_LABEL);
        assert!(rating(Some(&longest), Some(&longest)).check("i").is_empty());
        assert!(rating(Some("Not at all"), None).check("i").is_empty());
        let over = format!("{longest}x");
        assert_eq!(fields(&rating(Some(&over), Some("Very"))), ["i.minLabel"]);
        assert_eq!(fields(&rating(Some("Poor"), Some(&over))), ["i.maxLabel"]);
        let padded = format!(" {longest}");
        assert_eq!(fields(&rating(Some(&padded), None)), ["i.minLabel"], "measured as sent, blanks included");
    }

    #[test]
    fn only_rating_items_take_scale_labels() {
        for kind in
            <QuestionType as strum::VariantArray>::VARIANTS.iter().copied().filter(|&k| k != QuestionType::Rating)
        {
            let item = QuestionItemDraft { kind, options: vec![option("a")], ..rating(Some("Low"), Some("High")) };
            let found = fields(&item);
            assert_eq!(found[..2], ["i.minLabel", "i.maxLabel"], "{kind}");
            let messages: Vec<_> = item.check("i").into_iter().take(2).map(|e| e.message).collect();
            assert!(messages.iter().all(|m| m == "only Rating items take scale labels"), "{messages:?}");
        }
        let blank = QuestionItemDraft { kind: QuestionType::OpenText, ..rating(Some(""), Some(" \t")) };
        assert!(blank.check("i").is_empty(), "a blank label is no label");
    }

    #[test]
    fn blank_scale_labels_are_stored_as_none_and_others_as_given() {
        let item = rating(Some("  "), Some(" Very likely")).without_blank_labels();
        assert_eq!((item.min_label, item.max_label), (None, Some(" Very likely".to_owned())));
    }
}
