//! [`Memory`], the unit of work of the in-memory store: one `Clone` [`State`] that every repository reads and
//! changes, scoped by account, and snapshot transactions over it.

use time::OffsetDateTime;

use super::{not_kept, snapshot_transactions, HoldsKeys, HoldsSurveys, Keys, Snapshots, Surveys};
use crate::account::{ApiKey, ApiKeyHash, Caller, NewAccount, StoredKey, User};
use crate::answer::{AnswerFilter, AnswerSet, AnswerSetDraft, ReplacedAnswerSet};
use crate::category::{Category, CategoryName};
use crate::chunks::{ChunkRequest, Weighed};
use crate::delivery::{ClaimedMessage, Pace, Settled};
use crate::distribution::{
    BackgroundData, BgDocument, BlocklistEntry, BlocklistKey, BlocklistType, BounceFilter, DispatchType, Label,
    LabelDraft, LinkRoute, NewPermanentFailure, NewRespondent, PermanentFailure, ProvisionedSender, Reminder,
    ReminderDraft, Respondent, SenderNumber, Sendout, SendoutDraft, SendoutStatus, TokenContext, Transition,
};
use crate::governance::{
    AccountPolicy, ContactPatterns, FrequencySetting, RetentionAction, RetentionRule, RuleScope, SurveyPolicy,
};
use crate::ids::{
    AccountId, AnswerSetId, BgDocumentId, CategoryId, KeyId, LabelId, PageId, QuestionItemId, RespondentId, SendoutId,
    SurveyId, UserId, WebhookId,
};
use crate::insight::{ResultTallies, SendoutFigures};
use crate::paging::{Page, PageRequest};
use crate::ports::{
    AccountRepository, AnswerRepository, BlocklistRepository, CategoryRepository, Erased, ErasureRepository,
    GovernanceRepository, InsightRepository, OutboxBacklog, OutboxRepository, PaceRepository, RecordedRound,
    ReleaseRepository, RepoResult, RespondentPageRepository, RespondentRepository, RetentionRepository,
    SenderRepository, SendoutRepository, SentLookup, WebhookEvents, WebhookRepository,
};
use crate::survey::QuestionTree;
use crate::webhook::{
    AttemptRecord, ClaimedDelivery, DeliveryStatus, DeliveryView, EventSubject, Webhook, WebhookDraft, WebhookEvent,
    WebhookSecret,
};

/// A stored API key: only its lookup prefix and hash, as the real store keeps it.
#[derive(Debug, Clone)]
pub struct KeyRow {
    /// The key's id.
    pub id: KeyId,
    /// Whose it is.
    pub caller: Caller,
    /// The first characters of the key, in clear.
    pub lookup_prefix: String,
    /// The key's hash.
    pub hash: ApiKeyHash,
    /// When it was revoked.
    pub revoked_at: Option<OffsetDateTime>,
}

/// A webhook delivery written by an event or a test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredDelivery {
    /// The webhook's account.
    pub account_id: AccountId,
    /// The webhook.
    pub webhook_id: WebhookId,
    /// What the event was about (`None` for `webhook.test`).
    pub subject: Option<EventSubject>,
    /// The delivery as the API lists it.
    pub view: DeliveryView,
    /// When the event happened.
    pub occurred_at: OffsetDateTime,
    /// Until when a worker holds it, if one claimed it and has not recorded its attempt.
    pub lease_until: Option<OffsetDateTime>,
}

/// Everything the store holds; cloned when a transaction begins.
#[derive(Debug, Clone, Default)]
pub struct State {
    /// Accounts and their names, in creation order; ids count from 1.
    pub accounts: Vec<(AccountId, String)>,
    /// Users of every account; ids count from 1.
    pub users: Vec<User>,
    /// API keys of every account.
    pub keys: Vec<KeyRow>,
    /// Idempotency keys.
    pub idempotency: Keys,
    /// Categories by account.
    pub categories: Vec<(AccountId, Category)>,
    /// Surveys and their trees.
    pub surveys: Surveys,
    /// Sendouts by account; they hold no respondents here.
    pub sendouts: Vec<(AccountId, Sendout)>,
    /// Frequency settings by account.
    pub frequency: Vec<(AccountId, FrequencySetting)>,
    /// Retention rules by account.
    pub rules: Vec<(AccountId, RetentionRule)>,
    /// Account retention policies.
    pub account_policies: Vec<(AccountId, AccountPolicy)>,
    /// Survey retention policies.
    pub survey_policies: Vec<(AccountId, SurveyId, SurveyPolicy)>,
    /// Sender numbers by account, in the order they were provisioned.
    pub senders: Vec<(AccountId, ProvisionedSender)>,
    /// Webhooks by account, with their secrets.
    pub webhooks: Vec<(AccountId, Webhook, WebhookSecret)>,
    /// Webhook deliveries, in the order they were written.
    pub deliveries: Vec<StoredDelivery>,
    next_id: i64,
}

