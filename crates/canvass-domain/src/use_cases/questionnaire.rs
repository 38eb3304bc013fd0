//! Editing a survey's question tree while it runs: pages added, patched, moved and deleted; items added, patched
//! and moved. Each change holds the survey's tree (one change after another, none lost), moves its `updatedAt`
//! and tree version, and changes nothing when it is refused.

use crate::clock::Clock;
use crate::error::{ConflictKind, DomainError, FieldError, Resource};
use crate::ids::{AccountId, PageId, QuestionItemId, SurveyId};
use crate::ports::{transaction, AnswerRepository, SurveyRepository, Transactional};
use crate::survey::{
    check_display, check_item_pipes, check_pipes, place, ItemPatch, Page, PageInput, PagePatch, QuestionItem,
    QuestionItemDraft, QuestionTree,
};

/// Starts a change of the survey's tree in `tx` and reads the tree as it stands; `NotFound` when the account has
/// no such survey.
fn begin(
    tx: &mut (impl SurveyRepository + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    survey: SurveyId,
) -> Result<QuestionTree, DomainError> {
    if !tx.begin_tree_change(account, survey, clock.now())? {
        return Err(DomainError::NotFound(Resource::Survey));
    }
    Ok(tx.question_tree(account, survey)?)
}

fn page_of(tree: &QuestionTree, page: PageId) -> Result<&Page, DomainError> {
    tree.pages.iter().find(|p| p.id == page).ok_or(DomainError::NotFound(Resource::Page))
}

/// A page title's broken rules: its length, and pipes that name no item of a page before `position` of `tree`.
fn check_title(title: &str, tree: &QuestionTree, position: usize) -> Result<(), DomainError> {
    let mut errors = Vec::new();
    crate::limits::push_length(&mut errors, "title", title, crate::limits::PAGE_TITLE);
    check_pipes(title, "title", tree, position, &mut errors);
    DomainError::check(errors)
}

/// The page as it is stored now, read back in `tx`.
fn stored_page(
    tx: &mut (impl SurveyRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
    page: PageId,
) -> Result<Page, DomainError> {
    let tree = tx.question_tree(account, survey)?;
    page_of(&tree, page).cloned()
}

/// Adds a page, at the end or at `position`.
pub fn add_page(
    uow: &mut (impl SurveyRepository + Transactional + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    survey: SurveyId,
    input: PageInput,
) -> Result<Page, DomainError> {
    transaction(uow, |tx| {
        let tree = begin(tx, clock, account, survey)?;
        let position =
            place(input.position, tree.pages.len(), "position").map_err(|e| DomainError::Invalid(vec![e]))?;
        check_title(&input.title, &tree, position)?;
        let page = tx.insert_page(account, survey, &input.title, input.randomize_items)?;
        if position < tree.pages.len() {
            tx.order_pages(account, survey, &tree.pages_with_move(page, position))?;
        }
        stored_page(tx, account, survey, page)
    })
}

/// Retitles a page, moves it to `position` or changes whether its items are shown in an order per respondent.
pub fn patch_page(
    uow: &mut (impl SurveyRepository + Transactional + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    survey: SurveyId,
    page: PageId,
    patch: PagePatch,
) -> Result<Page, DomainError> {
    transaction(uow, |tx| {
        let tree = begin(tx, clock, account, survey)?;
        let held = page_of(&tree, page)?;
        let given_title = patch.title.is_some();
        let title = patch.title.unwrap_or_else(|| held.title.clone());
        let last = tree.pages.len() - 1;
        let position = place(patch.position, last, "position").map_err(|e| DomainError::Invalid(vec![e]))?;
        let mut moved = tree.clone();
        if patch.position.is_some() {
            let order = tree.pages_with_move(page, position);
            moved.pages.sort_by_key(|p| order.iter().position(|id| *id == p.id));
        }
        let moved_to = moved.page_index(page).unwrap_or_default();
        if given_title {
            check_title(&title, &moved, moved_to)?;
        } else if check_title(&title, &moved, moved_to).is_err() {
            refuse_unordered(vec![page.to_string()], &format!("moving page {page} (its title pipes a later item)"))?;
        }
        tx.update_page(account, survey, page, &title, patch.randomize_items.unwrap_or(held.randomize_items))?;
        if patch.position.is_some() && tree.page_index(page) != Some(position) {
            let order = tree.pages_with_move(page, position);
            let new_index = |item: &QuestionItem| order.iter().position(|p| *p == item.page_id).unwrap_or_default();
            refuse_unordered(tree.unordered_references(new_index), &format!("moving page {page}"))?;
            tx.order_pages(account, survey, &order)?;
        }
        stored_page(tx, account, survey, page)
    })
}

/// Deletes a page that holds no items (else `Conflict` [`ConflictKind::PageNotEmpty`]). Rules that jump to it
/// read as broken; a respondent that was on it resumes on the first page of its path that is not complete.
pub fn delete_page(
    uow: &mut (impl SurveyRepository + Transactional + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    survey: SurveyId,
    page: PageId,
) -> Result<(), DomainError> {
    transaction(uow, |tx| {
        let tree = begin(tx, clock, account, survey)?;
        let held = page_of(&tree, page)?;
        if !held.items.is_empty() {
            let count = held.items.len();
            let noun = if count == 1 { "item" } else { "items" };
            let detail = format!("page {page} holds {count} {noun}; move or delete them first");
            return Err(DomainError::conflict(ConflictKind::PageNotEmpty, detail));
        }
        tx.delete_page(account, survey, page)?;
        Ok(())
    })
}

/// Adds an item to a page, at its end or at `position`.
pub fn add_item(
    uow: &mut (impl SurveyRepository + Transactional + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    survey: SurveyId,
    page: PageId,
    draft: QuestionItemDraft,
    position: Option<usize>,
) -> Result<QuestionItem, DomainError> {
    transaction(uow, |tx| {
        let tree = begin(tx, clock, account, survey)?;
        let held = page_of(&tree, page)?;
        let mut errors = draft.check("");
        let on = tree.page_index(page).unwrap_or_default();
        if let Some(conditions) = &draft.settings.display_when {
            errors.extend(check_display(conditions, ".displayWhen", &tree, on));
        }
        errors.extend(check_item_pipes(&draft, "", &tree, on));
        let len = held.items.len();
        let position = place(position, len, "position").map_err(|e| errors.push(e)).ok();
        DomainError::check(errors.into_iter().map(unrooted).collect())?;
        let draft = draft.without_blank_labels();
        let id = tx.insert_item(account, survey, page, &draft)?;
        if let Some(position) = position.filter(|&position| position < len) {
            tx.place_items(account, survey, &[(page, tree.items_with_move(page, id, position))])?;
        }
        stored_item(tx, account, survey, id)
    })
}

/// `Conflict` ([`ConflictKind::BreaksReferences`]) when a move leaves items whose `displayWhen` names an item that
/// no longer comes before them.
fn refuse_unordered(items: Vec<String>, change: &str) -> Result<(), DomainError> {
    if items.is_empty() {
        return Ok(());
    }
    let detail = format!("{change} would leave the displayWhen of items {} naming a later item", items.join(", "));
    Err(DomainError::conflict_over(ConflictKind::BreaksReferences, detail, items))
}

/// A field path of [`QuestionItemDraft::check`] under an empty root (`.text`) as a body's own (`text`).
fn unrooted(error: FieldError) -> FieldError {
    match error.field.strip_prefix('.') {
        Some(field) => FieldError::new(field.to_owned(), error.message),
        None => error,
    }
}

/// The item as it is stored now, read back in `tx`.
fn stored_item(
    tx: &mut (impl SurveyRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
    item: QuestionItemId,
) -> Result<QuestionItem, DomainError> {
    let tree = tx.question_tree(account, survey)?;
    tree.item(item).cloned().ok_or(DomainError::NotFound(Resource::QuestionItem))
}

/// Changes an item and moves it (to `page_id` and `position`). Its answers stay; a change they would no longer
/// fit is a `Conflict` ([`ConflictKind::ItemHasAnswers`]): a new type once it has answers, or removing option
/// values some answer holds (named in the conflict's values).
pub fn patch_item(
    uow: &mut (impl AnswerRepository + SurveyRepository + Transactional + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    survey: SurveyId,
    item: QuestionItemId,
    patch: ItemPatch,
) -> Result<QuestionItem, DomainError> {
    transaction(uow, |tx| {
        let tree = begin(tx, clock, account, survey)?;
        let held = tree.item(item).ok_or(DomainError::NotFound(Resource::QuestionItem))?.clone();
        let draft = patch.apply(&held);
        let mut errors = draft.check("");
        let target = patch.page_id.unwrap_or(held.page_id);
        let moves = patch.page_id.is_some_and(|page| page != held.page_id);
        let room = match tree.pages.iter().find(|p| p.id == target) {
            Some(page) => page.items.len() - usize::from(!moves),
            None => {
                errors.push(FieldError::new(".pageId", format!("{target} is not a page of survey {survey}")));
                0
            }
        };
        if let Err(error) = place(patch.position, room, ".position") {
            errors.push(error);
        }
        let on = tree.page_index(target).unwrap_or_default();
        if let Some(Some(conditions)) = &patch.display_when {
            errors.extend(check_display(conditions, ".displayWhen", &tree, on));
        }
        if patch.text.is_some() || patch.options.is_some() {
            errors.extend(check_item_pipes(&draft, "", &tree, on));
        }
        DomainError::check(errors.into_iter().map(unrooted).collect())?;
        if moves {
            // Its own conditions (unless the patch gives new ones, checked above) and those that name it.
            let mut moved = tree.clone();
            if let Some(settings) = moved.pages.iter_mut().flat_map(|page| page.items.iter_mut()).find(|i| i.id == item)
            {
                settings.settings.display_when = draft.settings.display_when.clone();
            }
            let page_of = |other: &QuestionItem| {
                if other.id == item {
                    on
                } else {
                    tree.page_index(other.page_id).unwrap_or_default()
                }
            };
            refuse_unordered(moved.unordered_references(page_of), &format!("moving item {item}"))?;
        }
        check_answers_fit(tx, account, &held, &patch, &draft)?;
        if patch.changes_content() {
            tx.update_item(account, survey, item, &draft)?;
        }
        if moves || patch.position.is_some() {
            let position = patch.position.unwrap_or(room);
            let mut layout = vec![(target, tree.items_with_move(target, item, position))];
            if moves {
                layout.push((held.page_id, tree.items_without(held.page_id, item)));
            }
            tx.place_items(account, survey, &layout)?;
        }
        stored_item(tx, account, survey, item)
    })
}

/// `Conflict` ([`ConflictKind::ItemHasAnswers`]) when the answers to `held` would not fit it as `draft`.
fn check_answers_fit(
    tx: &mut (impl AnswerRepository + ?Sized),
    account: AccountId,
    held: &QuestionItem,
    patch: &ItemPatch,
    draft: &QuestionItemDraft,
) -> Result<(), DomainError> {
    if draft.kind != held.kind {
        if tx.item_has_answers(account, held.id)? {
            let detail = format!("item {} has answers: its type stays {}", held.id, held.kind);
            return Err(DomainError::conflict(ConflictKind::ItemHasAnswers, detail));
        }
        return Ok(());
    }
    let removed: Vec<String> = patch.removed_values(held, draft).into_iter().map(str::to_owned).collect();
    if removed.is_empty() {
        return Ok(());
    }
    let held_values = tx.values_in_answers(account, held.id, &removed)?;
    if held_values.is_empty() {
        return Ok(());
    }
    let detail = format!("answers to item {} hold {} of the option values to remove", held.id, held_values.len());
    Err(DomainError::conflict_over(ConflictKind::ItemHasAnswers, detail, held_values))
}
