//! Long lists read in chunks, in key order (keyset pagination), so that a reader holds one chunk at a time: each
//! chunk is the rows after the last key of the previous one. Each chunk is its own read, so a row added while a
//! list is read appears when its key sorts after the cursor; no row appears twice, and the keys only grow.

/// Rows per chunk of the lists the API streams (answer sets, respondents, the blocklist).
pub const CHUNK_SIZE: usize = 1000;

/// What a chunk of rows whose size the client decides (answer sets with their answers) may weigh, in bytes (see
/// [`Weighed`]): a chunk is cut short where its rows reach this, so a reader holds about this much whatever the
/// rows hold (docs/decisions.md, "Chunks weighed in bytes").
pub const CHUNK_BYTES: u64 = 2 * 1024 * 1024;

/// A row's key and about how many bytes the row takes once read, as the store weighs it before reading it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Weighed<K> {
    /// The row's key.
    pub key: K,
    /// About how many bytes the row takes in memory once read.
    pub bytes: u64,
}

/// How many of the leading rows of `weights` one chunk takes under a budget of `budget` bytes: every row while
/// their sum stays within it, and always the first (a row that weighs more than the budget is read alone).
///
/// ```
/// use canvass_domain::chunks::within_budget;
///
/// assert_eq!(within_budget([400, 500, 100, 1], 1000), 3);
/// assert_eq!(within_budget([5000, 1], 1000), 1);
/// assert_eq!(within_budget([], 1000), 0);
/// ```
pub fn within_budget(weights: impl IntoIterator<Item = u64>, budget: u64) -> usize {
    let mut spent = 0u64;
    let mut taken = 0;
    for weight in weights {
        spent = spent.saturating_add(weight);
        if taken > 0 && spent > budget {
            break;
        }
        taken += 1;
    }
    taken
}

/// Which chunk of a list to read: the rows after `after` in key order (from the first row when `None`), at most
/// `size` of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkRequest<K> {
    after: Option<K>,
    size: usize,
}

impl<K> ChunkRequest<K> {
    /// The first chunk of a list, of at most `size` rows (at least 1).
    pub fn first(size: usize) -> Self {
        Self { after: None, size: size.max(1) }
    }

    /// The chunk of at most `size` rows (at least 1) after `key`.
    pub fn after(key: K, size: usize) -> Self {
        Self { after: Some(key), size: size.max(1) }
    }

    /// The key the chunk starts after; `None` for the first chunk.
    pub fn after_key(&self) -> Option<&K> {
        self.after.as_ref()
    }

    /// Whether this is the first chunk of the list.
    pub fn is_first(&self) -> bool {
        self.after.is_none()
    }

    /// The most rows the chunk holds.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The most rows the chunk holds, as SQL's `LIMIT` takes it.
    pub fn limit(&self) -> i64 {
        i64::try_from(self.size).unwrap_or(i64::MAX)
    }

    /// The request for the chunk of the same size after `key`.
    pub fn next(&self, key: K) -> Self {
        Self { after: Some(key), size: self.size }
    }
}

/// One chunk of a list and where the next one starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk<T, K> {
    /// The rows, in key order.
    pub items: Vec<T>,
    /// The request for the next chunk; `None` once the list has ended (the chunk came back short).
    pub next: Option<ChunkRequest<K>>,
}

impl<T, K> Chunk<T, K> {
    /// The chunk that `request` read as `items` (in key order, at most `request.size()` of them). A full chunk may
    /// have more rows after it, so it goes on after the key of its last row; a short one ends the list.
    ///
    /// ```
    /// use canvass_domain::chunks::{Chunk, ChunkRequest};
    ///
    /// let full = Chunk::of(vec![1, 2], &ChunkRequest::first(2), |n: &i32| *n);
    /// assert_eq!(full.next, Some(ChunkRequest::after(2, 2)));
    /// let short = Chunk::of(vec![3], &ChunkRequest::after(2, 2), |n: &i32| *n);
    /// assert_eq!(short.next, None);
    /// ```
    pub fn of(items: Vec<T>, request: &ChunkRequest<K>, key: impl Fn(&T) -> K) -> Self {
        let next = match items.last() {
            Some(last) if items.len() >= request.size() => Some(request.next(key(last))),
            _ => None,
        };
        Self { items, next }
    }

    /// The same chunk with each row mapped by `f`.
    pub fn map<U>(self, f: impl FnMut(T) -> U) -> Chunk<U, K> {
        Chunk { items: self.items.into_iter().map(f).collect(), next: self.next }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chunk_takes_rows_while_they_fit_its_budget_and_at_least_one() {
        assert_eq!(within_budget([10; 300], CHUNK_BYTES), 300, "small rows are never cut");
        assert_eq!(within_budget([512 * 1024; 250], CHUNK_BYTES), 4, "half-MiB rows: four fill 2 MiB");
        assert_eq!(within_budget([100, 100, 100], 200), 2, "a sum that meets the budget fits");
        assert_eq!(within_budget([100, 101], 200), 1);
        assert_eq!(within_budget([u64::MAX, u64::MAX], 200), 1, "a row over the budget is read alone");
        assert_eq!(within_budget([1, u64::MAX, 1], 200), 1, "and waits for the next chunk");
        assert_eq!(within_budget(Vec::<u64>::new(), 200), 0);
    }
}
