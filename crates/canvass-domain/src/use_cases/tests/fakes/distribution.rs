//! A fake of the distribution ports (surveys, sendouts, respondents, the blocklist, frequency settings, releasing
//! and sender numbers) for adding respondents and activating sendouts. It holds one account's data; the other
//! surveys' counts per respondent, which the real adapter computes with SQL, are given by the test.

#![allow(clippy::unimplemented)]

use std::collections::HashMap;

use time::OffsetDateTime;

use super::surveys::{HoldsSurveys, Surveys};
use super::{Snapshots, NOW};
use crate::chunks::ChunkRequest;
use crate::distribution::{
    BackgroundData, BgDocument, BlocklistEntry, BlocklistKey, BlocklistType, BounceFilter, DispatchType, Label,
    LabelDraft, NewPermanentFailure, NewRespondent, PermanentFailure, ProvisionedSender, Reminder, ReminderDraft,
    Respondent, RespondentStatus, SenderNumber, Sendout, SendoutDraft, SendoutStatus, Transition,
};
use crate::governance::{AccountPolicy, FrequencySetting, RetentionAction, RetentionRule, RuleScope, SurveyPolicy};
use crate::ids::{AccountId, BgDocumentId, LabelId, RespondentId, SendoutId, SurveyId};
use crate::paging::{Page, PageRequest};
use crate::ports::{
    BlocklistRepository, GovernanceRepository, ReleaseRepository, RepoResult, RespondentRepository, SenderRepository,
    SendoutRepository,
};
use crate::survey::Survey;

/// The one account the fake holds.
pub const ACCOUNT: AccountId = AccountId::new(1);

/// What the fake holds; cloned for each transaction.
#[derive(Debug, Clone, Default)]
pub struct State {
    pub surveys: Surveys,
    pub sendouts: Vec<Sendout>,
    pub respondents: Vec<Respondent>,
    /// Contact keys on the blocklist, for the flows that only ask whether a contact is blocked.
    pub blocked: Vec<String>,
    /// Entries of the blocklist, for the flows that list it.
    pub blocklist: Vec<BlocklistEntry>,
    pub labels: Vec<LabelId>,
    /// Frequency settings: the account's (`survey_id: None`) and surveys' own.
    pub frequency: Vec<FrequencySetting>,
    /// What `pending_other_surveys` answers: each pending respondent's releases in other surveys.
    pub other_surveys: HashMap<RespondentId, i64>,
    /// The sender numbers the account holds.
    pub senders: Vec<String>,
    /// The respondents the last release held back, and whether it sent messages.
    pub released: Option<(Vec<RespondentId>, bool)>,
    /// The sendout rows locked, in order.
    pub locked: Vec<SendoutId>,
    next_id: i64,
    /// The webhook events written.
    pub webhook_events: super::WebhookEvents,
}

/// The fake: its state and its transactions.
#[derive(Debug, Default)]
pub struct Distribution {
    pub state: State,
    pub transactions: Snapshots<State>,
}

impl Distribution {
    /// A fake holding one survey with one Draft sendout of `kind` (sender `+4790000001` for SMS kinds).
    pub fn with_sendout(kind: DispatchType) -> (Self, SurveyId, SendoutId) {
        let mut fake = Self::default();
        let survey = SurveyId::new(fake.next_id());
        fake.state.surveys.rows.push(survey_row(survey));
        let sendout = SendoutId::new(fake.next_id());
        fake.state.sendouts.push(sendout_row(sendout, survey, kind));
        (fake, survey, sendout)
    }

    /// Adds a pending respondent to `sendout`; returns its id.
    pub fn pending(&mut self, sendout: SendoutId, contact: &str) -> RespondentId {
        let id = RespondentId::new(self.next_id());
        self.state.respondents.push(respondent_row(id, sendout, contact, NOW));
        if let Some(row) = self.state.sendouts.iter_mut().find(|s| s.id == sendout) {
            row.respondent_count += 1;
            row.pending_count += 1;
        }
        id
    }

    fn next_id(&mut self) -> i64 {
        self.state.next_id += 1;
        self.state.next_id
    }

    fn sendout_mut(&mut self, id: SendoutId) -> Option<&mut Sendout> {
        self.state.sendouts.iter_mut().find(|s| s.id == id)
    }
}

