//! The respondent's side: opening a personal survey link, answering page by page (following the logic),
//! leaving and resuming, completing, and opting out.

mod access;
mod speech;
mod view;

pub use access::{login, login_language, opt_out, opt_out_form, LoginOutcome};
pub use view::{PageError, PageState, PageView, QuestionPage};

use std::collections::HashSet;
use std::sync::Arc;

use crate::answer::{answer_from_item_form, Answer, AnswerSetDraft};
use crate::clock::Clock;
use crate::delivery::Personal;
use crate::distribution::{EventKind, TokenContext};
use crate::error::{DomainError, Resource};
use crate::ids::{PageId, QuestionItemId};
use crate::language::Language;
use crate::ports::{
    transaction, AnswerRepository, QuotaRepository, RespondentPageRepository, RespondentRepository, SurveyRepository,
    TimelineRepository, Transactional, WebhookEvents,
};
use crate::survey::{KnownFacts, PipeValues, QuestionTree};

use self::speech::Speech;

fn context(uow: &mut (impl RespondentPageRepository + ?Sized), token: &str) -> Result<TokenContext, DomainError> {
    // A token names its account (or, sent before tokens did, any account); one of no form is not looked up.
    let route = crate::distribution::survey_link_route(token).ok_or(DomainError::NotFound(Resource::SurveyLink))?;
    uow.find_by_token(route, token)?.ok_or(DomainError::NotFound(Resource::SurveyLink))
}

/// Whether the texts the link's respondent is shown of `tree` may pipe: the survey's own texts do, or it is shown a
/// translation (whose texts may pipe where the survey's own do not).
fn may_pipe(context: &TokenContext, tree: &QuestionTree) -> bool {
    tree.pipes() || translated(context)
}

/// Whether the link's respondent is shown a translation rather than the survey's own texts.
fn translated(context: &TokenContext) -> bool {
    context.shown_language() != context.survey_language
}

/// What the respondent's conditions and piped texts read beyond its answers: its background data by label name and
/// its contact's names and attributes, read only when the survey's logic names a label or its texts pipe.
pub(super) fn personal_of(
    uow: &mut (impl RespondentRepository + ?Sized),
    context: &TokenContext,
    tree: &QuestionTree,
) -> Result<Personal, DomainError> {
    if !reads_personal(context, tree) {
        return Ok(Personal::default());
    }
    read_personal(uow, context)
}

/// Whether [`personal_of`] reads the respondent's personal data for `tree`.
fn reads_personal(context: &TokenContext, tree: &QuestionTree) -> bool {
    tree.names_background() || may_pipe(context, tree)
}

/// The link's respondent's background data and contact, read (one statement).
fn read_personal(
    uow: &mut (impl RespondentRepository + ?Sized),
    context: &TokenContext,
) -> Result<Personal, DomainError> {
    let invitation = uow.invitation_of(context.account_id, context.sendout_id, context.respondent_id)?;
    Ok(invitation.map(|invitation| invitation.personal).unwrap_or_default())
}

/// The link's survey's tree, at the version read with the link (a cache may hold it).
fn shared_tree(
    uow: &mut (impl SurveyRepository + ?Sized),
    context: &TokenContext,
) -> Result<Arc<QuestionTree>, DomainError> {
    Ok(uow.shared_question_tree(context.account_id, context.survey_id, context.tree_version)?)
}

fn is_open(context: &TokenContext, now: time::OffsetDateTime) -> bool {
    context.sendout_active && context.survey_active && context.expiry_date.is_none_or(|expiry| expiry > now)
}

/// What a view of a link shows: the link's context, and its respondent's language with the survey's texts in it.
struct Shown<'c> {
    context: &'c TokenContext,
    speech: Speech,
}

