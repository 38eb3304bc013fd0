//! What the temporary files of XLSX exports may hold: an export counts what it writes into them against its
//! account's cap and the cap of all accounts, and gives it back when its writer is dropped (the files go with it).
//! An export that would go over either cap breaks off (its client sees a truncated body), so neither one account's
//! exports nor all of them together can fill the disk.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use canvass_domain::ids::AccountId;
use canvass_metrics::Metrics;

/// The bytes the exports under way hold, in all and per account.
pub struct TempBytes {
    per_account: u64,
    total: u64,
    held: Mutex<Held>,
    metrics: Arc<Metrics>,
}

#[derive(Default)]
struct Held {
    total: u64,
    accounts: HashMap<AccountId, u64>,
}

/// What one export holds, given back when dropped.
pub struct TempHold {
    pool: Arc<TempBytes>,
    account: AccountId,
    bytes: u64,
}

/// An export would hold more than a cap allows.
#[derive(Debug, thiserror::Error)]
#[error("the temporary files of XLSX exports would pass their cap ({cap} bytes {whose})")]
pub struct OverCap {
    cap: u64,
    whose: &'static str,
}

impl TempBytes {
    /// At most `per_account` bytes for one account's exports and `total` for all, counted into `metrics`.
    pub fn new(per_account: u64, total: u64, metrics: Arc<Metrics>) -> Self {
        Self { per_account, total, held: Mutex::new(Held::default()), metrics }
    }

    /// An export of `account` that holds nothing yet.
    pub fn hold(self: &Arc<Self>, account: AccountId) -> TempHold {
        TempHold { pool: self.clone(), account, bytes: 0 }
    }
}

impl TempHold {
    /// Counts `bytes` more, unless the account's or every account's exports would then hold more than their cap
    /// (then nothing is counted).
    pub fn grow(&mut self, bytes: u64) -> Result<(), OverCap> {
        let pool = &self.pool;
        let mut held = pool.held.lock().unwrap_or_else(PoisonError::into_inner);
        let account = held.accounts.get(&self.account).copied().unwrap_or(0);
        if account.saturating_add(bytes) > pool.per_account {
            return Err(OverCap { cap: pool.per_account, whose: "per account" });
        }
        if held.total.saturating_add(bytes) > pool.total {
            return Err(OverCap { cap: pool.total, whose: "in all" });
        }
        held.total += bytes;
        *held.accounts.entry(self.account).or_insert(0) += bytes;
        self.bytes += bytes;
        pool.metrics.set_export_temp_bytes(held.total);
        Ok(())
    }
}

impl Drop for TempHold {
    fn drop(&mut self) {
        let mut held = self.pool.held.lock().unwrap_or_else(PoisonError::into_inner);
        held.total = held.total.saturating_sub(self.bytes);
        if let Some(account) = held.accounts.get_mut(&self.account) {
            *account = account.saturating_sub(self.bytes);
            if *account == 0 {
                held.accounts.remove(&self.account);
            }
        }
        self.pool.metrics.set_export_temp_bytes(held.total);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exports_hold_at_most_their_accounts_cap_and_all_at_most_the_total() {
        let pool = Arc::new(TempBytes::new(100, 150, Arc::new(Metrics::new())));
        let (one, two) = (AccountId::new(1), AccountId::new(2));
        let mut first = pool.hold(one);
        first.grow(60).unwrap();
        let mut second = pool.hold(one);
        assert!(second.grow(41).is_err(), "the account's two exports would hold 101");
        second.grow(40).unwrap();
        let mut theirs = pool.hold(two);
        assert!(theirs.grow(51).is_err(), "all would hold 151");
        theirs.grow(50).unwrap();
        drop(first);
        theirs.grow(50).unwrap();
        drop((second, theirs));
        let held = pool.held.lock().unwrap();
        assert_eq!((held.total, held.accounts.len()), (0, 0), "everything is given back");
    }
}
