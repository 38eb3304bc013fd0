//! Respondents: their statuses, contact details, background data and survey link tokens.

use std::collections::{BTreeMap, HashSet};

use time::OffsetDateTime;

use crate::error::FieldError;
use crate::ids::{AccountId, ContactId, LabelId, RespondentId, SendoutId};
use crate::language::Language;

use super::contact::{check_contact, contact_key};
use super::link_token::new_survey_link_token;
use super::sendout::DispatchType;

/// Most respondents one batch may add.
pub const MAX_BATCH: usize = 1000;

/// Background data: label id to a non-empty value.
pub type BackgroundData = BTreeMap<LabelId, String>;

/// Where a respondent is in distribution. Its name (`Pending`, ...) is what the store keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::EnumString, strum::IntoStaticStr, strum::VariantArray)]
pub enum RespondentStatus {
    /// Added, waiting for an activation.
    Pending,
    /// Released; the service sends at the send date.
    Scheduled,
    /// Released with `sendMail: false`; the caller distributes the link.
    Released,
    /// The invitation was handed to the relay.
    Sent,
    /// The address failed permanently.
    Bounced,
    /// Sending failed after every retry.
    Failed,
    /// Held back by the survey frequency limit.
    FrequencyLimitReached,
    /// Opted out or blocked after being added; never sent.
    Blocklisted,
    /// The sendout expired before sending.
    Expired,
}

impl RespondentStatus {
    /// The status's name.
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// The status an activation gives a pending respondent.
    ///
    /// ```
    /// use canvass_domain::distribution::RespondentStatus;
    ///
    /// assert_eq!(RespondentStatus::released(true), RespondentStatus::Scheduled);
    /// assert_eq!(RespondentStatus::released(false), RespondentStatus::Released);
    /// ```
    pub const fn released(send_mail: bool) -> Self {
        if send_mail {
            Self::Scheduled
        } else {
            Self::Released
        }
    }
}

/// A stored respondent. Its `Debug` leaves out the contact, background data, link token and the relay's words.
#[derive(Clone, PartialEq, Eq)]
pub struct Respondent {
    /// The respondent's id.
    pub id: RespondentId,
    /// The sendout it belongs to.
    pub sendout_id: SendoutId,
    /// Email address, phone number or login identifier; empty for an open link's visitor and once erased.
    pub contact_details: String,
    /// Whether it is an anonymous visitor of an open link (who has no contact details at all).
    pub visitor: bool,
    /// Whether the service sends the link.
    pub send_mail: bool,
    /// Label id to value.
    pub background_data: BackgroundData,
    /// Where it is in distribution.
    pub status: RespondentStatus,
    /// The token of its personal survey link.
    pub token: String,
    /// When it was added.
    pub added_at: OffsetDateTime,
    /// When its invitation was sent.
    pub sent_at: Option<OffsetDateTime>,
    /// How its invitation's delivery stands.
    pub delivery: InvitationDelivery,
    /// The language it sees the survey in, before its sendout's; `None` for its sendout's.
    pub language: Option<Language>,
    /// The directory's contact it was made from; `None` when it came from none (or the contact was deleted).
    pub contact_id: Option<ContactId>,
}

/// How a respondent's invitation stands with the relay (the contract's "Sending at the relay's pace").
#[derive(Clone, Default, PartialEq, Eq)]
pub struct InvitationDelivery {
    /// Hand-overs that reached the recipient stage, the successful one included (holds and pace waits count none).
    pub attempts: i32,
    /// The relay's last refusal, if any.
    pub last_error: Option<String>,
    /// When it is tried next, while it waits to be sent.
    pub next_attempt_at: Option<OffsetDateTime>,
}

/// The respondent behind a survey link token, and what the respondent page needs to know about it. Its `Debug`
/// leaves out the contact.
#[derive(Clone, PartialEq, Eq)]
pub struct TokenContext {
    /// The owning account.
    pub account_id: crate::AccountId,
    /// The respondent.
    pub respondent_id: RespondentId,
    /// Its sendout.
    pub sendout_id: SendoutId,
    /// The sendout's survey.
    pub survey_id: crate::ids::SurveyId,
    /// The survey's name.
    pub survey_name: String,
    /// The survey's own words after completion, if it has them.
    pub thank_you_message: Option<String>,
    /// The survey's tree version when the link was read ([`crate::survey::QuestionTree::version`]).
    pub tree_version: i32,
    /// The language of the sendout's pages.
    pub language: crate::language::Language,
    /// The language the survey's own texts are written in.
    pub survey_language: Language,
    /// The respondent's own language, before the sendout's; `None` for the sendout's.
    pub respondent_language: Option<Language>,
    /// Whether the survey takes answers.
    pub survey_active: bool,
    /// Whether the sendout is Active.
    pub sendout_active: bool,
    /// When the link stops working.
    pub expiry_date: Option<OffsetDateTime>,
    /// The contact as given (empty once erased).
    pub contact_details: String,
    /// The contact's comparison key.
    pub contact_key: String,
}

