//! A fake of the answer set port for listing: one account's surveys and their answer sets (without answers), read
//! in chunks with the filter applied as the real adapter's SQL does. Writes are not implemented.

#![allow(clippy::unimplemented)]

use time::OffsetDateTime;

use super::surveys::{HoldsSurveys, Surveys};
use super::NOW;
use crate::answer::{AnswerFilter, AnswerSet, AnswerSetDraft, ReplacedAnswerSet};
use crate::chunks::ChunkRequest;
use crate::ids::{AccountId, AnswerSetId, QuestionItemId, RespondentId, SendoutId, SurveyId};
use crate::paging::{Page, PageRequest};
use crate::ports::{AnswerRepository, RepoResult};
use crate::survey::Survey;

/// The fake: surveys, answer sets, and how many chunks were read.
#[derive(Debug, Default)]
pub struct AnswerSets {
    pub surveys: Surveys,
    pub sets: Vec<AnswerSet>,
    /// How many times `answer_sets_chunk` ran.
    pub chunks_read: usize,
}

impl AnswerSets {
    /// A fake holding one survey (id 1) and `count` answer sets of it with ids 1 to `count`, every other one
    /// completed, each created a minute after the one before.
    pub fn with_sets(count: i64) -> (Self, SurveyId) {
        let survey = SurveyId::new(1);
        let mut fake = Self::default();
        fake.surveys.rows.push(Survey {
            id: survey,
            name: "Staff".into(),
            description: String::new(),
            start_date: NOW,
            end_date: NOW + time::Duration::days(14),
            category_id: None,
            active: true,
            created_at: NOW,
            updated_at: NOW,
        });
        for id in 1..=count {
            let at = NOW + time::Duration::minutes(id);
            fake.sets.push(AnswerSet {
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
}

impl HoldsSurveys for AnswerSets {
    fn surveys(&mut self) -> &mut Surveys {
        &mut self.surveys
    }
}

fn passes(set: &AnswerSet, filter: &AnswerFilter) -> bool {
    filter.created_from.is_none_or(|from| set.created_at >= from)
        && filter.created_to.is_none_or(|to| set.created_at <= to)
        && filter.updated_since.is_none_or(|since| set.updated_at >= since)
        && (!filter.completed_only || set.completed)
}

impl AnswerRepository for AnswerSets {
    fn insert_answer_set(
        &mut self,
        _account: AccountId,
        _survey: SurveyId,
        _respondent: Option<(RespondentId, SendoutId)>,
        _draft: &AnswerSetDraft,
        _now: OffsetDateTime,
    ) -> RepoResult<AnswerSet> {
        unimplemented!("not used by these tests")
    }

    fn replace_answers(
        &mut self,
        _account: AccountId,
        _survey: SurveyId,
        _id: AnswerSetId,
        _draft: &AnswerSetDraft,
        _now: OffsetDateTime,
    ) -> RepoResult<Option<ReplacedAnswerSet>> {
        unimplemented!("not used by these tests")
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
        let mut found: Vec<AnswerSet> = self
            .sets
            .iter()
            .filter(|set| account == self.surveys.owner && set.survey_id == survey && passes(set, filter))
            .filter(|set| after.is_none_or(|after| set.id > after))
            .cloned()
            .collect();
        found.sort_by_key(|set| set.id);
        found.truncate(request.size());
        Ok(found)
    }

    fn page_answer_sets(
        &mut self,
        _account: AccountId,
        _survey: SurveyId,
        _filter: &AnswerFilter,
        _page: PageRequest,
    ) -> RepoResult<Page<AnswerSet>> {
        unimplemented!("not used by these tests")
    }

    fn find_answer_set(
        &mut self,
        _account: AccountId,
        _survey: SurveyId,
        _id: AnswerSetId,
    ) -> RepoResult<Option<AnswerSet>> {
        unimplemented!("not used by these tests")
    }

    fn answer_sets_of_respondent(
        &mut self,
        _account: AccountId,
        _survey: SurveyId,
        _respondent: RespondentId,
    ) -> RepoResult<Vec<AnswerSet>> {
        unimplemented!("not used by these tests")
    }

    fn copy_answer_sets(
        &mut self,
        _account: AccountId,
        _from: SurveyId,
        _to: SurveyId,
        _items: &[(QuestionItemId, QuestionItemId)],
    ) -> RepoResult<u64> {
        unimplemented!("not used by these tests")
    }
}
