//! Surveys: the survey record, its question tree, its go-to-page logic and how a survey is copied.

mod condition;
mod conversation;
mod copy;
mod edit;
mod logic;
mod navigation;
mod piping;
pub mod ports;
mod question;
mod quota;
mod randomize;
mod settings;
mod shown;
mod translation;
mod tree;

pub use condition::{
    acting_rule, check_conditions, check_display, Condition, ConditionValue, ConditionalRule, Conditions, Facts,
    KnownFacts, Operator, RuleAction, Subject, MAX_GROUP_DEPTH, MAX_GROUP_MEMBERS,
};
pub(crate) use copy::paired;
pub use copy::{CopyPlan, CopyRequest};
pub use edit::{place, ItemPatch, PageInput, PagePatch};
pub use logic::{rules_from_json, LogicRuleDraft, LogicRules, RuleDraft};
pub use piping::{check_item_pipes, check_pipes, piped_items, pipes, pipes_mapped, PipeValues};
pub use question::{ChoiceOption, QuestionItem, QuestionItemDraft, QuestionType};
pub use quota::{
    closes, ends_now, filled_meanwhile, name_background, settle, Quota, QuotaAction, QuotaInput, QuotaPatch,
    Settlement, QUOTA_LIMIT, QUOTA_NAME,
};
pub use randomize::{shown_order, ShownOrder};
pub use settings::{compile_pattern, Finite, ItemSettings, TextFormat, MATRIX_ROWS};
pub use shown::TextKey;
pub use translation::{ItemTexts, TranslatedTexts, Translation, TranslationInput};
pub use tree::{LogicRule, Page, PageDraft, QuestionTree};

use time::{Duration, OffsetDateTime};

use crate::error::FieldError;
use crate::ids::{CategoryId, SurveyId};
use crate::language::Language;

/// How long a survey runs when no end date is given.
pub const DEFAULT_DURATION: Duration = Duration::days(14);

/// A survey record (its question tree is a [`QuestionTree`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Survey {
    /// The survey's id.
    pub id: SurveyId,
    /// Name shown to the account's users.
    pub name: String,
    /// Free description.
    pub description: String,
    /// When the survey opens.
    pub start_date: OffsetDateTime,
    /// When it closes; always after `start_date`.
    pub end_date: OffsetDateTime,
    /// Its category, `None` when uncategorized.
    pub category_id: Option<CategoryId>,
    /// Whether it takes answers.
    pub active: bool,
    /// When it was created.
    pub created_at: OffsetDateTime,
    /// When it was last changed.
    pub updated_at: OffsetDateTime,
    /// The version of its question tree: 1 at creation and in a copy, one more with every change of its pages,
    /// items or logic.
    pub tree_version: i32,
    /// The survey's own thank-you text, shown after completion in place of the service's; `None` for the
    /// service's.
    pub thank_you_message: Option<String>,
    /// The language its own texts are written in; its translations are into other languages.
    pub language: Language,
}

/// A checked new survey, ready to store: name, dates and pages obey every rule. Made only by
/// [`SurveyDraft::new`] (or as the copy of a stored survey), and read through its accessors.
#[derive(Debug, Clone, PartialEq)]
pub struct SurveyDraft {
    name: String,
    description: String,
    start_date: OffsetDateTime,
    end_date: OffsetDateTime,
    category_id: Option<CategoryId>,
    active: bool,
    thank_you_message: Option<String>,
    language: Language,
    pages: Vec<PageDraft>,
}

/// The fields a client gives to create a survey, before checking.
#[derive(Debug, Clone, Default)]
pub struct SurveyInput {
    /// Mandatory name.
    pub name: String,
    /// Optional description.
    pub description: Option<String>,
    /// Start; default now.
    pub start_date: Option<OffsetDateTime>,
    /// End; default start plus [`DEFAULT_DURATION`].
    pub end_date: Option<OffsetDateTime>,
    /// Category (`None` or `-999`: uncategorized).
    pub category_id: Option<CategoryId>,
    /// Default true.
    pub active: Option<bool>,
    /// The survey's own thank-you text: at most [`crate::limits::THANK_YOU_MESSAGE`] characters; blank means none.
    pub thank_you_message: Option<String>,
    /// The language its own texts are written in; default English.
    pub language: Option<Language>,
    /// Pages with their items.
    pub pages: Vec<PageDraft>,
}

