//! Surveys: creating, reading and copying them, and editing their question tree and logic.

use crate::clock::Clock;
use crate::error::{ConflictKind, DomainError, FieldError, Resource};
use crate::ids::{AccountId, CategoryId, QuestionItemId, SendoutId, SurveyId};
use crate::ports::{
    transaction, AnswerRepository, CategoryRepository, QuotaRepository, SendoutRepository, SurveyRepository,
    Transactional,
};
use crate::survey::{CopyPlan, CopyRequest, LogicRules, QuestionTree, RuleDraft, Survey, SurveyDraft, SurveyInput};

/// The account's surveys.
pub fn list(uow: &mut (impl SurveyRepository + ?Sized), account: AccountId) -> Result<Vec<Survey>, DomainError> {
    Ok(uow.list_surveys(account)?)
}

/// One survey of the account.
pub fn get(
    uow: &mut (impl SurveyRepository + ?Sized),
    account: AccountId,
    id: SurveyId,
) -> Result<Survey, DomainError> {
    uow.find_survey(account, id)?.ok_or(DomainError::NotFound(Resource::Survey))
}

/// Creates a survey with its pages and items.
pub fn create(
    uow: &mut (impl CategoryRepository + SurveyRepository + Transactional + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    input: SurveyInput,
) -> Result<Survey, DomainError> {
    // The category is checked whatever else is wrong, so one answer names every field at fault.
    let category = crate::category::category_of(input.category_id);
    let draft = SurveyDraft::new(input, clock.now());
    transaction(uow, |tx| {
        let category_error = check_category(tx, account, category, "categoryId")?;
        let draft = match (draft, category_error) {
            (Ok(draft), None) => draft,
            (Ok(_), Some(error)) => return Err(DomainError::Invalid(vec![error])),
            (Err(mut errors), error) => {
                errors.extend(error);
                return Err(DomainError::Invalid(errors));
            }
        };
        Ok(tx.insert_survey(account, &draft, clock.now())?)
    })
}

/// One survey of the account with its question tree.
pub fn get_with_tree(
    uow: &mut (impl SurveyRepository + ?Sized),
    account: AccountId,
    id: SurveyId,
) -> Result<(Survey, QuestionTree), DomainError> {
    uow.find_survey_tree(account, id)?.ok_or(DomainError::NotFound(Resource::Survey))
}

/// The question tree of a survey.
pub fn question_tree(
    uow: &mut (impl SurveyRepository + ?Sized),
    account: AccountId,
    id: SurveyId,
) -> Result<QuestionTree, DomainError> {
    Ok(get_with_tree(uow, account, id)?.1)
}

/// Starts a change of the survey's question tree in the transaction `tx` ([`SurveyRepository::begin_tree_change`]):
/// `NotFound` when the account has no such survey.
fn begin_tree_change(
    tx: &mut (impl SurveyRepository + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    id: SurveyId,
) -> Result<(), DomainError> {
    if tx.begin_tree_change(account, id, clock.now())? {
        Ok(())
    } else {
        Err(DomainError::NotFound(Resource::Survey))
    }
}

/// Replaces the survey's logic rules; every rule must name an item and a later page of the survey. A change of
/// the tree: it moves the survey's `updatedAt` and tree version, unless it is refused.
pub fn set_logic(
    uow: &mut (impl SurveyRepository + Transactional + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    id: SurveyId,
    rules: Vec<RuleDraft>,
) -> Result<QuestionTree, DomainError> {
    transaction(uow, |tx| {
        begin_tree_change(tx, clock, account, id)?;
        let (_, tree) = get_with_tree(tx, account, id)?;
        let rules = LogicRules::check(rules, &tree).map_err(DomainError::Invalid)?;
        tx.replace_logic(account, id, &rules)?;
        Ok(tx.question_tree(account, id)?)
    })
}

/// Removes a question item and its answers; logic rules that named it stay and read as broken. A change of the
/// tree, as [`set_logic`] is.
pub fn delete_question_item(
    uow: &mut (impl SurveyRepository + Transactional + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    id: SurveyId,
    item: QuestionItemId,
) -> Result<(), DomainError> {
    transaction(uow, |tx| {
        begin_tree_change(tx, clock, account, id)?;
        if !tx.delete_question_item(account, id, item)? {
            return Err(DomainError::NotFound(Resource::QuestionItem));
        }
        Ok(())
    })
}

/// Copies a survey with its question tree and quotas (counting from zero) and, as asked, its logic and answer sets.
///
/// Fails with `Invalid` for a bad option, an unknown category or sendout id; with `Conflict` ([`ConflictKind::BrokenLogic`])
/// when logic is to be copied and some rule of the source is broken.
pub fn copy(
    uow: &mut (impl AnswerRepository
              + CategoryRepository
              + QuotaRepository
              + SendoutRepository
              + SurveyRepository
              + Transactional
              + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    id: SurveyId,
    request: CopyRequest,
) -> Result<Survey, DomainError> {
    transaction(uow, |tx| {
        let (source, tree) = get_with_tree(tx, account, id)?;
        let plan = CopyPlan::new(&source, request, clock.now());
        let mut errors = plan.as_ref().err().cloned().unwrap_or_default();
        let plan_category = plan.as_ref().ok().and_then(CopyPlan::category_id);
        errors.extend(check_category(tx, account, plan_category, "categoryid")?);
        if let Ok(plan) = &plan {
            if !plan.sendout_ids().is_empty() {
                let sendouts: Vec<SendoutId> =
                    tx.list_sendouts(account, id)?.into_iter().flatten().map(|s| s.id).collect();
                if let Some(unknown) = plan.sendout_ids().iter().find(|s| !sendouts.contains(s)) {
                    errors
                        .push(FieldError::new("copysendoutids", format!("{unknown} is not a sendout of survey {id}")));
                }
            }
        }
        let plan = match plan {
            Ok(plan) if errors.is_empty() => plan,
            _ => return Err(DomainError::Invalid(errors)),
        };
        if plan.copy_logic() && tree.has_broken_logic() {
            return Err(DomainError::conflict(
                ConflictKind::BrokenLogic,
                format!("survey {id} has logic rules that name missing items or pages"),
            ));
        }
        let draft = SurveyDraft::copy_of(&plan, &tree);
        let copy = tx.insert_survey(account, &draft, clock.now())?;
        let new_tree = tx.question_tree(account, copy.id)?;
        let item_map: Vec<(QuestionItemId, QuestionItemId)> =
            tree.items().zip(new_tree.items()).map(|(old, new)| (old.id, new.id)).collect();
        let page_map: Vec<_> = tree.pages.iter().zip(&new_tree.pages).map(|(o, n)| (o.id, n.id)).collect();
        // Display logic and piped texts name the source's items: the copy's own name the copied ones.
        for (old, new) in tree.items().zip(new_tree.items()) {
            let piped = crate::survey::pipes(&old.text) || old.options.iter().any(|o| crate::survey::pipes(&o.label));
            if old.settings.display_when.is_some() || piped {
                let mut draft = crate::survey::ItemPatch::default().apply(new);
                draft.settings.display_when = old.settings.display_when.as_ref().and_then(|c| c.mapped(&item_map));
                draft.text = crate::survey::pipes_mapped(&draft.text, &item_map);
                for option in &mut draft.options {
                    option.label = crate::survey::pipes_mapped(&option.label, &item_map);
                }
                tx.update_item(account, copy.id, new.id, &draft)?;
            }
        }
        for (old, new) in tree.pages.iter().zip(&new_tree.pages).filter(|(old, _)| crate::survey::pipes(&old.title)) {
            let title = crate::survey::pipes_mapped(&old.title, &item_map);
            tx.update_page(account, copy.id, new.id, &title, new.randomize_items)?;
        }
        for translation in tx.list_translations(account, id)? {
            let texts = translation.texts.within(&tree).for_copy(&page_map, &item_map);
            tx.put_translation(account, copy.id, translation.language, &texts, clock.now())?;
        }
        // Quotas are kept, counting from zero.
        for quota in tx.survey_quotas(account, id, false)? {
            if let Some(input) = quota.input.mapped(&item_map) {
                tx.insert_quota(account, copy.id, &input, clock.now())?;
            }
        }
        if plan.copy_logic() && !tree.logic.is_empty() {
            let rules = tree.logic.iter().filter_map(|rule| rule.rule.mapped(&item_map, &page_map)).collect();
            tx.replace_logic(account, copy.id, &LogicRules::from_checked(rules))?;
        }
        if plan.copy_answers() {
            tx.copy_answer_sets(account, id, copy.id, &item_map)?;
        }
        if !plan.sendout_ids().is_empty() {
            tx.copy_sendouts(account, id, copy.id, plan.sendout_ids(), clock.now())?;
        }
        Ok(copy)
    })
}

/// A field error when `category` is given but not a category of the account.
fn check_category(
    uow: &mut (impl CategoryRepository + ?Sized),
    account: AccountId,
    category: Option<CategoryId>,
    field: &str,
) -> Result<Option<FieldError>, DomainError> {
    let Some(category) = category else {
        return Ok(None);
    };
    Ok(match uow.find_category(account, category)? {
        Some(_) => None,
        None => Some(FieldError::new(field, format!("{category} is not a category of this account"))),
    })
}
