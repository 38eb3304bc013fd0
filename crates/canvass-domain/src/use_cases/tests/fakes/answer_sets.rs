//! A fake of the answer set port: surveys of any account with their answer sets, and the respondents of their
//! sendouts. Sets are written and read as the real adapter does, each read scoped to the account that owns the
//! survey, the lists with the filter applied as its SQL does. Its webhook events can be made to fail, to show
//! what a transaction rolls back.

use time::OffsetDateTime;

use super::distribution::ACCOUNT;
use super::{Snapshots, NOW};
use crate::answer::ports::{ANSWER_BYTES, ANSWER_SET_BYTES};
use crate::answer::{AnswerFilter, AnswerSet, AnswerSetDraft, ReplacedAnswerSet};
use crate::chunks::{ChunkRequest, Weighed};
use crate::distribution::{BackgroundData, NewRespondent, Respondent};
use crate::ids::{AccountId, AnswerSetId, LabelId, QuestionItemId, RespondentId, SendoutId, SurveyId};
use crate::paging::{Page, PageRequest};
use crate::ports::{AnswerRepository, RepoResult, RespondentRepository, WebhookEvents};
use crate::testing::{staff_survey, HoldsSurveys, Surveys};
use crate::webhook::{EventSubject, WebhookEvent};
use crate::RepoError;

/// A respondent of a sendout of a survey, as answering sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeldRespondent {
    pub account: AccountId,
    pub survey: SurveyId,
    pub sendout: SendoutId,
    pub id: RespondentId,
}

/// What the fake holds; cloned for each transaction.
#[derive(Debug, Clone, Default)]
pub struct State {
    pub surveys: Surveys,
    /// Answer sets of every survey, in creation order.
    pub sets: Vec<AnswerSet>,
    pub respondents: Vec<HeldRespondent>,
    /// The webhook events written.
    pub webhook_events: super::WebhookEvents,
}

/// The fake: its state, its transactions, and how many chunks were read.
#[derive(Debug, Default)]
pub struct AnswerSets {
    pub state: State,
    pub transactions: Snapshots<State>,
    /// How many times `answer_sets_chunk` or `weigh_answer_sets` ran.
    pub chunks_read: usize,
    /// The ids each `answer_sets_with_answers` read, in order.
    pub sets_read: Vec<Vec<AnswerSetId>>,
    /// Whether writing a webhook event fails (the store went away, say).
    pub events_fail: bool,
}

impl AnswerSets {
    /// A fake holding one survey (id 1) and `count` answer sets of it with ids 1 to `count`, every other one
    /// completed, each created a minute after the one before.
    pub fn with_sets(count: i64) -> (Self, SurveyId) {
        let survey = SurveyId::new(1);
        let mut fake = Self::default();
        fake.state.surveys.rows.push((ACCOUNT, staff_survey(survey)));
        for id in 1..=count {
            let at = NOW + time::Duration::minutes(id);
            fake.state.sets.push(AnswerSet {
                id: AnswerSetId::new(id),
                survey_id: survey,
                respondent_id: None,
                sendout_id: None,
                completed: id % 2 == 0,
                created_at: at,
                updated_at: at,
                answers: Vec::new(),
            });
        }
        (fake, survey)
    }

    /// Whether the account owns the survey.
    fn owns(&self, account: AccountId, survey: SurveyId) -> bool {
        self.state.surveys.find(account, survey).is_some()
    }

    /// The account's sets of the survey that `keep` picks, in creation (id) order.
    fn sets_of(&self, account: AccountId, survey: SurveyId, keep: impl Fn(&AnswerSet) -> bool) -> Vec<AnswerSet> {
        let mut found: Vec<AnswerSet> = self
            .state
            .sets
            .iter()
            .filter(|set| self.owns(account, survey) && set.survey_id == survey && keep(set))
            .cloned()
            .collect();
        found.sort_by_key(|set| set.id);
        found
    }
}

