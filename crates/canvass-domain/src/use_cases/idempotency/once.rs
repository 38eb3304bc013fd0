//! A keyed request carried out once: its change and its kept answer commit in one transaction, or neither does.
//! Completing the claim in a step of its own after the change committed left a window (a lost connection, a
//! database error, the process dying) in which the change stood and the key stayed running, so that a repeat after
//! the lease ran the request again.

use crate::error::{DomainError, RepoError};
use crate::idempotency::ports::IdempotencyRepository;
use crate::idempotency::{keeps, Claimed, IdempotencyKey, KeptResponse};
use crate::ids::AccountId;
use crate::ports::Transactional;

use super::{complete, release};

/// The answer a keyed request is about to serve, as its transport sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServedAnswer {
    /// An answer the transport can keep as it is served (the rules in [`keeps`] still judge its status).
    Keepable(KeptResponse),
    /// An answer the transport does not keep whatever its status (it asks for a retry, or it is too large to keep).
    NotKeepable {
        /// Its HTTP status.
        status: u16,
    },
}

impl ServedAnswer {
    /// The answer's HTTP status.
    pub fn status(&self) -> u16 {
        match self {
            Self::Keepable(kept) => kept.status,
            Self::NotKeepable { status } => *status,
        }
    }
}

/// What became of a claim when its request's transaction ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Completion {
    /// The request's change and its kept answer committed together: a repeat replays it.
    Kept,
    /// The answer is one the rules keep but the transport cannot (a conflict with a concurrent change, which asks
    /// for a retry): the key was released in the same transaction, so a retry runs again.
    Released,
    /// A server error (or another answer the rules do not keep): everything the request wrote was rolled back,
    /// and the claim still runs. The caller releases it in a step of its own, so that a retry runs again.
    Undone,
    /// The claim no longer held the key (another request took it over after the lease): everything the request
    /// wrote was rolled back, and the key belongs to the other request.
    TakenOver,
}

impl Completion {
    /// Whether the claim is settled (kept, released, or another request's): nothing is left for the caller to do.
    pub fn is_settled(self) -> bool {
        self != Self::Undone
    }
}

/// Carries out a keyed request in one transaction and completes its claim in that same transaction: `work` runs
/// (its own transactions become savepoints inside this one), `served` says what answer the request is to serve,
/// and the answer is kept ([`complete`]) before the one `COMMIT`. So a change and its kept answer stand together
/// or not at all.
///
/// `work` runs inside a savepoint of its own, rolled back when its answer is 400 or above: a refused request
/// leaves nothing behind (as its own transaction already ensures), and a statement that failed inside it does not
/// spoil the transaction for the kept answer. A server error rolls back everything ([`Completion::Undone`]), and so
/// does a claim that another request took over ([`Completion::TakenOver`]). The answer comes out whatever became
/// of the claim; an error comes out only when the transaction or the completion failed, and then nothing was
/// written and the claim still runs.
pub fn run_and_complete<U, A>(
    uow: &mut U,
    account: AccountId,
    key: &IdempotencyKey,
    claimed: Claimed,
    work: impl FnOnce(&mut U) -> A,
    served: impl FnOnce(&A) -> ServedAnswer,
) -> Result<(A, Completion), DomainError>
where
    U: Transactional + IdempotencyRepository + ?Sized,
{
    uow.begin()?;
    let outcome = run_in_savepoint(uow, work, served).and_then(|(answer, served)| {
        let completion = match served {
            served if !keeps(served.status()) => Completion::Undone,
            ServedAnswer::Keepable(kept) => held(complete(uow, account, key, claimed, &kept)?, Completion::Kept),
            ServedAnswer::NotKeepable { .. } => held(release(uow, account, key, claimed)?, Completion::Released),
        };
        Ok((answer, completion))
    });
    match outcome {
        Ok((answer, completion)) if completion == Completion::Kept || completion == Completion::Released => {
            match uow.commit() {
                Ok(()) => Ok((answer, completion)),
                Err(error) => {
                    // As in `transaction`: a failed `COMMIT` is rolled back so the connection stays usable.
                    let _ = uow.rollback();
                    Err(error.into())
                }
            }
        }
        Ok((answer, completion)) => {
            uow.rollback().map_err(|error| RepoError::Unavailable(Box::new(error)))?;
            Ok((answer, completion))
        }
        Err(error) => Err(rolled_back(uow, error)),
    }
}

/// `completion` when the claim still held the key, [`Completion::TakenOver`] when it did not.
fn held(still_held: bool, completion: Completion) -> Completion {
    if still_held {
        completion
    } else {
        Completion::TakenOver
    }
}

/// Runs `work` in a savepoint, kept when its answer is below 400 and rolled back otherwise.
fn run_in_savepoint<U, A>(
    uow: &mut U,
    work: impl FnOnce(&mut U) -> A,
    served: impl FnOnce(&A) -> ServedAnswer,
) -> Result<(A, ServedAnswer), DomainError>
where
    U: Transactional + ?Sized,
{
    uow.begin()?;
    let answer = work(uow);
    let served = served(&answer);
    let ended = if served.status() < 400 { uow.commit() } else { uow.rollback() };
    match ended {
        Ok(()) => Ok((answer, served)),
        // The caller rolls the transaction back; a connection left inside it is dropped by the store's pool.
        Err(error) => Err(error.into()),
    }
}

/// Rolls the transaction back after `error`, and says what went wrong: `error`, or that the store went away when
/// the rollback failed too.
fn rolled_back<U: Transactional + ?Sized>(uow: &mut U, error: DomainError) -> DomainError {
    match uow.rollback() {
        Ok(()) => error,
        Err(rollback) => RepoError::rollback_failed(&error, rollback).into(),
    }
}
