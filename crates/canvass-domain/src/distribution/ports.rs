//! The ports of distribution: what the domain needs from a store for sendouts, respondents, the blocklist,
//! releasing pending respondents and the SMS numbers of accounts.
//!
//! Every method is scoped by the caller's `AccountId` unless its documentation says otherwise; the rules every
//! adapter follows are in [`crate::ports`].

use crate::chunks::ChunkRequest;
use crate::distribution::{
    BackgroundData, BgDocument, BlocklistEntry, BlocklistKey, BlocklistType, BounceFilter, DispatchType, Label,
    LabelDraft, NewPermanentFailure, NewRespondent, PermanentFailure, ProvisionedSender, Reminder, ReminderDraft,
    Respondent, SenderNumber, Sendout, SendoutDraft, Transition,
};
use crate::ids::{AccountId, BgDocumentId, LabelId, RespondentId, SendoutId, SurveyId};
use crate::paging::{Page, PageRequest};
use crate::ports::RepoResult;
use time::OffsetDateTime;

/// Sendouts, their labels, reminders and background data documents.
pub trait SendoutRepository {
    /// Stores a Draft sendout of the survey with its background data document.
    fn insert_sendout(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        draft: &SendoutDraft,
        now: OffsetDateTime,
    ) -> RepoResult<Sendout>;
    /// The survey's sendouts, in creation order, with their counts; `None` when the account has no such survey
    /// (one read answers both).
    fn list_sendouts(&mut self, account: AccountId, survey: SurveyId) -> RepoResult<Option<Vec<Sendout>>>;
    /// One sendout of the survey, with its counts; with `lock`, its row stays locked until the transaction ends.
    /// Read without `lock` (and in [`Self::list_sendouts`]) it carries its delivery (counts of its messages by
    /// where they stand) and its delivery issue, `dailyLimit` included; locked, only the issue its row holds.
    fn find_sendout(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        id: SendoutId,
        lock: bool,
    ) -> RepoResult<Option<Sendout>>;
    /// The dispatch type of one sendout of the survey, read without counting its respondents, so that adding
    /// respondents costs the same however many the sendout already has (`None`: no such sendout).
    fn sendout_kind(&mut self, account: AccountId, survey: SurveyId, id: SendoutId)
        -> RepoResult<Option<DispatchType>>;
    /// Stores a transition (the status, and the activation time when it activates). Releasing the pending
    /// respondents is [`ReleaseRepository::release_pending`].
    fn apply_transition(
        &mut self,
        account: AccountId,
        id: SendoutId,
        transition: Transition,
        now: OffsetDateTime,
    ) -> RepoResult<()>;
    /// Gives a LINK sendout's open link a new handle; the old one leads nowhere from then on.
    fn replace_open_link_handle(&mut self, account: AccountId, id: SendoutId, handle: &str) -> RepoResult<()>;
    /// Copies sendouts of `from` to `to` as Drafts: settings (the language included), labels (background data
    /// remapped) and respondents as Pending (Blocklisted when their contact is on the blocklist) with new link
    /// tokens. The caller has checked that each id is a sendout of `from`; an adapter copies only sendouts of `from`
    /// all the same.
    fn copy_sendouts(
        &mut self,
        account: AccountId,
        from: SurveyId,
        to: SurveyId,
        ids: &[SendoutId],
        now: OffsetDateTime,
    ) -> RepoResult<()>;
    /// Stores a label; `Duplicate` when the sendout has a label of that name.
    fn insert_label(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        draft: &LabelDraft,
        now: OffsetDateTime,
    ) -> RepoResult<Label>;
    /// The sendout's labels, in creation order.
    fn list_labels(&mut self, account: AccountId, sendout: SendoutId) -> RepoResult<Vec<Label>>;
    /// Every background data label (function 0) of the account.
    fn background_label_ids(&mut self, account: AccountId) -> RepoResult<Vec<LabelId>>;
    /// Stores a reminder.
    fn insert_reminder(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        draft: &ReminderDraft,
        now: OffsetDateTime,
    ) -> RepoResult<Reminder>;
    /// The sendout's reminders, in creation order.
    fn list_reminders(&mut self, account: AccountId, sendout: SendoutId) -> RepoResult<Vec<Reminder>>;
    /// The account's background data documents, in creation order.
    fn list_documents(&mut self, account: AccountId) -> RepoResult<Vec<BgDocument>>;
    /// One background data document.
    fn find_document(&mut self, account: AccountId, id: BgDocumentId) -> RepoResult<Option<BgDocument>>;
}

/// Respondents of sendouts.
pub trait RespondentRepository {
    /// Which of these contact keys the sendout already has.
    fn existing_contact_keys(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        keys: &[String],
    ) -> RepoResult<Vec<String>>;
    /// Inserts respondents as Pending in one statement, skipping any whose contact key the sendout already has
    /// (also when another transaction added it meanwhile); returns those inserted, in the given order.
    fn insert_respondents(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        rows: &[NewRespondent],
        now: OffsetDateTime,
    ) -> RepoResult<Vec<Respondent>>;
    /// One chunk of the sendout's respondents, in the order they were added (by id): at most `request.size()`
    /// respondents with ids after `request.after_key()`.
    fn respondents_chunk(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        request: &ChunkRequest<RespondentId>,
    ) -> RepoResult<Vec<Respondent>>;
    /// One respondent of the sendout.
    fn find_respondent(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        id: RespondentId,
    ) -> RepoResult<Option<Respondent>>;
    /// The invitation a respondent of the sendout is sent, in the language it is shown, with what its personal
    /// placeholders are filled with; `None` when the sendout has no such respondent.
    fn invitation_of(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        respondent: RespondentId,
    ) -> RepoResult<Option<crate::delivery::Invitation>>;
    /// The sendout of a respondent, when the respondent belongs to a sendout of the survey.
    fn respondent_sendout(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        respondent: RespondentId,
    ) -> RepoResult<Option<SendoutId>>;
    /// Sets the cells in `set` and removes the cells in `remove` of a respondent of the sendout; returns its
    /// background data afterwards, `None` when the sendout has no such respondent.
    fn update_background_data(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        respondent: RespondentId,
        set: &BackgroundData,
        remove: &[LabelId],
    ) -> RepoResult<Option<BackgroundData>>;
}