super::snapshot_transactions!(AnswerSets);

impl WebhookEvents for AnswerSets {
    fn enqueue_events(
        &mut self,
        event: WebhookEvent,
        subjects: &[EventSubject],
        now: OffsetDateTime,
    ) -> RepoResult<()> {
        let _ = now;
        if self.events_fail {
            return Err(RepoError::Unavailable("the webhook events could not be written".into()));
        }
        self.state.webhook_events.extend(subjects.iter().map(|subject| (event, *subject)));
        Ok(())
    }
}

impl HoldsSurveys for AnswerSets {
    fn surveys(&mut self) -> &mut Surveys {
        &mut self.state.surveys
    }
}

fn passes(set: &AnswerSet, filter: &AnswerFilter) -> bool {
    filter.created_from.is_none_or(|from| set.created_at >= from)
        && filter.created_to.is_none_or(|to| set.created_at <= to)
        && filter.updated_since.is_none_or(|since| set.updated_at >= since)
        && (!filter.completed_only || set.completed)
        && filter.sendout_id.is_none_or(|sendout| set.sendout_id == Some(sendout))
}

/// The chunk listing returns sets without their answers, as the adapter does.
fn without_answers(set: AnswerSet) -> AnswerSet {
    AnswerSet { answers: Vec::new(), ..set }
}

impl AnswerRepository for AnswerSets {
    fn insert_answer_set(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        respondent: Option<(RespondentId, SendoutId)>,
        draft: &AnswerSetDraft,
        now: OffsetDateTime,
    ) -> RepoResult<AnswerSet> {
        if !self.owns(account, survey) {
            // The survey's foreign key, scoped by account.
            return Err(RepoError::Concurrent("answer_sets_survey_fkey".into()));
        }
        let next = self.state.sets.iter().map(|set| set.id.get()).max().unwrap_or(0) + 1;
        let set = AnswerSet {
            id: AnswerSetId::new(next),
            survey_id: survey,
            respondent_id: respondent.map(|(r, _)| r),
            sendout_id: respondent.map(|(_, s)| s),
            completed: draft.completed(),
            created_at: now,
            updated_at: now,
            answers: draft.answers().to_vec(),
        };
        self.state.sets.push(set.clone());
        Ok(set)
    }

    fn replace_answers(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        id: AnswerSetId,
        draft: &AnswerSetDraft,
        now: OffsetDateTime,
    ) -> RepoResult<Option<ReplacedAnswerSet>> {
        let owned = self.owns(account, survey);
        let found = self.state.sets.iter_mut().find(|set| owned && set.survey_id == survey && set.id == id);
        let Some(set) = found else { return Ok(None) };
        let was_completed = set.completed;
        set.answers = draft.answers().to_vec();
        set.completed = draft.completed();
        set.updated_at = now;
        Ok(Some(ReplacedAnswerSet { set: set.clone(), was_completed }))
    }

    fn answer_sets_chunk(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        filter: &AnswerFilter,
        request: &ChunkRequest<AnswerSetId>,
    ) -> RepoResult<Vec<AnswerSet>> {
        self.chunks_read += 1;
        let after = request.after_key().copied();
        let mut found =
            self.sets_of(account, survey, |set| passes(set, filter) && after.is_none_or(|after| set.id > after));
        found.truncate(request.size());
        Ok(found.into_iter().map(without_answers).collect())
    }

    fn weigh_answer_sets(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        filter: &AnswerFilter,
        request: &ChunkRequest<AnswerSetId>,
    ) -> RepoResult<Vec<Weighed<AnswerSetId>>> {
        self.chunks_read += 1;
        let after = request.after_key().copied();
        let mut found =
            self.sets_of(account, survey, |set| passes(set, filter) && after.is_none_or(|after| set.id > after));
        found.truncate(request.size());
        Ok(found.iter().map(weighed).collect())
    }

