//! Answer sets: recording and replacing them, and the five ways to read them.

use crate::answer::{check_conditions, Answer, AnswerFilter, AnswerSet, AnswerSetDraft};
use crate::chunks::{within_budget, Chunk, ChunkRequest, Weighed};
use crate::clock::Clock;
use crate::error::{DomainError, Resource};
use crate::ids::{AccountId, AnswerSetId, QuestionItemId, RespondentId, SurveyId};
use crate::language::Language;
use crate::paging::{Page, PageRequest};
use crate::ports::{
    transaction, AlertRepository, AnswerRepository, QuotaRepository, RespondentRepository, SendoutRepository,
    SurveyRepository, Transactional, WebhookEvents,
};
use crate::survey::QuestionTree;
use crate::webhook::EventSubject;

use super::surveys;

/// A new answer set as a client sends it.
#[derive(Debug, Clone, PartialEq)]
pub struct AnswerSetInput {
    /// The respondent who answered, a respondent of a sendout of the survey.
    pub respondent_id: Option<RespondentId>,
    /// Whether the respondent finished.
    pub completed: bool,
    /// The answers.
    pub answers: Vec<Answer>,
    /// The language the answers were given in, if the client knows it.
    pub language: Option<Language>,
}

/// Records an answer set.
///
/// The survey with its tree and the respondent are read without locks (a transaction at READ COMMITTED would hold
/// none either), and the set is written with all its answers in one statement, which stands or falls whole. Should
/// the survey, an item or the respondent go meanwhile, the write fails on its foreign keys as it would inside a
/// transaction. A completed set is written in a transaction with its quotas' counts and its `answerSet.completed`
/// event (or, ended by a full quota, kept not completed and `quotaFull`); an incomplete one needs none.
pub fn record(
    uow: &mut (impl AnswerRepository
              + QuotaRepository
              + AlertRepository
              + RespondentRepository
              + SurveyRepository
              + Transactional
              + WebhookEvents
              + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    survey: SurveyId,
    input: AnswerSetInput,
) -> Result<AnswerSet, DomainError> {
    let (_, tree) = surveys::get_with_tree(uow, account, survey)?;
    let draft = AnswerSetDraft::check(input.completed, input.answers, &tree).map_err(DomainError::Invalid)?;
    let draft = draft.in_language(input.language);
    let respondent = match input.respondent_id {
        None => None,
        Some(respondent) => match uow.respondent_sendout(account, survey, respondent)? {
            Some(sendout) => Some((respondent, sendout)),
            None => {
                return Err(DomainError::invalid(
                    "respondentId",
                    format!("{respondent} is not a respondent of a sendout of survey {survey}"),
                ))
            }
        },
    };
    let now = clock.now();
    if !draft.completed() {
        return Ok(uow.insert_answer_set(account, survey, respondent, &draft, now)?);
    }
    transaction(uow, |tx| {
        let set = tx.insert_answer_set(account, survey, respondent, &draft, now)?;
        super::completion::complete(tx, account, &tree, set, None, now)
    })
}

/// Saves a respondent's answers as it goes (a page saved, a TWOWAY reply), in the caller's transaction: `draft`, in
/// the language the respondent is shown, replaces the answers of its set `existing` (or starts its set), the set
/// remembers `next` as where it is, and a draft that completes the set settles its quotas (`facts`: the tree and
/// the respondent's background they read) and, when it stays completed, writes an `answerSet.completed` event and
/// the respondent's `completed` one.
pub(crate) fn save_respondent_progress(
    tx: &mut (impl AnswerRepository
              + QuotaRepository
              + AlertRepository
              + RespondentRepository
              + crate::ports::RespondentPageRepository
              + crate::ports::TimelineRepository
              + WebhookEvents
              + ?Sized),
    context: &crate::distribution::TokenContext,
    (existing, draft, next): (Option<AnswerSetId>, AnswerSetDraft, Option<crate::ids::PageId>),
    facts: (&QuestionTree, &std::collections::BTreeMap<String, String>),
    now: time::OffsetDateTime,
) -> Result<AnswerSet, DomainError> {
    let (account, survey) = (context.account_id, context.survey_id);
    let draft = draft.in_language(Some(context.shown_language()));
    let set = match existing {
        Some(id) => {
            let replaced = tx.replace_answers(account, survey, id, &draft, now)?;
            replaced.ok_or(DomainError::NotFound(Resource::AnswerSet))?.set
        }
        None => {
            tx.insert_answer_set(account, survey, Some((context.respondent_id, context.sendout_id)), &draft, now)?
        }
    };
    tx.save_progress(account, set.id, next)?;
    let set = if draft.completed() {
        super::completion::complete(tx, account, facts.0, set, Some(facts.1), now)?
    } else {
        set
    };
    if set.completed {
        let completed = crate::distribution::EventKind::Completed;
        tx.record_event(account, context.respondent_id, now, completed, None)?;
    }
    Ok(set)
}

/// The ids of an `answerSet.completed` event.
pub(crate) fn completed_subject(account: AccountId, set: &AnswerSet) -> EventSubject {
    EventSubject {
        account_id: account,
        survey_id: Some(set.survey_id),
        sendout_id: set.sendout_id,
        respondent_id: set.respondent_id,
        answer_set_id: Some(set.id),
        hold: None,
    }
}

/// What replaces an answer set's answers.
#[derive(Debug, Clone, PartialEq)]
pub struct Replacement {
    /// Whether the respondent finished.
    pub completed: bool,
    /// The answers.
    pub answers: Vec<Answer>,
    /// The language the answers were given in, if the client knows it.
    pub language: Option<Language>,
}

/// Replaces the answers, the completed flag and the language of an answer set.
///
/// An unknown survey is `NotFound` before anything else, an unknown set before invalid answers (the set is looked
/// up only when the answers are invalid). The replacement runs in a transaction: the adapter locks the set before
/// it rewrites the answers, so that two replacements of one set do not mix. A replacement that completes a set that
/// was not completed settles its quotas and (when it stays completed) writes an `answerSet.completed` event in the
/// same transaction.
pub fn replace(
    uow: &mut (impl AnswerRepository
              + QuotaRepository
              + AlertRepository
              + RespondentRepository
              + SurveyRepository
              + Transactional
              + WebhookEvents
              + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    survey: SurveyId,
    id: AnswerSetId,
    replacement: Replacement,
) -> Result<AnswerSet, DomainError> {
    let (_, tree) = surveys::get_with_tree(uow, account, survey)?;
    let Replacement { completed, answers, language } = replacement;
    let draft = match AnswerSetDraft::check(completed, answers, &tree) {
        Ok(draft) => draft.in_language(language),
        Err(errors) => {
            uow.find_answer_set(account, survey, id)?.ok_or(DomainError::NotFound(Resource::AnswerSet))?;
            return Err(DomainError::Invalid(errors));
        }
    };
    let now = clock.now();
    transaction(uow, |tx| {
        let replaced =
            tx.replace_answers(account, survey, id, &draft, now)?.ok_or(DomainError::NotFound(Resource::AnswerSet))?;
        if !replaced.completes() {
            return Ok(replaced.set);
        }
        super::completion::complete(tx, account, &tree, replaced.set, None, now)
    })
}

/// One chunk of the survey's answer sets that pass the filter, without answers, in creation (id) order. The
/// first chunk checks that the survey is the account's (`NotFound` otherwise) and that the filter's conditions fit
/// its tree (`Invalid` naming `where`); a later one only reads on after its
/// cursor, which names nothing of another account's (the read is scoped to the account and the survey).
pub fn list_chunk(
    uow: &mut (impl AnswerRepository + SurveyRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
    filter: &AnswerFilter,
    request: &ChunkRequest<AnswerSetId>,
) -> Result<Chunk<AnswerSet, AnswerSetId>, DomainError> {
    if request.is_first() {
        check_survey_and_conditions(uow, account, survey, filter)?;
    }
    let sets = uow.answer_sets_chunk(account, survey, filter, request)?;
    Ok(Chunk::of(sets, request, |set| set.id))
}

/// The start of one page of the survey's answer sets that pass the filter: checks that the survey is the account's
/// (`NotFound` otherwise) and the filter's conditions, then weighs the page's sets without reading them, and counts every set that passes.
/// The page's sets are then read in chunks by [`page_chunk`].
pub fn weigh_page(
    uow: &mut (impl AnswerRepository + SurveyRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
    filter: &AnswerFilter,
    page: PageRequest,
) -> Result<Page<Weighed<AnswerSetId>>, DomainError> {
    check_survey_and_conditions(uow, account, survey, filter)?;
    Ok(uow.weigh_answer_set_page(account, survey, filter, page)?)
}

/// The chunk of a page's sets that starts at `request.after_key()` (an index into `page`, the page's weighed sets;
/// 0 when `None`), with their answers: as many as weigh at most `budget` bytes, and at least one. Its next request
/// starts at the first set it left for later.
pub fn page_chunk(
    uow: &mut (impl AnswerRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
    page: &[Weighed<AnswerSetId>],
    request: &ChunkRequest<usize>,
    budget: u64,
) -> Result<Chunk<AnswerSet, usize>, DomainError> {
    let from = request.after_key().copied().unwrap_or(0).min(page.len());
    let rest = &page[from..];
    let taken = within_budget(rest.iter().map(|set| set.bytes), budget);
    let ids: Vec<AnswerSetId> = rest[..taken].iter().map(|set| set.key).collect();
    let items = if ids.is_empty() { Vec::new() } else { uow.answer_sets_with_answers(account, survey, &ids)? };
    let next = (taken < rest.len()).then(|| request.next(from + taken));
    Ok(Chunk { items, next })
}

/// One answer set, with answers.
pub fn get(
    uow: &mut (impl AnswerRepository + SurveyRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
    id: AnswerSetId,
) -> Result<AnswerSet, DomainError> {
    surveys::get(uow, account, survey)?;
    uow.find_answer_set(account, survey, id)?.ok_or(DomainError::NotFound(Resource::AnswerSet))
}

/// The answer a set gives to one item; `NotFound` when the set does not answer it.
pub fn item_answer(
    uow: &mut (impl AnswerRepository + SurveyRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
    id: AnswerSetId,
    item: QuestionItemId,
) -> Result<Answer, DomainError> {
    let set = get(uow, account, survey, id)?;
    set.answers.into_iter().find(|a| a.question_item_id == item).ok_or(DomainError::NotFound(Resource::Answer))
}

/// The respondent's answer sets of the survey, with answers; `NotFound` when the respondent is not one of a
/// sendout of the survey (unknown respondents, and those whose distribution data was removed).
pub fn of_respondent(
    uow: &mut (impl AnswerRepository + RespondentRepository + SurveyRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
    respondent: RespondentId,
) -> Result<Vec<AnswerSet>, DomainError> {
    surveys::get(uow, account, survey)?;
    uow.respondent_sendout(account, survey, respondent)?.ok_or(DomainError::NotFound(Resource::Respondent))?;
    Ok(uow.answer_sets_of_respondent(account, survey, respondent)?)
}

/// Checks that the survey is the account's (`NotFound` otherwise) and that the filter's conditions fit its tree
/// (`Invalid` naming `where`); the tree is read only when there are conditions.
fn check_survey_and_conditions(
    uow: &mut (impl SurveyRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
    filter: &AnswerFilter,
) -> Result<(), DomainError> {
    if filter.conditions.is_empty() {
        surveys::get(uow, account, survey)?;
        return Ok(());
    }
    let (_, tree) = surveys::get_with_tree(uow, account, survey)?;
    check_conditions(&tree, &filter.conditions).map_err(|error| DomainError::Invalid(vec![error]))
}

/// Checks the sendout a filter of results or exports names: a sendout of another survey or account (or none at all)
/// is invalid, naming `sendoutId`. Callers check the survey first, so an unknown survey stays `NotFound`.
pub fn check_filter_sendout(
    uow: &mut (impl SendoutRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
    filter: &AnswerFilter,
) -> Result<(), DomainError> {
    match filter.sendout_id {
        Some(sendout) if uow.sendout_kind(account, survey, sendout)?.is_none() => {
            Err(DomainError::invalid("sendoutId", format!("{sendout} is not a sendout of survey {survey}")))
        }
        _ => Ok(()),
    }
}
