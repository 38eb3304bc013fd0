//! Answer filters (`where=<questionItemId>:<op>:<value>`): conditions on one item's answer that an answer set must
//! meet to be listed, exported, counted in results or shown in a report. Read from text here, checked against the
//! survey's tree by the use cases, and compiled by the store into one statement with every value bound.

use std::fmt;

use crate::error::FieldError;
use crate::ids::QuestionItemId;
use crate::survey::{QuestionTree, QuestionType};

/// The query parameter the conditions come from, named by every error about them.
pub const WHERE: &str = "where";

/// At most this many conditions in one request.
pub const MAX_CONDITIONS: usize = 20;

/// At most this many values in one `in` condition.
pub const MAX_VALUES: usize = 100;

/// At most this many characters in one condition.
pub const MAX_CONDITION_CHARS: usize = 4_096;

/// At most this many characters in one value.
pub const MAX_VALUE_CHARS: usize = 1_000;

/// How a condition compares an answer with its values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FilterOp {
    /// The answer is the value (a MultipleChoice answer chose it).
    Eq,
    /// Not [`FilterOp::Eq`]; also holds when the item has no answer.
    Ne,
    /// A number or date after the value.
    Gt,
    /// A number or date before the value.
    Lt,
    /// The answer is one of the values (a MultipleChoice answer chose one of them).
    In,
}

impl FilterOp {
    /// Every operator.
    pub const ALL: [FilterOp; 5] = [Self::Eq, Self::Ne, Self::Gt, Self::Lt, Self::In];

    /// The name clients send.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Eq => "eq",
            Self::Ne => "ne",
            Self::Gt => "gt",
            Self::Lt => "lt",
            Self::In => "in",
        }
    }

    /// Whether it orders values (numbers and dates only).
    pub fn orders(self) -> bool {
        matches!(self, Self::Gt | Self::Lt)
    }
}

/// One condition: the answer to `item` compared by `op` with `values` (one, or several for `in`), as given. Its
/// `Debug` leaves the values out: a filter on open text may quote personal data.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct AnswerCondition {
    /// The item whose answer is tested.
    pub item: QuestionItemId,
    /// How.
    pub op: FilterOp,
    /// Against what, as text (numbers are read as numbers where the answer is one).
    pub values: Vec<String>,
}

impl fmt::Debug for AnswerCondition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AnswerCondition")
            .field("item", &self.item)
            .field("op", &self.op)
            .field("values", &format_args!("<{} values>", self.values.len()))
            .finish()
    }
}

