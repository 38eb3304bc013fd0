//! A question item as a `oneOf` by its `type`, so that a client generated from the document knows which fields
//! each type takes and returns: `ItemBody` (what a new survey's pages and `POST .../items` take) and
//! `ItemResponse` (what the tree returns) each become one named schema per type (`MatrixItemBody`,
//! `MatrixItem`, ...) holding the fields every item has and those of its type, told apart by a `discriminator` on
//! `type`. The bodies and responses themselves stay what the flat structs read and write.

use std::collections::BTreeMap;

use utoipa::openapi::schema::{Discriminator, Object, ObjectBuilder, OneOfBuilder, Schema, Type};
use utoipa::openapi::{OpenApi as Document, Ref, RefOr};

/// Every type with the fields only it takes (beside those of every item).
const TYPES: [(&str, &[&str]); 10] = [
    ("SingleChoice", &["options", "randomizeOptions", "fixedLast"]),
    ("MultipleChoice", &["options", "minSelected", "maxSelected", "randomizeOptions", "fixedLast"]),
    ("OpenText", &["minLength", "maxLength", "multiline", "format", "pattern"]),
    ("Numeric", &["min", "max", "wholeNumber"]),
    ("Rating", &["minLabel", "maxLabel"]),
    ("Info", &[]),
    ("Dropdown", &["options", "randomizeOptions", "fixedLast"]),
    ("Date", &["minDate", "maxDate"]),
    ("Matrix", &["options", "rows"]),
    ("Ranking", &["options", "randomizeOptions", "fixedLast"]),
];

/// The fields of every item in a body, and in a response (which returns `options` and the scale labels on every
/// type, empty and null where the type has none).
const BODY_FIELDS: &[&str] = &["type", "text", "required", "displayWhen", "position"];
const RESPONSE_FIELDS: &[&str] =
    &["questionItemId", "type", "text", "required", "options", "minLabel", "maxLabel", "displayWhen"];

/// Splits `ItemBody` and `ItemResponse` by type.
pub fn split_items_by_type(document: &mut Document) {
    let Some(components) = document.components.as_mut() else { return };
    let schemas = &mut components.schemas;
    for (parent, suffix, common) in [("ItemBody", "ItemBody", BODY_FIELDS), ("ItemResponse", "Item", RESPONSE_FIELDS)] {
        let Some(flat) = schemas.get(parent).and_then(|schema| flattened(schemas, schema)) else { continue };
        let mut one_of = OneOfBuilder::new();
        let mut mapping = BTreeMap::new();
        for (kind, own) in TYPES {
            let name = format!("{kind}{suffix}");
            let shape = shape_of(&flat, kind, common.iter().chain(own.iter()));
            let link = Ref::from_schema_name(name.clone());
            mapping.insert(kind.to_owned(), link.ref_location.clone());
            schemas.insert(name, RefOr::T(Schema::Object(shape)));
            one_of = one_of.item(link);
        }
        let mut split = one_of.description(flat.description.clone()).build();
        let mut discriminator = Discriminator::new("type");
        discriminator.mapping = mapping;
        split.discriminator = Some(discriminator);
        schemas.insert(parent.to_owned(), RefOr::T(Schema::OneOf(split)));
    }
}

/// One object of `schema`'s properties: an object as it is, an `allOf` (a struct with a flattened part) as the
/// union of its parts' properties and required fields, its parts' references followed.
fn flattened(schemas: &BTreeMap<String, RefOr<Schema>>, schema: &RefOr<Schema>) -> Option<Object> {
    match schema {
        RefOr::T(Schema::Object(object)) => Some(object.clone()),
        RefOr::T(Schema::AllOf(all_of)) => {
            let mut merged = Object::new();
            merged.description = all_of.description.clone();
            for part in &all_of.items {
                let part = flattened(schemas, part)?;
                merged.properties.extend(part.properties);
                merged.required.extend(part.required);
            }
            Some(merged)
        }
        RefOr::Ref(link) => {
            let name = link.ref_location.strip_prefix("#/components/schemas/")?;
            flattened(schemas, schemas.get(name)?)
        }
        _ => None,
    }
}

/// `flat` with only `fields` (in its order), its `type` the one value `kind`, and its required fields among them.
fn shape_of<'f>(flat: &Object, kind: &str, fields: impl Iterator<Item = &'f &'f str>) -> Object {
    let keep: Vec<&str> = fields.copied().collect();
    let mut shape = flat.clone();
    shape.properties.retain(|name, _| keep.contains(&name.as_str()));
    shape.required.retain(|name| keep.contains(&name.as_str()));
    let kind_only =
        ObjectBuilder::new().schema_type(Type::String).enum_values(Some([kind])).description(Some(format!("`{kind}`")));
    shape.properties.insert("type".to_owned(), RefOr::T(Schema::Object(kind_only.build())));
    let counts = match kind {
        "Matrix" => Some((2, 11)),
        "Ranking" => Some((2, 20)),
        "SingleChoice" | "MultipleChoice" | "Dropdown" => Some((1, canvass_domain::limits::OPTIONS)),
        _ => None,
    };
    let bounds =
        [("options", counts), ("rows", (kind == "Matrix").then_some((1, canvass_domain::survey::MATRIX_ROWS)))];
    for (field, counts) in bounds {
        if let (Some(RefOr::T(Schema::Array(list))), Some((least, most))) = (shape.properties.get_mut(field), counts) {
            // A response lists what is stored (a body may leave `options` out and take the default, empty).
            list.min_items = shape.required.iter().any(|name| name == field).then_some(least);
            list.max_items = Some(most);
        }
    }
    if !shape.required.iter().any(|name| name == "type") {
        shape.required.push("type".to_owned());
    }
    shape
}
