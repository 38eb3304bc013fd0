//! A fake of the distribution ports (surveys, sendouts with their labels and reminders, respondents, the blocklist
//! and permanent failures, frequency settings, releasing and sender numbers) for adding respondents, activating
//! sendouts and keeping the blocklist. It holds one account's data: another account reads nothing, and what it
//! writes is not kept. The other surveys' counts per respondent, which the real adapter computes with SQL, are given
//! by the test.

use std::collections::HashMap;

use time::OffsetDateTime;

use super::{Snapshots, NOW};
use crate::chunks::ChunkRequest;
use crate::distribution::{
    BackgroundData, BgDocument, BlocklistEntry, BlocklistKey, BlocklistType, BounceFilter, DispatchType, Label,
    LabelDraft, LabelType, NewPermanentFailure, NewRespondent, PermanentFailure, ProvisionedSender, Reminder,
    ReminderDraft, ReminderStatus, Respondent, RespondentStatus, SenderNumber, Sendout, SendoutDraft, SendoutStatus,
    Transition, BACKGROUND_FUNCTION,
};
use crate::governance::{AccountPolicy, FrequencySetting, RetentionAction, RetentionRule, RuleScope, SurveyPolicy};
use crate::ids::{AccountId, BgDocumentId, LabelId, ReminderId, RespondentId, SendoutId, SurveyId};
use crate::language::Language;
use crate::paging::{Page, PageRequest};
use crate::ports::{
    BlocklistRepository, GovernanceRepository, ReleaseRepository, RepoResult, RespondentRepository, SenderRepository,
    SendoutRepository,
};
use crate::testing::{staff_survey, HoldsSurveys, Surveys};
use crate::RepoError;

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
    /// Background data labels of the account seeded by a test: each is listed on every sendout.
    pub labels: Vec<LabelId>,
    /// Labels made through a sendout (`insert_label`): each is listed on its own sendout only.
    pub sendout_labels: Vec<Label>,
    /// Reminders of the sendouts.
    pub reminders: Vec<Reminder>,
    /// Permanent failures recorded, in the order they were recorded.
    pub failures: Vec<PermanentFailure>,
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
        fake.state.surveys.rows.push((ACCOUNT, staff_survey(survey)));
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

    /// Adds a Draft sendout of `kind` to `survey`; returns its id.
    pub fn another_sendout(&mut self, survey: SurveyId, kind: DispatchType) -> SendoutId {
        let sendout = SendoutId::new(self.next_id());
        self.state.sendouts.push(sendout_row(sendout, survey, kind));
        sendout
    }

    fn next_id(&mut self) -> i64 {
        self.state.next_id += 1;
        self.state.next_id
    }

    /// Whether the contact key is on the blocklist (seeded as a key or as an entry).
    fn is_blocked(&self, key: &str) -> bool {
        self.state.blocked.iter().any(|k| k == key)
            || self.state.blocklist.iter().any(|e| crate::distribution::contact_key(&e.contact_details) == key)
    }

    /// Moves the respondents with one of these contact keys from a status `from` picks to `to`, as the adapter
    /// does: the Pending ones leave their sendouts' pending counts.
    fn move_contacts(&mut self, keys: &[&str], from: impl Fn(RespondentStatus) -> bool, to: RespondentStatus) {
        let mut left_pending: Vec<SendoutId> = Vec::new();
        for respondent in self.state.respondents.iter_mut() {
            let key = crate::distribution::contact_key(&respondent.contact_details);
            if keys.contains(&key.as_str()) && from(respondent.status) {
                if respondent.status == RespondentStatus::Pending {
                    left_pending.push(respondent.sendout_id);
                }
                respondent.status = to;
            }
        }
        for sendout in left_pending {
            if let Some(row) = self.sendout_mut(sendout) {
                row.pending_count -= 1;
            }
        }
    }

    fn sendout_mut(&mut self, id: SendoutId) -> Option<&mut Sendout> {
        self.state.sendouts.iter_mut().find(|s| s.id == id)
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
        language: Language::En,
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

    fn list_labels(&mut self, account: AccountId, sendout: SendoutId) -> RepoResult<Vec<Label>> {
        // The seeded background data labels are every sendout's labels; those made through a sendout its own.
        let label = |id: &LabelId| Label {
            id: *id,
            sendout_id: sendout,
            name: format!("Label {id}"),
            label_type: LabelType::Text,
            function: BACKGROUND_FUNCTION,
        };
        if !Self::is_ours(account) {
            return Ok(Vec::new());
        }
        let made = self.state.sendout_labels.iter().filter(|l| l.sendout_id == sendout).cloned();
        Ok(self.state.labels.iter().map(label).chain(made).collect())
    }

    fn insert_label(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        draft: &LabelDraft,
        now: OffsetDateTime,
    ) -> RepoResult<Label> {
        let _ = now;
        let taken = self.state.sendout_labels.iter().any(|l| l.sendout_id == sendout && l.name == draft.name());
        if Self::is_ours(account) && taken {
            // UNIQUE (account_id, sendout_id, name)
            return Err(RepoError::Duplicate {
                constraint: "bg_labels_account_id_sendout_id_name_key".into(),
                source: "duplicate key value violates unique constraint".into(),
            });
        }
        let label = Label {
            id: LabelId::new(self.next_id()),
            sendout_id: sendout,
            name: draft.name().to_owned(),
            label_type: draft.label_type(),
            function: BACKGROUND_FUNCTION,
        };
        if Self::is_ours(account) {
            self.state.sendout_labels.push(label.clone());
        }
        Ok(label)
    }

    fn insert_reminder(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        draft: &ReminderDraft,
        now: OffsetDateTime,
    ) -> RepoResult<Reminder> {
        let reminder = Reminder {
            id: ReminderId::new(self.next_id()),
            sendout_id: sendout,
            sendout_logic: draft.sendout_logic(),
            send_date: draft.send_date(),
            sender: draft.sender().to_owned(),
            subject: draft.subject().map(str::to_owned),
            message: draft.message().to_owned(),
            status: ReminderStatus::Scheduled,
            created_at: now,
        };
        if Self::is_ours(account) {
            self.state.reminders.push(reminder.clone());
        }
        Ok(reminder)
    }

    fn list_reminders(&mut self, account: AccountId, sendout: SendoutId) -> RepoResult<Vec<Reminder>> {
        let ours = self.state.reminders.iter().filter(|r| Self::is_ours(account) && r.sendout_id == sendout);
        Ok(ours.cloned().collect())
    }

    fn list_documents(&mut self, account: AccountId) -> RepoResult<Vec<BgDocument>> {
        // Each sendout's document has the sendout's id.
        let document = |s: &Sendout| BgDocument {
            id: BgDocumentId::new(s.id.get()),
            sendout_id: s.id,
            survey_id: s.survey_id,
            name: s.name.clone(),
            row_count: s.respondent_count,
        };
        Ok(self.state.sendouts.iter().filter(|_| Self::is_ours(account)).map(document).collect())
    }

    fn find_document(&mut self, account: AccountId, id: BgDocumentId) -> RepoResult<Option<BgDocument>> {
        Ok(self.list_documents(account)?.into_iter().find(|document| document.id == id))
    }

    fn background_label_ids(&mut self, account: AccountId) -> RepoResult<Vec<LabelId>> {
        let made = self.state.sendout_labels.iter().filter(|l| l.function == BACKGROUND_FUNCTION).map(|l| l.id);
        Ok(if Self::is_ours(account) { self.state.labels.iter().copied().chain(made).collect() } else { Vec::new() })
    }

    super::not_kept! {
        fn insert_sendout(&mut self, account: AccountId, survey: SurveyId, draft: &SendoutDraft, now: OffsetDateTime) -> RepoResult<Sendout>;
        fn list_sendouts(&mut self, account: AccountId, survey: SurveyId) -> RepoResult<Option<Vec<Sendout>>>;
        fn copy_sendouts(&mut self, account: AccountId, from: SurveyId, to: SurveyId, ids: &[SendoutId], now: OffsetDateTime) -> RepoResult<()>;
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

    fn find_respondent(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        id: RespondentId,
    ) -> RepoResult<Option<Respondent>> {
        let found = self.state.respondents.iter().find(|r| r.sendout_id == sendout && r.id == id);
        Ok(found.filter(|_| Self::is_ours(account)).cloned())
    }

    fn update_background_data(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        respondent: RespondentId,
        set: &BackgroundData,
        remove: &[LabelId],
    ) -> RepoResult<Option<BackgroundData>> {
        let found = self.state.respondents.iter_mut().find(|r| r.sendout_id == sendout && r.id == respondent);
        let Some(row) = found.filter(|_| Self::is_ours(account)) else { return Ok(None) };
        row.background_data.extend(set.iter().map(|(label, value)| (*label, value.clone())));
        row.background_data.retain(|label, _| !remove.contains(label));
        Ok(Some(row.background_data.clone()))
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

    super::not_kept! {
        fn respondent_sendout(&mut self, account: AccountId, survey: SurveyId, respondent: RespondentId) -> RepoResult<Option<SendoutId>>;
    }
}

impl BlocklistRepository for Distribution {
    fn blocked_keys(&mut self, account: AccountId, keys: &[String]) -> RepoResult<Vec<String>> {
        Ok(keys.iter().filter(|k| Self::is_ours(account) && self.is_blocked(k)).cloned().collect())
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
        account: AccountId,
        contact_details: &str,
        contact_key: &str,
        kind: BlocklistType,
        now: OffsetDateTime,
    ) -> RepoResult<Option<BlocklistEntry>> {
        let entry = BlocklistEntry { contact_details: contact_details.to_owned(), kind, created_at: now };
        if !Self::is_ours(account) {
            return Ok(Some(entry)); // another account's list, which the fake does not hold
        }
        if self.is_blocked(contact_key) {
            return Ok(None); // ON CONFLICT DO NOTHING
        }
        self.state.blocked.push(contact_key.to_owned());
        self.state.blocklist.push(entry.clone());
        // Respondents not yet sent to are never sent to now.
        let not_yet_sent =
            |s| matches!(s, RespondentStatus::Pending | RespondentStatus::Scheduled | RespondentStatus::Released);
        self.move_contacts(&[contact_key], not_yet_sent, RespondentStatus::Blocklisted);
        Ok(Some(entry))
    }

    fn delete_blocklist(&mut self, account: AccountId, contact_key: &str) -> RepoResult<bool> {
        if !Self::is_ours(account) || !self.is_blocked(contact_key) {
            return Ok(false);
        }
        self.state.blocked.retain(|k| k != contact_key);
        self.state.blocklist.retain(|e| crate::distribution::contact_key(&e.contact_details) != contact_key);
        Ok(true)
    }

    fn record_failures(&mut self, account: AccountId, failures: &[NewPermanentFailure]) -> RepoResult<u64> {
        if !Self::is_ours(account) {
            return Ok(failures.len() as u64); // another account's failures, which the fake does not hold
        }
        let mut recorded = 0;
        for failure in failures {
            // UNIQUE (account_id, email_key, failed_at), ON CONFLICT DO NOTHING
            let known =
                self.state.failures.iter().any(|f| {
                    f.email_address.to_lowercase() == failure.email_key() && f.failed_at == failure.failed_at()
                });
            if known {
                continue;
            }
            self.state.failures.push(PermanentFailure {
                email_address: failure.email_address().to_owned(),
                sending_domain: failure.sending_domain().to_owned(),
                failed_at: failure.failed_at(),
                reason: failure.reason().to_owned(),
                sendout_id: None,
                respondent_id: None,
            });
            recorded += 1;
        }
        // Every respondent with the address is Bounced, unless it is Blocklisted.
        let keys: Vec<&str> = failures.iter().map(NewPermanentFailure::email_key).collect();
        let bounces = |s| !matches!(s, RespondentStatus::Blocklisted | RespondentStatus::Bounced);
        self.move_contacts(&keys, bounces, RespondentStatus::Bounced);
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
            .filter(|_| Self::is_ours(account))
            .filter(|f| domain.as_deref().is_none_or(|d| f.sending_domain == d))
            .filter(|f| filter.from.is_none_or(|from| f.failed_at >= from))
            .collect();
        // By failure time, then in the order recorded (the id); the sort is stable.
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

impl GovernanceRepository for Distribution {
    fn find_frequency(&mut self, account: AccountId, survey: Option<SurveyId>) -> RepoResult<Option<FrequencySetting>> {
        Ok(self.state.frequency.iter().find(|f| Self::is_ours(account) && f.survey_id == survey).cloned())
    }

    super::not_kept! {
        fn save_frequency(&mut self, account: AccountId, setting: &FrequencySetting) -> RepoResult<()>;
        fn list_rules(&mut self, account: AccountId) -> RepoResult<Vec<RetentionRule>>;
        fn save_rule(&mut self, account: AccountId, rule: &RetentionRule, now: OffsetDateTime) -> RepoResult<()>;
        fn delete_rule(&mut self, account: AccountId, scope: RuleScope, action: RetentionAction) -> RepoResult<bool>;
        fn account_policy(&mut self, account: AccountId) -> RepoResult<Option<AccountPolicy>>;
        fn save_account_policy(&mut self, account: AccountId, policy: &AccountPolicy, now: OffsetDateTime) -> RepoResult<()>;
        fn survey_policy(&mut self, account: AccountId, survey: SurveyId) -> RepoResult<Option<SurveyPolicy>>;
        fn save_survey_policy(&mut self, account: AccountId, survey: SurveyId, policy: &SurveyPolicy, now: OffsetDateTime) -> RepoResult<()>;
        fn label_functions(&mut self, account: AccountId, labels: &[LabelId]) -> RepoResult<Vec<(LabelId, i16)>>;
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
    fn holds_sender(&mut self, account: AccountId, number: &str) -> RepoResult<bool> {
        Ok(Self::is_ours(account) && self.state.senders.iter().any(|n| n == number))
    }

    super::not_kept! {
        fn provision_sender(&mut self, account: AccountId, number: &SenderNumber, now: OffsetDateTime) -> RepoResult<Option<AccountId>>;
        fn list_senders(&mut self, account: AccountId) -> RepoResult<Vec<ProvisionedSender>>;
        fn remove_sender(&mut self, account: AccountId, number: &SenderNumber) -> RepoResult<bool>;
    }
}
