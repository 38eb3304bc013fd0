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
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// A bounce as Postfix's bounce daemon writes it, with the original's headers only.
    const BOUNCE: &str = r#"Return-Path: <>
Received: by mail.example.net (Postfix)
	id 4F1A82C0123; Tue, 14 May 2024 10:15:02 +0000 (UTC)
Date: Tue, 14 May 2024 10:15:02 +0000 (UTC)
From: MAILER-DAEMON@mail.example.net (Mail Delivery System)
Subject: Undelivered Mail Returned to Sender
To: surveys@survey.example
Auto-Submitted: auto-replied
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status;
	boundary="4F1A82C0123.1715681702/mail.example.net"
Content-Transfer-Encoding: 8bit
Message-Id: <20240514101502.4F1A82C0124@mail.example.net>

This is a MIME-encapsulated message.

--4F1A82C0123.1715681702/mail.example.net
Content-Description: Notification
Content-Type: text/plain; charset=us-ascii

This is the mail system at host mail.example.net.

I'm sorry to have to inform you that your message could not
be delivered to one or more recipients. It's attached below.

For further assistance, please send mail to postmaster.

If you do so, please include this problem report. You can
delete your own text from the attached returned message.

                   The mail system

<ann@example.com>: host mx.example.com[203.0.113.5] said: 550 5.1.1
    <ann@example.com>: Recipient address rejected: User unknown in local
    recipient table (in reply to RCPT TO command)

--4F1A82C0123.1715681702/mail.example.net
Content-Description: Delivery report
Content-Type: message/delivery-status

Reporting-MTA: dns; mail.example.net
X-Postfix-Queue-ID: 4F1A82C0123
X-Postfix-Sender: rfc822; surveys@survey.example
Arrival-Date: Tue, 14 May 2024 10:14:58 +0000 (UTC)

Final-Recipient: rfc822; ann@example.com
Original-Recipient: rfc822;ann@example.com
Action: failed
Status: 5.1.1
Remote-MTA: dns; mx.example.com
Diagnostic-Code: smtp; 550 5.1.1 <ann@example.com>: Recipient address
    rejected: User unknown in local recipient table

--4F1A82C0123.1715681702/mail.example.net
Content-Description: Undelivered Message Headers
Content-Type: text/rfc822-headers
Content-Transfer-Encoding: 8bit

Return-Path: <surveys@survey.example>
Received: from canvass.survey.example (canvass.survey.example [198.51.100.7])
	by mail.example.net (Postfix) with ESMTP id 4F1A82C0123
	for <ann@example.com>; Tue, 14 May 2024 10:14:58 +0000 (UTC)
From: surveys@survey.example
To: ann@example.com
Subject: We would like your opinion
Message-ID: <3f2a9c41d0e84b7c@survey.example>
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: 7bit
Date: Tue, 14 May 2024 10:14:57 +0000

--4F1A82C0123.1715681702/mail.example.net--
"#;

    /// A delay warning as Postfix writes it.
    const DELAY: &str = r#"Return-Path: <>
Received: by mail.example.net (Postfix)
	id 7B3D51A0456; Tue, 14 May 2024 14:15:02 +0000 (UTC)
Date: Tue, 14 May 2024 14:15:02 +0000 (UTC)
From: MAILER-DAEMON@mail.example.net (Mail Delivery System)
Subject: Delayed Mail (still being retried)
To: surveys@survey.example
Auto-Submitted: auto-replied
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status;
	boundary="7B3D51A0456.1715696102/mail.example.net"
Content-Transfer-Encoding: 8bit
Message-Id: <20240514141502.7B3D51A0457@mail.example.net>

This is a MIME-encapsulated message.

--7B3D51A0456.1715696102/mail.example.net
Content-Description: Notification
Content-Type: text/plain; charset=us-ascii

This is the mail system at host mail.example.net.

####################################################################
# THIS IS A WARNING ONLY.  YOU DO NOT NEED TO RESEND YOUR MESSAGE. #
####################################################################

Your message could not be delivered for more than 4 hour(s).
It will be retried until it is 5 day(s) old.

For further assistance, please send mail to postmaster.

If you do so, please include this problem report. You can
delete your own text from the attached returned message.

                   The mail system

<bob@example.com>: connect to mx.example.com[203.0.113.5]:25: Connection timed
    out

--7B3D51A0456.1715696102/mail.example.net
Content-Description: Delivery report
Content-Type: message/delivery-status