    fn weigh_answer_set_page(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        filter: &AnswerFilter,
        page: PageRequest,
    ) -> RepoResult<Page<Weighed<AnswerSetId>>> {
        let found = self.page_answer_sets(account, survey, filter, page)?;
        Ok(Page { request: page, items: found.items.iter().map(weighed).collect(), total_count: found.total_count })
    }

    fn answer_sets_with_answers(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        ids: &[AnswerSetId],
    ) -> RepoResult<Vec<AnswerSet>> {
        self.sets_read.push(ids.to_vec());
        Ok(self.sets_of(account, survey, |set| ids.contains(&set.id)))
    }

    fn page_answer_sets(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        filter: &AnswerFilter,
        page: PageRequest,
    ) -> RepoResult<Page<AnswerSet>> {
        let passing = self.sets_of(account, survey, |set| passes(set, filter));
        let total_count = passing.len() as i64;
        let items = passing
            .into_iter()
            .skip(usize::try_from(page.offset()).unwrap_or(usize::MAX))
            .take(usize::try_from(page.size()).unwrap_or(0))
            .collect();
        Ok(Page { request: page, items, total_count })
    }

    fn find_answer_set(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        id: AnswerSetId,
    ) -> RepoResult<Option<AnswerSet>> {
        Ok(self.sets_of(account, survey, |set| set.id == id).pop())
    }

    fn answer_sets_of_respondent(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        respondent: RespondentId,
    ) -> RepoResult<Vec<AnswerSet>> {
        Ok(self.sets_of(account, survey, |set| set.respondent_id == Some(respondent)))
    }

    super::not_kept! {
        fn copy_answer_sets(&mut self, account: AccountId, from: SurveyId, to: SurveyId, items: &[(QuestionItemId, QuestionItemId)]) -> RepoResult<u64>;
    }
}

impl RespondentRepository for AnswerSets {
    fn respondent_sendout(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        respondent: RespondentId,
    ) -> RepoResult<Option<SendoutId>> {
        let found =
            self.state.respondents.iter().find(|r| r.account == account && r.survey == survey && r.id == respondent);
        Ok(found.map(|r| r.sendout))
    }

    super::not_kept! {
        fn existing_contact_keys(&mut self, account: AccountId, sendout: SendoutId, keys: &[String]) -> RepoResult<Vec<String>>;
        fn insert_respondents(&mut self, account: AccountId, sendout: SendoutId, rows: &[NewRespondent], now: OffsetDateTime) -> RepoResult<Vec<Respondent>>;
        fn respondents_chunk(&mut self, account: AccountId, sendout: SendoutId, request: &ChunkRequest<RespondentId>) -> RepoResult<Vec<Respondent>>;
        fn find_respondent(&mut self, account: AccountId, sendout: SendoutId, id: RespondentId) -> RepoResult<Option<Respondent>>;
        fn update_background_data(&mut self, account: AccountId, sendout: SendoutId, respondent: RespondentId, set: &BackgroundData, remove: &[LabelId]) -> RepoResult<Option<BackgroundData>>;
    }
}

/// A set as the store weighs it: its row, and each answer with its value's JSON text (about: a text's quotes
/// and escapes are counted as two bytes).
pub fn weighed(set: &AnswerSet) -> Weighed<AnswerSetId> {
    use crate::answer::AnswerValue;
    let value_bytes = |value: &AnswerValue| match value {
        AnswerValue::Number(number) => number.to_string().len(),
        AnswerValue::Text(text) => text.len() + 2,
        AnswerValue::Choices(choices) => choices.iter().map(|choice| choice.len() + 3).sum::<usize>() + 1,
    };
    let answers: u64 = set.answers.iter().map(|answer| ANSWER_BYTES + value_bytes(&answer.value) as u64).sum();
    Weighed { key: set.id, bytes: ANSWER_SET_BYTES + answers }
}
