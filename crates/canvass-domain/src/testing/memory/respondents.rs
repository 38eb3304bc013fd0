//! Respondents of sendouts, and releasing a sendout's pending respondents (with their invitations).

use time::OffsetDateTime;

use super::{HeldRespondent, Memory};
use crate::chunks::ChunkRequest;
use crate::distribution::{contact_key, BackgroundData, NewRespondent, Respondent, RespondentStatus};
use crate::ids::{AccountId, LabelId, RespondentId, SendoutId, SurveyId};
use crate::ports::{ReleaseRepository, RepoResult, RespondentRepository};
use crate::RepoError;

impl RespondentRepository for Memory {
    fn existing_contact_keys(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        keys: &[String],
    ) -> RepoResult<Vec<String>> {
        let known: Vec<String> = self
            .state
            .respondents
            .iter()
            .filter(|r| r.account_id == account && r.row.sendout_id == sendout)
            .map(|r| contact_key(&r.row.contact_details))
            .collect();
        Ok(keys.iter().filter(|k| known.contains(k)).cloned().collect())
    }

    fn insert_respondents(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        rows: &[NewRespondent],
        now: OffsetDateTime,
    ) -> RepoResult<Vec<Respondent>> {
        let Some(survey) = self.state.own_sendout(account, sendout).map(|s| s.survey_id) else {
            return Err(RepoError::Concurrent("respondents_sendout_fkey".into()));
        };
        let mut added = Vec::with_capacity(rows.len());
        for new in rows {
            let taken = self.state.respondents.iter().any(|r| {
                r.account_id == account
                    && r.row.sendout_id == sendout
                    && contact_key(&r.row.contact_details) == new.contact_key()
            });
            if taken {
                continue; // ON CONFLICT DO NOTHING
            }
            let row = Respondent {
                id: RespondentId::new(self.state.next_id()),
                sendout_id: sendout,
                contact_details: new.contact_details().to_owned(),
                visitor: false,
                send_mail: new.send_mail(),
                background_data: new.background_data().clone(),
                status: RespondentStatus::Pending,
                token: new.token().to_owned(),
                added_at: now,
                sent_at: None,
                delivery: Default::default(),
                language: new.language(),
                contact_id: None,
            };
            self.state.respondents.push(HeldRespondent {
                account_id: account,
                survey_id: survey,
                row: row.clone(),
                released_at: None,
                opted_out_at: None,
            });
            self.state.record_event(account, (sendout, row.id), now, crate::distribution::EventKind::Added, None);
            added.push(row);
        }
        Ok(added)
    }

    fn invitation_of(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        respondent: RespondentId,
    ) -> RepoResult<Option<crate::delivery::Invitation>> {
        let (Some(sendout), Some(held)) =
            (self.state.own_sendout(account, sendout), self.state.respondent(account, respondent))
        else {
            return Ok(None);
        };
        if held.row.sendout_id != sendout.id {
            return Ok(None);
        }
        let shown = held.row.language.unwrap_or(sendout.language);
        let message = sendout.message.as_deref().unwrap_or_default();
        let (subject, template) =
            crate::distribution::invitation_in(&sendout.messages, shown, sendout.subject.as_deref(), message);
        Ok(Some(crate::delivery::Invitation {
            subject: subject.map(str::to_owned),
            template: template.to_owned(),
            token: held.row.token.clone(),
            personal: self.state.personal_of(account, &held.row),
        }))
    }

    fn respondents_chunk(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        request: &ChunkRequest<RespondentId>,
    ) -> RepoResult<Vec<Respondent>> {
        let after = request.after_key().copied();
        let mut found: Vec<Respondent> = self
            .state
            .respondents
            .iter()
            .filter(|r| r.account_id == account && r.row.sendout_id == sendout)
            .filter(|r| after.is_none_or(|after| r.row.id > after))
            .map(|r| self.state.with_invitation(&r.row))
            .collect();
        found.sort_by_key(|r| r.id);
        found.truncate(request.size());
        Ok(found)
    }

    fn find_respondent(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        id: RespondentId,
    ) -> RepoResult<Option<Respondent>> {
        let found = self.state.respondent(account, id).filter(|r| r.row.sendout_id == sendout);
        Ok(found.map(|r| self.state.with_invitation(&r.row)))
    }

    fn respondent_sendout(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        respondent: RespondentId,
    ) -> RepoResult<Option<SendoutId>> {
        let found = self.state.respondent(account, respondent).filter(|r| r.survey_id == survey);
        Ok(found.map(|r| r.row.sendout_id))
    }

    fn update_background_data(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        respondent: RespondentId,
        set: &BackgroundData,
        remove: &[LabelId],
    ) -> RepoResult<Option<BackgroundData>> {
        let found = self.state.respondent_mut(account, respondent).filter(|r| r.row.sendout_id == sendout);
        let Some(held) = found else { return Ok(None) };
        let data = &mut held.row.background_data;
        data.extend(set.iter().map(|(label, value)| (*label, value.clone())));
        data.retain(|label, _| !remove.contains(label));
        Ok(Some(data.clone()))
    }
}

impl ReleaseRepository for Memory {
    fn lock_pending_contacts(&mut self, account: AccountId, sendout: SendoutId) -> RepoResult<()> {
        // One unit of work at a time holds the store: there is no one to lock out, only the call to record.
        if self.state.own_sendout(account, sendout).is_some() {
            self.hooks.locked_sendouts.push(sendout);
        }
        Ok(())
    }

    fn pending_other_surveys(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        survey: SurveyId,
        since: OffsetDateTime,
    ) -> RepoResult<Vec<(RespondentId, i64)>> {
        let ours = || self.state.respondents.iter().filter(|r| r.account_id == account);
        let pending = ours().filter(|r| r.row.sendout_id == sendout && r.row.status == RespondentStatus::Pending);
        Ok(pending
            .map(|p| {
                let key = contact_key(&p.row.contact_details);
                let mut surveys: Vec<SurveyId> = ours()
                    .filter(|r| r.survey_id != survey && r.released_at.is_some_and(|at| at >= since))
                    .filter(|r| contact_key(&r.row.contact_details) == key)
                    .map(|r| r.survey_id)
                    .collect();
                surveys.sort_unstable();
                surveys.dedup();
                (p.row.id, surveys.len() as i64)
            })
            .collect())
    }

    fn release_pending(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        held_back: &[RespondentId],
        sends_messages: bool,
        now: OffsetDateTime,
    ) -> RepoResult<()> {
        let Some(row) = self.state.own_sendout(account, sendout).cloned() else { return Ok(()) };
        self.hooks.released.push((held_back.to_vec(), sends_messages));
        let blocked: Vec<String> =
            self.state.blocklist.iter().filter(|(o, ..)| *o == account).map(|(_, key, _)| key.clone()).collect();
        let mut scheduled = Vec::new();
        let pending = self.state.respondents.iter_mut().filter(|r| {
            r.account_id == account && r.row.sendout_id == sendout && r.row.status == RespondentStatus::Pending
        });
        for held in pending {
            if blocked.contains(&contact_key(&held.row.contact_details)) {
                held.row.status = RespondentStatus::Blocklisted;
            } else if held_back.contains(&held.row.id) {
                held.row.status = RespondentStatus::FrequencyLimitReached;
            } else {
                held.row.status = RespondentStatus::released(held.row.send_mail && sends_messages);
                held.released_at = Some(now);
                if held.row.status == RespondentStatus::Scheduled {
                    scheduled.push(held.row.clone());
                }
            }
        }
        for respondent in scheduled {
            self.state.write_invitation(account, &row, &respondent, now);
        }
        Ok(())
    }
}
