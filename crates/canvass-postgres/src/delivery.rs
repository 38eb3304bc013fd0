//! The delivery ports on PostgreSQL: the outbox and its claim, a round's outcomes and the holds they start, the
//! shared pace, how invitations and a sendout's messages stand for the API, and the wake-up of idle workers.

mod alert_emails;
mod claim;
mod holds;
pub(crate) mod invitations;
pub(crate) mod outbox;
mod outcomes;
mod pace;
mod queued_marks;
pub(crate) mod sendout_delivery;
pub(crate) mod wake;