fn survey_row(id: SurveyId) -> Survey {
    Survey {
        id,
        name: "Staff".into(),
        description: String::new(),
        start_date: NOW,
        end_date: NOW + time::Duration::days(14),
        category_id: None,
        active: true,
        created_at: NOW,
        updated_at: NOW,
    }
}

fn sendout_row(id: SendoutId, survey: SurveyId, kind: DispatchType) -> Sendout {
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
        expiry_date: None,
        created_at: NOW,
        activated_at: None,
        respondent_count: 0,
        pending_count: 0,
        delivery: Default::default(),
        delivery_issue: None,
    }
}

fn respondent_row(id: RespondentId, sendout: SendoutId, contact: &str, at: OffsetDateTime) -> Respondent {
    Respondent {
        id,
        sendout_id: sendout,
        contact_details: contact.to_owned(),
        send_mail: true,
        background_data: BackgroundData::new(),
        status: RespondentStatus::Pending,
        token: format!("{:040x}", id.get()),
        added_at: at,
        sent_at: None,
        delivery: Default::default(),
    }
}

super::snapshot_transactions!(Distribution);
super::record_webhook_events!(Distribution);

impl HoldsSurveys for Distribution {
    fn surveys(&mut self) -> &mut Surveys {
        &mut self.state.surveys
    }
}

// The methods the flows use, in the adapter's terms.

impl Distribution {
    fn is_ours(account: AccountId) -> bool {
        account == ACCOUNT
    }
}
impl SendoutRepository for Distribution {
    fn insert_sendout(
        &mut self,
        _account: AccountId,
        _survey: SurveyId,
        _draft: &SendoutDraft,
        _now: OffsetDateTime,
    ) -> RepoResult<Sendout> {
        unimplemented!("not used by these tests")
    }

    fn list_sendouts(&mut self, _account: AccountId, _survey: SurveyId) -> RepoResult<Option<Vec<Sendout>>> {
        unimplemented!("not used by these tests")
    }

    fn find_sendout(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        id: SendoutId,
        lock: bool,
    ) -> RepoResult<Option<Sendout>> {
        if lock {
            self.state.locked.push(id);
        }
        let found = self.state.sendouts.iter().find(|s| s.id == id && s.survey_id == survey).cloned();
        Ok(found.filter(|_| Self::is_ours(account)))
    }

    fn sendout_kind(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        id: SendoutId,
    ) -> RepoResult<Option<DispatchType>> {
        let found = self.state.sendouts.iter().find(|s| s.id == id && s.survey_id == survey);
        Ok(found.filter(|_| Self::is_ours(account)).map(|s| s.kind))
    }

    fn apply_transition(
        &mut self,
        account: AccountId,
        id: SendoutId,
        transition: Transition,
        now: OffsetDateTime,
    ) -> RepoResult<()> {
        let Some(row) = self.sendout_mut(id).filter(|_| Self::is_ours(account)) else { return Ok(()) };
        row.status = transition.to();
        if transition.releases_pending() {
            row.activated_at = Some(now);
        }
        Ok(())
    }

    fn copy_sendouts(
        &mut self,
        _account: AccountId,
        _from: SurveyId,
        _to: SurveyId,
        _ids: &[SendoutId],
        _now: OffsetDateTime,
    ) -> RepoResult<()> {
        unimplemented!("not used by these tests")
    }

    fn insert_label(
        &mut self,
        _account: AccountId,
        _sendout: SendoutId,
        _draft: &LabelDraft,
        _now: OffsetDateTime,
    ) -> RepoResult<Label> {
        unimplemented!("not used by these tests")
    }

    fn list_labels(&mut self, _account: AccountId, _sendout: SendoutId) -> RepoResult<Vec<Label>> {
        unimplemented!("not used by these tests")
    }

    fn background_label_ids(&mut self, account: AccountId) -> RepoResult<Vec<LabelId>> {
        Ok(if Self::is_ours(account) { self.state.labels.clone() } else { Vec::new() })
    }

    fn insert_reminder(
        &mut self,
        _account: AccountId,
        _sendout: SendoutId,
        _draft: &ReminderDraft,
        _now: OffsetDateTime,
    ) -> RepoResult<Reminder> {
        unimplemented!("not used by these tests")
    }

    fn list_reminders(&mut self, _account: AccountId, _sendout: SendoutId) -> RepoResult<Vec<Reminder>> {
        unimplemented!("not used by these tests")
    }

