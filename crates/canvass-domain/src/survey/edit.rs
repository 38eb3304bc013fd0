//! Changes of a live question tree: pages added, patched and moved, items added, patched and moved, and the rules
//! that keep answers safe (a type change or a removed option value that answers hold is refused).

use time::Date;

use crate::error::FieldError;
use crate::ids::{PageId, QuestionItemId};

use super::question::{ChoiceOption, QuestionItem, QuestionItemDraft, QuestionType};
use super::settings::{Finite, ItemSettings, TextFormat};
use super::tree::QuestionTree;

/// A new page: its title (default empty), where it goes (0-based; default the end) and whether its items are shown
/// in an order drawn per respondent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageInput {
    /// Title shown above the page.
    pub title: String,
    /// Where it goes among the pages, from 0; `None` for the end.
    pub position: Option<usize>,
    /// Whether each respondent sees its items in an order of its own.
    pub randomize_items: bool,
}

/// A change of a page: each field given replaces the page's.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PagePatch {
    /// A new title.
    pub title: Option<String>,
    /// A new place among the pages, from 0.
    pub position: Option<usize>,
    /// Whether each respondent sees its items in an order of its own.
    pub randomize_items: Option<bool>,
}

/// A change of an item: each field given replaces the item's (`Some(None)` removes an optional one); `page_id` and
/// `position` move it. When the type changes, what the new type does not take and the patch does not give goes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ItemPatch {
    /// A new type (refused once the item has answers).
    pub kind: Option<QuestionType>,
    /// A new text.
    pub text: Option<String>,
    /// Whether a completed set must answer it.
    pub required: Option<bool>,
    /// The options in their new order (removing a value an answer holds is refused).
    pub options: Option<Vec<ChoiceOption>>,
    /// The low end's words of a Rating scale.
    pub min_label: Option<Option<String>>,
    /// The high end's words of a Rating scale.
    pub max_label: Option<Option<String>>,
    /// A Numeric answer's lowest value.
    pub min: Option<Option<Finite>>,
    /// A Numeric answer's highest value.
    pub max: Option<Option<Finite>>,
    /// Whether a Numeric answer is whole.
    pub whole_number: Option<bool>,
    /// An OpenText answer's fewest characters.
    pub min_length: Option<Option<u32>>,
    /// An OpenText answer's most characters.
    pub max_length: Option<Option<u32>>,
    /// Whether an OpenText answer may hold line breaks.
    pub multiline: Option<bool>,
    /// An OpenText answer's form.
    pub format: Option<Option<TextFormat>>,
    /// The regular expression of the `pattern` format.
    pub pattern: Option<Option<String>>,
    /// A MultipleChoice answer's fewest values.
    pub min_selected: Option<Option<u32>>,
    /// A MultipleChoice answer's most values.
    pub max_selected: Option<Option<u32>>,
    /// The rows of a Matrix, whole, in their new order (removing a row that answers hold is refused).
    pub rows: Option<Vec<ChoiceOption>>,
    /// Whether the options are shown in an order drawn per respondent.
    pub randomize_options: Option<bool>,
    /// How many last options keep their place; null removes it.
    pub fixed_last: Option<Option<u32>>,
    /// A Date answer's earliest date.
    pub min_date: Option<Option<Date>>,
    /// A Date answer's latest date.
    pub max_date: Option<Option<Date>>,
    /// When the item shows (`Some(None)` removes its conditions).
    pub display_when: Option<Option<super::Conditions>>,
    /// The page to move it to.
    pub page_id: Option<PageId>,
    /// Its new place on its (new) page, from 0.
    pub position: Option<usize>,
}

