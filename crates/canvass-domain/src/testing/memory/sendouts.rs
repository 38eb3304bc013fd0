//! Sendouts with their counts and delivery, their labels, reminders and background data documents.

use time::OffsetDateTime;

use super::{HeldRespondent, Memory, MessageStatus, State};
use crate::distribution::{
    new_survey_link_token, BgDocument, DispatchType, Label, LabelDraft, Reminder, ReminderDraft, ReminderStatus,
    RespondentStatus, Sendout, SendoutDelivery, SendoutDraft, SendoutStatus, Transition,
};
use crate::ids::{AccountId, BgDocumentId, LabelId, ReminderId, RespondentId, SendoutId, SurveyId};
use crate::ports::{RepoResult, SendoutRepository};
use crate::RepoError;

impl State {
    /// The sendout with its counts, and (read without a lock) its delivery, as the adapter reads it.
    pub(in crate::testing) fn counted(&self, account: AccountId, sendout: &Sendout, lock: bool) -> Sendout {
        let ours = || self.respondents.iter().filter(|r| r.account_id == account && r.row.sendout_id == sendout.id);
        let mut counted = sendout.clone();
        counted.respondent_count = ours().count() as i64;
        counted.pending_count = ours().filter(|r| r.row.status == RespondentStatus::Pending).count() as i64;
        if !lock {
            let messages = self.outbox.iter().filter(|m| m.message.account_id == account);
            let mut delivery = SendoutDelivery::default();
            for held in messages.filter(|m| m.message.sendout_id == sendout.id) {
                match held.status {
                    MessageStatus::Pending if held.hold_kind.is_some() => {
                        delivery.queued += 1;
                        delivery.held += 1;
                    }
                    MessageStatus::Pending => delivery.queued += 1,
                    MessageStatus::Sent => delivery.sent += 1,
                    MessageStatus::Bounced => delivery.bounced += 1,
                    MessageStatus::Failed => delivery.failed += 1,
                    MessageStatus::Cancelled if held.last_error.as_deref() == Some("Expired") => delivery.expired += 1,
                    MessageStatus::Cancelled => {}
                }
            }
            counted.delivery = delivery;
        }
        counted
    }

    /// Copies one sendout of `from` to `to` as a Draft, with its labels and its respondents (Pending, or
    /// Blocklisted when the contact is on the blocklist) under new link tokens.
    fn copy_sendout(&mut self, account: AccountId, source: Sendout, to: SurveyId, now: OffsetDateTime) {
        let id = SendoutId::new(self.next_id());
        let copy = Sendout {
            id,
            survey_id: to,
            status: SendoutStatus::Draft,
            created_at: now,
            activated_at: None,
            delivery: Default::default(),
            delivery_issue: None,
            // A LINK sendout's copy has a handle of its own.
            open_link: source.open_link.clone().map(|link| crate::distribution::OpenLink {
                handle: crate::distribution::new_survey_link_token(account),
                ..link
            }),
            ..source.clone()
        };
        self.push_document(account, &copy);
        self.sendouts.push((account, copy));
        let labels: Vec<Label> = self
            .labels
            .iter()
            .filter(|(o, l)| *o == account && l.sendout_id == source.id)
            .map(|(_, l)| l.clone())
            .collect();
        let mut remapped: Vec<(LabelId, LabelId)> = Vec::new();
        for label in labels {
            let new = LabelId::new(self.next_id());
            remapped.push((label.id, new));
            self.labels.push((account, Label { id: new, sendout_id: id, ..label }));
        }
        let respondents: Vec<HeldRespondent> = self
            .respondents
            .iter()
            .filter(|r| r.account_id == account && r.row.sendout_id == source.id)
            .cloned()
            .collect();
        for held in respondents {
            let mut row = held.row.clone();
            row.id = RespondentId::new(self.next_id());
            row.sendout_id = id;
            row.token = new_survey_link_token(account);
            row.added_at = now;
            row.sent_at = None;
            row.delivery = Default::default();
            row.background_data = row
                .background_data
                .iter()
                .filter_map(|(label, value)| {
                    let new = remapped.iter().find(|(old, _)| old == label).map(|(_, new)| *new)?;
                    Some((new, value.clone()))
                })
                .collect();
            let key = crate::distribution::contact_key(&row.contact_details);
            row.status =
                if self.is_blocked(account, &key) { RespondentStatus::Blocklisted } else { RespondentStatus::Pending };
            self.respondents.push(HeldRespondent {
                account_id: account,
                survey_id: to,
                row,
                released_at: None,
                opted_out_at: None,
            });
        }
    }

