//! Sendouts: the dispatch types, the body rules of each, and the state machine Draft -> Active <-> Inactive.

use time::OffsetDateTime;
use validator::ValidateEmail;

use crate::error::FieldError;
use crate::ids::{SendoutId, SurveyId};
use crate::language::Language;

use super::contact::check_sms_sender;

/// The placeholder every message must contain; it becomes the respondent's survey link.
pub const SURVEY_LINK_PLACEHOLDER: &str = "{{surveyLink}}";

/// How a sendout reaches its respondents. Its name (`EMAIL`, ...) is what the store keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::EnumString, strum::IntoStaticStr, strum::VariantArray)]
#[strum(serialize_all = "UPPERCASE")]
pub enum DispatchType {
    /// An email with the survey link.
    Email,
    /// A text message with the survey link.
    Sms,
    /// Respondents log in with their identifier; nothing is sent.
    Login,
    /// A text conversation: questions and answers by SMS.
    TwoWay,
    /// One open link anyone may answer (a poster, a newsletter, a QR code); nothing is sent.
    Link,
}

impl DispatchType {
    /// The type's name.
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// Whether the service sends messages for this type (all but LOGIN and LINK).
    pub const fn sends_messages(self) -> bool {
        !matches!(self, Self::Login | Self::Link)
    }

    /// Whether the type has a public address that is no one respondent's: LOGIN's login page, LINK's open link.
    pub const fn has_public_link(self) -> bool {
        matches!(self, Self::Login | Self::Link)
    }
}

/// Where a sendout is in its life. Its name (`Draft`, ...) is what the store keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::EnumString, strum::IntoStaticStr, strum::VariantArray)]
pub enum SendoutStatus {
    /// Created, never activated.
    Draft,
    /// Activated: released respondents are sent to.
    Active,
    /// Deactivated after being active.
    Inactive,
}

/// A permitted change of status, made only by [`SendoutStatus::activate`] and [`SendoutStatus::deactivate`], so
/// an adapter can only store transitions the state machine allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Transition {
    from: SendoutStatus,
    to: SendoutStatus,
}

impl Transition {
    /// The status before.
    pub fn from(self) -> SendoutStatus {
        self.from
    }

    /// The status after.
    pub fn to(self) -> SendoutStatus {
        self.to
    }

    /// Whether this transition releases the pending respondents (every activation does).
    pub fn releases_pending(self) -> bool {
        self.to == SendoutStatus::Active
    }
}

impl SendoutStatus {
    /// The status's name.
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// Activation is allowed from every status: Draft and Inactive become Active, and an Active sendout stays
    /// Active; each releases the respondents added since the last activation.
    ///
    /// ```
    /// use canvass_domain::distribution::SendoutStatus;
    ///
    /// assert_eq!(SendoutStatus::Draft.activate().to(), SendoutStatus::Active);
    /// assert!(SendoutStatus::Active.activate().releases_pending());
    /// ```
    pub fn activate(self) -> Transition {
        Transition { from: self, to: Self::Active }
    }

    /// Deactivation: Active becomes Inactive, Inactive stays Inactive; a Draft sendout was never activated, so
    /// it cannot be deactivated (`Err`).
    ///
    /// ```
    /// use canvass_domain::distribution::SendoutStatus;
    ///
    /// assert_eq!(SendoutStatus::Active.deactivate().unwrap().to(), SendoutStatus::Inactive);
    /// assert!(SendoutStatus::Draft.deactivate().is_err());
    /// ```
    pub fn deactivate(self) -> Result<Transition, &'static str> {
        match self {
            Self::Draft => Err("a sendout that was never activated cannot be deactivated"),
            Self::Active | Self::Inactive => Ok(Transition { from: self, to: Self::Inactive }),
        }
    }
}

