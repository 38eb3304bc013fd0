//! The respondent page's reads and writes on PostgreSQL: respondents by link token, answer set progress.

use canvass_domain::answer::AnswerSet;
use canvass_domain::distribution::{
    DispatchType, EventKind, LinkRoute, LoginPage, OpenLinkTarget, SendoutStatus, TokenContext,
};
use canvass_domain::ids::{AccountId, AnswerSetId, PageId, RespondentId, SendoutId, SurveyId};
use canvass_domain::language::Language;
use canvass_domain::ports::{AnswerRepository, RepoResult, RespondentPageRepository};
use diesel::prelude::*;
use time::OffsetDateTime;

use crate::error::OrRepoError;
use crate::named::Named;
use crate::schema::{answer_sets, login_sendouts, outbox, respondents, sender_numbers, sendouts, surveys};
use crate::PgUnitOfWork;

type TokenRow = (
    i64,
    i64,
    i64,
    i64,
    String,
    Option<String>,
    i32,
    Named<Language>,
    Named<Language>,
    Option<Named<Language>>,
    bool,
    Named<SendoutStatus>,
    Option<OffsetDateTime>,
    String,
    String,
);

fn context_of(row: TokenRow) -> TokenContext {
    let (
        account,
        respondent,
        sendout,
        survey,
        name,
        thanks,
        tree_version,
        language,
        own,
        chosen,
        active,
        status,
        expiry,
        contact,
        key,
    ) = row;
    let (contact_details, contact_key) = (contact, key);
    TokenContext {
        account_id: AccountId::new(account),
        respondent_id: RespondentId::new(respondent),
        sendout_id: SendoutId::new(sendout),
        survey_id: SurveyId::new(survey),
        survey_name: name,
        thank_you_message: thanks,
        tree_version,
        language: language.0,
        survey_language: own.0,
        respondent_language: chosen.map(|chosen| chosen.0),
        survey_active: active,
        sendout_active: status.0 == SendoutStatus::Active,
        expiry_date: expiry,
        contact_details,
        contact_key,
    }
}

/// Respondents with their sendout and survey, as the respondent page reads them.
macro_rules! respondent_context {
    () => {
        respondents::table
            .inner_join(
                sendouts::table
                    .on(sendouts::account_id.eq(respondents::account_id).and(sendouts::id.eq(respondents::sendout_id))),
            )
            .inner_join(
                surveys::table
                    .on(surveys::account_id.eq(sendouts::account_id).and(surveys::id.eq(sendouts::survey_id))),
            )
    };
}

/// The columns of [`TokenRow`], in its order.
type ContextColumns = (
    respondents::account_id,
    respondents::id,
    sendouts::id,
    surveys::id,
    surveys::name,
    surveys::thank_you_message,
    surveys::tree_version,
    sendouts::language,
    surveys::language,
    respondents::language,
    surveys::active,
    sendouts::status,
    sendouts::expiry_date,
    respondents::contact_details,
    respondents::contact_key,
);

const CONTEXT: ContextColumns = (
    respondents::account_id,
    respondents::id,
    sendouts::id,
    surveys::id,
    surveys::name,
    surveys::thank_you_message,
    surveys::tree_version,
    sendouts::language,
    surveys::language,
    respondents::language,
    surveys::active,
    sendouts::status,
    sendouts::expiry_date,
    respondents::contact_details,
    respondents::contact_key,
);

impl PgUnitOfWork<'_> {
    /// The account of a LOGIN sendout, from the map of LOGIN sendouts (a small table, a reference table under
    /// Citus), so that what follows reads that account alone.
    fn login_sendout_account(&mut self, sendout: SendoutId) -> RepoResult<Option<i64>> {
        login_sendouts::table
            .filter(login_sendouts::sendout_id.eq(sendout.get()))
            .select(login_sendouts::account_id)
            .first(self.conn)
            .optional()
            .or_repo()
    }
}

