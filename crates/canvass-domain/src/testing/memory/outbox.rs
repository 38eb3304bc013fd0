//! The outbox (invitations, reminders and messages of their own text), its claims and rounds, and the shared pace.

use time::OffsetDateTime;

use super::{limit_of, HeldMessage, Memory, State};
use crate::delivery::{ClaimedAlert, ClaimedMessage, Outcome, Pace, Personal, Settled, SettledAlert};
use crate::distribution::{
    contact_key, invitation_in, DeliveryIssue, DispatchType, InvitationDelivery, PermanentFailure, Reminder,
    ReminderStatus, Respondent, RespondentStatus, Sendout, SendoutLogic, SendoutStatus, TokenContext,
};
use crate::ids::{AccountId, RespondentId};
use crate::ports::{
    HoldStarted, OutboxBacklog, OutboxRepository, PaceRepository, RecordedRound, RepoResult, SentLookup,
};

/// Where a message of the outbox stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MessageStatus {
    /// Waiting to be sent (or claimed and in flight).
    Pending,
    /// Handed over.
    Sent,
    /// Refused for good.
    Bounced,
    /// Given up on.
    Failed,
    /// Not to be sent: its respondent was blocklisted, bounced, or its sendout expired.
    Cancelled,
}

/// What a message is besides its respondent: an invitation, a reminder, or a text of its own.
struct Kind<'a> {
    key: String,
    reminder: Option<&'a Reminder>,
    own_text: Option<&'a str>,
}

impl State {
    /// What the respondent's personal placeholders are filled with: its contact's names and attributes, and its
    /// background data by label name.
    pub(super) fn personal_of(&self, account: AccountId, respondent: &Respondent) -> Personal {
        let contact = respondent.contact_id.and_then(|id| {
            self.contacts.iter().find(|(owner, contact)| *owner == account && contact.id == id).map(|(_, c)| c)
        });
        let background = self
            .labels
            .iter()
            .filter(|(owner, label)| *owner == account && label.sendout_id == respondent.sendout_id)
            .filter_map(|(_, label)| Some((label.name.clone(), respondent.background_data.get(&label.id)?.clone())))
            .collect();
        Personal {
            first_name: contact.and_then(|c| c.first_name.clone()),
            last_name: contact.and_then(|c| c.last_name.clone()),
            contact: contact.map(|c| c.attributes.clone()).unwrap_or_default(),
            background,
        }
    }

    /// Writes a message of the sendout to the respondent unless the account has one with its key; `false` then.
    fn write_message(
        &mut self,
        account: AccountId,
        sendout: &Sendout,
        respondent: &Respondent,
        kind: Kind<'_>,
        due_at: OffsetDateTime,
        now: OffsetDateTime,
    ) -> bool {
        if self.outbox.iter().any(|m| m.message.account_id == account && m.message.idempotency_key == kind.key) {
            return false;
        }
        let id = self.next_id();
        let shown = respondent.language.unwrap_or(sendout.language);
        let owned = |(subject, message): (Option<&str>, &str)| (subject.map(str::to_owned), message.to_owned());
        let (sender, (subject, template)) = match (kind.reminder, kind.own_text) {
            (Some(reminder), _) => (
                reminder.sender.clone(),
                owned(invitation_in(&reminder.messages, shown, reminder.subject.as_deref(), &reminder.message)),
            ),
            (None, Some(body)) => (sendout.sender.clone().unwrap_or_default(), (None, body.to_owned())),
            (None, None) => (
                sendout.sender.clone().unwrap_or_default(),
                owned(invitation_in(
                    &sendout.messages,
                    shown,
                    sendout.subject.as_deref(),
                    sendout.message.as_deref().unwrap_or_default(),
                )),
            ),
        };
        let message = ClaimedMessage {
            account_id: account,
            id,
            respondent_id: respondent.id,
            sendout_id: sendout.id,
            survey_id: sendout.survey_id,
            is_reminder: kind.reminder.is_some(),
            own_text: kind.own_text.is_some(),
            idempotency_key: kind.key,
            message_token: format!("{id:032x}"),
            attempts: 0,
            holds: 0,
            aged: time::Duration::ZERO,
            sendout_held: false,
            lease_until: None,
            channel: sendout.kind,
            recipient: respondent.contact_details.clone(),
            token: respondent.token.clone(),
            sender,
            subject,
            template,
            expiry_date: sendout.expiry_date,
            language: shown,
            blocklisted: false,
            personal: self.personal_of(account, respondent),
        };
        self.outbox.push(HeldMessage {
            message,
            status: MessageStatus::Pending,
            due_at,
            created_at: now,
            sent_at: None,
            last_error: None,
            hold_kind: None,
        });
        true
    }

