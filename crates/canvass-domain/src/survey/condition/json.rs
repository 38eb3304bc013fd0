//! Conditions as JSON, the one shape the API takes and returns and the store keeps: a condition is
//! `{questionItemId, operator, value?}` or `{backgroundLabel, operator, value?}`, a group `{all: [...]}` or
//! `{any: [...]}`. Reading names each broken field by its path (`[2].when.all[1].operator`).

use serde_json::{json, Map, Value};

use crate::error::FieldError;
use crate::ids::QuestionItemId;

use super::{Condition, ConditionValue, Conditions, Operator, Subject};

impl Conditions {
    /// The conditions in the API's JSON shape.
    pub fn to_json(&self) -> Value {
        match self {
            Self::One(condition) => condition.to_json(),
            Self::All(members) => json!({"all": members.iter().map(Conditions::to_json).collect::<Vec<_>>()}),
            Self::Any(members) => json!({"any": members.iter().map(Conditions::to_json).collect::<Vec<_>>()}),
        }
    }

    /// Reads conditions from JSON, each broken field an error named by its path under `path`. Groups deeper
    /// than [`super::MAX_GROUP_DEPTH`] are refused here already, so that no input nests without bound.
    pub fn from_json(value: &Value, path: &str) -> Result<Self, Vec<FieldError>> {
        let mut errors = Vec::new();
        let read = read(value, path, 0, &mut errors);
        match read {
            Some(conditions) if errors.is_empty() => Ok(conditions),
            _ => Err(errors),
        }
    }
}

impl Condition {
    fn to_json(&self) -> Value {
        let mut object = Map::new();
        match &self.subject {
            Subject::Item(id) => object.insert("questionItemId".into(), json!(id.get())),
            Subject::Background(label) => object.insert("backgroundLabel".into(), json!(label)),
        };
        object.insert("operator".into(), json!(self.operator.as_str()));
        if let Some(value) = &self.value {
            let value = match value {
                ConditionValue::Text(text) => json!(text),
                // A whole number reads back as it is usually given: without a fraction.
                ConditionValue::Number(number) if number.fract() == 0.0 && number.abs() < 9_007_199_254_740_992.0 => {
                    json!(*number as i64)
                }
                ConditionValue::Number(number) => json!(number),
                ConditionValue::Cell { row, option } => json!({"row": row, "option": option}),
            };
            object.insert("value".into(), value);
        }
        Value::Object(object)
    }
}

/// An id as JSON gives it: an integer, or a number with no fraction (`12.0`, which JSON Schema's `integer` takes).
pub(crate) fn id_of(value: &Value) -> Option<i64> {
    const EXACT: f64 = 9_007_199_254_740_992.0;
    value.as_i64().or_else(|| value.as_f64().filter(|n| n.fract() == 0.0 && n.abs() < EXACT).map(|n| n as i64))
}

fn read(value: &Value, path: &str, depth: usize, errors: &mut Vec<FieldError>) -> Option<Conditions> {
    let Some(object) = value.as_object() else {
        errors.push(FieldError::new(path, "must be a condition or an all/any group"));
        return None;
    };
    for name in ["all", "any"] {
        let Some(members) = object.get(name) else { continue };
        let at = format!("{path}.{name}");
        if object.len() > 1 {
            errors.push(FieldError::new(path, format!("a group holds only `{name}`")));
            return None;
        }
        if depth == super::MAX_GROUP_DEPTH {
            errors.push(FieldError::new(at, format!("groups nest at most {} deep", super::MAX_GROUP_DEPTH)));
            return None;
        }
        let Some(members) = members.as_array() else {
            errors.push(FieldError::new(at, "must be an array"));
            return None;
        };
        if members.is_empty() || members.len() > super::check::MAX_GROUP_MEMBERS {
            let message = format!("a group holds 1 to {} members", super::check::MAX_GROUP_MEMBERS);
            errors.push(FieldError::new(at.clone(), message));
        }
        let read: Vec<Option<Conditions>> = members
            .iter()
            .take(super::check::MAX_GROUP_MEMBERS)
            .enumerate()
            .map(|(index, member)| read(member, &format!("{at}[{index}]"), depth + 1, errors))
            .collect();
        let members = read.into_iter().collect::<Option<Vec<_>>>()?;
        return Some(if name == "all" { Conditions::All(members) } else { Conditions::Any(members) });
    }
    read_condition(object, path, errors).map(Conditions::One)
}

