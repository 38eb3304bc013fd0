//! The port of alerts' store: a survey's alerts, and the emails a completion writes to the alert outbox. Sending
//! those is the outbox's ([`crate::ports::OutboxRepository::claim_due_alerts`]).
//!
//! Every method is scoped by the caller's `AccountId`; the rules every adapter follows are in [`crate::ports`].

use time::OffsetDateTime;

use super::{Alert, AlertEmail, AlertInput};
use crate::ids::{AccountId, AlertId, SendoutId, SurveyId};
use crate::ports::RepoResult;

/// A survey's alerts and their emails.
pub trait AlertRepository {
    /// Stores a new alert of the survey.
    fn insert_alert(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        input: &AlertInput,
        now: OffsetDateTime,
    ) -> RepoResult<Alert>;
    /// The survey's alerts in creation (id) order.
    fn survey_alerts(&mut self, account: AccountId, survey: SurveyId) -> RepoResult<Vec<Alert>>;
    /// Deletes an alert of the survey, and its emails not yet sent; `false` when the survey has no such alert.
    fn delete_alert(&mut self, account: AccountId, survey: SurveyId, id: AlertId) -> RepoResult<bool>;
    /// The names an alert email gives: the survey's, and the sendout's when there is one (`None` for a sendout
    /// that is gone).
    fn alert_origin_names(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        sendout: Option<SendoutId>,
    ) -> RepoResult<(String, Option<String>)>;
    /// Writes emails to the alert outbox, due at `now`, in one statement.
    fn enqueue_alert_emails(
        &mut self,
        account: AccountId,
        emails: &[AlertEmail],
        now: OffsetDateTime,
    ) -> RepoResult<()>;
}
