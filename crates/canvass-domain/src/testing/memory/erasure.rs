//! Erasing one person across an account, on request.

use super::{Memory, MessageStatus};
use crate::answer::AnswerValue;
use crate::distribution::contact_key;
use crate::governance::{
    ContactPatterns, ErasureReceipt, HeldOnPerson, NewErasureReceipt, PendingMessages, PersonRespondent, ERASED_MARK,
};
use crate::idempotency::KeyState;
use crate::ids::{AccountId, AnswerSetId, ErasureReceiptId, RespondentId};
use crate::ports::{Erased, ErasureRepository, RepoResult};

/// `text` with every quote of the contact (as `contact` finds it: in any case) replaced by [`ERASED_MARK`].
fn redact(text: &str, contact: &ContactPatterns) -> String {
    if !contact.found_in_text(text) {
        return text.to_owned();
    }
    let (lower, key) = (text.to_ascii_lowercase(), contact.key().to_ascii_lowercase());
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    while let Some(found) = lower[at..].find(&key) {
        out.push_str(&text[at..at + found]);
        out.push_str(ERASED_MARK);
        at += found + key.len();
    }
    out.push_str(&text[at..]);
    out
}

impl ErasureRepository for Memory {
    fn held_on_person(&mut self, account: AccountId, contact: &ContactPatterns) -> RepoResult<HeldOnPerson> {
        let state = &self.state;
        let theirs = |details: &str| contact_key(details) == contact.key();
        let held = |c: &crate::directory::Contact| {
            c.email.as_deref().is_some_and(theirs) || c.phone.as_deref().is_some_and(theirs)
        };
        let contacts = state.contacts.iter().filter(|(owner, c)| *owner == account && held(c)).map(|(_, c)| c.clone());
        let mine = state.respondents.iter().filter(|r| r.account_id == account && theirs(&r.row.contact_details));
        let respondents: Vec<PersonRespondent> = mine
            .map(|r| PersonRespondent {
                survey_id: r.survey_id,
                respondent: r.row.clone(),
                answer_sets: state
                    .answer_sets
                    .iter()
                    .filter(|h| h.account_id == account && h.set.respondent_id == Some(r.row.id))
                    .map(|h| h.set.clone())
                    .collect(),
                events: state
                    .timeline
                    .iter()
                    .filter(|(owner, e)| *owner == account && e.respondent == r.row.id)
                    .map(|(_, e)| e.clone())
                    .collect(),
            })
            .collect();
        let ids: Vec<RespondentId> = respondents.iter().map(|r| r.respondent.id).collect();
        let sets: Vec<AnswerSetId> = respondents.iter().flat_map(|r| r.answer_sets.iter().map(|s| s.id)).collect();
        let copied_answer_sets = state
            .answer_sets
            .iter()
            .filter(|h| h.account_id == account && h.original.is_some_and(|original| sets.contains(&original)))
            .map(|h| h.set.clone())
            .collect();
        let pending = |m: &&super::HeldMessage| {
            m.message.account_id == account
                && ids.contains(&m.message.respondent_id)
                && m.status == MessageStatus::Pending
        };
        let (reminders, invitations): (Vec<_>, Vec<_>) =
            state.outbox.iter().filter(pending).partition(|m| m.message.is_reminder);
        let alert_emails = state.alert_emails.iter().filter(|held| {
            held.email.account_id == account
                && held.status == MessageStatus::Pending
                && (sets.contains(&held.email.answer_set_id) || theirs(&held.email.recipient))
        });
        Ok(HeldOnPerson {
            contacts: contacts.collect(),
            respondents,
            copied_answer_sets,
            blocklist: state
                .blocklist
                .iter()
                .filter(|(owner, key, _)| *owner == account && key == contact.key())
                .map(|(_, _, entry)| entry.clone())
                .collect(),
            permanent_failures: state
                .failures
                .iter()
                .filter(|(owner, f)| *owner == account && theirs(&f.email_address))
                .map(|(_, f)| f.clone())
                .collect(),
            pending_messages: PendingMessages {
                invitations: invitations.len() as u64,
                reminders: reminders.len() as u64,
                alert_emails: alert_emails.count() as u64,
            },
        })
    }

