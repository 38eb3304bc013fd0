//! Delivery status notifications (RFC 3464) written the way Postfix's bounce daemon writes them, for tests that
//! feed the server the bounces and delay warnings a relay sends after it accepted a message.

use std::collections::hash_map::DefaultHasher;
use std::fmt::Write;
use std::hash::{Hash, Hasher};

const REPORTING_MTA: &str = "mail.example.net";
const SENDER: &str = "surveys@survey.example";
const ARRIVAL_DATE: &str = "Tue, 14 May 2024 10:14:58 +0000 (UTC)";
const REPORT_DATE: &str = "Tue, 14 May 2024 10:15:02 +0000 (UTC)";
const RETRY_UNTIL: &str = "Sun, 19 May 2024 10:14:58 +0000 (UTC)";
const BOUNCE_TIME: u64 = 1_715_681_702;

/// A whole Postfix-style delivery status notification (CRLF line endings) about the message with
/// `original_message_id` (written with its `<>`) sent to `recipient`.
///
/// `action` is the DSN action (`failed` gives "Undelivered Mail Returned to Sender", `delayed` gives
/// "Delayed Mail (still being retried)"), `status` the DSN status (`5.1.1`), and `diagnostic` the
/// `Diagnostic-Code` value with its type, as Postfix writes it (`smtp; 550 5.1.1 <ann@example.com>: ...` or
/// `X-Postfix; connect to ...`); a diagnostic without a type is taken as an SMTP reply (`smtp;`), and an empty
/// one leaves the field out. The original's headers come back in a `text/rfc822-headers` part.
pub fn postfix_dsn(original_message_id: &str, recipient: &str, action: &str, status: &str, diagnostic: &str) -> String {
    let queue_id = queue_id(&[original_message_id, recipient, action, status, diagnostic]);
    let boundary = format!("{queue_id}.{BOUNCE_TIME}/{REPORTING_MTA}");
    let delayed = action.eq_ignore_ascii_case("delayed");
    let (diagnostic_type, diagnostic_text) = split_diagnostic(diagnostic);
    let domain = recipient.rsplit_once('@').map_or("example.com", |(_, domain)| domain);
    let remote_mta = format!("mx.{domain}");
    let smtp = diagnostic_type.eq_ignore_ascii_case("smtp");

    let mut m = String::new();
    line(&mut m, "Return-Path: <>");
    line(&mut m, &format!("Received: by {REPORTING_MTA} (Postfix)"));
    line(&mut m, &format!("\tid {queue_id}; {REPORT_DATE}"));
    line(&mut m, &format!("Date: {REPORT_DATE}"));
    line(&mut m, &format!("From: MAILER-DAEMON@{REPORTING_MTA} (Mail Delivery System)"));
    let subject = if delayed { "Delayed Mail (still being retried)" } else { "Undelivered Mail Returned to Sender" };
    line(&mut m, &format!("Subject: {subject}"));
    line(&mut m, &format!("To: {SENDER}"));
    line(&mut m, "Auto-Submitted: auto-replied");
    line(&mut m, "MIME-Version: 1.0");
    line(&mut m, "Content-Type: multipart/report; report-type=delivery-status;");
    line(&mut m, &format!("\tboundary=\"{boundary}\""));
    line(&mut m, "Content-Transfer-Encoding: 8bit");
    line(&mut m, &format!("Message-Id: <20240514101502.{queue_id}@{REPORTING_MTA}>"));
    line(&mut m, "");
    line(&mut m, "This is a MIME-encapsulated message.");
    line(&mut m, "");

    // The notification, for people.
    line(&mut m, &format!("--{boundary}"));
    line(&mut m, "Content-Description: Notification");
    line(&mut m, "Content-Type: text/plain; charset=us-ascii");
    line(&mut m, "");
    line(&mut m, &format!("This is the mail system at host {REPORTING_MTA}."));
    line(&mut m, "");
    if delayed {
        line(&mut m, "####################################################################");
        line(&mut m, "# THIS IS A WARNING ONLY.  YOU DO NOT NEED TO RESEND YOUR MESSAGE. #");
        line(&mut m, "####################################################################");
        line(&mut m, "");
        line(&mut m, "Your message could not be delivered for more than 4 hour(s).");
        line(&mut m, "It will be retried until it is 5 day(s) old.");
    } else {
        line(&mut m, "I'm sorry to have to inform you that your message could not");
        line(&mut m, "be delivered to one or more recipients. It's attached below.");
    }
    line(&mut m, "");
    line(&mut m, "For further assistance, please send mail to postmaster.");
    line(&mut m, "");
    line(&mut m, "If you do so, please include this problem report. You can");
    line(&mut m, "delete your own text from the attached returned message.");
    line(&mut m, "");
    line(&mut m, "                   The mail system");
    line(&mut m, "");
    let said = if smtp {
        format!("<{recipient}>: host {remote_mta}[203.0.113.5] said: {diagnostic_text} (in reply to RCPT TO command)")
    } else {
        format!("<{recipient}>: {diagnostic_text}")
    };
    wrapped(&mut m, &said);
    line(&mut m, "");

    // The report, for programs.
    line(&mut m, &format!("--{boundary}"));
    line(&mut m, "Content-Description: Delivery report");
    line(&mut m, "Content-Type: message/delivery-status");
    line(&mut m, "");
    line(&mut m, &format!("Reporting-MTA: dns; {REPORTING_MTA}"));
    line(&mut m, &format!("X-Postfix-Queue-ID: {queue_id}"));
    line(&mut m, &format!("X-Postfix-Sender: rfc822; {SENDER}"));
    line(&mut m, &format!("Arrival-Date: {ARRIVAL_DATE}"));
    line(&mut m, "");
    line(&mut m, &format!("Final-Recipient: rfc822; {recipient}"));
    line(&mut m, &format!("Original-Recipient: rfc822;{recipient}"));
    line(&mut m, &format!("Action: {action}"));
    line(&mut m, &format!("Status: {status}"));
    if smtp {
        line(&mut m, &format!("Remote-MTA: dns; {remote_mta}"));
    }
    if !diagnostic_text.is_empty() {
        wrapped(&mut m, &format!("Diagnostic-Code: {diagnostic_type}; {diagnostic_text}"));
    }
    if delayed {
        line(&mut m, &format!("Will-Retry-Until: {RETRY_UNTIL}"));
    }
    line(&mut m, "");

    // The original's headers.
    line(&mut m, &format!("--{boundary}"));
    line(&mut m, "Content-Description: Undelivered Message Headers");
    line(&mut m, "Content-Type: text/rfc822-headers");
    line(&mut m, "Content-Transfer-Encoding: 8bit");
    line(&mut m, "");
    line(&mut m, &format!("Return-Path: <{SENDER}>"));
    line(&mut m, "Received: from canvass.survey.example (canvass.survey.example [198.51.100.7])");
    line(&mut m, &format!("\tby {REPORTING_MTA} (Postfix) with ESMTP id {queue_id}"));
    line(&mut m, &format!("\tfor <{recipient}>; {ARRIVAL_DATE}"));
    line(&mut m, &format!("From: {SENDER}"));
    line(&mut m, &format!("To: {recipient}"));
    line(&mut m, "Subject: We would like your opinion");
    line(&mut m, &format!("Message-ID: {original_message_id}"));
    line(&mut m, "MIME-Version: 1.0");
    line(&mut m, "Content-Type: text/plain; charset=utf-8");
    line(&mut m, "Content-Transfer-Encoding: 7bit");
    line(&mut m, "Date: Tue, 14 May 2024 10:14:57 +0000");
    line(&mut m, "");
    line(&mut m, &format!("--{boundary}--"));
    m
}

