//! The receipt of an erasure: when, by whom and what was erased, never whom (the contact is not kept). It is
//! written in the erasure's transaction, so an erasure without its receipt, or a receipt without its erasure,
//! cannot be.

use time::OffsetDateTime;

use crate::audit::Actor;
use crate::ids::ErasureReceiptId;

/// What an erasure did, to keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NewErasureReceipt {
    /// When.
    pub at: OffsetDateTime,
    /// Who asked.
    pub actor: Actor,
    /// Whether the person's answer sets were asked to go too.
    pub include_answers: bool,
    /// Respondents erased.
    pub respondents_erased: u64,
    /// Answer sets deleted.
    pub answer_sets_deleted: u64,
}

/// A kept receipt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ErasureReceipt {
    /// Its id, the erasure's `receiptId`.
    pub id: ErasureReceiptId,
    /// What it records.
    pub erasure: NewErasureReceipt,
}
