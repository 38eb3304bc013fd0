//! Copying a survey: the copy's options, their defaults and the rules they must obey.

use time::OffsetDateTime;

use crate::error::FieldError;
use crate::ids::{CategoryId, SendoutId};

use super::{survey_dates, PageDraft, QuestionItem, QuestionTree, Survey, SurveyDraft};

/// The copy options as a client gives them (the query of `GET /surveys/<id>/copy`), before defaults.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CopyRequest {
    /// `surveyname`: default the source's name.
    pub name: Option<String>,
    /// `description`: default the source's description.
    pub description: Option<String>,
    /// `startdate`: default now.
    pub start_date: Option<OffsetDateTime>,
    /// `enddate`: default start plus 14 days.
    pub end_date: Option<OffsetDateTime>,
    /// `categoryid`: default -999, uncategorized (the source's category is not carried over).
    pub category_id: Option<CategoryId>,
    /// `copyanswers`: default false.
    pub copy_answers: Option<bool>,
    /// `copylogic`: default false.
    pub copy_logic: Option<bool>,
    /// `copysendoutids`: comma-separated sendout ids of the source, default none.
    pub sendout_ids: Option<String>,
    /// `active`: default the source's flag.
    pub active: Option<bool>,
}

/// A copy with every default applied and every rule checked. Made only by [`CopyPlan::new`], read through its
/// accessors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CopyPlan {
    name: String,
    description: String,
    start_date: OffsetDateTime,
    end_date: OffsetDateTime,
    category_id: Option<CategoryId>,
    active: bool,
    thank_you_message: Option<String>,
    language: crate::language::Language,
    copy_answers: bool,
    copy_logic: bool,
    sendout_ids: Vec<SendoutId>,
}

impl CopyPlan {
    /// Applies the defaults of the interface to `request` for a copy of `source` made at `now`.
    ///
    /// ```
    /// use canvass_domain::ids::{CategoryId, SurveyId};
    /// use canvass_domain::survey::{CopyPlan, CopyRequest, Survey};
    /// use time::macros::datetime;
    ///
    /// let now = datetime!(2026-11-22 10:00 UTC);
    /// let source = Survey { id: SurveyId::new(1), name: "Pulse".into(), description: "weekly".into(),
    ///     start_date: now, end_date: now, category_id: Some(CategoryId::new(3)), active: false, created_at: now,
    ///     updated_at: now, tree_version: 3, thank_you_message: Some("Thanks!".into()),
    ///     language: Default::default() };
    /// let plan = CopyPlan::new(&source, CopyRequest::default(), now).unwrap();
    /// assert_eq!((plan.name(), plan.active(), plan.category_id()), ("Pulse", false, None));
    /// assert_eq!(plan.thank_you_message(), Some("Thanks!"));
    /// assert_eq!(plan.end_date(), datetime!(2026-12-06 10:00 UTC));
    /// assert!(!plan.copy_answers() && !plan.copy_logic() && plan.sendout_ids().is_empty());
    /// ```
    pub fn new(source: &Survey, request: CopyRequest, now: OffsetDateTime) -> Result<Self, Vec<FieldError>> {
        let mut errors = Vec::new();
        let name =
            match request.name.as_deref().map(|n| crate::limits::check_name("surveyname", n, crate::limits::NAME)) {
                None => source.name.clone(),
                Some(Ok(name)) => name.to_owned(),
                Some(Err(error)) => {
                    errors.push(error);
                    String::new()
                }
            };
        if let Some(description) = &request.description {
            crate::limits::push_length(&mut errors, "description", description, crate::limits::DESCRIPTION);
        }
        let dates = survey_dates(request.start_date, request.end_date, now)
            .map_err(|_| errors.push(FieldError::new("enddate", "must be after startdate")))
            .ok();
        let sendout_ids = parse_id_list(request.sendout_ids.as_deref().unwrap_or(""))
            .map_err(|message| errors.push(FieldError::new("copysendoutids", message)))
            .ok();
        match (dates, sendout_ids) {
            (Some((start_date, end_date)), Some(sendout_ids)) if errors.is_empty() => Ok(Self {
                name,
                description: request.description.unwrap_or_else(|| source.description.clone()),
                start_date,
                end_date,
                category_id: crate::category::category_of(request.category_id),
                active: request.active.unwrap_or(source.active),
                thank_you_message: source.thank_you_message.clone(),
                language: source.language,
                copy_answers: request.copy_answers.unwrap_or(false),
                copy_logic: request.copy_logic.unwrap_or(false),
                sendout_ids,
            }),
            _ => Err(errors),
        }
    }

