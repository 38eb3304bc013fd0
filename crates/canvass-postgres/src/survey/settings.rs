//! An item's settings in its `settings` JSONB column: one object whose keys are the API's names (`minLength`,
//! `format`, ...), holding only what differs from the defaults. The domain checked every value before it was
//! stored, so a value that does not read back (which no write makes) is taken as its default.

use canvass_domain::answer::parse_date;
use canvass_domain::survey::{Conditions, Finite, ItemSettings, TextFormat};
use serde_json::{json, Map, Value};

/// The column's value for these settings.
pub(crate) fn to_json(settings: &ItemSettings) -> Value {
    let mut object = Map::new();
    let mut put = |key: &str, value: Value| {
        object.insert(key.to_owned(), value);
    };
    if !settings.rows.is_empty() {
        put("rows", super::options_json(&settings.rows));
    }
    if let Some(date) = settings.min_date {
        put("minDate", json!(date.to_string()));
    }
    if let Some(date) = settings.max_date {
        put("maxDate", json!(date.to_string()));
    }
    if let Some(min) = settings.min {
        put("min", json!(min.get()));
    }
    if let Some(max) = settings.max {
        put("max", json!(max.get()));
    }
    if settings.whole_number {
        put("wholeNumber", json!(true));
    }
    if let Some(length) = settings.min_length {
        put("minLength", json!(length));
    }
    if let Some(length) = settings.max_length {
        put("maxLength", json!(length));
    }
    if !settings.multiline {
        put("multiline", json!(false));
    }
    if let Some(format) = settings.format {
        put("format", json!(format.name()));
    }
    if let Some(pattern) = &settings.pattern {
        put("pattern", json!(pattern));
    }
    if let Some(count) = settings.min_selected {
        put("minSelected", json!(count));
    }
    if let Some(count) = settings.max_selected {
        put("maxSelected", json!(count));
    }
    if let Some(conditions) = &settings.display_when {
        put("displayWhen", conditions.to_json());
    }
    if settings.randomize_options {
        put("randomizeOptions", json!(true));
    }
    if let Some(count) = settings.fixed_last {
        put("fixedLast", json!(count));
    }
    Value::Object(object)
}

/// The settings a column's value holds.
pub(crate) fn from_json(value: &Value) -> ItemSettings {
    let number = |key: &str| value.get(key).and_then(Value::as_f64).and_then(Finite::new);
    let count = |key: &str| value.get(key).and_then(Value::as_u64).and_then(|n| u32::try_from(n).ok());
    let flag = |key: &str, default: bool| value.get(key).and_then(Value::as_bool).unwrap_or(default);
    let format = value.get("format").and_then(Value::as_str).and_then(|name| name.parse::<TextFormat>().ok());
    let pattern = value.get("pattern").and_then(Value::as_str).map(str::to_owned);
    let date = |key: &str| value.get(key).and_then(Value::as_str).and_then(parse_date);
    ItemSettings {
        rows: value.get("rows").map(super::options_of).unwrap_or_default(),
        min_date: date("minDate"),
        max_date: date("maxDate"),
        min: number("min"),
        max: number("max"),
        whole_number: flag("wholeNumber", false),
        min_length: count("minLength"),
        max_length: count("maxLength"),
        multiline: flag("multiline", true),
        format,
        pattern,
        min_selected: count("minSelected"),
        max_selected: count("maxSelected"),
        display_when: value.get("displayWhen").and_then(|when| Conditions::from_json(when, "").ok()),
        randomize_options: flag("randomizeOptions", false),
        fixed_last: count("fixedLast"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use canvass_domain::survey::{ChoiceOption, Condition, ConditionValue, Operator, Subject};

    #[test]
    fn settings_round_trip_and_defaults_are_left_out() {
        assert_eq!(to_json(&ItemSettings::default()), json!({}));
        let settings = ItemSettings {
            rows: vec![ChoiceOption { value: "r1".into(), label: "Row one".into() }],
            min_date: parse_date("2040-01-01"),
            max_date: parse_date("2040-12-31"),
            min: Finite::new(-1.5),
            max: Finite::new(10.0),
            whole_number: true,
            min_length: Some(2),
            max_length: Some(40),
            multiline: false,
            format: Some(TextFormat::Pattern),
            pattern: Some("[A-Z]+".into()),
            min_selected: Some(1),
            max_selected: Some(3),
            display_when: Some(Conditions::One(Condition {
                subject: Subject::Background("Region".into()),
                operator: Operator::Equals,
                value: Some(ConditionValue::Text("North".into())),
            })),
            randomize_options: true,
            fixed_last: Some(1),
        };
        let stored = to_json(&settings);
        assert_eq!(stored["format"], "pattern");
        assert_eq!(stored["displayWhen"], json!({"backgroundLabel": "Region", "operator": "equals", "value": "North"}));
        assert_eq!(from_json(&stored), settings);
    }
}
