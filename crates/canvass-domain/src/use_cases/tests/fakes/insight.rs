//! A fake of the insight port: surveys and sendouts of any account, and the figures and tallies the store would
//! compute, given by the test. It records what each insight read was asked, so a test sees the day and filter the
//! use case passed.

use time::Date;

use crate::answer::AnswerFilter;
use crate::ids::{AccountId, SendoutId, SurveyId};
use crate::insight::{ResultTallies, SendoutFigures};
use crate::ports::{InsightRepository, RepoResult};
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

super::sendouts_by_id!(Insight);