    /// Queues the invitation of a respondent just released, due at the sendout's send date (now without one).
    pub(super) fn write_invitation(
        &mut self,
        account: AccountId,
        sendout: &Sendout,
        respondent: &Respondent,
        now: OffsetDateTime,
    ) {
        let key = format!("inv-{}-{}", account.get(), respondent.id.get());
        let kind = Kind { key, reminder: None, own_text: None };
        self.write_message(account, sendout, respondent, kind, sendout.send_date.unwrap_or(now), now);
    }

    /// The respondent with its invitation's delivery filled in.
    pub(super) fn with_invitation(&self, row: &Respondent) -> Respondent {
        let invitation = self.outbox.iter().find(|m| {
            m.message.respondent_id == row.id
                && m.message.sendout_id == row.sendout_id
                && !m.message.is_reminder
                && !m.message.own_text
        });
        let mut row = row.clone();
        if let Some(held) = invitation {
            let pending = held.status == MessageStatus::Pending;
            let refused =
                matches!(held.status, MessageStatus::Pending | MessageStatus::Bounced | MessageStatus::Failed);
            row.delivery = InvitationDelivery {
                attempts: held.message.attempts,
                last_error: held.last_error.clone().filter(|_| refused),
                next_attempt_at: pending.then_some(held.due_at),
            };
        }
        row
    }

    /// Whether the message's sendout is active and of a kind a worker sends.
    fn sends(&self, message: &ClaimedMessage) -> bool {
        self.own_sendout(message.account_id, message.sendout_id).is_some_and(|s| {
            s.status == SendoutStatus::Active
                && matches!(s.kind, DispatchType::Email | DispatchType::Sms | DispatchType::TwoWay)
        })
    }

    /// The respondent of an invitation moves to `status` (an invitation only: a reminder leaves it as it is).
    fn settle_respondent(&mut self, message: &ClaimedMessage, status: RespondentStatus, now: OffsetDateTime) {
        if message.is_reminder || message.own_text {
            return;
        }
        if let Some(held) = self.respondent_mut(message.account_id, message.respondent_id) {
            held.row.status = status;
            if status == RespondentStatus::Sent {
                held.row.sent_at = Some(now);
            }
        }
    }

    /// Records a bounce: the failure, the respondent Bounced, and its other queued messages Cancelled.
    fn bounce(&mut self, message: &ClaimedMessage, reason: &str, now: OffsetDateTime) {
        let domain = message.sender.rsplit('@').next().unwrap_or_default().to_lowercase();
        let failure = PermanentFailure {
            email_address: message.recipient.clone(),
            sending_domain: domain,
            failed_at: now,
            reason: reason.to_owned(),
            sendout_id: Some(message.sendout_id),
            respondent_id: Some(message.respondent_id),
        };
        self.failures.push((message.account_id, failure));
        if let Some(held) = self.respondent_mut(message.account_id, message.respondent_id) {
            held.row.status = RespondentStatus::Bounced;
        }
        let others = self.outbox.iter_mut().filter(|m| {
            m.message.account_id == message.account_id
                && m.message.respondent_id == message.respondent_id
                && m.message.id != message.id
                && m.status == MessageStatus::Pending
        });
        for other in others {
            other.status = MessageStatus::Cancelled;
            other.message.lease_until = None;
        }
    }

    /// Records one settled message (it is held under its lease); the hold it starts, if any.
    fn settle(&mut self, done: &Settled, now: OffsetDateTime) -> Option<HoldStarted> {
        let message = &done.message;
        let index = self.outbox.iter().position(|m| m.message.id == message.id)?;
        let mut started = None;
        let status = match &done.outcome {
            Outcome::Sent(_) => {
                self.settle_respondent(message, RespondentStatus::Sent, now);
                if let Some(sendout) = self.own_sendout_mut(message.account_id, message.sendout_id) {
                    sendout.delivery_issue = None;
                }
                self.outbox[index].sent_at = Some(now);
                MessageStatus::Sent
            }
            Outcome::Bounced(reason) => {
                self.bounce(message, reason, now);
                self.outbox[index].last_error = Some(reason.clone());
                MessageStatus::Bounced
            }
            Outcome::Failed(reason) => {
                self.settle_respondent(message, RespondentStatus::Failed, now);
                self.outbox[index].last_error = Some(reason.clone());
                MessageStatus::Failed
            }
            Outcome::DueAgain(at, reason) => {
                let held = &mut self.outbox[index];
                (held.due_at, held.last_error, held.hold_kind) = (*at, Some(reason.clone()), None);
                MessageStatus::Pending
            }
            Outcome::Held(at, hold) => {
                let held = &mut self.outbox[index];
                (held.due_at, held.last_error, held.hold_kind) = (*at, Some(hold.reason.clone()), Some(hold.kind));
                held.message.holds += 1;
                if let Some(sendout) = self.own_sendout_mut(message.account_id, message.sendout_id) {
                    let since = sendout.delivery_issue.as_ref().map(|issue| issue.since);
                    if since.is_none() {
                        started = Some(HoldStarted {
                            account_id: message.account_id,
                            survey_id: message.survey_id,
                            sendout_id: message.sendout_id,
                            kind: hold.kind,
                        });
                    }
                    let reply = hold.reason.clone();
                    sendout.delivery_issue =
                        Some(DeliveryIssue { kind: hold.kind.into(), reply, since: since.unwrap_or(now) });
                }
                MessageStatus::Pending
            }
            Outcome::Cancelled(status) => {
                self.settle_respondent(message, *status, now);
                self.outbox[index].last_error = Some(status.as_str().to_owned());
                MessageStatus::Cancelled
            }
        };
        let held = &mut self.outbox[index];
        held.status = status;
        held.message.lease_until = None;
        started
    }
}

