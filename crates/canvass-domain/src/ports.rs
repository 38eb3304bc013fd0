//! The ports: what the domain needs from a store. Each area keeps its repository traits beside its model
//! (`survey/ports.rs`, `distribution/ports.rs`, ...); this module re-exports them all, and holds what spans them:
//! a [`Store`] lends a [`UnitOfWork`] (every repository on one connection), and [`transaction`] is the
//! transaction boundary. Each use case asks for only the repositories it uses.
//!
//! Every method is scoped by the caller's [`crate::AccountId`]: an adapter MUST NOT return or change a row of another
//! account, and MUST answer `None` (or `false`) for another account's ids exactly as for ids that do not exist.
//! Adapters MUST map a broken uniqueness rule to [`RepoError::Duplicate`] and a lost or exhausted connection to
//! [`RepoError::Unavailable`].

mod store;

pub use crate::account::ports::AccountRepository;
pub use crate::answer::ports::{AnswerRepository, RespondentPageRepository};
pub use crate::category::ports::CategoryRepository;
pub use crate::clock::Clock;
pub use crate::delivery::ports::{
    HoldStarted, OutboxBacklog, OutboxRepository, PaceRepository, RecordedRound, SentLookup,
};
pub use crate::distribution::ports::{
    BlocklistRepository, ReleaseRepository, RespondentRepository, SenderRepository, SendoutRepository,
};
pub use crate::governance::ports::{Erased, ErasureRepository, GovernanceRepository, RetentionRepository};
pub use crate::idempotency::ports::IdempotencyRepository;
pub use crate::insight::ports::InsightRepository;
pub use crate::survey::ports::SurveyRepository;
pub use crate::webhook::ports::{WebhookEvents, WebhookRepository};
pub use store::{transaction, Connections, Readiness, Store, StoreExt, Transactional, UnitOfWork};

use crate::error::RepoError;

/// What every repository method returns.
pub type RepoResult<T> = Result<T, RepoError>;

/// Every repository at once: what an adapter's unit of work implements.
pub trait Repositories:
    AccountRepository
    + CategoryRepository
    + SurveyRepository
    + AnswerRepository
    + SendoutRepository
    + RespondentRepository
    + BlocklistRepository
    + GovernanceRepository
    + ReleaseRepository
    + RetentionRepository
    + OutboxRepository
    + PaceRepository
    + RespondentPageRepository
    + SenderRepository
    + ErasureRepository
    + IdempotencyRepository
    + InsightRepository
    + WebhookEvents
    + WebhookRepository
{
}

impl<T> Repositories for T where
    T: AccountRepository
        + CategoryRepository
        + SurveyRepository
        + AnswerRepository
        + SendoutRepository
        + RespondentRepository
        + BlocklistRepository
        + GovernanceRepository
        + ReleaseRepository
        + RetentionRepository
        + OutboxRepository
        + PaceRepository
        + RespondentPageRepository
        + SenderRepository
        + ErasureRepository
        + IdempotencyRepository
        + InsightRepository
        + WebhookEvents
        + WebhookRepository
{
}
