//! Timelines in memory: the events the memory store's own changes record (as the adapter's statements write
//! them), read per respondent and per contact.

use time::OffsetDateTime;

use super::{Memory, State};
use crate::distribution::ports::TimelineRepository;
use crate::distribution::{EventKind, RespondentEvent, MAX_CONTACT_EVENTS};
use crate::ids::{AccountId, ContactId, RespondentId, SendoutId};
use crate::ports::RepoResult;

impl State {
    /// Records an event of a respondent of the account.
    pub(super) fn record_event(
        &mut self,
        account: AccountId,
        (sendout, respondent): (SendoutId, RespondentId),
        at: OffsetDateTime,
        kind: EventKind,
        detail: Option<serde_json::Value>,
    ) {
        self.timeline.push((account, RespondentEvent { sendout, respondent, at, kind, detail }));
    }
}

impl TimelineRepository for Memory {
    fn respondent_events(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        respondent: RespondentId,
    ) -> RepoResult<Vec<RespondentEvent>> {
        let theirs = |(owner, event): &&(AccountId, RespondentEvent)| {
            *owner == account && event.sendout == sendout && event.respondent == respondent
        };
        Ok(self.state.timeline.iter().filter(theirs).map(|(_, event)| event.clone()).collect())
    }

    fn record_event(
        &mut self,
        account: AccountId,
        respondent: RespondentId,
        at: OffsetDateTime,
        kind: EventKind,
        detail: Option<serde_json::Value>,
    ) -> RepoResult<()> {
        let Some(sendout) = self.state.respondent(account, respondent).map(|held| held.row.sendout_id) else {
            return Err(crate::RepoError::Concurrent("respondent_events_respondent_fkey".into()));
        };
        let seen = kind == EventKind::PageViewed
            && self.state.timeline.iter().any(|(owner, event)| {
                *owner == account && event.respondent == respondent && event.kind == kind && event.detail == detail
            });
        if !seen {
            self.state.record_event(account, (sendout, respondent), at, kind, detail);
        }
        Ok(())
    }

    fn contact_events(&mut self, account: AccountId, contact: ContactId) -> RepoResult<Vec<RespondentEvent>> {
        let made_from: Vec<RespondentId> = self
            .state
            .respondents
            .iter()
            .filter(|r| r.account_id == account && r.row.contact_id == Some(contact))
            .map(|r| r.row.id)
            .collect();
        let mut events: Vec<RespondentEvent> = self
            .state
            .timeline
            .iter()
            .filter(|(owner, event)| *owner == account && made_from.contains(&event.respondent))
            .map(|(_, event)| event.clone())
            .collect();
        events.sort_by_key(|event| event.at);
        let keep = usize::try_from(MAX_CONTACT_EVENTS).unwrap_or(usize::MAX);
        Ok(events.split_off(events.len().saturating_sub(keep)))
    }
}