/// Where a view of a link leads, decided before anything is said: the texts of the language shown are read for
/// it alone (a page's items, not the whole survey's).
enum Place {
    /// The survey or its sendout is closed.
    Closed,
    /// The respondent has completed the survey (or has nothing left to answer), with what its thank-you message
    /// pipes when it may pipe.
    Done(Option<Box<Thanks>>),
    /// A page of the tree, with the answers to show on it, its errors and what the respondent is shown of it.
    Page { tree: Arc<QuestionTree>, page: PageId, answers: Vec<Answer>, errors: Vec<PageError>, seen: Box<Seen> },
}

/// What a page shows one respondent beyond its form: the items hidden from it (their `displayWhen` does not
/// hold), and the answers and personal data its texts pipe.
struct Seen {
    hidden: HashSet<QuestionItemId>,
    answers: Vec<Answer>,
    personal: Personal,
}

impl Seen {
    /// What the link's respondent, with `answers` so far and `personal` data, is shown of `tree`.
    fn of(context: &TokenContext, tree: &QuestionTree, answers: &[Answer], personal: &Personal) -> Box<Self> {
        let hidden = tree.hidden_items(answers, &personal.background);
        let answers = if may_pipe(context, tree) { answers.to_vec() } else { Vec::new() };
        Box::new(Self { hidden, answers, personal: personal.clone() })
    }
}

/// What a thank-you message that pipes is filled with: the tree, the respondent's answers and personal data.
struct Thanks {
    tree: Arc<QuestionTree>,
    answers: Vec<Answer>,
    personal: Personal,
}

/// Whether the thank-you message the link's respondent is shown may pipe: the survey's own one pipes, or the
/// respondent is shown a translation (whose message may pipe where the survey's own does not).
fn thanks_may_pipe(context: &TokenContext) -> bool {
    context.thank_you_message.as_deref().is_some_and(|own| translated(context) || crate::survey::pipes(own))
}

/// The thank-you place of the link's respondent, whose set holds `answers` to `tree`: its personal data, `known`
/// when already read, is read only when its message may pipe.
fn done(
    uow: &mut (impl RespondentRepository + ?Sized),
    context: &TokenContext,
    tree: Arc<QuestionTree>,
    answers: &[Answer],
    known: Option<&Personal>,
) -> Result<Place, DomainError> {
    if !thanks_may_pipe(context) {
        return Ok(Place::Done(None));
    }
    let personal = match known {
        Some(personal) => personal.clone(),
        None => read_personal(uow, context)?,
    };
    Ok(Place::Done(Some(Box::new(Thanks { tree, answers: answers.to_vec(), personal }))))
}

impl Place {
    fn page(
        tree: Arc<QuestionTree>,
        page: PageId,
        answers: &[Answer],
        errors: Vec<PageError>,
        seen: Box<Seen>,
    ) -> Self {
        Self::Page { tree, page, answers: answers.to_vec(), errors, seen }
    }

    /// Writes the respondent's first view of the page the place is, if it is one (a later view writes nothing).
    fn viewed(
        &self,
        uow: &mut (impl TimelineRepository + ?Sized),
        context: &TokenContext,
        now: time::OffsetDateTime,
    ) -> Result<(), DomainError> {
        if let Self::Page { page, .. } = self {
            let detail = serde_json::json!({"pageId": page.get()});
            uow.record_event(context.account_id, context.respondent_id, now, EventKind::PageViewed, Some(detail))?;
        }
        Ok(())
    }

    /// The items whose texts the place shows.
    fn items(&self) -> Vec<QuestionItemId> {
        match self {
            Self::Page { tree, page, .. } => {
                let index = tree.page_index(*page).unwrap_or(0);
                tree.pages.get(index).map_or_else(Vec::new, |page| page.items.iter().map(|item| item.id).collect())
            }
            Self::Closed | Self::Done(_) => Vec::new(),
        }
    }
}