/// A stored sendout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sendout {
    /// The sendout's id.
    pub id: SendoutId,
    /// The survey it distributes.
    pub survey_id: SurveyId,
    /// Its name.
    pub name: String,
    /// How it reaches respondents.
    pub kind: DispatchType,
    /// Where it is in its life.
    pub status: SendoutStatus,
    /// When messages go out (none for LOGIN).
    pub send_date: Option<OffsetDateTime>,
    /// Email address or SMS sender (none for LOGIN).
    pub sender: Option<String>,
    /// Email subject.
    pub subject: Option<String>,
    /// Message with the survey link placeholder.
    pub message: Option<String>,
    /// The invitation's texts by language (empty for LOGIN and LINK).
    pub messages: super::LocalizedMessages,
    /// After this, the survey link no longer works.
    pub expiry_date: Option<OffsetDateTime>,
    /// When it was created.
    pub created_at: OffsetDateTime,
    /// When it was last activated.
    pub activated_at: Option<OffsetDateTime>,
    /// Respondents in the sendout.
    pub respondent_count: i64,
    /// Respondents waiting for the next activation.
    pub pending_count: i64,
    /// Where its messages stand (read with the sendout alone, not where sendouts are only checked).
    pub delivery: SendoutDelivery,
    /// What holds its messages back now, if anything.
    pub delivery_issue: Option<DeliveryIssue>,
    /// The language its respondent pages speak.
    pub language: Language,
    /// What only a LINK sendout has: its open link's handle and its rules; `None` for every other type.
    pub open_link: Option<OpenLink>,
}

/// A LINK sendout's open link: the handle anyone may visit (`/s/<handle>`) and the rules of its visits.
#[derive(Clone, PartialEq, Eq)]
pub struct OpenLink {
    /// The unguessable handle of the link, of the survey link token's form (`<account>-<40 hex digits>`), so its
    /// look-up goes to one account's data.
    pub handle: String,
    /// At most this many completed answer sets; `None` for no cap.
    pub max_responses: Option<i64>,
    /// Whether a browser that started is sent back to its own page instead of starting again.
    pub one_response_per_browser: bool,
}

impl std::fmt::Debug for OpenLink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenLink")
            .field("handle", &"<secret>")
            .field("max_responses", &self.max_responses)
            .field("one_response_per_browser", &self.one_response_per_browser)
            .finish()
    }
}

/// The most completed answer sets a LINK sendout's `maxResponses` may name.
pub const MAX_RESPONSES: i64 = 10_000_000;

/// The rules of a LINK sendout's visits, as a client gives them; both absent for the other types.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OpenLinkInput {
    /// 1 to [`MAX_RESPONSES`], or none.
    pub max_responses: Option<i64>,
    /// Default true.
    pub one_response_per_browser: Option<bool>,
}

/// The checked rules of a LINK sendout's visits, and the secret part of its first handle.
#[derive(Clone, PartialEq, Eq)]
pub struct OpenLinkRules {
    /// At most this many completed answer sets; `None` for no cap.
    pub max_responses: Option<i64>,
    /// Whether a browser that started is sent back to its own page.
    pub one_response_per_browser: bool,
    random: String,
}

impl OpenLinkRules {
    /// The open link's handle in `account`: the survey link token's form, `<account>-<40 hex digits>`, drawn when
    /// the rules were checked (so every store gives the same sendout the same handle).
    pub fn handle(&self, account: crate::ids::AccountId) -> String {
        super::link_token::account_token(account, &self.random)
    }

    /// The open link these rules make in `account`.
    pub fn open_link(&self, account: crate::ids::AccountId) -> OpenLink {
        OpenLink {
            handle: self.handle(account),
            max_responses: self.max_responses,
            one_response_per_browser: self.one_response_per_browser,
        }
    }
}

impl std::fmt::Debug for OpenLinkRules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenLinkRules")
            .field("max_responses", &self.max_responses)
            .field("one_response_per_browser", &self.one_response_per_browser)
            .finish_non_exhaustive()
    }
}