Reporting-MTA: dns; mail.example.net
X-Postfix-Queue-ID: 7B3D51A0456
X-Postfix-Sender: rfc822; surveys@survey.example
Arrival-Date: Tue, 14 May 2024 10:14:58 +0000 (UTC)

Final-Recipient: rfc822; bob@example.com
Original-Recipient: rfc822;bob@example.com
Action: delayed
Status: 4.4.1
Diagnostic-Code: X-Postfix; connect to mx.example.com[203.0.113.5]:25:
    Connection timed out
Will-Retry-Until: Sun, 19 May 2024 10:14:58 +0000 (UTC)

--7B3D51A0456.1715696102/mail.example.net
Content-Description: Undelivered Message Headers
Content-Type: text/rfc822-headers
Content-Transfer-Encoding: 8bit

Return-Path: <surveys@survey.example>
From: surveys@survey.example
To: bob@example.com
Subject: We would like your opinion
Message-ID: <9d04e7aa51c2@survey.example>
Date: Tue, 14 May 2024 10:14:57 +0000

--7B3D51A0456.1715696102/mail.example.net--
"#;

    /// A bounce returning the whole original as message/rfc822 (Postfix does this unless the sender asked for
    /// headers only), with two recipients, one failed and one delayed.
    const WHOLE_ORIGINAL_TWO_RECIPIENTS: &str = r#"Return-Path: <>
Date: Tue, 14 May 2024 10:15:02 +0000 (UTC)
From: MAILER-DAEMON@mail.example.net (Mail Delivery System)
Subject: Undelivered Mail Returned to Sender
To: surveys@survey.example
Auto-Submitted: auto-replied
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status;
	boundary="5C2E91D0789.1715681702/mail.example.net"
Content-Transfer-Encoding: 8bit
Message-Id: <20240514101502.5C2E91D0790@mail.example.net>

This is a MIME-encapsulated message.

--5C2E91D0789.1715681702/mail.example.net
Content-Description: Notification
Content-Type: text/plain; charset=us-ascii

This is the mail system at host mail.example.net.

I'm sorry to have to inform you that your message could not
be delivered to one or more recipients. It's attached below.

                   The mail system

<cy@example.com>: host mx.example.com[203.0.113.5] said: 550 5.7.1
    <cy@example.com>: Relay access denied (in reply to RCPT TO command)

<dee@example.org>: host mx.example.org[203.0.113.9] said: 452 4.2.2 Mailbox
    full (in reply to RCPT TO command)

--5C2E91D0789.1715681702/mail.example.net
Content-Description: Delivery report
Content-Type: message/delivery-status

Reporting-MTA: dns; mail.example.net
X-Postfix-Queue-ID: 5C2E91D0789
X-Postfix-Sender: rfc822; surveys@survey.example
Arrival-Date: Tue, 14 May 2024 10:14:58 +0000 (UTC)

Final-Recipient: rfc822; cy@example.com
Original-Recipient: rfc822;cy@example.com
Action: failed
Status: 5.7.1
Remote-MTA: dns; mx.example.com
Diagnostic-Code: smtp; 550 5.7.1 <cy@example.com>: Relay access denied

Final-Recipient: rfc822; dee@example.org
Original-Recipient: rfc822;dee@example.org
Action: delayed
Status: 4.2.2
Remote-MTA: dns; mx.example.org
Diagnostic-Code: smtp; 452 4.2.2 Mailbox full
Will-Retry-Until: Sun, 19 May 2024 10:14:58 +0000 (UTC)

--5C2E91D0789.1715681702/mail.example.net
Content-Description: Undelivered Message
Content-Type: message/rfc822
Content-Transfer-Encoding: 8bit

Return-Path: <surveys@survey.example>
Received: from canvass.survey.example (canvass.survey.example [198.51.100.7])
	by mail.example.net (Postfix) with ESMTP id 5C2E91D0789
	for <cy@example.com>; Tue, 14 May 2024 10:14:58 +0000 (UTC)
From: surveys@survey.example
To: cy@example.com, dee@example.org
Subject: We would like your opinion
Message-ID: <b81f0c3e7d2a@survey.example>
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: 7bit
Date: Tue, 14 May 2024 10:14:57 +0000

Please answer our survey: https://survey.example/r/abc

