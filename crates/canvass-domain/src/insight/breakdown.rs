//! Breakdowns: a survey's results for each group of its answer sets (by an item's answer, a background data cell,
//! the language or the sendout), each group as the whole survey's, beside the whole; groups smaller than the minimum
//! group size shown only as suppressed, so that no small group's answers can be read.

use std::cmp::Ordering;

use super::results::{ResultTallies, SurveyResults};
use crate::error::FieldError;
use crate::ids::{LabelId, QuestionItemId};
use crate::language::Language;
use crate::survey::{QuestionTree, QuestionType};

/// The query parameter that asks for a breakdown, named by every error about it.
pub const BREAKDOWN_BY: &str = "breakdownBy";

/// The query parameter of the smallest group shown, named by every error about it.
pub const MIN_GROUP_SIZE: &str = "minGroupSize";

/// The smallest group shown when the query names none and the account's floor is lower.
pub const DEFAULT_MIN_GROUP_SIZE: i64 = 5;

/// What answer sets are grouped by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Breakdown {
    /// The set's answer to this SingleChoice, Dropdown or Rating item.
    Item(QuestionItemId),
    /// The set's respondent's background data cell under this label.
    Label(LabelId),
    /// The language the set was answered in.
    Language,
    /// The sendout the set came through.
    Sendout,
}

impl Breakdown {
    /// Reads `<questionItemId>`, `bg:<labelId>`, `language` or `sendout`.
    ///
    /// ```
    /// use canvass_domain::insight::Breakdown;
    /// use canvass_domain::ids::{LabelId, QuestionItemId};
    ///
    /// assert_eq!(Breakdown::parse("12"), Ok(Breakdown::Item(QuestionItemId::new(12))));
    /// assert_eq!(Breakdown::parse("bg:3"), Ok(Breakdown::Label(LabelId::new(3))));
    /// assert_eq!(Breakdown::parse("language"), Ok(Breakdown::Language));
    /// assert!(Breakdown::parse("bg:x").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Self, FieldError> {
        let id = |text: &str| text.parse::<i64>().ok().filter(|id| *id > 0);
        match text {
            "language" => Ok(Self::Language),
            "sendout" => Ok(Self::Sendout),
            _ => match text.strip_prefix("bg:") {
                Some(label) => id(label).map(|label| Self::Label(LabelId::new(label))),
                None => id(text).map(|item| Self::Item(QuestionItemId::new(item))),
            }
            .ok_or_else(|| {
                FieldError::new(BREAKDOWN_BY, "must be a question item id, bg:<labelId>, language or sendout")
            }),
        }
    }

    /// Checks an item breakdown against the tree: a SingleChoice, Dropdown or Rating item of it. (A label is checked
    /// against the survey's sendouts by the use case.)
    pub fn check(self, tree: &QuestionTree) -> Result<(), FieldError> {
        let Self::Item(id) = self else { return Ok(()) };
        let invalid = |message: String| FieldError::new(BREAKDOWN_BY, message);
        let item = tree
            .items()
            .find(|item| item.id == id)
            .ok_or_else(|| invalid(format!("{id} is not an item of the survey")))?;
        match item.kind {
            QuestionType::SingleChoice | QuestionType::Dropdown | QuestionType::Rating => Ok(()),
            kind => Err(invalid(format!(
                "item {id} is a {} item: only SingleChoice, Dropdown and Rating items group answers",
                kind.as_str()
            ))),
        }
    }

    /// Whether its keys are numbers (ratings and sendout ids) rather than text.
    fn numbered(self, tree: &QuestionTree) -> bool {
        match self {
            Self::Sendout => true,
            Self::Item(id) => tree.items().any(|item| item.id == id && item.kind == QuestionType::Rating),
            Self::Label(_) | Self::Language => false,
        }
    }
}

/// Which answer sets a tally counts: all that pass the filter, or those of one group (`None`: the sets with no
/// value for the breakdown).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TallyGroup {
    /// Every set.
    Whole,
    /// The sets with this key, as the store reads it (a rating or a sendout id as its decimal digits).
    Key(Option<String>),
}

/// A group's key as clients see it: text (option values, background data, language codes) or a whole number
/// (ratings, sendout ids).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GroupKey {
    /// A text key.
    Text(String),
    /// A number key.
    Number(i64),
}

/// One group of a breakdown: its key and label, and its results unless it is suppressed.
#[derive(Debug, Clone, PartialEq)]
pub struct ResultGroup {
    /// The key; `None` for the sets with no value.
    pub key: Option<GroupKey>,
    /// What people call it: an option's label, a language's name, a sendout's name, the value itself.
    pub label: Option<String>,
    /// Its results; `None` when it holds fewer sets than the minimum group size.
    pub results: Option<SurveyResults>,
}

/// A breakdown's groups from the store's tallies per group: ordered by key (text keys as text, number keys as
/// numbers), the group with no value last; each labelled by `label_of` (given the key as the store reads it), and
/// suppressed when it holds fewer than `min_group_size` sets.
pub fn assemble_groups(
    tree: &QuestionTree,
    breakdown: Breakdown,
    groups: Vec<(Option<String>, ResultTallies)>,
    label_of: &dyn Fn(&str) -> Option<String>,
    min_group_size: i64,
) -> Vec<ResultGroup> {
    let numbered = breakdown.numbered(tree);
    let key_of = |key: &str| match key.parse::<f64>() {
        Ok(number) if numbered && number.fract() == 0.0 && number.abs() < 9e15 => GroupKey::Number(number as i64),
        _ => GroupKey::Text(key.to_owned()),
    };
    let mut groups: Vec<ResultGroup> = groups
        .into_iter()
        .filter(|(_, tallies)| tallies.answer_sets > 0)
        .map(|(key, tallies)| {
            let label = key.as_deref().and_then(label_of);
            let shown = tallies.answer_sets >= min_group_size;
            let results = shown.then(|| SurveyResults::assemble(tree, tallies));
            ResultGroup { key: key.as_deref().map(key_of), label, results }
        })
        .collect();
    groups.sort_by(|a, b| order(&a.key, &b.key));
    groups
}

/// Keys in order, numbers before text, no key last.
fn order(a: &Option<GroupKey>, b: &Option<GroupKey>) -> Ordering {
    match (a, b) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Greater,
        (Some(_), None) => Ordering::Less,
        (Some(GroupKey::Number(a)), Some(GroupKey::Number(b))) => a.cmp(b),
        (Some(GroupKey::Text(a)), Some(GroupKey::Text(b))) => a.cmp(b),
        (Some(GroupKey::Number(_)), Some(GroupKey::Text(_))) => Ordering::Less,
        (Some(GroupKey::Text(_)), Some(GroupKey::Number(_))) => Ordering::Greater,
    }
}

/// The label of an item breakdown's key: the option's label, or the rating itself.
pub fn item_label(tree: &QuestionTree, item: QuestionItemId, key: &str) -> Option<String> {
    let item = tree.items().find(|found| found.id == item)?;
    let option = item.options.iter().find(|option| option.value == key);
    Some(option.map_or_else(|| key.to_owned(), |option| option.label.clone()))
}

/// The label of a language breakdown's key: the language's own name.
pub fn language_label(key: &str) -> Option<String> {
    key.parse::<Language>().ok().map(|language| language.native_name().to_owned())
}

#[cfg(test)]
mod tests;
