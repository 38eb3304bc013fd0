//! Survey quotas and their counts.

use time::OffsetDateTime;

use super::Memory;
use crate::ids::{AccountId, QuotaId, SurveyId};
use crate::ports::{QuotaRepository, RepoResult};
use crate::survey::{Quota, QuotaInput};

impl Memory {
    fn quota_mut(&mut self, account: AccountId, survey: SurveyId, id: QuotaId) -> Option<&mut Quota> {
        let found =
            self.state.quotas.iter_mut().find(|(owner, q)| *owner == account && q.survey_id == survey && q.id == id);
        found.map(|(_, quota)| quota)
    }
}

impl QuotaRepository for Memory {
    fn insert_quota(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        input: &QuotaInput,
        _now: OffsetDateTime,
    ) -> RepoResult<Quota> {
        let quota = Quota { id: QuotaId::new(self.state.next_id()), survey_id: survey, input: input.clone(), count: 0 };
        self.state.quotas.push((account, quota.clone()));
        Ok(quota)
    }

    fn survey_quotas(&mut self, account: AccountId, survey: SurveyId, _lock: bool) -> RepoResult<Vec<Quota>> {
        let ours = self.state.quotas.iter().filter(|(owner, quota)| *owner == account && quota.survey_id == survey);
        Ok(ours.map(|(_, quota)| quota.clone()).collect())
    }

    fn update_quota(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        id: QuotaId,
        input: &QuotaInput,
    ) -> RepoResult<()> {
        if let Some(quota) = self.quota_mut(account, survey, id) {
            quota.input = input.clone();
        }
        Ok(())
    }

    fn delete_quota(&mut self, account: AccountId, survey: SurveyId, id: QuotaId) -> RepoResult<bool> {
        let before = self.state.quotas.len();
        self.state.quotas.retain(|(owner, q)| !(*owner == account && q.survey_id == survey && q.id == id));
        Ok(self.state.quotas.len() < before)
    }

    fn count_in_quotas(&mut self, account: AccountId, survey: SurveyId, ids: &[QuotaId]) -> RepoResult<Vec<QuotaId>> {
        let mut counted = Vec::new();
        for &id in ids {
            if let Some(quota) = self.quota_mut(account, survey, id).filter(|quota| !quota.is_full()) {
                quota.count += 1;
                counted.push(id);
            }
        }
        Ok(counted)
    }

    fn uncount_quotas(&mut self, account: AccountId, survey: SurveyId, ids: &[QuotaId]) -> RepoResult<()> {
        for &id in ids {
            if let Some(quota) = self.quota_mut(account, survey, id) {
                quota.count -= 1;
            }
        }
        Ok(())
    }
}