impl AnswerCondition {
    /// Reads `<questionItemId>:<op>:<value>` (the value may hold colons; `in` splits it at `|`). Says what is
    /// wrong naming [`WHERE`].
    ///
    /// ```
    /// use canvass_domain::answer::{AnswerCondition, FilterOp};
    ///
    /// let condition = AnswerCondition::parse("12:in:a|b:c").unwrap();
    /// assert_eq!((condition.item.get(), condition.op), (12, FilterOp::In));
    /// assert_eq!(condition.values, ["a", "b:c"]);
    /// assert!(AnswerCondition::parse("12:like:a").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Self, FieldError> {
        let invalid = |message: String| FieldError::new(WHERE, message);
        if text.chars().count() > MAX_CONDITION_CHARS {
            return Err(invalid(format!("a condition has at most {MAX_CONDITION_CHARS} characters")));
        }
        let mut parts = text.splitn(3, ':');
        let (Some(item), Some(op), Some(value)) = (parts.next(), parts.next(), parts.next()) else {
            return Err(invalid("must be <questionItemId>:<op>:<value>".into()));
        };
        let item = item
            .trim()
            .parse::<i64>()
            .ok()
            .filter(|id| *id > 0)
            .ok_or_else(|| invalid(format!("{item:?} is not a question item id")))?;
        let op = FilterOp::ALL
            .into_iter()
            .find(|known| known.as_str() == op)
            .ok_or_else(|| invalid(format!("{op:?} is not an operator: eq, ne, gt, lt or in")))?;
        let values: Vec<String> =
            if op == FilterOp::In { value.split('|').map(str::to_owned).collect() } else { vec![value.to_owned()] };
        if values.len() > MAX_VALUES {
            return Err(invalid(format!("`in` takes at most {MAX_VALUES} values")));
        }
        if values.iter().any(|value| value.chars().count() > MAX_VALUE_CHARS) {
            return Err(invalid(format!("a value has at most {MAX_VALUE_CHARS} characters")));
        }
        Ok(Self { item: QuestionItemId::new(item), op, values })
    }

    /// Whether the condition holds for an item's answer (`None`: no answer). As the store compiles it: a number
    /// compares with the values that are numbers, a text with the values as text (dates as `YYYY-MM-DD` order),
    /// a MultipleChoice answer meets `eq` and `in` when it chose a value; other answers meet only `ne`.
    pub fn holds(&self, answer: Option<&super::AnswerValue>) -> bool {
        use super::AnswerValue;
        let meets = |value: &String| match (answer, self.op) {
            (Some(AnswerValue::Number(number)), op) => Self::number(value).is_some_and(|wanted| match op {
                FilterOp::Gt => *number > wanted,
                FilterOp::Lt => *number < wanted,
                _ => *number == wanted,
            }),
            (Some(AnswerValue::Text(text)), FilterOp::Gt) => text > value,
            (Some(AnswerValue::Text(text)), FilterOp::Lt) => text < value,
            (Some(AnswerValue::Text(text)), _) => text == value,
            (Some(AnswerValue::Choices(chosen)), op) => !op.orders() && chosen.contains(value),
            (Some(AnswerValue::Rows(_)) | None, _) => false,
        };
        let met = self.values.iter().any(meets);
        if self.op == FilterOp::Ne {
            !met
        } else {
            met
        }
    }

    /// The value as a number, when it is one (finite).
    pub fn number(value: &str) -> Option<f64> {
        value.trim().parse::<f64>().ok().filter(|number| number.is_finite())
    }
}

/// Checks conditions against the survey's tree: each names an item of it, with an operator its type takes (`eq`,
/// `ne` and `in` for choice, text, number and date items; `gt` and `lt` for numbers and dates; none for Matrix,
/// Ranking and Info) and values of its kind (numbers for Numeric and Rating, `YYYY-MM-DD` for Date).
pub fn check_conditions(tree: &QuestionTree, conditions: &[AnswerCondition]) -> Result<(), FieldError> {
    let invalid = |message: String| FieldError::new(WHERE, message);
    if conditions.len() > MAX_CONDITIONS {
        return Err(invalid(format!("at most {MAX_CONDITIONS} conditions")));
    }
    for condition in conditions {
        let id = condition.item;
        let item = tree
            .items()
            .find(|item| item.id == id)
            .ok_or_else(|| invalid(format!("{id} is not an item of the survey")))?;
        let fits = match item.kind {
            QuestionType::Numeric | QuestionType::Rating | QuestionType::Date => true,
            QuestionType::SingleChoice
            | QuestionType::Dropdown
            | QuestionType::MultipleChoice
            | QuestionType::OpenText => !condition.op.orders(),
            QuestionType::Matrix | QuestionType::Ranking | QuestionType::Info => false,
        };
        if !fits {
            let (op, kind) = (condition.op.as_str(), item.kind.as_str());
            return Err(invalid(format!("`{op}` does not fit item {id}, a {kind} item")));
        }
        let kind_of_values = match item.kind {
            QuestionType::Numeric | QuestionType::Rating => condition
                .values
                .iter()
                .all(|value| AnswerCondition::number(value).is_some())
                .then_some(())
                .ok_or("a number"),
            QuestionType::Date => condition
                .values
                .iter()
                .all(|value| super::parse_date(value).is_some())
                .then_some(())
                .ok_or("a date (YYYY-MM-DD)"),
            _ => Ok(()),
        };
        if let Err(wanted) = kind_of_values {
            return Err(invalid(format!("each value for item {id} must be {wanted}")));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
