//! The insight port on PostgreSQL: a sendout's statistics and a survey's results, each a few set-based statements
//! that aggregate in the database (routed to the account's shard: every table is pinned to `account_id = $1`) and
//! return a handful of rows, whatever the number of respondents or answer sets.

mod results;
mod statistics;

use canvass_domain::answer::AnswerFilter;
use canvass_domain::ids::{AccountId, SendoutId};
use canvass_domain::insight::{ResultTallies, SendoutFigures, WordTally};
use canvass_domain::ports::{InsightRepository, RepoResult};
use canvass_domain::survey::QuestionTree;
use time::Date;

use crate::error::OrRepoError;
use crate::PgUnitOfWork;

impl InsightRepository for PgUnitOfWork<'_> {
    /// Three statements: respondents by status, the funnel with its median, the daily series (see [`statistics`]).
    fn sendout_figures(&mut self, account: AccountId, sendout: SendoutId, today: Date) -> RepoResult<SendoutFigures> {
        statistics::figures(self.conn, account, sendout, today).or_repo()
    }

    /// At most three statements: the matching sets' count, per-item tallies, per-value counts (see [`results`]).
    fn result_tallies(
        &mut self,
        account: AccountId,
        tree: &QuestionTree,
        filter: &AnswerFilter,
    ) -> RepoResult<ResultTallies> {
        results::tallies(self.conn, account, tree, filter).or_repo()
    }

    /// One statement (see [`results`]).
    fn word_tallies(
        &mut self,
        account: AccountId,
        tree: &QuestionTree,
        filter: &AnswerFilter,
        stop_words: &[String],
    ) -> RepoResult<Vec<WordTally>> {
        results::words(self.conn, account, tree, filter, stop_words).or_repo()
    }
}