    fn push_document(&mut self, account: AccountId, sendout: &Sendout) {
        let document = BgDocument {
            id: BgDocumentId::new(self.next_id()),
            sendout_id: sendout.id,
            survey_id: sendout.survey_id,
            name: sendout.name.clone(),
            row_count: 0,
        };
        self.documents.push((account, document));
    }

    /// The account's documents (`only` one), each with its sendout's respondent count.
    fn documents_of(&self, account: AccountId, only: Option<BgDocumentId>) -> Vec<BgDocument> {
        let ours = self.documents.iter().filter(|(owner, d)| *owner == account && only.is_none_or(|id| d.id == id));
        ours.map(|(_, document)| {
            let rows =
                self.respondents.iter().filter(|r| r.account_id == account && r.row.sendout_id == document.sendout_id);
            BgDocument { row_count: rows.count() as i64, ..document.clone() }
        })
        .collect()
    }
}

impl SendoutRepository for Memory {
    fn insert_sendout(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        draft: &SendoutDraft,
        now: OffsetDateTime,
    ) -> RepoResult<Sendout> {
        if self.state.surveys.find(account, survey).is_none() {
            // The survey's foreign key, scoped by account.
            return Err(RepoError::Concurrent("sendouts_survey_fkey".into()));
        }
        let sendout = Sendout {
            id: SendoutId::new(self.state.next_id()),
            survey_id: survey,
            name: draft.name().to_owned(),
            kind: draft.kind(),
            status: SendoutStatus::Draft,
            send_date: draft.send_date(),
            sender: draft.sender().map(str::to_owned),
            subject: draft.subject().map(str::to_owned),
            message: draft.message().map(str::to_owned),
            messages: draft.messages().clone(),
            expiry_date: draft.expiry_date(),
            created_at: now,
            activated_at: None,
            respondent_count: 0,
            pending_count: 0,
            delivery: Default::default(),
            delivery_issue: None,
            language: draft.language(),
            open_link: draft.open_link().map(|rules| rules.open_link(account)),
        };
        self.state.push_document(account, &sendout);
        self.state.sendouts.push((account, sendout.clone()));
        Ok(sendout)
    }

    fn list_sendouts(&mut self, account: AccountId, survey: SurveyId) -> RepoResult<Option<Vec<Sendout>>> {
        if self.state.surveys.find(account, survey).is_none() {
            return Ok(None);
        }
        let state = &self.state;
        let ours = state.sendouts.iter().filter(|(owner, s)| *owner == account && s.survey_id == survey);
        Ok(Some(ours.map(|(_, sendout)| state.counted(account, sendout, false)).collect()))
    }

    fn find_sendout(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        id: SendoutId,
        lock: bool,
    ) -> RepoResult<Option<Sendout>> {
        let found = self.state.sendout(account, survey, id).map(|sendout| self.state.counted(account, sendout, lock));
        if lock && found.is_some() {
            self.hooks.locked_sendouts.push(id);
        }
        Ok(found)
    }

    fn sendout_kind(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        id: SendoutId,
    ) -> RepoResult<Option<DispatchType>> {
        Ok(self.state.sendout(account, survey, id).map(|sendout| sendout.kind))
    }

    fn apply_transition(
        &mut self,
        account: AccountId,
        id: SendoutId,
        transition: Transition,
        now: OffsetDateTime,
    ) -> RepoResult<()> {
        if let Some(row) = self.state.own_sendout_mut(account, id) {
            row.status = transition.to();
            if transition.releases_pending() {
                row.activated_at = Some(now);
            }
        }
        Ok(())
    }

