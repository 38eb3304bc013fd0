//! Bodies of the sendout endpoints: sendouts, labels and reminders.

use std::collections::BTreeMap;

use canvass_domain::distribution::{
    DeliveryIssue, DeliveryIssueKind, DispatchType, Label, LabelType, LocalizedInput, LocalizedMessages, MessageInput,
    OpenLinkInput, Reminder, ReminderInput, Sendout, SendoutInput, SendoutLogic, SendoutStatus,
};
use canvass_domain::language::Language;
use canvass_domain::timestamp::DayEdge;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;

use super::schemas::{DateOrEmptyText, DateText, MessagesByLanguage};

use super::client_date::{empty_is_none, instant, ClientDate};
use super::mirror::mirrored;

mirrored! {
    /// How a sendout reaches its respondents.
    #[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema)]
    pub enum DispatchTypeBody <=> DispatchType {
        /// Email with the survey link.
        #[serde(rename = "EMAIL")]
        Email,
        /// Text message with the survey link.
        #[serde(rename = "SMS")]
        Sms,
        /// Respondents log in; nothing is sent.
        #[serde(rename = "LOGIN")]
        Login,
        /// Questions and answers by text message.
        #[serde(rename = "TWOWAY")]
        TwoWay,
        /// One open link anyone may answer; nothing is sent.
        #[serde(rename = "LINK")]
        Link,
    }
}

mirrored! {
    /// A language of the respondent's side, by its ISO 639-1 code: `en` (the default), `sv`, `da`, `nb`, `fi`,
    /// `de`, `fr`, `es`, `nl`, `pl`, `it` or `pt`. Only these twelve lowercase codes are taken: another value (`sv-SE`,
    /// `SV`) is a 400 listing them in `supportedValues`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
    #[serde(rename_all = "lowercase")]
    pub enum LanguageBody <=> Language {
        /// English.
        En,
        /// Swedish.
        Sv,
        /// Danish.
        Da,
        /// Norwegian Bokmål.
        Nb,
        /// Finnish.
        Fi,
        /// German.
        De,
        /// French.
        Fr,
        /// Spanish.
        Es,
        /// Dutch.
        Nl,
        /// Polish.
        Pl,
        /// Italian.
        It,
        /// Portuguese.
        Pt,
    }
}

mirrored! {
    /// Where a sendout is in its life.
    #[derive(Debug, Clone, Copy, Serialize, ToSchema)]
    pub enum SendoutStatusBody <= SendoutStatus {
        /// Created, never activated.
        Draft,
        /// Activated.
        Active,
        /// Deactivated.
        Inactive,
    }
}

/// One language's invitation text: as `subject` and `message` are, by the same rules.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LocalizedMessageBody {
    /// Mandatory for EMAIL.
    #[serde(default)]
    pub subject: Option<String>,
    /// Contains `{{surveyLink}}`.
    pub message: String,
}

/// Invitation texts by language code, as a body gives them and as the domain keeps them.
pub type MessagesBody = BTreeMap<String, LocalizedMessageBody>;

/// The domain's input of a body's `messages`.
fn localized_input(messages: Option<MessagesBody>) -> Vec<(String, LocalizedInput)> {
    let entries = messages.unwrap_or_default().into_iter();
    entries.map(|(code, body)| (code, LocalizedInput { subject: body.subject, message: Some(body.message) })).collect()
}

/// The body of a stored sendout's or reminder's `messages`.
fn messages_body(messages: LocalizedMessages) -> MessagesBody {
    let entries = messages.into_iter();
    entries
        .map(|(language, texts)| {
            (language.code().to_owned(), LocalizedMessageBody { subject: texts.subject, message: texts.message })
        })
        .collect()
}