impl ItemPatch {
    /// The item as the patch leaves it, before checking. A type change drops what the new type does not take
    /// unless the patch gives it (so that it is then refused by name).
    pub fn apply(&self, item: &QuestionItem) -> QuestionItemDraft {
        let kind = self.kind.unwrap_or(item.kind);
        let retyped = kind != item.kind;
        let kept = |keep: bool| !retyped || keep;
        let old = &item.settings;
        let defaults = ItemSettings::default();
        let keep_numeric = kept(kind == QuestionType::Numeric);
        let keep_text = kept(kind == QuestionType::OpenText);
        let keep_multiple = kept(kind == QuestionType::MultipleChoice);
        let pick = |given: Option<Option<Finite>>, old: Option<Finite>, keep: bool| {
            given.unwrap_or(if keep { old } else { None })
        };
        let pick_count =
            |given: Option<Option<u32>>, old: Option<u32>, keep: bool| given.unwrap_or(if keep { old } else { None });
        let keep_date = kept(kind == QuestionType::Date);
        let pick_date =
            |given: Option<Option<Date>>, old: Option<Date>| given.unwrap_or(if keep_date { old } else { None });
        let settings = ItemSettings {
            rows: self.rows.clone().unwrap_or_else(|| {
                if kept(kind == QuestionType::Matrix) {
                    old.rows.clone()
                } else {
                    vec![]
                }
            }),
            min_date: pick_date(self.min_date, old.min_date),
            max_date: pick_date(self.max_date, old.max_date),
            min: pick(self.min, old.min, keep_numeric),
            max: pick(self.max, old.max, keep_numeric),
            whole_number: self.whole_number.unwrap_or(if keep_numeric { old.whole_number } else { false }),
            min_length: pick_count(self.min_length, old.min_length, keep_text),
            max_length: pick_count(self.max_length, old.max_length, keep_text),
            multiline: self.multiline.unwrap_or(if keep_text { old.multiline } else { defaults.multiline }),
            format: self.format.unwrap_or(if keep_text { old.format } else { None }),
            pattern: self.pattern.clone().unwrap_or_else(|| {
                let format = self.format.unwrap_or(if keep_text { old.format } else { None });
                // A format changed away from `pattern` takes its pattern along unless the patch keeps it.
                if format == Some(TextFormat::Pattern) {
                    old.pattern.clone()
                } else {
                    None
                }
            }),
            min_selected: pick_count(self.min_selected, old.min_selected, keep_multiple),
            max_selected: pick_count(self.max_selected, old.max_selected, keep_multiple),
            display_when: self.display_when.clone().unwrap_or_else(|| old.display_when.clone()),
            randomize_options: self.randomize_options.unwrap_or(kept(kind.shuffles_options()) && old.randomize_options),
            fixed_last: self.fixed_last.unwrap_or(if kept(kind.shuffles_options()) { old.fixed_last } else { None }),
        };
        let keep_options = kept(kind.has_options());
        let keep_labels = kept(kind.has_scale_labels());
        let label = |given: &Option<Option<String>>, old: &Option<String>| {
            given.clone().unwrap_or_else(|| if keep_labels { old.clone() } else { None })
        };
        QuestionItemDraft {
            kind,
            text: self.text.clone().unwrap_or_else(|| item.text.clone()),
            required: self.required.unwrap_or(item.required && kind.takes_answer()),
            options: self.options.clone().unwrap_or_else(|| if keep_options { item.options.clone() } else { vec![] }),
            min_label: label(&self.min_label, &item.min_label),
            max_label: label(&self.max_label, &item.max_label),
            settings,
        }
        .without_blank_labels()
    }

    /// Whether the patch changes what the item is or holds (anything but where it stands).
    pub fn changes_content(&self) -> bool {
        *self != Self { page_id: self.page_id, position: self.position, ..Self::default() }
    }

    /// The values of the item's options and Matrix rows that the patch removes.
    pub fn removed_values<'i>(&self, item: &'i QuestionItem, draft: &QuestionItemDraft) -> Vec<&'i str> {
        let kept = |value: &str, now: &[ChoiceOption]| now.iter().any(|k| k.value == value);
        let options = item.options.iter().map(|c| c.value.as_str()).filter(|value| !kept(value, &draft.options));
        let rows = item.settings.rows.iter().map(|c| c.value.as_str()).filter(|v| !kept(v, &draft.settings.rows));
        options.chain(rows).collect()
    }
}

/// Where a page or item goes: `position` among `len` others (the end when `None`); a position past the end is an
/// error of `field`.
pub fn place(position: Option<usize>, len: usize, field: &str) -> Result<usize, FieldError> {
    match position {
        None => Ok(len),
        Some(position) if position <= len => Ok(position),
        Some(_) => Err(FieldError::new(field, format!("must be at most {len}, the end"))),
    }
}

impl QuestionTree {
    /// The items whose `displayWhen` or piped texts would name an item that does not come before them, with each
    /// item on the page of the position `page_of` gives it (the tree as a move would leave it); in tree order, as
    /// text for a conflict's values.
    pub fn unordered_references(&self, page_of: impl Fn(&QuestionItem) -> usize) -> Vec<String> {
        let pages: std::collections::HashMap<QuestionItemId, usize> =
            self.items().map(|item| (item.id, page_of(item))).collect();
        let names_later = |item: &QuestionItem| {
            let later = |named: &QuestionItemId| pages.get(named).is_some_and(|&on| on >= page_of(item));
            let shown_when = item.settings.display_when.iter().flat_map(|conditions| conditions.each());
            let in_conditions = shown_when.filter_map(|condition| match &condition.subject {
                super::Subject::Item(named) => Some(*named),
                super::Subject::Background(_) => None,
            });
            let texts = std::iter::once(&item.text).chain(item.options.iter().map(|option| &option.label));
            let piped = texts.flat_map(|text| super::piped_items(text));
            in_conditions.chain(piped).any(|named| later(&named))
        };
        self.items().filter(|item| names_later(item)).map(|item| item.id.to_string()).collect()
    }

    /// The page ids in order with `page` moved to `position` (which must be one of the pages' positions).
    pub fn pages_with_move(&self, page: PageId, position: usize) -> Vec<PageId> {
        let mut order: Vec<PageId> = self.pages.iter().map(|p| p.id).filter(|id| *id != page).collect();
        order.insert(position.min(order.len()), page);
        order
    }

