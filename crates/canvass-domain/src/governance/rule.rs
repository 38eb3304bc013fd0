//! Retention rules: one per scope and action, and the resolution that picks the rule that applies to a
//! respondent (the most specific Active one: sendout, then survey, then account).

use time::{Duration, OffsetDateTime};

use crate::error::FieldError;
use crate::ids::{SendoutId, SurveyId};

/// The longest retention.
pub const MAX_RETENTION_DAYS: i32 = 3650;

/// Where a rule applies. [`ScopeKind`] names its kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::EnumDiscriminants)]
#[strum_discriminants(
    name(ScopeKind),
    doc = "The kind of a [`RuleScope`], without its ids. Its name (`Account`, ...) is what clients see and the store keeps.",
    derive(Hash, strum::EnumString, strum::IntoStaticStr, strum::VariantArray)
)]
pub enum RuleScope {
    /// Every survey of the account.
    Account,
    /// One survey.
    Survey(SurveyId),
    /// One sendout of a survey.
    Sendout(SurveyId, SendoutId),
}

impl RuleScope {
    /// The scope of this kind, with the ids its kind needs (a survey scope ignores `sendout`, an account scope
    /// both).
    ///
    /// ```
    /// use canvass_domain::governance::{RuleScope, ScopeKind};
    /// use canvass_domain::ids::{SendoutId, SurveyId};
    ///
    /// let (survey, sendout) = (SurveyId::new(1), SendoutId::new(2));
    /// assert_eq!(RuleScope::of(ScopeKind::Survey, survey, sendout), RuleScope::Survey(survey));
    /// assert_eq!(RuleScope::of(ScopeKind::Account, survey, sendout).name(), "Account");
    /// ```
    pub const fn of(kind: ScopeKind, survey: SurveyId, sendout: SendoutId) -> Self {
        match kind {
            ScopeKind::Account => Self::Account,
            ScopeKind::Survey => Self::Survey(survey),
            ScopeKind::Sendout => Self::Sendout(survey, sendout),
        }
    }

    /// The scope's kind.
    pub fn kind(self) -> ScopeKind {
        self.into()
    }

    /// The scope's name as clients see it.
    pub fn name(self) -> &'static str {
        self.kind().into()
    }

    /// The survey of a survey or sendout scope.
    pub const fn survey_id(self) -> Option<SurveyId> {
        match self {
            Self::Account => None,
            Self::Survey(survey) | Self::Sendout(survey, _) => Some(survey),
        }
    }

    /// The sendout of a sendout scope.
    pub const fn sendout_id(self) -> Option<SendoutId> {
        match self {
            Self::Sendout(_, sendout) => Some(sendout),
            Self::Account | Self::Survey(_) => None,
        }
    }

    /// How specific the scope is: sendout 2, survey 1, account 0.
    const fn specificity(self) -> u8 {
        match self {
            Self::Account => 0,
            Self::Survey(_) => 1,
            Self::Sendout(..) => 2,
        }
    }

    /// Whether the scope covers a respondent of `sendout` of `survey`.
    fn covers(self, survey: SurveyId, sendout: SendoutId) -> bool {
        match self {
            Self::Account => true,
            Self::Survey(s) => s == survey,
            Self::Sendout(s, o) => s == survey && o == sendout,
        }
    }
}

/// What a rule removes. Its name is what clients send and see, and what the store keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::EnumString, strum::IntoStaticStr, strum::VariantArray)]
#[strum(ascii_case_insensitive)]
pub enum RetentionAction {
    /// Removes the respondent's distribution and contact data; answers stay.
    RemoveRespondentDataWithoutAnswers,
}

impl RetentionAction {
    /// The name clients send and see.
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// The action named `name`, matched case-insensitively; numbers are never accepted.
    ///
    /// ```
    /// use canvass_domain::governance::RetentionAction;
    ///
    /// assert!(RetentionAction::parse("removerespondentdatawithoutanswers").is_some());
    /// assert!(RetentionAction::parse("0").is_none());
    /// ```
    pub fn parse(name: &str) -> Option<Self> {
        name.trim().parse().ok()
    }

    /// Every action's name, for `supportedValues`.
    pub fn names() -> Vec<String> {
        <Self as strum::VariantArray>::VARIANTS.iter().map(|a| a.as_str().to_owned()).collect()
    }
}

/// Whether a rule applies. Its name is what clients send and see, and what the store keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::EnumString, strum::IntoStaticStr, strum::VariantArray)]
pub enum RuleStatus {
    /// It applies.
    Active,
    /// It is skipped; the rule at the next broader scope applies.
    Paused,
}

