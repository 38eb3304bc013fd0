//! Randomisation: the order one respondent is shown a page's items (`randomizeItems`) or an item's options
//! (`randomizeOptions`, the last `fixedLast` kept in place). Each order is drawn from a SHA-256 of the respondent,
//! the page or item and each member, so every view shows the same order, with every version of the service, and
//! another respondent another; the orders drawn are kept with the answer set ([`ShownOrder`], `shownOrder`).

use std::collections::BTreeMap;

use serde_json::{Map, Value};
use sha2::Digest;

use crate::ids::{PageId, QuestionItemId};

use super::tree::{Page, QuestionTree};

/// `members` in the order drawn for the respondent of `seed` in `scope` (a page's or item's id), each keyed by
/// `key`; the last `fixed_last` stay in place at the end. A `fixed_last` of at least the length keeps every one.
///
/// ```
/// use canvass_domain::survey::shown_order;
///
/// let options = ["a", "b", "c", "d", "Don't know"];
/// let drawn = shown_order(&options, 1, 7, 3, |o| o.as_bytes().to_vec());
/// assert_eq!(drawn, shown_order(&options, 1, 7, 3, |o| o.as_bytes().to_vec()), "the same draw on every view");
/// assert_eq!(drawn[4], "Don't know");
/// ```
pub fn shown_order<T: Clone>(
    members: &[T],
    fixed_last: usize,
    seed: i64,
    scope: i64,
    key: impl Fn(&T) -> Vec<u8>,
) -> Vec<T> {
    let mut shown = members.to_vec();
    let moving = members.len().saturating_sub(fixed_last);
    shown[..moving].sort_by_cached_key(|member| {
        let key = key(member);
        let digest =
            sha2::Sha256::new().chain_update(seed.to_be_bytes()).chain_update(scope.to_be_bytes()).chain_update(&key);
        (digest.finalize()[..8].to_vec(), key)
    });
    shown
}

impl Page {
    /// The page as the respondent of `seed` sees it: its items in the order drawn for that respondent when it
    /// randomizes them, and each item's options likewise when the item randomizes them; else as stored.
    pub fn shown_to(mut self, seed: i64) -> Self {
        if self.randomize_items {
            self.items = shown_order(&self.items, 0, seed, self.id.get(), |item| item.id.get().to_be_bytes().to_vec());
        }
        for item in self.items.iter_mut().filter(|item| item.settings.randomize_options) {
            let fixed = item.settings.fixed_last.unwrap_or(0) as usize;
            item.options = shown_order(&item.options, fixed, seed, item.id.get(), |o| o.value.as_bytes().to_vec());
        }
        self
    }
}

/// The orders one respondent was shown: each randomized page's items and each randomized item's option values.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ShownOrder {
    /// The option values of each item that randomizes them, in the order shown.
    pub items: BTreeMap<QuestionItemId, Vec<String>>,
    /// The items of each page that randomizes them, in the order shown.
    pub pages: BTreeMap<PageId, Vec<QuestionItemId>>,
}

impl ShownOrder {
    /// The orders `tree` is shown in to the respondent of `seed`; empty when nothing in it is randomized.
    pub fn draw(tree: &QuestionTree, seed: i64) -> Self {
        let mut order = Self::default();
        let randomizes = |page: &Page| page.randomize_items || page.items.iter().any(|i| i.settings.randomize_options);
        for page in tree.pages.iter().filter(|page| randomizes(page)) {
            let shown = page.clone().shown_to(seed);
            if shown.randomize_items {
                order.pages.insert(shown.id, shown.items.iter().map(|item| item.id).collect());
            }
            for item in shown.items.iter().filter(|item| item.settings.randomize_options) {
                order.items.insert(item.id, item.options.iter().map(|option| option.value.clone()).collect());
            }
        }
        order
    }

    /// Whether nothing was randomized.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty() && self.pages.is_empty()
    }

    /// `{"items": {"<questionItemId>": [values]}, "pages": {"<pageId>": [itemIds]}}`.
    pub fn to_json(&self) -> Value {
        let items: Map<String, Value> =
            self.items.iter().map(|(id, values)| (id.get().to_string(), Value::from(values.clone()))).collect();
        let pages: Map<String, Value> = self
            .pages
            .iter()
            .map(|(id, items)| (id.get().to_string(), Value::from(items.iter().map(|i| i.get()).collect::<Vec<_>>())))
            .collect();
        serde_json::json!({"items": items, "pages": pages})
    }

    /// The orders [`Self::to_json`] wrote; what does not read as one is left out.
    pub fn from_json(value: &Value) -> Self {
        let entries = |name: &str| value.get(name).and_then(Value::as_object).into_iter().flatten();
        let items = entries("items")
            .filter_map(|(id, values)| {
                let values = values.as_array()?.iter().map(|v| v.as_str().map(str::to_owned)).collect::<Option<_>>()?;
                Some((QuestionItemId::new(id.parse().ok()?), values))
            })
            .collect();
        let pages = entries("pages")
            .filter_map(|(id, items)| {
                let items =
                    items.as_array()?.iter().map(|i| i.as_i64().map(QuestionItemId::new)).collect::<Option<_>>()?;
                Some((PageId::new(id.parse().ok()?), items))
            })
            .collect();
        Self { items, pages }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use proptest::prelude::*;

    use super::*;

    proptest! {
        #[test]
        fn an_order_is_a_permutation_that_keeps_the_fixed_last(
            values in proptest::collection::hash_set(any::<u16>(), 0..30),
            fixed_last in 0usize..35,
            seed in any::<i64>(),
        ) {
            let values: Vec<u16> = values.into_iter().collect();
            let key = |v: &u16| v.to_be_bytes().to_vec();
            let shown = shown_order(&values, fixed_last, seed, 5, key);
            let (mut sorted, mut expected) = (shown.clone(), values.clone());
            sorted.sort_unstable();
            expected.sort_unstable();
            prop_assert_eq!(sorted, expected);
            let kept = values.len().saturating_sub(fixed_last);
            prop_assert_eq!(&shown[kept..], &values[kept..]);
            prop_assert_eq!(shown_order(&values, fixed_last, seed, 5, key), shown);
        }
    }

    #[test]
    fn respondents_draw_different_orders() {
        let values: Vec<u32> = (0..10).collect();
        let key = |v: &u32| v.to_be_bytes().to_vec();
        let orders: HashSet<Vec<u32>> = (1..=20).map(|seed| shown_order(&values, 0, seed, 5, key)).collect();
        assert!(orders.len() > 15, "20 respondents drew only {} orders", orders.len());
        let first = shown_order(&values, 0, 1, 5, key);
        assert_ne!(first, shown_order(&values, 0, 1, 6, key), "another item of the same respondent");
    }

    #[test]
    fn an_order_reads_back_from_its_json() {
        let order = ShownOrder {
            items: BTreeMap::from([(QuestionItemId::new(3), vec!["b".into(), "a".into()])]),
            pages: BTreeMap::from([(PageId::new(9), vec![QuestionItemId::new(4), QuestionItemId::new(3)])]),
        };
        let json = order.to_json();
        assert_eq!(json, serde_json::json!({"items": {"3": ["b", "a"]}, "pages": {"9": [4, 3]}}));
        assert_eq!(ShownOrder::from_json(&json), order);
        assert!(ShownOrder::from_json(&Value::Null).is_empty());
    }
}