    fn replace_open_link_handle(&mut self, account: AccountId, id: SendoutId, handle: &str) -> RepoResult<()> {
        if let Some(link) = self.state.own_sendout_mut(account, id).and_then(|s| s.open_link.as_mut()) {
            link.handle = handle.to_owned();
        }
        Ok(())
    }

    fn copy_sendouts(
        &mut self,
        account: AccountId,
        from: SurveyId,
        to: SurveyId,
        ids: &[SendoutId],
        now: OffsetDateTime,
    ) -> RepoResult<()> {
        let sources: Vec<Sendout> =
            ids.iter().filter_map(|&id| self.state.sendout(account, from, id).cloned()).collect();
        for source in sources {
            self.state.copy_sendout(account, source, to, now);
        }
        Ok(())
    }

    fn insert_label(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        draft: &LabelDraft,
        now: OffsetDateTime,
    ) -> RepoResult<Label> {
        let _ = now;
        if self.state.own_sendout(account, sendout).is_none() {
            return Err(RepoError::Concurrent("bg_labels_sendout_fkey".into()));
        }
        // Names are unique whatever their case, as the adapter's index on lower(name) keeps them.
        let taken = self.state.labels.iter().any(|(o, l)| {
            *o == account && l.sendout_id == sendout && l.name.to_lowercase() == draft.name().to_lowercase()
        });
        if taken {
            let source = "a label of that name, whatever its case, exists already".into();
            return Err(RepoError::Duplicate { constraint: "bg_labels_name_nocase_key".into(), source });
        }
        let label = Label {
            id: LabelId::new(self.state.next_id()),
            sendout_id: sendout,
            name: draft.name().to_owned(),
            label_type: draft.label_type(),
            function: crate::distribution::BACKGROUND_FUNCTION,
        };
        self.state.labels.push((account, label.clone()));
        Ok(label)
    }

    fn list_labels(&mut self, account: AccountId, sendout: SendoutId) -> RepoResult<Vec<Label>> {
        let ours = self.state.labels.iter().filter(|(owner, l)| *owner == account && l.sendout_id == sendout);
        Ok(ours.map(|(_, label)| label.clone()).collect())
    }

    fn background_label_ids(&mut self, account: AccountId) -> RepoResult<Vec<LabelId>> {
        let background = |l: &crate::distribution::Label| l.function == crate::distribution::BACKGROUND_FUNCTION;
        let ours = self.state.labels.iter().filter(|(owner, l)| *owner == account && background(l));
        Ok(ours.map(|(_, label)| label.id).collect())
    }

    fn insert_reminder(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        draft: &ReminderDraft,
        now: OffsetDateTime,
    ) -> RepoResult<Reminder> {
        if self.state.own_sendout(account, sendout).is_none() {
            return Err(RepoError::Concurrent("reminders_sendout_fkey".into()));
        }
        let reminder = Reminder {
            id: ReminderId::new(self.state.next_id()),
            sendout_id: sendout,
            sendout_logic: draft.sendout_logic(),
            send_date: draft.send_date(),
            sender: draft.sender().to_owned(),
            subject: draft.subject().map(str::to_owned),
            message: draft.message().to_owned(),
            messages: draft.messages().clone(),
            status: ReminderStatus::Scheduled,
            created_at: now,
        };
        self.state.reminders.push((account, reminder.clone()));
        Ok(reminder)
    }

    fn list_reminders(&mut self, account: AccountId, sendout: SendoutId) -> RepoResult<Vec<Reminder>> {
        let ours = self.state.reminders.iter().filter(|(owner, r)| *owner == account && r.sendout_id == sendout);
        Ok(ours.map(|(_, reminder)| reminder.clone()).collect())
    }

    fn list_documents(&mut self, account: AccountId) -> RepoResult<Vec<BgDocument>> {
        Ok(self.state.documents_of(account, None))
    }

    fn find_document(&mut self, account: AccountId, id: BgDocumentId) -> RepoResult<Option<BgDocument>> {
        Ok(self.state.documents_of(account, Some(id)).pop())
    }
}
