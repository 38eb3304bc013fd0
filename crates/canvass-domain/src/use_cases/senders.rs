//! Sender numbers: an operator provisions E.164 numbers to accounts (`canvass sender add|list|remove`). A TWOWAY
//! sendout sends only from a number of its own account, and replies to a number reach only its account.

use crate::clock::Clock;
use crate::distribution::{ProvisionedSender, SenderNumber};
use crate::error::{ConflictKind, DomainError, Resource};
use crate::ids::AccountId;
use crate::ports::{AccountRepository, SenderRepository};

/// Provisions a number to an account. Adding a number the account has already changes nothing; a number of
/// another account answers `Conflict` ([`ConflictKind::SenderTaken`]) naming that account.
pub fn add(
    uow: &mut (impl SenderRepository + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    number: &str,
) -> Result<SenderNumber, DomainError> {
    let number = SenderNumber::parse(number, "sms").map_err(|e| DomainError::Invalid(vec![e]))?;
    match uow.provision_sender(account, &number, clock.now())? {
        None => Err(DomainError::NotFound(Resource::Account)),
        Some(owner) if owner == account => Ok(number),
        Some(owner) => Err(DomainError::conflict(
            ConflictKind::SenderTaken,
            format!("{} is provisioned to account {owner}", number.as_str()),
        )),
    }
}

/// The account's numbers, in the order they were provisioned; `NotFound` for an account that does not exist (an
/// account is made with its owner, so one without users is none).
pub fn list(
    uow: &mut (impl SenderRepository + AccountRepository + ?Sized),
    account: AccountId,
) -> Result<Vec<ProvisionedSender>, DomainError> {
    if uow.list_users(account)?.is_empty() {
        return Err(DomainError::NotFound(Resource::Account));
    }
    Ok(uow.list_senders(account)?)
}

/// Takes a number from an account; `NotFound` when the account does not have it. Conversations sent from it
/// receive no more replies.
pub fn remove(uow: &mut (impl SenderRepository + ?Sized), account: AccountId, number: &str) -> Result<(), DomainError> {
    let number = SenderNumber::parse(number, "sms").map_err(|e| DomainError::Invalid(vec![e]))?;
    if uow.remove_sender(account, &number)? {
        Ok(())
    } else {
        Err(DomainError::NotFound(Resource::SenderNumber))
    }
}

/// Refuses (`Conflict`, [`ConflictKind::SenderNotProvisioned`]) a TWOWAY sender that is not a number provisioned to the account;
/// the number then stays the account's until the transaction ends.
pub(crate) fn check_provisioned(
    uow: &mut (impl SenderRepository + ?Sized),
    account: AccountId,
    sender: Option<&str>,
) -> Result<(), DomainError> {
    match sender {
        Some(sender) if uow.holds_sender(account, sender)? => Ok(()),
        _ => Err(DomainError::conflict(
            ConflictKind::SenderNotProvisioned,
            format!(
                "the sender {} is not a number provisioned to this account; TWOWAY sendouts send from and receive \
                 replies on numbers of their own account (an operator adds one with `canvass sender add`)",
                sender.unwrap_or("(none)")
            ),
        )),
    }
}
