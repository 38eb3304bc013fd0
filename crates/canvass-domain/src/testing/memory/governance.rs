//! Frequency settings, retention rules and retention policies.

use time::OffsetDateTime;

use super::Memory;
use crate::governance::{AccountPolicy, FrequencySetting, RetentionAction, RetentionRule, RuleScope, SurveyPolicy};
use crate::ids::{AccountId, LabelId, SurveyId};
use crate::ports::{GovernanceRepository, RepoResult};
use crate::RepoError;

impl GovernanceRepository for Memory {
    fn find_frequency(&mut self, account: AccountId, survey: Option<SurveyId>) -> RepoResult<Option<FrequencySetting>> {
        let found = self.state.frequency.iter().find(|(owner, f)| *owner == account && f.survey_id == survey);
        Ok(found.map(|(_, setting)| *setting))
    }

    fn save_frequency(&mut self, account: AccountId, setting: &FrequencySetting) -> RepoResult<()> {
        let held = &mut self.state.frequency;
        held.retain(|(owner, f)| !(*owner == account && f.survey_id == setting.survey_id));
        held.push((account, *setting));
        Ok(())
    }

    fn list_rules(&mut self, account: AccountId) -> RepoResult<Vec<RetentionRule>> {
        if self.hooks.failing_account == Some(account) {
            return Err(RepoError::Other("a broken row".into()));
        }
        Ok(self.state.rules.iter().filter(|(owner, _)| *owner == account).map(|(_, rule)| *rule).collect())
    }

    fn save_rule(&mut self, account: AccountId, rule: &RetentionRule, now: OffsetDateTime) -> RepoResult<()> {
        let _ = now;
        let same = |(owner, r): &(AccountId, RetentionRule)| {
            *owner == account && r.scope() == rule.scope() && r.action() == rule.action()
        };
        match self.state.rules.iter_mut().find(|held| same(held)) {
            Some((_, held)) => *held = *rule,
            None => self.state.rules.push((account, *rule)),
        }
        Ok(())
    }

    fn delete_rule(&mut self, account: AccountId, scope: RuleScope, action: RetentionAction) -> RepoResult<bool> {
        let before = self.state.rules.len();
        self.state.rules.retain(|(owner, r)| !(*owner == account && r.scope() == scope && r.action() == action));
        Ok(self.state.rules.len() < before)
    }

    fn account_policy(&mut self, account: AccountId) -> RepoResult<Option<AccountPolicy>> {
        Ok(self.state.account_policies.iter().find(|(owner, _)| *owner == account).map(|(_, policy)| *policy))
    }

    fn save_account_policy(
        &mut self,
        account: AccountId,
        policy: &AccountPolicy,
        now: OffsetDateTime,
    ) -> RepoResult<()> {
        let _ = now;
        self.state.account_policies.retain(|(owner, _)| *owner != account);
        self.state.account_policies.push((account, *policy));
        Ok(())
    }

    fn survey_policy(&mut self, account: AccountId, survey: SurveyId) -> RepoResult<Option<SurveyPolicy>> {
        let found = self.state.survey_policies.iter().find(|(owner, s, _)| *owner == account && *s == survey);
        Ok(found.map(|(_, _, policy)| policy.clone()))
    }

    fn save_survey_policy(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        policy: &SurveyPolicy,
        now: OffsetDateTime,
    ) -> RepoResult<()> {
        let _ = now;
        self.state.survey_policies.retain(|(owner, s, _)| !(*owner == account && *s == survey));
        self.state.survey_policies.push((account, survey, policy.clone()));
        Ok(())
    }

    fn label_functions(&mut self, account: AccountId, labels: &[LabelId]) -> RepoResult<Vec<(LabelId, i16)>> {
        let ours = self.state.labels.iter().filter(|(owner, label)| *owner == account && labels.contains(&label.id));
        Ok(ours.map(|(_, label)| (label.id, label.function)).collect())
    }
}
