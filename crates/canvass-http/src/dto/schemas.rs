//! Schemas of values the service reads from text or JSON of several shapes, stated for the OpenAPI document: the
//! dates a client may give, and an answer's value.

use canvass_domain::limits;
use utoipa::openapi::schema::{AnyOfBuilder, ArrayBuilder, KnownFormat, ObjectBuilder, SchemaFormat, Type};
use utoipa::openapi::{RefOr, Schema};
use utoipa::{PartialSchema, ToSchema};

fn date_forms() -> AnyOfBuilder {
    let form = |format| {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .format(Some(SchemaFormat::KnownFormat(format)))
            .max_length(Some(limits::DATE_TEXT))
    };
    AnyOfBuilder::new().item(form(KnownFormat::DateTime)).item(form(KnownFormat::Date))
}

/// A date as a client writes it: an RFC 3339 date-time or a `YYYY-MM-DD` date.
pub struct DateText;

impl PartialSchema for DateText {
    fn schema() -> RefOr<Schema> {
        date_forms().description(Some("An RFC 3339 date-time or a YYYY-MM-DD date")).into()
    }
}

impl ToSchema for DateText {}

/// A date that may also be given as `""`, which means none.
pub struct DateOrEmptyText;

impl PartialSchema for DateOrEmptyText {
    fn schema() -> RefOr<Schema> {
        date_forms()
            .item(ObjectBuilder::new().schema_type(Type::String).max_length(Some(0)))
            .description(Some("An RFC 3339 date-time, a YYYY-MM-DD date, or \"\" for none"))
            .into()
    }
}

impl ToSchema for DateOrEmptyText {}

/// An answer's value: text (OpenText, SingleChoice, Dropdown, a Date's `YYYY-MM-DD`), option values
/// (MultipleChoice, a Ranking's in order), an object of row values to option values (Matrix) or a number
/// (Numeric, Rating).
pub struct AnswerValueSchema;

impl PartialSchema for AnswerValueSchema {
    fn schema() -> RefOr<Schema> {
        let text = |max| ObjectBuilder::new().schema_type(Type::String).max_length(Some(max));
        let rows = ObjectBuilder::new()
            .schema_type(Type::Object)
            .additional_properties(Some(text(limits::OPTION)))
            .max_properties(Some(crate::dto::survey::MATRIX_ROWS))
            .description(Some("A Matrix answer: each row's value to the option value chosen for it"));
        AnyOfBuilder::new()
            .item(text(limits::OPEN_TEXT))
            .item(ArrayBuilder::new().items(text(limits::OPTION)))
            .item(rows)
            .item(ObjectBuilder::new().schema_type(Type::Number))
            .description(Some(
                "A string (OpenText, SingleChoice, Dropdown, a Date as YYYY-MM-DD), an array of option values \
                 (MultipleChoice; a Ranking's every option value in the order ranked), an object of row values to \
                 option values (Matrix) or a number (Numeric, Rating)",
            ))
            .into()
    }
}

impl ToSchema for AnswerValueSchema {
    fn name() -> std::borrow::Cow<'static, str> {
        "AnswerValue".into()
    }
}

/// Background data: label id to a non-empty value.
pub struct BackgroundValues;

impl PartialSchema for BackgroundValues {
    fn schema() -> RefOr<Schema> {
        let value = ObjectBuilder::new()
            .schema_type(Type::String)
            .min_length(Some(1))
            .max_length(Some(limits::BACKGROUND_VALUE));
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .property_names(Some(ObjectBuilder::new().schema_type(Type::String).pattern(Some("^-?[0-9]{1,18}$"))))
            .additional_properties(Some(value))
            .description(Some("Label id to a non-empty value"))
            .into()
    }
}

impl ToSchema for BackgroundValues {}

/// Labels in another language, by the option (or Matrix row) value they translate.
pub struct LabelsByValue;

impl PartialSchema for LabelsByValue {
    fn schema() -> RefOr<Schema> {
        let label = ObjectBuilder::new().schema_type(Type::String).max_length(Some(limits::OPTION));
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .property_names(Some(ObjectBuilder::new().schema_type(Type::String).max_length(Some(limits::OPTION))))
            .additional_properties(Some(label))
            .description(Some("Option (or row) value to its label in the translation's language"))
            .into()
    }
}

