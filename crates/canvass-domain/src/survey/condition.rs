//! Conditions on a respondent's answers and background data, combined with `all` and `any`: the one evaluator of
//! jump and end rules, display logic and quotas (the contract's "Logic that real surveys need").

mod check;
pub(crate) mod json;
mod known;
mod rules;
#[cfg(test)]
mod tests;

pub use check::{check_conditions, check_display, MAX_GROUP_DEPTH, MAX_GROUP_MEMBERS};
pub use known::KnownFacts;
pub use rules::{acting_rule, ConditionalRule, RuleAction};

use crate::answer::AnswerValue;
use crate::ids::QuestionItemId;

use super::question::QuestionType;

/// How a condition compares its subject with its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Operator {
    /// The answer is the value (a Matrix row's option, the only choice of a MultipleChoice, the first of a
    /// Ranking).
    Equals,
    /// Not [`Operator::Equals`]; holds on no answer.
    NotEquals,
    /// A number or date after the value.
    GreaterThan,
    /// A number or date before the value.
    LessThan,
    /// A number or date at or after the value.
    AtLeast,
    /// A number or date at or before the value.
    AtMost,
    /// A MultipleChoice that holds the value, or a text that contains it, case-insensitively.
    Contains,
    /// Any answer.
    Answered,
    /// No answer; holds on no answer.
    NotAnswered,
}

impl Operator {
    /// Every operator, in the contract's order.
    pub const ALL: [Operator; 9] = [
        Self::Equals,
        Self::NotEquals,
        Self::GreaterThan,
        Self::LessThan,
        Self::AtLeast,
        Self::AtMost,
        Self::Contains,
        Self::Answered,
        Self::NotAnswered,
    ];

    /// The name clients send and see.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Equals => "equals",
            Self::NotEquals => "notEquals",
            Self::GreaterThan => "greaterThan",
            Self::LessThan => "lessThan",
            Self::AtLeast => "atLeast",
            Self::AtMost => "atMost",
            Self::Contains => "contains",
            Self::Answered => "answered",
            Self::NotAnswered => "notAnswered",
        }
    }

    /// The operator of that name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|operator| operator.as_str() == name)
    }

    /// Whether it compares with a value (all but `answered` and `notAnswered`).
    pub fn takes_value(self) -> bool {
        !matches!(self, Self::Answered | Self::NotAnswered)
    }

    /// Whether it orders numbers or dates.
    fn orders(self) -> bool {
        matches!(self, Self::GreaterThan | Self::LessThan | Self::AtLeast | Self::AtMost)
    }
}

/// What a condition tests: an item's answer, or a background data cell by its label's name.
#[derive(Debug, Clone, PartialEq)]
pub enum Subject {
    /// The answer to this item.
    Item(QuestionItemId),
    /// The respondent's background data under the label of this name.
    Background(String),
}

/// The value a condition compares with.
#[derive(Debug, Clone, PartialEq)]
pub enum ConditionValue {
    /// An option value, a text or a date (`YYYY-MM-DD`).
    Text(String),
    /// A number (Numeric, Rating).
    Number(f64),
    /// A Matrix row's option.
    Cell {
        /// The row's value.
        row: String,
        /// The option's value.
        option: String,
    },
}

/// One test of one subject.
#[derive(Debug, Clone, PartialEq)]
pub struct Condition {
    /// What is tested.
    pub subject: Subject,
    /// How.
    pub operator: Operator,
    /// Against what (none for `answered` and `notAnswered`).
    pub value: Option<ConditionValue>,
}

/// A condition, or a group of them that holds when all (or any) of its members hold.
#[derive(Debug, Clone, PartialEq)]
pub enum Conditions {
    /// One condition.
    One(Condition),
    /// Holds when every member holds (an empty group holds).
    All(Vec<Conditions>),
    /// Holds when some member holds (an empty group does not).
    Any(Vec<Conditions>),
}

// Numbers in conditions are finite (JSON has no NaN, and the reader refuses what is not a number), so equality
// is an equivalence: trees and items that hold conditions compare as `Eq`.
impl Eq for ConditionValue {}
impl Eq for Condition {}
impl Eq for Conditions {}

/// What conditions are evaluated against: one respondent's answers so far and background data.
pub trait Facts {
    /// The answer to the item, with the item's type, if it has one.
    fn answer(&self, item: QuestionItemId) -> Option<(QuestionType, &AnswerValue)>;
    /// The background data cell under the label of that name, if it has one.
    fn background(&self, label: &str) -> Option<&str>;
}

impl Conditions {
    /// Whether the conditions hold for `facts`. A condition on an item with no answer (or a blank one, or no
    /// background cell) holds only for `notEquals` and `notAnswered`; a comparison of values of different kinds
    /// does not hold.
    pub fn holds(&self, facts: &dyn Facts) -> bool {
        match self {
            Self::One(condition) => condition.holds(facts),
            Self::All(members) => members.iter().all(|member| member.holds(facts)),
            Self::Any(members) => members.iter().any(|member| member.holds(facts)),
        }
    }

    /// The conditions with each item replaced by its pair in `items` (old, new), as a copy of the survey has
    /// them; `None` when an item has no pair.
    pub fn mapped(&self, items: &[(QuestionItemId, QuestionItemId)]) -> Option<Self> {
        let members =
            |members: &[Conditions]| members.iter().map(|member| member.mapped(items)).collect::<Option<Vec<_>>>();
        Some(match self {
            Self::One(condition) => {
                let subject = match &condition.subject {
                    Subject::Item(id) => Subject::Item(crate::survey::paired(items, *id)?),
                    Subject::Background(label) => Subject::Background(label.clone()),
                };
                Self::One(Condition { subject, ..condition.clone() })
            }
            Self::All(all) => Self::All(members(all)?),
            Self::Any(any) => Self::Any(members(any)?),
        })
    }

