//! Reminders: who receives them (SendoutLogic) and the rules of their message.

use time::OffsetDateTime;

use crate::error::FieldError;
use crate::ids::{ReminderId, SendoutId};

use super::sendout::{check_message, DispatchType, MessageInput};

/// Who receives a reminder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SendoutLogic {
    /// Released respondents with no answer set yet.
    NotResponded,
    /// Released respondents with no completed answer set.
    NotCompleted,
    /// Everyone released in the sendout.
    All,
}

impl SendoutLogic {
    /// Every value.
    pub const ALL: [Self; 3] = [Self::NotResponded, Self::NotCompleted, Self::All];

    /// The name clients send and see.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::NotResponded => "NotResponded",
            Self::NotCompleted => "NotCompleted",
            Self::All => "All",
        }
    }

    /// The value with this name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|l| l.as_str() == name)
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
    /// `Scheduled` until it is sent, then `Sent`.
    pub status: String,
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

/// A checked new reminder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReminderDraft {
    /// Who receives it.
    pub sendout_logic: SendoutLogic,
    /// When it goes out.
    pub send_date: OffsetDateTime,
    /// Sender of the sendout's kind.
    pub sender: String,
    /// Subject (mandatory for EMAIL).
    pub subject: Option<String>,
    /// Message with the survey link.
    pub message: String,
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
        let errors = check_message(kind, &input.message);
        let message = input.message;
        match (message.send_date, message.sender, message.message) {
            (Some(send_date), Some(sender), Some(text)) if errors.is_empty() => Ok(Self {
                sendout_logic: input.sendout_logic,
                send_date,
                sender: sender.trim().to_owned(),
                subject: message.subject.map(|s| s.trim().to_owned()).filter(|s| !s.is_empty()),
                message: text,
            }),
            _ => Err(errors),
        }
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
        for logic in SendoutLogic::ALL {
            assert_eq!(SendoutLogic::parse(logic.as_str()), Some(logic));
        }
    }
}
