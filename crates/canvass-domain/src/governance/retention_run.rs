//! A retention run as it is kept: when it ran, what started it, and per account what it removed there, so that
//! each account can see what its rules and policies deleted and when.

use time::OffsetDateTime;

use crate::ids::AccountId;

/// What started a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunTrigger {
    /// The server's timer (`RETENTION_INTERVAL`).
    Timer,
    /// `canvass retention run`.
    Command,
}

impl RunTrigger {
    /// The trigger's name (`timer`, `command`).
    pub const fn name(self) -> &'static str {
        match self {
            RunTrigger::Timer => "timer",
            RunTrigger::Command => "command",
        }
    }

    /// The trigger of a name, if it is one.
    pub fn named(name: &str) -> Option<Self> {
        [RunTrigger::Timer, RunTrigger::Command].into_iter().find(|trigger| trigger.name() == name)
    }
}

/// What a run removed in one account (all zeros where it removed nothing).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RunFigures {
    /// Respondents removed by RemoveRespondentDataWithoutAnswers rules.
    pub respondents_removed: u64,
    /// Respondents erased by a partial delete.
    pub respondents_erased: u64,
    /// Open-text answers removed by a partial delete.
    pub open_text_answers_removed: u64,
    /// Answer sets removed by a complete delete.
    pub answer_sets_removed: u64,
    /// Respondents removed by a complete delete.
    pub survey_respondents_removed: u64,
    /// Whether the run failed for the account.
    pub failed: bool,
}

impl RunFigures {
    /// Whether there is anything to keep: a removal or a failure.
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// A run to keep.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewRetentionRun {
    /// When it started and finished (wall time, whatever instant it applied the rules as of).
    pub started_at: OffsetDateTime,
    /// When it finished.
    pub finished_at: OffsetDateTime,
    /// What started it.
    pub trigger: RunTrigger,
    /// The accounts it removed something in or failed for, with their figures.
    pub figures: Vec<(AccountId, RunFigures)>,
}

/// A kept run as one account sees it: its own figures only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetentionRun {
    /// The run's id.
    pub id: i64,
    /// When it started.
    pub started_at: OffsetDateTime,
    /// When it finished.
    pub finished_at: OffsetDateTime,
    /// What started it.
    pub trigger: RunTrigger,
    /// What it removed in the account.
    pub figures: RunFigures,
}
