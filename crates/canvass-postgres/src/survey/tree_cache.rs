//! The question trees the respondent pages read, kept by the store for every connection: each survey's tree at the
//! version it was read at. A tree never changes without a new version (every change of pages, items or logic
//! moves it in its own transaction), so a view that read the version with its link takes the kept tree when the
//! versions match and reads the tree again when they do not. Bounded by an estimate of the trees' memory, and no
//! account keeps more than a quarter of it: the trees of one account's many surveys cannot push out every other
//! account's.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use canvass_domain::ids::{AccountId, SurveyId};
use canvass_domain::survey::{Conditions, QuestionItem, QuestionTree, RuleDraft};
use moka::notification::RemovalCause;
use moka::sync::Cache;

/// The whole cache's bound, in estimated bytes.
const CAPACITY: u64 = 16 * 1024 * 1024;

/// The most one account keeps: a quarter of [`CAPACITY`].
const ACCOUNT_SHARE: u64 = CAPACITY / 4;

/// What one account's kept trees weigh, by account.
type Held = Arc<Mutex<HashMap<AccountId, u64>>>;

/// Survey trees by account and survey, each at the version it was read at.
pub struct TreeCache {
    trees: Cache<(AccountId, SurveyId), Arc<QuestionTree>>,
    held: Held,
    /// The most one account keeps, in estimated bytes.
    share: u64,
}

impl Default for TreeCache {
    fn default() -> Self {
        Self::with_capacity(CAPACITY, ACCOUNT_SHARE)
    }
}

impl TreeCache {
    /// A cache of at most `capacity` estimated bytes, `share` of them for one account.
    fn with_capacity(capacity: u64, share: u64) -> Self {
        let held: Held = Arc::default();
        let released = Arc::clone(&held);
        let trees = Cache::builder()
            .max_capacity(capacity)
            .weigher(|_, tree: &Arc<QuestionTree>| weight(tree))
            .eviction_listener(move |key: Arc<(AccountId, SurveyId)>, tree: Arc<QuestionTree>, _: RemovalCause| {
                let mut held = released.lock().unwrap_or_else(PoisonError::into_inner);
                if let Some(weight) = held.get_mut(&key.0) {
                    *weight = weight.saturating_sub(u64::from(self::weight(&tree)));
                    if *weight == 0 {
                        held.remove(&key.0);
                    }
                }
            })
            .build();
        Self { trees, held, share }
    }

    /// The kept tree of the survey, if it is at `version`.
    pub fn get(&self, account: AccountId, survey: SurveyId, version: i32) -> Option<Arc<QuestionTree>> {
        self.trees.get(&(account, survey)).filter(|tree| tree.version == version)
    }

    /// Keeps `tree` (just read, at its own version) for its survey, unless its account already holds its share.
    pub fn keep(&self, account: AccountId, tree: &Arc<QuestionTree>) {
        let weight = u64::from(weight(tree));
        // The tree it replaces gives its weight back (in the eviction listener, once replaced).
        let replaced = self.trees.get(&(account, tree.survey_id)).map_or(0, |old| u64::from(self::weight(&old)));
        {
            let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
            let holds = held.entry(account).or_default();
            if (*holds).saturating_sub(replaced) + weight > self.share {
                return;
            }
            *holds += weight;
        }
        self.trees.insert((account, tree.survey_id), Arc::clone(tree));
    }
}

/// An estimate of the memory a tree holds, in bytes: its texts and a fixed cost per page, item, option, condition
/// and rule.
fn weight(tree: &QuestionTree) -> u32 {
    let pages: usize =
        tree.pages.iter().map(|page| 128 + page.title.len() + page.items.iter().map(item_weight).sum::<usize>()).sum();
    let rules: usize = tree
        .logic
        .iter()
        .map(|rule| {
            256 + match &rule.rule {
                RuleDraft::Equals(rule) => rule.equals.len(),
                RuleDraft::Conditional(rule) => conditions_weight(&rule.when),
            }
        })
        .sum();
    u32::try_from(256 + pages + rules).unwrap_or(u32::MAX)
}

fn item_weight(item: &QuestionItem) -> usize {
    let labels = |options: &[canvass_domain::survey::ChoiceOption]| -> usize {
        options.iter().map(|option| 64 + option.value.len() + option.label.len()).sum()
    };
    let scale = item.min_label.as_ref().map_or(0, String::len) + item.max_label.as_ref().map_or(0, String::len);
    let pattern = item.settings.pattern.as_ref().map_or(0, |pattern| 1024 + 4 * pattern.len());
    let shown = item.settings.display_when.as_ref().map_or(0, conditions_weight);
    512 + item.text.len() + labels(&item.options) + labels(&item.settings.rows) + scale + pattern + shown
}

fn conditions_weight(conditions: &Conditions) -> usize {
    conditions.each().len() * 96
}

#[cfg(test)]
mod tests {
    use canvass_domain::ids::PageId;
    use canvass_domain::survey::{Page, QuestionType};

    use super::*;

    /// A tree of one page with `items` OpenText items, at `version`.
    fn tree(survey: i64, items: usize, version: i32) -> Arc<QuestionTree> {
        let page_id = PageId::new(survey * 100);
        let item = |n: usize| QuestionItem {
            id: canvass_domain::ids::QuestionItemId::new(survey * 100 + n as i64),
            page_id,
            kind: QuestionType::OpenText,
            text: "Why?".into(),
            required: false,
            options: vec![],
            min_label: None,
            max_label: None,
            settings: Default::default(),
        };
        let page =
            Page { id: page_id, title: String::new(), items: (0..items).map(item).collect(), randomize_items: false };
        Arc::new(QuestionTree::assemble(SurveyId::new(survey), vec![page], vec![]).at_version(version))
    }

    #[test]
    fn a_kept_tree_is_given_for_its_own_version_only() {
        let cache = TreeCache::default();
        let (acme, survey) = (AccountId::new(1), SurveyId::new(7));
        cache.keep(acme, &tree(7, 3, 2));
        assert_eq!(cache.get(acme, survey, 2).map(|t| t.pages[0].items.len()), Some(3));
        assert!(cache.get(acme, survey, 3).is_none(), "a later version reads the tree again");
        assert!(cache.get(AccountId::new(2), survey, 2).is_none(), "another account's key");
        cache.keep(acme, &tree(7, 4, 3));
        assert_eq!(cache.get(acme, survey, 3).map(|t| t.pages[0].items.len()), Some(4), "the newer replaces it");
        assert!(cache.get(acme, survey, 2).is_none());
    }

    #[test]
    fn no_account_keeps_more_than_its_share_and_a_replaced_tree_gives_its_share_back() {
        let one = u64::from(weight(&tree(1, 10, 1)));
        let cache = TreeCache::with_capacity(one * 20, one * 3);
        let (acme, other) = (AccountId::new(1), AccountId::new(2));
        for survey in 1..=5 {
            cache.keep(acme, &tree(survey, 10, 1));
        }
        let kept = |account, surveys: std::ops::RangeInclusive<i64>| {
            surveys.filter(|&s| cache.get(account, SurveyId::new(s), 1).is_some()).count()
        };
        assert_eq!(kept(acme, 1..=5), 3, "three trees fill the account's share");
        cache.keep(other, &tree(6, 10, 1));
        assert_eq!(kept(other, 6..=6), 1, "another account still keeps its own");
        for version in 2..=10 {
            cache.keep(acme, &tree(1, 10, version));
            cache.trees.run_pending_tasks();
        }
        assert!(cache.get(acme, SurveyId::new(1), 10).is_some(), "each new version takes the old one's place");
    }
}