--5C2E91D0789.1715681702/mail.example.net--
"#;

    /// A literal copy of what `canvass_sinks::postfix_dsn("<7c1e5b2a90f34d6e@canvass>", "bob@example.org",
    /// "failed", "5.1.1", "smtp; 550 5.1.1 <bob@example.org>: Recipient address rejected: User unknown in virtual
    /// mailbox table")` writes (with CRLF line endings), so the black-box tests' reports are known to parse.
    const SINKS_COPY: &str = r#"Return-Path: <>
Received: by mail.example.net (Postfix)
	id 3E391287370; Tue, 14 May 2024 10:15:02 +0000 (UTC)
Date: Tue, 14 May 2024 10:15:02 +0000 (UTC)
From: MAILER-DAEMON@mail.example.net (Mail Delivery System)
Subject: Undelivered Mail Returned to Sender
To: surveys@survey.example
Auto-Submitted: auto-replied
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status;
	boundary="3E391287370.1715681702/mail.example.net"
Content-Transfer-Encoding: 8bit
Message-Id: <20240514101502.3E391287370@mail.example.net>

This is a MIME-encapsulated message.

--3E391287370.1715681702/mail.example.net
Content-Description: Notification
Content-Type: text/plain; charset=us-ascii

This is the mail system at host mail.example.net.

I'm sorry to have to inform you that your message could not
be delivered to one or more recipients. It's attached below.

For further assistance, please send mail to postmaster.

If you do so, please include this problem report. You can
delete your own text from the attached returned message.

                   The mail system

<bob@example.org>: host mx.example.org[203.0.113.5] said: 550 5.1.1
    <bob@example.org>: Recipient address rejected: User unknown in virtual
    mailbox table (in reply to RCPT TO command)

--3E391287370.1715681702/mail.example.net
Content-Description: Delivery report
Content-Type: message/delivery-status

Reporting-MTA: dns; mail.example.net
X-Postfix-Queue-ID: 3E391287370
X-Postfix-Sender: rfc822; surveys@survey.example
Arrival-Date: Tue, 14 May 2024 10:14:58 +0000 (UTC)

Final-Recipient: rfc822; bob@example.org
Original-Recipient: rfc822;bob@example.org
Action: failed
Status: 5.1.1
Remote-MTA: dns; mx.example.org
Diagnostic-Code: smtp; 550 5.1.1 <bob@example.org>: Recipient address
    rejected: User unknown in virtual mailbox table

--3E391287370.1715681702/mail.example.net
Content-Description: Undelivered Message Headers
Content-Type: text/rfc822-headers
Content-Transfer-Encoding: 8bit

Return-Path: <surveys@survey.example>
Received: from canvass.survey.example (canvass.survey.example [198.51.100.7])
	by mail.example.net (Postfix) with ESMTP id 3E391287370
	for <bob@example.org>; Tue, 14 May 2024 10:14:58 +0000 (UTC)
From: surveys@survey.example
To: bob@example.org
Subject: We would like your opinion
Message-ID: <7c1e5b2a90f34d6e@canvass>
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: 7bit
Date: Tue, 14 May 2024 10:14:57 +0000