impl Shown<'_> {
    /// Reads what the link's respondent is shown at `place`.
    fn read<'c>(
        uow: &mut (impl SurveyRepository + ?Sized),
        context: &'c TokenContext,
        place: &Place,
    ) -> Result<Shown<'c>, DomainError> {
        Ok(Shown { context, speech: Speech::read(uow, context, &place.items())? })
    }

    fn show(&self, place: Place) -> PageView {
        match place {
            Place::Closed => self.speech.view(self.context, PageState::Closed, Default::default()),
            Place::Done(thanks) => {
                let thank_you_message = self.context.thank_you_message.clone();
                let mut view =
                    self.speech.view(self.context, PageState::Done { thank_you_message }, Default::default());
                // Piped in the language shown, after the translation is chosen.
                if let (Some(thanks), PageState::Done { thank_you_message: Some(message) }) = (thanks, &mut view.state)
                {
                    let values = PipeValues::new(&thanks.tree, &thanks.answers, &thanks.personal);
                    *message = values.fill(message).into_owned();
                }
                view
            }
            Place::Page { tree, page, answers, errors, seen } => self.page_view(&tree, page, &answers, errors, &seen),
        }
    }

    fn page_view(
        &self,
        tree: &QuestionTree,
        page_id: PageId,
        answers: &[Answer],
        errors: Vec<PageError>,
        seen: &Seen,
    ) -> PageView {
        let index = tree.page_index(page_id).unwrap_or(0);
        let mut page = tree.pages[index].clone().shown_to(self.context.respondent_id.get());
        page.items.retain(|item| !seen.hidden.contains(&item.id));
        let (page, untranslated) = self.speech.page(page);
        let page = PipeValues::new(tree, &seen.answers, &seen.personal).page(page);
        let on_page = |a: &&Answer| page.items.iter().any(|i| i.id == a.question_item_id);
        let answers = answers.iter().filter(on_page).cloned().collect();
        let page = QuestionPage { page, number: index + 1, count: tree.pages.len(), answers, errors };
        self.speech.view(self.context, PageState::Page(page), untranslated)
    }
}

/// The page a link opens on: where the respondent left off, the first page for a new one; in the respondent's
/// language. `chosen` is a language the respondent picked on its page: one of the survey's languages becomes the
/// respondent's own (and is shown); another is ignored.
pub fn open(
    uow: &mut (impl QuotaRepository
              + RespondentPageRepository
              + RespondentRepository
              + SurveyRepository
              + TimelineRepository
              + ?Sized),
    clock: &dyn Clock,
    token: &str,
    chosen: Option<Language>,
) -> Result<PageView, DomainError> {
    let mut context = context(uow, token)?;
    let place = resume(uow, &context, clock.now())?;
    place.viewed(uow, &context, clock.now())?;
    let items = place.items();
    let mut speech = Speech::read(uow, &context, &items)?;
    if let Some(language) = chosen.filter(|&l| speech.offers(l) && Some(l) != context.respondent_language) {
        uow.set_respondent_language(context.account_id, context.respondent_id, language)?;
        context.respondent_language = Some(language);
        speech = Speech::read(uow, &context, &items)?;
    }
    Ok(Shown { context: &context, speech }.show(place))
}

/// Where a link leads when it is opened.
fn resume(
    uow: &mut (impl QuotaRepository + RespondentPageRepository + RespondentRepository + SurveyRepository + ?Sized),
    context: &TokenContext,
    now: time::OffsetDateTime,
) -> Result<Place, DomainError> {
    if !is_open(context, now) {
        return Ok(Place::Closed);
    }
    let progress = uow.progress(context.account_id, context.survey_id, context.respondent_id)?;
    if let Some((set, _)) = progress.as_ref().filter(|(set, _)| set.is_over()) {
        if !thanks_may_pipe(context) {
            return Ok(Place::Done(None));
        }
        let tree = shared_tree(uow, context)?;
        return done(uow, context, tree, &set.answers, None);
    }
    if progress.is_none() && super::quotas::closed_to_newcomers(uow, context.account_id, context.survey_id)? {
        return Ok(Place::Closed);
    }
    let tree = shared_tree(uow, context)?;
    let (answers, resume) = progress.map(|(set, page)| (set.answers, page)).unwrap_or_default();
    let personal = personal_of(uow, context, &tree)?;
    let Some(&page) = tree.reachable(resume, &answers, &personal.background).last() else {
        let known = reads_personal(context, &tree).then_some(&personal);
        return done(uow, context, Arc::clone(&tree), &answers, known);
    };
    let seen = Seen::of(context, &tree, &answers, &personal);
    Ok(Place::page(tree, page, &answers, Vec::new(), seen))
}

