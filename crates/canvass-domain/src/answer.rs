//! Answer sets: the answers one respondent gave to one survey, the per-type rules an answer must obey, and the
//! date filters of the answer lists.

mod conditions;
pub mod export;
pub mod ports;
mod problem;
#[cfg(test)]
mod richer_tests;

pub use conditions::{check_conditions, AnswerCondition, FilterOp, MAX_CONDITIONS, MAX_CONDITION_CHARS, WHERE};
pub use problem::ValueProblem;

use std::collections::{HashMap, HashSet};

use time::OffsetDateTime;

use crate::error::FieldError;
use crate::ids::{AnswerSetId, QuestionItemId, RespondentId, SendoutId, SurveyId};
use crate::language::Language;
use crate::survey::{ChoiceOption, QuestionItem, QuestionTree, QuestionType};

/// The value of one answer. Its `Debug` shows the kind and size of a text, never the text (open text is personal).
#[derive(Clone, PartialEq)]
pub enum AnswerValue {
    /// OpenText text, the option value of a SingleChoice or Dropdown item, or a Date's `YYYY-MM-DD`.
    Text(String),
    /// The option values of a MultipleChoice item, or every option value of a Ranking in the order ranked.
    Choices(Vec<String>),
    /// The number of a Numeric or Rating item.
    Number(f64),
    /// The option value chosen for each row of a Matrix item, by row value, in the order given.
    Rows(Vec<(String, String)>),
}

impl std::fmt::Debug for AnswerValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Text(text) => write!(f, "Text(<{} characters>)", text.chars().count()),
            Self::Choices(values) => write!(f, "Choices(<{} values>)", values.len()),
            Self::Number(number) => f.debug_tuple("Number").field(number).finish(),
            Self::Rows(rows) => write!(f, "Rows(<{} rows>)", rows.len()),
        }
    }
}

impl AnswerValue {
    /// The value as JSON, as it is stored: a string, an array of strings, a number (`null` for one JSON cannot
    /// hold), or an object of strings by row.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::Value;
        match self {
            Self::Text(text) => Value::String(text.clone()),
            Self::Choices(choices) => Value::Array(choices.iter().cloned().map(Value::String).collect()),
            Self::Number(number) => serde_json::Number::from_f64(*number).map_or(Value::Null, Value::Number),
            Self::Rows(rows) => {
                Value::Object(rows.iter().map(|(row, option)| (row.clone(), Value::String(option.clone()))).collect())
            }
        }
    }

    /// Whether it answers nothing: `""`, `[]` or `{}`.
    pub fn is_empty(&self) -> bool {
        match self {
            Self::Text(text) => text.is_empty(),
            Self::Choices(values) => values.is_empty(),
            Self::Rows(rows) => rows.is_empty(),
            Self::Number(_) => false,
        }
    }
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
    /// Whether a full `endSurvey` quota ended it: it is then not completed, and the respondent is thanked.
    pub quota_full: bool,
    /// When it was created.
    pub created_at: OffsetDateTime,
    /// When its answers last changed.
    pub updated_at: OffsetDateTime,
    /// The language its last page was shown in (through the API: the one its body named); `None` when none was.
    pub language: Option<Language>,
    /// Its answers, in the order of the question tree.
    pub answers: Vec<Answer>,
    /// The orders its respondent was shown randomized pages and options in, drawn when its first page was saved;
    /// empty for a set recorded through the API, or of a survey that randomizes nothing.
    pub shown_order: crate::survey::ShownOrder,
}

impl AnswerSet {
    /// Whether the respondent has nothing more to answer in it: it is completed, or a full quota ended it.
    pub fn is_over(&self) -> bool {
        self.completed || self.quota_full
    }
}

/// An answer set as a replacement left it, and whether it had been completed before (read under the lock the
/// replacement takes, so two replacements that complete one set do not both see it open).
#[derive(Debug, Clone, PartialEq)]
pub struct ReplacedAnswerSet {
    /// The set with its new answers and completed flag.
    pub set: AnswerSet,
    /// Whether it was completed before this replacement.
    pub was_completed: bool,
}

impl ReplacedAnswerSet {
    /// Whether this replacement completed a set that was open: the moment of an `answerSet.completed` event.
    pub fn completes(&self) -> bool {
        self.set.completed && !self.was_completed
    }
}

/// Longest accepted OpenText answer, in characters.
pub const MAX_TEXT_LEN: usize = 10_000;