--3E391287370.1715681702/mail.example.net--
"#;

    fn crlf(text: &str) -> String {
        text.replace('\n', "\r\n")
    }

    fn parsed(text: &str) -> StatusReport {
        parse_report(text.as_bytes()).unwrap()
    }

    fn refused(text: &[u8]) -> String {
        parse_report(text).unwrap_err().to_string()
    }

    #[test]
    fn a_bounce_is_a_permanent_failure_of_the_original() {
        let expected = StatusReport {
            original_message_id: Some("3f2a9c41d0e84b7c@survey.example".into()),
            recipients: vec![RecipientStatus {
                recipient: "ann@example.com".into(),
                action: "failed".into(),
                status: "5.1.1".into(),
                diagnostic: Some(
                    "550 5.1.1 <ann@example.com>: Recipient address rejected: User unknown in local recipient table"
                        .into(),
                ),
            }],
        };
        // Postfix writes LF to its queue; the relay delivers CRLF.
        assert_eq!(parsed(BOUNCE), expected);
        assert_eq!(parsed(&crlf(BOUNCE)), expected);
        let report = parsed(BOUNCE);
        assert_eq!(report.message_token(), Some("3f2a9c41d0e84b7c"));
        assert!(report.recipients[0].is_permanent_failure());
        assert_eq!(
            report.recipients[0].reason(),
            "5.1.1 550 5.1.1 <ann@example.com>: Recipient address rejected: User unknown in local recipient table"
        );
    }

    #[test]
    fn a_delay_warning_is_not_a_failure() {
        let report = parsed(&crlf(DELAY));
        assert_eq!(report.original_message_id.as_deref(), Some("9d04e7aa51c2@survey.example"));
        assert_eq!(
            report.recipients,
            vec![RecipientStatus {
                recipient: "bob@example.com".into(),
                action: "delayed".into(),
                status: "4.4.1".into(),
                diagnostic: Some("connect to mx.example.com[203.0.113.5]:25: Connection timed out".into()),
            }]
        );
        assert!(!report.recipients[0].is_permanent_failure());
    }

    #[test]
    fn the_message_id_is_read_from_a_returned_whole_message() {
        let report = parsed(WHOLE_ORIGINAL_TWO_RECIPIENTS);
        assert_eq!(report.original_message_id.as_deref(), Some("b81f0c3e7d2a@survey.example"));
        assert_eq!(parsed(&crlf(WHOLE_ORIGINAL_TWO_RECIPIENTS)), report);
    }

    #[test]
    fn every_recipient_block_is_read_in_order() {
        let report = parsed(&crlf(WHOLE_ORIGINAL_TWO_RECIPIENTS));
        assert_eq!(
            report.recipients,
            vec![
                RecipientStatus {
                    recipient: "cy@example.com".into(),
                    action: "failed".into(),
                    status: "5.7.1".into(),
                    diagnostic: Some("550 5.7.1 <cy@example.com>: Relay access denied".into()),
                },
                RecipientStatus {
                    recipient: "dee@example.org".into(),
                    action: "delayed".into(),
                    status: "4.2.2".into(),
                    diagnostic: Some("452 4.2.2 Mailbox full".into()),
                },
            ]
        );
        let permanent: Vec<bool> = report.recipients.iter().map(RecipientStatus::is_permanent_failure).collect();
        assert_eq!(permanent, [true, false]);
    }

    #[test]
    fn the_canvass_sinks_format_parses() {
        let report = parsed(&crlf(SINKS_COPY));
        assert_eq!(report.original_message_id.as_deref(), Some("7c1e5b2a90f34d6e@canvass"));
        assert_eq!(report.message_token(), Some("7c1e5b2a90f34d6e"));
        assert_eq!(report.recipients.len(), 1);
        assert_eq!(report.recipients[0].recipient, "bob@example.org");
        assert!(report.recipients[0].is_permanent_failure());
        assert_eq!(
            report.recipients[0].reason(),
            "5.1.1 550 5.1.1 <bob@example.org>: Recipient address rejected: User unknown in virtual mailbox table"
        );
    }

    #[test]
    fn fields_are_read_without_regard_to_case_or_comments() {
        let text = crlf(
            "Content-Type: MULTIPART/Report; Report-Type=\"Delivery-Status\"; boundary=b\n\n--b\n\
             Content-Type: Message/Delivery-Status\n\nreporting-mta: dns; mx\n\n\
             final-recipient: RFC822; <Ann@Example.com>\naction: FAILED (no such user)\n\
             status: 5.1.1 (bad mailbox)\n\n--b--\n",
        );
        let report = parsed(&text);
        assert_eq!(report.original_message_id, None);
        assert_eq!(report.message_token(), None);
        assert_eq!(
            report.recipients,
            vec![RecipientStatus {
                recipient: "Ann@Example.com".into(),
                action: "failed".into(),
                status: "5.1.1".into(),
                diagnostic: None,
            }]
        );
    }

    #[test]
    fn an_encoded_delivery_status_part_is_decoded() {
        // "Final-Recipient: rfc822; ann@example.com\r\nAction: failed\r\nStatus: 5.1.1\r\n", preceded by a
        // per-message block.
        let text = crlf(
            "Content-Type: multipart/report; report-type=delivery-status; boundary=b\n\n--b\n\
             Content-Type: message/delivery-status\nContent-Transfer-Encoding: base64\n\n\
             UmVwb3J0aW5nLU1UQTogZG5zOyBteA0KDQpGaW5hbC1SZWNpcGllbnQ6IHJmYzgyMjsgYW5uQGV4\n\
             YW1wbGUuY29tDQpBY3Rpb246IGZhaWxlZA0KU3RhdHVzOiA1LjEuMQ0K\n--b--\n",
        );
        let report = parsed(&text);
        assert_eq!(report.recipients.len(), 1);
        assert_eq!(report.recipients[0].recipient, "ann@example.com");
        assert!(report.recipients[0].is_permanent_failure());
    }

    #[test]
    fn an_ordinary_email_is_not_a_report() {
        let text = crlf(
            "From: ann@example.com\nTo: surveys@survey.example\nSubject: Re: We would like your opinion\n\
             Message-ID: <x@example.com>\nContent-Type: text/plain; charset=utf-8\n\nNo thanks.\n",
        );
        let error = refused(text.as_bytes());
        assert!(error.contains("text/plain"), "{error}");
        // No Content-Type at all is text/plain too.
        assert!(parse_report(b"From: ann@example.com\r\nSubject: hi\r\n\r\nhello\r\n").is_err());
    }

    #[test]
    fn a_multipart_without_a_delivery_status_part_is_not_a_report() {
        let mixed = crlf(
            "Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain\n\nhello\n\
             --b\nContent-Type: text/rfc822-headers\n\nMessage-ID: <x@survey.example>\n\n--b--\n",
        );
        assert!(refused(mixed.as_bytes()).contains("multipart/mixed"));
        let report_without_status = crlf(
            "Content-Type: multipart/report; report-type=delivery-status; boundary=b\n\n--b\n\
             Content-Type: text/plain\n\nhello\n--b\nContent-Type: text/rfc822-headers\n\n\
             Message-ID: <x@survey.example>\n\n--b--\n",
        );
        assert!(refused(report_without_status.as_bytes()).contains("no message/delivery-status part"));
    }

    #[test]
    fn other_reports_are_not_delivery_status_notifications() {
        let mdn = crlf(
            "Content-Type: multipart/report; report-type=disposition-notification; boundary=b\n\n--b\n\
             Content-Type: message/disposition-notification\n\nFinal-Recipient: rfc822; ann@example.com\n\
             Disposition: manual-action/MDN-sent-manually; displayed\n\n--b--\n",
        );
        assert!(refused(mdn.as_bytes()).contains("disposition-notification"));
        let no_type = crlf("Content-Type: multipart/report; boundary=b\n\n--b\nContent-Type: text/plain\n\nx\n--b--\n");
        assert!(refused(no_type.as_bytes()).contains("report-type"));
    }

    #[test]
    fn a_delivery_status_part_without_recipients_is_refused() {
        let text = crlf(
            "Content-Type: multipart/report; report-type=delivery-status; boundary=b\n\n--b\n\
             Content-Type: message/delivery-status\n\nReporting-MTA: dns; mail.example.net\n\n--b--\n",
        );
        assert!(refused(text.as_bytes()).contains("no recipient"));
    }

    #[test]
    fn garbage_is_not_a_report() {
        for garbage in [
            &b""[..],
            b"\0",
            b"\r\n\r\n",
            b"\xff\xfe\x00garbage\x80\x81",
            b"Content-Type: multipart/report; report-type=delivery-status; boundary=b\r\n\r\n--b",
            b"Content-Type: multipart/report; report-type=delivery-status; boundary=\"\"\r\n\r\n----\r\n",
            b"Content-Type: multipart/report; report-type=delivery-status; boundary=b\r\n\r\n--b\r\nContent-Type: message/delivery-status\r\n\r\n\x00\xff\r\n--b--",
        ] {
            assert!(parse_report(garbage).is_err(), "{garbage:?}");
        }
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let bytes: Vec<u8> = (0..4096)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state >> 24) as u8
            })
            .collect();
        assert!(parse_report(&bytes).is_err());
    }

    #[test]
    fn damaged_reports_never_panic() {
        for report in [crlf(BOUNCE), DELAY.to_owned(), crlf(WHOLE_ORIGINAL_TWO_RECIPIENTS)] {
            let bytes = report.as_bytes();
            for end in 0..bytes.len() {
                let _ = parse_report(&bytes[..end]);
                let _ = parse_report(&bytes[end..]);
            }
            let mut state = 0x9e37_79b9_7f4a_7c15_u64;
            for _ in 0..2000 {
                let mut damaged = bytes.to_vec();
                for _ in 0..4 {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    let at = (state % damaged.len() as u64) as usize;
                    damaged[at] = [b'\n', b'\r', b'-', b';', b'"', b' ', 0, 0xff][(state >> 32) as usize % 8];
                }
                let _ = parse_report(&damaged);
            }
        }
    }
}
