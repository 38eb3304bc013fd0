//! Reads delivery status notifications (RFC 3464): the bounces and delay warnings a relay sends back after it
//! accepted a message, as `multipart/report; report-type=delivery-status`.

use std::fmt;

use canvass_domain::delivery::dsn::{RecipientStatus, StatusReport};
use mail_parser::{Message, MessageParser, MessagePart, MimeHeaders};

/// Why a message is not a delivery status notification (the reason, for a 400 detail).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotAReport(pub String);

impl fmt::Display for NotAReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a delivery status notification: {}", self.0)
    }
}

impl std::error::Error for NotAReport {}

fn not_a_report(reason: &str) -> NotAReport {
    NotAReport(reason.to_owned())
}

/// Reads a delivery status notification. Errors when the message is not a multipart/report of report-type
/// delivery-status with a message/delivery-status part, or when that part has no recipient block with
/// `Final-Recipient`, `Action` and `Status`.
///
/// The original's `Message-ID` is read from the report's `text/rfc822-headers` part, or from its `message/rfc822`
/// part when the relay returned the whole message; it is `None` when the report has neither or no `Message-ID`.
pub fn parse_report(raw: &[u8]) -> Result<StatusReport, NotAReport> {
    let message = MessageParser::new().parse(raw).ok_or_else(|| not_a_report("not a MIME message"))?;
    let root = message.root_part();
    let content_type = root.content_type().ok_or_else(|| not_a_report("no Content-Type (text/plain)"))?;
    let subtype = content_type.subtype().unwrap_or_default();
    if !content_type.ctype().eq_ignore_ascii_case("multipart") || !subtype.eq_ignore_ascii_case("report") {
        return Err(NotAReport(format!("Content-Type is {}/{subtype}, not multipart/report", content_type.ctype())));
    }
    match content_type.attribute("report-type") {
        Some(kind) if kind.trim().eq_ignore_ascii_case("delivery-status") => {}
        Some(kind) => return Err(NotAReport(format!("report-type is {kind}, not delivery-status"))),
        None => return Err(not_a_report("multipart/report without a report-type")),
    }

    let parts: Vec<&MessagePart<'_>> =
        root.sub_parts().unwrap_or_default().iter().filter_map(|&id| message.part(id)).collect();
    let status_part = parts
        .iter()
        .find(|part| part.is_content_type("message", "delivery-status"))
        .or_else(|| parts.iter().find(|part| part.is_content_type("message", "global-delivery-status")))
        .ok_or_else(|| not_a_report("no message/delivery-status part"))?;

    let recipients = recipient_statuses(status_part.contents());
    if recipients.is_empty() {
        return Err(not_a_report(
            "the message/delivery-status part has no recipient with Final-Recipient, Action and Status",
        ));
    }
    Ok(StatusReport { original_message_id: original_message_id(&parts), recipients })
}

/// The recipient blocks of a `message/delivery-status` body: header-field blocks separated by blank lines, the
/// first one about the message (no `Final-Recipient` or `Action`), the others one per recipient. Blocks without
/// a recipient, an action or a status are skipped.
fn recipient_statuses(body: &[u8]) -> Vec<RecipientStatus> {
    let parser = MessageParser::new();
    blocks(body)
        .filter_map(|block| parser.parse_headers(block))
        .filter_map(|fields| {
            let recipient = field(&fields, "Final-Recipient").or_else(|| field(&fields, "Original-Recipient"))?;
            let recipient = without_type(&recipient).trim_start_matches('<').trim_end_matches('>').trim().to_owned();
            let action = first_word(&field(&fields, "Action")?)?.to_ascii_lowercase();
            let status = first_word(&field(&fields, "Status")?)?.to_owned();
            let diagnostic = field(&fields, "Diagnostic-Code")
                .map(|code| without_type(&code).to_owned())
                .filter(|code| !code.is_empty());
            (!recipient.is_empty()).then_some(RecipientStatus { recipient, action, status, diagnostic })
        })
        .collect()
}

/// The blocks of `body` between blank (or whitespace-only) lines, empty ones left out.
fn blocks(body: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = body;
    std::iter::from_fn(move || loop {
        if rest.is_empty() {
            return None;
        }
        let mut end = rest.len();
        let mut next = rest.len();
        let mut line_start = 0;
        while line_start < rest.len() {
            let line_end =
                rest[line_start..].iter().position(|&b| b == b'\n').map_or(rest.len(), |i| line_start + i + 1);
            if rest[line_start..line_end].iter().all(u8::is_ascii_whitespace) {
                end = line_start;
                next = line_end;
                break;
            }
            line_start = line_end;
        }
        let block = &rest[..end];
        rest = &rest[next..];
        if !block.is_empty() {
            return Some(block);
        }
    })
}

/// A field's value, unfolded, with runs of whitespace as one space; `None` when absent or empty.
fn field(fields: &Message<'_>, name: &str) -> Option<String> {
    let value = fields.header(name)?.as_text()?;
    let value = value.split_whitespace().collect::<Vec<_>>().join(" ");
    (!value.is_empty()).then_some(value)
}

/// A typed value (`rfc822; ann@example.com`, `smtp; 550 ...`) without its type.
fn without_type(value: &str) -> &str {
    value.split_once(';').map_or(value, |(_, rest)| rest).trim()
}

/// The first word of a value, before any comment (`5.1.1 (User unknown)`).
fn first_word(value: &str) -> Option<&str> {
    value.split(|c: char| c.is_whitespace() || c == '(').find(|word| !word.is_empty())
}

/// The original's Message-ID, from the returned headers or the returned message.
fn original_message_id(parts: &[&MessagePart<'_>]) -> Option<String> {
    let original = parts.iter().find(|part| {
        part.is_content_type("text", "rfc822-headers")
            || ["global-headers", "rfc822", "global"].iter().any(|sub| part.is_content_type("message", sub))
    })?;
    let id = match original.message() {
        Some(message) => message.message_id().map(str::to_owned),
        None => MessageParser::new().parse_headers(original.contents())?.message_id().map(str::to_owned),
    }?;
    let id = id.trim().trim_start_matches('<').trim_end_matches('>').trim();
    (!id.is_empty()).then(|| id.to_owned())
}

#[cfg(test)]
mod tests;
