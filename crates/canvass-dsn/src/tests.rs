//! Tests of the delivery status notification reader, on reports written the way Postfix writes them.

use super::*;

/// A bounce as Postfix's bounce daemon writes it, with the original's headers only.
const BOUNCE: &str = include_str!("fixtures/bounce.eml");

/// A delay warning as Postfix writes it.
const DELAY: &str = include_str!("fixtures/delay.eml");

/// A bounce returning the whole original as message/rfc822 (Postfix does this unless the sender asked for
/// headers only), with two recipients, one failed and one delayed.
const WHOLE_ORIGINAL_TWO_RECIPIENTS: &str = include_str!("fixtures/whole_original_two_recipients.eml");

/// A literal copy of what `canvass_sinks::postfix_dsn("<7c1e5b2a90f34d6e@canvass>", "bob@example.org",
/// "failed", "5.1.1", "smtp; 550 5.1.1 <bob@example.org>: Recipient address rejected: User unknown in virtual
/// mailbox table")` writes (with CRLF line endings), so the black-box tests' reports are known to parse.
const SINKS_COPY: &str = include_str!("fixtures/sinks_copy.eml");

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
                "550 5.1.1 <ann@example.com>: Recipient address rejected: User unknown in local recipient table".into(),
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