    /// Name of the copy.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Description of the copy.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// Start of the copy.
    pub fn start_date(&self) -> OffsetDateTime {
        self.start_date
    }

    /// End of the copy, after its start.
    pub fn end_date(&self) -> OffsetDateTime {
        self.end_date
    }

    /// Category of the copy (still to be checked against the account's categories).
    pub fn category_id(&self) -> Option<CategoryId> {
        self.category_id
    }

    /// Whether the copy takes answers.
    pub fn active(&self) -> bool {
        self.active
    }

    /// The source's thank-you text, which the copy keeps.
    pub fn thank_you_message(&self) -> Option<&str> {
        self.thank_you_message.as_deref()
    }

    /// Whether the source's answer sets are copied.
    pub fn copy_answers(&self) -> bool {
        self.copy_answers
    }

    /// Whether the source's logic is copied (refused when it is broken).
    pub fn copy_logic(&self) -> bool {
        self.copy_logic
    }

    /// Sendouts of the source to copy (still to be checked against the source's sendouts).
    pub fn sendout_ids(&self) -> &[SendoutId] {
        &self.sendout_ids
    }
}

impl SurveyDraft {
    /// The new survey of a copy: the plan's name, dates, category and flag, with the pages and items of the
    /// source's stored tree, which obeyed every rule when they were stored.
    pub(crate) fn copy_of(plan: &CopyPlan, tree: &QuestionTree) -> Self {
        let pages = tree
            .pages
            .iter()
            .map(|page| PageDraft {
                title: page.title.clone(),
                items: page.items.iter().map(QuestionItem::to_draft).collect(),
                randomize_items: page.randomize_items,
            })
            .collect();
        Self {
            name: plan.name.clone(),
            description: plan.description.clone(),
            start_date: plan.start_date,
            end_date: plan.end_date,
            category_id: plan.category_id,
            active: plan.active,
            thank_you_message: plan.thank_you_message.clone(),
            language: plan.language,
            pages,
        }
    }
}

/// The id that `old` became in a copy, by the (source, copy) pairs of `pairs`.
pub(crate) fn paired<T: Copy + PartialEq>(pairs: &[(T, T)], old: T) -> Option<T> {
    pairs.iter().find(|(source, _)| *source == old).map(|(_, copy)| *copy)
}

/// The most sendouts one copy takes along.
pub const MAX_COPIED_SENDOUTS: usize = 100;

