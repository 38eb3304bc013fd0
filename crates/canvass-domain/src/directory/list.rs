//! Lists of the directory's contacts, and what adding a list to a sendout takes from each member: the contact
//! detail of the sendout's kind, and the reasons a member is not added.

use time::OffsetDateTime;

use crate::distribution::DispatchType;
use crate::error::FieldError;
use crate::ids::{ContactId, ContactListId, LabelId};
use crate::limits::{check_name, SHORT_NAME};
use crate::use_cases::respondents::RejectReason;

/// The most contacts one call adds to a list.
pub const MAX_MEMBERS_PER_CALL: usize = 10_000;

/// A stored list of contacts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContactList {
    /// Its id.
    pub id: ContactListId,
    /// Its name.
    pub name: String,
    /// How many contacts it holds.
    pub member_count: i64,
    /// When it was created.
    pub created_at: OffsetDateTime,
}

/// A list's name, checked: not blank, at most 200 characters, trimmed.
///
/// ```
/// use canvass_domain::directory::list_name;
///
/// assert_eq!(list_name(" Customers ").unwrap(), "Customers");
/// assert_eq!(list_name(" ").unwrap_err().field, "name");
/// ```
pub fn list_name(name: &str) -> Result<&str, FieldError> {
    check_name("name", name, SHORT_NAME)
}

/// Which of a contact's details a respondent of a sendout takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContactDetail {
    /// The email address (EMAIL).
    Email,
    /// The phone number (SMS, TWOWAY).
    Phone,
    /// The email address, else the phone number (LOGIN: either is an identifier).
    EmailElsePhone,
}

impl ContactDetail {
    /// The detail a sendout of `kind` sends to; `None` for LINK, whose respondents are its visitors.
    ///
    /// ```
    /// use canvass_domain::directory::ContactDetail;
    /// use canvass_domain::distribution::DispatchType;
    ///
    /// assert_eq!(ContactDetail::for_kind(DispatchType::TwoWay), Some(ContactDetail::Phone));
    /// assert_eq!(ContactDetail::for_kind(DispatchType::Link), None);
    /// ```
    pub fn for_kind(kind: DispatchType) -> Option<Self> {
        match kind {
            DispatchType::Email => Some(Self::Email),
            DispatchType::Sms | DispatchType::TwoWay => Some(Self::Phone),
            DispatchType::Login => Some(Self::EmailElsePhone),
            DispatchType::Link => None,
        }
    }
}

/// One chunk of a list to add to a sendout: the members after `after` (by contact id), as many as there are
/// `tokens`, each new respondent taking the next token.
#[derive(Clone, PartialEq, Eq)]
pub struct ListChunk {
    /// The list.
    pub list: ContactListId,
    /// The detail each respondent takes.
    pub detail: ContactDetail,
    /// The last member of the chunk before (`None` for the first).
    pub after: Option<ContactId>,
    /// A fresh survey link token per member of the chunk; the chunk holds at most this many.
    pub tokens: Vec<String>,
    /// The sendout's background data labels by name: an attribute of one of these names, not blank, becomes the
    /// respondent's value of that label.
    pub labels: Vec<(String, LabelId)>,
}

crate::debug_without_personal_data!(ListChunk { list, detail, after });

/// What became of one member of a chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListEntry {
    /// The contact.
    pub contact: ContactId,
    /// Why it was not added; `None` when it was.
    pub rejected: Option<RejectReason>,
}
