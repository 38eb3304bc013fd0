//! Seeding a [`Memory`] directly, with the ids a test chooses, and reading rows back as the API shows them: what
//! a test of one flow sets up without running the flows before it. Fresh ids the store makes later stay above
//! every id seeded.

use time::OffsetDateTime;

use super::memory::{HeldAnswerSet, HeldMessage, HeldRespondent, MessageStatus};
use super::{staff_survey, Memory, NOW};
use crate::answer::AnswerSet;
use crate::delivery::ClaimedMessage;
use crate::distribution::{
    contact_key, BgDocument, BlocklistEntry, BlocklistType, DispatchType, Label, LabelType, Respondent,
    RespondentStatus, Sendout, SendoutStatus, BACKGROUND_FUNCTION,
};
use crate::ids::{AccountId, BgDocumentId, LabelId, RespondentId, SendoutId, SurveyId};
use crate::language::Language;

/// A Draft sendout "Spring" of `kind` made at [`NOW`], sent from `+4790000001` when it is an SMS kind.
pub fn spring_sendout(id: SendoutId, survey: SurveyId, kind: DispatchType) -> Sendout {
    Sendout {
        id,
        survey_id: survey,
        name: "Spring".into(),
        kind,
        status: SendoutStatus::Draft,
        send_date: None,
        sender: matches!(kind, DispatchType::Sms | DispatchType::TwoWay).then(|| "+4790000001".to_owned()),
        subject: None,
        message: None,
        messages: Default::default(),
        expiry_date: None,
        created_at: NOW,
        activated_at: None,
        respondent_count: 0,
        pending_count: 0,
        delivery: Default::default(),
        delivery_issue: None,
        language: Language::En,
        open_link: None,
    }
}

impl Memory {
    /// Keeps fresh ids above `id`.
    fn past(&mut self, id: i64) {
        while self.state.next_id() < id {}
    }

    /// An account named after its id, unless the store has it.
    pub fn seed_account(&mut self, account: AccountId) {
        if !self.state.accounts.iter().any(|(id, _)| *id == account) {
            self.state.accounts.push((account, format!("Account {account}")));
        }
    }

    /// The account (seeded when missing) with [`staff_survey`] `id`.
    pub fn seed_survey(&mut self, account: AccountId, id: SurveyId) {
        self.seed_account(account);
        self.state.surveys.rows.push((account, staff_survey(id)));
    }

    /// A [`spring_sendout`] of the account's survey, with its document (of the same id).
    pub fn seed_sendout(&mut self, account: AccountId, survey: SurveyId, id: SendoutId, kind: DispatchType) {
        self.past(id.get());
        let document = BgDocument {
            id: BgDocumentId::new(id.get()),
            sendout_id: id,
            survey_id: survey,
            name: "Spring".into(),
            row_count: 0,
        };
        self.state.documents.push((account, document));
        self.state.sendouts.push((account, spring_sendout(id, survey, kind)));
    }

    /// A Pending respondent of the account's sendout added at [`NOW`], its token naming the account; its id.
    pub fn seed_respondent(&mut self, account: AccountId, sendout: SendoutId, contact: &str) -> RespondentId {
        let id = RespondentId::new(self.state.next_id());
        self.seed_respondent_as(account, sendout, id, contact);
        id
    }

    /// [`Self::seed_respondent`] with the id the test chooses.
    pub fn seed_respondent_as(&mut self, account: AccountId, sendout: SendoutId, id: RespondentId, contact: &str) {
        self.past(id.get());
        let survey =
            self.state.sendouts.iter().find(|(_, s)| s.id == sendout).map_or(SurveyId::new(0), |(_, s)| s.survey_id);
        let row = Respondent {
            id,
            sendout_id: sendout,
            contact_details: contact.to_owned(),
            visitor: false,
            send_mail: true,
            background_data: Default::default(),
            status: RespondentStatus::Pending,
            token: format!("{account}-{:040x}", id.get()),
            added_at: NOW,
            sent_at: None,
            delivery: Default::default(),
            language: None,
            contact_id: None,
        };
        self.state.respondents.push(HeldRespondent {
            account_id: account,
            survey_id: survey,
            row,
            released_at: None,
            opted_out_at: None,
        });
    }

