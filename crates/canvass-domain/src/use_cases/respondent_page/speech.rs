//! The language a respondent's pages speak and the survey's texts in it: the respondent's own language, else its
//! sendout's; the survey's translation into it, where the survey has one; and the survey's languages, offered as
//! links when there is more than one.

use std::collections::HashSet;

use crate::distribution::TokenContext;
use crate::error::DomainError;
use crate::ids::QuestionItemId;
use crate::language::Language;
use crate::ports::SurveyRepository;
use crate::survey::{Page, TextKey, TranslatedTexts};

use super::{PageState, PageView};

/// What a view of one link says and in which language.
pub(super) struct Speech {
    /// The language shown.
    language: Language,
    /// The survey's own language, then those of its translations in the order first stored.
    languages: Vec<Language>,
    /// The translation shown; `None` when the survey's own texts are shown as written.
    texts: Option<TranslatedTexts>,
}

impl Speech {
    /// Reads what the link's respondent is shown, with the texts of `items` (those of the page it shows), in one
    /// statement.
    pub(super) fn read(
        uow: &mut (impl SurveyRepository + ?Sized),
        context: &TokenContext,
        items: &[QuestionItemId],
    ) -> Result<Self, DomainError> {
        let language = context.shown_language();
        let (account, survey) = (context.account_id, context.survey_id);
        let (translated, texts) = uow.page_translation(account, survey, language, Some(items))?;
        let languages = std::iter::once(context.survey_language).chain(translated).collect();
        let texts = (language != context.survey_language).then(|| texts.unwrap_or_default());
        Ok(Self { language, languages, texts })
    }

    /// Whether `language` is one of the survey's (its own or a translation's): what a respondent may pick.
    pub(super) fn offers(&self, language: Language) -> bool {
        self.languages.contains(&language)
    }

    /// The view of `state` for the link `context` describes, its page (when it shows one) already in
    /// [`Self::page`]'s texts.
    pub(super) fn view(
        &self,
        context: &TokenContext,
        state: PageState,
        mut untranslated: HashSet<TextKey>,
    ) -> PageView {
        let (name, state) = match &self.texts {
            None => (context.survey_name.clone(), state),
            Some(texts) => {
                let name = texts.shown(TextKey::Name, &context.survey_name, texts.name.as_ref(), &mut untranslated);
                let state = match state {
                    PageState::Done { thank_you_message: Some(own) } => {
                        let given = texts.thank_you_message.as_ref();
                        let shown = texts.shown(TextKey::ThankYouMessage, &own, given, &mut untranslated);
                        PageState::Done { thank_you_message: Some(shown) }
                    }
                    other => other,
                };
                (name, state)
            }
        };
        PageView {
            survey_name: name,
            language: self.language,
            state,
            survey_language: context.survey_language,
            untranslated,
            languages: if self.languages.len() > 1 { self.languages.clone() } else { Vec::new() },
        }
    }

    /// `page` in the language shown, with the texts left in the survey's own language.
    pub(super) fn page(&self, page: Page) -> (Page, HashSet<TextKey>) {
        let mut untranslated = HashSet::new();
        let page = match &self.texts {
            Some(texts) => texts.translate_page(page, &mut untranslated),
            None => page,
        };
        (page, untranslated)
    }
}
