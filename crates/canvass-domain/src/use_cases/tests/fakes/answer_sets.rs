//! A fake of the answer set port for listing: one account's surveys and their answer sets (without answers), read
//! in chunks with the filter applied as the real adapter's SQL does. Writes are not implemented.

use time::OffsetDateTime;

use super::distribution::ACCOUNT;
use super::NOW;
use crate::answer::{AnswerFilter, AnswerSet, AnswerSetDraft, ReplacedAnswerSet};
use crate::chunks::ChunkRequest;
use crate::ids::{AccountId, AnswerSetId, QuestionItemId, RespondentId, SendoutId, SurveyId};
use crate::paging::{Page, PageRequest};
use crate::ports::{AnswerRepository, RepoResult};
use crate::testing::{staff_survey, HoldsSurveys, Surveys};

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
        fake.surveys.rows.push((ACCOUNT, staff_survey(survey)));
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
            .filter(|set| {
                self.surveys.find(account, survey).is_some() && set.survey_id == survey && passes(set, filter)
            })
            .filter(|set| after.is_none_or(|after| set.id > after))
            .cloned()
            .collect();
        found.sort_by_key(|set| set.id);
        found.truncate(request.size());
        Ok(found)
    }

    super::not_kept! {
        fn insert_answer_set(&mut self, account: AccountId, survey: SurveyId, respondent: Option<(RespondentId, SendoutId)>, draft: &AnswerSetDraft, now: OffsetDateTime) -> RepoResult<AnswerSet>;
        fn replace_answers(&mut self, account: AccountId, survey: SurveyId, id: AnswerSetId, draft: &AnswerSetDraft, now: OffsetDateTime) -> RepoResult<Option<ReplacedAnswerSet>>;
        fn page_answer_sets(&mut self, account: AccountId, survey: SurveyId, filter: &AnswerFilter, page: PageRequest) -> RepoResult<Page<AnswerSet>>;
        fn find_answer_set(&mut self, account: AccountId, survey: SurveyId, id: AnswerSetId) -> RepoResult<Option<AnswerSet>>;
        fn answer_sets_of_respondent(&mut self, account: AccountId, survey: SurveyId, respondent: RespondentId) -> RepoResult<Vec<AnswerSet>>;
        fn copy_answer_sets(&mut self, account: AccountId, from: SurveyId, to: SurveyId, items: &[(QuestionItemId, QuestionItemId)]) -> RepoResult<u64>;
    }
}
