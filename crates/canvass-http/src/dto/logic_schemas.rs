//! The OpenAPI schemas of conditions and logic rules: a recursive `Conditions` (a condition, or an `all`/`any`
//! group of conditions), and a rule in either form. The bodies themselves are read by the domain
//! (`canvass_domain::survey::rules_from_json`), which names each broken field by its path.

use canvass_domain::limits;
use canvass_domain::survey::{Operator, MAX_GROUP_DEPTH, MAX_GROUP_MEMBERS};
use utoipa::openapi::schema::{AdditionalProperties, AnyOfBuilder, ArrayBuilder, ObjectBuilder, OneOfBuilder, Type};
use utoipa::openapi::{Ref, RefOr, Schema};
use utoipa::{PartialSchema, ToSchema};

use super::schemas::EqualsSchema;

/// No properties but those named.
fn closed() -> AdditionalProperties<Schema> {
    AdditionalProperties::FreeForm(false)
}

fn integer() -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .format(Some(utoipa::openapi::SchemaFormat::KnownFormat(utoipa::openapi::KnownFormat::Int64)))
}

fn text(max: usize) -> ObjectBuilder {
    ObjectBuilder::new().schema_type(Type::String).max_length(Some(max))
}

fn value() -> AnyOfBuilder {
    let cell = ObjectBuilder::new()
        .property("row", text(limits::OPTION))
        .property("option", text(limits::OPTION))
        .required("row")
        .required("option")
        .additional_properties(Some(closed()))
        .description(Some("A Matrix row's option"));
    AnyOfBuilder::new()
        .item(text(limits::OPEN_TEXT).description(Some("An option value, a text or a date (YYYY-MM-DD)")))
        .item(ObjectBuilder::new().schema_type(Type::Number).description(Some("A number (Numeric, Rating)")))
        .item(cell)
        .description(Some("What the operator compares with; absent for answered and notAnswered"))
}

fn condition(subject: &str, schema: ObjectBuilder) -> ObjectBuilder {
    let operators = Operator::ALL.map(Operator::as_str);
    ObjectBuilder::new()
        .property(subject, schema)
        .property("operator", ObjectBuilder::new().schema_type(Type::String).enum_values(Some(operators)))
        .property("value", value())
        .required(subject)
        .required("operator")
        .additional_properties(Some(closed()))
}

fn group(name: &str) -> ObjectBuilder {
    let members = ArrayBuilder::new()
        .items(Ref::from_schema_name("Conditions"))
        .min_items(Some(1))
        .max_items(Some(MAX_GROUP_MEMBERS));
    ObjectBuilder::new().property(name, members).required(name).additional_properties(Some(closed()))
}

/// Conditions: one condition on an item's answer or a background label, or a group that holds when all (or any)
/// of its members hold.
pub struct ConditionsSchema;

impl PartialSchema for ConditionsSchema {
    fn schema() -> RefOr<Schema> {
        let depth = format!(
            "A condition, or an all/any group of conditions; groups nest at most {MAX_GROUP_DEPTH} deep. On an item \
             with no answer only notEquals and notAnswered hold."
        );
        OneOfBuilder::new()
            .item(condition("questionItemId", integer()).description(Some("A condition on an earlier item's answer")))
            .item(
                condition("backgroundLabel", text(limits::OPTION)).description(Some("A condition on background data")),
            )
            .item(group("all"))
            .item(group("any"))
            .description(Some(depth))
            .into()
    }
}

impl ToSchema for ConditionsSchema {
    fn name() -> std::borrow::Cow<'static, str> {
        "Conditions".into()
    }
}

/// The three forms of a rule; `stored` adds the id and `broken` the tree returns.
fn rule_forms(stored: bool) -> OneOfBuilder {
    let finish = |builder: ObjectBuilder| {
        if stored {
            builder
                .property("ruleId", integer())
                .property("broken", ObjectBuilder::new().schema_type(Type::Boolean))
                .required("ruleId")
                .required("broken")
        } else {
            builder
        }
        .additional_properties(Some(closed()))
    };
    let action = |name: &str| ObjectBuilder::new().schema_type(Type::String).enum_values(Some([name]));
    let equals = ObjectBuilder::new()
        .property("questionItemId", integer())
        .property("equals", if stored { RefOr::T(text(limits::OPEN_TEXT).into()) } else { EqualsSchema::schema() })
        .property("goToPageId", integer())
        .required("questionItemId")
        .required("equals")
        .required("goToPageId")
        .description(Some("When the item's answer equals `equals`, go to the page"));
    let jump = ObjectBuilder::new()
        .property("when", Ref::from_schema_name("Conditions"))
        .property("action", action("jump"))
        .property("goToPageId", integer())
        .required("when")
        .required("action")
        .required("goToPageId")
        .description(Some("When the conditions hold as the rule's page is saved, go to a later page"));
    let end = ObjectBuilder::new()
        .property("when", Ref::from_schema_name("Conditions"))
        .property("action", action("endSurvey"))
        .required("when")
        .required("action")
        .description(Some("When the conditions hold as the rule's page is saved, the set completes"));
    OneOfBuilder::new().item(finish(equals)).item(finish(jump)).item(finish(end))
}

/// A logic rule in its three forms: as set (`STORED` false, `LogicRuleBody`), or as stored, with its id and
/// whether it is broken (`LogicRule`).
pub struct RuleFormsSchema<const STORED: bool>;

/// A logic rule to set.
pub type LogicRuleBodySchema = RuleFormsSchema<false>;

/// A stored logic rule, in the form it was given, with its id and whether it is broken.
pub type LogicRuleSchema = RuleFormsSchema<true>;

impl<const STORED: bool> PartialSchema for RuleFormsSchema<STORED> {
    fn schema() -> RefOr<Schema> {
        rule_forms(STORED).into()
    }
}

impl<const STORED: bool> ToSchema for RuleFormsSchema<STORED> {
    fn name() -> std::borrow::Cow<'static, str> {
        if STORED { "LogicRule" } else { "LogicRuleBody" }.into()
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push(("Conditions".into(), ConditionsSchema::schema()));
    }
}
