//! Emails as a mail reader reads them (mail-parser): the addresses, the subject and the text part decoded, so that
//! a test asserts what a person sees, whatever encoding the message builder chose for it.

use mail_parser::{Message, MessageParser};

fn parsed(message: &str) -> Message<'_> {
    MessageParser::default().parse(message.as_bytes()).unwrap_or_else(|| panic!("not a message: {message}"))
}

fn first_address(address: Option<&mail_parser::Address<'_>>) -> String {
    address.and_then(|address| address.first()).and_then(|addr| addr.address()).unwrap_or_default().to_owned()
}

/// The first `To` address of a raw message (without its display name), empty when there is none.
pub fn recipient(message: &str) -> String {
    first_address(parsed(message).to())
}

/// The first `From` address of a raw message (without its display name), empty when there is none.
pub fn sender(message: &str) -> String {
    first_address(parsed(message).from())
}

/// The subject of a raw message, its encoded words decoded; empty when it has none.
pub fn subject(message: &str) -> String {
    parsed(message).subject().unwrap_or_default().to_owned()
}

/// The text part of a raw message, decoded (the whole body of a message of one text part).
pub fn text_part(message: &str) -> String {
    parsed(message).body_text(0).unwrap_or_default().into_owned()
}

/// The HTML part of a raw message, decoded; empty when it has none.
pub fn html_part(message: &str) -> String {
    parsed(message).body_html(0).map(|html| html.into_owned()).unwrap_or_default()
}