/// Creates a sendout.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateSendoutBody {
    /// Non-empty name.
    #[schema(min_length = 1, max_length = 500, pattern = "\\S")]
    pub name: String,
    /// The dispatch type.
    #[serde(rename = "type")]
    pub kind: DispatchTypeBody,
    /// Mandatory except for LOGIN (where it must be empty).
    #[serde(default, deserialize_with = "empty_is_none")]
    #[schema(value_type = Option<DateOrEmptyText>)]
    pub send_date: Option<ClientDate>,
    /// An email address (EMAIL) or SMS sender (SMS, TWOWAY); empty for LOGIN.
    #[serde(default)]
    #[schema(max_length = 320)]
    pub sender: Option<String>,
    /// Mandatory for EMAIL, optional for SMS and TWOWAY, empty for LOGIN.
    #[serde(default)]
    #[schema(max_length = 500)]
    pub subject: Option<String>,
    /// Contains `{{surveyLink}}` (and optionally `{{optOutLink}}`); empty for LOGIN.
    #[serde(default)]
    #[schema(max_length = 10000)]
    pub message: Option<String>,
    /// EMAIL, SMS and TWOWAY: the invitation in other languages; each respondent gets the text of the language it
    /// is shown. Not on LOGIN and LINK.
    #[serde(default)]
    #[schema(value_type = Option<MessagesByLanguage>)]
    pub messages: Option<MessagesBody>,
    /// After sendDate.
    #[serde(default, deserialize_with = "empty_is_none")]
    #[schema(value_type = Option<DateOrEmptyText>)]
    pub expiry_date: Option<ClientDate>,
    /// The language of its respondent pages; `en` when absent or null.
    #[serde(default)]
    pub language: Option<LanguageBody>,
    /// LINK only: at most this many completed answer sets; absent or null for no cap.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 10000000)]
    pub max_responses: Option<i64>,
    /// LINK only: whether a browser that started is sent back to its own page instead of starting again (default
    /// true).
    #[serde(default)]
    pub one_response_per_browser: Option<bool>,
}

const _: () =
    assert!(canvass_domain::distribution::MAX_RESPONSES == 10_000_000, "the schema's maximum is the domain's");

impl CreateSendoutBody {
    /// The domain's input.
    pub fn into_domain(self) -> SendoutInput {
        let send_date = instant(self.send_date, DayEdge::Start);
        SendoutInput {
            name: self.name,
            kind: self.kind.into(),
            message: MessageInput {
                send_date,
                sender: self.sender,
                subject: self.subject,
                message: self.message,
                messages: localized_input(self.messages),
            },
            expiry_date: instant(self.expiry_date, DayEdge::Start),
            language: self.language.map(Language::from),
            open_link: OpenLinkInput {
                max_responses: self.max_responses,
                one_response_per_browser: self.one_response_per_browser,
            },
        }
    }
}

/// A sendout.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SendoutResponse {
    /// The sendout's id.
    pub sendout_id: i64,
    /// The survey it distributes.
    pub survey_id: i64,
    /// Name.
    pub name: String,
    /// Dispatch type.
    #[serde(rename = "type")]
    pub kind: DispatchTypeBody,
    /// Draft, Active or Inactive.
    pub status: SendoutStatusBody,
    /// When messages go out.
    #[serde(with = "time::serde::rfc3339::option")]
    pub send_date: Option<OffsetDateTime>,
    /// Sender.
    pub sender: Option<String>,
    /// Subject.
    pub subject: Option<String>,
    /// Message.
    pub message: Option<String>,
    /// The invitation in other languages, by language code (empty when none).
    #[schema(value_type = MessagesByLanguage)]
    pub messages: MessagesBody,
    /// Expiry of the survey links.
    #[serde(with = "time::serde::rfc3339::option")]
    pub expiry_date: Option<OffsetDateTime>,
    /// When it was created.
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// When it was last activated.
    #[serde(with = "time::serde::rfc3339::option")]
    pub activated_at: Option<OffsetDateTime>,
    /// Respondents in the sendout.
    pub respondent_count: i64,
    /// Respondents waiting for the next activation.
    pub pending_count: i64,
    /// Its invitation and reminder messages by where they stand.
    pub delivery: SendoutDeliveryBody,
    /// What holds its messages back now, or null.
    pub delivery_issue: Option<DeliveryIssueBody>,
    /// The language of its respondent pages.
    pub language: LanguageBody,
    /// A LINK sendout's open link, `{PUBLIC_URL}/s/<handle>`, which anyone may visit; null for every other type.
    #[schema(required = true, format = "uri")]
    pub open_link: Option<String>,
    /// A LINK sendout's cap on completed answer sets; null when it has none, and for every other type.
    #[schema(required = true, minimum = 1, maximum = 10000000)]
    pub max_responses: Option<i64>,
    /// Whether a LINK sendout sends a browser that started back to its own page; null for every other type.
    #[schema(required = true)]
    pub one_response_per_browser: Option<bool>,
}

