//! A fake for exports: the answer set fake (surveys of any account with their sets and answers) and the sendouts
//! of those surveys, each with its account, which the filter's sendout is checked against.

use time::OffsetDateTime;

use super::answer_sets::AnswerSets;
use crate::answer::{AnswerFilter, AnswerSet, AnswerSetDraft, ReplacedAnswerSet};
use crate::chunks::{ChunkRequest, Weighed};
use crate::ids::{AccountId, AnswerSetId, QuestionItemId, RespondentId, SendoutId, SurveyId};
use crate::paging::{Page, PageRequest};
use crate::ports::{AnswerRepository, RepoResult};
use crate::testing::{HoldsSurveys, Surveys};

/// The fake: the answer sets, and the sendouts as (account, survey, sendout).
#[derive(Debug, Default)]
pub struct Exports {
    pub sets: AnswerSets,
    pub sendouts: Vec<(AccountId, SurveyId, SendoutId)>,
}

impl HoldsSurveys for Exports {
    fn surveys(&mut self) -> &mut Surveys {
        &mut self.sets.state.surveys
    }
}

impl AnswerRepository for Exports {
    fn weigh_answer_sets(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        filter: &AnswerFilter,
        request: &ChunkRequest<AnswerSetId>,
    ) -> RepoResult<Vec<Weighed<AnswerSetId>>> {
        self.sets.weigh_answer_sets(account, survey, filter, request)
    }

    fn answer_sets_with_answers(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        ids: &[AnswerSetId],
    ) -> RepoResult<Vec<AnswerSet>> {
        self.sets.answer_sets_with_answers(account, survey, ids)
    }

    super::not_kept! {
        fn insert_answer_set(&mut self, account: AccountId, survey: SurveyId, respondent: Option<(RespondentId, SendoutId)>, draft: &AnswerSetDraft, now: OffsetDateTime) -> RepoResult<AnswerSet>;
        fn replace_answers(&mut self, account: AccountId, survey: SurveyId, id: AnswerSetId, draft: &AnswerSetDraft, now: OffsetDateTime) -> RepoResult<Option<ReplacedAnswerSet>>;
        fn answer_sets_chunk(&mut self, account: AccountId, survey: SurveyId, filter: &AnswerFilter, request: &ChunkRequest<AnswerSetId>) -> RepoResult<Vec<AnswerSet>>;
        fn page_answer_sets(&mut self, account: AccountId, survey: SurveyId, filter: &AnswerFilter, page: PageRequest) -> RepoResult<Page<AnswerSet>>;
        fn weigh_answer_set_page(&mut self, account: AccountId, survey: SurveyId, filter: &AnswerFilter, page: PageRequest) -> RepoResult<Page<Weighed<AnswerSetId>>>;
        fn find_answer_set(&mut self, account: AccountId, survey: SurveyId, id: AnswerSetId) -> RepoResult<Option<AnswerSet>>;
        fn answer_sets_of_respondent(&mut self, account: AccountId, survey: SurveyId, respondent: RespondentId) -> RepoResult<Vec<AnswerSet>>;
        fn copy_answer_sets(&mut self, account: AccountId, from: SurveyId, to: SurveyId, items: &[(QuestionItemId, QuestionItemId)]) -> RepoResult<u64>;
    }
}

super::sendouts_by_id!(Exports);
