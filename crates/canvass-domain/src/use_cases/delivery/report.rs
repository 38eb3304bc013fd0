//! What a delivery round did: its outcomes in total and per channel, the relay's state and the pace it ran at.

use crate::delivery::Outcome;
use crate::distribution::DispatchType;

/// What one round of the worker did.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct DeliveryReport {
    /// Reminder messages written to the outbox.
    pub reminders_enqueued: u64,
    /// Messages claimed.
    pub claimed: usize,
    /// Handed to the relay.
    pub sent: usize,
    /// Refused for good (bounces).
    pub bounced: usize,
    /// Due again later after a transient failure.
    pub retried: usize,
    /// Given up after the last attempt.
    pub failed: usize,
    /// Not sent: blocklisted or expired by now.
    pub cancelled: usize,
    /// The outcomes of the email messages alone.
    pub email: ChannelCounts,
    /// The outcomes of the text messages alone (SMS and TWOWAY).
    pub sms: ChannelCounts,
    /// Whether the mail relay took a session in the last round that tried to open one (`None`: no email went).
    pub relay_up: Option<bool>,
    /// The shared pace the last round was claimed under, in messages a second (infinite when nothing limits it;
    /// `None`: no round was claimed).
    pub pace_per_second: Option<f64>,
}

/// The outcomes of one channel's messages in a round.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ChannelCounts {
    /// Handed to the relay or provider.
    pub sent: usize,
    /// Refused for good (bounces).
    pub bounced: usize,
    /// Due again later after a transient failure.
    pub retried: usize,
    /// Given up after the last attempt.
    pub failed: usize,
    /// Not sent: blocklisted or expired by now.
    pub cancelled: usize,
}

impl ChannelCounts {
    fn add(&mut self, other: &ChannelCounts) {
        self.sent += other.sent;
        self.bounced += other.bounced;
        self.retried += other.retried;
        self.failed += other.failed;
        self.cancelled += other.cancelled;
    }

    fn count(&mut self, outcome: &Outcome) {
        match outcome {
            Outcome::Sent(_) => self.sent += 1,
            Outcome::Bounced(_) => self.bounced += 1,
            Outcome::Failed(_) => self.failed += 1,
            Outcome::DueAgain(..) | Outcome::Held(..) => self.retried += 1,
            Outcome::Cancelled(_) => self.cancelled += 1,
        }
    }
}

impl DeliveryReport {
    pub(super) fn add(&mut self, other: &DeliveryReport) {
        self.reminders_enqueued += other.reminders_enqueued;
        self.claimed += other.claimed;
        self.sent += other.sent;
        self.bounced += other.bounced;
        self.retried += other.retried;
        self.failed += other.failed;
        self.cancelled += other.cancelled;
        self.email.add(&other.email);
        self.sms.add(&other.sms);
        self.relay_up = other.relay_up.or(self.relay_up);
        self.pace_per_second = other.pace_per_second.or(self.pace_per_second);
    }

    /// Counts one message's outcome, in the totals and in its channel's counts (a LOGIN sendout sends nothing;
    /// were one of its messages claimed, it would count as email).
    pub(super) fn count(&mut self, channel: DispatchType, outcome: &Outcome) {
        match outcome {
            Outcome::Sent(_) => self.sent += 1,
            Outcome::Bounced(_) => self.bounced += 1,
            Outcome::Failed(_) => self.failed += 1,
            Outcome::DueAgain(..) | Outcome::Held(..) => self.retried += 1,
            Outcome::Cancelled(_) => self.cancelled += 1,
        }
        match channel {
            DispatchType::Sms | DispatchType::TwoWay => self.sms.count(outcome),
            DispatchType::Email | DispatchType::Login | DispatchType::Link => self.email.count(outcome),
        }
    }
}