impl State {
    /// A fresh id for a category, sendout, webhook or delivery.
    fn next_id(&mut self) -> i64 {
        self.next_id += 1;
        self.next_id
    }

    fn has_account(&self, account: AccountId) -> bool {
        self.accounts.iter().any(|(id, _)| *id == account)
    }

    fn sendout(&self, account: AccountId, survey: SurveyId, id: SendoutId) -> Option<&Sendout> {
        let found = self.sendouts.iter().find(|(owner, s)| *owner == account && s.id == id && s.survey_id == survey);
        found.map(|(_, sendout)| sendout)
    }

    fn webhook(&self, account: AccountId, id: WebhookId) -> Option<&Webhook> {
        self.webhooks.iter().find(|(owner, w, _)| *owner == account && w.id == id).map(|(_, webhook, _)| webhook)
    }

    fn push_delivery(
        &mut self,
        account_id: AccountId,
        webhook_id: WebhookId,
        event: WebhookEvent,
        subject: Option<EventSubject>,
        now: OffsetDateTime,
    ) {
        let id = self.next_id();
        let view = DeliveryView {
            id,
            event,
            status: DeliveryStatus::Pending,
            attempts: 0,
            last_status_code: None,
            last_error: None,
            next_attempt_at: Some(now),
        };
        self.deliveries.push(StoredDelivery {
            account_id,
            webhook_id,
            subject,
            view,
            occurred_at: now,
            lease_until: None,
        });
    }
}

/// The in-memory unit of work: its state and its transactions. [`super::MemoryStore`] lends one; tests of a use
/// case may also build one and pass it on directly.
#[derive(Debug, Default)]
pub struct Memory {
    /// What it holds.
    pub state: State,
    /// Its transactions, each a snapshot of the state.
    pub transactions: Snapshots<State>,
}

snapshot_transactions!(Memory);

impl HoldsSurveys for Memory {
    fn surveys(&mut self) -> &mut Surveys {
        &mut self.state.surveys
    }
}

impl HoldsKeys for Memory {
    fn keys(&mut self) -> &mut Keys {
        &mut self.state.idempotency
    }
}

impl AccountRepository for Memory {
    fn create_account(
        &mut self,
        account: &NewAccount,
        key: &ApiKey,
        now: OffsetDateTime,
    ) -> RepoResult<(AccountId, UserId)> {
        let state = &mut self.state;
        let account_id = AccountId::new(state.accounts.len() as i64 + 1);
        state.accounts.push((account_id, account.name().to_owned()));
        let user_id = UserId::new(state.users.len() as i64 + 1);
        state.users.push(User {
            id: user_id,
            account_id,
            name: account.name().to_owned(),
            email: account.email().to_owned(),
            role: "owner".into(),
            created_at: now,
        });
        self.create_key(user_id, key, now)?;
        Ok((account_id, user_id))
    }

    fn create_key(&mut self, user_id: UserId, key: &ApiKey, now: OffsetDateTime) -> RepoResult<Option<AccountId>> {
        let _ = now;
        let state = &mut self.state;
        let Some(account_id) = state.users.iter().find(|u| u.id == user_id).map(|u| u.account_id) else {
            return Ok(None);
        };
        state.keys.push(KeyRow {
            id: KeyId::new(state.keys.len() as i64 + 1),
            caller: Caller { account_id, user_id },
            lookup_prefix: key.lookup_prefix().to_owned(),
            hash: key.hash(),
            revoked_at: None,
        });
        Ok(Some(account_id))
    }

