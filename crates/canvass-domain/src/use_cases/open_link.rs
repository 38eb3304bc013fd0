//! Open links: the start page a visitor sees at `/s/<handle>` (it changes nothing: mail scanners and chat previews
//! fetch links), and the start that makes the visitor an anonymous respondent with a link token of its own, from
//! where the respondent pages take over.
//!
//! A handle has the link token's form, `<account>-<40 hex digits>`: one of any other form is not looked up, and
//! the look-up reads the account it names alone. A sendout that takes no visitors (not Active, its survey
//! inactive, expired, or as many completed answer sets as its cap, or a full `closeSurvey` quota on its survey)
//! shows the closed page and starts no one.

use crate::clock::Clock;
use crate::distribution::{
    hidden_fields, new_survey_link_token, survey_link_route, BackgroundData, LinkRoute, OpenLinkTarget,
};
use crate::error::{DomainError, Resource};
use crate::ids::{RespondentId, SendoutId};
use crate::language::{Language, LanguageWish};
use crate::ports::{transaction, RespondentPageRepository, SendoutRepository, SurveyRepository, Transactional};
use crate::survey::TranslatedTexts;

/// What an open link shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpenLinkView {
    /// The start page: the survey's name and description, and a start button.
    Start {
        /// The survey's name.
        survey_name: String,
        /// The survey's description (may be empty).
        description: String,
        /// The language of the sendout's pages.
        language: Language,
    },
    /// The closed page: the sendout takes no visitors now.
    Closed {
        /// The survey's name.
        survey_name: String,
        /// The language of the sendout's pages.
        language: Language,
    },
}

impl OpenLinkView {
    /// The view of `target` (its start page when `open`, else its closed page) in the language `chosen` (else the
    /// sendout's), its name and description from `texts`, the survey's translation into it, where it has them.
    fn of(target: &OpenLinkTarget, open: bool, chosen: Option<Language>, texts: Option<&TranslatedTexts>) -> Self {
        let language = chosen.unwrap_or(target.language);
        let survey_name = texts.and_then(|t| t.name.clone()).unwrap_or_else(|| target.survey_name.clone());
        if open {
            let description = texts.and_then(|t| t.description.clone());
            Self::Start {
                survey_name,
                description: description.unwrap_or_else(|| target.survey_description.clone()),
                language,
            }
        } else {
            Self::Closed { survey_name, language }
        }
    }

    /// The language the view is shown in.
    pub fn language(&self) -> Language {
        match self {
            Self::Start { language, .. } | Self::Closed { language, .. } => *language,
        }
    }
}

/// A visitor who started: its own link token, and what its browser is told.
#[derive(Clone, PartialEq, Eq)]
pub struct Visitor {
    /// The new respondent.
    pub respondent_id: RespondentId,
    /// Its sendout.
    pub sendout_id: SendoutId,
    /// Its own survey link token: its page is `/r/<token>`.
    pub token: String,
    /// Whether the browser is to be sent back to this visitor's page when it comes again.
    pub one_response_per_browser: bool,
}

crate::debug_without_personal_data!(Visitor { respondent_id, sendout_id, one_response_per_browser });

/// What a start did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartOutcome {
    /// A new anonymous respondent.
    Started(Visitor),
    /// The sendout takes no visitors: nothing was made.
    Closed(OpenLinkView),
}

/// The LINK sendout behind `handle`: not found for a handle of no form, of no LINK sendout, or rotated away.
fn target(uow: &mut (impl RespondentPageRepository + ?Sized), handle: &str) -> Result<OpenLinkTarget, DomainError> {
    let Some(LinkRoute::Account(account)) = survey_link_route(handle) else {
        return Err(DomainError::NotFound(Resource::OpenLink));
    };
    uow.find_open_link(account, handle)?.ok_or(DomainError::NotFound(Resource::OpenLink))
}

/// The language of the survey `wish` chooses (see [`LanguageWish::choose`]), with the survey's translation into it
/// when it is not the survey's own; `None` when it chooses none of the survey's languages.
fn chosen(
    uow: &mut (impl SurveyRepository + ?Sized),
    target: &OpenLinkTarget,
    wish: &LanguageWish,
) -> Result<(Option<Language>, Option<TranslatedTexts>), DomainError> {
    if *wish == LanguageWish::default() {
        return Ok((None, None));
    }
    let (account, survey, own) = (target.account_id, target.survey_id, target.survey_language);
    let (translated, _) = uow.page_translation(account, survey, own, Some(&[]))?;
    let offered: Vec<Language> = std::iter::once(own).chain(translated).collect();
    let Some(language) = wish.choose(&offered) else { return Ok((None, None)) };
    let texts = if language == own { None } else { uow.page_translation(account, survey, language, Some(&[]))?.1 };
    Ok((Some(language), texts))
}

/// The start page of `handle`, or its closed page, in the language `wish` chooses among the survey's (else the
/// sendout's); changes nothing.
pub fn start_page(
    uow: &mut (impl RespondentPageRepository + SurveyRepository + ?Sized),
    clock: &dyn Clock,
    handle: &str,
    wish: &LanguageWish,
) -> Result<OpenLinkView, DomainError> {
    let target = target(uow, handle)?;
    let (language, texts) = chosen(uow, &target, wish)?;
    Ok(OpenLinkView::of(&target, target.takes_visitors(clock.now()), language, texts.as_ref()))
}

/// Starts a visitor of `handle`: while its sendout takes visitors, a new anonymous respondent (Released, no
/// contact) with its own link token; otherwise the closed page, and nothing is made.
///
/// `hidden` is what the start form carried from the link's query: the values of the sendout's label names become
/// the visitor's background data ([`hidden_fields`]); the labels are read only when there is something to match.
/// The language `wish` chooses among the survey's becomes the visitor's own (else it sees the sendout's).
pub fn start(
    uow: &mut (impl RespondentPageRepository + SendoutRepository + SurveyRepository + Transactional + ?Sized),
    clock: &dyn Clock,
    handle: &str,
    hidden: &[(String, String)],
    wish: &LanguageWish,
) -> Result<StartOutcome, DomainError> {
    transaction(uow, |tx| {
        let target = target(tx, handle)?;
        let now = clock.now();
        let (language, texts) = chosen(tx, &target, wish)?;
        if !target.takes_visitors(now) {
            return Ok(StartOutcome::Closed(OpenLinkView::of(&target, false, language, texts.as_ref())));
        }
        let background = match hidden {
            [] => BackgroundData::new(),
            _ => hidden_fields(&tx.list_labels(target.account_id, target.sendout_id)?, hidden),
        };
        let token = new_survey_link_token(target.account_id);
        let respondent_id = tx.insert_visitor(target.account_id, target.sendout_id, &token, &background, now)?;
        if let Some(language) = language {
            tx.set_respondent_language(target.account_id, respondent_id, language)?;
        }
        Ok(StartOutcome::Started(Visitor {
            respondent_id,
            sendout_id: target.sendout_id,
            token,
            one_response_per_browser: target.one_response_per_browser,
        }))
    })
}