/// The start and end of a survey, with the defaults applied: start now, end start plus 14 days; end after start.
///
/// ```
/// use canvass_domain::survey::survey_dates;
/// use time::macros::datetime;
///
/// let now = datetime!(2026-11-22 10:00 UTC);
/// assert_eq!(survey_dates(None, None, now), Ok((now, datetime!(2026-12-06 10:00 UTC))));
/// assert!(survey_dates(Some(now), Some(now), now).is_err());
/// assert_eq!(survey_dates(Some(datetime!(9999-12-30 00:00 UTC)), None, now).unwrap_err().field, "endDate");
/// ```
pub fn survey_dates(
    start: Option<OffsetDateTime>,
    end: Option<OffsetDateTime>,
    now: OffsetDateTime,
) -> Result<(OffsetDateTime, OffsetDateTime), FieldError> {
    let start = start.unwrap_or(now);
    let end = match end {
        Some(end) => end,
        None => start
            .checked_add(DEFAULT_DURATION)
            .filter(|end| end.year() <= *crate::timestamp::SUPPORTED_YEARS.end())
            .ok_or_else(|| FieldError::new("endDate", "is required when startDate is this late"))?,
    };
    if end <= start {
        return Err(FieldError::new("endDate", "must be after startDate"));
    }
    Ok((start, end))
}

impl SurveyDraft {
    /// Applies the defaults and checks every rule of a new survey; `category_id` must already be resolved.
    pub fn new(input: SurveyInput, now: OffsetDateTime) -> Result<Self, Vec<FieldError>> {
        let mut errors = Vec::new();
        let name = match crate::limits::check_name("name", &input.name, crate::limits::NAME) {
            Ok(name) => name.to_owned(),
            Err(error) => {
                errors.push(error);
                String::new()
            }
        };
        if let Some(description) = &input.description {
            crate::limits::push_length(&mut errors, "description", description, crate::limits::DESCRIPTION);
        }
        let thank_you = input.thank_you_message.as_deref();
        let thank_you_message =
            match crate::limits::check_optional_text("thankYouMessage", thank_you, crate::limits::THANK_YOU_MESSAGE) {
                Ok(message) => message.map(str::to_owned),
                Err(error) => {
                    errors.push(error);
                    None
                }
            };
        if let Some(message) = &thank_you_message {
            // A new survey's items have no ids yet: its thank-you message pipes no answers.
            let no_items = QuestionTree::assemble(SurveyId::new(0), Vec::new(), Vec::new());
            check_pipes(message, "thankYouMessage", &no_items, 0, &mut errors);
        }
        let dates = survey_dates(input.start_date, input.end_date, now).map_err(|e| errors.push(e)).ok();
        for (index, page) in input.pages.iter().enumerate() {
            errors.extend(page.check(&format!("pages[{index}]")));
        }
        match dates {
            Some((start_date, end_date)) if errors.is_empty() => Ok(Self {
                name,
                description: input.description.unwrap_or_default(),
                start_date,
                end_date,
                category_id: crate::category::category_of(input.category_id),
                active: input.active.unwrap_or(true),
                thank_you_message,
                language: input.language.unwrap_or_default(),
                pages: input.pages.into_iter().map(PageDraft::without_blank_labels).collect(),
            }),
            _ => Err(errors),
        }
    }

    /// Non-empty name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Description, possibly empty.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// Start.
    pub fn start_date(&self) -> OffsetDateTime {
        self.start_date
    }

    /// End, after start.
    pub fn end_date(&self) -> OffsetDateTime {
        self.end_date
    }

    /// Category, which the use case checks against the account's categories before it stores the survey.
    pub fn category_id(&self) -> Option<CategoryId> {
        self.category_id
    }

    /// Whether it takes answers.
    pub fn active(&self) -> bool {
        self.active
    }

    /// The survey's own thank-you text as given, `None` when none or blank was given.
    pub fn thank_you_message(&self) -> Option<&str> {
        self.thank_you_message.as_deref()
    }

    /// The language its own texts are written in.
    pub fn language(&self) -> Language {
        self.language
    }

