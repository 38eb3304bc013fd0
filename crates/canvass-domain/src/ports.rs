//! The ports: what the domain needs from a store. Each area keeps its repository traits beside its model
//! (`survey/ports.rs`, `distribution/ports.rs`, ...); this module re-exports them all, and holds what spans them:
//! a [`Store`] lends a [`UnitOfWork`] (every repository on one connection), and [`transaction`] is the
//! transaction boundary. Each use case asks for only the repositories it uses.
//!
//! Every method is scoped by the caller's [`crate::AccountId`]: an adapter MUST NOT return or change a row of another
//! account, and MUST answer `None` (or `false`) for another account's ids exactly as for ids that do not exist.
//! Adapters MUST map a broken uniqueness rule to [`RepoError::Duplicate`] and a lost or exhausted connection to
//! [`RepoError::Unavailable`].
//!
//! # The ports in detail
//!
//! What the domain needs from a store is a set of synchronous traits, each beside the model it serves:
//! `account/ports.rs`, `category/ports.rs`, `survey/ports.rs`, `answer/ports.rs` (answers and the respondent
//! page), `distribution/ports.rs` (sendouts, respondents, the blocklist, releasing, sender numbers),
//! `insight/ports.rs` (a sendout's statistics and a survey's results, computed by the store),
//! `governance/ports.rs` (frequency, rules, policies, the retention engine, erasure), `delivery/ports.rs` (the
//! outbox and the shared pace), `webhook/ports.rs` (webhooks, their events and deliveries) and `idempotency/ports.rs`
//! (the kept answers of `Idempotency-Key` requests), all under `crates/canvass-domain/src/`. `ports.rs` re-exports
//! them and holds what spans them (`ports/store.rs`).
//!
//! - Repositories: `AccountRepository` (accounts, users, keys), `CategoryRepository`, `SurveyRepository` (surveys,
//!   question trees, logic), `QuotaRepository` (quotas and their counts), `AlertRepository` (alerts and the emails a completion writes), `AnswerRepository` (answer sets and
//!   answers, also in chunks with their answers for exports and answer set pages, each set weighed in bytes before
//!   it is read), `InsightRepository` (the figures
//!   of statistics and results, aggregated by the store),
//!   `SendoutRepository` (sendouts, their
//!   status transitions and copies, labels, reminders, background data documents), `RespondentRepository` (the
//!   bulk insert that skips contacts a sendout already has, contact-key look-ups, background data cells, and the
//!   sendout of a respondent for answers), `BlocklistRepository` (blocklist entries and permanent failures,
//!   each with the respondent status change it causes), `GovernanceRepository` (survey frequency settings of the
//!   account and of surveys, retention rules, account and survey retention policies, and the functions of label
//!   ids), `ReleaseRepository` (what activation does to pending respondents: lock their contacts, count each
//!   contact's releases in other surveys, release them or hold them back), `RetentionRepository` (the retention
//!   engine's lock, the accounts, sendouts and surveys it works through, and its batched removals, each limited to
//!   a number of rows and able to only count them for a dry run), `OutboxRepository` (delivery: due reminders,
//!   claims under a lease, outcomes) and `RespondentPageRepository` (the respondent behind a link token, a login
//!   identifier of a sendout or a TWOWAY number, and where it is in the survey) and `SenderRepository` (the SMS
//!   numbers provisioned to accounts), `WebhookEvents` (the events a change writes for the account's subscribed
//!   webhooks, in its transaction) and `WebhookRepository` (webhooks, their deliveries, the webhook worker's claims
//!   and records; see docs/webhooks.md), `ErasureRepository` (one person erased across the account's
//!   sendouts; docs/integrations.md) and `IdempotencyRepository` (the kept answers of POSTs sent with
//!   an `Idempotency-Key`: claim, complete, release, purge; docs/idempotency.md). `Repositories` is all
//!   twenty at once (with `PaceRepository`, the shared delivery pace: docs/delivery.md): what an
//!   adapter's unit of work implements; a use case names only the ports it uses.
//!   Every method that reads or changes an account's data takes the caller's `AccountId`. The exceptions are
//!   `create_account`, which makes the account; the operator and authentication look-ups that run before an
//!   account is known: `create_key` (by user id), `find_user_by_email`, and `revoke_keys` and
//!   `active_keys_with_prefix` (by key prefix); and the work that serves every account: the retention engine's
//!   `lock_retention`, `unlock_retention` and `accounts_with_retention`, the delivery worker's
//!   `enqueue_due_reminders`, `claim_due`, `record_round` and `find_sent_by_token` (a late bounce's Message-ID),
//!   `/metrics`' `backlog` (the outbox's pending count and oldest due message), the retention timer's
//!   `purge_idempotency_keys` (expired keys of every account), and
//!   the respondent side's `find_by_token`, `find_login` and
//!   `find_conversations` (which scopes itself to the account that owns the number a reply was sent to), the
//!   webhook worker's `claim_webhook_deliveries` and `record_webhook_attempts`, and `enqueue_events` (each subject
//!   names its account: a delivery round spans accounts), and the operator's `provision_sender`, which reports the
//!   account that owns a number. An adapter must never read or change another account's rows and must answer `None` or
//!   `false` for another account's ids exactly as for ids that do not exist. It must map a uniqueness violation to
//!   `RepoError::Duplicate`, a foreign key or serialization failure to `RepoError::Concurrent`, and a
//!   lost or exhausted connection to `RepoError::Unavailable`; each variant carries the adapter's error as its
//!   `source` (log it with `canvass_domain::Chain`). A use case's `DomainError::NotFound` names a `Resource`.
//! - Ids are types of their own (`ids.rs`: `SurveyId`, `SendoutId`, ...), so a method that takes a survey and a
//!   sendout does not compile with the two swapped. The adapter binds `id.get()` and wraps what it reads with
//!   `XId::new`; the HTTP layer wraps the numbers of paths and bodies the same way, so the wire keeps plain numbers.
//! - Checked values (`SurveyDraft`, `SendoutDraft`, `LabelDraft`, `ReminderDraft`, `AnswerSetDraft`, `NewRespondent`,
//!   `NewPermanentFailure`, `CopyPlan`, `RetentionRule`) have private fields: their check makes them, accessors read
//!   them, and only a named method changes one (`AnswerSetDraft::finished`, as a respondent reaches the end of the
//!   survey's path; `RulePatch::apply`).
//! - Enum columns (statuses, types, logics) hold the enums' names, which the domain derives with strum (`as_str`,
//!   `FromStr`). The adapter reads every such column through one wrapper, `Named<E>` (`named.rs`), and each column has
//!   a CHECK constraint listing the same names (`crates/canvass-postgres/tests/adapter/enum_columns.rs` compares them).
//! - `SendoutRepository::apply_transition` takes a `Transition`, whose fields are private: only
//!   `SendoutStatus::activate` and `SendoutStatus::deactivate` (`distribution/sendout.rs`) make one, so an adapter
//!   can store only the changes the state machine allows.
//! - `Transactional` (`ports/store.rs`): `begin`, `commit`, `rollback`; and `transaction(uow, work)`, the domain
//!   function that is the transaction boundary: `work` gets the same unit of work back; the transaction commits
//!   when `work` returns `Ok` and rolls back when it returns `Err`. `UnitOfWork` is the repositories plus
//!   `Transactional`, and is object-safe: the web layer and the jobs hand use cases a `&mut dyn UnitOfWork`.
//!   `joined_transaction` opens one whose nested transactions join it rather than becoming savepoints
//!   (`ports/joined.rs`): the HTTP hop that adds a request's audit event to its use case's change.
//! - `Clock` (`clock.rs`): the current time. The server uses `SystemClock`; a test that needs a fixed instant
//!   implements `Clock` itself. The retention engine takes its instant as an argument instead (`--now`), so tests
//!   and operators can run it as of any time.
//! - `Store` (`ports/store.rs`): lends a unit of work for one step at a time (`with_uow`, from `StoreExt`) and
//!   answers `readiness` (pending migrations) and, for `/metrics`, `connections` (the pool's idle and lent
//!   connections; `None` by default). The HTTP layer's one blocking hop, the CLI, the retention timer,
//!   the delivery worker, the tests and the benches all open units of work through it. The delivery use case
//!   takes one to claim a round and another to record it, and holds none while the round's messages are on the
//!   network. `canvass-postgres` implements it as `PgStore`, over a pool (`PgStore::new`: the server and the
//!   worker) or over one connection opened at once (`PgStore::connect_one`: one-shot commands and tests).
//! - `Mailer` and `SmsSender` (`delivery.rs`): hand a round of rendered messages to a relay or provider
//!   (`send_all`, several at once where the transport can), and say for each whether a refusal is permanent or worth
//!   another try.
//!
//! Use cases (`crates/canvass-domain/src/use_cases/`) are plain functions that take the ports they use (for
//! example `sendouts::activate` takes `impl GovernanceRepository + ReleaseRepository + SenderRepository +
//! SendoutRepository + SurveyRepository + Transactional + ?Sized`), a `Clock`, the caller's account and input,
//! apply the rules and return a value or a `DomainError` (`NotFound`, `Invalid` with one `FieldError` per broken
//! rule, `Conflict` with a `ConflictKind` such as `BrokenLogic`, or `Repo`). The web layer and the jobs pass them a
//! `&mut dyn UnitOfWork`, which has every port; the delivery round takes a `DeliveryLender` that lends units with
//! the outbox and survey ports one step at a time (every `Store` is one).
//!
//! The use-case flows are tested in `use_cases/tests/<flow>.rs`, a file per flow rather than per module (some flows
//! span modules, and a few small modules are reached only through others' tests). A second `Store`,
//! `canvass_domain::testing::MemoryStore` (feature `testing`), keeps every area in memory, split by area as the PostgreSQL adapter is
//! (`testing/memory/<area>.rs`): accounts and keys, idempotency keys, categories, surveys, sendouts with their labels,
//! reminders and documents, respondents, answer sets, the blocklist and permanent failures, the outbox and the pace,
//! retention and erasure, insight, sender numbers and webhooks, scoped by account, with snapshot transactions. The
//! use-case tests and the HTTP crate's handler tests both run on it; `use_cases/tests/seeds/` seeds it for each flow,
//! and what a test needs beyond the ports (a failure to inject, a read to count) is in its `Hooks`. The SQL behind the
//! real adapter is proven by the adapter's own tests (`crates/canvass-postgres/tests/adapter/`).
//!
//! Finding an endpoint's code by folder name: the handler is in `crates/canvass-http/src/routes/<area>.rs`, the
//! use case in `crates/canvass-domain/src/use_cases/<area>.rs`, its ports in `crates/canvass-domain/src/<model>/
//! ports.rs`, and their SQL in `crates/canvass-postgres/src/<model>/` (or `<model>.rs`), the same area as the
//! port (for example `routes/sendouts.rs`, `use_cases/sendouts.rs`, `distribution/ports.rs`,
//! `canvass-postgres/src/distribution/sendouts.rs`).
//!
//! The PostgreSQL adapter implements every port on one type, `PgUnitOfWork` (`crates/canvass-postgres/src/`, one
//! module per domain area: `account`, `category`, `survey/`, `answer/`, `distribution/`, `delivery/`, `governance/`,
//! `idempotency`, `webhook`, beside the plumbing they share),
//! which borrows one connection for the length of one use case.

