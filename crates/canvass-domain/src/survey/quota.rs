//! Quotas: "200 answers from each region, then stop asking that region". A quota counts the completed answer sets
//! that meet its conditions, up to its limit; when full it ends a matching set (`endSurvey`) or closes the survey to
//! respondents who have not started (`closeSurvey`). Here are the rules a quota obeys and the decisions made from
//! a survey's quotas and one respondent's facts; the count itself is kept by the store, under a lock, so that it
//! never passes the limit however many sets complete at once.

use crate::error::FieldError;
use crate::ids::{QuotaId, SurveyId};
use crate::limits::push_length;

use super::condition::{check_conditions, Conditions, Facts};
use super::tree::QuestionTree;

/// The most characters of a quota's name.
pub const QUOTA_NAME: usize = 200;

/// The highest limit of a quota.
pub const QUOTA_LIMIT: i64 = 1_000_000_000;

/// What a full quota does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum QuotaAction {
    /// A set that meets the conditions ends (thank-you; kept as not completed, `quotaFull`).
    EndSurvey,
    /// The survey's pages close to respondents with no answer set yet.
    CloseSurvey,
}

impl QuotaAction {
    /// The name clients send and see.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::EndSurvey => "endSurvey",
            Self::CloseSurvey => "closeSurvey",
        }
    }

    /// The action of that name.
    pub fn parse(name: &str) -> Option<Self> {
        [Self::EndSurvey, Self::CloseSurvey].into_iter().find(|action| action.as_str() == name)
    }
}

/// A quota as a client gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuotaInput {
    /// What it is called; 1 to [`QUOTA_NAME`] characters, not blank.
    pub name: String,
    /// The sets it counts.
    pub when: Conditions,
    /// How many it counts at most: 1 to [`QUOTA_LIMIT`].
    pub limit: i64,
    /// What it does when full.
    pub action: QuotaAction,
}

impl QuotaInput {
    /// The broken rules of the quota against the survey's tree: its name, its limit and its conditions (which may
    /// name any item that takes an answer, and background labels).
    pub fn check(&self, tree: &QuestionTree) -> Vec<FieldError> {
        let mut errors = Vec::new();
        if self.name.trim().is_empty() {
            errors.push(FieldError::new("name", "must not be blank"));
        }
        push_length(&mut errors, "name", &self.name, QUOTA_NAME);
        if !(1..=QUOTA_LIMIT).contains(&self.limit) {
            errors.push(FieldError::new("limit", format!("must be 1 to {QUOTA_LIMIT}")));
        }
        errors.extend(check_conditions(&self.when, "when", tree, &|_| None));
        errors
    }
}

impl QuotaInput {
    /// The same quota over a copy's items (`items` pairs each original item with its copy); `None` when it names
    /// an item the copy lacks.
    pub fn mapped(&self, items: &[(crate::ids::QuestionItemId, crate::ids::QuestionItemId)]) -> Option<Self> {
        Some(Self { when: self.when.mapped(items)?, ..self.clone() })
    }
}

/// A change of a quota: each field given replaces the quota's; its count stays.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct QuotaPatch {
    /// A new name.
    pub name: Option<String>,
    /// New conditions.
    pub when: Option<Conditions>,
    /// A new limit (below the count, the quota is full at once).
    pub limit: Option<i64>,
    /// A new action.
    pub action: Option<QuotaAction>,
}

impl QuotaPatch {
    /// `input` with the patch's fields in place of its own.
    pub fn applied_to(self, input: QuotaInput) -> QuotaInput {
        QuotaInput {
            name: self.name.unwrap_or(input.name),
            when: self.when.unwrap_or(input.when),
            limit: self.limit.unwrap_or(input.limit),
            action: self.action.unwrap_or(input.action),
        }
    }
}

/// Whether any quota's conditions name a background label (the respondent's background is then read to settle).
pub fn name_background(quotas: &[Quota]) -> bool {
    quotas.iter().any(|quota| quota.input.when.names_background())
}

/// A stored quota with its live count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quota {
    /// The quota's id.
    pub id: QuotaId,
    /// Its survey.
    pub survey_id: SurveyId,
    /// What it is.
    pub input: QuotaInput,
    /// The sets it has counted, never above its limit.
    pub count: i64,
}

impl Quota {
    /// Whether it has counted as many sets as its limit.
    pub fn is_full(&self) -> bool {
        self.count >= self.input.limit
    }

    fn meets(&self, facts: &dyn Facts) -> bool {
        self.input.when.holds(facts)
    }
}

/// What completing one answer set does to a survey's quotas.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Settlement {
    /// The set completes; the quotas it meets that are not full count it.
    Counted(Vec<QuotaId>),
    /// A full `endSurvey` quota holds the set: it stays not completed, marked `quotaFull`, and nothing counts it.
    QuotaFull,
}

/// What completing a set with these facts does to `quotas` (as read; see [`filled_meanwhile`]): a full `endSurvey` quota
/// whose conditions the set meets keeps it from completing; otherwise every quota it meets that is not full counts
/// it (a full `closeSurvey` quota counts no more, and holds no one who has started).
pub fn settle(quotas: &[Quota], facts: &dyn Facts) -> Settlement {
    let met: Vec<&Quota> = quotas.iter().filter(|quota| quota.meets(facts)).collect();
    if met.iter().any(|quota| quota.input.action == QuotaAction::EndSurvey && quota.is_full()) {
        return Settlement::QuotaFull;
    }
    Settlement::Counted(met.into_iter().filter(|quota| !quota.is_full()).map(|quota| quota.id).collect())
}