    fn record_erasure(&mut self, account: AccountId, receipt: &NewErasureReceipt) -> RepoResult<ErasureReceiptId> {
        let id = ErasureReceiptId::new(self.state.erasures.len() as i64 + 1);
        self.state.erasures.push((account, ErasureReceipt { id, erasure: *receipt }));
        Ok(id)
    }

    fn find_erasure(&mut self, account: AccountId, id: ErasureReceiptId) -> RepoResult<Option<ErasureReceipt>> {
        let found = self.state.erasures.iter().find(|(owner, receipt)| *owner == account && receipt.id == id);
        Ok(found.map(|(_, receipt)| *receipt))
    }

    fn erase_contact(
        &mut self,
        account: AccountId,
        contact: &ContactPatterns,
        include_answers: bool,
    ) -> RepoResult<Erased> {
        let state = &mut self.state;
        let theirs = |details: &str| contact_key(details) == contact.key();
        let gone: Vec<RespondentId> = state
            .respondents
            .iter()
            .filter(|r| r.account_id == account && theirs(&r.row.contact_details))
            .map(|r| r.row.id)
            .collect();
        state.respondents.retain(|r| !(r.account_id == account && gone.contains(&r.row.id)));
        state.outbox.retain(|m| !(m.message.account_id == account && gone.contains(&m.message.respondent_id)));
        state.failures.retain(|(owner, f)| !(*owner == account && theirs(&f.email_address)));
        let holds = |c: &crate::directory::Contact| {
            c.email.as_deref().is_some_and(theirs) || c.phone.as_deref().is_some_and(theirs)
        };
        let erased_contacts: Vec<_> =
            state.contacts.iter().filter(|(owner, c)| *owner == account && holds(c)).map(|(_, c)| c.id).collect();
        state.contacts.retain(|(owner, c)| !(*owner == account && erased_contacts.contains(&c.id)));
        state.list_members.retain(|(owner, _, c)| !(*owner == account && erased_contacts.contains(c)));
        let answered: Vec<AnswerSetId> = state
            .answer_sets
            .iter()
            .filter(|h| h.account_id == account && h.set.respondent_id.is_some_and(|r| gone.contains(&r)))
            .map(|h| h.set.id)
            .collect();
        let reached = |h: &super::HeldAnswerSet| {
            h.account_id == account
                && (answered.contains(&h.set.id) || h.original.is_some_and(|original| answered.contains(&original)))
        };
        let told: Vec<AnswerSetId> = state.answer_sets.iter().filter(|h| reached(h)).map(|h| h.set.id).collect();
        state
            .alert_emails
            .retain(|held| !(held.email.account_id == account && told.contains(&held.email.answer_set_id)));
        let mut erased = Erased { respondents: gone.len() as u64, answer_sets: 0 };
        if include_answers {
            let before = state.answer_sets.len();
            state.answer_sets.retain(|h| !reached(h));
            erased.answer_sets = (before - state.answer_sets.len()) as u64;
        } else {
            for held in state.answer_sets.iter_mut().filter(|h| reached(h)) {
                held.set.respondent_id = None;
                for answer in &mut held.set.answers {
                    match &mut answer.value {
                        AnswerValue::Text(text) => *text = redact(text, contact),
                        AnswerValue::Choices(choices) => choices.iter_mut().for_each(|c| *c = redact(c, contact)),
                        AnswerValue::Rows(rows) => rows.iter_mut().for_each(|(row, option)| {
                            *row = redact(row, contact);
                            *option = redact(option, contact);
                        }),
                        AnswerValue::Number(_) => {}
                    }
                }
            }
        }
        for held in state.outbox.iter_mut().filter(|m| m.message.account_id == account) {
            if let Some(error) = held.last_error.as_mut().filter(|_| held.status != MessageStatus::Sent) {
                *error = redact(error, contact);
            }
        }
        for (_, sendout) in state.sendouts.iter_mut().filter(|(owner, _)| *owner == account) {
            if let Some(issue) = sendout.delivery_issue.as_mut() {
                issue.reply = redact(&issue.reply, contact);
            }
        }
        for ((owner, _), record) in state.idempotency.rows.iter_mut() {
            let holds = matches!(&record.state, KeyState::Done(kept) if contact.found_in_kept_body(&kept.body));
            if *owner == account && holds {
                record.state = KeyState::Erased;
            }
        }
        Ok(erased)
    }
}
