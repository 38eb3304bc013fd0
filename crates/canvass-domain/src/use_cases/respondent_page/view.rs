//! What the respondent sees: a page of the survey (with what is wrong with a submitted one), the thank-you, the
//! closed survey, the opt-out and its confirmation; each in the language its respondent is shown.

use std::collections::HashSet;

use crate::answer::{Answer, ValueProblem};
use crate::distribution::TokenContext;
use crate::ids::QuestionItemId;
use crate::language::Language;
use crate::survey::{Page, TextKey};

/// One view of a link, in the language its respondent is shown (its own, else its sendout's).
#[derive(Debug, Clone, PartialEq)]
pub struct PageView {
    /// The survey's name, in the language shown where the survey has it.
    pub survey_name: String,
    /// The language shown: the service's own words are in it, and the survey's texts where it has them.
    pub language: Language,
    /// What is shown.
    pub state: PageState,
    /// The language the survey's own texts are written in.
    pub survey_language: Language,
    /// The texts shown in the survey's own language for want of a translation into the language shown.
    pub untranslated: HashSet<TextKey>,
    /// The survey's languages (its own first), which the page offers as links; empty when it has one.
    pub languages: Vec<Language>,
}

impl PageView {
    /// The view of `state` for the link `context` describes, without the survey's texts (the opt-out pages).
    pub(super) fn of(context: &TokenContext, state: PageState) -> Self {
        Self {
            survey_name: context.survey_name.clone(),
            language: context.shown_language(),
            state,
            survey_language: context.survey_language,
            untranslated: HashSet::new(),
            languages: Vec::new(),
        }
    }

    /// The language a text of the survey is in when it is not the language shown: the survey's, for a text with
    /// no translation; `None` for a text in the language shown.
    pub fn other_language(&self, text: &TextKey) -> Option<Language> {
        self.untranslated.contains(text).then_some(self.survey_language)
    }
}

/// What a link shows.
#[derive(Debug, Clone, PartialEq)]
pub enum PageState {
    /// The survey does not take answers through this link (inactive sendout or survey, or expired link).
    Closed,
    /// The respondent has completed the survey.
    Done {
        /// The survey's own thank-you text; `None` shows the service's.
        thank_you_message: Option<String>,
    },
    /// A page to answer.
    Page(QuestionPage),
    /// The question whether to opt out, with its button.
    OptOut,
    /// The contact has opted out.
    OptedOut,
}

/// A page of the survey to answer. Its `Debug` counts the answers without showing them (open text is personal).
#[derive(Clone, PartialEq)]
pub struct QuestionPage {
    /// The page.
    pub page: Page,
    /// 1-based position of the page.
    pub number: usize,
    /// Pages in the survey.
    pub count: usize,
    /// Answers already given on this page (or just submitted, when `errors` is not empty).
    pub answers: Vec<Answer>,
    /// What is wrong with a submitted page; empty when nothing is.
    pub errors: Vec<PageError>,
}

impl std::fmt::Debug for QuestionPage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("QuestionPage")
            .field("page", &self.page.id)
            .field("number", &self.number)
            .field("count", &self.count)
            .field("answers", &self.answers.len())
            .field("errors", &self.errors)
            .finish()
    }
}

/// What is wrong with a submitted page.
#[derive(Debug, Clone, PartialEq)]
pub enum PageError {
    /// Another page than the one to answer now was submitted; this is that page.
    OutOfOrder,
    /// A required item was left unanswered.
    Unanswered(QuestionItemId),
    /// An item's value does not fit it.
    Invalid(QuestionItemId, ValueProblem),
    /// Answers given on earlier pages no longer fit the survey (it changed meanwhile): nothing was saved.
    EarlierAnswers,
}

impl PageError {
    /// The item the error is about, if it is about one.
    pub fn item(&self) -> Option<QuestionItemId> {
        match self {
            Self::Unanswered(item) | Self::Invalid(item, _) => Some(*item),
            Self::OutOfOrder | Self::EarlierAnswers => None,
        }
    }
}
