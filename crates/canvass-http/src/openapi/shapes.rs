//! Rules across the fields of a body, stated where JSON Schema can state them, so that a client (or a fuzzer) that
//! follows the document sends what the service takes:
//!
//! - a retention rule's PATCH gives `retentionDays`, `status` or both, not null (`anyOf` of required fields);
//! - a sendout takes one of four shapes by its `type` (`oneOf`): LOGIN with no message fields; EMAIL with a send
//!   date, a sender, a subject and a message holding `{{surveyLink}}`; SMS and TWOWAY the same without the subject,
//!   their sender of an SMS sender's form; LINK as LOGIN, with its `maxResponses` and `oneResponsePerBrowser`,
//!   which no other shape has.
//!
//! What JSON Schema cannot state stays in the schema's `description` and is answered 400 (docs/decisions.md,
//! "The fuzz pass"): an EMAIL sender that is an email address, `expiryDate` after `sendDate`.

use utoipa::openapi::schema::{
    AllOfBuilder, AnyOfBuilder, Object, ObjectBuilder, OneOfBuilder, Schema, SchemaType, Type,
};
use utoipa::openapi::{OpenApi as Document, Ref, RefOr};

/// The name of the placeholder a sending message must hold, as a pattern (text around it, no NUL).
const HOLDS_SURVEY_LINK: &str = "^[^\\u0000]*\\{\\{surveyLink\\}\\}[^\\u0000]*$";

/// An SMS sender: up to 11 letters and digits, or an E.164 number (`check_sms_sender`); blanks around it, which
/// the service trims, are left out.
const SMS_SENDER: &str = "^(?:[A-Za-z0-9]{1,11}|\\+[1-9][0-9]{1,14})$";

/// States the rules on the components that have them.
pub fn state_cross_field_rules(document: &mut Document) {
    let Some(components) = document.components.as_mut() else { return };
    let schemas = &mut components.schemas;
    if let Some(RefOr::T(Schema::Object(patch))) = schemas.get("RulePatchBody") {
        let stated = one_field_at_least(patch.clone());
        schemas.insert("RulePatchBody".to_owned(), RefOr::T(stated));
    }
    if let Some(RefOr::T(Schema::Object(sendout))) = schemas.get("CreateSendoutBody") {
        let stated = sendout_shapes(sendout);
        schemas.insert("CreateSendoutBody".to_owned(), RefOr::T(stated));
    }
}

/// `RulePatchBody`: its fields, and at least one of them given and not null.
fn one_field_at_least(mut patch: Object) -> Schema {
    let description = patch.description.take();
    let given = |field: &str, schema: RefOr<Schema>| {
        ObjectBuilder::new().schema_type(Type::Object).property(field, schema).required(field).build()
    };
    let either = AnyOfBuilder::new()
        .item(given("retentionDays", ObjectBuilder::new().schema_type(Type::Integer).into()))
        .item(given("status", Ref::from_schema_name("RuleStatusBody").into()));
    AllOfBuilder::new()
        .item(patch)
        .item(either)
        .description(description.map(|d| format!("{d} Give `retentionDays`, `status` or both, not null.")))
        .into()
}

/// `CreateSendoutBody`: one of its four shapes by `type`.
fn sendout_shapes(sendout: &Object) -> Schema {
    let text = |max: usize, pattern: &str| -> RefOr<Schema> {
        ObjectBuilder::new().schema_type(Type::String).max_length(Some(max)).pattern(Some(pattern)).into()
    };
    let blank = |max: usize| -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
            .max_length(Some(max))
            .pattern(Some("^\\s*$"))
            .into()
    };
    let no_date: RefOr<Schema> = OneOfBuilder::new()
        .item(ObjectBuilder::new().schema_type(Type::Null))
        .item(ObjectBuilder::new().schema_type(Type::String).max_length(Some(0)))
        .into();
    let shape = |types: &[&str], fields: Vec<(&str, RefOr<Schema>)>, required: &[&str]| {
        let mut shape = sendout.clone();
        shape.description = None;
        if types != ["LINK"] {
            for link_only in ["maxResponses", "oneResponsePerBrowser"] {
                shape.properties.shift_remove(link_only);
            }
        }
        let kind = ObjectBuilder::new().schema_type(Type::String).enum_values(Some(types.to_vec()));
        shape.properties.insert("type".to_owned(), kind.into());
        shape.properties.extend(fields.into_iter().map(|(field, schema)| (field.to_owned(), schema)));
        shape.required.extend(required.iter().map(|field| (*field).to_owned()));
        shape
    };
    let nothing_sent = || {
        vec![("sendDate", no_date.clone()), ("sender", blank(320)), ("subject", blank(500)), ("message", blank(10_000))]
    };
    let login = shape(&["LOGIN"], nothing_sent(), &[]);
    let link = shape(&["LINK"], nothing_sent(), &[]);
    let date: RefOr<Schema> = Ref::from_schema_name("DateText").into();
    let email = shape(
        &["EMAIL"],
        vec![
            ("sendDate", date.clone()),
            ("sender", text(320, "\\S")),
            ("subject", text(500, "\\S")),
            ("message", text(10_000, HOLDS_SURVEY_LINK)),
        ],
        &["sendDate", "sender", "subject", "message"],
    );
    let sms = shape(
        &["SMS", "TWOWAY"],
        vec![("sendDate", date), ("sender", text(320, SMS_SENDER)), ("message", text(10_000, HOLDS_SURVEY_LINK))],
        &["sendDate", "sender", "message"],
    );
    let description = sendout.description.clone().unwrap_or_default();
    OneOfBuilder::new()
        .item(login)
        .item(email)
        .item(sms)
        .item(link)
        .description(Some(format!(
            "{description} One shape per `type`: LOGIN and LINK send nothing, so `sendDate`, `sender`, `subject` \
             and `message` are absent, null or blank; EMAIL needs all four, its message holding \
             `{{{{surveyLink}}}}`; SMS and TWOWAY need all but `subject`, the sender being up to 11 letters and \
             digits or an E.164 number; only LINK takes `maxResponses` and `oneResponsePerBrowser` (on another \
             type either is a 400). Checked by the service alone (400 naming the field): an EMAIL sender is an \
             email address, and `expiryDate` is after `sendDate`."
        )))
        .into()
}