/// Whether a count of a set in the quotas `tried` (those [`settle`] named) that counted only in `counted` met an
/// `endSurvey` quota that filled since the quotas were read: the set is then ended after all.
pub fn filled_meanwhile(quotas: &[Quota], tried: &[QuotaId], counted: &[QuotaId]) -> bool {
    let missed = |quota: &&Quota| tried.contains(&quota.id) && !counted.contains(&quota.id);
    quotas.iter().filter(missed).any(|quota| quota.input.action == QuotaAction::EndSurvey)
}

/// Whether a page save with these facts ends the set: a full `endSurvey` quota's conditions hold for it.
pub fn ends_now(quotas: &[Quota], facts: &dyn Facts) -> bool {
    quotas.iter().any(|quota| quota.input.action == QuotaAction::EndSurvey && quota.is_full() && quota.meets(facts))
}

/// Whether the survey is closed to respondents with no answer set yet: a `closeSurvey` quota is full.
pub fn closes(quotas: &[Quota]) -> bool {
    quotas.iter().any(|quota| quota.input.action == QuotaAction::CloseSurvey && quota.is_full())
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::survey::{Condition, ConditionValue, KnownFacts, Operator, Subject};

    fn region(name: &str) -> Conditions {
        let value = Some(ConditionValue::Text(name.into()));
        Conditions::One(Condition { subject: Subject::Background("Region".into()), operator: Operator::Equals, value })
    }

    fn quota(id: i64, of: &str, limit: i64, count: i64, action: QuotaAction) -> Quota {
        let input = QuotaInput { name: format!("{of} {id}"), when: region(of), limit, action };
        Quota { id: QuotaId::new(id), survey_id: SurveyId::new(1), input, count }
    }

    fn in_region(name: &str) -> BTreeMap<String, String> {
        BTreeMap::from([("Region".to_owned(), name.to_owned())])
    }

    #[test]
    fn a_set_counts_in_the_quotas_it_meets_that_are_not_full() {
        let tree = QuestionTree::assemble(SurveyId::new(1), vec![], vec![]);
        let quotas = [
            quota(1, "North", 2, 1, QuotaAction::EndSurvey),
            quota(2, "North", 5, 5, QuotaAction::CloseSurvey),
            quota(3, "South", 2, 0, QuotaAction::EndSurvey),
        ];
        let north = in_region("north");
        let facts = KnownFacts::new(&tree, &[], &north);
        assert_eq!(settle(&quotas, &facts), Settlement::Counted(vec![QuotaId::new(1)]));
        assert!(!ends_now(&quotas, &facts));
        assert!(closes(&quotas), "a full closeSurvey quota closes the survey to new respondents");
    }

    #[test]
    fn a_full_end_quota_keeps_a_matching_set_from_completing() {
        let tree = QuestionTree::assemble(SurveyId::new(1), vec![], vec![]);
        let quotas = [quota(1, "North", 2, 2, QuotaAction::EndSurvey), quota(2, "North", 9, 0, QuotaAction::EndSurvey)];
        let (north, south) = (in_region("North"), in_region("South"));
        let facts = KnownFacts::new(&tree, &[], &north);
        assert_eq!(settle(&quotas, &facts), Settlement::QuotaFull, "and the other quota does not count it");
        assert!(ends_now(&quotas, &facts));
        let elsewhere = KnownFacts::new(&tree, &[], &south);
        assert_eq!(settle(&quotas, &elsewhere), Settlement::Counted(vec![]));
        assert!(!closes(&quotas));
    }

    #[test]
    fn an_end_quota_that_filled_since_it_was_read_ends_the_set() {
        let quotas =
            [quota(1, "North", 2, 1, QuotaAction::EndSurvey), quota(2, "North", 9, 0, QuotaAction::CloseSurvey)];
        let (one, two) = (QuotaId::new(1), QuotaId::new(2));
        assert!(!filled_meanwhile(&quotas, &[one, two], &[one, two]));
        assert!(filled_meanwhile(&quotas, &[one, two], &[two]), "the end quota counted no more");
        assert!(!filled_meanwhile(&quotas, &[one, two], &[one]), "a close quota that filled holds no one started");
    }

    #[test]
    fn a_quota_is_checked_by_field() {
        let tree = QuestionTree::assemble(SurveyId::new(1), vec![], vec![]);
        let input = |name: &str, limit| QuotaInput {
            name: name.into(),
            when: region("North"),
            limit,
            action: QuotaAction::CloseSurvey,
        };
        assert!(input("North", 200).check(&tree).is_empty());
        let fields = |input: QuotaInput| input.check(&tree).into_iter().map(|e| e.field).collect::<Vec<_>>();
        assert_eq!(fields(input(" ", 1)), ["name"]);
        assert_eq!(fields(input("North", 0)), ["limit"]);
        assert_eq!(fields(input("North", QUOTA_LIMIT + 1)), ["limit"]);
        let on_item = Conditions::One(Condition {
            subject: Subject::Item(crate::ids::QuestionItemId::new(9)),
            operator: Operator::Answered,
            value: None,
        });
        let unknown = QuotaInput { when: on_item, ..input("North", 1) };
        assert_eq!(fields(unknown), ["when.questionItemId"]);
        assert_eq!(QuotaAction::parse("closeSurvey"), Some(QuotaAction::CloseSurvey));
        assert_eq!(QuotaAction::parse("stop"), None);
    }
}