fn read_condition(object: &Map<String, Value>, path: &str, errors: &mut Vec<FieldError>) -> Option<Condition> {
    let field = |name: &str| format!("{path}.{name}");
    let before = errors.len();
    if let Some(unknown) =
        object.keys().find(|key| !matches!(key.as_str(), "questionItemId" | "backgroundLabel" | "operator" | "value"))
    {
        errors.push(FieldError::new(field(unknown), "is not a field of a condition"));
    }
    let subject = match (object.get("questionItemId"), object.get("backgroundLabel")) {
        (Some(_), Some(_)) => {
            errors.push(FieldError::new(field("backgroundLabel"), "a condition names an item or a label, not both"));
            None
        }
        (Some(id), None) => match id_of(id) {
            Some(id) => Some(Subject::Item(QuestionItemId::new(id))),
            None => {
                errors.push(FieldError::new(field("questionItemId"), "must be an integer"));
                None
            }
        },
        (None, Some(label)) => match label.as_str() {
            Some(label) => Some(Subject::Background(label.to_owned())),
            None => {
                errors.push(FieldError::new(field("backgroundLabel"), "must be a string"));
                None
            }
        },
        (None, None) => {
            errors
                .push(FieldError::new(field("questionItemId"), "a condition names questionItemId or backgroundLabel"));
            None
        }
    };
    let operator = match object.get("operator") {
        None => {
            errors.push(FieldError::new(field("operator"), "is required"));
            None
        }
        Some(name) => {
            let operator = name.as_str().and_then(Operator::parse);
            if operator.is_none() {
                let names: Vec<&str> = Operator::ALL.iter().map(|operator| operator.as_str()).collect();
                errors.push(FieldError::new(field("operator"), format!("must be one of {}", names.join(", "))));
            }
            operator
        }
    };
    let value = match object.get("value") {
        None | Some(Value::Null) => None,
        Some(Value::String(text)) => Some(ConditionValue::Text(text.clone())),
        Some(Value::Number(number)) => number.as_f64().filter(|n| n.is_finite()).map(ConditionValue::Number),
        Some(Value::Object(cell)) => match (cell.get("row").and_then(Value::as_str), cell.get("option")) {
            (Some(row), Some(Value::String(option))) if cell.len() == 2 => {
                Some(ConditionValue::Cell { row: row.to_owned(), option: option.clone() })
            }
            _ => {
                errors.push(FieldError::new(field("value"), "a Matrix cell is {row, option}, two strings"));
                None
            }
        },
        Some(_) => {
            errors.push(FieldError::new(field("value"), "must be a string, a number or {row, option}"));
            None
        }
    };
    if errors.len() > before {
        return None;
    }
    Some(Condition { subject: subject?, operator: operator?, value })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(value: Value) -> Vec<String> {
        Conditions::from_json(&value, "[2].when").err().unwrap_or_default().into_iter().map(|e| e.field).collect()
    }

    #[test]
    fn conditions_read_back_as_written() {
        let value = json!({"all": [
            {"questionItemId": 7, "operator": "atMost", "value": 6},
            {"questionItemId": 7, "operator": "atLeast", "value": 2.5},
            {"any": [
                {"backgroundLabel": "Region", "operator": "equals", "value": "North"},
                {"questionItemId": 8, "operator": "equals", "value": {"row": "speed", "option": "good"}},
                {"questionItemId": 9, "operator": "notAnswered"}
            ]}
        ]});
        let read = Conditions::from_json(&value, "when").unwrap();
        assert_eq!(read.each().len(), 5);
        assert_eq!(read.to_json(), value);
    }

    #[test]
    fn broken_fields_are_named_by_their_path() {
        let wrong_operator = json!({"all": [{"questionItemId": 1, "operator": "is"}]});
        assert_eq!(fields(wrong_operator), ["[2].when.all[0].operator"]);
        assert_eq!(fields(json!({"operator": "answered"})), ["[2].when.questionItemId"]);
        assert_eq!(fields(json!({"questionItemId": "x", "operator": "answered"})), ["[2].when.questionItemId"]);
        assert_eq!(fields(json!({"all": []})), ["[2].when.all"]);
        assert_eq!(fields(json!({"all": [], "any": []})), ["[2].when"]);
        assert_eq!(fields(json!({"questionItemId": 1, "operator": "equals", "value": [1]})), ["[2].when.value"]);
        assert_eq!(fields(json!({"questionItemId": 1, "operator": "answered", "colour": 1})), ["[2].when.colour"]);
        assert_eq!(fields(json!(3)), ["[2].when"]);
    }

    #[test]
    fn an_id_without_a_fraction_is_an_integer() {
        let whole = Conditions::from_json(&json!({"questionItemId": 12.0, "operator": "answered"}), "when").unwrap();
        assert_eq!(whole.each()[0].subject, Subject::Item(QuestionItemId::new(12)));
        assert_eq!(fields(json!({"questionItemId": 12.5, "operator": "answered"})), ["[2].when.questionItemId"]);
    }

    #[test]
    fn groups_nest_at_most_three_deep() {
        let condition = json!({"questionItemId": 1, "operator": "answered"});
        let three = json!({"all": [{"any": [{"all": [condition]}]}]});
        assert!(fields(three.clone()).is_empty());
        let four = json!({"any": [three]});
        assert_eq!(fields(four), ["[2].when.any[0].all[0].any[0].all"]);
    }
}
