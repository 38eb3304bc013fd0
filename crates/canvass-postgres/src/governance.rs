//! Frequency settings, retention rules and retention policies on PostgreSQL.

mod erasure;
mod person;
mod receipts;
mod retention;
mod runs;

use canvass_domain::governance::{
    AccountPolicy, FrequencyLimits, FrequencySetting, RetentionAction, RetentionRule, RuleScope, RuleStatus, ScopeKind,
    SurveyPolicy,
};
use canvass_domain::ids::{AccountId, LabelId, SendoutId, SurveyId};
use canvass_domain::ports::{GovernanceRepository, RepoResult};
use canvass_domain::RepoError;
use diesel::prelude::*;
use diesel::upsert::excluded;
use time::{Date, OffsetDateTime};

use crate::error::OrRepoError;
use crate::keys::keys;
use crate::named::Named;
use crate::schema::{
    account_frequency_settings as account_frequency, account_retention_policies as account_policies, bg_labels,
    retention_rules as rules, survey_frequency_settings as survey_frequency,
    survey_retention_policies as survey_policies,
};
use crate::PgUnitOfWork;

fn setting(survey_id: Option<SurveyId>, enabled: bool, days: i16, max: i16) -> RepoResult<FrequencySetting> {
    let limits = FrequencyLimits::new(days.into(), max.into())
        .map_err(|_| RepoError::Other(format!("stored frequency limits {days}/{max} are out of range").into()))?;
    Ok(FrequencySetting { survey_id, enabled, limits })
}

type RuleRow = (Named<ScopeKind>, i64, i64, Named<RetentionAction>, i32, Named<RuleStatus>);

fn rule_of((scope, survey, sendout, action, retention_days, status): RuleRow) -> RepoResult<RetentionRule> {
    let scope = RuleScope::of(scope.0, SurveyId::new(survey), SendoutId::new(sendout));
    RetentionRule::new(scope, action.0, retention_days.into(), status.0)
        .map_err(|_| RepoError::Other(format!("stored retention days {retention_days} are out of range").into()))
}

/// A scope's key columns: survey and sendout ids, 0 where the scope has none.
fn scope_key(scope: RuleScope) -> (&'static str, i64, i64) {
    (scope.name(), scope.survey_id().map_or(0, SurveyId::get), scope.sendout_id().map_or(0, SendoutId::get))
}

type SurveyPolicyRow = (Option<Date>, Option<Date>, Option<i32>, Option<i32>, bool, Vec<i64>);

pub(crate) fn survey_policy_of(row: SurveyPolicyRow) -> SurveyPolicy {
    let (partial_delete_date, complete_delete_date, partial_days, complete_days, exclude, labels) = row;
    SurveyPolicy {
        partial_delete_date,
        complete_delete_date,
        respondent_partial_delete_after_days: partial_days,
        respondent_complete_delete_after_days: complete_days,
        exclude_from_retention_policies: exclude,
        excluded_bg_data_label_ids: labels.into_iter().map(LabelId::new).collect(),
    }
}

pub(crate) const SURVEY_POLICY: (
    survey_policies::partial_delete_date,
    survey_policies::complete_delete_date,
    survey_policies::respondent_partial_days,
    survey_policies::respondent_complete_days,
    survey_policies::exclude_from_policies,
    survey_policies::excluded_label_ids,
) = (
    survey_policies::partial_delete_date,
    survey_policies::complete_delete_date,
    survey_policies::respondent_partial_days,
    survey_policies::respondent_complete_days,
    survey_policies::exclude_from_policies,
    survey_policies::excluded_label_ids,
);

