//! Tests of [`Transports::send_all`]: each message goes to its channel's transport, its outcome back in its place.

use super::{Accepted, Mailer, OutgoingMessage, SendError, SmsSender, Transports};
use crate::distribution::DispatchType;

/// A transport that takes every message it is given and says which, unless it is told to answer for none.
struct Taking {
    name: &'static str,
    answers: bool,
}

impl Taking {
    fn take(&self, message: &OutgoingMessage) -> Result<Accepted, SendError> {
        Ok(Accepted(format!("{} took {}", self.name, message.to)))
    }

    fn take_all(&self, messages: Vec<OutgoingMessage>) -> Vec<Result<Accepted, SendError>> {
        if !self.answers {
            return Vec::new();
        }
        messages.iter().map(|message| self.take(message)).collect()
    }
}

impl Mailer for Taking {
    fn send(&self, message: &OutgoingMessage) -> Result<Accepted, SendError> {
        self.take(message)
    }

    fn send_all(&self, messages: Vec<OutgoingMessage>) -> Vec<Result<Accepted, SendError>> {
        self.take_all(messages)
    }
}

impl SmsSender for Taking {
    fn send(&self, message: &OutgoingMessage) -> Result<Accepted, SendError> {
        self.take(message)
    }

    fn send_all(&self, messages: Vec<OutgoingMessage>) -> Vec<Result<Accepted, SendError>> {
        self.take_all(messages)
    }
}

fn to(recipient: &str) -> OutgoingMessage {
    OutgoingMessage {
        idempotency_key: format!("inv-1-{recipient}"),
        message_id: format!("<{recipient}@survey.example>"),
        to: recipient.into(),
        from: "hr@acme.example".into(),
        subject: None,
        body: "Answer".into(),
        html: None,
        unsubscribe_url: None,
    }
}

fn outcome_texts(outcomes: Vec<Result<Accepted, SendError>>) -> Vec<String> {
    outcomes
        .into_iter()
        .map(|outcome| match outcome {
            Ok(Accepted(reply)) => reply,
            Err(error) => error.to_string(),
        })
        .collect()
}

#[test]
fn each_message_goes_to_its_channel_and_its_outcome_keeps_its_place() {
    let (email, sms) = (Taking { name: "relay", answers: true }, Taking { name: "provider", answers: true });
    let transports = Transports { email: &email, sms: &sms };
    let round = vec![
        (DispatchType::Email, to("ann@example.com")),
        (DispatchType::Link, to("poster")),
        (DispatchType::TwoWay, to("+4930123")),
        (DispatchType::Email, to("bob@example.com")),
        (DispatchType::Login, to("portal")),
    ];
    assert_eq!(
        outcome_texts(transports.send_all(round)),
        [
            "relay took ann@example.com",
            "transient failure: no transport for LINK messages",
            "provider took +4930123",
            "relay took bob@example.com",
            "transient failure: no transport for LOGIN messages",
        ]
    );
}

#[test]
fn a_message_its_transport_gave_no_outcome_for_fails_transiently() {
    let (email, sms) = (Taking { name: "relay", answers: false }, Taking { name: "provider", answers: true });
    let transports = Transports { email: &email, sms: &sms };
    let round = vec![(DispatchType::Email, to("ann@example.com")), (DispatchType::Sms, to("+4930123"))];
    assert_eq!(
        outcome_texts(transports.send_all(round)),
        ["transient failure: no transport for EMAIL messages", "provider took +4930123"]
    );
}
