//! Answer sets: the answers one respondent gave to one survey, the per-type rules an answer must obey, and the
//! date filters of the answer lists.

use std::collections::HashSet;

use time::OffsetDateTime;

use crate::error::FieldError;
use crate::ids::{AnswerSetId, QuestionItemId, RespondentId, SendoutId, SurveyId};
use crate::survey::{QuestionTree, QuestionType};

/// The value of one answer.
#[derive(Debug, Clone, PartialEq)]
pub enum AnswerValue {
    /// OpenText text, or the option value of a SingleChoice item.
    Text(String),
    /// The option values of a MultipleChoice item.
    Choices(Vec<String>),
    /// The number of a Numeric or Rating item.
    Number(f64),
}

/// One answer of a set.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// The item answered.
    pub question_item_id: QuestionItemId,
    /// The answer.
    pub value: AnswerValue,
}

/// A stored answer set. `answers` is filled by the reads that return answers and empty otherwise.
#[derive(Debug, Clone, PartialEq)]
pub struct AnswerSet {
    /// The set's id.
    pub id: AnswerSetId,
    /// The survey answered.
    pub survey_id: SurveyId,
    /// The respondent who answered; `None` for anonymous sets and once distribution data is removed.
    pub respondent_id: Option<RespondentId>,
    /// The sendout the respondent came through.
    pub sendout_id: Option<SendoutId>,
    /// Whether the respondent finished.
    pub completed: bool,
    /// When it was created.
    pub created_at: OffsetDateTime,
    /// When its answers last changed.
    pub updated_at: OffsetDateTime,
    /// Its answers, in the order of the question tree.
    pub answers: Vec<Answer>,
}

/// Longest accepted OpenText answer, in characters.
pub const MAX_TEXT_LEN: usize = 10_000;

/// A checked set of answers: every answer fits its item, and a completed set answers every required item.
#[derive(Debug, Clone, PartialEq)]
pub struct AnswerSetDraft {
    /// Whether the respondent finished.
    pub completed: bool,
    /// The answers, one per item.
    pub answers: Vec<Answer>,
}

impl AnswerSetDraft {
    /// Checks answers against the survey's tree. Field paths are `answers[i].value` and
    /// `answers[i].questionItemId`; a missing required answer of a completed set names `answers`.
    ///
    /// ```
    /// use canvass_domain::answer::{Answer, AnswerSetDraft, AnswerValue};
    /// use canvass_domain::survey::{Page, QuestionItem, QuestionTree, QuestionType};
    ///
    /// let age = QuestionItem { id: 1, page_id: 1, kind: QuestionType::Numeric, text: "Age?".into(),
    ///     required: true, options: vec![] };
    /// let tree = QuestionTree::assemble(1, vec![Page { id: 1, title: String::new(), items: vec![age] }], vec![]);
    /// let text = Answer { question_item_id: 1, value: AnswerValue::Text("old".into()) };
    /// let errors = AnswerSetDraft::check(false, vec![text], &tree).unwrap_err();
    /// assert_eq!(errors[0].field, "answers[0].value");
    /// assert!(AnswerSetDraft::check(true, vec![], &tree).is_err(), "a completed set answers required items");
    /// ```
    pub fn check(completed: bool, answers: Vec<Answer>, tree: &QuestionTree) -> Result<Self, Vec<FieldError>> {
        let mut errors = Vec::new();
        let mut answered = HashSet::new();
        for (index, answer) in answers.iter().enumerate() {
            let Some(item) = tree.item(answer.question_item_id) else {
                errors
                    .push(FieldError::new(format!("answers[{index}].questionItemId"), "is not an item of this survey"));
                continue;
            };
            if !answered.insert(item.id) {
                errors.push(FieldError::new(format!("answers[{index}].questionItemId"), "is answered twice"));
            }
            if let Err(message) = check_value(item.kind, &answer.value, |v| item.has_option(v)) {
                errors.push(FieldError::new(format!("answers[{index}].value"), message));
            }
        }
        if completed {
            let missing: Vec<String> =
                tree.items().filter(|i| i.required && !answered.contains(&i.id)).map(|i| i.id.to_string()).collect();
            if !missing.is_empty() {
                let message = format!("a completed answer set must answer the required items {}", missing.join(", "));
                errors.push(FieldError::new("answers", message));
            }
        }
        if errors.is_empty() {
            let mut answers = answers;
            let order: Vec<QuestionItemId> = tree.items().map(|i| i.id).collect();
            answers.sort_by_key(|a| order.iter().position(|id| *id == a.question_item_id));
            Ok(Self { completed, answers })
        } else {
            Err(errors)
        }
    }
}