impl RuleStatus {
    /// The name clients send and see.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// A retention rule, its days checked: made by [`RetentionRule::new`] (or [`RuleInput::into_rule`]), changed only
/// by [`RulePatch::apply`], read through its accessors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetentionRule {
    scope: RuleScope,
    action: RetentionAction,
    retention_days: i32,
    status: RuleStatus,
}

impl RetentionRule {
    /// A rule keeping data `retention_days` days, 1 to [`MAX_RETENTION_DAYS`] (else `retentionDays` is refused).
    ///
    /// ```
    /// use canvass_domain::governance::{RetentionAction, RetentionRule, RuleScope, RuleStatus};
    ///
    /// let action = RetentionAction::RemoveRespondentDataWithoutAnswers;
    /// assert!(RetentionRule::new(RuleScope::Account, action, 30, RuleStatus::Active).is_ok());
    /// assert_eq!(RetentionRule::new(RuleScope::Account, action, 0, RuleStatus::Active).unwrap_err().field, "retentionDays");
    /// ```
    pub fn new(
        scope: RuleScope,
        action: RetentionAction,
        retention_days: i64,
        status: RuleStatus,
    ) -> Result<Self, FieldError> {
        Ok(Self { scope, action, retention_days: check_days(retention_days)?, status })
    }

    /// Where it applies.
    pub fn scope(&self) -> RuleScope {
        self.scope
    }

    /// What it removes.
    pub fn action(&self) -> RetentionAction {
        self.action
    }

    /// Days the data is kept after the respondent entered the distribution, 1 to [`MAX_RETENTION_DAYS`].
    pub fn retention_days(&self) -> i32 {
        self.retention_days
    }

    /// Active or Paused.
    pub fn status(&self) -> RuleStatus {
        self.status
    }

    /// The instant before which respondents were added long enough ago to expire at `now`.
    pub fn cutoff(&self, now: OffsetDateTime) -> OffsetDateTime {
        now - Duration::days(i64::from(self.retention_days))
    }
}

fn check_days(days: i64) -> Result<i32, FieldError> {
    i32::try_from(days)
        .ok()
        .filter(|d| (1..=MAX_RETENTION_DAYS).contains(d))
        .ok_or_else(|| FieldError::new("retentionDays", format!("must be between 1 and {MAX_RETENTION_DAYS}")))
}

/// A rule to set (POST): the status defaults to Active.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleInput {
    /// What it removes.
    pub action: RetentionAction,
    /// Days, checked.
    pub retention_days: i64,
    /// Default Active.
    pub status: Option<RuleStatus>,
}

impl RuleInput {
    /// The rule for `scope`.
    ///
    /// ```
    /// use canvass_domain::governance::{RetentionAction, RuleInput, RuleScope, RuleStatus};
    ///
    /// let input = RuleInput { action: RetentionAction::RemoveRespondentDataWithoutAnswers, retention_days: 30, status: None };
    /// assert_eq!(input.into_rule(RuleScope::Account).unwrap().status(), RuleStatus::Active);
    /// assert!(RuleInput { retention_days: 3651, ..input }.into_rule(RuleScope::Account).is_err());
    /// ```
    pub fn into_rule(self, scope: RuleScope) -> Result<RetentionRule, FieldError> {
        RetentionRule::new(scope, self.action, self.retention_days, self.status.unwrap_or(RuleStatus::Active))
    }
}

/// A change to a rule (PATCH): at least one field; omitted fields keep their value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RulePatch {
    retention_days: Option<i32>,
    status: Option<RuleStatus>,
}

impl RulePatch {
    /// Checks a patch: at least one field, days in range.
    pub fn new(retention_days: Option<i64>, status: Option<RuleStatus>) -> Result<Self, FieldError> {
        if retention_days.is_none() && status.is_none() {
            return Err(FieldError::new("body", "give retentionDays, status or both"));
        }
        Ok(Self { retention_days: retention_days.map(check_days).transpose()?, status })
    }

    /// The rule after the patch. Changing the days never changes the status: a Paused rule stays Paused.
    ///
    /// ```
    /// use canvass_domain::governance::*;
    ///
    /// let action = RetentionAction::RemoveRespondentDataWithoutAnswers;
    /// let paused = RetentionRule::new(RuleScope::Account, action, 30, RuleStatus::Paused).unwrap();
    /// let patched = RulePatch::new(Some(60), None).unwrap().apply(paused);
    /// assert_eq!((patched.retention_days(), patched.status()), (60, RuleStatus::Paused));
    /// ```
    pub fn apply(self, rule: RetentionRule) -> RetentionRule {
        RetentionRule {
            retention_days: self.retention_days.unwrap_or(rule.retention_days),
            status: self.status.unwrap_or(rule.status),
            ..rule
        }
    }
}

