//! The respondent page's reads and writes on PostgreSQL: respondents by link token, answer set progress.

use canvass_domain::answer::AnswerSet;
use canvass_domain::distribution::{SendoutStatus, TokenContext};
use canvass_domain::ids::{AccountId, AnswerSetId, PageId, RespondentId, SurveyId};
use canvass_domain::ports::{AnswerRepository, RepoResult, RespondentPageRepository};
use diesel::prelude::*;
use time::OffsetDateTime;

use crate::error::OrRepoError;
use crate::schema::{answer_sets, respondents, sendouts, surveys};
use crate::PgUnitOfWork;

type TokenRow = (i64, i64, i64, i64, String, bool, String, Option<OffsetDateTime>, String, String);

impl RespondentPageRepository for PgUnitOfWork<'_> {
    fn find_by_token(&mut self, token: &str) -> RepoResult<Option<TokenContext>> {
        let row: Option<TokenRow> = respondents::table
            .inner_join(
                sendouts::table
                    .on(sendouts::account_id.eq(respondents::account_id).and(sendouts::id.eq(respondents::sendout_id))),
            )
            .inner_join(
                surveys::table
                    .on(surveys::account_id.eq(sendouts::account_id).and(surveys::id.eq(sendouts::survey_id))),
            )
            .filter(respondents::token.eq(token))
            .select((
                respondents::account_id,
                respondents::id,
                sendouts::id,
                surveys::id,
                surveys::name,
                surveys::active,
                sendouts::status,
                sendouts::expiry_date,
                respondents::contact_details,
                respondents::contact_key,
            ))
            .first(self.conn)
            .optional()
            .or_repo()?;
        Ok(row.map(
            |(
                account,
                respondent,
                sendout,
                survey,
                name,
                active,
                status,
                expiry_date,
                contact_details,
                contact_key,
            )| {
                TokenContext {
                    account_id: AccountId::new(account),
                    respondent_id: respondent,
                    sendout_id: sendout,
                    survey_id: survey,
                    survey_name: name,
                    survey_active: active,
                    sendout_active: status == SendoutStatus::Active.as_str(),
                    expiry_date,
                    contact_details,
                    contact_key,
                }
            },
        ))
    }

    fn progress(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        respondent: RespondentId,
    ) -> RepoResult<Option<(AnswerSet, Option<PageId>)>> {
        let Some(set) = self.answer_sets_of_respondent(account, survey, respondent)?.pop() else { return Ok(None) };
        let page: Option<i64> = answer_sets::table
            .filter(answer_sets::account_id.eq(account.get()).and(answer_sets::id.eq(set.id)))
            .select(answer_sets::current_page_id)
            .first(self.conn)
            .or_repo()?;
        Ok(Some((set, page)))
    }

    fn save_progress(&mut self, account: AccountId, answer_set: AnswerSetId, page: Option<PageId>) -> RepoResult<()> {
        diesel::update(answer_sets::table)
            .filter(answer_sets::account_id.eq(account.get()).and(answer_sets::id.eq(answer_set)))
            .set(answer_sets::current_page_id.eq(page))
            .execute(self.conn)
            .or_repo()?;
        Ok(())
    }
}