impl RespondentPageRepository for PgUnitOfWork<'_> {
    fn find_by_token(&mut self, route: LinkRoute, token: &str) -> RepoResult<Option<TokenContext>> {
        let row: Option<TokenRow> = match route {
            // The token names its account: the whole token must match among that account's respondents.
            LinkRoute::Account(account) => respondent_context!()
                .filter(respondents::account_id.eq(account.get()).and(respondents::token.eq(token)))
                .select(CONTEXT)
                .first(self.conn),
            // A token of the old form names none: the one look-up across accounts, by `respondents_token_idx`
            // (docs/scaling.md, "Public handles").
            LinkRoute::AnyAccount => {
                respondent_context!().filter(respondents::token.eq(token)).select(CONTEXT).first(self.conn)
            }
        }
        .optional()
        .or_repo()?;
        Ok(row.map(context_of))
    }

    fn find_login(&mut self, sendout: SendoutId, contact_key: &str) -> RepoResult<Option<(String, TokenContext)>> {
        // The sendout's account first; then the respondent within that account alone.
        let Some(account) = self.login_sendout_account(sendout)? else { return Ok(None) };
        let row: Option<(String, TokenRow)> = respondent_context!()
            .filter(respondents::account_id.eq(account))
            .filter(sendouts::id.eq(sendout.get()).and(sendouts::dispatch_type.eq(DispatchType::Login.as_str())))
            .filter(respondents::sendout_id.eq(sendout.get()).and(respondents::contact_key.eq(contact_key)))
            .select((respondents::token, CONTEXT))
            .first(self.conn)
            .optional()
            .or_repo()?;
        Ok(row.map(|(token, row)| (token, context_of(row))))
    }

    fn login_page(&mut self, sendout: SendoutId) -> RepoResult<Option<LoginPage>> {
        // As `find_login`: the account first, then the sendout within that account, with its stored count.
        let Some(account) = self.login_sendout_account(sendout)? else { return Ok(None) };
        let row: Option<(Named<Language>, i64)> = sendouts::table
            .filter(sendouts::account_id.eq(account).and(sendouts::id.eq(sendout.get())))
            .select((sendouts::language, sendouts::respondent_count))
            .first(self.conn)
            .optional()
            .or_repo()?;
        Ok(row.map(|(language, count)| LoginPage { language: language.0, respondents: count.try_into().unwrap_or(0) }))
    }

    fn find_conversations(&mut self, contact_key: &str, to: &str) -> RepoResult<Vec<TokenContext>> {
        // The number's owner, through the unique key on the number (`sender_numbers` is a reference table under
        // Citus); none owns it: no conversation. Then the respondents within that account alone, through the
        // `(account_id, contact_key)` index, with the account as a bound value.
        let owner: Option<i64> = sender_numbers::table
            .filter(sender_numbers::number.eq(to))
            .select(sender_numbers::account_id)
            .first(self.conn)
            .optional()
            .or_repo()?;
        let Some(account) = owner else { return Ok(Vec::new()) };
        let last_message = outbox::table
            .filter(outbox::account_id.eq(account).and(outbox::respondent_id.eq(respondents::id)))
            .select(diesel::dsl::max(outbox::sent_at))
            .single_value();
        let rows: Vec<TokenRow> = respondent_context!()
            .filter(respondents::account_id.eq(account))
            .filter(respondents::contact_key.eq(contact_key))
            .filter(sendouts::dispatch_type.eq(DispatchType::TwoWay.as_str()))
            .filter(sendouts::sender.eq(to))
            .order((last_message.desc().nulls_last(), respondents::id.desc()))
            .select(CONTEXT)
            .load(self.conn)
            .or_repo()?;
        Ok(rows.into_iter().map(context_of).collect())
    }

    fn lock_respondent(&mut self, account: AccountId, respondent: RespondentId) -> RepoResult<()> {
        respondents::table
            .filter(respondents::account_id.eq(account.get()).and(respondents::id.eq(respondent.get())))
            .select(respondents::id)
            .for_update()
            .first::<i64>(self.conn)
            .optional()
            .or_repo()?;
        Ok(())
    }

    fn progress(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        respondent: RespondentId,
    ) -> RepoResult<Option<(AnswerSet, Option<PageId>)>> {
        let Some(set) = self.answer_sets_of_respondent(account, survey, respondent)?.pop() else { return Ok(None) };
        let page: Option<i64> = answer_sets::table
            .filter(answer_sets::account_id.eq(account.get()).and(answer_sets::id.eq(set.id.get())))
            .select(answer_sets::current_page_id)
            .first(self.conn)
            .or_repo()?;
        Ok(Some((set, page.map(PageId::new))))
    }

    fn mark_opted_out(&mut self, account: AccountId, respondent: RespondentId, now: OffsetDateTime) -> RepoResult<()> {
        let marked: Vec<i64> = diesel::update(respondents::table)
            .filter(respondents::account_id.eq(account.get()).and(respondents::id.eq(respondent.get())))
            .filter(respondents::opted_out_at.is_null())
            .set(respondents::opted_out_at.eq(now))
            .returning(respondents::id)
            .get_results(self.conn)
            .or_repo()?;
        crate::distribution::timeline::record_each(self.conn, account.get(), &marked, EventKind::OptedOut, now)
            .or_repo()
    }

    fn set_respondent_language(
        &mut self,
        account: AccountId,
        respondent: RespondentId,
        language: Language,
    ) -> RepoResult<()> {
        diesel::update(respondents::table)
            .filter(respondents::account_id.eq(account.get()).and(respondents::id.eq(respondent.get())))
            .set(respondents::language.eq(language.code()))
            .execute(self.conn)
            .or_repo()?;
        Ok(())
    }

    fn save_progress(&mut self, account: AccountId, answer_set: AnswerSetId, page: Option<PageId>) -> RepoResult<()> {
        diesel::update(answer_sets::table)
            .filter(answer_sets::account_id.eq(account.get()).and(answer_sets::id.eq(answer_set.get())))
            .set(answer_sets::current_page_id.eq(page.map(PageId::get)))
            .execute(self.conn)
            .or_repo()?;
        Ok(())
    }

    fn find_open_link(&mut self, account: AccountId, handle: &str) -> RepoResult<Option<OpenLinkTarget>> {
        super::visits::find_open_link(self.conn, account, handle).or_repo()
    }

    fn insert_visitor(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        token: &str,
        background: &canvass_domain::distribution::BackgroundData,
        now: OffsetDateTime,
    ) -> RepoResult<RespondentId> {
        super::visits::insert_visitor(self.conn, account, sendout, token, background, now).or_repo()
    }
}