impl GovernanceRepository for PgUnitOfWork<'_> {
    fn find_frequency(&mut self, account: AccountId, survey: Option<SurveyId>) -> RepoResult<Option<FrequencySetting>> {
        let row: Option<(bool, i16, i16)> = match survey {
            None => account_frequency::table
                .filter(account_frequency::account_id.eq(account.get()))
                .select((account_frequency::enabled, account_frequency::number_of_days, account_frequency::max_surveys))
                .first(self.conn)
                .optional()
                .or_repo()?,
            Some(survey) => survey_frequency::table
                .filter(
                    survey_frequency::account_id.eq(account.get()).and(survey_frequency::survey_id.eq(survey.get())),
                )
                .select((survey_frequency::enabled, survey_frequency::number_of_days, survey_frequency::max_surveys))
                .first(self.conn)
                .optional()
                .or_repo()?,
        };
        row.map(|(enabled, days, max)| setting(survey, enabled, days, max)).transpose()
    }

    fn save_frequency(&mut self, account: AccountId, s: &FrequencySetting) -> RepoResult<()> {
        let (days, max) = (s.limits.number_of_days(), s.limits.max_surveys());
        match s.survey_id {
            None => diesel::insert_into(account_frequency::table)
                .values((
                    account_frequency::account_id.eq(account.get()),
                    account_frequency::enabled.eq(s.enabled),
                    account_frequency::number_of_days.eq(days),
                    account_frequency::max_surveys.eq(max),
                ))
                .on_conflict(account_frequency::account_id)
                .do_update()
                .set((
                    account_frequency::enabled.eq(excluded(account_frequency::enabled)),
                    account_frequency::number_of_days.eq(excluded(account_frequency::number_of_days)),
                    account_frequency::max_surveys.eq(excluded(account_frequency::max_surveys)),
                ))
                .execute(self.conn),
            Some(survey) => diesel::insert_into(survey_frequency::table)
                .values((
                    survey_frequency::account_id.eq(account.get()),
                    survey_frequency::survey_id.eq(survey.get()),
                    survey_frequency::enabled.eq(s.enabled),
                    survey_frequency::number_of_days.eq(days),
                    survey_frequency::max_surveys.eq(max),
                ))
                .on_conflict((survey_frequency::account_id, survey_frequency::survey_id))
                .do_update()
                .set((
                    survey_frequency::enabled.eq(excluded(survey_frequency::enabled)),
                    survey_frequency::number_of_days.eq(excluded(survey_frequency::number_of_days)),
                    survey_frequency::max_surveys.eq(excluded(survey_frequency::max_surveys)),
                ))
                .execute(self.conn),
        }
        .or_repo()?;
        Ok(())
    }

    fn list_rules(&mut self, account: AccountId) -> RepoResult<Vec<RetentionRule>> {
        let rows: Vec<RuleRow> = rules::table
            .filter(rules::account_id.eq(account.get()))
            .order(rules::created_order)
            .select((
                rules::scope,
                rules::survey_id,
                rules::sendout_id,
                rules::action,
                rules::retention_days,
                rules::status,
            ))
            .load(self.conn)
            .or_repo()?;
        rows.into_iter().map(rule_of).collect()
    }

    fn save_rule(&mut self, account: AccountId, rule: &RetentionRule, now: OffsetDateTime) -> RepoResult<()> {
        let (scope, survey, sendout) = scope_key(rule.scope());
        diesel::insert_into(rules::table)
            .values((
                rules::account_id.eq(account.get()),
                rules::scope.eq(scope),
                rules::survey_id.eq(survey),
                rules::sendout_id.eq(sendout),
                rules::action.eq(rule.action().as_str()),
                rules::retention_days.eq(rule.retention_days()),
                rules::status.eq(rule.status().as_str()),
                rules::updated_at.eq(now),
            ))
            .on_conflict((rules::account_id, rules::scope, rules::survey_id, rules::sendout_id, rules::action))
            .do_update()
            .set((
                rules::retention_days.eq(excluded(rules::retention_days)),
                rules::status.eq(excluded(rules::status)),
                rules::updated_at.eq(excluded(rules::updated_at)),
            ))
            .execute(self.conn)
            .or_repo()?;
        Ok(())
    }

    fn delete_rule(&mut self, account: AccountId, scope: RuleScope, action: RetentionAction) -> RepoResult<bool> {
        let (scope, survey, sendout) = scope_key(scope);
        let deleted = diesel::delete(rules::table)
            .filter(
                rules::account_id
                    .eq(account.get())
                    .and(rules::scope.eq(scope))
                    .and(rules::survey_id.eq(survey))
                    .and(rules::sendout_id.eq(sendout))
                    .and(rules::action.eq(action.as_str())),
            )
            .execute(self.conn)
            .or_repo()?;
        Ok(deleted > 0)
    }

    fn account_policy(&mut self, account: AccountId) -> RepoResult<Option<AccountPolicy>> {
        let row: Option<(Option<i32>, Option<i32>, bool)> = account_policies::table
            .filter(account_policies::account_id.eq(account.get()))
            .select((
                account_policies::partial_delete_after_days,
                account_policies::complete_delete_after_days,
                account_policies::include_open_text,
            ))
            .first(self.conn)
            .optional()
            .or_repo()?;
        Ok(row.map(|(partial, complete, open_text)| AccountPolicy {
            partial_delete_after_days: partial,
            complete_delete_after_days: complete,
            include_open_text_in_partial_delete: open_text,
        }))
    }

    fn save_account_policy(
        &mut self,
        account: AccountId,
        policy: &AccountPolicy,
        now: OffsetDateTime,
    ) -> RepoResult<()> {
        diesel::insert_into(account_policies::table)
            .values((
                account_policies::account_id.eq(account.get()),
                account_policies::partial_delete_after_days.eq(policy.partial_delete_after_days),
                account_policies::complete_delete_after_days.eq(policy.complete_delete_after_days),
                account_policies::include_open_text.eq(policy.include_open_text_in_partial_delete),
                account_policies::updated_at.eq(now),
            ))
            .on_conflict(account_policies::account_id)
            .do_update()
            .set((
                account_policies::partial_delete_after_days.eq(excluded(account_policies::partial_delete_after_days)),
                account_policies::complete_delete_after_days.eq(excluded(account_policies::complete_delete_after_days)),
                account_policies::include_open_text.eq(excluded(account_policies::include_open_text)),
                account_policies::updated_at.eq(excluded(account_policies::updated_at)),
            ))
            .execute(self.conn)
            .or_repo()?;
        Ok(())
    }

    fn survey_policy(&mut self, account: AccountId, survey: SurveyId) -> RepoResult<Option<SurveyPolicy>> {
        let row: Option<SurveyPolicyRow> = survey_policies::table
            .filter(survey_policies::account_id.eq(account.get()).and(survey_policies::survey_id.eq(survey.get())))
            .select(SURVEY_POLICY)
            .first(self.conn)
            .optional()
            .or_repo()?;
        Ok(row.map(survey_policy_of))
    }

    fn save_survey_policy(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        policy: &SurveyPolicy,
        now: OffsetDateTime,
    ) -> RepoResult<()> {
        diesel::insert_into(survey_policies::table)
            .values((
                survey_policies::account_id.eq(account.get()),
                survey_policies::survey_id.eq(survey.get()),
                survey_policies::partial_delete_date.eq(policy.partial_delete_date),
                survey_policies::complete_delete_date.eq(policy.complete_delete_date),
                survey_policies::respondent_partial_days.eq(policy.respondent_partial_delete_after_days),
                survey_policies::respondent_complete_days.eq(policy.respondent_complete_delete_after_days),
                survey_policies::exclude_from_policies.eq(policy.exclude_from_retention_policies),
                survey_policies::excluded_label_ids.eq(keys(&policy.excluded_bg_data_label_ids)),
                survey_policies::updated_at.eq(now),
            ))
            .on_conflict((survey_policies::account_id, survey_policies::survey_id))
            .do_update()
            .set((
                survey_policies::partial_delete_date.eq(excluded(survey_policies::partial_delete_date)),
                survey_policies::complete_delete_date.eq(excluded(survey_policies::complete_delete_date)),
                survey_policies::respondent_partial_days.eq(excluded(survey_policies::respondent_partial_days)),
                survey_policies::respondent_complete_days.eq(excluded(survey_policies::respondent_complete_days)),
                survey_policies::exclude_from_policies.eq(excluded(survey_policies::exclude_from_policies)),
                survey_policies::excluded_label_ids.eq(excluded(survey_policies::excluded_label_ids)),
                survey_policies::updated_at.eq(excluded(survey_policies::updated_at)),
            ))
            .execute(self.conn)
            .or_repo()?;
        Ok(())
    }

    fn label_functions(&mut self, account: AccountId, labels: &[LabelId]) -> RepoResult<Vec<(LabelId, i16)>> {
        let rows: Vec<(i64, i16)> = bg_labels::table
            .filter(bg_labels::account_id.eq(account.get()).and(bg_labels::id.eq_any(keys(labels))))
            .select((bg_labels::id, bg_labels::function))
            .load(self.conn)
            .or_repo()?;
        Ok(rows.into_iter().map(|(id, function)| (LabelId::new(id), function)).collect())
    }
}