impl ToSchema for LabelsByValue {}

/// A contact's attributes: names of a letter then up to 39 letters, digits and underscores; values up to 1,000
/// characters; at most 50.
pub struct Attributes;

fn attribute_name() -> ObjectBuilder {
    ObjectBuilder::new().schema_type(Type::String).pattern(Some("^[A-Za-z][A-Za-z0-9_]{0,39}$")).max_length(Some(40))
}

impl PartialSchema for Attributes {
    fn schema() -> RefOr<Schema> {
        let value = ObjectBuilder::new().schema_type(Type::String).max_length(Some(1_000));
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .property_names(Some(attribute_name()))
            .additional_properties(Some(value))
            .max_properties(Some(50))
            .description(Some("The account's own fields of a contact, by name"))
            .into()
    }
}

impl ToSchema for Attributes {}

/// A PATCH of a contact's attributes: a value sets one, null removes it.
pub struct AttributeChanges;

impl PartialSchema for AttributeChanges {
    fn schema() -> RefOr<Schema> {
        let value = ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::SchemaType::from_iter([Type::String, Type::Null]))
            .max_length(Some(1_000));
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .property_names(Some(attribute_name()))
            .additional_properties(Some(value))
            .description(Some("Attributes to set, or (null) to remove"))
            .into()
    }
}

impl ToSchema for AttributeChanges {}

/// A sendout's or reminder's invitation texts by language code (`messages`).
pub struct MessagesByLanguage;

impl PartialSchema for MessagesByLanguage {
    fn schema() -> RefOr<Schema> {
        let code = ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(canvass_domain::language::Language::codes()));
        let entry = ObjectBuilder::new()
            .schema_type(Type::Object)
            .property(
                "subject",
                ObjectBuilder::new()
                    .schema_type(utoipa::openapi::schema::SchemaType::from_iter([Type::String, Type::Null]))
                    .max_length(Some(limits::SUBJECT))
                    .description(Some("Mandatory for EMAIL")),
            )
            .property(
                "message",
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .max_length(Some(limits::MESSAGE))
                    .description(Some("Contains {{surveyLink}}")),
            )
            .required("message");
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .property_names(Some(code))
            .additional_properties(Some(entry))
            .max_properties(Some(12))
            .description(Some(
                "Invitation texts by language code (one of the twelve); a respondent shown a language given here \
                 gets its text, every other one the sendout's (or reminder's) own subject and message",
            ))
            .into()
    }
}

impl ToSchema for MessagesByLanguage {}

/// A value a logic rule compares an answer with: text or an option value, or a number.
pub struct EqualsSchema;

impl PartialSchema for EqualsSchema {
    fn schema() -> RefOr<Schema> {
        AnyOfBuilder::new()
            .item(ObjectBuilder::new().schema_type(Type::String).max_length(Some(limits::OPEN_TEXT)))
            .item(ObjectBuilder::new().schema_type(Type::Number))
            .into()
    }
}

impl ToSchema for EqualsSchema {
    fn name() -> std::borrow::Cow<'static, str> {
        "Equals".into()
    }
}

/// A file in a body (an export, a QR code), as the document states it: a string of format `binary`.
pub fn binary_file(description: &str) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Binary)))
        .description(Some(description))
        .into()
}

/// An answer condition of `where`: `<questionItemId>:<op>:<value>`.
pub struct ConditionText;

impl PartialSchema for ConditionText {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .pattern(Some("^[1-9][0-9]*:(eq|ne|gt|lt|in):"))
            .max_length(Some(canvass_domain::answer::MAX_CONDITION_CHARS))
            .description(Some("<questionItemId>:<op>:<value>; `in` takes values split by `|`"))
            .into()
    }
}

impl ToSchema for ConditionText {}

/// An email address as an alert's recipient: at most 320 characters.
pub struct EmailAddress;

impl PartialSchema for EmailAddress {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Email)))
            .min_length(Some(3))
            .max_length(Some(limits::CONTACT))
            .into()
    }
}

impl ToSchema for EmailAddress {}
