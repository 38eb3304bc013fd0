//! Rules as JSON, as `PUT .../logic` takes them and the tree returns them: `{questionItemId, equals, goToPageId}`,
//! `{when, action: "jump", goToPageId}` or `{when, action: "endSurvey"}`.

use serde_json::{json, Map, Value};

use crate::error::FieldError;
use crate::ids::{PageId, QuestionItemId};

use super::{LogicRuleDraft, RuleDraft};
use crate::survey::condition::json::id_of;
use crate::survey::condition::{ConditionalRule, Conditions, RuleAction};

impl RuleDraft {
    /// The rule in the form it was given.
    pub fn to_json(&self) -> Map<String, Value> {
        let value = match self {
            Self::Equals(rule) => json!({
                "questionItemId": rule.question_item_id.get(),
                "equals": rule.equals,
                "goToPageId": rule.go_to_page_id.get(),
            }),
            Self::Conditional(ConditionalRule { when, action: RuleAction::Jump(page) }) => {
                json!({"when": when.to_json(), "action": "jump", "goToPageId": page.get()})
            }
            Self::Conditional(ConditionalRule { when, action: RuleAction::EndSurvey }) => {
                json!({"when": when.to_json(), "action": "endSurvey"})
            }
        };
        match value {
            Value::Object(object) => object,
            _ => Map::new(),
        }
    }

    /// Reads the rule at `path` (`[2]`): a rule with `when` is one on conditions, any other a go-to-page rule.
    pub fn from_json(value: &Value, path: &str) -> Result<Self, Vec<FieldError>> {
        let field = |name: &str| format!("{path}.{name}");
        let Some(object) = value.as_object() else {
            return Err(vec![FieldError::new(path, "must be a rule object")]);
        };
        let mut errors = Vec::new();
        let known: &[&str] = if object.contains_key("when") {
            &["when", "action", "goToPageId"]
        } else {
            &["questionItemId", "equals", "goToPageId"]
        };
        if let Some(unknown) = object.keys().find(|key| !known.contains(&key.as_str())) {
            errors.push(FieldError::new(field(unknown), "is not a field of this form of rule"));
        }
        let page = match object.get("goToPageId") {
            None => None,
            Some(id) => match id_of(id) {
                Some(id) => Some(PageId::new(id)),
                None => {
                    errors.push(FieldError::new(field("goToPageId"), "must be an integer"));
                    None
                }
            },
        };
        let rule = match object.get("when") {
            Some(when) => conditional(object, when, page, path, &mut errors),
            None => equals(object, page, path, &mut errors),
        };
        match rule {
            Some(rule) if errors.is_empty() => Ok(rule),
            _ => Err(errors),
        }
    }
}

fn conditional(
    object: &Map<String, Value>,
    when: &Value,
    page: Option<PageId>,
    path: &str,
    errors: &mut Vec<FieldError>,
) -> Option<RuleDraft> {
    let field = |name: &str| format!("{path}.{name}");
    let when = Conditions::from_json(when, &field("when")).map_err(|found| errors.extend(found)).ok();
    let action = match (object.get("action").and_then(Value::as_str), page) {
        (Some("jump"), Some(page)) => Some(RuleAction::Jump(page)),
        (Some("jump"), None) => {
            errors.push(FieldError::new(field("goToPageId"), "a jump names the page it goes to"));
            None
        }
        (Some("endSurvey"), None) => Some(RuleAction::EndSurvey),
        (Some("endSurvey"), Some(_)) => {
            errors.push(FieldError::new(field("goToPageId"), "an endSurvey rule goes to no page"));
            None
        }
        _ => {
            errors.push(FieldError::new(field("action"), "must be jump or endSurvey"));
            None
        }
    };
    Some(RuleDraft::Conditional(ConditionalRule { when: when?, action: action? }))
}

fn equals(
    object: &Map<String, Value>,
    page: Option<PageId>,
    path: &str,
    errors: &mut Vec<FieldError>,
) -> Option<RuleDraft> {
    let field = |name: &str| format!("{path}.{name}");
    let item = match object.get("questionItemId").map(id_of) {
        Some(Some(id)) => Some(QuestionItemId::new(id)),
        found => {
            let message = if found.is_some() { "must be an integer" } else { "is required (or `when`)" };
            errors.push(FieldError::new(field("questionItemId"), message));
            None
        }
    };
    let equals = match object.get("equals") {
        Some(Value::String(text)) => Some(text.clone()),
        Some(Value::Number(number)) => Some(number.to_string()),
        found => {
            let message = if found.is_some() { "must be a string or a number" } else { "is required" };
            errors.push(FieldError::new(field("equals"), message));
            None
        }
    };
    if page.is_none() && !object.contains_key("goToPageId") {
        errors.push(FieldError::new(field("goToPageId"), "is required"));
    }
    Some(RuleDraft::Equals(LogicRuleDraft { question_item_id: item?, equals: equals?, go_to_page_id: page? }))
}

/// Reads a whole `PUT .../logic` body: an array of rules.
pub fn rules_from_json(value: &Value) -> Result<Vec<RuleDraft>, Vec<FieldError>> {
    let Some(rules) = value.as_array() else {
        return Err(vec![FieldError::new("body", "must be an array of rules")]);
    };
    let (mut read, mut errors) = (Vec::with_capacity(rules.len()), Vec::new());
    for (index, rule) in rules.iter().enumerate() {
        match RuleDraft::from_json(rule, &format!("[{index}]")) {
            Ok(rule) => read.push(rule),
            Err(found) => errors.extend(found),
        }
    }
    if errors.is_empty() {
        Ok(read)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_forms_read_back_as_given() {
        let body = json!([
            {"questionItemId": 1, "equals": "yes", "goToPageId": 3},
            {"when": {"questionItemId": 2, "operator": "atMost", "value": 6}, "action": "jump", "goToPageId": 4},
            {"when": {"backgroundLabel": "Customer", "operator": "equals", "value": "no"}, "action": "endSurvey"}
        ]);
        let rules = rules_from_json(&body).unwrap();
        let written: Vec<Value> = rules.iter().map(|rule| Value::Object(rule.to_json())).collect();
        assert_eq!(Value::Array(written), body);
    }

    #[test]
    fn a_number_to_equal_is_kept_as_its_text() {
        let rules = rules_from_json(&json!([{"questionItemId": 1, "equals": 7, "goToPageId": 3}])).unwrap();
        assert!(matches!(&rules[0], RuleDraft::Equals(rule) if rule.equals == "7"));
    }

    #[test]
    fn broken_fields_are_named_by_their_path() {
        let fields = |body: Value| rules_from_json(&body).unwrap_err().into_iter().map(|e| e.field).collect::<Vec<_>>();
        let condition = json!({"questionItemId": 2, "operator": "answered"});
        assert_eq!(fields(json!([{"when": condition, "action": "jump"}])), ["[0].goToPageId"]);
        assert_eq!(fields(json!([{"when": condition, "action": "endSurvey", "goToPageId": 3}])), ["[0].goToPageId"]);
        assert_eq!(fields(json!([{"when": condition, "action": "leave"}])), ["[0].action"]);
        assert_eq!(fields(json!([{"questionItemId": 1, "goToPageId": 3}])), ["[0].equals"]);
        let bad_operator = json!({"all": [condition, {"questionItemId": 2, "operator": "near"}]});
        assert_eq!(
            fields(json!([{}, {"when": bad_operator, "action": "endSurvey"}])),
            ["[0].questionItemId", "[0].equals", "[0].goToPageId", "[1].when.all[1].operator"]
        );
        assert_eq!(fields(json!({"rules": []})), ["body"]);
    }
}
