//! Builds an email from a rendered message: `multipart/alternative` with a `text/plain` and a `text/html` part,
//! the service's Message-ID, and the RFC 8058 one-click unsubscribe headers on invitations and reminders.

use canvass_domain::delivery::{OutgoingMessage, SendError};
use lettre::address::Envelope;
use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart};
use lettre::Message;

const LIST_UNSUBSCRIBE: HeaderName = HeaderName::new_from_ascii_str("List-Unsubscribe");
const LIST_UNSUBSCRIBE_POST: HeaderName = HeaderName::new_from_ascii_str("List-Unsubscribe-Post");

/// Builds the email for a message, which it takes (its texts go into the email without a copy). A recipient
/// address that cannot be parsed can never be delivered (permanent); a sender address or message that cannot be
/// built fails whoever receives it (unsendable).
pub(crate) fn email(message: OutgoingMessage) -> Result<Message, SendError> {
    let from: Mailbox = message.from.parse().map_err(|e| SendError::Unsendable(format!("sender address: {e}")))?;
    let to: Mailbox = message.to.parse().map_err(|e| SendError::Permanent(format!("recipient address: {e}")))?;
    // The envelope is the two addresses just read: given to the builder, it is not read back from the headers.
    let envelope = Envelope::new(Some(from.email.clone()), vec![to.email.clone()])
        .map_err(|e| SendError::Unsendable(format!("envelope: {e}")))?;
    let mut builder = Message::builder()
        .envelope(envelope)
        .from(from)
        .to(to)
        .subject(message.subject.unwrap_or_default())
        .message_id(Some(message.message_id));
    if let Some(url) = &message.unsubscribe_url {
        builder = builder
            .raw_header(HeaderValue::new(LIST_UNSUBSCRIBE, format!("<{url}>")))
            .raw_header(HeaderValue::new(LIST_UNSUBSCRIBE_POST, "List-Unsubscribe=One-Click".to_owned()));
    }
    let built = match message.html {
        Some(html) => builder.multipart(MultiPart::alternative_plain_html(message.body, html)),
        None => builder.header(ContentType::TEXT_PLAIN).body(message.body),
    };
    built.map_err(|e| SendError::Unsendable(format!("message: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn message(from: &str, to: &str) -> OutgoingMessage {
        OutgoingMessage {
            idempotency_key: "inv-1-1".into(),
            message_id: "<0123456789abcdef0123456789abcdef@survey.example>".into(),
            to: to.into(),
            from: from.into(),
            subject: Some("Your view".into()),
            body: "Answer: https://survey.example/r/t".into(),
            html: Some("<p>Answer: <a href=\"https://survey.example/r/t\">https://survey.example/r/t</a></p>".into()),
            unsubscribe_url: Some("https://survey.example/r/t/opt-out".into()),
        }
    }

    #[test]
    fn a_bad_sender_fails_the_message_and_a_bad_recipient_bounces() {
        assert!(email(message("hr@acme.example", "ann@example.com")).is_ok());
        assert!(matches!(email(message("hr@@acme", "ann@example.com")), Err(SendError::Unsendable(_))));
        assert!(matches!(email(message("hr@acme.example", "ann@@example")), Err(SendError::Permanent(_))));
    }

    #[test]
    fn an_invitation_is_text_and_html_with_one_click_unsubscribe() {
        let raw = String::from_utf8(email(message("hr@acme.example", "ann@example.com")).unwrap().formatted()).unwrap();
        assert!(raw.contains("Content-Type: multipart/alternative"), "{raw}");
        assert!(raw.contains("Content-Type: text/plain; charset=utf-8"));
        assert!(raw.contains("Content-Type: text/html; charset=utf-8"));
        assert!(raw.contains("Message-ID: <0123456789abcdef0123456789abcdef@survey.example>"));
        assert!(raw.contains("List-Unsubscribe: <https://survey.example/r/t/opt-out>\r\n"));
        assert!(raw.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n"));
    }

    #[test]
    fn the_envelope_goes_from_the_sender_to_the_recipient_alone() {
        let named = message("HR <hr@acme.example>", "Ann Example <ann@example.com>");
        let built = email(named).unwrap();
        let envelope = built.envelope();
        assert_eq!(envelope.from().map(ToString::to_string).as_deref(), Some("hr@acme.example"));
        assert_eq!(envelope.to().iter().map(ToString::to_string).collect::<Vec<_>>(), ["ann@example.com"]);
    }

    #[test]
    fn a_message_of_its_own_text_is_plain() {
        let own =
            OutgoingMessage { html: None, unsubscribe_url: None, ..message("hr@acme.example", "ann@example.com") };
        let raw = String::from_utf8(email(own).unwrap().formatted()).unwrap();
        assert!(!raw.contains("multipart") && !raw.contains("List-Unsubscribe"), "{raw}");
    }
}
