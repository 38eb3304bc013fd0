//! A fake of the governance and retention ports for the retention engine: accounts with rules and policies,
//! respondents by sendout and when they were added, and answer sets and open-text answers counted by survey.

use time::OffsetDateTime;

use super::Snapshots;
use crate::governance::{AccountPolicy, FrequencySetting, RetentionAction, RetentionRule, RuleScope, SurveyPolicy};
use crate::ids::{AccountId, LabelId, SendoutId, SurveyId};
use crate::ports::{GovernanceRepository, RepoResult, RetentionRepository};
use crate::RepoError;

/// A respondent as the engine sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Held {
    pub account: AccountId,
    pub survey: SurveyId,
    pub sendout: SendoutId,
    pub added_at: OffsetDateTime,
    /// Contact details still held (a partial delete erases them).
    pub contact: bool,
}

/// A survey as the engine sees it.
#[derive(Debug, Clone)]
pub struct HeldSurvey {
    pub account: AccountId,
    pub id: SurveyId,
    pub end: OffsetDateTime,
    pub policy: Option<SurveyPolicy>,
    pub answer_sets: u64,
    pub open_text: u64,
}

/// What the fake holds; cloned for each transaction.
#[derive(Debug, Clone, Default)]
pub struct State {
    pub rules: Vec<(AccountId, RetentionRule)>,
    pub account_policies: Vec<(AccountId, AccountPolicy)>,
    pub surveys: Vec<HeldSurvey>,
    pub respondents: Vec<Held>,
    /// Whether another run holds the engine's lock.
    pub locked_elsewhere: bool,
    /// Whether this run holds it.
    pub locked: bool,
    /// An account whose reads fail (a broken row, say).
    pub failing: Option<AccountId>,
    /// Removal batches, as (step, rows).
    pub batches: Vec<(&'static str, u64)>,
}

/// The fake: its state and its transactions.
#[derive(Debug, Default)]
pub struct Retention {
    pub state: State,
    pub transactions: Snapshots<State>,
}

impl Retention {
    fn check(&self, account: AccountId) -> RepoResult<()> {
        match self.state.failing {
            Some(failing) if failing == account => Err(RepoError::Other("a broken row".into())),
            _ => Ok(()),
        }
    }

    /// Takes (or only counts) at most `limit` of a survey's counted rows, which `rows` picks.
    fn count_down(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        limit: i64,
        dry_run: bool,
        rows: fn(&mut HeldSurvey) -> &mut u64,
    ) -> u64 {
        let Some(row) = self.state.surveys.iter_mut().find(|s| s.account == account && s.id == survey) else {
            return 0;
        };
        let held = rows(row);
        let count = (*held).min(u64::try_from(limit).unwrap_or(0));
        if !dry_run {
            *held -= count;
        }
        count
    }

    /// Removes (or only counts) at most `limit` respondents that `pick` selects; returns how many.
    fn take(&mut self, step: &'static str, limit: i64, dry_run: bool, pick: impl Fn(&Held) -> bool) -> u64 {
        let limit = usize::try_from(limit).unwrap_or(0);
        let chosen: Vec<usize> =
            self.state.respondents.iter().enumerate().filter(|(_, r)| pick(r)).map(|(i, _)| i).collect();
        let count = if dry_run { chosen.len() } else { chosen.len().min(limit) };
        if !dry_run {
            for index in chosen.into_iter().take(count).rev() {
                self.state.respondents.remove(index);
            }
        }
        self.state.batches.push((step, count as u64));
        count as u64
    }
}

super::snapshot_transactions!(Retention);
impl GovernanceRepository for Retention {
    fn list_rules(&mut self, account: AccountId) -> RepoResult<Vec<RetentionRule>> {
        self.check(account)?;
        Ok(self.state.rules.iter().filter(|(a, _)| *a == account).map(|(_, rule)| *rule).collect())
    }

    fn account_policy(&mut self, account: AccountId) -> RepoResult<Option<AccountPolicy>> {
        Ok(self.state.account_policies.iter().find(|(a, _)| *a == account).map(|(_, policy)| *policy))
    }