/// A Postfix-like queue ID (hex, uppercase), the same for the same report.
fn queue_id(parts: &[&str]) -> String {
    let mut hasher = DefaultHasher::new();
    parts.hash(&mut hasher);
    format!("{:011X}", hasher.finish() & 0xFFF_FFFF_FFFF)
}

/// The diagnostic type (`smtp` when there is none) and the diagnostic text.
fn split_diagnostic(diagnostic: &str) -> (&str, &str) {
    match diagnostic.split_once(';') {
        Some((kind, text)) if !kind.is_empty() && kind.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') => {
            (kind, text.trim())
        }
        _ => ("smtp", diagnostic.trim()),
    }
}

fn line(m: &mut String, text: &str) {
    m.push_str(text);
    m.push_str("\r\n");
}

/// Writes `text` folded the way Postfix folds long lines: at spaces, before column 77, continuation lines
/// indented by four spaces.
fn wrapped(m: &mut String, text: &str) {
    const WIDTH: usize = 76;
    let mut current = String::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        if !current.is_empty() && current.len() + 1 + word.len() > WIDTH {
            line(m, &current);
            current = String::from("   ");
        }
        if !current.is_empty() {
            current.push(' ');
        }
        let _ = write!(current, "{word}");
    }
    line(m, &current);
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: &str = "<3f2a9c41d0e84b7c@survey.example>";

    #[test]
    fn a_bounce_is_a_multipart_report_with_the_three_parts() {
        let dsn = postfix_dsn(
            ID,
            "ann@example.com",
            "failed",
            "5.1.1",
            "smtp; 550 5.1.1 <ann@example.com>: Recipient address rejected: User unknown in local recipient table",
        );
        assert!(dsn.contains("\r\nSubject: Undelivered Mail Returned to Sender\r\n"));
        assert!(dsn.contains("\r\nFrom: MAILER-DAEMON@mail.example.net (Mail Delivery System)\r\n"));
        assert!(dsn.contains("Content-Type: multipart/report; report-type=delivery-status;\r\n\tboundary=\""));
        assert!(dsn.contains("\r\nContent-Type: message/delivery-status\r\n"));
        assert!(dsn.contains("\r\nContent-Type: text/rfc822-headers\r\n"));
        assert!(dsn.contains("\r\nAction: failed\r\nStatus: 5.1.1\r\nRemote-MTA: dns; mx.example.com\r\n"));
        assert!(dsn.contains(
            "\r\nDiagnostic-Code: smtp; 550 5.1.1 <ann@example.com>: Recipient address\r\n    rejected: User unknown in local recipient table\r\n"
        ));
        assert!(dsn.contains(&format!("\r\nMessage-ID: {ID}\r\n")));
        assert!(dsn.ends_with("--\r\n"));
        assert!(!dsn.replace("\r\n", "").contains('\n'), "bare LF");
    }

    #[test]
    fn a_delay_warning_says_so() {
        let dsn = postfix_dsn(
            ID,
            "bob@example.com",
            "delayed",
            "4.4.1",
            "X-Postfix; connect to mx.example.com[203.0.113.5]:25: Connection timed out",
        );
        assert!(dsn.contains("\r\nSubject: Delayed Mail (still being retried)\r\n"));
        assert!(dsn.contains("\r\nAction: delayed\r\nStatus: 4.4.1\r\nDiagnostic-Code: X-Postfix; connect to"));
        assert!(dsn.contains("\r\nWill-Retry-Until: "));
        assert!(!dsn.contains("Remote-MTA"));
    }

    #[test]
    fn the_boundary_is_only_a_boundary() {
        let dsn = postfix_dsn(ID, "ann@example.com", "failed", "5.1.1", "550 User unknown");
        let boundary = dsn.split("boundary=\"").nth(1).unwrap().split('"').next().unwrap();
        assert_eq!(dsn.matches(&format!("\r\n--{boundary}\r\n")).count(), 3);
        assert_eq!(dsn.matches(&format!("\r\n--{boundary}--\r\n")).count(), 1);
        assert!(dsn.contains("\r\nDiagnostic-Code: smtp; 550 User unknown\r\n"));
    }
}