impl OutboxRepository for Memory {
    fn enqueue_due_reminders(&mut self, now: OffsetDateTime) -> RepoResult<u64> {
        let state = &mut self.state;
        let due: Vec<(AccountId, Reminder)> = state
            .reminders
            .iter()
            .filter(|(_, r)| r.status == ReminderStatus::Scheduled && r.send_date <= now)
            .cloned()
            .collect();
        let mut queued = 0;
        for (account, reminder) in due {
            let Some(sendout) = state.own_sendout(account, reminder.sendout_id).cloned() else { continue };
            if sendout.status != SendoutStatus::Active {
                continue;
            }
            let answered = |state: &State, respondent: RespondentId, completed: bool| {
                state.answer_sets.iter().any(|s| {
                    s.account_id == account
                        && s.set.respondent_id == Some(respondent)
                        && (!completed || s.set.completed)
                })
            };
            let chosen: Vec<Respondent> = state
                .respondents
                .iter()
                .filter(|r| r.account_id == account && r.row.sendout_id == sendout.id)
                .filter(|r| r.row.status == RespondentStatus::Sent)
                .filter(|r| match reminder.sendout_logic {
                    SendoutLogic::All => true,
                    SendoutLogic::NotResponded => !answered(state, r.row.id, false),
                    SendoutLogic::NotCompleted => !answered(state, r.row.id, true),
                })
                .map(|r| r.row.clone())
                .collect();
            for respondent in chosen {
                let key = format!("rem-{}-{}-{}", account.get(), reminder.id.get(), respondent.id.get());
                let kind = Kind { key, reminder: Some(&reminder), own_text: None };
                queued += u64::from(state.write_message(account, &sendout, &respondent, kind, now, now));
            }
            let held = state.reminders.iter_mut().find(|(o, r)| *o == account && r.id == reminder.id);
            if let Some((_, held)) = held {
                held.status = ReminderStatus::Sent;
            }
        }
        Ok(queued)
    }

    fn claim_due(
        &mut self,
        now: OffsetDateTime,
        lease_until: OffsetDateTime,
        limit: i64,
    ) -> RepoResult<Vec<ClaimedMessage>> {
        let state = &mut self.state;
        let due: Vec<usize> = (0..state.outbox.len())
            .filter(|&i| {
                let held = &state.outbox[i];
                held.status == MessageStatus::Pending
                    && held.due_at <= now
                    && held.message.lease_until.is_none_or(|lease| lease <= now)
                    && state.sends(&held.message)
            })
            .collect();
        // Fairly among accounts: one message of each account in turn, oldest first.
        let mut accounts: Vec<AccountId> = due.iter().map(|&i| state.outbox[i].message.account_id).collect();
        accounts.dedup();
        accounts.sort_by_key(|a| a.get());
        accounts.dedup();
        let mut queues: Vec<std::collections::VecDeque<usize>> = accounts
            .iter()
            .map(|a| due.iter().copied().filter(|&i| state.outbox[i].message.account_id == *a).collect())
            .collect();
        let mut chosen = Vec::new();
        while chosen.len() < limit_of(limit) && queues.iter().any(|q| !q.is_empty()) {
            for queue in &mut queues {
                if chosen.len() < limit_of(limit) {
                    chosen.extend(queue.pop_front());
                }
            }
        }
        let mut claimed = Vec::with_capacity(chosen.len());
        for index in chosen {
            let (account, sendout) = (state.outbox[index].message.account_id, state.outbox[index].message.sendout_id);
            let issue = state.own_sendout(account, sendout).is_some_and(|s| s.delivery_issue.is_some());
            let blocked = state.is_blocked(account, &contact_key(&state.outbox[index].message.recipient));
            let held = &mut state.outbox[index];
            held.message.attempts += 1;
            held.message.lease_until = Some(lease_until);
            // A message being tried is held no longer (its outcome may hold it again), as on PostgreSQL.
            held.hold_kind = None;
            held.message.aged = now - held.created_at;
            held.message.sendout_held = issue;
            held.message.blocklisted = blocked;
            claimed.push(held.message.clone());
        }
        Ok(claimed)
    }