/// The rule that applies to a respondent of `sendout` of `survey` for `action`: the most specific Active rule
/// (sendout, then survey, then account). Paused rules are skipped.
///
/// ```
/// use canvass_domain::governance::*;
/// use canvass_domain::ids::{SendoutId, SurveyId};
///
/// let (survey, sendout) = (SurveyId::new(1), SendoutId::new(2));
/// let rule = |scope, status| {
///     RetentionRule::new(scope, RetentionAction::RemoveRespondentDataWithoutAnswers, 10, status).unwrap()
/// };
/// let rules = [rule(RuleScope::Account, RuleStatus::Active), rule(RuleScope::Sendout(survey, sendout), RuleStatus::Paused)];
/// let picked = effective_rule(&rules, survey, sendout, RetentionAction::RemoveRespondentDataWithoutAnswers).unwrap();
/// assert_eq!(picked.scope(), RuleScope::Account);
/// ```
pub fn effective_rule(
    rules: &[RetentionRule],
    survey: SurveyId,
    sendout: SendoutId,
    action: RetentionAction,
) -> Option<&RetentionRule> {
    rules
        .iter()
        .filter(|r| r.action == action && r.status == RuleStatus::Active && r.scope.covers(survey, sendout))
        .max_by_key(|r| r.scope.specificity())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const ACTION: RetentionAction = RetentionAction::RemoveRespondentDataWithoutAnswers;

    fn scope() -> impl Strategy<Value = RuleScope> {
        prop_oneof![
            Just(RuleScope::Account),
            (1..4i64).prop_map(|s| RuleScope::Survey(SurveyId::new(s))),
            (1..4i64, 1..4i64).prop_map(|(s, o)| RuleScope::Sendout(SurveyId::new(s), SendoutId::new(o))),
        ]
    }

    fn rule() -> impl Strategy<Value = RetentionRule> {
        (scope(), 1..3650i32, prop::bool::ANY).prop_map(|(scope, retention_days, active)| RetentionRule {
            scope,
            action: ACTION,
            retention_days,
            status: if active { RuleStatus::Active } else { RuleStatus::Paused },
        })
    }

    proptest! {
        #[test]
        fn never_picks_a_paused_rule(rules in prop::collection::vec(rule(), 0..12), survey in 1..4i64, sendout in 1..4i64) {
            let (survey, sendout) = (SurveyId::new(survey), SendoutId::new(sendout));
            if let Some(picked) = effective_rule(&rules, survey, sendout, ACTION) {
                prop_assert_eq!(picked.status, RuleStatus::Active);
                prop_assert!(picked.scope.covers(survey, sendout));
            }
        }

        #[test]
        fn never_picks_a_broader_rule_when_a_narrower_active_one_exists(
            rules in prop::collection::vec(rule(), 0..12), survey in 1..4i64, sendout in 1..4i64
        ) {
            let (survey, sendout) = (SurveyId::new(survey), SendoutId::new(sendout));
            let picked = effective_rule(&rules, survey, sendout, ACTION);
            for candidate in rules.iter().filter(|r| r.status == RuleStatus::Active && r.scope.covers(survey, sendout)) {
                let picked = picked.expect("an applicable active rule exists, so one is picked");
                prop_assert!(picked.scope.specificity() >= candidate.scope.specificity());
            }
        }

        #[test]
        fn a_rule_that_covers_nothing_is_never_picked(rules in prop::collection::vec(rule(), 0..12)) {
            let (survey, sendout) = (SurveyId::new(99), SendoutId::new(99));
            prop_assert!(effective_rule(&rules, survey, sendout, ACTION).is_none_or(|r| r.scope == RuleScope::Account));
        }
    }

    #[test]
    fn days_are_bounded() {
        assert!(RulePatch::new(Some(0), None).is_err());
        assert!(RulePatch::new(Some(3650), None).is_ok());
        assert!(RulePatch::new(None, None).is_err());
    }

    #[test]
    fn expiry_counts_days_from_entry() {
        let rule =
            RetentionRule { scope: RuleScope::Account, action: ACTION, retention_days: 2, status: RuleStatus::Active };
        let added = time::macros::datetime!(2026-01-01 12:00 UTC);
        assert_eq!(rule.cutoff(time::macros::datetime!(2026-01-03 12:00 UTC)), added);
    }
}
