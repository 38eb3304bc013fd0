//! The ways into and out of a survey besides its pages: logging in to a LOGIN sendout, and opting out through a
//! link.

use super::{context, is_open, PageState, PageView};
use crate::clock::Clock;
use crate::distribution::{BlocklistType, LoginPage};
use crate::error::DomainError;
use crate::ids::SendoutId;
use crate::language::Language;
use crate::ports::{transaction, BlocklistRepository, RespondentPageRepository, Transactional, WebhookEvents};
use crate::webhook::{EventSubject, WebhookEvent};

/// What a login identifier opens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoginOutcome {
    /// The respondent's survey, at this link token.
    Opens(String),
    /// Nothing: the identifier is unknown there, or the sendout, survey or link is not open. The form is shown
    /// again in the sendout's language (English, and no respondents, when there is no such LOGIN sendout).
    Nothing(LoginPage),
}

/// The language of a LOGIN sendout's login page: the sendout's, English when no LOGIN sendout has this id.
pub fn login_language(
    uow: &mut (impl RespondentPageRepository + ?Sized),
    sendout: SendoutId,
) -> Result<Language, DomainError> {
    Ok(uow.login_page(sendout)?.map(|page| page.language).unwrap_or_default())
}

/// The link token a login identifier opens in a LOGIN sendout, or nothing when the identifier is unknown there,
/// or the sendout, survey or link is not open.
pub fn login(
    uow: &mut (impl RespondentPageRepository + ?Sized),
    clock: &dyn Clock,
    sendout: SendoutId,
    identifier: &str,
) -> Result<LoginOutcome, DomainError> {
    let key = crate::distribution::contact_key(identifier);
    // A partial delete leaves `erased:<id>` as the contact key: that is no one's login.
    let found = if key.is_empty() || key.starts_with(crate::distribution::ERASED_PREFIX) {
        None
    } else {
        uow.find_login(sendout, &key)?
    };
    let now = clock.now();
    match found.filter(|(_, context)| is_open(context, now)) {
        Some((token, _)) => Ok(LoginOutcome::Opens(token)),
        None => Ok(LoginOutcome::Nothing(uow.login_page(sendout)?.unwrap_or_default())),
    }
}

/// The question whether to opt out, for the link's contact (whether or not its survey is still open).
pub fn opt_out_form(uow: &mut (impl RespondentPageRepository + ?Sized), token: &str) -> Result<PageView, DomainError> {
    Ok(PageView::of(&context(uow, token)?, PageState::OptOut))
}

/// Opts the link's contact out: it joins the account's blocklist as OptedOut (nothing changes when it is
/// already there), and the link's respondent is marked as opted out through its sendout (the first time is kept).
/// A contact that joins the blocklist writes a `respondent.optedOut` event for the link's respondent in the same
/// transaction.
pub fn opt_out(
    uow: &mut (impl BlocklistRepository + RespondentPageRepository + Transactional + WebhookEvents + ?Sized),
    clock: &dyn Clock,
    token: &str,
) -> Result<PageView, DomainError> {
    transaction(uow, |tx| {
        let context = context(tx, token)?;
        if !context.contact_details.is_empty() {
            let (kind, now) = (BlocklistType::OptedOut, clock.now());
            tx.mark_opted_out(context.account_id, context.respondent_id, now)?;
            let added =
                tx.insert_blocklist(context.account_id, &context.contact_details, &context.contact_key, kind, now)?;
            if added.is_some() {
                let subject = EventSubject::respondent(
                    context.account_id,
                    context.survey_id,
                    context.sendout_id,
                    context.respondent_id,
                );
                super::super::webhooks::emit(tx, WebhookEvent::RespondentOptedOut, &[subject], now)?;
            }
        }
        Ok(PageView::of(&context, PageState::OptedOut))
    })
}