    fn revoke_keys(&mut self, lookup_prefix: &str, now: OffsetDateTime) -> RepoResult<u64> {
        let active = self.state.keys.iter_mut().filter(|k| k.lookup_prefix == lookup_prefix && k.revoked_at.is_none());
        Ok(active.map(|key| key.revoked_at = Some(now)).count() as u64)
    }

    fn active_keys_with_prefix(&mut self, lookup_prefix: &str) -> RepoResult<Vec<StoredKey>> {
        let active = self.state.keys.iter().filter(|k| k.lookup_prefix == lookup_prefix && k.revoked_at.is_none());
        Ok(active.map(|key| StoredKey { id: key.id, caller: key.caller, hash: key.hash.clone() }).collect())
    }

    fn find_user_by_email(&mut self, email: &str) -> RepoResult<Option<User>> {
        Ok(self.state.users.iter().find(|u| u.email.eq_ignore_ascii_case(email)).cloned())
    }

    fn list_users(&mut self, account: AccountId) -> RepoResult<Vec<User>> {
        Ok(self.state.users.iter().filter(|u| u.account_id == account).cloned().collect())
    }

    fn find_user(&mut self, account: AccountId, id: UserId) -> RepoResult<Option<User>> {
        Ok(self.state.users.iter().find(|u| u.account_id == account && u.id == id).cloned())
    }
}

impl CategoryRepository for Memory {
    fn list_categories(&mut self, account: AccountId) -> RepoResult<Vec<Category>> {
        let ours = self.state.categories.iter().filter(|(owner, _)| *owner == account);
        Ok(ours.map(|(_, category)| category.clone()).collect())
    }

    fn find_category(&mut self, account: AccountId, id: CategoryId) -> RepoResult<Option<Category>> {
        let found = self.state.categories.iter().find(|(owner, c)| *owner == account && c.id == id);
        Ok(found.map(|(_, category)| category.clone()))
    }

    fn insert_category(
        &mut self,
        account: AccountId,
        name: &CategoryName,
        now: OffsetDateTime,
    ) -> RepoResult<Category> {
        let category =
            Category { id: CategoryId::new(self.state.next_id()), name: name.as_str().into(), created_at: now };
        self.state.categories.push((account, category.clone()));
        Ok(category)
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
            expiry_date: draft.expiry_date(),
            created_at: now,
            activated_at: None,
            respondent_count: 0,
            pending_count: 0,
            delivery: Default::default(),
            delivery_issue: None,
            language: draft.language(),
        };
        self.state.sendouts.push((account, sendout.clone()));
        Ok(sendout)
    }

    fn list_sendouts(&mut self, account: AccountId, survey: SurveyId) -> RepoResult<Option<Vec<Sendout>>> {
        if self.state.surveys.find(account, survey).is_none() {
            return Ok(None);
        }
        let ours = self.state.sendouts.iter().filter(|(owner, s)| *owner == account && s.survey_id == survey);
        Ok(Some(ours.map(|(_, sendout)| sendout.clone()).collect()))
    }

    fn find_sendout(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        id: SendoutId,
        lock: bool,
    ) -> RepoResult<Option<Sendout>> {
        let _ = lock;
        Ok(self.state.sendout(account, survey, id).cloned())
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
        if let Some((_, row)) = self.state.sendouts.iter_mut().find(|(owner, s)| *owner == account && s.id == id) {
            row.status = transition.to();
            if transition.releases_pending() {
                row.activated_at = Some(now);
            }
        }
        Ok(())
    }

    fn list_labels(&mut self, account: AccountId, sendout: SendoutId) -> RepoResult<Vec<Label>> {
        // Labels are not kept: every sendout has none.
        let _ = (account, sendout);
        Ok(Vec::new())
    }

    fn background_label_ids(&mut self, account: AccountId) -> RepoResult<Vec<LabelId>> {
        let _ = account;
        Ok(Vec::new())
    }

    fn list_reminders(&mut self, account: AccountId, sendout: SendoutId) -> RepoResult<Vec<Reminder>> {
        // Reminders are not kept: every sendout has none.
        let _ = (account, sendout);
        Ok(Vec::new())
    }

    /// Each named sendout of `from` becomes a Draft of `to` with every field of its own (language included) and
    /// none of its state; with no respondents, labels or document, which the store does not keep.
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
            let copy = Sendout {
                id: SendoutId::new(self.state.next_id()),
                survey_id: to,
                status: SendoutStatus::Draft,
                created_at: now,
                activated_at: None,
                respondent_count: 0,
                pending_count: 0,
                delivery: Default::default(),
                delivery_issue: None,
                ..source
            };
            self.state.sendouts.push((account, copy));
        }
        Ok(())
    }

    not_kept! {
        fn insert_label(&mut self, account: AccountId, sendout: SendoutId, draft: &LabelDraft, now: OffsetDateTime) -> RepoResult<Label>;
        fn insert_reminder(&mut self, account: AccountId, sendout: SendoutId, draft: &ReminderDraft, now: OffsetDateTime) -> RepoResult<Reminder>;
        fn list_documents(&mut self, account: AccountId) -> RepoResult<Vec<BgDocument>>;
        fn find_document(&mut self, account: AccountId, id: BgDocumentId) -> RepoResult<Option<BgDocument>>;
    }
}