/// Checks the open link's rules for a type: a LINK sendout's `maxResponses` is 1 to [`MAX_RESPONSES`] and its
/// `oneResponsePerBrowser` defaults to true; another type takes neither.
///
/// ```
/// use canvass_domain::distribution::{check_open_link, DispatchType, OpenLinkInput};
///
/// let rules = check_open_link(DispatchType::Link, OpenLinkInput::default()).unwrap().unwrap();
/// assert!(rules.one_response_per_browser && rules.max_responses.is_none());
/// let capped = OpenLinkInput { max_responses: Some(0), ..Default::default() };
/// assert_eq!(check_open_link(DispatchType::Link, capped).unwrap_err()[0].field, "maxResponses");
/// assert_eq!(check_open_link(DispatchType::Email, OpenLinkInput::default()), Ok(None));
/// ```
pub fn check_open_link(kind: DispatchType, input: OpenLinkInput) -> Result<Option<OpenLinkRules>, Vec<FieldError>> {
    let mut errors = Vec::new();
    if kind != DispatchType::Link {
        if input.max_responses.is_some() {
            errors.push(FieldError::new("maxResponses", "is taken by LINK sendouts only"));
        }
        if input.one_response_per_browser.is_some() {
            errors.push(FieldError::new("oneResponsePerBrowser", "is taken by LINK sendouts only"));
        }
        return if errors.is_empty() { Ok(None) } else { Err(errors) };
    }
    if let Some(cap) = input.max_responses.filter(|cap| !(1..=MAX_RESPONSES).contains(cap)) {
        errors.push(FieldError::new("maxResponses", format!("must be 1 to {MAX_RESPONSES}, not {cap}")));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(Some(OpenLinkRules {
        max_responses: input.max_responses,
        one_response_per_browser: input.one_response_per_browser.unwrap_or(true),
        random: super::link_token::random_part(),
    }))
}

/// Counts of a sendout's invitation and reminder messages by where they stand.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SendoutDelivery {
    /// Waiting to be sent (held ones included).
    pub queued: i64,
    /// Handed to the relay or provider.
    pub sent: i64,
    /// Refused for good, blaming the recipient.
    pub bounced: i64,
    /// Given up (refused as a message, or its lifetime used up).
    pub failed: i64,
    /// Not sent: the sendout expired first.
    pub expired: i64,
    /// Queued and waiting on relay or sender trouble.
    pub held: i64,
}

/// Why a sendout's messages wait (the contract's `deliveryIssue.kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::EnumString, strum::IntoStaticStr, strum::VariantArray)]
pub enum DeliveryIssueKind {
    /// The relay or SMS endpoint: connection, certificate, greeting, `EHLO`, `STARTTLS`, `AUTH`, credentials.
    #[strum(serialize = "relay")]
    Relay,
    /// The envelope sender, refused at `MAIL FROM`.
    #[strum(serialize = "sender")]
    Sender,
    /// The relay asks to slow down (`421`, `454`, SMS 429).
    #[strum(serialize = "throttled")]
    Throttled,
    /// `DELIVERY_DAILY_LIMIT` is reached for the UTC day.
    #[strum(serialize = "dailyLimit")]
    DailyLimit,
}

impl DeliveryIssueKind {
    /// The name the API shows.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

impl From<crate::delivery::HoldKind> for DeliveryIssueKind {
    fn from(kind: crate::delivery::HoldKind) -> Self {
        match kind {
            crate::delivery::HoldKind::Relay => Self::Relay,
            crate::delivery::HoldKind::Sender => Self::Sender,
            crate::delivery::HoldKind::Throttled => Self::Throttled,
        }
    }
}

/// What holds a sendout's messages back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeliveryIssue {
    /// Whose trouble.
    pub kind: DeliveryIssueKind,
    /// The relay's last reply line (never a password), or what the limit is.
    pub reply: String,
    /// Since when.
    pub since: OffsetDateTime,
}

/// The message fields shared by sendouts and reminders, as a client gives them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MessageInput {
    /// When to send.
    pub send_date: Option<OffsetDateTime>,
    /// Email address or SMS sender.
    pub sender: Option<String>,
    /// Email subject.
    pub subject: Option<String>,
    /// Message text.
    pub message: Option<String>,
    /// The invitation's texts in other languages, by language code as given.
    pub messages: Vec<(String, super::LocalizedInput)>,
}

