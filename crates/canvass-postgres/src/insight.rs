//! The insight port on PostgreSQL: a sendout's statistics and a survey's results, each a few set-based statements
//! that aggregate in the database (routed to the account's shard: every table is pinned to `account_id = $1`) and
//! return a handful of rows, whatever the number of respondents or answer sets.

mod report;
mod results;
mod statistics;

use canvass_domain::answer::AnswerFilter;
use canvass_domain::ids::{AccountId, LabelId, QuestionItemId, SendoutId, SurveyId};
use canvass_domain::insight::{
    BinLayout, Breakdown, QuotedTexts, ResultTallies, SendoutFigures, SendoutFunnel, TallyGroup, WordTally,
};
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

    /// At most four statements: the matching sets per group, per-item tallies, shapes, per-value counts (see
    /// [`results`]).
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

    /// One statement (see [`results`]).
    fn word_tallies(
        &mut self,
        account: AccountId,
        tree: &QuestionTree,
        filter: &AnswerFilter,
        breakdown: Option<Breakdown>,
        stop_words: &[String],
    ) -> RepoResult<Vec<(TallyGroup, WordTally)>> {
        results::words(self.conn, account, tree, filter, breakdown, stop_words).or_repo()
    }

    /// One statement (see [`report`]).
    fn sendout_funnels(&mut self, account: AccountId, survey: SurveyId) -> RepoResult<Vec<SendoutFunnel>> {
        report::funnels(self.conn, account, survey).or_repo()
    }

    /// One statement (see [`report`]).
    fn numeric_bins(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        filter: &AnswerFilter,
        layouts: &[BinLayout],
    ) -> RepoResult<Vec<(QuestionItemId, u32, i64)>> {
        report::bins(self.conn, account, survey, filter, layouts).or_repo()
    }

    /// One statement (see [`report`]).
    fn quoted_texts(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        filter: &AnswerFilter,
        items: &[QuestionItemId],
        per_item: u32,
    ) -> RepoResult<Vec<QuotedTexts>> {
        report::texts(self.conn, account, survey, filter, items, per_item).or_repo()
    }
}