/// A checked set of answers: every answer names an item of the survey, at most once, with a value that fits the
/// item's type and options, in the order of the question tree. A set checked as completed
/// ([`AnswerSetDraft::check`]) answers every required item of the survey; one completed afterwards by
/// [`AnswerSetDraft::finished`], as a respondent reaches the end of the path the logic takes, may leave the required
/// items of the pages the logic skipped unanswered. Read through its accessors.
#[derive(Debug, Clone, PartialEq)]
pub struct AnswerSetDraft {
    completed: bool,
    answers: Vec<Answer>,
    language: Option<Language>,
    shown_order: crate::survey::ShownOrder,
}

impl AnswerSetDraft {
    /// Checks answers against the survey's tree. Field paths are `answers[i].value` and
    /// `answers[i].questionItemId`; a missing required answer of a completed set names `answers`. A completed set
    /// need not answer an item its answers hide (`displayWhen`), and drops the answer such an item had.
    ///
    /// ```
    /// use canvass_domain::answer::{Answer, AnswerSetDraft, AnswerValue};
    /// use canvass_domain::ids::{PageId, QuestionItemId, SurveyId};
    /// use canvass_domain::survey::{Page, QuestionItem, QuestionTree, QuestionType};
    ///
    /// let (page, item) = (PageId::new(1), QuestionItemId::new(1));
    /// let age = QuestionItem { id: item, page_id: page, kind: QuestionType::Numeric, text: "Age?".into(),
    ///     required: true, options: vec![], min_label: None, max_label: None,
    ///     settings: Default::default() };
    /// let tree = QuestionTree::assemble(SurveyId::new(1), vec![Page { id: page, title: String::new(), items: vec![age], randomize_items: false }], vec![]);
    /// let text = Answer { question_item_id: item, value: AnswerValue::Text("old".into()) };
    /// let errors = AnswerSetDraft::check(false, vec![text], &tree).unwrap_err();
    /// assert_eq!(errors[0].field, "answers[0].value");
    /// assert!(AnswerSetDraft::check(true, vec![], &tree).is_err(), "a completed set answers required items");
    /// ```
    pub fn check(completed: bool, answers: Vec<Answer>, tree: &QuestionTree) -> Result<Self, Vec<FieldError>> {
        let mut errors = Vec::new();
        let items: HashMap<QuestionItemId, &QuestionItem> = tree.items().map(|item| (item.id, item)).collect();
        let mut answered = HashSet::new();
        for (index, answer) in answers.iter().enumerate() {
            let Some(item) = items.get(&answer.question_item_id) else {
                errors
                    .push(FieldError::new(format!("answers[{index}].questionItemId"), "is not an item of this survey"));
                continue;
            };
            if !answered.insert(item.id) {
                // Its value is not checked again: each item's options are read once, whatever the body holds.
                errors.push(FieldError::new(format!("answers[{index}].questionItemId"), ANSWERED_TWICE));
                continue;
            }
            if let Err(problem) = tree.check_answer(item, &answer.value) {
                errors.push(FieldError::new(format!("answers[{index}].value"), problem.to_string()));
            }
        }
        let hidden = if completed && errors.is_empty() {
            tree.hidden_items(&answers, &std::collections::BTreeMap::new())
        } else {
            HashSet::new()
        };
        if completed {
            let missing: Vec<String> = tree
                .items()
                .filter(|i| i.required && !answered.contains(&i.id) && !hidden.contains(&i.id))
                .map(|i| i.id.to_string())
                .collect();
            if !missing.is_empty() {
                let message = format!("a completed answer set must answer the required items {}", missing.join(", "));
                errors.push(FieldError::new("answers", message));
            }
        }
        if errors.is_empty() {
            let mut answers = answers;
            let order: HashMap<QuestionItemId, usize> =
                tree.items().enumerate().map(|(position, item)| (item.id, position)).collect();
            answers.sort_by_key(|a| order.get(&a.question_item_id).copied());
            Ok(Self { completed, answers, language: None, shown_order: Default::default() }.without(&hidden))
        } else {
            Err(errors)
        }
    }

    /// The same answers without those to the items `hidden` from the respondent: what a completed set keeps.
    pub fn without(self, hidden: &HashSet<QuestionItemId>) -> Self {
        if hidden.is_empty() {
            return self;
        }
        let answers = self.answers.into_iter().filter(|a| !hidden.contains(&a.question_item_id)).collect();
        Self { answers, ..self }
    }

