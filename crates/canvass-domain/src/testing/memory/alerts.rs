//! Survey alerts, and the alert outbox: the emails completions write, their claims and their records.

use time::OffsetDateTime;

use super::{limit_of, Memory, MessageStatus, State};
use crate::alert::{Alert, AlertEmail, AlertInput};
use crate::delivery::{ClaimedAlert, Outcome, SettledAlert};
use crate::ids::{AccountId, AlertId, SendoutId, SurveyId};
use crate::ports::{AlertRepository, RepoResult};

/// An email of the alert outbox, with where it stands.
#[derive(Debug, Clone)]
pub struct HeldAlertEmail {
    /// The email as a worker claims it (its lease `None` until it is first claimed).
    pub email: ClaimedAlert,
    /// Whether it is leased now.
    pub leased: bool,
    /// Where it stands (never `Cancelled`).
    pub status: MessageStatus,
    /// When it is due (again).
    pub due_at: OffsetDateTime,
    /// The last refusal.
    pub last_error: Option<String>,
}

impl AlertRepository for Memory {
    fn insert_alert(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        input: &AlertInput,
        now: OffsetDateTime,
    ) -> RepoResult<Alert> {
        let id = AlertId::new(self.state.next_id());
        let alert = Alert { id, survey_id: survey, input: input.clone(), created_at: now };
        self.state.alerts.push((account, alert.clone()));
        Ok(alert)
    }

    fn survey_alerts(&mut self, account: AccountId, survey: SurveyId) -> RepoResult<Vec<Alert>> {
        let ours = self.state.alerts.iter().filter(|(owner, alert)| *owner == account && alert.survey_id == survey);
        Ok(ours.map(|(_, alert)| alert.clone()).collect())
    }

    fn delete_alert(&mut self, account: AccountId, survey: SurveyId, id: AlertId) -> RepoResult<bool> {
        let before = self.state.alerts.len();
        self.state.alerts.retain(|(owner, a)| !(*owner == account && a.survey_id == survey && a.id == id));
        let gone = self.state.alerts.len() < before;
        if gone {
            self.state.alert_emails.retain(|held| !(held.email.account_id == account && held.email.alert_id == id));
        }
        Ok(gone)
    }

    fn alert_origin_names(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        sendout: Option<SendoutId>,
    ) -> RepoResult<(String, Option<String>)> {
        let survey_name = self.state.surveys.find(account, survey).map(|s| s.name.clone()).unwrap_or_default();
        let sendout_name = sendout.and_then(|id| self.state.own_sendout(account, id)).map(|s| s.name.clone());
        Ok((survey_name, sendout_name))
    }

    fn enqueue_alert_emails(
        &mut self,
        account: AccountId,
        emails: &[AlertEmail],
        now: OffsetDateTime,
    ) -> RepoResult<()> {
        for email in emails {
            let id = self.state.next_id();
            let claimed = ClaimedAlert {
                account_id: account,
                id,
                alert_id: email.alert_id,
                answer_set_id: email.answer_set_id,
                recipient: email.recipient.clone(),
                subject: email.subject.clone(),
                body: email.body.clone(),
                message_token: format!("alert{id:030}"),
                attempts: 0,
                holds: 0,
                aged: time::Duration::ZERO,
                lease_until: now,
            };
            let held = HeldAlertEmail {
                email: claimed,
                leased: false,
                status: MessageStatus::Pending,
                due_at: now,
                last_error: None,
            };
            self.state.alert_emails.push(held);
        }
        Ok(())
    }
}

impl State {
    /// Claims up to `limit` due alert emails, oldest due first, one account after another in turn.
    pub(super) fn claim_due_alerts(
        &mut self,
        now: OffsetDateTime,
        lease_until: OffsetDateTime,
        limit: i64,
    ) -> Vec<ClaimedAlert> {
        let claimable = |held: &HeldAlertEmail| {
            held.status == MessageStatus::Pending
                && held.due_at <= now
                && !(held.leased && held.email.lease_until > now)
        };
        let mut due: Vec<usize> = (0..self.alert_emails.len()).filter(|&i| claimable(&self.alert_emails[i])).collect();
        due.sort_by_key(|&i| (self.alert_emails[i].due_at, self.alert_emails[i].email.id));
        let mut accounts: Vec<AccountId> = due.iter().map(|&i| self.alert_emails[i].email.account_id).collect();
        accounts.sort_by_key(|account| account.get());
        accounts.dedup();
        let mut chosen = Vec::new();
        while chosen.len() < limit_of(limit) && !due.is_empty() {
            for account in &accounts {
                if chosen.len() >= limit_of(limit) {
                    break;
                }
                if let Some(at) = due.iter().position(|&i| self.alert_emails[i].email.account_id == *account) {
                    chosen.push(due.remove(at));
                }
            }
        }
        chosen
            .into_iter()
            .map(|i| {
                let held = &mut self.alert_emails[i];
                held.leased = true;
                held.email.lease_until = lease_until;
                held.email.attempts += 1;
                held.email.clone()
            })
            .collect()
    }

    /// Records a round's alert emails still held under their claim's lease; answers their ids.
    pub(super) fn record_alert_round(&mut self, settled: &[SettledAlert], now: OffsetDateTime) -> Vec<i64> {
        let mut recorded = Vec::new();
        for done in settled {
            let Some(held) = self.alert_emails.iter_mut().find(|held| {
                held.email.id == done.alert.id
                    && held.email.account_id == done.alert.account_id
                    && held.status == MessageStatus::Pending
                    && held.leased
                    && held.email.lease_until == done.alert.lease_until
            }) else {
                continue;
            };
            held.leased = false;
            recorded.push(held.email.id);
            let finished = |held: &mut HeldAlertEmail, status, error: Option<&String>| {
                held.status = status;
                held.last_error = error.cloned();
                held.email.body.clear();
            };
            match &done.outcome {
                Outcome::Sent(_) => finished(held, MessageStatus::Sent, None),
                Outcome::Bounced(error) => finished(held, MessageStatus::Bounced, Some(error)),
                Outcome::Failed(error) => finished(held, MessageStatus::Failed, Some(error)),
                Outcome::Cancelled(_) => finished(held, MessageStatus::Failed, None),
                Outcome::DueAgain(at, error) => {
                    held.email.aged += *at - now;
                    held.due_at = *at;
                    held.last_error = Some(error.clone());
                }
                Outcome::Held(at, hold) => {
                    held.email.attempts -= 1;
                    held.email.holds += 1;
                    held.due_at = *at;
                    held.last_error = Some(hold.reason.clone());
                }
            }
        }
        recorded
    }
}
