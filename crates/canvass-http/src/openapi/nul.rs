//! NUL in the document: the service refuses the NUL character in every string it reads from JSON, a query or a
//! form (PostgreSQL text cannot hold it; `extract/reader.rs`), so every such string schema says so with a
//! `pattern`: [`NO_NUL`] where it had none, and where it had one, that pattern with NUL taken out of what it
//! allows ([`without_nul`]). Strings of a `format` (dates, emails), of an `enum` or always empty cannot hold NUL
//! already and are left as they are. Only what requests carry is marked (their parameters and bodies, and the
//! components they refer to, through every `$ref`): an answer may quote what was sent, NUL included (a problem's
//! `field` naming a key that holds one).

use std::collections::HashSet;

use utoipa::openapi::path::{Operation, ParameterIn, PathItem};
use utoipa::openapi::schema::{AdditionalProperties, ArrayItems, Schema, SchemaType, Type};
use utoipa::openapi::{OpenApi as Document, RefOr};

/// Unicode's White_Space characters, what Rust's `trim` and `char::is_whitespace` take, as a character class body.
macro_rules! blanks {
    () => {
        "\\t\\n\\u000b\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000"
    };
}

/// Any text without NUL.
pub const NO_NUL: &str = "^[^\\u0000]*$";

/// A non-blank text (the `\S` of names and titles) without NUL: blanks, then a character that is neither blank nor
/// NUL, then anything but NUL. Unambiguous, so it is matched in linear time. "Blank" is what the service trims,
/// Unicode's White_Space (Rust's `char::is_whitespace`), spelt out: JSON Schema's `\s` (ECMAScript's) leaves out
/// U+0085 and takes in U+FEFF, so a name of NEL alone would pass the document and not the service.
const NOT_BLANK: &str = concat!("^[", blanks!(), "]*[^", blanks!(), "\\u0000][^\\u0000]*$");

/// One word between optional blanks (`^\s*\S+\s*$`, a sending domain), without NUL, blanks as in [`NOT_BLANK`].
const ONE_WORD: &str = concat!("^[", blanks!(), "]*[^", blanks!(), "\\u0000]+[", blanks!(), "]*$");

/// The media types whose bodies the reader refuses NUL in.
const READ_MEDIA_TYPES: [&str; 2] = ["application/json", "application/x-www-form-urlencoded"];

/// `pattern` restated without NUL, or `None` when it cannot match NUL already (every pattern of the document but
/// `\S` and `^\s*\S+\s*$` is made of character classes that leave NUL out; a test checks every pattern served).
pub fn without_nul(pattern: &str) -> Option<&'static str> {
    match pattern {
        "\\S" => Some(NOT_BLANK),
        "^\\s*\\S+\\s*$" => Some(ONE_WORD),
        _ => None,
    }
}

/// The prefix of a reference to a component schema.
const COMPONENT: &str = "#/components/schemas/";

/// States the refusal of NUL on every string schema the service reads: query and path parameters, inline JSON and
/// form bodies, and the component schemas they refer to.
pub fn forbid_nul(document: &mut Document) {
    let mut referred = Vec::new();
    for item in document.paths.paths.values_mut() {
        for operation in operations_mut(item) {
            for parameter in operation.parameters.iter_mut().flatten() {
                if matches!(parameter.parameter_in, ParameterIn::Query | ParameterIn::Path) {
                    parameter.schema.iter_mut().for_each(|schema| in_ref_or(schema, &mut referred));
                }
            }
            let Some(body) = operation.request_body.as_mut() else { continue };
            for (media_type, content) in body.content.iter_mut() {
                if READ_MEDIA_TYPES.contains(&media_type.as_str()) {
                    content.schema.iter_mut().for_each(|schema| in_ref_or(schema, &mut referred));
                }
            }
        }
    }
    let Some(components) = document.components.as_mut() else { return };
    let mut marked = HashSet::new();
    while let Some(name) = referred.pop() {
        if marked.insert(name.clone()) {
            if let Some(schema) = components.schemas.get_mut(&name) {
                in_ref_or(schema, &mut referred);
            }
        }
    }
}

fn operations_mut(item: &mut PathItem) -> impl Iterator<Item = &mut Operation> {
    [item.get.as_mut(), item.put.as_mut(), item.post.as_mut(), item.delete.as_mut(), item.patch.as_mut()]
        .into_iter()
        .flatten()
}

/// Marks `schema`, and adds the names of the components it refers to to `referred`.
fn in_ref_or(schema: &mut RefOr<Schema>, referred: &mut Vec<String>) {
    match schema {
        RefOr::T(schema) => in_schema(schema, referred),
        RefOr::Ref(reference) => {
            if let Some(name) = reference.ref_location.strip_prefix(COMPONENT) {
                referred.push(name.to_owned());
            }
        }
    }
}

fn in_schema(schema: &mut Schema, referred: &mut Vec<String>) {
    let mut each = |schemas: &mut dyn Iterator<Item = &mut RefOr<Schema>>| {
        schemas.for_each(|schema| in_ref_or(schema, referred));
    };
    match schema {
        Schema::Object(object) => {
            let is_string = match &object.schema_type {
                SchemaType::Type(kind) => *kind == Type::String,
                SchemaType::Array(kinds) => kinds.contains(&Type::String),
                SchemaType::AnyValue => false,
            };
            let can_hold_nul = object.format.is_none() && object.enum_values.is_none() && object.max_length != Some(0);
            if is_string && can_hold_nul {
                object.pattern = match object.pattern.take() {
                    None => Some(NO_NUL.to_owned()),
                    Some(pattern) => Some(without_nul(&pattern).map_or(pattern, str::to_owned)),
                };
            }
            each(&mut object.properties.values_mut());
            if let Some(AdditionalProperties::RefOr(value)) = object.additional_properties.as_deref_mut() {
                each(&mut std::iter::once(value));
            }
            if let Some(names) = object.property_names.as_deref_mut() {
                in_schema(names, referred);
            }
        }
        Schema::Array(array) => {
            if let ArrayItems::RefOrSchema(items) = &mut array.items {
                each(&mut std::iter::once(items.as_mut()));
            }
            array.prefix_items.iter_mut().for_each(|item| in_schema(item, referred));
        }
        Schema::OneOf(one_of) => each(&mut one_of.items.iter_mut()),
        Schema::AllOf(all_of) => each(&mut all_of.items.iter_mut()),
        Schema::AnyOf(any_of) => each(&mut any_of.items.iter_mut()),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_that_allow_nul_are_restated_and_the_others_kept() {
        assert_eq!(without_nul("\\S"), Some(NOT_BLANK));
        assert_eq!(without_nul("^\\s*\\S+\\s*$"), Some(ONE_WORD));
        assert_eq!(without_nul("^[0-9]+$"), None);
    }

    #[test]
    fn blank_is_what_the_service_trims_for_every_character() {
        let (not_blank, one_word) = (regex::Regex::new(NOT_BLANK).unwrap(), regex::Regex::new(ONE_WORD).unwrap());
        for c in (0..=0xFFFF_u32).filter_map(char::from_u32) {
            let taken = !c.is_whitespace() && c != '\0';
            assert_eq!(not_blank.is_match(&format!(" {c} ")), taken, "a name of {c:?}");
            assert_eq!(one_word.is_match(&format!(" a{c}b ")), taken, "a domain with {c:?} inside");
        }
    }
}