/// Whether `value` is a valid answer for an item of type `kind`, `is_option` telling the item's option values.
pub(crate) fn check_value(
    kind: QuestionType,
    value: &AnswerValue,
    is_option: impl Fn(&str) -> bool,
) -> Result<(), String> {
    match (kind, value) {
        (QuestionType::Info, _) => Err("an Info item takes no answer".into()),
        (QuestionType::OpenText, AnswerValue::Text(text)) if text.chars().count() > MAX_TEXT_LEN => {
            Err(format!("must be at most {MAX_TEXT_LEN} characters"))
        }
        (QuestionType::OpenText, AnswerValue::Text(_)) => Ok(()),
        (QuestionType::SingleChoice, AnswerValue::Text(choice)) if is_option(choice) => Ok(()),
        (QuestionType::SingleChoice, AnswerValue::Text(_)) => Err("is not an option value of the item".into()),
        (QuestionType::MultipleChoice, AnswerValue::Choices(choices)) => {
            let mut seen = HashSet::new();
            match choices.iter().find(|c| !is_option(c) || !seen.insert(c.as_str())) {
                None => Ok(()),
                Some(bad) if is_option(bad) => Err(format!("`{bad}` is chosen twice")),
                Some(bad) => Err(format!("`{bad}` is not an option value of the item")),
            }
        }
        (QuestionType::Numeric, AnswerValue::Number(n)) if n.is_finite() => Ok(()),
        (QuestionType::Rating, AnswerValue::Number(n))
            if n.fract() == 0.0 && (QuestionType::RATING_MIN as f64..=QuestionType::RATING_MAX as f64).contains(n) =>
        {
            Ok(())
        }
        (QuestionType::Rating, AnswerValue::Number(_)) => {
            Err(format!("must be a whole number from {} to {}", QuestionType::RATING_MIN, QuestionType::RATING_MAX))
        }
        (QuestionType::OpenText | QuestionType::SingleChoice, _) => Err("must be a string".into()),
        (QuestionType::MultipleChoice, _) => Err("must be an array of option values".into()),
        (QuestionType::Numeric | QuestionType::Rating, _) => Err("must be a number".into()),
    }
}

/// Reads the values a form sent for one item: `None` when it was left empty; an error message when the values
/// do not fit the item's type (a number that is not one, several values for a single choice).
///
/// ```
/// use canvass_domain::answer::{answer_from_form, AnswerValue};
/// use canvass_domain::survey::QuestionType;
///
/// assert_eq!(answer_from_form(QuestionType::Numeric, &["4.5".into()]), Ok(Some(AnswerValue::Number(4.5))));
/// assert_eq!(answer_from_form(QuestionType::OpenText, &["".into()]), Ok(None));
/// assert!(answer_from_form(QuestionType::Rating, &["lots".into()]).is_err());
/// ```
pub fn answer_from_form(kind: QuestionType, values: &[String]) -> Result<Option<AnswerValue>, String> {
    let given: Vec<&String> = values.iter().filter(|v| !v.trim().is_empty()).collect();
    if given.is_empty() || !kind.takes_answer() {
        return Ok(None);
    }
    match kind {
        QuestionType::MultipleChoice => Ok(Some(AnswerValue::Choices(given.into_iter().cloned().collect()))),
        _ if given.len() > 1 => Err("takes one value".into()),
        QuestionType::Numeric | QuestionType::Rating => {
            given[0].trim().parse::<f64>().map(|n| Some(AnswerValue::Number(n))).map_err(|_| "must be a number".into())
        }
        _ => Ok(Some(AnswerValue::Text(given[0].clone()))),
    }
}

/// The date filters of the answer lists, checked: `updated` stands alone, and `from` is not after `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AnswerFilter {
    /// Created at or after.
    pub created_from: Option<OffsetDateTime>,
    /// Created at or before.
    pub created_to: Option<OffsetDateTime>,
    /// Updated at or after.
    pub updated_since: Option<OffsetDateTime>,
    /// Completed sets only.
    pub completed_only: bool,
}