    fn list_documents(&mut self, _account: AccountId) -> RepoResult<Vec<BgDocument>> {
        unimplemented!("not used by these tests")
    }

    fn find_document(&mut self, _account: AccountId, _id: BgDocumentId) -> RepoResult<Option<BgDocument>> {
        unimplemented!("not used by these tests")
    }
}

impl RespondentRepository for Distribution {
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
            .filter(|r| Self::is_ours(account) && r.sendout_id == sendout)
            .map(|r| crate::distribution::contact_key(&r.contact_details))
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
        let mut added = Vec::with_capacity(rows.len());
        let taken = |fake: &Self, key: &str| {
            let in_sendout = |r: &&Respondent| r.sendout_id == sendout;
            fake.state
                .respondents
                .iter()
                .filter(in_sendout)
                .any(|r| crate::distribution::contact_key(&r.contact_details) == key)
        };
        for row in rows.iter().filter(|_| Self::is_ours(account)) {
            if taken(self, row.contact_key()) {
                continue; // ON CONFLICT DO NOTHING
            }
            let id = RespondentId::new(self.next_id());
            let mut respondent = respondent_row(id, sendout, row.contact_details(), now);
            respondent.send_mail = row.send_mail();
            respondent.background_data = row.background_data().clone();
            respondent.token = row.token().to_owned();
            self.state.respondents.push(respondent.clone());
            added.push(respondent);
        }
        if let Some(sendout) = self.sendout_mut(sendout) {
            sendout.respondent_count += added.len() as i64;
            sendout.pending_count += added.len() as i64;
        }
        Ok(added)
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
            .filter(|r| Self::is_ours(account) && r.sendout_id == sendout && after.is_none_or(|after| r.id > after))
            .cloned()
            .collect();
        found.sort_by_key(|r| r.id);
        found.truncate(request.size());
        Ok(found)
    }

    fn find_respondent(
        &mut self,
        _account: AccountId,
        _sendout: SendoutId,
        _id: RespondentId,
    ) -> RepoResult<Option<Respondent>> {
        unimplemented!("not used by these tests")
    }

    fn respondent_sendout(
        &mut self,
        _account: AccountId,
        _survey: SurveyId,
        _respondent: RespondentId,
    ) -> RepoResult<Option<SendoutId>> {
        unimplemented!("not used by these tests")
    }

    fn update_background_data(
        &mut self,
        _account: AccountId,
        _sendout: SendoutId,
        _respondent: RespondentId,
        _set: &BackgroundData,
        _remove: &[LabelId],
    ) -> RepoResult<Option<BackgroundData>> {
        unimplemented!("not used by these tests")
    }
}

impl BlocklistRepository for Distribution {
    fn blocked_keys(&mut self, account: AccountId, keys: &[String]) -> RepoResult<Vec<String>> {
        Ok(keys.iter().filter(|k| Self::is_ours(account) && self.state.blocked.contains(k)).cloned().collect())
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
            .filter(|_| Self::is_ours(account))
            .map(|entry| {
                let key = BlocklistKey {
                    created_at: entry.created_at,
                    contact_key: crate::distribution::contact_key(&entry.contact_details),
                };
                (key, entry.clone())
            })
            .filter(|(key, _)| request.after_key().is_none_or(|after| key > after))
            .collect();
        found.sort_by(|a, b| a.0.cmp(&b.0));
        found.truncate(request.size());
        Ok(found)
    }

    fn insert_blocklist(
        &mut self,
        _account: AccountId,
        _contact_details: &str,
        _contact_key: &str,
        _kind: BlocklistType,
        _now: OffsetDateTime,
    ) -> RepoResult<Option<BlocklistEntry>> {
        unimplemented!("not used by these tests")
    }

    fn delete_blocklist(&mut self, _account: AccountId, _contact_key: &str) -> RepoResult<bool> {
        unimplemented!("not used by these tests")
    }

    fn record_failures(&mut self, _account: AccountId, _failures: &[NewPermanentFailure]) -> RepoResult<u64> {
        unimplemented!("not used by these tests")
    }

    fn page_failures(
        &mut self,
        _account: AccountId,
        _filter: &BounceFilter,
        _page: PageRequest,
    ) -> RepoResult<Page<PermanentFailure>> {
        unimplemented!("not used by these tests")
    }
}

