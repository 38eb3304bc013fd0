//! Answer sets and their answers: written, replaced, listed in chunks and pages (the filter applied as the
//! adapter's SQL does), weighed, and copied with a survey.

use time::OffsetDateTime;

use super::{HeldAnswerSet, Memory, State};
use crate::answer::export::BackgroundCell;
use crate::answer::ports::{ANSWER_BYTES, ANSWER_SET_BYTES};
use crate::answer::{AnswerFilter, AnswerSet, AnswerSetDraft, AnswerValue, ReplacedAnswerSet};
use crate::chunks::{ChunkRequest, Weighed};
use crate::distribution::{Label, BACKGROUND_FUNCTION};
use crate::ids::{AccountId, AnswerSetId, QuestionItemId, RespondentId, SendoutId, SurveyId};
use crate::paging::{Page, PageRequest};
use crate::ports::{AnswerRepository, RepoResult};
use crate::RepoError;

/// Whether a set passes the filter, as the adapter's `WHERE` does.
pub(super) fn passes(set: &AnswerSet, filter: &AnswerFilter) -> bool {
    filter.created_from.is_none_or(|from| set.created_at >= from)
        && filter.created_to.is_none_or(|to| set.created_at <= to)
        && filter.updated_since.is_none_or(|since| set.updated_at >= since)
        && (!filter.completed_only || set.completed)
        && filter.sendout_id.is_none_or(|sendout| set.sendout_id == Some(sendout))
        && filter.language.is_none_or(|language| set.language == Some(language))
        && filter.conditions_hold(&set.answers)
}

/// A set as the store weighs it: its row, and each answer with its value's JSON text (about: a text's quotes and
/// escapes are counted as two bytes).
pub fn weighed(set: &AnswerSet) -> Weighed<AnswerSetId> {
    let value_bytes = |value: &AnswerValue| match value {
        AnswerValue::Number(number) => number.to_string().len(),
        AnswerValue::Text(text) => text.len() + 2,
        AnswerValue::Choices(choices) => choices.iter().map(|choice| choice.len() + 3).sum::<usize>() + 1,
        AnswerValue::Rows(rows) => rows.iter().map(|(row, option)| row.len() + option.len() + 6).sum::<usize>() + 1,
    };
    let answers: u64 = set.answers.iter().map(|answer| ANSWER_BYTES + value_bytes(&answer.value) as u64).sum();
    Weighed { key: set.id, bytes: ANSWER_SET_BYTES + answers }
}

impl State {
    /// The account's sets of the survey that `keep` picks, in creation (id) order, with their answers.
    pub(super) fn sets_of(
        &self,
        account: AccountId,
        survey: SurveyId,
        keep: impl Fn(&AnswerSet) -> bool,
    ) -> Vec<AnswerSet> {
        let mut found: Vec<AnswerSet> = self
            .answer_sets
            .iter()
            .filter(|held| held.account_id == account && held.set.survey_id == survey && keep(&held.set))
            .map(|held| held.set.clone())
            .collect();
        found.sort_by_key(|set| set.id);
        found
    }

    fn chunk_of(
        &self,
        account: AccountId,
        survey: SurveyId,
        filter: &AnswerFilter,
        request: &ChunkRequest<AnswerSetId>,
    ) -> Vec<AnswerSet> {
        let after = request.after_key().copied();
        let mut found =
            self.sets_of(account, survey, |set| passes(set, filter) && after.is_none_or(|after| set.id > after));
        found.truncate(request.size());
        found
    }
}

impl AnswerRepository for Memory {
    fn insert_answer_set(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        respondent: Option<(RespondentId, SendoutId)>,
        draft: &AnswerSetDraft,
        now: OffsetDateTime,
    ) -> RepoResult<AnswerSet> {
        if self.state.surveys.find(account, survey).is_none() {
            // The survey's foreign key, scoped by account.
            return Err(RepoError::Concurrent("answer_sets_survey_fkey".into()));
        }
        let set = AnswerSet {
            id: AnswerSetId::new(self.state.next_id()),
            survey_id: survey,
            respondent_id: respondent.map(|(r, _)| r),
            sendout_id: respondent.map(|(_, s)| s),
            completed: draft.completed(),
            quota_full: false,
            shown_order: draft.shown_order().clone(),
            created_at: now,
            updated_at: now,
            language: draft.language(),
            answers: draft.answers().to_vec(),
        };
        self.state.answer_sets.push(HeldAnswerSet {
            account_id: account,
            set: set.clone(),
            page: None,
            original: None,
        });
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
        let found = self
            .state
            .answer_sets
            .iter_mut()
            .find(|held| held.account_id == account && held.set.survey_id == survey && held.set.id == id);
        let Some(HeldAnswerSet { set, .. }) = found else { return Ok(None) };
        let was_completed = set.completed;
        set.answers = draft.answers().to_vec();
        set.completed = draft.completed();
        set.quota_full = false;
        set.language = draft.language();
        set.updated_at = now;
        Ok(Some(ReplacedAnswerSet { set: set.clone(), was_completed }))
    }

    fn hold_for_quota(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        id: AnswerSetId,
        _now: OffsetDateTime,
    ) -> RepoResult<()> {
        let found = self
            .state
            .answer_sets
            .iter_mut()
            .find(|held| held.account_id == account && held.set.survey_id == survey && held.set.id == id);
        if let Some(held) = found {
            held.set.completed = false;
            held.set.quota_full = true;
        }
        Ok(())
    }