/// A sendout's invitation and reminder messages by where they stand.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
pub struct SendoutDeliveryBody {
    /// Waiting to be sent (held ones included).
    #[schema(minimum = 0)]
    pub queued: i64,
    /// Handed to the relay or provider.
    #[schema(minimum = 0)]
    pub sent: i64,
    /// Refused for good, blaming the recipient.
    #[schema(minimum = 0)]
    pub bounced: i64,
    /// Given up: refused as a message, or unsent when their lifetime (`DELIVERY_MAX_AGE`) ended.
    #[schema(minimum = 0)]
    pub failed: i64,
    /// Not sent: the sendout's expiry date passed first.
    #[schema(minimum = 0)]
    pub expired: i64,
    /// Queued and waiting on relay or sender trouble.
    #[schema(minimum = 0)]
    pub held: i64,
}

mirrored! {
    /// Whose trouble holds a sendout's messages back.
    #[derive(Debug, Clone, Copy, Serialize, ToSchema)]
    #[serde(rename_all = "camelCase")]
    pub enum DeliveryIssueKindBody <= DeliveryIssueKind {
        /// The relay or SMS endpoint: a connection, certificate, greeting, EHLO, STARTTLS or AUTH failure, or refused
        /// credentials.
        Relay,
        /// The envelope sender, refused at MAIL FROM.
        Sender,
        /// The relay asks to slow down (421, 454, SMS 429).
        Throttled,
        /// DELIVERY_DAILY_LIMIT is reached for the UTC day.
        DailyLimit,
    }
}

/// What holds a sendout's messages back.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeliveryIssueBody {
    /// Whose trouble.
    pub kind: DeliveryIssueKindBody,
    /// The relay's last reply line (never a password), or what the limit is; null for a `viewer` (a relay's reply
    /// may name an address).
    pub reply: Option<String>,
    /// Since when.
    #[serde(with = "time::serde::rfc3339")]
    pub since: OffsetDateTime,
}

impl From<DeliveryIssue> for DeliveryIssueBody {
    fn from(issue: DeliveryIssue) -> Self {
        Self { kind: issue.kind.into(), reply: Some(issue.reply), since: issue.since }
    }
}

impl SendoutResponse {
    /// The body of `s`, its open link under `public_url`.
    pub fn new(s: Sendout, public_url: &str) -> Self {
        let open_link = s.open_link.as_ref();
        Self {
            open_link: open_link.map(|link| format!("{public_url}/s/{}", link.handle)),
            max_responses: open_link.and_then(|link| link.max_responses),
            one_response_per_browser: open_link.map(|link| link.one_response_per_browser),
            sendout_id: s.id.get(),
            survey_id: s.survey_id.get(),
            name: s.name,
            kind: s.kind.into(),
            status: s.status.into(),
            send_date: s.send_date,
            sender: s.sender,
            subject: s.subject,
            message: s.message,
            messages: messages_body(s.messages),
            expiry_date: s.expiry_date,
            created_at: s.created_at,
            activated_at: s.activated_at,
            respondent_count: s.respondent_count,
            pending_count: s.pending_count,
            delivery: SendoutDeliveryBody {
                queued: s.delivery.queued,
                sent: s.delivery.sent,
                bounced: s.delivery.bounced,
                failed: s.delivery.failed,
                expired: s.delivery.expired,
                held: s.delivery.held,
            },
            delivery_issue: s.delivery_issue.map(DeliveryIssueBody::from),
            language: s.language.into(),
        }
    }
}

mirrored! {
    /// What a label's values are.
    #[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema)]
    pub enum LabelTypeBody <=> LabelType {
        /// Free text.
        Text,
        /// A number.
        Number,
        /// A date.
        Date,
        /// An email address.
        Email,
        /// A phone number.
        Phone,
    }
}

