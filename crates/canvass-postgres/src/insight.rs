//! The insight port on PostgreSQL: a sendout's statistics and a survey's results, each a few set-based statements
//! that aggregate in the database (routed to the account's shard: every table is pinned to `account_id = $1`) and
//! return a handful of rows, whatever the number of respondents or answer sets.

mod report;
mod results;
mod statistics;

use canvass_domain::answer::AnswerFilter;
use canvass_domain::ids::{AccountId, LabelId, SendoutId, SurveyId};
use canvass_domain::insight::ports::OpenTextVisit;
use canvass_domain::insight::{Breakdown, ResultTallies, SendoutFigures, SendoutFunnel, TallyGroup};
use canvass_domain::ports::{InsightRepository, RepoResult};
use canvass_domain::survey::QuestionTree;
use diesel::prelude::*;
use time::Date;

use crate::error::OrRepoError;
use crate::schema::{bg_labels, sendouts};
use crate::PgUnitOfWork;

impl InsightRepository for PgUnitOfWork<'_> {
    /// Three statements: respondents by status, the funnel with its median, the daily series (see [`statistics`]).
    fn sendout_figures(&mut self, account: AccountId, sendout: SendoutId, today: Date) -> RepoResult<SendoutFigures> {
        statistics::figures(self.conn, account, sendout, today).or_repo()
    }

    /// Two statements: the matching sets per group, and per group, item and value its answers (see [`results`]).
    fn result_tallies(
        &mut self,
        account: AccountId,
        tree: &QuestionTree,
        filter: &AnswerFilter,
        breakdown: Option<Breakdown>,
    ) -> RepoResult<Vec<(TallyGroup, ResultTallies)>> {
        results::tallies(self.conn, account, tree, filter, breakdown).or_repo()
    }

    /// One statement: a label of a sendout of the survey.
    fn survey_has_label(&mut self, account: AccountId, survey: SurveyId, label: LabelId) -> RepoResult<bool> {
        let sendouts = sendouts::table
            .filter(sendouts::account_id.eq(account.get()).and(sendouts::survey_id.eq(survey.get())))
            .select(sendouts::id);
        let found = bg_labels::table
            .filter(bg_labels::account_id.eq(account.get()))
            .filter(bg_labels::id.eq(label.get()))
            .filter(bg_labels::sendout_id.eq_any(sendouts));
        diesel::select(diesel::dsl::exists(found)).get_result(self.conn).or_repo()
    }

    /// One statement, read row by row (see [`results`]).
    fn open_texts(
        &mut self,
        account: AccountId,
        tree: &QuestionTree,
        filter: &AnswerFilter,
        breakdown: Option<Breakdown>,
        visit: &mut OpenTextVisit<'_>,
    ) -> RepoResult<()> {
        results::texts(self.conn, account, tree, filter, breakdown, visit).or_repo()
    }

    /// One statement (see [`report`]).
    fn sendout_funnels(&mut self, account: AccountId, survey: SurveyId) -> RepoResult<Vec<SendoutFunnel>> {
        report::funnels(self.conn, account, survey).or_repo()
    }
}