    fn answer_sets_chunk(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        filter: &AnswerFilter,
        request: &ChunkRequest<AnswerSetId>,
    ) -> RepoResult<Vec<AnswerSet>> {
        self.hooks.chunks_read += 1;
        let found = self.state.chunk_of(account, survey, filter, request);
        Ok(found.into_iter().map(|set| AnswerSet { answers: Vec::new(), ..set }).collect())
    }

    fn weigh_answer_sets(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        filter: &AnswerFilter,
        request: &ChunkRequest<AnswerSetId>,
    ) -> RepoResult<Vec<Weighed<AnswerSetId>>> {
        self.hooks.chunks_read += 1;
        Ok(self.state.chunk_of(account, survey, filter, request).iter().map(weighed).collect())
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
        self.hooks.sets_read.push(ids.to_vec());
        Ok(self.state.sets_of(account, survey, |set| ids.contains(&set.id)))
    }

    fn export_label_names(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        filter: &AnswerFilter,
    ) -> RepoResult<Vec<String>> {
        let sendouts: Vec<SendoutId> = self
            .state
            .sets_of(account, survey, |set| passes(set, filter))
            .iter()
            .filter_map(|set| set.sendout_id)
            .collect();
        let mut labels: Vec<&Label> = self
            .state
            .labels
            .iter()
            .filter(|(owner, label)| {
                *owner == account && label.function == BACKGROUND_FUNCTION && sendouts.contains(&label.sendout_id)
            })
            .map(|(_, label)| label)
            .collect();
        labels.sort_by_key(|label| label.id);
        let mut names: Vec<String> = Vec::new();
        for label in labels {
            if !names.contains(&label.name) {
                names.push(label.name.clone());
            }
        }
        Ok(names)
    }

    fn background_cells(
        &mut self,
        account: AccountId,
        respondents: &[RespondentId],
    ) -> RepoResult<Vec<(RespondentId, BackgroundCell)>> {
        let label = |id| self.state.labels.iter().find(|(owner, label)| *owner == account && label.id == id);
        Ok(self
            .state
            .respondents
            .iter()
            .filter(|held| held.account_id == account && respondents.contains(&held.row.id))
            .flat_map(|held| {
                held.row.background_data.iter().filter_map(move |(id, value)| {
                    let (_, label) = label(*id)?;
                    let cell =
                        BackgroundCell { name: label.name.clone(), label_type: label.label_type, value: value.clone() };
                    Some((held.row.id, cell))
                })
            })
            .collect())
    }

    fn page_answer_sets(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        filter: &AnswerFilter,
        page: PageRequest,
    ) -> RepoResult<Page<AnswerSet>> {
        let passing = self.state.sets_of(account, survey, |set| passes(set, filter));
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
        Ok(self.state.sets_of(account, survey, |set| set.id == id).pop())
    }

    fn answer_sets_of_respondent(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        respondent: RespondentId,
    ) -> RepoResult<Vec<AnswerSet>> {
        Ok(self.state.sets_of(account, survey, |set| set.respondent_id == Some(respondent)))
    }

    fn copy_answer_sets(
        &mut self,
        account: AccountId,
        from: SurveyId,
        to: SurveyId,
        items: &[(QuestionItemId, QuestionItemId)],
    ) -> RepoResult<u64> {
        let sources: Vec<HeldAnswerSet> = self
            .state
            .answer_sets
            .iter()
            .filter(|held| held.account_id == account && held.set.survey_id == from)
            .cloned()
            .collect();
        let mut copied = 0;
        for source in sources {
            let answers: Vec<_> = source
                .set
                .answers
                .iter()
                .filter_map(|answer| {
                    let item = items.iter().find(|(old, _)| *old == answer.question_item_id).map(|(_, new)| *new)?;
                    Some(crate::answer::Answer { question_item_id: item, value: answer.value.clone() })
                })
                .collect();
            copied += answers.len() as u64;
            let set = AnswerSet {
                id: AnswerSetId::new(self.state.next_id()),
                survey_id: to,
                respondent_id: None,
                sendout_id: None,
                answers,
                ..source.set
            };
            let original = Some(source.original.unwrap_or(source.set.id));
            self.state.answer_sets.push(HeldAnswerSet { account_id: account, set, page: None, original });
        }
        Ok(copied)
    }

    fn item_has_answers(&mut self, account: AccountId, item: QuestionItemId) -> RepoResult<bool> {
        Ok(self.answers_to(account, item).next().is_some())
    }

    fn values_in_answers(
        &mut self,
        account: AccountId,
        item: QuestionItemId,
        values: &[String],
    ) -> RepoResult<Vec<String>> {
        let held: Vec<&AnswerValue> = self.answers_to(account, item).collect();
        let holds = |value: &String| {
            held.iter().any(|answer| match answer {
                AnswerValue::Text(text) => text == value,
                AnswerValue::Choices(choices) => choices.contains(value),
                AnswerValue::Number(_) => false,
                AnswerValue::Rows(rows) => rows.iter().any(|(row, option)| row == value || option == value),
            })
        };
        Ok(values.iter().filter(|value| holds(value)).cloned().collect())
    }
}

impl Memory {
    /// Every answer of the account's sets to the item.
    fn answers_to(&self, account: AccountId, item: QuestionItemId) -> impl Iterator<Item = &AnswerValue> {
        self.state
            .answer_sets
            .iter()
            .filter(move |held| held.account_id == account)
            .flat_map(|held| held.set.answers.iter())
            .filter(move |answer| answer.question_item_id == item)
            .map(|answer| &answer.value)
    }
}