impl GovernanceRepository for Memory {
    fn find_frequency(&mut self, account: AccountId, survey: Option<SurveyId>) -> RepoResult<Option<FrequencySetting>> {
        let found = self.state.frequency.iter().find(|(owner, f)| *owner == account && f.survey_id == survey);
        Ok(found.map(|(_, setting)| *setting))
    }

    fn save_frequency(&mut self, account: AccountId, setting: &FrequencySetting) -> RepoResult<()> {
        let held = &mut self.state.frequency;
        held.retain(|(owner, f)| !(*owner == account && f.survey_id == setting.survey_id));
        held.push((account, *setting));
        Ok(())
    }

    fn list_rules(&mut self, account: AccountId) -> RepoResult<Vec<RetentionRule>> {
        Ok(self.state.rules.iter().filter(|(owner, _)| *owner == account).map(|(_, rule)| *rule).collect())
    }

    fn save_rule(&mut self, account: AccountId, rule: &RetentionRule, now: OffsetDateTime) -> RepoResult<()> {
        let _ = now;
        let same = |(owner, r): &(AccountId, RetentionRule)| {
            *owner == account && r.scope() == rule.scope() && r.action() == rule.action()
        };
        match self.state.rules.iter_mut().find(|held| same(held)) {
            Some((_, held)) => *held = *rule,
            None => self.state.rules.push((account, *rule)),
        }
        Ok(())
    }

    fn delete_rule(&mut self, account: AccountId, scope: RuleScope, action: RetentionAction) -> RepoResult<bool> {
        let before = self.state.rules.len();
        self.state.rules.retain(|(owner, r)| !(*owner == account && r.scope() == scope && r.action() == action));
        Ok(self.state.rules.len() < before)
    }

    fn account_policy(&mut self, account: AccountId) -> RepoResult<Option<AccountPolicy>> {
        Ok(self.state.account_policies.iter().find(|(owner, _)| *owner == account).map(|(_, policy)| *policy))
    }

    fn save_account_policy(
        &mut self,
        account: AccountId,
        policy: &AccountPolicy,
        now: OffsetDateTime,
    ) -> RepoResult<()> {
        let _ = now;
        self.state.account_policies.retain(|(owner, _)| *owner != account);
        self.state.account_policies.push((account, *policy));
        Ok(())
    }

    fn survey_policy(&mut self, account: AccountId, survey: SurveyId) -> RepoResult<Option<SurveyPolicy>> {
        let found = self.state.survey_policies.iter().find(|(owner, s, _)| *owner == account && *s == survey);
        Ok(found.map(|(_, _, policy)| policy.clone()))
    }

    fn save_survey_policy(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        policy: &SurveyPolicy,
        now: OffsetDateTime,
    ) -> RepoResult<()> {
        let _ = now;
        self.state.survey_policies.retain(|(owner, s, _)| !(*owner == account && *s == survey));
        self.state.survey_policies.push((account, survey, policy.clone()));
        Ok(())
    }

    fn label_functions(&mut self, account: AccountId, labels: &[LabelId]) -> RepoResult<Vec<(LabelId, i16)>> {
        // Labels are not kept: none of these is a label of the account.
        let _ = (account, labels);
        Ok(Vec::new())
    }
}