    /// The same answers, completed: for a respondent who has reached the end of the path the logic takes through
    /// the survey, where the caller has found every required item on that path answered
    /// ([`QuestionTree::missing_on_path`]).
    pub fn finished(self) -> Self {
        Self { completed: true, ..self }
    }

    /// The same answers, given in `language` (a page shown in it, or a body that names it); the set records it.
    pub fn in_language(self, language: Option<Language>) -> Self {
        Self { language, ..self }
    }

    /// The same answers, by a respondent shown `order`; a new set keeps it (a replacement keeps the set's own).
    pub fn shown(self, order: crate::survey::ShownOrder) -> Self {
        Self { shown_order: order, ..self }
    }

    /// The orders the respondent was shown, empty when none was drawn.
    pub fn shown_order(&self) -> &crate::survey::ShownOrder {
        &self.shown_order
    }

    /// Whether the respondent finished.
    pub fn completed(&self) -> bool {
        self.completed
    }

    /// The language the answers were given in, if known.
    pub fn language(&self) -> Option<Language> {
        self.language
    }

    /// The answers, one per item, in the order of the question tree.
    pub fn answers(&self) -> &[Answer] {
        &self.answers
    }
}

const ANSWERED_TWICE: &str = "is answered twice";

/// The rules of a set of answers that need no survey to check (an item answered twice, a value chosen twice),
/// so that a request can be refused before a connection is taken. [`AnswerSetDraft::check`] applies them too.
/// Linear in the answers' size.
///
/// ```
/// use canvass_domain::answer::{check_shape, Answer, AnswerValue};
/// use canvass_domain::ids::QuestionItemId;
///
/// let (item, twice) = (QuestionItemId::new(1), AnswerValue::Choices(vec!["a".into(), "b".into(), "a".into()]));
/// let answers = [Answer { question_item_id: item, value: twice }, Answer { question_item_id: item, value: AnswerValue::Number(1.0) }];
/// let fields: Vec<_> = check_shape(&answers).into_iter().map(|e| e.field).collect();
/// assert_eq!(fields, ["answers[0].value", "answers[1].questionItemId"]);
/// ```
pub fn check_shape(answers: &[Answer]) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let mut answered = HashSet::new();
    for (index, answer) in answers.iter().enumerate() {
        if !answered.insert(answer.question_item_id) {
            errors.push(FieldError::new(format!("answers[{index}].questionItemId"), ANSWERED_TWICE));
        } else if let AnswerValue::Choices(choices) = &answer.value {
            if let Some(repeated) = first_repeated(choices) {
                errors.push(FieldError::new(format!("answers[{index}].value"), chosen_twice(repeated).to_string()));
            }
        }
    }
    errors
}

/// The first value that comes again in `choices`.
fn first_repeated(choices: &[String]) -> Option<&str> {
    let mut seen = HashSet::with_capacity(choices.len());
    choices.iter().map(String::as_str).find(|choice| !seen.insert(*choice))
}

fn chosen_twice(choice: &str) -> ValueProblem {
    ValueProblem::ChosenTwice(shorten(choice))
}

/// A value as an error message quotes it: at most 100 characters.
fn shorten(value: &str) -> String {
    match value.char_indices().nth(100) {
        Some((end, _)) => format!("{}…", &value[..end]),
        None => value.to_owned(),
    }
}

/// Whether `value` is an answer of the item's type that its options (and a Matrix's rows) allow; its answer
/// checks are [`QuestionTree::check_answer`]'s. Linear in the size of the value plus the item's options and rows.
pub(crate) fn check_value(item: &QuestionItem, value: &AnswerValue) -> Result<(), ValueProblem> {
    match (item.kind, value) {
        (QuestionType::Date, AnswerValue::Text(text)) => parse_date(text).map(drop).ok_or(ValueProblem::NotADate),
        (QuestionType::Matrix, AnswerValue::Rows(rows)) => check_rows(item, rows),
        (QuestionType::Matrix, _) => Err(ValueProblem::NotRows),
        (QuestionType::Ranking, AnswerValue::Choices(order)) => check_ranking(&item.options, order),
        (QuestionType::Ranking, _) => Err(ValueProblem::NotOptionValues),
        (kind, value) => check_type(kind, value, &item.options),
    }
}

/// A Date answer's date: `YYYY-MM-DD`.
pub fn parse_date(text: &str) -> Option<time::Date> {
    time::Date::parse(text, &time::format_description::well_known::Iso8601::DATE).ok().filter(|_| text.len() == 10)
}