/// Saves the answers of one page (`form`: `q<itemId>` to values) and moves on: to the page the logic names,
/// else the next one; after the last page the answer set is completed. A page with broken rules (a missing
/// required answer, a value of the wrong type) is shown again with its errors and nothing is saved.
///
/// Pages are answered in the logic's order: only the page the respondent is on, or one it has passed on its path,
/// is taken; another is refused with the page it should answer. Completing needs every required item on the
/// path answered; one left unanswered (the survey changed meanwhile) shows its page with the error. Completing writes
/// an `answerSet.completed` event in the same transaction.
pub fn submit(
    uow: &mut (impl AnswerRepository
              + QuotaRepository
              + crate::ports::AlertRepository
              + RespondentPageRepository
              + RespondentRepository
              + SurveyRepository
              + TimelineRepository
              + Transactional
              + WebhookEvents
              + ?Sized),
    clock: &dyn Clock,
    token: &str,
    page_id: PageId,
    form: &[(String, String)],
) -> Result<PageView, DomainError> {
    transaction(uow, |tx| {
        let context = context(tx, token)?;
        let place = save_page(tx, clock.now(), &context, page_id, form)?;
        place.viewed(tx, &context, clock.now())?;
        Ok(Shown::read(tx, &context, &place)?.show(place))
    })
}

