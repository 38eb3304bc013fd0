//! Delivery status notifications (RFC 3464): what a relay reports about a message after it accepted it, and
//! which of those reports are permanent failures.

/// A delivery status notification, as read from the relay's report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusReport {
    /// The `Message-ID` of the message the report is about, without `<>`, trimmed; `None` when the report does
    /// not carry the original's headers or they have no `Message-ID`.
    pub original_message_id: Option<String>,
    /// One entry per recipient block of the report, in report order.
    pub recipients: Vec<RecipientStatus>,
}

/// What the report says about one recipient.
#[derive(Clone, PartialEq, Eq)]
pub struct RecipientStatus {
    /// The `Final-Recipient` address, without its address type (`rfc822;`).
    pub recipient: String,
    /// The `Action`, lowercased: `failed`, `delayed`, `delivered`, `relayed` or `expanded`.
    pub action: String,
    /// The `Status` code, e.g. `5.1.1`.
    pub status: String,
    /// The `Diagnostic-Code` value without its diagnostic type (`smtp;`), when there is one.
    pub diagnostic: Option<String>,
}

impl RecipientStatus {
    /// Action failed and a 5.x.x status: a permanent failure, exactly like an SMTP 5xx.
    ///
    /// `delayed`, `delivered`, `relayed` and `expanded` are never permanent, and neither is `failed` with a status
    /// of another class (the class is the digit before the first `.`).
    ///
    /// ```
    /// use canvass_domain::delivery::dsn::RecipientStatus;
    ///
    /// let bounce = RecipientStatus {
    ///     recipient: "ann@example.com".into(),
    ///     action: "failed".into(),
    ///     status: "5.1.1".into(),
    ///     diagnostic: Some("550 5.1.1 <ann@example.com>: Recipient address rejected: User unknown".into()),
    /// };
    /// assert!(bounce.is_permanent_failure());
    /// assert_eq!(bounce.reason(), "5.1.1 550 5.1.1 <ann@example.com>: Recipient address rejected: User unknown");
    ///
    /// let delay = RecipientStatus { action: "delayed".into(), status: "4.4.1".into(), ..bounce };
    /// assert!(!delay.is_permanent_failure());
    /// ```
    pub fn is_permanent_failure(&self) -> bool {
        self.action.trim().eq_ignore_ascii_case("failed") && self.status_class() == Some("5")
    }

    /// The reason recorded with a permanent failure: status and diagnostic, e.g.
    /// "5.1.1 550 5.1.1 <ann@example.com>: Recipient address rejected: User unknown"; only the status when the
    /// report gives no diagnostic.
    pub fn reason(&self) -> String {
        let status = self.status.trim();
        match self.diagnostic.as_deref().map(str::trim).filter(|d| !d.is_empty()) {
            Some(diagnostic) => format!("{status} {diagnostic}"),
            None => status.to_owned(),
        }
    }

    /// The status class: the digits before the first `.` (`"5"` for `5.1.1`); `None` when there are none.
    fn status_class(&self) -> Option<&str> {
        let class = self.status.trim().split('.').next()?.trim();
        (!class.is_empty() && class.bytes().all(|b| b.is_ascii_digit())).then_some(class)
    }
}

impl StatusReport {
    /// The local part of the original Message-ID (before '@'), the token Canvass puts in the Message-IDs it
    /// writes; None when there is no Message-ID.
    ///
    /// ```
    /// use canvass_domain::delivery::dsn::StatusReport;
    ///
    /// let report = StatusReport { original_message_id: Some("3f2a9c@survey.example".into()), recipients: vec![] };
    /// assert_eq!(report.message_token(), Some("3f2a9c"));
    /// ```
    pub fn message_token(&self) -> Option<&str> {
        let id = self.original_message_id.as_deref()?.trim().trim_start_matches('<').trim_end_matches('>');
        let token = id.split_once('@').map_or(id, |(local, _)| local).trim();
        (!token.is_empty()).then_some(token)
    }
}

crate::debug_without_personal_data!(RecipientStatus { action, status });

#[cfg(test)]
mod tests {
    use super::*;

    fn status(action: &str, status: &str) -> RecipientStatus {
        RecipientStatus {
            recipient: "ann@example.com".into(),
            action: action.into(),
            status: status.into(),
            diagnostic: Some("550 5.1.1 <ann@example.com>: Recipient address rejected: User unknown".into()),
        }
    }

    fn report(id: Option<&str>) -> StatusReport {
        StatusReport { original_message_id: id.map(Into::into), recipients: vec![] }
    }

    #[test]
    fn failed_with_a_5xx_status_is_permanent() {
        assert!(status("failed", "5.1.1").is_permanent_failure());
        assert!(status("failed", "5.7.1").is_permanent_failure());
        assert!(status("failed", "5.0.0").is_permanent_failure());
    }

    #[test]
    fn failed_with_another_class_is_not_permanent() {
        assert!(!status("failed", "4.4.1").is_permanent_failure());
        assert!(!status("failed", "4.2.2").is_permanent_failure());
        assert!(!status("failed", "2.0.0").is_permanent_failure());
        assert!(!status("failed", "").is_permanent_failure());
        assert!(!status("failed", "x.1.1").is_permanent_failure());
        // The class is the digit before the first '.', not the first character.
        assert!(!status("failed", "55.1.1").is_permanent_failure());
        assert!(!status("failed", "4.5.5").is_permanent_failure());
    }

    #[test]
    fn other_actions_are_never_permanent() {
        for action in ["delayed", "delivered", "relayed", "expanded", ""] {
            assert!(!status(action, "5.1.1").is_permanent_failure(), "{action}");
            assert!(!status(action, "4.4.1").is_permanent_failure(), "{action}");
        }
    }

    #[test]
    fn the_action_is_compared_without_case() {
        assert!(status("Failed", "5.1.1").is_permanent_failure());
        assert!(status(" FAILED ", " 5.1.1 ").is_permanent_failure());
    }

    #[test]
    fn the_reason_is_the_status_then_the_diagnostic() {
        assert_eq!(
            status("failed", "5.1.1").reason(),
            "5.1.1 550 5.1.1 <ann@example.com>: Recipient address rejected: User unknown"
        );
        let bare = RecipientStatus { diagnostic: None, ..status("failed", "5.1.1") };
        assert_eq!(bare.reason(), "5.1.1");
        let blank = RecipientStatus { diagnostic: Some("  ".into()), ..status("failed", "5.1.1") };
        assert_eq!(blank.reason(), "5.1.1");
    }

    #[test]
    fn the_token_is_the_local_part_of_the_message_id() {
        assert_eq!(report(Some("3f2a9c41@survey.example")).message_token(), Some("3f2a9c41"));
        assert_eq!(report(Some(" 3f2a9c41@canvass ")).message_token(), Some("3f2a9c41"));
        assert_eq!(report(Some("<3f2a9c41@canvass>")).message_token(), Some("3f2a9c41"));
        assert_eq!(report(Some("no-domain")).message_token(), Some("no-domain"));
    }

    #[test]
    fn no_message_id_means_no_token() {
        assert_eq!(report(None).message_token(), None);
        assert_eq!(report(Some("")).message_token(), None);
        assert_eq!(report(Some("@survey.example")).message_token(), None);
    }
}