mod joined;
mod store;

pub use crate::account::ports::AccountRepository;
pub use crate::alert::ports::AlertRepository;
pub use crate::answer::ports::{AnswerRepository, RespondentPageRepository};
pub use crate::audit::ports::AuditRepository;
pub use crate::category::ports::CategoryRepository;
pub use crate::clock::Clock;
pub use crate::delivery::ports::{
    HoldStarted, OutboxBacklog, OutboxRepository, PaceRepository, RecordedRound, SentLookup,
};
pub use crate::directory::ports::{ContactListRepository, ContactRepository};
pub use crate::distribution::ports::{
    BlocklistRepository, ReleaseRepository, RespondentRepository, SenderRepository, SendoutRepository,
    TimelineRepository,
};
pub use crate::governance::ports::{Erased, ErasureRepository, GovernanceRepository, RetentionRepository};
pub use crate::idempotency::ports::IdempotencyRepository;
pub use crate::insight::ports::InsightRepository;
pub use crate::survey::ports::{QuotaRepository, SurveyRepository};
pub use crate::webhook::ports::{WebhookEvents, WebhookRepository};
pub use joined::{Nesting, Step};
pub use store::{joined_transaction, transaction, Connections, Readiness, Store, StoreExt, Transactional, UnitOfWork};

use crate::error::RepoError;

/// What every repository method returns.
pub type RepoResult<T> = Result<T, RepoError>;

/// Every repository at once: what an adapter's unit of work implements.
pub trait Repositories:
    AccountRepository
    + AuditRepository
    + CategoryRepository
    + ContactRepository
    + ContactListRepository
    + SurveyRepository
    + QuotaRepository
    + AlertRepository
    + AnswerRepository
    + SendoutRepository
    + RespondentRepository
    + TimelineRepository
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
        + AuditRepository
        + CategoryRepository
        + ContactRepository
        + ContactListRepository
        + SurveyRepository
        + QuotaRepository
        + AlertRepository
        + AnswerRepository
        + SendoutRepository
        + RespondentRepository
        + TimelineRepository
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
