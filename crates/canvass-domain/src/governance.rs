//! Data governance: survey frequency limits, retention rules and their resolution, retention policies and the
//! deadlines they set.

mod erasure_match;
mod frequency;
mod person;
mod policy;
pub mod ports;
mod receipt;
mod retention_run;
mod rule;

pub use erasure_match::{ContactPatterns, ERASED_MARK};
pub use frequency::{effective_frequency, FrequencyField, FrequencyLimits, FrequencySetting};
pub use person::{HeldOnPerson, PendingMessages, PersonRespondent};
pub use policy::{
    policy_deadlines, AccountPolicy, AccountPolicyInput, Deadlines, Patch, PolicyField, SurveyPolicy, SurveyPolicyInput,
};
pub use receipt::{ErasureReceipt, NewErasureReceipt};
pub use retention_run::{NewRetentionRun, RetentionRun, RunFigures, RunTrigger};
pub use rule::{
    effective_rule, RetentionAction, RetentionRule, RuleInput, RulePatch, RuleScope, RuleStatus, ScopeKind,
    MAX_RETENTION_DAYS,
};