/// A new sendout as a client gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SendoutInput {
    /// Mandatory name.
    pub name: String,
    /// Mandatory type.
    pub kind: DispatchType,
    /// Send date, sender, subject and message.
    pub message: MessageInput,
    /// Optional expiry, after the send date.
    pub expiry_date: Option<OffsetDateTime>,
    /// The language of its respondent pages; when none is given, its survey's (the use case fills it in), else
    /// [`Language::En`].
    pub language: Option<Language>,
    /// The rules of a LINK sendout's visits (none for the other types).
    pub open_link: OpenLinkInput,
}

/// A checked new sendout. Made only by [`SendoutDraft::new`], read through its accessors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SendoutDraft {
    name: String,
    kind: DispatchType,
    send_date: Option<OffsetDateTime>,
    sender: Option<String>,
    subject: Option<String>,
    message: Option<String>,
    messages: super::LocalizedMessages,
    expiry_date: Option<OffsetDateTime>,
    language: Language,
    open_link: Option<OpenLinkRules>,
}

fn present(value: &Option<String>) -> Option<&str> {
    value.as_deref().filter(|v| !v.trim().is_empty())
}

/// Checks the message fields for a type: LOGIN and LINK take none of them; the others need a send date, a sender of
/// their kind and a message with the survey link placeholder, and EMAIL a subject. Field names are prefixed
/// with nothing, as in the bodies (`sendDate`, `sender`, `subject`, `message`).
pub(crate) fn check_message(kind: DispatchType, message: &MessageInput) -> Vec<FieldError> {
    let mut errors = Vec::new();
    if !kind.sends_messages() {
        let given = [
            ("sendDate", message.send_date.is_some()),
            ("sender", present(&message.sender).is_some()),
            ("subject", present(&message.subject).is_some()),
            ("message", present(&message.message).is_some()),
        ];
        for (field, _) in given.iter().filter(|(_, given)| *given) {
            errors.push(FieldError::new(*field, format!("must be empty for {} sendouts", kind.as_str())));
        }
        return errors;
    }
    if message.send_date.is_none() {
        errors.push(FieldError::new("sendDate", "is mandatory"));
    }
    use crate::limits::{push_length, SENDER};
    push_length(&mut errors, "sender", message.sender.as_deref().unwrap_or_default(), SENDER);
    match (kind, present(&message.sender)) {
        (_, None) => errors.push(FieldError::new("sender", "is mandatory")),
        (DispatchType::Email, Some(sender)) if !sender.trim().validate_email() => {
            errors.push(FieldError::new("sender", "must be an email address"))
        }
        (DispatchType::Sms | DispatchType::TwoWay, Some(sender)) => {
            if let Err(message) = check_sms_sender(sender.trim()) {
                errors.push(FieldError::new("sender", message));
            }
        }
        _ => {}
    }
    errors.extend(check_texts(
        kind,
        &|name: &str| name.to_owned(),
        message.subject.as_deref(),
        message.message.as_deref(),
    ));
    errors
}