/// Creates a background data label.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateLabelBody {
    /// Non-empty name, unique within the sendout.
    #[schema(min_length = 1, max_length = 200, pattern = "\\S")]
    pub name: String,
    /// What its values are.
    pub label_type: LabelTypeBody,
}

/// A background data label.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LabelResponse {
    /// The label's id (BGDataLabelId).
    pub label_id: i64,
    /// Its name.
    pub name: String,
    /// What its values are.
    pub label_type: LabelTypeBody,
    /// Its function; 0 is background data.
    pub function: i16,
}

impl From<Label> for LabelResponse {
    fn from(l: Label) -> Self {
        Self { label_id: l.id.get(), name: l.name, label_type: l.label_type.into(), function: l.function }
    }
}

mirrored! {
    /// Who receives a reminder.
    #[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema)]
    pub enum SendoutLogicBody <=> SendoutLogic {
        /// No answer set yet.
        NotResponded,
        /// No completed answer set.
        NotCompleted,
        /// Everyone released.
        All,
    }
}

/// Creates a reminder.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateReminderBody {
    /// Who receives it.
    pub sendout_logic: SendoutLogicBody,
    /// When it goes out.
    #[serde(default)]
    #[schema(value_type = Option<DateText>)]
    pub send_date: Option<ClientDate>,
    /// Email address (EMAIL) or SMS sender (SMS, TWOWAY).
    #[serde(default)]
    #[schema(max_length = 320)]
    pub sender: Option<String>,
    /// Mandatory for EMAIL.
    #[serde(default)]
    #[schema(max_length = 500)]
    pub subject: Option<String>,
    /// Contains `{{surveyLink}}`.
    #[serde(default)]
    #[schema(max_length = 10000)]
    pub message: Option<String>,
    /// The reminder in other languages; each respondent gets the text of the language it is shown.
    #[serde(default)]
    #[schema(value_type = Option<MessagesByLanguage>)]
    pub messages: Option<MessagesBody>,
}

impl CreateReminderBody {
    /// The domain's input.
    pub fn into_domain(self) -> ReminderInput {
        let send_date = instant(self.send_date, DayEdge::Start);
        ReminderInput {
            sendout_logic: self.sendout_logic.into(),
            message: MessageInput {
                send_date,
                sender: self.sender,
                subject: self.subject,
                message: self.message,
                messages: localized_input(self.messages),
            },
        }
    }
}

/// A reminder.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReminderResponse {
    /// The reminder's id.
    pub reminder_id: i64,
    /// Its sendout.
    pub sendout_id: i64,
    /// Who receives it.
    pub sendout_logic: SendoutLogicBody,
    /// When it goes out.
    #[serde(with = "time::serde::rfc3339")]
    pub send_date: OffsetDateTime,
    /// Sender.
    pub sender: String,
    /// Subject.
    pub subject: Option<String>,
    /// Message.
    pub message: String,
    /// The reminder in other languages, by language code (empty when none).
    #[schema(value_type = MessagesByLanguage)]
    pub messages: MessagesBody,
    /// `Scheduled` until sent.
    pub status: String,
    /// When it was created.
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
}

impl From<Reminder> for ReminderResponse {
    fn from(r: Reminder) -> Self {
        Self {
            reminder_id: r.id.get(),
            sendout_id: r.sendout_id.get(),
            sendout_logic: r.sendout_logic.into(),
            send_date: r.send_date,
            sender: r.sender,
            subject: r.subject,
            message: r.message,
            messages: messages_body(r.messages),
            status: r.status.as_str().to_owned(),
            created_at: r.created_at,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_language_names_on_the_wire_are_the_domains_codes() {
        for &language in <Language as strum::VariantArray>::VARIANTS {
            let body = LanguageBody::from(language);
            assert_eq!(serde_json::to_value(body).unwrap(), language.code());
            let read: LanguageBody = serde_json::from_value(language.code().into()).unwrap();
            assert_eq!(Language::from(read), language);
        }
        for other in ["sv-SE", "SV", "xx", ""] {
            assert!(serde_json::from_value::<LanguageBody>(other.into()).is_err(), "{other:?}");
        }
    }
}