    /// Pages in order, each with its items in order.
    pub fn pages(&self) -> &[PageDraft] {
        &self.pages
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    const NOW: OffsetDateTime = datetime!(2026-11-22 10:00 UTC);

    #[test]
    fn defaults_apply_when_only_a_name_is_given() {
        let draft = SurveyDraft::new(SurveyInput { name: "Pulse".into(), ..Default::default() }, NOW).unwrap();
        assert_eq!(draft.start_date(), NOW);
        assert_eq!(draft.end_date(), NOW + Duration::days(14));
        assert!(draft.active());
        assert_eq!(draft.category_id(), None);
        assert_eq!(draft.description(), "");
    }

    #[test]
    fn end_defaults_from_a_given_start() {
        let start = datetime!(2027-01-01 00:00 UTC);
        let draft =
            SurveyDraft::new(SurveyInput { name: "x".into(), start_date: Some(start), ..Default::default() }, NOW)
                .unwrap();
        assert_eq!(draft.end_date(), datetime!(2027-01-15 00:00 UTC));
    }

    #[test]
    fn a_name_is_measured_as_sent_before_trimming() {
        let padded = |pad: usize| SurveyInput { name: format!("{}Pulse", " ".repeat(pad)), ..Default::default() };
        let fits = crate::limits::NAME - "Pulse".len();
        assert_eq!(SurveyDraft::new(padded(fits), NOW).unwrap().name(), "Pulse");
        let errors = SurveyDraft::new(padded(fits + 1), NOW).unwrap_err();
        assert_eq!(errors[0].field, "name");
    }

    #[test]
    fn every_broken_rule_is_reported() {
        let input = SurveyInput {
            name: "  ".into(),
            start_date: Some(NOW),
            end_date: Some(NOW - Duration::days(1)),
            pages: vec![PageDraft {
                title: "p".into(),
                items: vec![QuestionItemDraft::default()],
                randomize_items: false,
            }],
            ..Default::default()
        };
        let fields: Vec<_> = SurveyDraft::new(input, NOW).unwrap_err().into_iter().map(|e| e.field).collect();
        assert!(fields.contains(&"name".to_owned()));
        assert!(fields.contains(&"endDate".to_owned()));
        assert!(fields.contains(&"pages[0].items[0].text".to_owned()), "{fields:?}");
    }

    fn with_thank_you(message: &str) -> SurveyInput {
        SurveyInput { name: "Pulse".into(), thank_you_message: Some(message.into()), ..Default::default() }
    }

    #[test]
    fn a_thank_you_message_is_kept_as_given_up_to_its_limit() {
        let longest = "é".repeat(crate::limits::THANK_YOU_MESSAGE);
        assert_eq!(SurveyDraft::new(with_thank_you(&longest), NOW).unwrap().thank_you_message(), Some(&*longest));
        let kept = SurveyDraft::new(with_thank_you(" Thanks!\n"), NOW).unwrap();
        assert_eq!(kept.thank_you_message(), Some(" Thanks!\n"));
        let errors = SurveyDraft::new(with_thank_you(&format!("{longest}x")), NOW).unwrap_err();
        let fields: Vec<_> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["thankYouMessage"]);
        assert!(errors[0].message.contains("2000"), "{}", errors[0].message);
    }

    #[test]
    fn a_new_survey_s_thank_you_message_pipes_personal_data_but_no_answers() {
        assert!(SurveyDraft::new(with_thank_you("Thanks, {{firstName|friend}} of {{bg.Region}}!"), NOW).is_ok());
        let errors = SurveyDraft::new(with_thank_you("You chose {{answer.3}}"), NOW).unwrap_err();
        assert_eq!(errors.iter().map(|e| e.field.as_str()).collect::<Vec<_>>(), ["thankYouMessage"]);
    }

    #[test]
    fn a_blank_thank_you_message_means_none() {
        for blank in ["", "   ", "\n\t "] {
            assert_eq!(SurveyDraft::new(with_thank_you(blank), NOW).unwrap().thank_you_message(), None, "{blank:?}");
        }
        let absent = SurveyDraft::new(SurveyInput { name: "Pulse".into(), ..Default::default() }, NOW).unwrap();
        assert_eq!(absent.thank_you_message(), None);
        let too_long = " ".repeat(crate::limits::THANK_YOU_MESSAGE + 1);
        let errors = SurveyDraft::new(with_thank_you(&too_long), NOW).unwrap_err();
        assert_eq!(errors[0].field, "thankYouMessage", "measured as sent, blanks included");
    }

    #[test]
    fn minus_999_means_uncategorized() {
        let input = SurveyInput { name: "x".into(), category_id: Some(CategoryId::new(-999)), ..Default::default() };
        assert_eq!(SurveyDraft::new(input, NOW).unwrap().category_id(), None);
    }
}
