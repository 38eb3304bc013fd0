//! Reminders: who receives them (SendoutLogic) and the rules of their message.

use time::OffsetDateTime;

use crate::error::FieldError;
use crate::ids::{ReminderId, SendoutId};

use super::sendout::{check_message, DispatchType, MessageInput};

/// Who receives a reminder. Its name (`NotResponded`, ...) is what the store keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::EnumString, strum::IntoStaticStr, strum::VariantArray)]
pub enum SendoutLogic {
    /// Released respondents with no answer set yet.
    NotResponded,
    /// Released respondents with no completed answer set.
    NotCompleted,
    /// Everyone released in the sendout.
    All,
}

impl SendoutLogic {
    /// The value's name.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// Where a reminder is: `Scheduled` until its send date has come and its messages are in the outbox, then `Sent`.
/// Its name is what clients see and the store keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::EnumString, strum::IntoStaticStr, strum::VariantArray)]
pub enum ReminderStatus {
    /// Waiting for its send date.
    Scheduled,
    /// Its messages are in the outbox.
    Sent,
}

impl ReminderStatus {
    /// The status's name.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// A stored reminder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reminder {
    /// The reminder's id.
    pub id: ReminderId,
    /// Its sendout.
    pub sendout_id: SendoutId,
    /// Who receives it.
    pub sendout_logic: SendoutLogic,
    /// When it goes out.
    pub send_date: OffsetDateTime,
    /// Email address or SMS sender.
    pub sender: String,
    /// Email subject.
    pub subject: Option<String>,
    /// Message with the survey link placeholder.
    pub message: String,
    /// Its texts by language.
    pub messages: super::LocalizedMessages,
    /// `Scheduled` until it is sent, then `Sent`.
    pub status: ReminderStatus,
    /// When it was created.
    pub created_at: OffsetDateTime,
}

/// A new reminder as a client gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReminderInput {
    /// Who receives it.
    pub sendout_logic: SendoutLogic,
    /// Send date, sender, subject and message.
    pub message: MessageInput,
}

/// A checked new reminder. Made only by [`ReminderDraft::new`], read through its accessors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReminderDraft {
    sendout_logic: SendoutLogic,
    send_date: OffsetDateTime,
    sender: String,
    subject: Option<String>,
    message: String,
    messages: super::LocalizedMessages,
}

impl ReminderDraft {
    /// Checks a reminder for a sendout of type `kind` by the same message rules as the sendout's; a LOGIN
    /// sendout sends nothing, so it takes no reminders (`Err` with no field errors).
    pub fn new(input: ReminderInput, kind: DispatchType) -> Result<Self, Vec<FieldError>> {
        if !kind.sends_messages() {
            return Err(vec![FieldError::new(
                "sendoutLogic",
                "LOGIN sendouts send no messages, so they take no reminders",
            )]);
        }
        let mut errors = check_message(kind, &input.message);
        let message = input.message;
        let messages = super::check_localized(kind, message.messages).map_err(|e| errors.extend(e));
        match (message.send_date, message.sender, message.message, messages) {
            (Some(send_date), Some(sender), Some(text), Ok(messages)) if errors.is_empty() => Ok(Self {
                sendout_logic: input.sendout_logic,
                send_date,
                sender: sender.trim().to_owned(),
                subject: message.subject.map(|s| s.trim().to_owned()).filter(|s| !s.is_empty()),
                message: text,
                messages,
            }),
            _ => Err(errors),
        }
    }

    /// Who receives it.
    pub fn sendout_logic(&self) -> SendoutLogic {
        self.sendout_logic
    }

    /// When it goes out.
    pub fn send_date(&self) -> OffsetDateTime {
        self.send_date
    }

    /// Sender of the sendout's kind, trimmed.
    pub fn sender(&self) -> &str {
        &self.sender
    }

    /// Subject, trimmed (mandatory for EMAIL).
    pub fn subject(&self) -> Option<&str> {
        self.subject.as_deref()
    }

    /// Message with the survey link.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Its texts by language.
    pub fn messages(&self) -> &super::LocalizedMessages {
        &self.messages
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    fn input(sender: &str, message: &str) -> ReminderInput {
        ReminderInput {
            sendout_logic: SendoutLogic::NotCompleted,
            message: MessageInput {
                send_date: Some(datetime!(2026-12-01 08:00 UTC)),
                sender: Some(sender.into()),
                subject: None,
                message: Some(message.into()),
                messages: Vec::new(),
            },
        }
    }

    #[test]
    fn reminders_follow_the_sendout_message_rules() {
        assert!(ReminderDraft::new(input("Acme", "{{surveyLink}}"), DispatchType::Sms).is_ok());
        let fields =
            |r: Result<ReminderDraft, Vec<FieldError>>| r.unwrap_err().into_iter().map(|e| e.field).collect::<Vec<_>>();
        assert_eq!(
            fields(ReminderDraft::new(input("Acme", "{{surveyLink}}"), DispatchType::Email)),
            ["sender", "subject"]
        );
        assert_eq!(fields(ReminderDraft::new(input("Acme", "no link"), DispatchType::Sms)), ["message"]);
        assert_eq!(fields(ReminderDraft::new(input("Acme", "{{surveyLink}}"), DispatchType::Login)), ["sendoutLogic"]);
    }

    #[test]
    fn logic_names_round_trip() {
        use strum::VariantArray;
        for &logic in SendoutLogic::VARIANTS {
            assert_eq!(logic.as_str().parse(), Ok(logic));
        }
        for &status in ReminderStatus::VARIANTS {
            assert_eq!(status.as_str().parse(), Ok(status));
        }
    }
}