    /// The item ids of `page` in order with `item` put at `position` (taken off whatever page held it).
    pub fn items_with_move(&self, page: PageId, item: QuestionItemId, position: usize) -> Vec<QuestionItemId> {
        let held = self.pages.iter().find(|p| p.id == page).map(|p| p.items.as_slice()).unwrap_or_default();
        let mut order: Vec<QuestionItemId> = held.iter().map(|i| i.id).filter(|id| *id != item).collect();
        order.insert(position.min(order.len()), item);
        order
    }

    /// The item ids of `page` in order without `item`.
    pub fn items_without(&self, page: PageId, item: QuestionItemId) -> Vec<QuestionItemId> {
        let held = self.pages.iter().find(|p| p.id == page).map(|p| p.items.as_slice()).unwrap_or_default();
        held.iter().map(|i| i.id).filter(|id| *id != item).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::SurveyId;
    use crate::survey::tree::Page;

    fn item(kind: QuestionType) -> QuestionItem {
        QuestionItem {
            id: QuestionItemId::new(1),
            page_id: PageId::new(1),
            kind,
            text: "Age?".into(),
            required: true,
            options: vec![],
            min_label: None,
            max_label: None,
            settings: ItemSettings { min: Finite::new(0.0), whole_number: true, ..Default::default() },
        }
    }

    #[test]
    fn a_patch_replaces_what_it_gives_and_keeps_the_rest() {
        let patch = ItemPatch { text: Some("Your age?".into()), max: Some(Finite::new(120.0)), ..Default::default() };
        let draft = patch.apply(&item(QuestionType::Numeric));
        assert_eq!((draft.text.as_str(), draft.required), ("Your age?", true));
        assert_eq!((draft.settings.min, draft.settings.max), (Finite::new(0.0), Finite::new(120.0)));
        assert!(draft.settings.whole_number);
        let cleared = ItemPatch { min: Some(None), ..Default::default() }.apply(&item(QuestionType::Numeric));
        assert_eq!(cleared.settings.min, None);
    }

    #[test]
    fn a_type_change_drops_what_the_new_type_does_not_take() {
        let patch = ItemPatch { kind: Some(QuestionType::OpenText), ..Default::default() };
        let draft = patch.apply(&item(QuestionType::Numeric));
        assert_eq!(draft.settings, ItemSettings::default());
        assert!(draft.check("i").is_empty());
        let info =
            ItemPatch { kind: Some(QuestionType::Info), ..Default::default() }.apply(&item(QuestionType::Numeric));
        assert!(!info.required, "an Info item is never required");
        let given = ItemPatch { kind: Some(QuestionType::OpenText), min: Some(Finite::new(1.0)), ..Default::default() };
        let refused: Vec<_> =
            given.apply(&item(QuestionType::Numeric)).check("i").into_iter().map(|e| e.field).collect();
        assert_eq!(refused, ["i.min"], "what the patch gives is checked, not dropped");
    }

    #[test]
    fn removed_values_are_the_options_no_longer_there() {
        let options = |values: &[&str]| -> Vec<ChoiceOption> {
            values.iter().map(|v| ChoiceOption { value: (*v).into(), label: v.to_uppercase() }).collect()
        };
        let held = QuestionItem { options: options(&["a", "b", "c"]), ..item(QuestionType::SingleChoice) };
        let patch = ItemPatch { options: Some(options(&["c", "a", "d"])), ..Default::default() };
        assert_eq!(patch.removed_values(&held, &patch.apply(&held)), ["b"]);
        assert!(patch.changes_content());
        assert!(!ItemPatch { position: Some(0), ..Default::default() }.changes_content());
    }

    #[test]
    fn positions_go_up_to_the_end() {
        assert_eq!(place(None, 3, "position"), Ok(3));
        assert_eq!(place(Some(3), 3, "position"), Ok(3));
        assert_eq!(place(Some(4), 3, "position").map_err(|e| e.field), Err("position".to_owned()));
    }

    #[test]
    fn moves_reorder_pages_and_items() {
        let page = |id: i64, items: Vec<QuestionItem>| Page {
            id: PageId::new(id),
            title: String::new(),
            randomize_items: false,
            items,
        };
        let on = |id: i64| QuestionItem { id: QuestionItemId::new(id), ..item(QuestionType::Numeric) };
        let tree = QuestionTree::assemble(
            SurveyId::new(1),
            vec![page(1, vec![on(10), on(11)]), page(2, vec![on(12)]), page(3, vec![])],
            vec![],
        );
        let ids = |ids: &[i64]| ids.iter().copied().map(PageId::new).collect::<Vec<_>>();
        assert_eq!(tree.pages_with_move(PageId::new(3), 0), ids(&[3, 1, 2]));
        assert_eq!(tree.pages_with_move(PageId::new(1), 2), ids(&[2, 3, 1]));
        let items = |ids: &[i64]| ids.iter().copied().map(QuestionItemId::new).collect::<Vec<_>>();
        assert_eq!(tree.items_with_move(PageId::new(2), QuestionItemId::new(10), 0), items(&[10, 12]));
        assert_eq!(tree.items_with_move(PageId::new(1), QuestionItemId::new(10), 1), items(&[11, 10]));
        assert_eq!(tree.items_without(PageId::new(1), QuestionItemId::new(10)), items(&[11]));
    }
}
