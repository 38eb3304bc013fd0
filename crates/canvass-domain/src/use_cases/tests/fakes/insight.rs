//! A fake of the insight port: surveys and sendouts of any account, and the figures and tallies the store would
//! compute, given by the test. It records what each insight read was asked, so a test sees the day and filter the
//! use case passed.

use time::{Date, OffsetDateTime};

use crate::answer::AnswerFilter;
use crate::distribution::{
    BgDocument, DispatchType, Label, LabelDraft, Reminder, ReminderDraft, Sendout, SendoutDraft, Transition,
};
use crate::ids::{AccountId, BgDocumentId, LabelId, SendoutId, SurveyId};
use crate::insight::{ResultTallies, SendoutFigures};
use crate::ports::{InsightRepository, RepoResult, SendoutRepository};
use crate::survey::QuestionTree;
use crate::testing::{HoldsSurveys, Surveys};

/// A read of the insight port, as it was asked.
#[derive(Debug, Clone, PartialEq)]
pub enum Asked {
    /// `sendout_figures` of this sendout up to this day.
    Figures(AccountId, SendoutId, Date),
    /// `result_tallies` of the tree of this survey with this filter.
    Tallies(AccountId, SurveyId, AnswerFilter),
}

/// The fake.
#[derive(Debug, Default)]
pub struct Insight {
    pub surveys: Surveys,
    /// Sendouts by account and survey.
    pub sendouts: Vec<(AccountId, SurveyId, SendoutId)>,
    /// What `sendout_figures` answers.
    pub figures: SendoutFigures,
    /// What `result_tallies` answers.
    pub tallies: ResultTallies,
    /// The insight reads, in order.
    pub asked: Vec<Asked>,
}

impl HoldsSurveys for Insight {
    fn surveys(&mut self) -> &mut Surveys {
        &mut self.surveys
    }
}

impl InsightRepository for Insight {
    fn sendout_figures(&mut self, account: AccountId, sendout: SendoutId, today: Date) -> RepoResult<SendoutFigures> {
        self.asked.push(Asked::Figures(account, sendout, today));
        Ok(self.figures.clone())
    }

    fn result_tallies(
        &mut self,
        account: AccountId,
        tree: &QuestionTree,
        filter: &AnswerFilter,
    ) -> RepoResult<ResultTallies> {
        self.asked.push(Asked::Tallies(account, tree.survey_id, *filter));
        Ok(self.tallies.clone())
    }
}

impl SendoutRepository for Insight {
    fn sendout_kind(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        id: SendoutId,
    ) -> RepoResult<Option<DispatchType>> {
        let held = self.sendouts.contains(&(account, survey, id));
        Ok(held.then_some(DispatchType::Email))
    }

    super::not_kept! {
        fn insert_sendout(&mut self, account: AccountId, survey: SurveyId, draft: &SendoutDraft, now: OffsetDateTime) -> RepoResult<Sendout>;
        fn list_sendouts(&mut self, account: AccountId, survey: SurveyId) -> RepoResult<Option<Vec<Sendout>>>;
        fn find_sendout(&mut self, account: AccountId, survey: SurveyId, id: SendoutId, lock: bool) -> RepoResult<Option<Sendout>>;
        fn apply_transition(&mut self, account: AccountId, id: SendoutId, transition: Transition, now: OffsetDateTime) -> RepoResult<()>;
        fn copy_sendouts(&mut self, account: AccountId, from: SurveyId, to: SurveyId, ids: &[SendoutId], now: OffsetDateTime) -> RepoResult<()>;
        fn insert_label(&mut self, account: AccountId, sendout: SendoutId, draft: &LabelDraft, now: OffsetDateTime) -> RepoResult<Label>;
        fn list_labels(&mut self, account: AccountId, sendout: SendoutId) -> RepoResult<Vec<Label>>;
        fn background_label_ids(&mut self, account: AccountId) -> RepoResult<Vec<LabelId>>;
        fn insert_reminder(&mut self, account: AccountId, sendout: SendoutId, draft: &ReminderDraft, now: OffsetDateTime) -> RepoResult<Reminder>;
        fn list_reminders(&mut self, account: AccountId, sendout: SendoutId) -> RepoResult<Vec<Reminder>>;
        fn list_documents(&mut self, account: AccountId) -> RepoResult<Vec<BgDocument>>;
        fn find_document(&mut self, account: AccountId, id: BgDocumentId) -> RepoResult<Option<BgDocument>>;
    }
}
