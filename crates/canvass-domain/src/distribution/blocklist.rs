//! The blocklist: contacts the account must never send to.

use time::OffsetDateTime;

/// Why a contact is on the blocklist. Its name (`Blocked`, `OptedOut`) is what the store keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::EnumString, strum::IntoStaticStr, strum::VariantArray)]
pub enum BlocklistType {
    /// Blocked by the account.
    Blocked,
    /// The respondent opted out.
    OptedOut,
}

impl BlocklistType {
    /// The type's name.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// A blocklist entry.
#[derive(Clone, PartialEq, Eq)]
pub struct BlocklistEntry {
    /// The contact as it was given.
    pub contact_details: String,
    /// Why it is blocked.
    pub kind: BlocklistType,
    /// When it was added.
    pub created_at: OffsetDateTime,
}

/// Where an entry sorts in the blocklist: by `created_at`, then by contact key (the contact as duplicates compare
/// it), which is unique within an account.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct BlocklistKey {
    /// When the entry was added.
    pub created_at: OffsetDateTime,
    /// The entry's contact key.
    pub contact_key: String,
}

crate::debug_without_personal_data!(BlocklistEntry { kind, created_at });

crate::debug_without_personal_data!(BlocklistKey { created_at });
