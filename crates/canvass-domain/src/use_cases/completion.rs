//! What completing an answer set does, in the transaction that writes it completed, however it completes (through
//! the API, on a page, in a TWOWAY conversation): its quotas settle, and a set that stays completed writes its
//! `answerSet.completed` event and the emails of the alerts it meets.

use std::collections::BTreeMap;

use time::OffsetDateTime;

use crate::alert;
use crate::answer::AnswerSet;
use crate::error::DomainError;
use crate::ids::AccountId;
use crate::ports::{AlertRepository, AnswerRepository, QuotaRepository, RespondentRepository, WebhookEvents};
use crate::survey::{self, KnownFacts, QuestionTree};
use crate::webhook::WebhookEvent;

/// Completes `set`, just written completed: settles its survey's quotas (a full `endSurvey` quota may end it
/// instead), and when it stays completed writes its `answerSet.completed` event and its alerts' emails. The
/// survey's quotas and alerts are read without locks; `background` is the respondent's when the caller has read
/// it, else it is read here only when a quota or an alert names a label. Answers the set as it stands.
pub(crate) fn complete(
    tx: &mut (impl AnswerRepository + QuotaRepository + AlertRepository + RespondentRepository + WebhookEvents + ?Sized),
    account: AccountId,
    tree: &QuestionTree,
    mut set: AnswerSet,
    background: Option<&BTreeMap<String, String>>,
    now: OffsetDateTime,
) -> Result<AnswerSet, DomainError> {
    let quotas = tx.survey_quotas(account, set.survey_id, false)?;
    let alerts = tx.survey_alerts(account, set.survey_id)?;
    let read;
    let background = match background {
        Some(background) => background,
        None if survey::name_background(&quotas) || alert::name_background(&alerts) => {
            read = super::quotas::background_of(tx, account, &set)?;
            &read
        }
        None => {
            read = BTreeMap::new();
            &read
        }
    };
    let facts = KnownFacts::new(tree, &set.answers, background);
    let ended = super::quotas::settle_quotas(tx, account, &set, &quotas, &facts, now)?;
    if !ended && set.completed {
        let subject = super::answers::completed_subject(account, &set);
        super::webhooks::emit(tx, WebhookEvent::AnswerSetCompleted, &[subject], now)?;
        super::alerts::raise(tx, account, tree, &set, &alerts, &facts, now)?;
    }
    if ended {
        set.completed = false;
        set.quota_full = true;
    }
    Ok(set)
}
