//! Whom a refusal blames (the contract's "Whom a refusal blames"): a relay's reply judged by the SMTP stage it
//! answers (RFC 5321) and its enhanced status code (RFC 3463), and an SMS endpoint's by its HTTP status.

use super::{Hold, HoldKind, SendError};

/// The SMTP stage a reply answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SmtpStage {
    /// Opening the session: the connection, TLS, the greeting, `EHLO`, `STARTTLS`, `AUTH`.
    Session,
    /// `MAIL FROM`: the envelope sender.
    MailFrom,
    /// `RCPT TO`: the recipient.
    RcptTo,
    /// `DATA` and the end of the message.
    Data,
}

/// Whom a refusal blames, and so what becomes of the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Blame {
    /// The recipient, for good: a permanent failure is recorded and the respondent is `Bounced`.
    Recipient,
    /// This message, for good (refused as spam, too big): it fails; the address stays usable.
    Message,
    /// The relay or the service's configuration (a connection, TLS, greeting, `EHLO`, `STARTTLS` or `AUTH` refusal,
    /// an SMS endpoint's 401): never the recipient.
    Relay,
    /// The relay asks to slow down (`421`, `454`, an SMS 429 or 503): never the recipient, and the pace halves.
    Throttled,
    /// The envelope sender (a refusal of `MAIL FROM`): never the recipient.
    Sender,
    /// Worth trying this message again later.
    Transient,
}

/// Judges an SMTP reply `code` (with its text, which may begin with an enhanced status code) given at `stage`.
///
/// ```
/// use canvass_domain::delivery::{blame_smtp, Blame, SmtpStage};
///
/// assert_eq!(blame_smtp(SmtpStage::MailFrom, 553, "5.7.1 sender not owned"), Blame::Sender);
/// assert_eq!(blame_smtp(SmtpStage::Data, 550, "5.1.1 mailbox unavailable"), Blame::Recipient);
/// assert_eq!(blame_smtp(SmtpStage::Data, 554, "5.7.1 refused as spam"), Blame::Message);
/// ```
pub fn blame_smtp(stage: SmtpStage, code: u16, text: &str) -> Blame {
    let permanent = (500..600).contains(&code);
    match stage {
        _ if code == 421 || code == 454 => Blame::Throttled,
        SmtpStage::Session => Blame::Relay,
        SmtpStage::MailFrom => Blame::Sender,
        SmtpStage::RcptTo if permanent => Blame::Recipient,
        SmtpStage::Data if permanent && matches!(enhanced(text), Some((5, 1 | 2))) => Blame::Recipient,
        SmtpStage::Data if permanent => Blame::Message,
        SmtpStage::RcptTo | SmtpStage::Data => Blame::Transient,
    }
}

/// Judges an SMS endpoint's HTTP `status` (a non-2xx one).
///
/// ```
/// use canvass_domain::delivery::{blame_sms, Blame};
///
/// assert_eq!(blame_sms(422), Blame::Recipient);
/// assert_eq!(blame_sms(401), Blame::Relay);
/// ```
pub fn blame_sms(status: u16) -> Blame {
    match status {
        400 | 422 => Blame::Recipient,
        401 | 403 | 404 | 407 => Blame::Relay,
        429 | 503 => Blame::Throttled,
        500..=599 => Blame::Transient,
        _ => Blame::Message,
    }
}

impl Blame {
    /// The transport's error for a refusal blamed so, with `reason` (the reply): relay and sender trouble, and a
    /// relay asking to slow down, hold the message without counting an attempt.
    pub fn error(self, reason: String) -> SendError {
        match self {
            Self::Recipient => SendError::Permanent(reason),
            Self::Message => SendError::Unsendable(reason),
            Self::Relay => SendError::Held(Hold::new(HoldKind::Relay, reason)),
            Self::Sender => SendError::Held(Hold::new(HoldKind::Sender, reason)),
            Self::Throttled => SendError::Held(Hold::new(HoldKind::Throttled, reason)),
            Self::Transient => SendError::Transient(reason),
        }
    }
}

/// The class and subject of the enhanced status code (`5.1.1` gives `(5, 1)`) the reply text begins with, if any.
fn enhanced(text: &str) -> Option<(u8, u16)> {
    let code = text.split_whitespace().next()?;
    let mut parts = code.split('.');
    let class: u8 = parts.next()?.parse().ok()?;
    let subject: u16 = parts.next()?.parse().ok()?;
    let detail: u16 = parts.next()?.parse().ok()?;
    let valid = matches!(class, 2 | 4 | 5) && subject <= 999 && detail <= 999 && parts.next().is_none();
    valid.then_some((class, subject))
}