/// Saves a page's answers (see [`submit`]) and says where that leads.
fn save_page(
    tx: &mut (impl AnswerRepository
              + QuotaRepository
              + crate::ports::AlertRepository
              + RespondentPageRepository
              + RespondentRepository
              + SurveyRepository
              + TimelineRepository
              + WebhookEvents
              + ?Sized),
    now: time::OffsetDateTime,
    context: &TokenContext,
    page_id: PageId,
    form: &[(String, String)],
) -> Result<Place, DomainError> {
    if !is_open(context, now) {
        return Ok(Place::Closed);
    }
    let (account, survey) = (context.account_id, context.survey_id);
    // Two submissions of the same link (a double click) are saved one after the other, into one answer set.
    tx.lock_respondent(account, context.respondent_id)?;
    let tree = shared_tree(tx, context)?;
    let index = tree.page_index(page_id).ok_or_else(|| DomainError::invalid("page", "is not a page of this survey"))?;
    let progress = tx.progress(account, survey, context.respondent_id)?;
    if let Some((set, _)) = progress.as_ref().filter(|(set, _)| set.is_over()) {
        return done(tx, context, tree, &set.answers, None);
    }
    if progress.is_none() && super::quotas::closed_to_newcomers(tx, account, survey)? {
        return Ok(Place::Closed);
    }
    let saved: &[Answer] = progress.as_ref().map_or(&[], |(set, _)| &set.answers);
    let personal = personal_of(tx, context, &tree)?;
    let background = &personal.background;
    let reachable = tree.reachable(progress.as_ref().and_then(|(_, page)| *page), saved, background);
    let seen = Seen::of(context, &tree, saved, &personal);
    if !reachable.contains(&page_id) {
        let current = reachable.last().copied().unwrap_or(page_id);
        return Ok(Place::page(tree, current, saved, vec![PageError::OutOfOrder], seen));
    }
    let (page_answers, errors) = read_page(&tree, index, form, &seen.hidden);
    if !errors.is_empty() {
        return Ok(Place::page(tree, page_id, &page_answers, errors, seen));
    }
    let mut answers: Vec<Answer> = progress.as_ref().map(|(set, _)| set.answers.clone()).unwrap_or_default();
    answers.retain(|a| tree.pages[index].items.iter().all(|i| i.id != a.question_item_id));
    answers.extend(page_answers.iter().cloned());
    let Ok(draft) = AnswerSetDraft::check(false, answers, &tree) else {
        // This page's answers fit (read_page checked them): the survey changed under answers given before.
        return Ok(Place::page(tree, page_id, &page_answers, vec![PageError::EarlierAnswers], seen));
    };
    let next = tree.next_page(page_id, draft.answers(), background);
    if next.is_none() {
        let missing = tree.missing_on_path(draft.answers(), background);
        if let Some(first) = missing.first() {
            let on_page = missing.iter().filter(|item| item.page_id == first.page_id);
            let errors = on_page.map(|item| PageError::Unanswered(item.id)).collect();
            let first_page = first.page_id;
            let seen = Seen::of(context, &tree, draft.answers(), &personal);
            return Ok(Place::page(tree, first_page, draft.answers(), errors, seen));
        }
    }
    let draft = match next {
        // Completed: the answers of items hidden from the respondent are dropped.
        None => {
            let hidden = tree.hidden_items(draft.answers(), background);
            draft.without(&hidden).finished()
        }
        Some(_) => draft,
    };
    // A full `endSurvey` quota whose conditions the answers so far meet ends the set here.
    let ended = next.is_some()
        && super::quotas::end_now(tx, account, survey, &KnownFacts::new(&tree, draft.answers(), background))?;
    let next = next.filter(|_| !ended);
    let existing = progress.map(|(set, _)| set.id);
    // A new set keeps the orders its respondent is shown (the same draw every view makes); a saved one has them.
    let draft = match existing {
        None => draft.shown(crate::survey::ShownOrder::draw(&tree, context.respondent_id.get())),
        Some(_) => draft,
    };
    // The page's event before the set's: a last page saved completes the survey.
    let saved = serde_json::json!({"pageId": page_id.get()});
    tx.record_event(account, context.respondent_id, now, EventKind::PageSaved, Some(saved))?;
    let set = super::answers::save_respondent_progress(tx, context, (existing, draft, next), (&tree, background), now)?;
    if ended {
        tx.hold_for_quota(account, survey, set.id, now)?;
    }
    match next {
        Some(next) => {
            let seen = Seen::of(context, &tree, &set.answers, &personal);
            Ok(Place::page(tree, next, &set.answers, Vec::new(), seen))
        }
        None => {
            let known = reads_personal(context, &tree).then_some(&personal);
            done(tx, context, Arc::clone(&tree), &set.answers, known)
        }
    }
}

/// The answers a form gives for the items of the tree's page at `index` (`q<itemId>` to values), each checked
/// against its item, with what is wrong: a required item left empty, a value that does not fit.
fn read_page(
    tree: &QuestionTree,
    index: usize,
    form: &[(String, String)],
    hidden: &HashSet<QuestionItemId>,
) -> (Vec<Answer>, Vec<PageError>) {
    let (mut answers, mut errors) = (Vec::new(), Vec::new());
    for item in tree.pages[index].items.iter().filter(|item| !hidden.contains(&item.id)) {
        let value = answer_from_item_form(item, form)
            .and_then(|value| value.map(|v| tree.check_answer(item, &v).map(|()| v)).transpose());
        match value {
            Ok(Some(value)) => answers.push(Answer { question_item_id: item.id, value }),
            Ok(None) if item.required => errors.push(PageError::Unanswered(item.id)),
            Ok(None) => {}
            Err(problem) => errors.push(PageError::Invalid(item.id, problem)),
        }
    }
    (answers, errors)
}
