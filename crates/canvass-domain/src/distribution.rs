//! Distribution: sendouts and their state machine, respondents and their contact details, reminders, background
//! data labels and documents, the blocklist and email bounces.

mod blocklist;
mod bounce;
pub(crate) mod contact;
mod label;
mod link_token;
mod localized;
pub mod ports;
mod reminder;
mod respondent;
mod sender;
mod sendout;
mod timeline;
mod visit;

pub use blocklist::{BlocklistEntry, BlocklistKey, BlocklistType};
pub use bounce::{BounceFilter, NewPermanentFailure, PermanentFailure};
pub(crate) use contact::is_e164;
pub use contact::{check_any_contact, check_contact, check_sms_sender, contact_key};
pub use label::{BgDocument, Label, LabelDraft, LabelType, BACKGROUND_FUNCTION};
pub use link_token::{is_survey_link_token, new_survey_link_token, survey_link_route, LinkRoute, ACCOUNT_SEPARATOR};
pub use localized::{check_localized, invitation_in, LocalizedInput, LocalizedMessage, LocalizedMessages};
pub use reminder::{Reminder, ReminderDraft, ReminderInput, ReminderStatus, SendoutLogic};
pub use respondent::{
    check_background_data, BackgroundData, InvitationDelivery, LoginPage, NewRespondent, Respondent, RespondentInput,
    RespondentStatus, TokenContext, ERASED_PREFIX, MAX_BATCH,
};
pub use sender::{ProvisionedSender, SenderNumber};
pub use sendout::{
    check_open_link, DeliveryIssue, DeliveryIssueKind, DispatchType, MessageInput, OpenLink, OpenLinkInput,
    OpenLinkRules, Sendout, SendoutDelivery, SendoutDraft, SendoutInput, SendoutStatus, Transition, MAX_RESPONSES,
    SURVEY_LINK_PLACEHOLDER,
};
pub use timeline::{reply_code, EventKind, RespondentEvent, MAX_CONTACT_EVENTS};
pub use visit::{hidden_fields, visitor_key, OpenLinkTarget, HIDDEN_VALUE, VISITOR_KEY_PREFIX};