impl GovernanceRepository for Distribution {
    fn find_frequency(&mut self, account: AccountId, survey: Option<SurveyId>) -> RepoResult<Option<FrequencySetting>> {
        Ok(self.state.frequency.iter().find(|f| Self::is_ours(account) && f.survey_id == survey).cloned())
    }

    fn save_frequency(&mut self, _account: AccountId, _setting: &FrequencySetting) -> RepoResult<()> {
        unimplemented!("not used by these tests")
    }

    fn list_rules(&mut self, _account: AccountId) -> RepoResult<Vec<RetentionRule>> {
        unimplemented!("not used by these tests")
    }

    fn save_rule(&mut self, _account: AccountId, _rule: &RetentionRule, _now: OffsetDateTime) -> RepoResult<()> {
        unimplemented!("not used by these tests")
    }

    fn delete_rule(&mut self, _account: AccountId, _scope: RuleScope, _action: RetentionAction) -> RepoResult<bool> {
        unimplemented!("not used by these tests")
    }

    fn account_policy(&mut self, _account: AccountId) -> RepoResult<Option<AccountPolicy>> {
        unimplemented!("not used by these tests")
    }

    fn save_account_policy(
        &mut self,
        _account: AccountId,
        _policy: &AccountPolicy,
        _now: OffsetDateTime,
    ) -> RepoResult<()> {
        unimplemented!("not used by these tests")
    }

    fn survey_policy(&mut self, _account: AccountId, _survey: SurveyId) -> RepoResult<Option<SurveyPolicy>> {
        unimplemented!("not used by these tests")
    }

    fn save_survey_policy(
        &mut self,
        _account: AccountId,
        _survey: SurveyId,
        _policy: &SurveyPolicy,
        _now: OffsetDateTime,
    ) -> RepoResult<()> {
        unimplemented!("not used by these tests")
    }

    fn label_functions(&mut self, _account: AccountId, _labels: &[LabelId]) -> RepoResult<Vec<(LabelId, i16)>> {
        unimplemented!("not used by these tests")
    }
}

impl ReleaseRepository for Distribution {
    fn lock_pending_contacts(&mut self, account: AccountId, sendout: SendoutId) -> RepoResult<()> {
        if Self::is_ours(account) {
            self.state.locked.push(sendout);
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
        let _ = (survey, since);
        let pending = self
            .state
            .respondents
            .iter()
            .filter(|r| Self::is_ours(account) && r.sendout_id == sendout && r.status == RespondentStatus::Pending);
        Ok(pending.map(|r| (r.id, self.state.other_surveys.get(&r.id).copied().unwrap_or(0))).collect())
    }

    fn release_pending(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        held_back: &[RespondentId],
        sends_messages: bool,
        now: OffsetDateTime,
    ) -> RepoResult<()> {
        let _ = now;
        if !Self::is_ours(account) {
            return Ok(());
        }
        let mut left_pending = 0;
        for respondent in self.state.respondents.iter_mut().filter(|r| r.sendout_id == sendout) {
            if respondent.status == RespondentStatus::Pending {
                left_pending += 1;
                respondent.status = if held_back.contains(&respondent.id) {
                    RespondentStatus::FrequencyLimitReached
                } else if sends_messages && respondent.send_mail {
                    RespondentStatus::Scheduled
                } else {
                    RespondentStatus::Released
                };
            }
        }
        // As the adapter does: the pending count drops by the respondents released or held back.
        if let Some(row) = self.sendout_mut(sendout) {
            row.pending_count -= left_pending;
        }
        self.state.released = Some((held_back.to_vec(), sends_messages));
        Ok(())
    }
}

impl SenderRepository for Distribution {
    fn provision_sender(
        &mut self,
        _account: AccountId,
        _number: &SenderNumber,
        _now: OffsetDateTime,
    ) -> RepoResult<Option<AccountId>> {
        unimplemented!("not used by these tests")
    }

    fn list_senders(&mut self, _account: AccountId) -> RepoResult<Vec<ProvisionedSender>> {
        unimplemented!("not used by these tests")
    }

    fn remove_sender(&mut self, _account: AccountId, _number: &SenderNumber) -> RepoResult<bool> {
        unimplemented!("not used by these tests")
    }

    fn holds_sender(&mut self, account: AccountId, number: &str) -> RepoResult<bool> {
        Ok(Self::is_ours(account) && self.state.senders.iter().any(|n| n == number))
    }
}
