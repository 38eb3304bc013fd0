//! Every `oneOf` of objects a set of named component schemas, told apart by a `discriminator` on the field that
//! names the variant, so that a client generated from the document names each variant (`EmailSendoutBody`, not
//! `CreateSendoutBodyType1`). The variants are moved as they are: the requests and responses stay the same.

use std::collections::BTreeMap;

use utoipa::openapi::schema::{Discriminator, Schema};
use utoipa::openapi::{OpenApi as Document, Ref, RefOr};

/// The components whose `oneOf` is named here: the field that tells the variants apart, and a name for each
/// variant, in their order.
const NAMED: [(&str, &str, &[&str]); 2] = [
    ("CreateSendoutBody", "type", &["LoginSendoutBody", "EmailSendoutBody", "SmsSendoutBody", "LinkSendoutBody"]),
    (
        "ItemResultBody",
        "type",
        &[
            "SingleChoiceResult",
            "MultipleChoiceResult",
            "OpenTextResult",
            "NumericResult",
            "RatingResult",
            "InfoResult",
            "DropdownResult",
            "DateResult",
            "MatrixResult",
            "RankingResult",
        ],
    ),
];

/// Moves the variants of each [`NAMED`] component into components of their own, and states the discriminator.
pub fn name_the_variants(document: &mut Document) {
    let Some(components) = document.components.as_mut() else { return };
    let schemas = &mut components.schemas;
    for (parent, field, names) in NAMED {
        let Some(RefOr::T(Schema::OneOf(one_of))) = schemas.get_mut(parent) else { continue };
        if one_of.items.len() != names.len() {
            tracing::error!(schema = parent, "the variants of a oneOf are not named: one name per variant is needed");
            continue;
        }
        let mut mapping = BTreeMap::new();
        let mut named = Vec::with_capacity(names.len());
        for (variant, name) in std::mem::take(&mut one_of.items).into_iter().zip(names) {
            let link = Ref::from_schema_name(*name);
            for value in values_of(&variant, field) {
                mapping.insert(value, link.ref_location.clone());
            }
            named.push((name.to_string(), variant));
            one_of.items.push(link.into());
        }
        let mut discriminator = Discriminator::new(field);
        discriminator.mapping = mapping;
        one_of.discriminator = Some(discriminator);
        schemas.extend(named);
    }
}

/// The values `field` takes in a variant: the `enum` of its property, in the variant or in a part of it.
fn values_of(variant: &RefOr<Schema>, field: &str) -> Vec<String> {
    let RefOr::T(schema) = variant else { return Vec::new() };
    match schema {
        Schema::Object(object) => match object.properties.get(field) {
            Some(RefOr::T(Schema::Object(property))) => {
                property.enum_values.iter().flatten().filter_map(|value| value.as_str().map(str::to_owned)).collect()
            }
            _ => Vec::new(),
        },
        Schema::AllOf(all_of) => all_of.items.iter().flat_map(|part| values_of(part, field)).collect(),
        _ => Vec::new(),
    }
}