/// A Matrix answer: each row one of the item's rows, answered with one of its options; a required Matrix answers
/// every row.
fn check_rows(item: &QuestionItem, rows: &[(String, String)]) -> Result<(), ValueProblem> {
    let row_values: HashSet<&str> = item.settings.rows.iter().map(|row| row.value.as_str()).collect();
    let option_values: HashSet<&str> = item.options.iter().map(|option| option.value.as_str()).collect();
    let mut seen = HashSet::with_capacity(rows.len());
    for (row, option) in rows {
        if !row_values.contains(row.as_str()) {
            return Err(ValueProblem::NotARow(shorten(row)));
        }
        if !seen.insert(row.as_str()) {
            return Err(chosen_twice(row));
        }
        if !option_values.contains(option.as_str()) {
            return Err(ValueProblem::NotAnOptionValue(shorten(option)));
        }
    }
    if item.required && seen.len() < row_values.len() {
        return Err(ValueProblem::EveryRow);
    }
    Ok(())
}

/// A Ranking answer: every option value once, in the order ranked.
fn check_ranking(options: &[ChoiceOption], order: &[String]) -> Result<(), ValueProblem> {
    let values: HashSet<&str> = options.iter().map(|o| o.value.as_str()).collect();
    if let Some(bad) = order.iter().find(|value| !values.contains(value.as_str())) {
        return Err(ValueProblem::NotAnOptionValue(shorten(bad)));
    }
    if let Some(repeated) = first_repeated(order) {
        return Err(chosen_twice(repeated));
    }
    if order.len() < options.len() {
        return Err(ValueProblem::RankEveryOption);
    }
    Ok(())
}