impl SenderRepository for Memory {
    fn provision_sender(
        &mut self,
        account: AccountId,
        number: &SenderNumber,
        now: OffsetDateTime,
    ) -> RepoResult<Option<AccountId>> {
        if !self.state.has_account(account) {
            return Ok(None);
        }
        if let Some((owner, _)) = self.state.senders.iter().find(|(_, s)| s.number == number.as_str()) {
            return Ok(Some(*owner));
        }
        self.state.senders.push((account, ProvisionedSender { number: number.as_str().to_owned(), created_at: now }));
        Ok(Some(account))
    }

    fn list_senders(&mut self, account: AccountId) -> RepoResult<Vec<ProvisionedSender>> {
        Ok(self.state.senders.iter().filter(|(owner, _)| *owner == account).map(|(_, s)| s.clone()).collect())
    }

    fn remove_sender(&mut self, account: AccountId, number: &SenderNumber) -> RepoResult<bool> {
        let before = self.state.senders.len();
        self.state.senders.retain(|(owner, s)| !(*owner == account && s.number == number.as_str()));
        Ok(self.state.senders.len() < before)
    }

    fn holds_sender(&mut self, account: AccountId, number: &str) -> RepoResult<bool> {
        Ok(self.state.senders.iter().any(|(owner, s)| *owner == account && s.number == number))
    }
}

impl WebhookEvents for Memory {
    fn enqueue_events(
        &mut self,
        event: WebhookEvent,
        subjects: &[EventSubject],
        now: OffsetDateTime,
    ) -> RepoResult<()> {
        for subject in subjects {
            let subscribed: Vec<WebhookId> = self
                .state
                .webhooks
                .iter()
                .filter(|(owner, w, _)| *owner == subject.account_id && w.active && w.events.contains(&event))
                .map(|(_, webhook, _)| webhook.id)
                .collect();
            for webhook in subscribed {
                self.state.push_delivery(subject.account_id, webhook, event, Some(*subject), now);
            }
        }
        Ok(())
    }
}

impl WebhookRepository for Memory {
    fn insert_webhook(
        &mut self,
        account: AccountId,
        draft: &WebhookDraft,
        secret: &WebhookSecret,
        now: OffsetDateTime,
    ) -> RepoResult<Webhook> {
        let webhook = Webhook {
            id: WebhookId::new(self.state.next_id()),
            url: draft.url().to_owned(),
            events: draft.events().to_vec(),
            description: draft.description().map(str::to_owned),
            active: true,
            created_at: now,
            last_delivery_at: None,
            consecutive_failures: 0,
        };
        self.state.webhooks.push((account, webhook.clone(), secret.clone()));
        Ok(webhook)
    }

    fn list_webhooks(&mut self, account: AccountId) -> RepoResult<Vec<Webhook>> {
        Ok(self.state.webhooks.iter().filter(|(owner, _, _)| *owner == account).map(|(_, w, _)| w.clone()).collect())
    }

    fn find_webhook(&mut self, account: AccountId, id: WebhookId) -> RepoResult<Option<Webhook>> {
        Ok(self.state.webhook(account, id).cloned())
    }

    fn delete_webhook(&mut self, account: AccountId, id: WebhookId) -> RepoResult<bool> {
        if self.state.webhook(account, id).is_none() {
            return Ok(false);
        }
        self.state.webhooks.retain(|(owner, w, _)| !(*owner == account && w.id == id));
        self.state.deliveries.retain(|d| !(d.account_id == account && d.webhook_id == id));
        Ok(true)
    }

    fn enqueue_test(&mut self, account: AccountId, id: WebhookId, now: OffsetDateTime) -> RepoResult<bool> {
        if self.state.webhook(account, id).is_none() {
            return Ok(false);
        }
        self.state.push_delivery(account, id, WebhookEvent::Test, None, now);
        Ok(true)
    }

    fn list_deliveries(&mut self, account: AccountId, id: WebhookId, limit: i64) -> RepoResult<Vec<DeliveryView>> {
        let ours = self.state.deliveries.iter().rev().filter(|d| d.account_id == account && d.webhook_id == id);
        Ok(ours.take(usize::try_from(limit).unwrap_or(0)).map(|d| d.view.clone()).collect())
    }