#[cfg(test)]
mod tests {
    use super::*;
    use SmtpStage::{Data, MailFrom, RcptTo, Session};

    #[test]
    fn every_row_of_the_contract_blames_whom_it_says() {
        let rows: &[(SmtpStage, u16, &str, Blame)] = &[
            // The recipient: 5xx to RCPT TO, and 5xx to DATA with 5.1.x or 5.2.x.
            (RcptTo, 550, "5.1.1 no such user", Blame::Recipient),
            (RcptTo, 553, "mailbox name not allowed", Blame::Recipient),
            (Data, 550, "5.1.1 mailbox unavailable", Blame::Recipient),
            (Data, 552, "5.2.2 mailbox full", Blame::Recipient),
            // The message: any other 5xx to DATA.
            (Data, 554, "5.7.1 refused as spam", Blame::Message),
            (Data, 552, "5.3.4 message too big", Blame::Message),
            (Data, 554, "transaction failed", Blame::Message),
            // The relay or the sender: the session's stages, MAIL FROM, and 421/454 anywhere.
            (Session, 554, "no SMTP service here", Blame::Relay),
            (Session, 535, "5.7.8 authentication credentials invalid", Blame::Relay),
            (Session, 530, "5.7.0 must issue STARTTLS first", Blame::Relay),
            (MailFrom, 553, "5.7.1 sender not owned", Blame::Sender),
            (MailFrom, 554, "5.7.1 relay access denied", Blame::Sender),
            (MailFrom, 451, "4.3.0 try again later", Blame::Sender),
            (RcptTo, 421, "4.7.0 too many connections", Blame::Throttled),
            (Data, 454, "4.7.0 Throttling failure: maximum sending rate exceeded", Blame::Throttled),
            (MailFrom, 421, "4.3.2 shutting down", Blame::Throttled),
            (Session, 421, "4.7.0 try again later", Blame::Throttled),
            // Transient for this message: any other 4xx to RCPT TO or DATA.
            (RcptTo, 451, "4.3.0 try again later", Blame::Transient),
            (RcptTo, 450, "4.2.1 mailbox busy", Blame::Transient),
            (Data, 452, "4.3.1 insufficient storage", Blame::Transient),
        ];
        for &(stage, code, text, blame) in rows {
            assert_eq!(blame_smtp(stage, code, text), blame, "{stage:?} {code} {text}");
        }
    }

    #[test]
    fn an_sms_endpoint_is_judged_by_its_status() {
        let rows = [
            (400, Blame::Recipient),
            (422, Blame::Recipient),
            (401, Blame::Relay),
            (403, Blame::Relay),
            (404, Blame::Relay),
            (407, Blame::Relay),
            (429, Blame::Throttled),
            (503, Blame::Throttled),
            (502, Blame::Transient),
            (500, Blame::Transient),
            (413, Blame::Message),
        ];
        for (status, blame) in rows {
            assert_eq!(blame_sms(status), blame, "{status}");
        }
    }

    #[test]
    fn only_a_well_formed_enhanced_code_counts() {
        assert_eq!(enhanced("5.1.1 no such user"), Some((5, 1)));
        assert_eq!(enhanced("5.2.2"), Some((5, 2)));
        assert_eq!(enhanced("no such user 5.1.1"), None);
        assert_eq!(enhanced("5.1 no such user"), None);
        assert_eq!(enhanced("3.1.1 odd"), None);
        assert_eq!(enhanced(""), None);
        assert_eq!(blame_smtp(Data, 550, "mailbox 5.1.1 unavailable"), Blame::Message);
    }

    #[test]
    fn a_refusal_that_blames_no_recipient_is_never_a_bounce() {
        for blame in [Blame::Relay, Blame::Sender, Blame::Throttled, Blame::Transient, Blame::Message] {
            assert!(!matches!(blame.error("reply".into()), SendError::Permanent(_)), "{blame:?}");
        }
        assert_eq!(Blame::Recipient.error("550".into()), SendError::Permanent("550".into()));
        assert_eq!(Blame::Sender.error("553".into()), SendError::Held(Hold::new(HoldKind::Sender, "553")));
        assert_eq!(Blame::Relay.error("535".into()), SendError::Held(Hold::new(HoldKind::Relay, "535")));
        assert_eq!(Blame::Throttled.error("421".into()), SendError::Held(Hold::new(HoldKind::Throttled, "421")));
        assert_eq!(Blame::Transient.error("451".into()), SendError::Transient("451".into()));
    }
}