/// Whether `value` is a valid answer for an item of type `kind` (not Date, Matrix or Ranking, which
/// [`check_value`] checks) with these options. A multiple choice may choose each option at most once, so it has
/// no more choices than the item has options, and its choices are looked up in a set of the option values.
fn check_type(kind: QuestionType, value: &AnswerValue, options: &[ChoiceOption]) -> Result<(), ValueProblem> {
    match (kind, value) {
        (QuestionType::Info, _) => Err(ValueProblem::InfoTakesNoAnswer),
        (QuestionType::OpenText, AnswerValue::Text(text)) if text.chars().count() > MAX_TEXT_LEN => {
            Err(ValueProblem::TooLong { max: MAX_TEXT_LEN })
        }
        (QuestionType::OpenText, AnswerValue::Text(_)) => Ok(()),
        (QuestionType::SingleChoice | QuestionType::Dropdown, AnswerValue::Text(choice))
            if options.iter().any(|o| o.value == *choice) =>
        {
            Ok(())
        }
        (QuestionType::SingleChoice | QuestionType::Dropdown, AnswerValue::Text(_)) => Err(ValueProblem::NotAnOption),
        (QuestionType::MultipleChoice, AnswerValue::Choices(choices)) if choices.len() > options.len() => {
            Err(ValueProblem::TooManyChoices { chosen: choices.len(), options: options.len() })
        }
        (QuestionType::MultipleChoice, AnswerValue::Choices(choices)) => {
            let values: HashSet<&str> = options.iter().map(|o| o.value.as_str()).collect();
            match choices.iter().find(|choice| !values.contains(choice.as_str())) {
                Some(bad) => Err(ValueProblem::NotAnOptionValue(shorten(bad))),
                None => first_repeated(choices).map_or(Ok(()), |repeated| Err(chosen_twice(repeated))),
            }
        }
        (QuestionType::Numeric, AnswerValue::Number(n)) if n.is_finite() => Ok(()),
        (QuestionType::Rating, AnswerValue::Number(n))
            if n.fract() == 0.0 && (QuestionType::RATING_MIN as f64..=QuestionType::RATING_MAX as f64).contains(n) =>
        {
            Ok(())
        }
        (QuestionType::Rating, AnswerValue::Number(_)) => Err(ValueProblem::OffTheScale),
        (QuestionType::OpenText | QuestionType::SingleChoice | QuestionType::Dropdown | QuestionType::Date, _) => {
            Err(ValueProblem::NotAString)
        }
        (QuestionType::MultipleChoice | QuestionType::Ranking, _) => Err(ValueProblem::NotOptionValues),
        (QuestionType::Numeric | QuestionType::Rating, _) => Err(ValueProblem::NotANumber),
        (QuestionType::Matrix, _) => Err(ValueProblem::NotRows),
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
pub fn answer_from_form(kind: QuestionType, values: &[String]) -> Result<Option<AnswerValue>, ValueProblem> {
    if matches!(kind, QuestionType::Matrix | QuestionType::Ranking) {
        // Their fields are one per row or option: [`answer_from_item_form`] reads them.
        return Ok(None);
    }
    let given: Vec<&String> = values.iter().filter(|v| !v.trim().is_empty()).collect();
    if given.is_empty() || !kind.takes_answer() {
        return Ok(None);
    }
    match kind {
        QuestionType::MultipleChoice => Ok(Some(AnswerValue::Choices(given.into_iter().cloned().collect()))),
        _ if given.len() > 1 => Err(ValueProblem::OneValue),
        QuestionType::Numeric | QuestionType::Rating => {
            given[0].trim().parse::<f64>().map(|n| Some(AnswerValue::Number(n))).map_err(|_| ValueProblem::NotANumber)
        }
        _ => Ok(Some(AnswerValue::Text(given[0].clone()))),
    }
}

/// Reads the fields a form sent for an item (`q<itemId>`, and for a Matrix `q<itemId>-<row index>`, for a Ranking
/// `q<itemId>-<option index>` with a place from 1): `None` when all were left empty; an error when they do not
/// fit (a Ranking with some places left empty, a place out of range or given twice).
pub fn answer_from_item_form(
    item: &QuestionItem,
    form: &[(String, String)],
) -> Result<Option<AnswerValue>, ValueProblem> {
    let field = |name: &str| -> Vec<String> {
        form.iter().filter(|(key, _)| key == name).map(|(_, value)| value.clone()).collect()
    };
    let one = |name: String| -> Result<Option<String>, ValueProblem> {
        let given: Vec<String> = field(&name).into_iter().filter(|value| !value.trim().is_empty()).collect();
        match given.as_slice() {
            [] => Ok(None),
            [value] => Ok(Some(value.clone())),
            _ => Err(ValueProblem::OneValue),
        }
    };
    match item.kind {
        QuestionType::Matrix => {
            let mut rows = Vec::new();
            for (index, row) in item.settings.rows.iter().enumerate() {
                if let Some(option) = one(format!("q{}-{index}", item.id))? {
                    rows.push((row.value.clone(), option));
                }
            }
            Ok((!rows.is_empty()).then_some(AnswerValue::Rows(rows)))
        }
        QuestionType::Ranking => {
            let places: Vec<Option<String>> =
                (0..item.options.len()).map(|index| one(format!("q{}-{index}", item.id))).collect::<Result<_, _>>()?;
            if places.iter().all(Option::is_none) {
                return Ok(None);
            }
            let count = item.options.len();
            let mut ranked: Vec<(usize, &str)> = Vec::with_capacity(count);
            for (option, place) in item.options.iter().zip(&places) {
                let place = place.as_deref().ok_or(ValueProblem::RankEveryOption)?;
                let place = place.trim().parse::<usize>().ok().filter(|p| (1..=count).contains(p));
                ranked.push((place.ok_or(ValueProblem::RankEveryOption)?, option.value.as_str()));
            }
            ranked.sort_unstable();
            if ranked.windows(2).any(|pair| pair[0].0 == pair[1].0) {
                return Err(ValueProblem::PlaceTwice);
            }
            Ok(Some(AnswerValue::Choices(ranked.into_iter().map(|(_, value)| value.to_owned()).collect())))
        }
        kind => answer_from_form(kind, &field(&format!("q{}", item.id))),
    }
}

/// The filters of the answer lists, results and exports, checked: `updated` stands alone, and `from` is not after
/// `to`. Results and exports also take a sendout ([`AnswerFilter::of_sendout`]); the lists take none.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AnswerFilter {
    /// Created at or after.
    pub created_from: Option<OffsetDateTime>,
    /// Created at or before.
    pub created_to: Option<OffsetDateTime>,
    /// Updated at or after.
    pub updated_since: Option<OffsetDateTime>,
    /// Completed sets only.
    pub completed_only: bool,
    /// The sets of this sendout's respondents only (a sendout of the survey, checked by the use case).
    pub sendout_id: Option<SendoutId>,
    /// The sets last shown (or given) in this language only.
    pub language: Option<Language>,
    /// The sets whose answers meet every one of these conditions only (checked against the tree by the use case).
    pub conditions: Vec<AnswerCondition>,
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
        Ok(Self { created_from, created_to, updated_since, completed_only, ..Self::default() })
    }

    /// The same filter, narrowed to the sets of one sendout's respondents when `sendout` is given.
    pub fn of_sendout(self, sendout: Option<SendoutId>) -> Self {
        Self { sendout_id: sendout, ..self }
    }

    /// The same filter, narrowed to the sets in `language` when it is given.
    pub fn in_language(self, language: Option<Language>) -> Self {
        Self { language, ..self }
    }

    /// The same filter, narrowed to the sets that meet every condition.
    pub fn meeting(self, conditions: Vec<AnswerCondition>) -> Self {
        Self { conditions, ..self }
    }

    /// Whether a set's answers meet every condition.
    pub fn conditions_hold(&self, answers: &[Answer]) -> bool {
        self.conditions.iter().all(|condition| {
            let answer = answers.iter().find(|answer| answer.question_item_id == condition.item);
            condition.holds(answer.map(|answer| &answer.value))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::PageId;

    fn check(kind: QuestionType, value: AnswerValue) -> Result<(), ValueProblem> {
        let options: Vec<ChoiceOption> =
            ["a", "b"].iter().map(|v| ChoiceOption { value: (*v).into(), label: (*v).into() }).collect();
        check_type(kind, &value, &options)
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

    fn options(count: usize) -> Vec<ChoiceOption> {
        (0..count).map(|i| ChoiceOption { value: format!("o{i}"), label: format!("Option {i}") }).collect()
    }

    #[test]
    fn a_multiple_choice_chooses_each_option_at_most_once() {
        let many: Vec<String> = (0..50_000).map(|i| format!("o{i}")).collect();
        let kind = QuestionType::MultipleChoice;
        let message = check_type(kind, &AnswerValue::Choices(many.clone()), &options(3)).unwrap_err().to_string();
        assert_eq!(message, "chooses 50000 values; the item has 3 options, each of which can be chosen once");
        assert_eq!(check_type(kind, &AnswerValue::Choices(many.clone()), &options(50_000)), Ok(()));
        let mut repeated = many;
        repeated[49_999] = "o17".into();
        let message = check_type(kind, &AnswerValue::Choices(repeated.clone()), &options(50_000)).unwrap_err();
        assert_eq!(message.to_string(), "`o17` is chosen twice");
        repeated[49_999] = "x".repeat(1_000);
        let message = check_type(kind, &AnswerValue::Choices(repeated), &options(50_000)).unwrap_err().to_string();
        assert!(message.len() < 150, "a quoted value is shortened: {message}");
    }

    #[test]
    fn an_item_answered_again_and_again_is_checked_once() {
        let item = QuestionItem {
            id: QuestionItemId::new(1),
            page_id: PageId::new(1),
            kind: QuestionType::MultipleChoice,
            text: "q".into(),
            required: false,
            options: options(1_000),
            min_label: None,
            max_label: None,
            settings: Default::default(),
        };
        let tree = QuestionTree::assemble(
            SurveyId::new(1),
            vec![crate::survey::Page {
                id: PageId::new(1),
                title: String::new(),
                items: vec![item],
                randomize_items: false,
            }],
            vec![],
        );
        let all: Vec<String> = (0..1_000).map(|i| format!("o{i}")).collect();
        let answers: Vec<Answer> = (0..1_000)
            .map(|_| Answer { question_item_id: QuestionItemId::new(1), value: AnswerValue::Choices(all.clone()) })
            .collect();
        let errors = AnswerSetDraft::check(false, answers.clone(), &tree).unwrap_err();
        assert_eq!(errors.len(), 999);
        assert!(errors.iter().all(|e| e.message == "is answered twice"));
        assert_eq!(errors[0].field, "answers[1].questionItemId");
        assert_eq!(check_shape(&answers).len(), 999, "refused before the survey is read, too");
        assert!(AnswerSetDraft::check(false, answers[..1].to_vec(), &tree).is_ok());
    }

    #[test]
    fn the_shape_check_needs_no_survey() {
        let choices = |values: &[&str]| AnswerValue::Choices(values.iter().map(|v| (*v).to_owned()).collect());
        let answers = [
            Answer { question_item_id: QuestionItemId::new(1), value: choices(&["a", "b"]) },
            Answer { question_item_id: QuestionItemId::new(2), value: choices(&["a", "b", "b"]) },
            Answer { question_item_id: QuestionItemId::new(3), value: AnswerValue::Text("x".into()) },
            Answer { question_item_id: QuestionItemId::new(3), value: AnswerValue::Text("y".into()) },
        ];
        let errors = check_shape(&answers);
        let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["answers[1].value", "answers[3].questionItemId"]);
        assert_eq!(errors[0].message, "`b` is chosen twice");
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
