//! A visit to an open link: what the start page and the start need to know of the LINK sendout behind a handle,
//! and when that sendout takes new visitors.

use time::OffsetDateTime;
use validator::ValidateEmail;

use super::{BackgroundData, Label, LabelType};
use crate::ids::{AccountId, SendoutId, SurveyId};
use crate::language::Language;

/// The longest value a hidden field keeps, in characters.
pub const HIDDEN_VALUE: usize = 255;

/// A visitor's background data from the query of its open link (`?dept=Sales&src=poster`), as its start form
/// carried it: each parameter named exactly as one of the sendout's `labels` gives that label its value, the
/// first one of a name counting. Other parameters are ignored; a value that is empty, longer than
/// [`HIDDEN_VALUE`] characters, holds a NUL, or does not fit its label's type (a Number label keeps a JSON number,
/// a Date `YYYY-MM-DD`, an Email an email address, a Phone an E.164 number) is dropped.
///
/// ```
/// use canvass_domain::distribution::{hidden_fields, Label, LabelType};
/// use canvass_domain::ids::{LabelId, SendoutId};
///
/// let label = |id, name: &str, label_type| Label { id: LabelId::new(id), sendout_id: SendoutId::new(1),
///     name: name.into(), label_type, function: 0 };
/// let labels = [label(1, "dept", LabelType::Text), label(2, "age", LabelType::Number)];
/// let query = [("dept", "Sales"), ("Dept", "x"), ("age", "forty"), ("dept", "HR")];
/// let query: Vec<_> = query.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
/// let kept = hidden_fields(&labels, &query);
/// assert_eq!(kept.into_iter().collect::<Vec<_>>(), [(LabelId::new(1), "Sales".to_owned())]);
/// ```
pub fn hidden_fields(labels: &[Label], query: &[(String, String)]) -> BackgroundData {
    let mut kept = BackgroundData::new();
    for label in labels {
        let Some((_, value)) = query.iter().find(|(name, _)| *name == label.name) else { continue };
        if fits(label.label_type, value) {
            kept.insert(label.id, value.clone());
        }
    }
    kept
}

/// Whether `value` may be kept for a label of `label_type`.
fn fits(label_type: LabelType, value: &str) -> bool {
    let sane = !value.trim().is_empty() && value.chars().count() <= HIDDEN_VALUE && !value.contains('\0');
    sane && match label_type {
        LabelType::Text => true,
        LabelType::Number => value.trim() == value && serde_json::from_str::<serde_json::Number>(value).is_ok(),
        LabelType::Date => time::Date::parse(value, time::macros::format_description!("[year]-[month]-[day]")).is_ok(),
        LabelType::Email => value.validate_email(),
        LabelType::Phone => super::contact::is_e164(value),
    }
}

/// The prefix of an anonymous visitor's contact key: `visitor:<its link token>`. No contact of any type has this
/// form, so a visitor is never on the blocklist, never counted by the frequency limit, never a duplicate.
pub const VISITOR_KEY_PREFIX: &str = "visitor:";

/// The contact key of the visitor whose link token is `token`.
pub fn visitor_key(token: &str) -> String {
    format!("{VISITOR_KEY_PREFIX}{token}")
}

/// The LINK sendout behind a handle, as a visit sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenLinkTarget {
    /// The owning account.
    pub account_id: AccountId,
    /// The sendout's survey.
    pub survey_id: SurveyId,
    /// The LINK sendout.
    pub sendout_id: SendoutId,
    /// The survey's name, the start page's heading.
    pub survey_name: String,
    /// The survey's description, shown under it.
    pub survey_description: String,
    /// The language of the sendout's pages.
    pub language: Language,
    /// The language the survey is written in.
    pub survey_language: Language,
    /// Whether the survey takes answers.
    pub survey_active: bool,
    /// Whether the sendout is Active.
    pub sendout_active: bool,
    /// When the sendout stops taking answers.
    pub expiry_date: Option<OffsetDateTime>,
    /// The cap on completed answer sets, if any.
    pub max_responses: Option<i64>,
    /// Whether a browser that started is sent back to its own page.
    pub one_response_per_browser: bool,
    /// The sendout's completed answer sets, counted when it has a cap (0 otherwise).
    pub completed: i64,
    /// Whether a full `closeSurvey` quota closes the survey to newcomers.
    pub closed_by_quota: bool,
}

impl OpenLinkTarget {
    /// Whether the sendout takes a new visitor at `now`: Active, its survey active, not expired, its cap (if any)
    /// not reached, no full `closeSurvey` quota closing its survey.
    ///
    /// ```
    /// use canvass_domain::distribution::OpenLinkTarget;
    /// use canvass_domain::ids::{AccountId, SendoutId, SurveyId};
    /// use time::macros::datetime;
    ///
    /// let now = datetime!(2030-01-01 12:00 UTC);
    /// let open = OpenLinkTarget { account_id: AccountId::new(1), survey_id: SurveyId::new(2),
    ///     sendout_id: SendoutId::new(3), survey_name: "Event".into(), survey_description: String::new(),
    ///     language: Default::default(), survey_language: Default::default(), survey_active: true, sendout_active: true, expiry_date: None,
    ///     max_responses: Some(10), one_response_per_browser: true, completed: 9, closed_by_quota: false };
    /// assert!(open.takes_visitors(now));
    /// assert!(!OpenLinkTarget { closed_by_quota: true, ..open.clone() }.takes_visitors(now));
    /// assert!(!OpenLinkTarget { completed: 10, ..open.clone() }.takes_visitors(now));
    /// assert!(!OpenLinkTarget { expiry_date: Some(now), ..open.clone() }.takes_visitors(now));
    /// assert!(!OpenLinkTarget { sendout_active: false, ..open }.takes_visitors(now));
    /// ```
    pub fn takes_visitors(&self, now: OffsetDateTime) -> bool {
        self.sendout_active
            && self.survey_active
            && self.expiry_date.is_none_or(|expiry| expiry > now)
            && self.max_responses.is_none_or(|cap| self.completed < cap)
            && !self.closed_by_quota
    }
}
