//! The respondent's side: opening a personal survey link, answering page by page (following the logic),
//! leaving and resuming, completing, and opting out.

use crate::answer::{answer_from_form, Answer, AnswerSetDraft};
use crate::clock::Clock;
use crate::distribution::{BlocklistType, TokenContext};
use crate::error::{DomainError, FieldError};
use crate::ids::PageId;
use crate::ports::{
    transaction, AnswerRepository, BlocklistRepository, RespondentPageRepository, SurveyRepository, Transactional,
    WebhookEvents,
};
use crate::survey::{Page, QuestionTree};
use crate::webhook::{EventSubject, WebhookEvent};

/// What the respondent sees.
#[derive(Debug, Clone, PartialEq)]
pub enum PageView {
    /// The survey does not take answers through this link (inactive sendout or survey, or expired link).
    Closed {
        /// The survey's name.
        survey_name: String,
    },
    /// The respondent has completed the survey.
    Done {
        /// The survey's name.
        survey_name: String,
    },
    /// A page to answer.
    Page {
        /// The survey's name.
        survey_name: String,
        /// The page.
        page: Page,
        /// 1-based position of the page.
        number: usize,
        /// Pages in the survey.
        count: usize,
        /// Answers already given on this page (or just submitted, when `errors` is not empty).
        answers: Vec<Answer>,
        /// What is wrong with a submitted page, by field `q<itemId>`.
        errors: Vec<FieldError>,
    },
}

fn context(uow: &mut (impl RespondentPageRepository + ?Sized), token: &str) -> Result<TokenContext, DomainError> {
    // A token names its account (or, sent before tokens did, any account); one of no form is not looked up.
    let route = crate::distribution::survey_link_route(token).ok_or(DomainError::NotFound("survey link"))?;
    uow.find_by_token(route, token)?.ok_or(DomainError::NotFound("survey link"))
}

fn is_open(context: &TokenContext, now: time::OffsetDateTime) -> bool {
    context.sendout_active && context.survey_active && context.expiry_date.is_none_or(|expiry| expiry > now)
}

fn page_view(
    tree: &QuestionTree,
    name: &str,
    page_id: PageId,
    answers: &[Answer],
    errors: Vec<FieldError>,
) -> PageView {
    let index = tree.page_index(page_id).unwrap_or(0);
    let page = tree.pages[index].clone();
    let on_page = |a: &&Answer| page.items.iter().any(|i| i.id == a.question_item_id);
    let answers = answers.iter().filter(on_page).cloned().collect();
    PageView::Page { survey_name: name.to_owned(), page, number: index + 1, count: tree.pages.len(), answers, errors }
}

/// The page a link opens on: where the respondent left off, the first page for a new one.
pub fn open(
    uow: &mut (impl RespondentPageRepository + SurveyRepository + ?Sized),
    clock: &dyn Clock,
    token: &str,
) -> Result<PageView, DomainError> {
    let context = context(uow, token)?;
    let name = context.survey_name.clone();
    if !is_open(&context, clock.now()) {
        return Ok(PageView::Closed { survey_name: name });
    }
    let progress = uow.progress(context.account_id, context.survey_id, context.respondent_id)?;
    if progress.as_ref().is_some_and(|(set, _)| set.completed) {
        return Ok(PageView::Done { survey_name: name });
    }
    let tree = uow.question_tree(context.account_id, context.survey_id)?;
    let (answers, resume) = progress.map(|(set, page)| (set.answers, page)).unwrap_or_default();
    let Some(&page) = tree.reachable(resume, &answers).last() else {
        return Ok(PageView::Done { survey_name: name });
    };
    Ok(page_view(&tree, &name, page, &answers, Vec::new()))
}