    fn claim_webhook_deliveries(
        &mut self,
        now: OffsetDateTime,
        lease_until: OffsetDateTime,
        limit: i64,
    ) -> RepoResult<Vec<ClaimedDelivery>> {
        let State { deliveries, webhooks, .. } = &mut self.state;
        let mut claimed = Vec::new();
        for delivery in deliveries.iter_mut() {
            let due = delivery.view.status == DeliveryStatus::Pending
                && delivery.view.next_attempt_at.is_some_and(|due| due <= now)
                && delivery.lease_until.is_none_or(|lease| lease < now);
            let hook =
                webhooks.iter().find(|(owner, w, _)| *owner == delivery.account_id && w.id == delivery.webhook_id);
            let (Some((_, webhook, secret)), true) = (hook, due) else { continue };
            if i64::try_from(claimed.len()).unwrap_or(i64::MAX) >= limit {
                break;
            }
            delivery.view.attempts += 1;
            delivery.lease_until = Some(lease_until);
            let nothing = EventSubject {
                account_id: delivery.account_id,
                survey_id: None,
                sendout_id: None,
                respondent_id: None,
                answer_set_id: None,
                hold: None,
            };
            claimed.push(ClaimedDelivery {
                account_id: delivery.account_id,
                id: delivery.view.id,
                message_id: format!("msg_{:032x}", delivery.view.id),
                url: webhook.url.clone(),
                secret: secret.clone(),
                event: delivery.view.event,
                subject: delivery.subject.unwrap_or(nothing),
                occurred_at: delivery.occurred_at,
                attempts: delivery.view.attempts,
                lease_until,
            });
        }
        Ok(claimed)
    }

    fn record_webhook_attempts(&mut self, attempts: &[AttemptRecord]) -> RepoResult<()> {
        // Per webhook: the round's time, whether one of its attempts succeeded, how many failed.
        let mut rounds: Vec<(AccountId, WebhookId, OffsetDateTime, bool, i32)> = Vec::new();
        for attempt in attempts {
            let Some(delivery) = self.state.deliveries.iter_mut().find(|d| {
                d.account_id == attempt.account_id
                    && d.view.id == attempt.id
                    && d.lease_until == Some(attempt.lease_until)
            }) else {
                continue;
            };
            delivery.view.status = attempt.status;
            delivery.view.last_status_code = attempt.status_code;
            delivery.view.last_error = attempt.error.clone().or(delivery.view.last_error.take());
            delivery.view.next_attempt_at = attempt.due_at.filter(|_| attempt.status == DeliveryStatus::Pending);
            delivery.lease_until = None;
            let key = (delivery.account_id, delivery.webhook_id);
            let at = rounds.iter().position(|(account, webhook, ..)| (*account, *webhook) == key);
            let at = at.unwrap_or_else(|| {
                rounds.push((key.0, key.1, attempt.attempted_at, false, 0));
                rounds.len() - 1
            });
            let round = &mut rounds[at];
            round.2 = round.2.max(attempt.attempted_at);
            round.3 |= !attempt.failed();
            round.4 += i32::from(attempt.failed());
        }
        for (account, id, at, succeeded, failures) in rounds {
            if let Some((_, webhook, _)) = self.state.webhooks.iter_mut().find(|(o, w, _)| *o == account && w.id == id)
            {
                webhook.last_delivery_at = Some(at);
                webhook.consecutive_failures = if succeeded { 0 } else { webhook.consecutive_failures + failures };
            }
        }
        Ok(())
    }
}

// What the store does not keep: respondents and their answers (and so insight), the blocklist, the outbox and
// retention's removals.