/// Checks a subject and message for a type that sends messages: their lengths, the subject EMAIL needs and the
/// survey link the message needs; `field` names each field (`subject`, `messages.sv.subject`, ...).
pub(crate) fn check_texts(
    kind: DispatchType,
    field: &dyn Fn(&str) -> String,
    subject: Option<&str>,
    message: Option<&str>,
) -> Vec<FieldError> {
    use crate::limits::{push_length, MESSAGE, SUBJECT};
    let mut errors = Vec::new();
    push_length(&mut errors, field("subject"), subject.unwrap_or_default(), SUBJECT);
    push_length(&mut errors, field("message"), message.unwrap_or_default(), MESSAGE);
    fn present(value: Option<&str>) -> Option<&str> {
        value.filter(|v| !v.trim().is_empty())
    }
    if kind == DispatchType::Email && present(subject).is_none() {
        errors.push(FieldError::new(field("subject"), "is mandatory for EMAIL"));
    }
    match present(message) {
        None => errors.push(FieldError::new(field("message"), "is mandatory")),
        Some(text) if !text.contains(SURVEY_LINK_PLACEHOLDER) => errors.push(FieldError::new(
            field("message"),
            format!("must contain the survey link placeholder {SURVEY_LINK_PLACEHOLDER}"),
        )),
        Some(_) => {}
    }
    for (name, text) in [("subject", subject), ("message", message)] {
        let unknown = crate::delivery::unknown_placeholders(text.unwrap_or_default());
        if !unknown.is_empty() {
            let message = format!(
                "holds placeholders that are none of {{{{firstName}}}}, {{{{lastName}}}}, {{{{contact.<attribute>}}}}, \
                 {{{{bg.<label name>}}}} and the two links: {}",
                unknown.join(", ")
            );
            errors.push(FieldError::new(field(name), message));
        }
    }
    errors
}