/// Saves the answers of one page (`form`: `q<itemId>` to values) and moves on: to the page the logic names,
/// else the next one; after the last page the answer set is completed. A page with broken rules (a missing
/// required answer, a value of the wrong type) is shown again with its errors and nothing is saved.
///
/// Pages are answered in the logic's order: only the page the respondent is on, or one it has passed on its path,
/// is taken; any other shows the current page again (400, `page`). Completing needs every required item on the
/// path answered; one left unanswered (the survey changed meanwhile) shows its page with the error. Completing writes
/// an `answerSet.completed` event in the same transaction.
pub fn submit(
    uow: &mut (impl AnswerRepository + RespondentPageRepository + SurveyRepository + Transactional + WebhookEvents + ?Sized),
    clock: &dyn Clock,
    token: &str,
    page_id: PageId,
    form: &[(String, String)],
) -> Result<PageView, DomainError> {
    transaction(uow, |tx| {
        let context = context(tx, token)?;
        let name = context.survey_name.clone();
        let now = clock.now();
        if !is_open(&context, now) {
            return Ok(PageView::Closed { survey_name: name });
        }
        let (account, survey) = (context.account_id, context.survey_id);
        // Two submissions of the same link (a double click) are saved one after the other, into one answer set.
        tx.lock_respondent(account, context.respondent_id)?;
        let tree = tx.question_tree(account, survey)?;
        let index =
            tree.page_index(page_id).ok_or_else(|| DomainError::invalid("page", "is not a page of this survey"))?;
        let progress = tx.progress(account, survey, context.respondent_id)?;
        if progress.as_ref().is_some_and(|(set, _)| set.completed) {
            return Ok(PageView::Done { survey_name: name });
        }
        let saved: &[Answer] = progress.as_ref().map_or(&[], |(set, _)| &set.answers);
        let reachable = tree.reachable(progress.as_ref().and_then(|(_, page)| *page), saved);
        if !reachable.contains(&page_id) {
            let current = reachable.last().copied().unwrap_or(page_id);
            let error = FieldError::new("page", "Please answer the pages in order: this is the page to answer now.");
            return Ok(page_view(&tree, &name, current, saved, vec![error]));
        }
        let mut errors = Vec::new();
        let mut page_answers = Vec::new();
        for item in &tree.pages[index].items {
            let field = format!("q{}", item.id);
            let values: Vec<String> = form.iter().filter(|(k, _)| *k == field).map(|(_, v)| v.clone()).collect();
            match answer_from_form(item.kind, &values) {
                Ok(Some(value)) => page_answers.push(Answer { question_item_id: item.id, value }),
                Ok(None) if item.required => errors.push(FieldError::new(field, "please answer this question")),
                Ok(None) => {}
                Err(message) => errors.push(FieldError::new(field, message)),
            }
        }
        let mut answers: Vec<Answer> = progress.as_ref().map(|(set, _)| set.answers.clone()).unwrap_or_default();
        answers.retain(|a| tree.pages[index].items.iter().all(|i| i.id != a.question_item_id));
        answers.extend(page_answers.iter().cloned());
        let draft = AnswerSetDraft::check(false, answers, &tree)
            .map_err(|e| e.into_iter().map(|e| FieldError::new(e.field, e.message)));
        let draft = match draft {
            Ok(draft) if errors.is_empty() => draft,
            Ok(_) => return Ok(page_view(&tree, &name, page_id, &page_answers, errors)),
            Err(item_errors) => {
                errors.extend(item_errors);
                return Ok(page_view(&tree, &name, page_id, &page_answers, errors));
            }
        };
        let next = tree.next_page(page_id, draft.answers());
        if next.is_none() {
            let missing = tree.missing_on_path(draft.answers());
            if let Some(first) = missing.first() {
                let on_page = missing.iter().filter(|item| item.page_id == first.page_id);
                let errors =
                    on_page.map(|item| FieldError::new(format!("q{}", item.id), "please answer this question"));
                return Ok(page_view(&tree, &name, first.page_id, draft.answers(), errors.collect()));
            }
        }
        let draft = if next.is_none() { draft.finished() } else { draft };
        let set = match progress {
            Some((set, _)) => {
                let replaced = tx.replace_answers(account, survey, set.id, &draft, now)?;
                replaced.ok_or(DomainError::NotFound("answer set"))?.set
            }
            None => {
                tx.insert_answer_set(account, survey, Some((context.respondent_id, context.sendout_id)), &draft, now)?
            }
        };
        tx.save_progress(account, set.id, next)?;
        if next.is_none() {
            let subject = super::answers::completed_subject(account, &set);
            super::webhooks::emit(tx, WebhookEvent::AnswerSetCompleted, &[subject], now)?;
        }
        Ok(match next {
            Some(next) => page_view(&tree, &name, next, &set.answers, Vec::new()),
            None => PageView::Done { survey_name: name },
        })
    })
}

/// The link token a login identifier opens in a LOGIN sendout: `None` when the identifier is unknown there, or the
/// sendout, survey or link is not open.
pub fn login(
    uow: &mut (impl RespondentPageRepository + ?Sized),
    clock: &dyn Clock,
    sendout: crate::ids::SendoutId,
    identifier: &str,
) -> Result<Option<String>, DomainError> {
    let key = crate::distribution::contact_key(identifier);
    // A partial delete leaves `erased:<id>` as the contact key: that is no one's login.
    if key.is_empty() || key.starts_with(crate::distribution::ERASED_PREFIX) {
        return Ok(None);
    }
    let now = clock.now();
    Ok(uow.find_login(sendout, &key)?.filter(|(_, context)| is_open(context, now)).map(|(token, _)| token))
}

/// Opts the link's contact out: it joins the account's blocklist as OptedOut (nothing changes when it is
/// already there), and the link's respondent is marked as opted out through its sendout (the first time is kept).
/// Returns the survey's name. A contact that joins the blocklist writes a `respondent.optedOut` event for the
/// link's respondent in the same transaction.
pub fn opt_out(
    uow: &mut (impl BlocklistRepository + RespondentPageRepository + Transactional + WebhookEvents + ?Sized),
    clock: &dyn Clock,
    token: &str,
) -> Result<String, DomainError> {
    transaction(uow, |tx| {
        let context = context(tx, token)?;
        if !context.contact_details.is_empty() {
            let (kind, now) = (BlocklistType::OptedOut, clock.now());
            tx.mark_opted_out(context.account_id, context.respondent_id, now)?;
            let added =
                tx.insert_blocklist(context.account_id, &context.contact_details, &context.contact_key, kind, now)?;
            if added.is_some() {
                let subject = EventSubject::respondent(
                    context.account_id,
                    context.survey_id,
                    context.sendout_id,
                    context.respondent_id,
                );
                super::webhooks::emit(tx, WebhookEvent::RespondentOptedOut, &[subject], now)?;
            }
        }
        Ok(context.survey_name)
    })
}
