//! Bodies of `/contacts`: a contact of the account's directory, its creation, its PATCH (absent keeps, null clears,
//! an attribute set to null goes) and a page of a search.

use std::collections::BTreeMap;

use canvass_domain::directory::{Contact, ContactInput, ContactPatch};
use canvass_domain::language::Language;
use canvass_domain::paging::Page;
use canvass_domain::use_cases::contact_import::ImportOutcome;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::{IntoParams, ToSchema};

use super::questionnaire::given;
use super::schemas::{AttributeChanges, Attributes};
use super::sendout::LanguageBody;

/// Creates a contact: `email` or `phone` at least.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateContactBody {
    /// An email address; unique in the account, compared case-insensitively. Blank is none.
    #[serde(default)]
    #[schema(max_length = 320)]
    pub email: Option<String>,
    /// An E.164 phone number (`+4791234567`); unique in the account. Blank is none.
    #[serde(default)]
    #[schema(max_length = 320, pattern = "^\\s*(\\+[1-9][0-9]{1,14})?\\s*$")]
    pub phone: Option<String>,
    /// First name.
    #[serde(default)]
    #[schema(max_length = 200)]
    pub first_name: Option<String>,
    /// Last name.
    #[serde(default)]
    #[schema(max_length = 200)]
    pub last_name: Option<String>,
    /// The language the contact reads.
    #[serde(default)]
    pub language: Option<LanguageBody>,
    /// The account's own fields: up to 50, each name a letter then up to 39 letters, digits and underscores, each
    /// value up to 1,000 characters.
    #[serde(default)]
    #[schema(value_type = Option<Attributes>)]
    pub attributes: Option<BTreeMap<String, String>>,
}

impl From<CreateContactBody> for ContactInput {
    fn from(body: CreateContactBody) -> Self {
        Self {
            email: body.email,
            phone: body.phone,
            first_name: body.first_name,
            last_name: body.last_name,
            language: body.language.map(Language::from),
            attributes: body.attributes.unwrap_or_default(),
        }
    }
}

/// Changes a contact: an absent field stays, null clears it; `attributes` merges (a name set to null goes).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PatchContactBody {
    /// An email address; null (or blank) clears it (the contact keeps a phone number).
    #[serde(default, deserialize_with = "given")]
    #[schema(value_type = Option<String>, max_length = 320)]
    pub email: Option<Option<String>>,
    /// An E.164 phone number; null (or blank) clears it (the contact keeps an email address).
    #[serde(default, deserialize_with = "given")]
    #[schema(value_type = Option<String>, max_length = 320, pattern = "^\\s*(\\+[1-9][0-9]{1,14})?\\s*$")]
    pub phone: Option<Option<String>>,
    /// First name; null clears it.
    #[serde(default, deserialize_with = "given")]
    #[schema(value_type = Option<String>, max_length = 200)]
    pub first_name: Option<Option<String>>,
    /// Last name; null clears it.
    #[serde(default, deserialize_with = "given")]
    #[schema(value_type = Option<String>, max_length = 200)]
    pub last_name: Option<Option<String>>,
    /// The language the contact reads; null clears it.
    #[serde(default, deserialize_with = "given")]
    #[schema(value_type = Option<LanguageBody>)]
    pub language: Option<Option<LanguageBody>>,
    /// Attributes to set, or (null) to remove.
    #[serde(default)]
    #[schema(value_type = Option<AttributeChanges>)]
    pub attributes: Option<BTreeMap<String, Option<String>>>,
}

impl From<PatchContactBody> for ContactPatch {
    fn from(body: PatchContactBody) -> Self {
        Self {
            email: body.email,
            phone: body.phone,
            first_name: body.first_name,
            last_name: body.last_name,
            language: body.language.map(|language| language.map(Language::from)),
            attributes: body.attributes.unwrap_or_default(),
        }
    }
}

/// A contact of the directory.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContactResponse {
    /// The contact's id.
    pub contact_id: i64,
    /// Email address.
    #[schema(required = true)]
    pub email: Option<String>,
    /// Phone number.
    #[schema(required = true)]
    pub phone: Option<String>,
    /// First name.
    #[schema(required = true)]
    pub first_name: Option<String>,
    /// Last name.
    #[schema(required = true)]
    pub last_name: Option<String>,
    /// The language the contact reads.
    #[schema(required = true)]
    pub language: Option<LanguageBody>,
    /// The account's own fields, by name.
    #[schema(value_type = Attributes)]
    pub attributes: BTreeMap<String, String>,
    /// When it was created.
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// When it last changed.
    #[serde(with = "time::serde::rfc3339")]
    pub updated_at: OffsetDateTime,
}

impl From<Contact> for ContactResponse {
    fn from(contact: Contact) -> Self {
        Self {
            contact_id: contact.id.get(),
            email: contact.email,
            phone: contact.phone,
            first_name: contact.first_name,
            last_name: contact.last_name,
            language: contact.language.map(LanguageBody::from),
            attributes: contact.attributes,
            created_at: contact.created_at,
            updated_at: contact.updated_at,
        }
    }
}

/// The query of `GET /contacts`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct ContactsQuery {
    /// Contacts whose email address, phone number or names hold this text, case-insensitively.
    #[param(max_length = 320)]
    pub search: Option<String>,
    /// Only the members of this list of the account.
    pub list_id: Option<i64>,
    /// Page number from 1 (default 1).
    #[param(minimum = 1)]
    pub page_number: Option<i64>,
    /// Page size from 1 to 1000 (default 100).
    #[param(minimum = 1, maximum = 1000)]
    pub page_size: Option<i64>,
}

/// A page of contacts, in creation order.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContactsPageResponse {
    /// The contacts of the page.
    pub contacts: Vec<ContactResponse>,
    /// The page number.
    pub page_number: i64,
    /// The page size.
    pub page_size: i64,
    /// Pages of this size.
    pub page_count: i64,
    /// Contacts that match.
    pub total_count: i64,
}

impl From<Page<Contact>> for ContactsPageResponse {
    fn from(page: Page<Contact>) -> Self {
        Self {
            page_number: page.request.number(),
            page_size: page.request.size(),
            page_count: page.page_count(),
            total_count: page.total_count,
            contacts: page.items.into_iter().map(ContactResponse::from).collect(),
        }
    }
}

/// A row of an import that was not imported.
#[derive(Debug, Serialize, ToSchema)]
pub struct ImportRejectionResponse {
    /// The line the row starts on (the header is line 1).
    #[schema(minimum = 2)]
    pub line: u64,
    /// Why, naming the field (`email: must be an email address`), or the row's two contacts.
    pub reason: String,
}

/// What an import did.
#[derive(Debug, Serialize, ToSchema)]
pub struct ImportResponse {
    /// Rows that created a contact.
    #[schema(minimum = 0)]
    pub created: usize,
    /// Rows that updated a contact.
    #[schema(minimum = 0)]
    pub updated: usize,
    /// Rows not imported, in file order.
    pub rejected: Vec<ImportRejectionResponse>,
}

impl From<ImportOutcome> for ImportResponse {
    fn from(outcome: ImportOutcome) -> Self {
        let rejected = outcome.rejected.into_iter().map(|r| ImportRejectionResponse { line: r.line, reason: r.reason });
        Self { created: outcome.created, updated: outcome.updated, rejected: rejected.collect() }
    }
}