impl TokenContext {
    /// The language the respondent is shown: its own, else its sendout's.
    pub fn shown_language(&self) -> Language {
        self.respondent_language.unwrap_or(self.language)
    }
}

/// What a LOGIN sendout's login page needs to know of its sendout.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LoginPage {
    /// The language of its pages.
    pub language: crate::language::Language,
    /// How many respondents it has: the more people may share one office address, the more typos that address
    /// is allowed.
    pub respondents: u64,
}

/// A respondent to add, as a client gives it. Its `Debug` leaves out the contact and background data.
#[derive(Clone, PartialEq, Eq)]
pub struct RespondentInput {
    /// Contact details fitting the sendout type.
    pub contact_details: String,
    /// Whether the service sends the link.
    pub send_mail: bool,
    /// Background data.
    pub background_data: BackgroundData,
    /// The language it sees the survey in; `None` for its sendout's.
    pub language: Option<Language>,
}

/// A checked respondent, ready to store, with its comparison key and a fresh link token. Made only by
/// [`NewRespondent::check`], read through its accessors. Its `Debug` leaves out the contact, background data and
/// token.
#[derive(Clone, PartialEq, Eq)]
pub struct NewRespondent {
    contact_details: String,
    contact_key: String,
    send_mail: bool,
    background_data: BackgroundData,
    token: String,
    language: Option<Language>,
}

impl NewRespondent {
    /// Checks a respondent for a sendout of type `kind` of `account`; `labels` are the label ids background data
    /// may use. Field paths are prefixed with `path` (empty for a single respondent). The link token names
    /// `account`.
    pub fn check(
        account: AccountId,
        input: RespondentInput,
        kind: DispatchType,
        labels: &HashSet<LabelId>,
        path: &str,
    ) -> Result<Self, Vec<FieldError>> {
        let mut errors = Vec::new();
        if let Err(message) = check_contact(kind, &input.contact_details) {
            errors.push(FieldError::new(format!("{path}contactDetails"), message));
        }
        errors.extend(check_background_data(&input.background_data, labels, &format!("{path}backgroundData")));
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(Self {
            contact_key: contact_key(&input.contact_details),
            contact_details: input.contact_details.trim().to_owned(),
            send_mail: input.send_mail,
            background_data: input.background_data,
            token: new_survey_link_token(account),
            language: input.language,
        })
    }

    /// Contact details, trimmed.
    pub fn contact_details(&self) -> &str {
        &self.contact_details
    }

    /// The key contacts are compared by.
    pub fn contact_key(&self) -> &str {
        &self.contact_key
    }

    /// Whether the service sends the link.
    pub fn send_mail(&self) -> bool {
        self.send_mail
    }

    /// Background data.
    pub fn background_data(&self) -> &BackgroundData {
        &self.background_data
    }

    /// Survey link token.
    pub fn token(&self) -> &str {
        &self.token
    }

    /// The language it sees the survey in; `None` for its sendout's.
    pub fn language(&self) -> Option<Language> {
        self.language
    }
}

/// Checks background data: every key is one of `labels`, every value non-empty.
///
/// ```
/// use std::collections::{BTreeMap, HashSet};
/// use canvass_domain::distribution::check_background_data;
/// use canvass_domain::ids::LabelId;
///
/// let (seven, eight) = (LabelId::new(7), LabelId::new(8));
/// let labels = HashSet::from([seven]);
/// assert!(check_background_data(&BTreeMap::from([(seven, "Oslo".to_owned())]), &labels, "bg").is_empty());
/// let errors = check_background_data(&BTreeMap::from([(eight, "x".to_owned()), (seven, " ".to_owned())]), &labels, "bg");
/// assert_eq!(errors.iter().map(|e| e.field.as_str()).collect::<Vec<_>>(), ["bg.7", "bg.8"]);
/// ```
pub fn check_background_data(data: &BackgroundData, labels: &HashSet<LabelId>, path: &str) -> Vec<FieldError> {
    data.iter()
        .filter_map(|(label, value)| {
            if !labels.contains(label) {
                Some(FieldError::new(format!("{path}.{label}"), "is not a background data label of this account"))
            } else if value.trim().is_empty() {
                Some(FieldError::new(format!("{path}.{label}"), "must not be empty"))
            } else {
                crate::limits::check_length(format!("{path}.{label}"), value, crate::limits::BACKGROUND_VALUE).err()
            }
        })
        .collect()
}