    fn claim_due_alerts(
        &mut self,
        now: OffsetDateTime,
        lease_until: OffsetDateTime,
        limit: i64,
    ) -> RepoResult<Vec<ClaimedAlert>> {
        Ok(self.state.claim_due_alerts(now, lease_until, limit))
    }

    fn record_alert_round(&mut self, settled: &[SettledAlert], now: OffsetDateTime) -> RepoResult<Vec<i64>> {
        Ok(self.state.record_alert_round(settled, now))
    }

    fn record_round(&mut self, settled: &[Settled], now: OffsetDateTime) -> RepoResult<RecordedRound> {
        if let (left @ 1.., Some(error)) = &mut self.hooks.failing_rounds {
            *left -= 1;
            return Err(error());
        }
        self.hooks.rounds.push(settled.to_vec());
        let state = &mut self.state;
        let held_under_lease = |state: &State, done: &Settled| {
            state.outbox.iter().any(|m| {
                m.message.id == done.message.id
                    && m.message.account_id == done.message.account_id
                    && match done.outcome {
                        // A late bounce of a message recorded as Sent.
                        Outcome::Bounced(_) if m.status == MessageStatus::Sent => true,
                        _ => m.status == MessageStatus::Pending && m.message.lease_until == done.message.lease_until,
                    }
            })
        };
        let kept: Vec<&Settled> = settled.iter().filter(|done| held_under_lease(state, done)).collect();
        let (bounces, others): (Vec<&Settled>, Vec<&Settled>) =
            kept.iter().partition(|done| matches!(done.outcome, Outcome::Bounced(_)));
        let mut round = RecordedRound::default();
        for done in others.into_iter().chain(bounces) {
            round.ids.push(done.message.id);
            if let Some(started) = state.settle(done, now) {
                if !round.holds_started.iter().any(|held| held.sendout_id == started.sendout_id) {
                    round.holds_started.push(started);
                }
            }
        }
        Ok(round)
    }

    fn find_sent_by_token(&mut self, message_token: &str) -> RepoResult<SentLookup> {
        let Some(held) = self.state.outbox.iter().find(|m| m.message.message_token == message_token) else {
            return Ok(SentLookup::Unknown);
        };
        Ok(match held.status {
            MessageStatus::Sent => SentLookup::Sent(Box::new(held.message.clone())),
            MessageStatus::Pending if held.message.attempts > 0 => SentLookup::InFlight,
            _ => SentLookup::Unknown,
        })
    }

    fn enqueue_message(
        &mut self,
        context: &TokenContext,
        key: &str,
        body: &str,
        now: OffsetDateTime,
    ) -> RepoResult<bool> {
        let account = context.account_id;
        let state = &mut self.state;
        let sendout = state.own_sendout(account, context.sendout_id).cloned();
        let respondent = state.respondent(account, context.respondent_id).map(|r| r.row.clone());
        let (Some(sendout), Some(respondent)) = (sendout, respondent) else { return Ok(false) };
        let kind = Kind { key: key.to_owned(), reminder: None, own_text: Some(body) };
        Ok(state.write_message(account, &sendout, &respondent, kind, now, now))
    }

    fn backlog(&mut self, now: OffsetDateTime) -> RepoResult<OutboxBacklog> {
        let state = &self.state;
        let waiting = state.outbox.iter().filter(|m| m.status == MessageStatus::Pending && state.sends(&m.message));
        let mut backlog = OutboxBacklog::default();
        for held in waiting {
            backlog.pending += 1;
            backlog.held += u64::from(held.hold_kind.is_some());
            if held.due_at <= now {
                backlog.oldest_due = Some(backlog.oldest_due.map_or(held.due_at, |oldest| oldest.min(held.due_at)));
            }
        }
        Ok(backlog)
    }
}

impl PaceRepository for Memory {
    fn pace(&mut self, lock: bool) -> RepoResult<Option<Pace>> {
        let _ = lock;
        Ok(self.state.pace)
    }

    fn save_pace(&mut self, pace: &Pace) -> RepoResult<()> {
        self.state.pace = Some(*pace);
        Ok(())
    }
}