impl SendoutDraft {
    /// Checks every body rule of the type; each broken rule names its field.
    ///
    /// ```
    /// use canvass_domain::distribution::{DispatchType, MessageInput, SendoutDraft, SendoutInput};
    ///
    /// use canvass_domain::language::Language;
    ///
    /// let login = SendoutInput { name: "Staff".into(), kind: DispatchType::Login,
    ///     message: MessageInput::default(), expiry_date: None, language: Some(Language::Sv),
    ///     open_link: Default::default() };
    /// assert_eq!(SendoutDraft::new(login).unwrap().language(), Language::Sv);
    /// let email = SendoutInput { name: "Staff".into(), kind: DispatchType::Email,
    ///     message: MessageInput { message: Some("Hello".into()), ..Default::default() }, expiry_date: None,
    ///     language: None, open_link: Default::default() };
    /// let fields: Vec<_> = SendoutDraft::new(email).unwrap_err().into_iter().map(|e| e.field).collect();
    /// assert_eq!(fields, ["sendDate", "sender", "subject", "message"]);
    /// ```
    pub fn new(input: SendoutInput) -> Result<Self, Vec<FieldError>> {
        let mut errors = Vec::new();
        if let Err(error) = crate::limits::check_name("name", &input.name, crate::limits::NAME) {
            errors.push(error);
        }
        errors.extend(check_message(input.kind, &input.message));
        let messages = super::check_localized(input.kind, input.message.messages).map_err(|e| errors.extend(e));
        let open_link = check_open_link(input.kind, input.open_link).map_err(|e| errors.extend(e)).ok().flatten();
        if let (Some(send), Some(expiry)) = (input.message.send_date, input.expiry_date) {
            if expiry <= send {
                errors.push(FieldError::new("expiryDate", "must be after sendDate"));
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let keep = |value: Option<String>| value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
        Ok(Self {
            name: input.name.trim().to_owned(),
            kind: input.kind,
            send_date: input.message.send_date,
            sender: keep(input.message.sender),
            subject: keep(input.message.subject),
            message: input.message.message.filter(|m| !m.trim().is_empty()),
            messages: messages.unwrap_or_default(),
            expiry_date: input.expiry_date,
            language: input.language.unwrap_or_default(),
            open_link,
        })
    }

    /// Name, trimmed.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Type.
    pub fn kind(&self) -> DispatchType {
        self.kind
    }

    /// Send date (none for LOGIN).
    pub fn send_date(&self) -> Option<OffsetDateTime> {
        self.send_date
    }

    /// Sender, trimmed (none for LOGIN).
    pub fn sender(&self) -> Option<&str> {
        self.sender.as_deref()
    }

    /// Subject, trimmed (none for LOGIN, optional for SMS and TWOWAY).
    pub fn subject(&self) -> Option<&str> {
        self.subject.as_deref()
    }

    /// Message with the survey link placeholder (none for LOGIN).
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// The invitation's texts by language.
    pub fn messages(&self) -> &super::LocalizedMessages {
        &self.messages
    }

    /// Expiry, after the send date.
    pub fn expiry_date(&self) -> Option<OffsetDateTime> {
        self.expiry_date
    }

    /// The language of its respondent pages (English when none was given).
    pub fn language(&self) -> Language {
        self.language
    }

    /// A LINK sendout's visit rules (none for the other types).
    pub fn open_link(&self) -> Option<&OpenLinkRules> {
        self.open_link.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    const SEND: OffsetDateTime = datetime!(2026-12-01 08:00 UTC);

    fn input(kind: DispatchType, sender: &str, subject: Option<&str>, message: &str) -> SendoutInput {
        SendoutInput {
            name: "n".into(),
            kind,
            message: MessageInput {
                send_date: Some(SEND),
                sender: Some(sender.into()),
                subject: subject.map(Into::into),
                message: Some(message.into()),
                messages: Vec::new(),
            },
            expiry_date: None,
            language: None,
            open_link: OpenLinkInput::default(),
        }
    }

    fn fields(input: SendoutInput) -> Vec<String> {
        SendoutDraft::new(input).err().unwrap_or_default().into_iter().map(|e| e.field).collect()
    }

    #[test]
    fn a_name_is_measured_as_sent_before_trimming() {
        let padded = SendoutInput { name: format!("{} n", " ".repeat(crate::limits::NAME)), ..input_email() };
        assert_eq!(fields(padded), ["name"]);
    }

    fn input_email() -> SendoutInput {
        input(DispatchType::Email, "hr@acme.example", Some("Hi"), "Go: {{surveyLink}}")
    }

    #[test]
    fn the_language_defaults_to_english_and_a_given_one_is_kept() {
        assert_eq!(SendoutDraft::new(input_email()).unwrap().language(), Language::En);
        for &language in <Language as strum::VariantArray>::VARIANTS {
            let given = SendoutInput { language: Some(language), ..input_email() };
            assert_eq!(SendoutDraft::new(given).unwrap().language(), language);
        }
    }

    #[test]
    fn every_transition_of_the_state_machine() {
        use SendoutStatus::*;
        for &from in <SendoutStatus as strum::VariantArray>::VARIANTS {
            let activation = from.activate();
            assert_eq!((activation.from(), activation.to()), (from, Active));
            assert!(activation.releases_pending());
        }
        assert_eq!(Active.deactivate().map(Transition::to), Ok(Inactive));
        assert_eq!(Inactive.deactivate().map(Transition::to), Ok(Inactive));
        assert!(Draft.deactivate().is_err());
        assert!(!Active.deactivate().unwrap().releases_pending());
    }

    #[test]
    fn valid_bodies_of_each_type() {
        assert!(fields(input(DispatchType::Email, "hr@acme.example", Some("Hi"), "Go: {{surveyLink}}")).is_empty());
        assert!(fields(input(DispatchType::Sms, "Acme", None, "{{surveyLink}} {{optOutLink}}")).is_empty());
        assert!(fields(input(DispatchType::TwoWay, "+4791234567", None, "{{surveyLink}}")).is_empty());
    }

    #[test]
    fn senders_must_fit_the_type() {
        assert_eq!(fields(input(DispatchType::Email, "Acme", Some("s"), "{{surveyLink}}")), ["sender"]);
        assert_eq!(fields(input(DispatchType::Sms, "hr@acme.example", None, "{{surveyLink}}")), ["sender"]);
        assert_eq!(fields(input(DispatchType::TwoWay, "AcmeCorporation", None, "{{surveyLink}}")), ["sender"]);
    }

    #[test]
    fn messages_need_the_link_and_email_a_subject() {
        assert_eq!(fields(input(DispatchType::Email, "a@b.example", None, "{{surveyLink}}")), ["subject"]);
        let spaced = input(DispatchType::Sms, "Acme", None, "{{ surveyLink }}");
        assert_eq!(fields(spaced), ["message", "message"], "no link, and a placeholder that is none");
    }

    #[test]
    fn unknown_placeholders_are_listed_in_the_field_they_are_in() {
        let text = "Hi {{firstName|there}} {{fristName}} {{bg.Office}} {{contact.tier}}: {{surveyLink}}";
        let errors =
            SendoutDraft::new(input(DispatchType::Email, "a@b.example", Some("{{x}} {{lastName}}"), text)).unwrap_err();
        let shown: Vec<(&str, bool)> = errors
            .iter()
            .map(|e| (e.field.as_str(), e.message.ends_with(": {{x}}") || e.message.ends_with(": {{fristName}}")))
            .collect();
        assert_eq!(shown, [("subject", true), ("message", true)]);
    }

    #[test]
    fn login_takes_no_message_fields() {
        assert_eq!(
            fields(input(DispatchType::Login, "Acme", Some("s"), "m")),
            ["sendDate", "sender", "subject", "message"]
        );
    }

    #[test]
    fn link_takes_no_message_fields_and_checks_its_cap() {
        assert_eq!(
            fields(input(DispatchType::Link, "Acme", Some("s"), "m")),
            ["sendDate", "sender", "subject", "message"]
        );
        let link = |max_responses, one_response_per_browser| SendoutInput {
            open_link: OpenLinkInput { max_responses, one_response_per_browser },
            ..SendoutInput { message: MessageInput::default(), ..input(DispatchType::Link, "", None, "") }
        };
        let draft = SendoutDraft::new(link(None, None)).unwrap();
        let rules = draft.open_link().unwrap();
        assert_eq!((rules.max_responses, rules.one_response_per_browser), (None, true));
        let handle = rules.handle(crate::ids::AccountId::new(42));
        assert_eq!(
            super::super::survey_link_route(&handle),
            Some(super::super::LinkRoute::Account(crate::ids::AccountId::new(42)))
        );
        assert_ne!(
            SendoutDraft::new(link(None, None)).unwrap().open_link().unwrap().handle(crate::ids::AccountId::new(42)),
            handle
        );
        let draft = SendoutDraft::new(link(Some(MAX_RESPONSES), Some(false))).unwrap();
        let rules = draft.open_link().unwrap();
        assert_eq!((rules.max_responses, rules.one_response_per_browser), (Some(MAX_RESPONSES), false));
        assert_eq!(fields(link(Some(0), None)), ["maxResponses"]);
        assert_eq!(fields(link(Some(MAX_RESPONSES + 1), None)), ["maxResponses"]);
        assert_eq!(fields(link(Some(-5), Some(true))), ["maxResponses"]);
    }

    #[test]
    fn the_open_link_rules_are_refused_on_every_other_type() {
        use strum::VariantArray;
        for &kind in DispatchType::VARIANTS.iter().filter(|&&k| k != DispatchType::Link) {
            let given = SendoutInput {
                open_link: OpenLinkInput { max_responses: Some(10), one_response_per_browser: Some(true) },
                ..input_email()
            };
            let given = SendoutInput { kind, ..given };
            let named = fields(given);
            assert!(
                named.ends_with(&["maxResponses".to_owned(), "oneResponsePerBrowser".to_owned()]),
                "{kind:?}: {named:?}"
            );
        }
        assert_eq!(SendoutDraft::new(input_email()).unwrap().open_link(), None);
    }

    #[test]
    fn expiry_comes_after_sending() {
        let mut early = input(DispatchType::Sms, "Acme", None, "{{surveyLink}}");
        early.expiry_date = Some(SEND);
        assert_eq!(fields(early), ["expiryDate"]);
    }

    #[test]
    fn names_round_trip() {
        use strum::VariantArray;
        for &kind in DispatchType::VARIANTS {
            assert_eq!(kind.as_str().parse(), Ok(kind));
        }
        assert_eq!(DispatchType::TwoWay.as_str(), "TWOWAY");
        assert_eq!(DispatchType::Link.as_str(), "LINK");
        for &status in SendoutStatus::VARIANTS {
            assert_eq!(status.as_str().parse(), Ok(status));
        }
    }
}