impl AnswerRepository for Memory {
    not_kept! {
        fn insert_answer_set(&mut self, account: AccountId, survey: SurveyId, respondent: Option<(RespondentId, SendoutId)>, draft: &AnswerSetDraft, now: OffsetDateTime) -> RepoResult<AnswerSet>;
        fn replace_answers(&mut self, account: AccountId, survey: SurveyId, id: AnswerSetId, draft: &AnswerSetDraft, now: OffsetDateTime) -> RepoResult<Option<ReplacedAnswerSet>>;
        fn answer_sets_chunk(&mut self, account: AccountId, survey: SurveyId, filter: &AnswerFilter, request: &ChunkRequest<AnswerSetId>) -> RepoResult<Vec<AnswerSet>>;
        fn weigh_answer_sets(&mut self, account: AccountId, survey: SurveyId, filter: &AnswerFilter, request: &ChunkRequest<AnswerSetId>) -> RepoResult<Vec<Weighed<AnswerSetId>>>;
        fn weigh_answer_set_page(&mut self, account: AccountId, survey: SurveyId, filter: &AnswerFilter, page: PageRequest) -> RepoResult<Page<Weighed<AnswerSetId>>>;
        fn answer_sets_with_answers(&mut self, account: AccountId, survey: SurveyId, ids: &[AnswerSetId]) -> RepoResult<Vec<AnswerSet>>;
        fn page_answer_sets(&mut self, account: AccountId, survey: SurveyId, filter: &AnswerFilter, page: PageRequest) -> RepoResult<Page<AnswerSet>>;
        fn find_answer_set(&mut self, account: AccountId, survey: SurveyId, id: AnswerSetId) -> RepoResult<Option<AnswerSet>>;
        fn answer_sets_of_respondent(&mut self, account: AccountId, survey: SurveyId, respondent: RespondentId) -> RepoResult<Vec<AnswerSet>>;
        fn copy_answer_sets(&mut self, account: AccountId, from: SurveyId, to: SurveyId, items: &[(QuestionItemId, QuestionItemId)]) -> RepoResult<u64>;
    }
}

impl RespondentPageRepository for Memory {
    not_kept! {
        fn find_by_token(&mut self, route: LinkRoute, token: &str) -> RepoResult<Option<TokenContext>>;
        fn find_login(&mut self, sendout: SendoutId, contact_key: &str) -> RepoResult<Option<(String, TokenContext)>>;
        fn login_page(&mut self, sendout: SendoutId) -> RepoResult<Option<crate::distribution::LoginPage>>;
        fn find_conversations(&mut self, contact_key: &str, to: &str) -> RepoResult<Vec<TokenContext>>;
        fn lock_respondent(&mut self, account: AccountId, respondent: RespondentId) -> RepoResult<()>;
        fn progress(&mut self, account: AccountId, survey: SurveyId, respondent: RespondentId) -> RepoResult<Option<(AnswerSet, Option<PageId>)>>;
        fn mark_opted_out(&mut self, account: AccountId, respondent: RespondentId, now: OffsetDateTime) -> RepoResult<()>;
        fn save_progress(&mut self, account: AccountId, answer_set: AnswerSetId, page: Option<PageId>) -> RepoResult<()>;
    }
}

impl RespondentRepository for Memory {
    not_kept! {
        fn existing_contact_keys(&mut self, account: AccountId, sendout: SendoutId, keys: &[String]) -> RepoResult<Vec<String>>;
        fn insert_respondents(&mut self, account: AccountId, sendout: SendoutId, rows: &[NewRespondent], now: OffsetDateTime) -> RepoResult<Vec<Respondent>>;
        fn respondents_chunk(&mut self, account: AccountId, sendout: SendoutId, request: &ChunkRequest<RespondentId>) -> RepoResult<Vec<Respondent>>;
        fn find_respondent(&mut self, account: AccountId, sendout: SendoutId, id: RespondentId) -> RepoResult<Option<Respondent>>;
        fn respondent_sendout(&mut self, account: AccountId, survey: SurveyId, respondent: RespondentId) -> RepoResult<Option<SendoutId>>;
        fn update_background_data(&mut self, account: AccountId, sendout: SendoutId, respondent: RespondentId, set: &BackgroundData, remove: &[LabelId]) -> RepoResult<Option<BackgroundData>>;
    }
}

