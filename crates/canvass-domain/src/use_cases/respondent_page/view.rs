//! What the respondent sees: a page of the survey (with what is wrong with a submitted one), the thank-you, the
//! closed survey, the opt-out and its confirmation; each in the language of the link's sendout.

use crate::answer::{Answer, ValueProblem};
use crate::distribution::TokenContext;
use crate::ids::QuestionItemId;
use crate::language::Language;
use crate::survey::Page;

/// One view of a link, in its sendout's language.
#[derive(Debug, Clone, PartialEq)]
pub struct PageView {
    /// The survey's name.
    pub survey_name: String,
    /// The language the service's own words are in.
    pub language: Language,
    /// What is shown.
    pub state: PageState,
}

impl PageView {
    /// The view of `state` for the link `context` describes.
    pub(super) fn of(context: &TokenContext, state: PageState) -> Self {
        Self { survey_name: context.survey_name.clone(), language: context.language, state }
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