    super::not_kept! {
        fn find_frequency(&mut self, account: AccountId, survey: Option<SurveyId>) -> RepoResult<Option<FrequencySetting>>;
        fn save_frequency(&mut self, account: AccountId, setting: &FrequencySetting) -> RepoResult<()>;
        fn save_rule(&mut self, account: AccountId, rule: &RetentionRule, now: OffsetDateTime) -> RepoResult<()>;
        fn delete_rule(&mut self, account: AccountId, scope: RuleScope, action: RetentionAction) -> RepoResult<bool>;
        fn save_account_policy(&mut self, account: AccountId, policy: &AccountPolicy, now: OffsetDateTime) -> RepoResult<()>;
        fn survey_policy(&mut self, account: AccountId, survey: SurveyId) -> RepoResult<Option<SurveyPolicy>>;
        fn save_survey_policy(&mut self, account: AccountId, survey: SurveyId, policy: &SurveyPolicy, now: OffsetDateTime) -> RepoResult<()>;
        fn label_functions(&mut self, account: AccountId, labels: &[LabelId]) -> RepoResult<Vec<(LabelId, i16)>>;
    }
}

impl RetentionRepository for Retention {
    fn lock_retention(&mut self, _wait: bool) -> RepoResult<bool> {
        if self.state.locked_elsewhere {
            return Ok(false);
        }
        self.state.locked = true;
        Ok(true)
    }

    fn unlock_retention(&mut self) -> RepoResult<()> {
        self.state.locked = false;
        Ok(())
    }

    fn accounts_with_retention(&mut self) -> RepoResult<Vec<AccountId>> {
        let mut accounts: Vec<AccountId> = self.state.rules.iter().map(|(a, _)| *a).collect();
        accounts.extend(self.state.account_policies.iter().map(|(a, _)| *a));
        accounts.extend(self.state.surveys.iter().filter(|s| s.policy.is_some()).map(|s| s.account));
        accounts.sort_by_key(|a| a.get());
        accounts.dedup();
        Ok(accounts)
    }

    fn sendouts_of_account(&mut self, account: AccountId) -> RepoResult<Vec<(SurveyId, SendoutId)>> {
        let mut pairs: Vec<(SurveyId, SendoutId)> =
            self.state.respondents.iter().filter(|r| r.account == account).map(|r| (r.survey, r.sendout)).collect();
        pairs.sort_unstable();
        pairs.dedup();
        Ok(pairs)
    }

    fn remove_respondents(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        added_before: OffsetDateTime,
        limit: i64,
        dry_run: bool,
    ) -> RepoResult<u64> {
        Ok(self.take("respondents", limit, dry_run, |r| {
            r.account == account && r.sendout == sendout && r.added_at < added_before
        }))
    }

    fn surveys_for_policies(
        &mut self,
        account: AccountId,
    ) -> RepoResult<Vec<(SurveyId, OffsetDateTime, Option<SurveyPolicy>)>> {
        self.check(account)?;
        let ours = self.state.surveys.iter().filter(|s| s.account == account);
        Ok(ours.map(|s| (s.id, s.end, s.policy.clone())).collect())
    }

    fn erase_respondents(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        kept_labels: &[LabelId],
        limit: i64,
        dry_run: bool,
    ) -> RepoResult<u64> {
        let _ = kept_labels;
        let erased =
            self.state.respondents.iter_mut().filter(|r| r.account == account && r.survey == survey && r.contact);
        let mut count = 0;
        for respondent in erased.take(usize::try_from(limit).unwrap_or(0)) {
            respondent.contact = dry_run;
            count += 1;
        }
        self.state.batches.push(("erase", count));
        Ok(count)
    }

    fn remove_open_text(&mut self, account: AccountId, survey: SurveyId, limit: i64, dry_run: bool) -> RepoResult<u64> {
        Ok(self.count_down(account, survey, limit, dry_run, |s| &mut s.open_text))
    }

    fn remove_answer_sets(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        limit: i64,
        dry_run: bool,
    ) -> RepoResult<u64> {
        Ok(self.count_down(account, survey, limit, dry_run, |s| &mut s.answer_sets))
    }

    fn remove_survey_respondents(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        limit: i64,
        dry_run: bool,
    ) -> RepoResult<u64> {
        Ok(self.take("survey respondents", limit, dry_run, |r| r.account == account && r.survey == survey))
    }
}
