//! A sendout's or reminder's invitation texts by language as the `messages` column keeps them:
//! `{"sv": {"subject": "...", "message": "..."}}`, the API's key names, no subject key when there is none.

use canvass_domain::distribution::{LocalizedMessage, LocalizedMessages};
use canvass_domain::language::Language;
use serde_json::{Map, Value};

/// The column's value for `messages`.
pub(crate) fn to_json(messages: &LocalizedMessages) -> Value {
    let entries = messages.iter().map(|(language, texts)| {
        let mut entry = Map::new();
        if let Some(subject) = &texts.subject {
            entry.insert("subject".into(), subject.clone().into());
        }
        entry.insert("message".into(), texts.message.clone().into());
        (language.code().to_owned(), Value::Object(entry))
    });
    Value::Object(entries.collect())
}

/// The texts of a column's value; an entry the domain would not have written (an unknown code) is left out.
pub(crate) fn from_json(value: Value) -> LocalizedMessages {
    let Value::Object(entries) = value else { return LocalizedMessages::new() };
    entries.into_iter().filter_map(|(code, entry)| Some((code.parse::<Language>().ok()?, one(entry)?))).collect()
}

/// One language's entry of the column (`messages -> 'sv'`); `None` when it holds no message.
pub(crate) fn one(entry: Value) -> Option<LocalizedMessage> {
    let text = |key: &str| entry.get(key).and_then(Value::as_str).map(str::to_owned);
    Some(LocalizedMessage { subject: text("subject"), message: text("message")? })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_round_trip_with_no_subject_key_when_there_is_none() {
        let mut messages = LocalizedMessages::new();
        messages.insert(Language::Sv, LocalizedMessage { subject: Some("Hej".into()), message: "Svara".into() });
        messages.insert(Language::Fi, LocalizedMessage { subject: None, message: "Vastaa".into() });
        let json = to_json(&messages);
        assert_eq!(
            json,
            serde_json::json!({"sv": {"subject": "Hej", "message": "Svara"}, "fi": {"message": "Vastaa"}})
        );
        assert_eq!(from_json(json), messages);
        assert_eq!(from_json(serde_json::json!({"xx": {"message": "?"}, "de": {}})), LocalizedMessages::new());
    }
}
