//! How many exports each account runs at once: an export takes a slot of its account before it reads anything and
//! gives it back when its body ends or is dropped (its client left, or its connection was closed unread). The
//! counts are kept for accounts with an export under way only.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use canvass_domain::ids::AccountId;

/// The exports under way, per account.
#[derive(Debug)]
pub struct ExportSlots {
    per_account: usize,
    taken: Mutex<HashMap<AccountId, usize>>,
}

/// One export's slot, given back when dropped.
#[derive(Debug)]
pub struct ExportSlot {
    slots: Arc<ExportSlots>,
    account: AccountId,
}

impl ExportSlots {
    /// At most `per_account` exports of one account at once.
    pub fn new(per_account: usize) -> Self {
        Self { per_account, taken: Mutex::new(HashMap::new()) }
    }

    /// A slot of `account`'s, or `None` when it runs as many exports as it may.
    pub fn take(self: &Arc<Self>, account: AccountId) -> Option<ExportSlot> {
        let mut taken = self.taken.lock().unwrap_or_else(PoisonError::into_inner);
        let count = taken.entry(account).or_insert(0);
        if *count >= self.per_account {
            return None;
        }
        *count += 1;
        Some(ExportSlot { slots: self.clone(), account })
    }
}

impl Drop for ExportSlot {
    fn drop(&mut self) {
        let mut taken = self.slots.taken.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = taken.get_mut(&self.account) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                taken.remove(&self.account);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_account_takes_at_most_its_slots_and_a_dropped_one_comes_back() {
        let slots = Arc::new(ExportSlots::new(2));
        let (one, two) = (AccountId::new(1), AccountId::new(2));
        let first = slots.take(one).unwrap();
        let _second = slots.take(one).unwrap();
        assert!(slots.take(one).is_none(), "a third of the same account waits");
        let _theirs = slots.take(two).unwrap();
        drop(first);
        assert!(slots.take(one).is_some(), "a slot given back is taken again");
        drop(_theirs);
        assert!(!slots.taken.lock().unwrap().contains_key(&two), "an account with no export is forgotten");
    }
}
