//! Bodies of `/contact-lists` (a list with its member count, its members added) and of a list added to a
//! sendout (`respondents/from-list`).

use canvass_domain::directory::ContactList;
use canvass_domain::ids::ContactId;
use canvass_domain::use_cases::contact_lists::ListOutcome;
use canvass_domain::use_cases::respondents::RejectReason;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;

use super::mirror::mirrored;

/// Creates an empty list.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateContactListBody {
    /// Its name: not blank, at most 200 characters.
    #[schema(min_length = 1, max_length = 200)]
    pub name: String,
}

/// A list of the directory's contacts.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContactListResponse {
    /// The list's id.
    pub list_id: i64,
    /// Its name.
    pub name: String,
    /// How many contacts it holds.
    #[schema(minimum = 0)]
    pub member_count: i64,
    /// When it was created.
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
}

impl From<ContactList> for ContactListResponse {
    fn from(list: ContactList) -> Self {
        Self { list_id: list.id.get(), name: list.name, member_count: list.member_count, created_at: list.created_at }
    }
}

/// Contacts to make members of a list.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AddMembersBody {
    /// 1 to 10,000 ids of the account's contacts; a member already, or a repeat, counts once.
    #[schema(min_items = 1, max_items = 10000)]
    pub contact_ids: Vec<i64>,
}

impl AddMembersBody {
    /// The ids as the domain's.
    pub fn ids(&self) -> Vec<ContactId> {
        self.contact_ids.iter().copied().map(ContactId::new).collect()
    }
}

/// How many contacts became members.
#[derive(Debug, Serialize, ToSchema)]
pub struct AddedMembersResponse {
    /// Contacts that were no member before.
    #[schema(minimum = 0)]
    pub added: usize,
}

/// The list to add to a sendout.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FromListBody {
    /// A list of the account.
    pub list_id: i64,
}

mirrored! {
    /// Why a member of a list was not added to a sendout.
    #[derive(Debug, Clone, Copy, Serialize, ToSchema)]
    #[serde(rename_all = "camelCase")]
    pub enum ListRejectReasonBody <= RejectReason {
        /// The contact has no detail of the sendout's kind (no email address for EMAIL, no phone number for SMS
        /// or TWOWAY).
        NoContactDetail,
        /// The contact is on the account's blocklist.
        Blocklisted,
        /// The sendout has this contact already.
        Duplicate,
    }
}

/// A member of the list that was not added.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ListRejectionResponse {
    /// The contact.
    pub contact_id: i64,
    /// Why.
    pub reason: ListRejectReasonBody,
}

/// What adding a list to a sendout did.
#[derive(Debug, Serialize, ToSchema)]
pub struct FromListResponse {
    /// Respondents added.
    #[schema(minimum = 0)]
    pub added: usize,
    /// Members not added, by contact id.
    pub rejected: Vec<ListRejectionResponse>,
}

impl From<ListOutcome> for FromListResponse {
    fn from(outcome: ListOutcome) -> Self {
        let rejected = outcome
            .rejected
            .into_iter()
            .map(|(contact, reason)| ListRejectionResponse { contact_id: contact.get(), reason: reason.into() })
            .collect();
        Self { added: outcome.added, rejected }
    }
}
