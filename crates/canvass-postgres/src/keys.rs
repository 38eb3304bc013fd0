//! Domain ids as the store keeps them: the `BIGINT` numbers of their columns.

/// The numbers of these ids, to bind as a `BIGINT[]` or to compare with `eq_any`.
pub(crate) fn keys<I: Copy + Into<i64>>(ids: &[I]) -> Vec<i64> {
    ids.iter().map(|&id| id.into()).collect()
}