impl BlocklistRepository for Memory {
    not_kept! {
        fn blocked_keys(&mut self, account: AccountId, keys: &[String]) -> RepoResult<Vec<String>>;
        fn blocklist_chunk(&mut self, account: AccountId, request: &ChunkRequest<BlocklistKey>) -> RepoResult<Vec<(BlocklistKey, BlocklistEntry)>>;
        fn insert_blocklist(&mut self, account: AccountId, contact_details: &str, contact_key: &str, kind: BlocklistType, now: OffsetDateTime) -> RepoResult<Option<BlocklistEntry>>;
        fn delete_blocklist(&mut self, account: AccountId, contact_key: &str) -> RepoResult<bool>;
        fn record_failures(&mut self, account: AccountId, failures: &[NewPermanentFailure]) -> RepoResult<u64>;
        fn page_failures(&mut self, account: AccountId, filter: &BounceFilter, page: PageRequest) -> RepoResult<Page<PermanentFailure>>;
    }
}

impl ReleaseRepository for Memory {
    not_kept! {
        fn lock_pending_contacts(&mut self, account: AccountId, sendout: SendoutId) -> RepoResult<()>;
        fn pending_other_surveys(&mut self, account: AccountId, sendout: SendoutId, survey: SurveyId, since: OffsetDateTime) -> RepoResult<Vec<(RespondentId, i64)>>;
        fn release_pending(&mut self, account: AccountId, sendout: SendoutId, held_back: &[RespondentId], sends_messages: bool, now: OffsetDateTime) -> RepoResult<()>;
    }
}

impl RetentionRepository for Memory {
    not_kept! {
        fn lock_retention(&mut self, wait: bool) -> RepoResult<bool>;
        fn unlock_retention(&mut self) -> RepoResult<()>;
        fn accounts_with_retention(&mut self) -> RepoResult<Vec<AccountId>>;
        fn sendouts_of_account(&mut self, account: AccountId) -> RepoResult<Vec<(SurveyId, SendoutId)>>;
        fn remove_respondents(&mut self, account: AccountId, sendout: SendoutId, added_before: OffsetDateTime, limit: i64, dry_run: bool) -> RepoResult<u64>;
        fn surveys_for_policies(&mut self, account: AccountId) -> RepoResult<Vec<(SurveyId, OffsetDateTime, Option<SurveyPolicy>)>>;
        fn erase_respondents(&mut self, account: AccountId, survey: SurveyId, kept_labels: &[LabelId], limit: i64, dry_run: bool) -> RepoResult<u64>;
        fn remove_open_text(&mut self, account: AccountId, survey: SurveyId, limit: i64, dry_run: bool) -> RepoResult<u64>;
        fn remove_answer_sets(&mut self, account: AccountId, survey: SurveyId, limit: i64, dry_run: bool) -> RepoResult<u64>;
        fn remove_survey_respondents(&mut self, account: AccountId, survey: SurveyId, limit: i64, dry_run: bool) -> RepoResult<u64>;
    }
}

impl ErasureRepository for Memory {
    not_kept! {
        fn erase_contact(&mut self, account: AccountId, contact: &ContactPatterns, include_answers: bool) -> RepoResult<Erased>;
    }
}

impl OutboxRepository for Memory {
    not_kept! {
        fn enqueue_due_reminders(&mut self, now: OffsetDateTime) -> RepoResult<u64>;
        fn claim_due(&mut self, now: OffsetDateTime, lease_until: OffsetDateTime, limit: i64) -> RepoResult<Vec<ClaimedMessage>>;
        fn record_round(&mut self, settled: &[Settled], now: OffsetDateTime) -> RepoResult<RecordedRound>;
        fn find_sent_by_token(&mut self, message_token: &str) -> RepoResult<SentLookup>;
        fn enqueue_message(&mut self, context: &TokenContext, key: &str, body: &str, now: OffsetDateTime) -> RepoResult<bool>;
        fn backlog(&mut self, now: OffsetDateTime) -> RepoResult<OutboxBacklog>;
    }
}

impl InsightRepository for Memory {
    not_kept! {
        fn sendout_figures(&mut self, account: AccountId, sendout: SendoutId, today: time::Date) -> RepoResult<SendoutFigures>;
        fn result_tallies(&mut self, account: AccountId, tree: &QuestionTree, filter: &AnswerFilter) -> RepoResult<ResultTallies>;
    }
}

impl PaceRepository for Memory {
    not_kept! {
        fn pace(&mut self, lock: bool) -> RepoResult<Option<Pace>>;
        fn save_pace(&mut self, pace: &Pace) -> RepoResult<()>;
    }
}
