//! Builds an email from a rendered message with mail-builder (the MIME builder of mail-send's family):
//! `multipart/alternative` with a `text/plain` and a `text/html` part, the service's Message-ID, and the RFC 8058
//! one-click unsubscribe headers on invitations and reminders; and its envelope, from the two addresses.

use canvass_domain::delivery::{OutgoingMessage, SendError};
use lettre::address::{Address, Envelope};
use lettre::message::Mailbox;
use mail_builder::headers::address::Address as HeaderAddress;
use mail_builder::headers::message_id::MessageId;
use mail_builder::headers::raw::Raw;
use mail_builder::headers::url::URL;
use mail_builder::MessageBuilder;

/// An email ready to be sent: its envelope and its content (headers and body, lines ended by CRLF, not yet
/// dot-stuffed).
pub(crate) struct Email {
    pub(crate) envelope: Envelope,
    pub(crate) content: Vec<u8>,
}

/// Builds the email for a message, which it takes (its texts go into the email without a copy). A recipient
/// address that cannot be parsed can never be delivered (permanent); a sender address that cannot be parsed fails
/// whoever receives it (unsendable).
pub(crate) fn email(message: OutgoingMessage) -> Result<Email, SendError> {
    let (from_name, from) =
        mailbox(&message.from).map_err(|e| SendError::Unsendable(format!("sender address: {e}")))?;
    let (to_name, to) = mailbox(&message.to).map_err(|e| SendError::Permanent(format!("recipient address: {e}")))?;
    let mut builder = MessageBuilder::new()
        .from(HeaderAddress::new_address(from_name, from.to_string()))
        .to(HeaderAddress::new_address(to_name, to.to_string()))
        .subject(message.subject.unwrap_or_default())
        .message_id(MessageId::new(message.message_id.trim_start_matches('<').trim_end_matches('>').to_owned()));
    if let Some(url) = message.unsubscribe_url {
        builder = builder
            .header("List-Unsubscribe", URL::new(url))
            .header("List-Unsubscribe-Post", Raw::new("List-Unsubscribe=One-Click"));
    }
    builder = builder.text_body(message.body);
    if let Some(html) = message.html {
        builder = builder.html_body(html);
    }
    let mut content = Vec::new();
    builder.serialize(&mut content);
    let envelope = Envelope::new(Some(from), vec![to]).map_err(|e| SendError::Unsendable(format!("envelope: {e}")))?;
    Ok(Email { envelope, content })
}

/// An address as a display name and the address itself: a bare address is read as one (the common case, and a
/// fifth of the work of reading a mailbox), anything else as `Name <address>`.
fn mailbox(text: &str) -> Result<(Option<String>, Address), lettre::address::AddressError> {
    match text.parse::<Address>() {
        Ok(address) => Ok((None, address)),
        Err(_) => text.parse::<Mailbox>().map(|mailbox| (mailbox.name, mailbox.email)),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use mail_parser::MimeHeaders;

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

    /// The email's content as a mail reader parses it.
    fn parsed(email: &Email) -> mail_parser::Message<'_> {
        mail_parser::MessageParser::default().parse(&email.content).expect("a message a reader can parse")
    }

    #[test]
    fn an_invitation_is_text_and_html_with_one_click_unsubscribe() {
        let built = email(message("hr@acme.example", "ann@example.com")).unwrap();
        let raw = String::from_utf8(built.content.clone()).unwrap();
        let read = parsed(&built);
        assert_eq!(read.content_type().map(|t| (t.ctype(), t.subtype())), Some(("multipart", Some("alternative"))));
        assert_eq!(read.body_text(0).as_deref(), Some("Answer: https://survey.example/r/t"));
        let html = "<p>Answer: <a href=\"https://survey.example/r/t\">https://survey.example/r/t</a></p>";
        assert_eq!(read.body_html(0).as_deref(), Some(html));
        assert_eq!(read.subject(), Some("Your view"));
        assert_eq!(read.message_id(), Some("0123456789abcdef0123456789abcdef@survey.example"));
        assert!(raw.contains("Message-ID: <0123456789abcdef0123456789abcdef@survey.example>\r\n"), "{raw}");
        assert!(raw.contains("List-Unsubscribe: <https://survey.example/r/t/opt-out>\r\n"), "{raw}");
        assert!(raw.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n"), "{raw}");
        assert!(raw.contains("MIME-Version: 1.0\r\n") && raw.contains("\r\nDate: "), "{raw}");
    }

    #[test]
    fn long_lines_and_other_scripts_arrive_as_written() {
        let link = format!("https://survey.example/r/{}", "a".repeat(60));
        let text = format!("Hej Åsa, svara här: {link}\nTack = tack");
        let html = format!("<p>Hej Åsa, svara här: <a href=\"{link}\">{link}</a></p>");
        let named = OutgoingMessage {
            subject: Some("Din åsikt".into()),
            body: text.clone(),
            html: Some(html.clone()),
            ..message("Personalavdelningen Ö <hr@acme.example>", "ann@example.com")
        };
        let built = email(named).unwrap();
        let raw = String::from_utf8(built.content.clone()).unwrap();
        assert!(raw.is_ascii() && raw.lines().all(|line| line.len() <= 78), "encoded for any relay: {raw}");
        let read = parsed(&built);
        assert_eq!(read.body_text(0).as_deref(), Some(text.replace('\n', "\r\n").as_str()));
        assert_eq!(read.body_html(0).as_deref(), Some(html.as_str()));
        assert_eq!(read.subject(), Some("Din åsikt"));
        let from = read.from().and_then(|from| from.first()).unwrap();
        assert_eq!((from.name(), from.address()), (Some("Personalavdelningen Ö"), Some("hr@acme.example")));
    }

    #[test]
    fn the_envelope_goes_from_the_sender_to_the_recipient_alone() {
        let named = message("HR <hr@acme.example>", "Ann Example <ann@example.com>");
        let built = email(named).unwrap();
        assert_eq!(built.envelope.from().map(ToString::to_string).as_deref(), Some("hr@acme.example"));
        assert_eq!(built.envelope.to().iter().map(ToString::to_string).collect::<Vec<_>>(), ["ann@example.com"]);
        let read = parsed(&built);
        let to = read.to().and_then(|to| to.first()).unwrap();
        assert_eq!((to.name(), to.address()), (Some("Ann Example"), Some("ann@example.com")));
    }

    #[test]
    fn a_message_of_its_own_text_is_plain() {
        let own =
            OutgoingMessage { html: None, unsubscribe_url: None, ..message("hr@acme.example", "ann@example.com") };
        let built = email(own).unwrap();
        let raw = String::from_utf8(built.content.clone()).unwrap();
        assert!(!raw.contains("multipart") && !raw.contains("List-Unsubscribe"), "{raw}");
        let read = parsed(&built);
        assert_eq!(read.content_type().map(|t| (t.ctype(), t.subtype())), Some(("text", Some("plain"))));
        assert_eq!(read.body_text(0).as_deref(), Some("Answer: https://survey.example/r/t"));
    }
}
