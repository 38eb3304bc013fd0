//! The rules a set of conditions obeys against the survey's tree: groups nest at most three deep, each condition
//! names an item that takes an answer (or a background label), its operator fits the item's type and its value
//! is one the item could hold. Each broken rule is a [`FieldError`] named by its path (`[2].when.all[1].operator`).

use crate::answer::AnswerValue;
use crate::error::FieldError;
use crate::limits::{push_length, OPEN_TEXT, OPTION};

use super::super::question::{QuestionItem, QuestionType};
use super::super::tree::QuestionTree;
use super::{Condition, ConditionValue, Conditions, Operator, Subject};

/// The most groups one inside another: `all` > `any` > `all` of conditions (a bare condition is no group).
pub const MAX_GROUP_DEPTH: usize = 3;

/// The most members of one group.
pub const MAX_GROUP_MEMBERS: usize = 50;

/// The broken rules of `conditions` at `path` against `tree`. `may_name` says why an item may not be named where
/// the conditions stand (an item of a later page, for display logic), or nothing when it may.
pub fn check_conditions(
    conditions: &Conditions,
    path: &str,
    tree: &QuestionTree,
    may_name: &dyn Fn(&QuestionItem) -> Option<&'static str>,
) -> Vec<FieldError> {
    let (mut found, mut errors) = (Vec::new(), Vec::new());
    walk(conditions, path, 0, &mut found, &mut errors);
    for (condition, at) in found {
        check_one(condition, &at, tree, may_name, &mut errors);
    }
    errors
}

/// The broken rules of the `displayWhen` of an item on the page at `page_index`, at `path`: its conditions name
/// items of earlier pages only.
pub fn check_display(conditions: &Conditions, path: &str, tree: &QuestionTree, page_index: usize) -> Vec<FieldError> {
    let earlier = |item: &QuestionItem| {
        let on = tree.page_index(item.page_id).unwrap_or(usize::MAX);
        (on >= page_index).then_some("must be an item of an earlier page")
    };
    check_conditions(conditions, path, tree, &earlier)
}

/// Collects the conditions with their paths, and the groups' broken rules.
fn walk<'c>(
    conditions: &'c Conditions,
    path: &str,
    depth: usize,
    found: &mut Vec<(&'c Condition, String)>,
    errors: &mut Vec<FieldError>,
) {
    let (name, members) = match conditions {
        Conditions::One(condition) => return found.push((condition, path.to_owned())),
        Conditions::All(members) => ("all", members),
        Conditions::Any(members) => ("any", members),
    };
    let at = format!("{path}.{name}");
    if depth == MAX_GROUP_DEPTH {
        errors.push(FieldError::new(at, format!("groups nest at most {MAX_GROUP_DEPTH} deep")));
        return;
    }
    if members.is_empty() || members.len() > MAX_GROUP_MEMBERS {
        errors.push(FieldError::new(at.clone(), format!("a group holds 1 to {MAX_GROUP_MEMBERS} members")));
    }
    for (index, member) in members.iter().enumerate() {
        walk(member, &format!("{at}[{index}]"), depth + 1, found, errors);
    }
}

fn check_one(
    condition: &Condition,
    at: &str,
    tree: &QuestionTree,
    may_name: &dyn Fn(&QuestionItem) -> Option<&'static str>,
    errors: &mut Vec<FieldError>,
) {
    let field = |name: &str| format!("{at}.{name}");
    let operator = condition.operator;
    match (&condition.value, operator.takes_value()) {
        (Some(_), false) => {
            errors.push(FieldError::new(field("value"), format!("{} takes no value", operator.as_str())))
        }
        (None, true) => errors.push(FieldError::new(field("value"), format!("{} needs a value", operator.as_str()))),
        _ => {}
    }
    match &condition.subject {
        Subject::Background(label) => {
            if label.trim().is_empty() {
                errors.push(FieldError::new(field("backgroundLabel"), "must not be blank"));
            }
            push_length(errors, field("backgroundLabel"), label, OPTION);
            match &condition.value {
                Some(ConditionValue::Cell { .. }) => {
                    errors.push(FieldError::new(field("value"), "a background label holds no Matrix cell"))
                }
                Some(ConditionValue::Text(_)) if operator.orders() => {
                    errors.push(FieldError::new(field("value"), "must be a number"))
                }
                Some(ConditionValue::Text(text)) => push_length(errors, field("value"), text, OPTION),
                _ => {}
            }
        }
        Subject::Item(id) => match tree.item(*id) {
            None => errors.push(FieldError::new(field("questionItemId"), "is not an item of this survey")),
            Some(item) if !item.kind.takes_answer() => {
                errors.push(FieldError::new(field("questionItemId"), "an Info item takes no answer"))
            }
            Some(item) => {
                if let Some(reason) = may_name(item) {
                    errors.push(FieldError::new(field("questionItemId"), reason));
                }
                if !fits(operator, item.kind) {
                    let message = format!("{} does not fit a {} item", operator.as_str(), item.kind.as_str());
                    errors.push(FieldError::new(field("operator"), message));
                } else if let Some(value) = &condition.value {
                    if let Some(message) = wrong_value(item, value) {
                        errors.push(FieldError::new(field("value"), message));
                    }
                }
            }
        },
    }
}

/// Which operators fit which items: equality and presence every answerable type, order Numeric, Rating and Date,
/// `contains` MultipleChoice and OpenText.
pub(crate) fn fits(operator: Operator, kind: QuestionType) -> bool {
    match operator {
        Operator::Equals | Operator::NotEquals | Operator::Answered | Operator::NotAnswered => kind.takes_answer(),
        Operator::GreaterThan | Operator::LessThan | Operator::AtLeast | Operator::AtMost => {
            matches!(kind, QuestionType::Numeric | QuestionType::Rating | QuestionType::Date)
        }
        Operator::Contains => matches!(kind, QuestionType::MultipleChoice | QuestionType::OpenText),
    }
}

/// Why `value` is no value the item could hold, if it is not.
fn wrong_value(item: &QuestionItem, value: &ConditionValue) -> Option<String> {
    match (item.kind, value) {
        (QuestionType::Numeric | QuestionType::Rating, ConditionValue::Number(_)) => None,
        (QuestionType::Numeric | QuestionType::Rating, _) => Some("must be a number".into()),
        (QuestionType::Date, ConditionValue::Text(date)) => {
            crate::answer::check_value(item, &AnswerValue::Text(date.clone()))
                .err()
                .map(|_| "must be a date, YYYY-MM-DD".into())
        }
        (QuestionType::OpenText, ConditionValue::Text(text)) if text.trim().is_empty() => {
            Some("must not be blank".into())
        }
        (QuestionType::OpenText, ConditionValue::Text(text)) if text.chars().count() > OPEN_TEXT => {
            Some(format!("must be at most {OPEN_TEXT} characters"))
        }
        (QuestionType::OpenText, ConditionValue::Text(_)) => None,
        (QuestionType::Matrix, ConditionValue::Cell { row, option }) => {
            let has_row = item.settings.rows.iter().any(|known| known.value == *row);
            match (has_row, item.has_option(option)) {
                (false, _) => Some("row is not a row of the item".into()),
                (true, false) => Some("option is not an option of the item".into()),
                (true, true) => None,
            }
        }
        (QuestionType::Matrix, _) => Some("must be {row, option}".into()),
        (_, ConditionValue::Text(value)) if item.has_option(value) => None,
        (_, ConditionValue::Text(_)) => Some("is not an option value of the item".into()),
        (_, _) => Some("must be an option value of the item".into()),
    }
}