/// The blocklist and permanent email failures.
pub trait BlocklistRepository {
    /// Which of these contact keys are on the account's blocklist.
    fn blocked_keys(&mut self, account: AccountId, keys: &[String]) -> RepoResult<Vec<String>>;
    /// One chunk of the account's blocklist in key order (by `createdAt`, then by contact key): at most
    /// `request.size()` entries whose keys sort after `request.after_key()`, each with its key.
    fn blocklist_chunk(
        &mut self,
        account: AccountId,
        request: &ChunkRequest<BlocklistKey>,
    ) -> RepoResult<Vec<(BlocklistKey, BlocklistEntry)>>;
    /// Adds an entry and marks the account's respondents with that contact that were not yet sent to (Pending,
    /// Scheduled or Released) as Blocklisted; `None` when the contact is already on the list.
    fn insert_blocklist(
        &mut self,
        account: AccountId,
        contact_details: &str,
        contact_key: &str,
        kind: BlocklistType,
        now: OffsetDateTime,
    ) -> RepoResult<Option<BlocklistEntry>>;
    /// Removes an entry; `false` when there was none.
    fn delete_blocklist(&mut self, account: AccountId, contact_key: &str) -> RepoResult<bool>;
    /// Records failures, ignoring any already recorded for the same address and time, and marks the account's
    /// respondents with those addresses as Bounced; returns how many were new.
    fn record_failures(&mut self, account: AccountId, failures: &[NewPermanentFailure]) -> RepoResult<u64>;
    /// One page of the account's failures that pass the filter, oldest first.
    fn page_failures(
        &mut self,
        account: AccountId,
        filter: &BounceFilter,
        page: PageRequest,
    ) -> RepoResult<Page<PermanentFailure>>;
}

/// Releasing the pending respondents of a sendout, with the frequency limit.
pub trait ReleaseRepository {
    /// Takes a transaction-scoped lock on each contact pending in the sendout (in a fixed order), so that two
    /// activations never count the same contact's surveys at once.
    fn lock_pending_contacts(&mut self, account: AccountId, sendout: SendoutId) -> RepoResult<()>;
    /// For each pending respondent of the sendout, how many distinct surveys other than `survey` its contact was
    /// released in since `since`.
    fn pending_other_surveys(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        survey: SurveyId,
        since: OffsetDateTime,
    ) -> RepoResult<Vec<(RespondentId, i64)>>;
    /// Releases every pending respondent of the sendout, except those in `held_back`, which become
    /// FrequencyLimitReached. Released respondents become Scheduled when the service sends them their link
    /// (`sends_messages` and `sendMail`), else Released.
    fn release_pending(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        held_back: &[RespondentId],
        sends_messages: bool,
        now: OffsetDateTime,
    ) -> RepoResult<()>;
}

/// Sender numbers provisioned to accounts (by an operator, `canvass sender`). A number belongs to at most one
/// account.
pub trait SenderRepository {
    /// Provisions the number to the account unless some account has it already; returns the account that owns
    /// it afterwards (this one, or the one that had it), `None` when the account does not exist.
    fn provision_sender(
        &mut self,
        account: AccountId,
        number: &SenderNumber,
        now: OffsetDateTime,
    ) -> RepoResult<Option<AccountId>>;
    /// The account's numbers, in the order they were provisioned.
    fn list_senders(&mut self, account: AccountId) -> RepoResult<Vec<ProvisionedSender>>;
    /// Takes a number from the account; `false` when the account does not have it.
    fn remove_sender(&mut self, account: AccountId, number: &SenderNumber) -> RepoResult<bool>;
    /// Whether `number` (as a sendout names it) is provisioned to the account. The number stays the account's
    /// until the transaction ends (a concurrent removal waits).
    fn holds_sender(&mut self, account: AccountId, number: &str) -> RepoResult<bool>;
}

/// The timelines of the account's respondents. The events of changes made set-based (respondents added,
/// released, blocklisted, their messages' outcomes) are written by the adapter's own statements, each in the
/// transaction of the change that causes it; a respondent's own steps (a page viewed or saved, the survey
/// completed) are written through [`TimelineRepository::record_event`].
pub trait TimelineRepository {
    /// The events of a respondent of the sendout, oldest first (ties in the order they were written).
    fn respondent_events(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        respondent: RespondentId,
    ) -> RepoResult<Vec<crate::distribution::RespondentEvent>>;
    /// Writes one event of a respondent of the account, in the caller's transaction; a page's first view that was
    /// written before is not written again.
    fn record_event(
        &mut self,
        account: AccountId,
        respondent: RespondentId,
        at: time::OffsetDateTime,
        kind: crate::distribution::EventKind,
        detail: Option<serde_json::Value>,
    ) -> RepoResult<()>;
    /// The events of every respondent made from the contact, in time order: its latest
    /// [`MAX_CONTACT_EVENTS`](crate::distribution::MAX_CONTACT_EVENTS).
    fn contact_events(
        &mut self,
        account: AccountId,
        contact: crate::ids::ContactId,
    ) -> RepoResult<Vec<crate::distribution::RespondentEvent>>;
}