    /// Every condition, depth first.
    pub fn each(&self) -> Vec<&Condition> {
        match self {
            Self::One(condition) => vec![condition],
            Self::All(members) | Self::Any(members) => members.iter().flat_map(Conditions::each).collect(),
        }
    }

    /// Whether a condition names a background label (deciding them then needs the respondent's background data).
    pub fn names_background(&self) -> bool {
        self.each().iter().any(|condition| matches!(condition.subject, Subject::Background(_)))
    }
}

impl Condition {
    /// Whether this one condition holds for `facts`.
    pub fn holds(&self, facts: &dyn Facts) -> bool {
        let found = match &self.subject {
            Subject::Item(item) => facts
                .answer(*item)
                .filter(|(_, answer)| !is_blank(answer))
                .map(|(kind, answer)| Found::Answer(kind, answer)),
            Subject::Background(label) => {
                facts.background(label).filter(|cell| !cell.trim().is_empty()).map(Found::Cell)
            }
        };
        match (self.operator, found) {
            (Operator::Answered, found) => found.is_some(),
            (Operator::NotAnswered, found) => found.is_none(),
            (Operator::NotEquals, None) => true,
            (_, None) => false,
            (Operator::NotEquals, Some(found)) => !equals(&found, self.value.as_ref()),
            (Operator::Equals, Some(found)) => equals(&found, self.value.as_ref()),
            (Operator::Contains, Some(found)) => contains(&found, self.value.as_ref()),
            (operator, Some(found)) => operator.orders() && ordered(operator, &found, self.value.as_ref()),
        }
    }
}

/// A subject's value, once it has one.
enum Found<'a> {
    Answer(QuestionType, &'a AnswerValue),
    Cell(&'a str),
}

fn is_blank(answer: &AnswerValue) -> bool {
    match answer {
        AnswerValue::Text(text) => text.trim().is_empty(),
        AnswerValue::Choices(values) => values.is_empty(),
        AnswerValue::Rows(rows) => rows.is_empty(),
        AnswerValue::Number(_) => false,
    }
}

fn same_text(left: &str, right: &str) -> bool {
    left.trim().to_lowercase() == right.trim().to_lowercase()
}

fn equals(found: &Found<'_>, value: Option<&ConditionValue>) -> bool {
    match (found, value) {
        (Found::Answer(QuestionType::OpenText, AnswerValue::Text(text)), Some(ConditionValue::Text(value))) => {
            same_text(text, value)
        }
        (Found::Answer(_, AnswerValue::Text(text)), Some(ConditionValue::Text(value))) => text == value,
        (Found::Answer(_, AnswerValue::Number(number)), Some(ConditionValue::Number(value))) => number == value,
        // A Ranking equals the option ranked first; a MultipleChoice, its only choice.
        (Found::Answer(QuestionType::Ranking, AnswerValue::Choices(chosen)), Some(ConditionValue::Text(value))) => {
            chosen.first() == Some(value)
        }
        (Found::Answer(_, AnswerValue::Choices(chosen)), Some(ConditionValue::Text(value))) => {
            chosen.len() == 1 && chosen[0] == *value
        }
        (Found::Answer(_, AnswerValue::Rows(rows)), Some(ConditionValue::Cell { row, option })) => {
            rows.iter().any(|(answered, chosen)| answered == row && chosen == option)
        }
        (Found::Cell(cell), Some(ConditionValue::Text(value))) => same_text(cell, value),
        (Found::Cell(cell), Some(ConditionValue::Number(value))) => number_of(cell) == Some(*value),
        _ => false,
    }
}

fn contains(found: &Found<'_>, value: Option<&ConditionValue>) -> bool {
    let Some(ConditionValue::Text(value)) = value else { return false };
    match found {
        Found::Answer(_, AnswerValue::Choices(chosen)) => chosen.iter().any(|choice| choice == value),
        Found::Answer(_, AnswerValue::Text(text)) => text.to_lowercase().contains(&value.trim().to_lowercase()),
        Found::Cell(cell) => cell.to_lowercase().contains(&value.trim().to_lowercase()),
        _ => false,
    }
}

fn number_of(text: &str) -> Option<f64> {
    text.trim().parse::<f64>().ok().filter(|number| number.is_finite())
}

fn ordered(operator: Operator, found: &Found<'_>, value: Option<&ConditionValue>) -> bool {
    let ordering = match (found, value) {
        (Found::Answer(_, AnswerValue::Number(number)), Some(ConditionValue::Number(value))) => {
            number.partial_cmp(value)
        }
        // Dates are `YYYY-MM-DD`: their text orders them.
        (Found::Answer(QuestionType::Date, AnswerValue::Text(date)), Some(ConditionValue::Text(value))) => {
            Some(date.as_str().cmp(value))
        }
        (Found::Cell(cell), Some(ConditionValue::Number(value))) => number_of(cell).and_then(|n| n.partial_cmp(value)),
        _ => None,
    };
    let Some(ordering) = ordering else { return false };
    match operator {
        Operator::GreaterThan => ordering.is_gt(),
        Operator::LessThan => ordering.is_lt(),
        Operator::AtLeast => ordering.is_ge(),
        Operator::AtMost => ordering.is_le(),
        _ => false,
    }
}
