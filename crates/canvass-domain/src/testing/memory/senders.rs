//! Sender numbers provisioned to accounts.

use time::OffsetDateTime;

use super::Memory;
use crate::distribution::{ProvisionedSender, SenderNumber};
use crate::ids::AccountId;
use crate::ports::{RepoResult, SenderRepository};

impl SenderRepository for Memory {
    fn provision_sender(
        &mut self,
        account: AccountId,
        number: &SenderNumber,
        now: OffsetDateTime,
    ) -> RepoResult<Option<AccountId>> {
        if !self.state.has_account(account) {
            return Ok(None);
        }
        if let Some((owner, _)) = self.state.senders.iter().find(|(_, s)| s.number == number.as_str()) {
            return Ok(Some(*owner));
        }
        self.state.senders.push((account, ProvisionedSender { number: number.as_str().to_owned(), created_at: now }));
        Ok(Some(account))
    }

    fn list_senders(&mut self, account: AccountId) -> RepoResult<Vec<ProvisionedSender>> {
        Ok(self.state.senders.iter().filter(|(owner, _)| *owner == account).map(|(_, s)| s.clone()).collect())
    }

    fn remove_sender(&mut self, account: AccountId, number: &SenderNumber) -> RepoResult<bool> {
        let before = self.state.senders.len();
        self.state.senders.retain(|(owner, s)| !(*owner == account && s.number == number.as_str()));
        Ok(self.state.senders.len() < before)
    }

    fn holds_sender(&mut self, account: AccountId, number: &str) -> RepoResult<bool> {
        Ok(self.state.senders.iter().any(|(owner, s)| *owner == account && s.number == number))
    }
}
