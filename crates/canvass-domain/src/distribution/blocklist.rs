//! The blocklist: contacts the account must never send to.

use time::OffsetDateTime;

/// Why a contact is on the blocklist.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BlocklistType {
    /// Blocked by the account.
    Blocked,
    /// The respondent opted out.
    OptedOut,
}

impl BlocklistType {
    /// Every type.
    pub const ALL: [Self; 2] = [Self::Blocked, Self::OptedOut];

    /// The name clients send and see.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Blocked => "Blocked",
            Self::OptedOut => "OptedOut",
        }
    }

    /// The type with this name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.as_str() == name)
    }
}

/// A blocklist entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlocklistEntry {
    /// The contact as it was given.
    pub contact_details: String,
    /// Why it is blocked.
    pub kind: BlocklistType,
    /// When it was added.
    pub created_at: OffsetDateTime,
}
