//! A survey's texts in other languages: one language stored whole, read with what it still lacks, listed, deleted.
//! What a translation names is checked against the tree as it stands; a later change of the tree leaves the texts
//! of what remains (each read keeps only those) and counts new texts as missing.

use time::OffsetDateTime;

use crate::clock::Clock;
use crate::error::{DomainError, FieldError, Resource};
use crate::ids::{AccountId, SurveyId};
use crate::language::Language;
use crate::ports::{transaction, SurveyRepository, Transactional};
use crate::survey::{QuestionTree, Survey, TranslatedTexts, Translation, TranslationInput};

use super::surveys::get_with_tree;

/// A translation as the survey holds it now, with every text of the survey it lacks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TranslationView {
    /// The translation, keeping only what the survey still holds.
    pub translation: Translation,
    /// What [`TranslatedTexts::missing`] lists.
    pub missing: Vec<String>,
}

/// One language of a survey's list of translations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TranslationSummary {
    /// The language.
    pub language: Language,
    /// How many texts of the survey have no translation in it.
    pub missing_count: usize,
    /// When its texts were last replaced.
    pub updated_at: OffsetDateTime,
}

fn view(survey: &Survey, tree: &QuestionTree, translation: Translation) -> TranslationView {
    let texts = translation.texts.within(tree);
    let missing = texts.missing(survey, tree);
    TranslationView { translation: Translation { texts, ..translation }, missing }
}

/// Stores the survey's texts in `language` in place of any it had in it.
///
/// Fails with `NotFound` for a survey the account does not have, with `Invalid` for the survey's own language or
/// for texts that name what the survey does not hold (every such name reported).
pub fn put(
    uow: &mut (impl SurveyRepository + Transactional + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    survey: SurveyId,
    language: Language,
    input: TranslationInput,
) -> Result<TranslationView, DomainError> {
    transaction(uow, |tx| {
        let (found, tree) = get_with_tree(tx, account, survey)?;
        if language == found.language {
            let message =
                format!("`{}` is the survey's own language: its texts are those of the survey", language.code());
            return Err(DomainError::Invalid(vec![FieldError::new("language", message)]));
        }
        let texts = TranslatedTexts::check(input, &tree).map_err(DomainError::Invalid)?;
        let stored = tx.put_translation(account, survey, language, &texts, clock.now())?;
        Ok(view(&found, &tree, stored))
    })
}

/// The survey's translation into `language`; `NotFound` for another account's survey or a language never stored.
pub fn get(
    uow: &mut (impl SurveyRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
    language: Language,
) -> Result<TranslationView, DomainError> {
    let (found, tree) = get_with_tree(uow, account, survey)?;
    let translation =
        uow.find_translation(account, survey, language)?.ok_or(DomainError::NotFound(Resource::Translation))?;
    Ok(view(&found, &tree, translation))
}

/// The survey's translations in the order their languages were first stored, each with how many texts it lacks.
pub fn list(
    uow: &mut (impl SurveyRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
) -> Result<Vec<TranslationSummary>, DomainError> {
    let (found, tree) = get_with_tree(uow, account, survey)?;
    let translations = uow.list_translations(account, survey)?;
    Ok(translations
        .into_iter()
        .map(|translation| {
            let TranslationView { translation, missing } = view(&found, &tree, translation);
            TranslationSummary {
                language: translation.language,
                missing_count: missing.len(),
                updated_at: translation.updated_at,
            }
        })
        .collect())
}

/// Deletes the survey's translation into `language`; `NotFound` when the account has no such survey or it has no
/// such translation.
pub fn delete(
    uow: &mut (impl SurveyRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
    language: Language,
) -> Result<(), DomainError> {
    uow.find_survey(account, survey)?.ok_or(DomainError::NotFound(Resource::Survey))?;
    if uow.delete_translation(account, survey, language)? {
        Ok(())
    } else {
        Err(DomainError::NotFound(Resource::Translation))
    }
}
