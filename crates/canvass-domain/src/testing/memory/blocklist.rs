//! The blocklist and permanent email failures.

use time::OffsetDateTime;

use super::Memory;
use crate::chunks::ChunkRequest;
use crate::distribution::{
    BlocklistEntry, BlocklistKey, BlocklistType, BounceFilter, NewPermanentFailure, PermanentFailure, RespondentStatus,
};
use crate::ids::AccountId;
use crate::paging::{Page, PageRequest};
use crate::ports::{BlocklistRepository, RepoResult};

impl BlocklistRepository for Memory {
    fn blocked_keys(&mut self, account: AccountId, keys: &[String]) -> RepoResult<Vec<String>> {
        Ok(keys.iter().filter(|key| self.state.is_blocked(account, key)).cloned().collect())
    }

    fn blocklist_chunk(
        &mut self,
        account: AccountId,
        request: &ChunkRequest<BlocklistKey>,
    ) -> RepoResult<Vec<(BlocklistKey, BlocklistEntry)>> {
        let mut found: Vec<(BlocklistKey, BlocklistEntry)> = self
            .state
            .blocklist
            .iter()
            .filter(|(owner, ..)| *owner == account)
            .map(|(_, key, entry)| {
                (BlocklistKey { created_at: entry.created_at, contact_key: key.clone() }, entry.clone())
            })
            .filter(|(key, _)| request.after_key().is_none_or(|after| key > after))
            .collect();
        found.sort_by(|a, b| a.0.cmp(&b.0));
        found.truncate(request.size());
        Ok(found)
    }

    fn insert_blocklist(
        &mut self,
        account: AccountId,
        contact_details: &str,
        contact_key: &str,
        kind: BlocklistType,
        now: OffsetDateTime,
    ) -> RepoResult<Option<BlocklistEntry>> {
        if self.state.is_blocked(account, contact_key) {
            return Ok(None); // ON CONFLICT DO NOTHING
        }
        let entry = BlocklistEntry { contact_details: contact_details.to_owned(), kind, created_at: now };
        self.state.blocklist.push((account, contact_key.to_owned(), entry.clone()));
        let not_yet_sent =
            |s| matches!(s, RespondentStatus::Pending | RespondentStatus::Scheduled | RespondentStatus::Released);
        self.state.move_contacts(account, &[contact_key], not_yet_sent, RespondentStatus::Blocklisted);
        Ok(Some(entry))
    }

    fn delete_blocklist(&mut self, account: AccountId, contact_key: &str) -> RepoResult<bool> {
        let before = self.state.blocklist.len();
        self.state.blocklist.retain(|(owner, key, _)| !(*owner == account && key == contact_key));
        Ok(self.state.blocklist.len() < before)
    }

    fn record_failures(&mut self, account: AccountId, failures: &[NewPermanentFailure]) -> RepoResult<u64> {
        let mut recorded = 0;
        for failure in failures {
            // UNIQUE (account_id, email_key, failed_at), ON CONFLICT DO NOTHING
            let known = self.state.failures.iter().any(|(owner, f)| {
                *owner == account
                    && f.email_address.to_lowercase() == failure.email_key()
                    && f.failed_at == failure.failed_at()
            });
            if known {
                continue;
            }
            self.state.failures.push((
                account,
                PermanentFailure {
                    email_address: failure.email_address().to_owned(),
                    sending_domain: failure.sending_domain().to_owned(),
                    failed_at: failure.failed_at(),
                    reason: failure.reason().to_owned(),
                    sendout_id: None,
                    respondent_id: None,
                },
            ));
            recorded += 1;
        }
        let keys: Vec<&str> = failures.iter().map(NewPermanentFailure::email_key).collect();
        let bounces = |s| !matches!(s, RespondentStatus::Blocklisted | RespondentStatus::Bounced);
        self.state.move_contacts(account, &keys, bounces, RespondentStatus::Bounced);
        Ok(recorded)
    }

    fn page_failures(
        &mut self,
        account: AccountId,
        filter: &BounceFilter,
        page: PageRequest,
    ) -> RepoResult<Page<PermanentFailure>> {
        let domain = filter.sending_domain.as_deref().map(|d| d.trim().to_lowercase());
        let mut passing: Vec<&PermanentFailure> = self
            .state
            .failures
            .iter()
            .filter(|(owner, _)| *owner == account)
            .map(|(_, failure)| failure)
            .filter(|f| domain.as_deref().is_none_or(|d| f.sending_domain == d))
            .filter(|f| filter.from.is_none_or(|from| f.failed_at >= from))
            .collect();
        // By failure time, then in the order recorded; the sort is stable.
        passing.sort_by_key(|f| f.failed_at);
        let items = passing
            .iter()
            .skip(usize::try_from(page.offset()).unwrap_or(usize::MAX))
            .take(usize::try_from(page.size()).unwrap_or(0))
            .map(|f| (*f).clone())
            .collect();
        Ok(Page { request: page, items, total_count: passing.len() as i64 })
    }
}