impl AnswerFilter {
    /// Checks the combination of filters.
    ///
    /// ```
    /// use canvass_domain::answer::AnswerFilter;
    /// use time::macros::datetime;
    ///
    /// let day = datetime!(2026-11-22 00:00 UTC);
    /// assert!(AnswerFilter::new(Some(day), Some(day), None, false).is_ok());
    /// assert!(AnswerFilter::new(Some(day), None, Some(day), false).is_err(), "updated excludes from");
    /// assert!(AnswerFilter::new(Some(day), Some(day - time::Duration::DAY), None, false).is_err());
    /// ```
    pub fn new(
        created_from: Option<OffsetDateTime>,
        created_to: Option<OffsetDateTime>,
        updated_since: Option<OffsetDateTime>,
        completed_only: bool,
    ) -> Result<Self, FieldError> {
        if updated_since.is_some() && (created_from.is_some() || created_to.is_some()) {
            return Err(FieldError::new("updated", "cannot be combined with from or to"));
        }
        if let (Some(from), Some(to)) = (created_from, created_to) {
            if from > to {
                return Err(FieldError::new("from", "must not be later than to"));
            }
        }
        Ok(Self { created_from, created_to, updated_since, completed_only })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(kind: QuestionType, value: AnswerValue) -> Result<(), String> {
        check_value(kind, &value, |v| ["a", "b"].contains(&v))
    }

    #[test]
    fn each_type_takes_its_own_value() {
        assert!(check(QuestionType::OpenText, AnswerValue::Text("hi".into())).is_ok());
        assert!(check(QuestionType::SingleChoice, AnswerValue::Text("a".into())).is_ok());
        assert!(check(QuestionType::MultipleChoice, AnswerValue::Choices(vec!["a".into(), "b".into()])).is_ok());
        assert!(check(QuestionType::MultipleChoice, AnswerValue::Choices(vec![])).is_ok());
        assert!(check(QuestionType::Numeric, AnswerValue::Number(-3.5)).is_ok());
        assert!(check(QuestionType::Rating, AnswerValue::Number(10.0)).is_ok());
    }

    #[test]
    fn wrong_shapes_are_refused() {
        assert!(check(QuestionType::OpenText, AnswerValue::Number(1.0)).is_err());
        assert!(check(QuestionType::SingleChoice, AnswerValue::Choices(vec!["a".into()])).is_err());
        assert!(check(QuestionType::MultipleChoice, AnswerValue::Text("a".into())).is_err());
        assert!(check(QuestionType::Numeric, AnswerValue::Text("1".into())).is_err());
        assert!(check(QuestionType::Rating, AnswerValue::Text("1".into())).is_err());
        assert!(check(QuestionType::Info, AnswerValue::Text("x".into())).is_err());
    }

    #[test]
    fn values_outside_the_item_are_refused() {
        assert!(check(QuestionType::SingleChoice, AnswerValue::Text("c".into())).is_err());
        assert!(check(QuestionType::MultipleChoice, AnswerValue::Choices(vec!["a".into(), "a".into()])).is_err());
        assert!(check(QuestionType::MultipleChoice, AnswerValue::Choices(vec!["z".into()])).is_err());
        assert!(check(QuestionType::Rating, AnswerValue::Number(11.0)).is_err());
        assert!(check(QuestionType::Rating, AnswerValue::Number(2.5)).is_err());
        assert!(check(QuestionType::Numeric, AnswerValue::Number(f64::NAN)).is_err());
        assert!(check(QuestionType::OpenText, AnswerValue::Text("x".repeat(MAX_TEXT_LEN + 1))).is_err());
    }

    #[test]
    fn filters_name_the_offending_parameter() {
        let day = time::macros::datetime!(2026-11-22 00:00 UTC);
        assert_eq!(AnswerFilter::new(None, Some(day), Some(day), false).unwrap_err().field, "updated");
        assert_eq!(
            AnswerFilter::new(Some(day + time::Duration::SECOND), Some(day), None, false).unwrap_err().field,
            "from"
        );
    }
}
