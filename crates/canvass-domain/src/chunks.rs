//! Long lists read in chunks, in key order (keyset pagination), so that a reader holds one chunk at a time: each
//! chunk is the rows after the last key of the previous one. Each chunk is its own read, so a row added while a
//! list is read appears when its key sorts after the cursor; no row appears twice, and the keys only grow.

/// Rows per chunk of the lists the API streams (answer sets, respondents, the blocklist).
pub const CHUNK_SIZE: usize = 1000;

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
