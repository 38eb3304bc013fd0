//! A visit to an open link: what the start page and the start need to know of the LINK sendout behind a handle,
//! and when that sendout takes new visitors.

use time::OffsetDateTime;

use crate::ids::{AccountId, SendoutId, SurveyId};
use crate::language::Language;

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
}

impl OpenLinkTarget {
    /// Whether the sendout takes a new visitor at `now`: Active, its survey active, not expired, its cap (if any)
    /// not reached.
    ///
    /// ```
    /// use canvass_domain::distribution::OpenLinkTarget;
    /// use canvass_domain::ids::{AccountId, SendoutId, SurveyId};
    /// use time::macros::datetime;
    ///
    /// let now = datetime!(2030-01-01 12:00 UTC);
    /// let open = OpenLinkTarget { account_id: AccountId::new(1), survey_id: SurveyId::new(2),
    ///     sendout_id: SendoutId::new(3), survey_name: "Event".into(), survey_description: String::new(),
    ///     language: Default::default(), survey_active: true, sendout_active: true, expiry_date: None,
    ///     max_responses: Some(10), one_response_per_browser: true, completed: 9 };
    /// assert!(open.takes_visitors(now));
    /// assert!(!OpenLinkTarget { completed: 10, ..open.clone() }.takes_visitors(now));
    /// assert!(!OpenLinkTarget { expiry_date: Some(now), ..open.clone() }.takes_visitors(now));
    /// assert!(!OpenLinkTarget { sendout_active: false, ..open }.takes_visitors(now));
    /// ```
    pub fn takes_visitors(&self, now: OffsetDateTime) -> bool {
        self.sendout_active
            && self.survey_active
            && self.expiry_date.is_none_or(|expiry| expiry > now)
            && self.max_responses.is_none_or(|cap| self.completed < cap)
    }
}