/// What a partial delete (retention) puts before the respondent id in the contact key and the link token of an
/// erased respondent: `erased:<id>`. Neither leads to the respondent any more.
pub const ERASED_PREFIX: &str = "erased:";

// Personal data and link tokens never reach logs or errors through `Debug`: these show what identifies a record to
// its operator, and say that there is more.

impl std::fmt::Debug for Respondent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Respondent")
            .field("id", &self.id)
            .field("sendout_id", &self.sendout_id)
            .field("status", &self.status)
            .field("send_mail", &self.send_mail)
            .field("attempts", &self.delivery.attempts)
            .finish_non_exhaustive()
    }
}

impl std::fmt::Debug for TokenContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TokenContext")
            .field("account_id", &self.account_id)
            .field("respondent_id", &self.respondent_id)
            .field("sendout_id", &self.sendout_id)
            .field("survey_id", &self.survey_id)
            .field("language", &self.language)
            .field("survey_active", &self.survey_active)
            .field("sendout_active", &self.sendout_active)
            .field("expiry_date", &self.expiry_date)
            .finish_non_exhaustive()
    }
}

impl std::fmt::Debug for RespondentInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RespondentInput").field("send_mail", &self.send_mail).finish_non_exhaustive()
    }
}

impl std::fmt::Debug for NewRespondent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NewRespondent").field("send_mail", &self.send_mail).finish_non_exhaustive()
    }
}

// A relay's reason can quote the address it refused.
crate::debug_without_personal_data!(InvitationDelivery { attempts, next_attempt_at });

#[cfg(test)]
mod tests {
    use super::*;

    fn input(contact: &str) -> RespondentInput {
        RespondentInput {
            contact_details: contact.into(),
            send_mail: true,
            background_data: BackgroundData::new(),
            language: None,
        }
    }

    #[test]
    fn a_checked_respondent_has_a_key_and_a_unique_token() {
        let labels = HashSet::new();
        let one = NewRespondent::check(AccountId::new(5), input(" Ann@Example.com "), DispatchType::Email, &labels, "")
            .unwrap();
        let two = NewRespondent::check(AccountId::new(5), input("ann@example.com"), DispatchType::Email, &labels, "")
            .unwrap();
        assert_eq!(one.contact_key(), two.contact_key());
        assert_eq!(one.contact_details(), "Ann@Example.com");
        assert_ne!(one.token(), two.token());
        assert!(one.token().starts_with("5-"), "{}", one.token());
        assert_eq!(one.token().len(), 42);
    }

    #[test]
    fn errors_carry_the_batch_path() {
        let labels = HashSet::new();
        let mut bad = input("not-a-number");
        bad.background_data.insert(LabelId::new(3), "x".into());
        let fields: Vec<_> =
            NewRespondent::check(AccountId::new(5), bad, DispatchType::Sms, &labels, "surveyRespondents[4].")
                .unwrap_err()
                .into_iter()
                .map(|e| e.field)
                .collect();
        assert_eq!(fields, ["surveyRespondents[4].contactDetails", "surveyRespondents[4].backgroundData.3"]);
    }

    #[test]
    fn debug_shows_no_contact_background_data_or_token() {
        let mut given = input("ann@example.com");
        given.background_data.insert(LabelId::new(3), "Stockholm office".into());
        let checked = NewRespondent::check(
            AccountId::new(5),
            given.clone(),
            DispatchType::Email,
            &HashSet::from([LabelId::new(3)]),
            "",
        )
        .unwrap();
        let stored = Respondent {
            id: RespondentId::new(1),
            sendout_id: SendoutId::new(2),
            contact_details: "ann@example.com".into(),
            visitor: false,
            send_mail: true,
            background_data: given.background_data.clone(),
            status: RespondentStatus::Sent,
            token: checked.token().to_owned(),
            added_at: OffsetDateTime::UNIX_EPOCH,
            sent_at: None,
            delivery: InvitationDelivery {
                last_error: Some("550 ann@example.com unknown".into()),
                ..Default::default()
            },
            language: None,
            contact_id: None,
        };
        for shown in [format!("{given:?}"), format!("{checked:?}"), format!("{stored:?}")] {
            for secret in ["ann@example.com", "Stockholm", checked.token()] {
                assert!(!shown.contains(secret), "{shown} shows {secret}");
            }
        }
        assert!(format!("{stored:?}").contains("Sent"), "what identifies the record stays");
    }

    #[test]
    fn statuses_round_trip() {
        for &status in <RespondentStatus as strum::VariantArray>::VARIANTS {
            assert_eq!(status.as_str().parse(), Ok(status));
        }
    }
}