/// Parses a comma-separated list of ids; spaces around commas are allowed (only spaces, as the documented pattern
/// says: a tab or a vertical tab is refused), and empty entries (`1,,2`, `1,`, a lone `,`) name nothing and are
/// skipped, as a list written by hand or joined by a script may have them. An id named twice is copied once; at
/// most [`MAX_COPIED_SENDOUTS`] different ids.
fn parse_id_list(text: &str) -> Result<Vec<SendoutId>, String> {
    if !crate::limits::fits(text, crate::limits::ID_LIST) {
        return Err(format!("must be at most {} characters", crate::limits::ID_LIST));
    }
    let mut ids = Vec::new();
    for part in text.split(',').map(|part| part.trim_matches(' ')).filter(|part| !part.is_empty()) {
        let digits = part.bytes().all(|b| b.is_ascii_digit());
        let id = part.parse::<SendoutId>().ok().filter(|id| digits && id.get() > 0);
        let id = id.ok_or_else(|| format!("`{part}` is not a sendout id"))?;
        if !ids.contains(&id) {
            ids.push(id);
        }
        if ids.len() > MAX_COPIED_SENDOUTS {
            return Err(format!("names more than {MAX_COPIED_SENDOUTS} sendouts"));
        }
    }
    Ok(ids)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::SurveyId;
    use time::macros::datetime;

    const NOW: OffsetDateTime = datetime!(2026-11-22 10:00 UTC);

    fn source() -> Survey {
        Survey {
            id: SurveyId::new(1),
            name: "Pulse".into(),
            description: "weekly".into(),
            start_date: NOW,
            end_date: NOW,
            category_id: Some(CategoryId::new(3)),
            active: true,
            created_at: NOW,
            updated_at: NOW,
            tree_version: 4,
            thank_you_message: Some("Thank you for your time.".into()),
            language: crate::language::Language::Sv,
        }
    }

    fn ids(ids: &[i64]) -> Vec<SendoutId> {
        ids.iter().copied().map(SendoutId::new).collect()
    }

    #[test]
    fn sendout_ids_are_parsed() {
        assert_eq!(parse_id_list(" 1, 2 ,3"), Ok(ids(&[1, 2, 3])));
        assert_eq!(parse_id_list(""), Ok(vec![]));
        assert_eq!(parse_id_list("1,,2"), Ok(ids(&[1, 2])), "empty entries name nothing");
        assert_eq!(parse_id_list(" , 4 ,"), Ok(ids(&[4])));
        for nothing in [",", " , ,", ",,,"] {
            assert_eq!(parse_id_list(nothing), Ok(vec![]), "{nothing:?}");
        }
        assert!(parse_id_list("1,0").is_err(), "0 is no id");
        assert!(parse_id_list("1 2").is_err(), "ids are separated by commas");
        assert!(parse_id_list("1,x").is_err());
        assert!(parse_id_list("-4").is_err());
        // Only spaces are blanks here, as in the documented pattern.
        assert!(parse_id_list("\u{b}").is_err());
        assert!(parse_id_list("1,\t2").is_err());
        assert!(parse_id_list("+3").is_err());
    }

    #[test]
    fn an_id_list_longer_than_its_limit_is_refused_even_when_blank_or_repeated() {
        let limit = crate::limits::ID_LIST;
        assert_eq!(parse_id_list(&" ".repeat(limit)), Ok(vec![]));
        assert!(parse_id_list(&" ".repeat(limit + 1)).is_err());
        assert!(parse_id_list(&"1,".repeat(limit / 2 + 1)).is_err());
    }

    #[test]
    fn a_padded_name_is_measured_as_sent() {
        let padded = format!("{}Copy", " ".repeat(crate::limits::NAME));
        let request = CopyRequest { name: Some(padded), ..CopyRequest::default() };
        let errors = CopyPlan::new(&source(), request, NOW).unwrap_err();
        assert_eq!(errors[0].field, "surveyname");
    }

    #[test]
    fn given_options_override_the_source() {
        let request = CopyRequest {
            name: Some("Copy".into()),
            description: Some("d".into()),
            start_date: Some(datetime!(2027-01-01 00:00 UTC)),
            category_id: Some(CategoryId::new(5)),
            copy_answers: Some(true),
            copy_logic: Some(true),
            sendout_ids: Some("4".into()),
            active: Some(false),
            end_date: None,
        };
        let plan = CopyPlan::new(&source(), request, NOW).unwrap();
        assert_eq!(plan.name(), "Copy");
        assert_eq!(plan.end_date(), datetime!(2027-01-15 00:00 UTC));
        assert_eq!(plan.category_id(), Some(CategoryId::new(5)));
        assert!(plan.copy_answers() && plan.copy_logic() && !plan.active());
        assert_eq!(plan.sendout_ids(), ids(&[4]));
        assert_eq!(plan.thank_you_message(), Some("Thank you for your time."), "kept whatever the options");
        let draft = SurveyDraft::copy_of(&plan, &QuestionTree::assemble(SurveyId::new(1), vec![], vec![]));
        assert_eq!(draft.language(), crate::language::Language::Sv, "the copy is in the source's language");
    }

    #[test]
    fn broken_options_name_their_parameter() {
        let request = CopyRequest {
            name: Some(" ".into()),
            start_date: Some(NOW),
            end_date: Some(NOW),
            sendout_ids: Some("a".into()),
            ..Default::default()
        };
        let fields: Vec<_> = CopyPlan::new(&source(), request, NOW).unwrap_err().into_iter().map(|e| e.field).collect();
        assert_eq!(fields, ["surveyname", "enddate", "copysendoutids"]);
    }

    #[test]
    fn sendout_ids_are_deduplicated_and_capped() {
        assert_eq!(parse_id_list(" 3, 1,3 ,1"), Ok(ids(&[3, 1])));
        let many: Vec<String> = (1..=101).map(|id| id.to_string()).collect();
        assert!(parse_id_list(&many.join(",")).unwrap_err().contains("more than 100"));
        assert_eq!(parse_id_list(&many[..100].join(",")).map(|ids| ids.len()), Ok(100));
        assert_eq!(parse_id_list(&many[..100].join(",,")).map(|ids| ids.len()), Ok(100), "empty entries count none");
    }
}
