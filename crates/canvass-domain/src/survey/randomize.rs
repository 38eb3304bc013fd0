//! Randomisation: the order one answer set is shown a page's items or an item's options in, drawn once from a seed
//! of the set and the page or item, so that every view of the set shows the same order and the drawn order can be
//! stored with the set (`shownOrder`).

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use crate::ids::AnswerSetId;

/// The seed of one answer set's draw for one page or item (`scope`, its id): the same set and scope always draw the
/// same order, different scopes of one set draw independently.
pub fn draw_seed(answer_set: AnswerSetId, scope: i64) -> u64 {
    (answer_set.get() as u64).rotate_left(32) ^ scope as u64
}

/// `values` in the order drawn with `seed`, the last `fixed_last` of them kept in place at the end ("Other",
/// "Don't know"). A `fixed_last` of at least the length keeps every value in place.
///
/// ```
/// use canvass_domain::survey::shown_order;
///
/// let options = ["a", "b", "c", "d", "Don't know"];
/// let drawn = shown_order(&options, 1, 7);
/// assert_eq!(drawn, shown_order(&options, 1, 7), "the same seed, the same order");
/// assert_eq!(drawn[4], "Don't know");
/// ```
pub fn shown_order<T: Clone>(values: &[T], fixed_last: usize, seed: u64) -> Vec<T> {
    let mut shown = values.to_vec();
    let moving = values.len().saturating_sub(fixed_last);
    shown[..moving].shuffle(&mut StdRng::seed_from_u64(seed));
    shown
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use proptest::prelude::*;

    use super::*;

    proptest! {
        #[test]
        fn an_order_is_a_permutation_that_keeps_the_fixed_last(
            values in proptest::collection::vec(any::<u16>(), 0..30),
            fixed_last in 0usize..35,
            seed in any::<u64>(),
        ) {
            let shown = shown_order(&values, fixed_last, seed);
            let (mut sorted, mut expected) = (shown.clone(), values.clone());
            sorted.sort_unstable();
            expected.sort_unstable();
            prop_assert_eq!(sorted, expected);
            let kept = values.len().saturating_sub(fixed_last);
            prop_assert_eq!(&shown[kept..], &values[kept..]);
            prop_assert_eq!(shown_order(&values, fixed_last, seed), shown);
        }
    }

    #[test]
    fn sets_draw_different_orders() {
        let values: Vec<u32> = (0..10).collect();
        let orders: HashSet<Vec<u32>> =
            (1..=20).map(|set| shown_order(&values, 0, draw_seed(AnswerSetId::new(set), 5))).collect();
        assert!(orders.len() > 15, "20 sets drew only {} orders", orders.len());
        let first = draw_seed(AnswerSetId::new(1), 5);
        assert_ne!(first, draw_seed(AnswerSetId::new(1), 6), "another item of the same set");
        assert_ne!(first, draw_seed(AnswerSetId::new(2), 5), "the same item of another set");
    }
}