    /// A Text background data label `id` of the account's sendout, named `Label <id>`.
    pub fn seed_label(&mut self, account: AccountId, sendout: SendoutId, id: LabelId) {
        self.past(id.get());
        let label = Label {
            id,
            sendout_id: sendout,
            name: format!("Label {id}"),
            label_type: LabelType::Text,
            function: BACKGROUND_FUNCTION,
        };
        self.state.labels.push((account, label));
    }

    /// The contact on the account's blocklist since [`NOW`], blocked by the account.
    pub fn seed_blocked(&mut self, account: AccountId, contact: &str) {
        let entry =
            BlocklistEntry { contact_details: contact.to_owned(), kind: BlocklistType::Blocked, created_at: NOW };
        self.state.blocklist.push((account, contact_key(contact), entry));
    }

    /// An answer set of the account as it is given, its id chosen by the test.
    pub fn seed_answer_set(&mut self, account: AccountId, set: AnswerSet) {
        self.past(set.id.get());
        self.state.answer_sets.push(HeldAnswerSet { account_id: account, set, page: None, original: None });
    }

    /// A message of the outbox as a worker would claim it, Pending and due at [`NOW`], written `aged` ago; the
    /// account, survey, sendout (active, of the message's channel) and respondent (Scheduled, the recipient its
    /// contact) are seeded when missing, and the recipient blocklisted when the message says so.
    pub fn seed_message(&mut self, message: ClaimedMessage) {
        let account = message.account_id;
        if self.state.surveys.find(account, message.survey_id).is_none() {
            self.seed_survey(account, message.survey_id);
        }
        if self.state.own_sendout(account, message.sendout_id).is_none() {
            self.seed_sendout(account, message.survey_id, message.sendout_id, message.channel);
            let found = self.state.sendouts.iter_mut().find(|(o, s)| *o == account && s.id == message.sendout_id);
            found.into_iter().for_each(|(_, sendout)| sendout.status = SendoutStatus::Active);
        }
        if self.state.respondent(account, message.respondent_id).is_none() {
            self.seed_respondent_as(account, message.sendout_id, message.respondent_id, &message.recipient);
            self.respondent_row(message.respondent_id).status = RespondentStatus::Scheduled;
        }
        if message.blocklisted {
            self.seed_blocked(account, &message.recipient);
        }
        self.past(message.id);
        let created_at = NOW - message.aged;
        let held = HeldMessage {
            message,
            status: MessageStatus::Pending,
            due_at: NOW,
            created_at,
            sent_at: None,
            last_error: None,
            hold_kind: None,
        };
        self.state.outbox.push(held);
    }

    /// Every respondent's row, in the order they were added.
    pub fn respondent_rows(&self) -> Vec<Respondent> {
        self.state.respondents.iter().map(|held| held.row.clone()).collect()
    }

    /// One respondent's row, of whichever account.
    pub fn respondent_row(&mut self, id: RespondentId) -> &mut Respondent {
        let found = self.state.respondents.iter_mut().find(|held| held.row.id == id);
        &mut found.unwrap_or_else(|| panic!("no respondent {id}")).row
    }

    /// One sendout, of whichever account, with its counts as a read without a lock finds them.
    pub fn sendout_row(&self, id: SendoutId) -> Sendout {
        let (account, sendout) =
            self.state.sendouts.iter().find(|(_, s)| s.id == id).unwrap_or_else(|| panic!("no sendout {id}"));
        self.state.counted(*account, sendout, false)
    }

    /// Every answer set, in creation order.
    pub fn answer_sets(&self) -> Vec<AnswerSet> {
        self.state.answer_sets.iter().map(|held| held.set.clone()).collect()
    }

    /// When the respondent opted out through its link.
    pub fn opted_out_at(&self, id: RespondentId) -> Option<OffsetDateTime> {
        self.state.respondents.iter().find(|held| held.row.id == id).and_then(|held| held.opted_out_at)
    }
}
