//! What a caller sees of personal data: a `viewer` reads contact details, email addresses, names, attributes,
//! background data, delivery errors, relays' replies and timelines' details as null (or empty) wherever they
//! appear; every other role reads them as stored.

use canvass_domain::account::Caller;

/// A response that holds personal data, and the same response without it.
pub trait Sighted: Sized {
    /// The response with every personal field null (or, for a map of them, empty).
    fn without_personal_data(self) -> Self;

    /// The response as `caller` may read it.
    fn seen_by(self, caller: &Caller) -> Self {
        if caller.sees_personal_data() {
            self
        } else {
            self.without_personal_data()
        }
    }
}

impl Sighted for super::respondent::RespondentResponse {
    fn without_personal_data(self) -> Self {
        Self { contact_details: None, last_delivery_error: None, background_data: Default::default(), ..self }
    }
}

impl Sighted for super::sendout::SendoutResponse {
    fn without_personal_data(self) -> Self {
        let delivery_issue =
            self.delivery_issue.map(|issue| super::sendout::DeliveryIssueBody { reply: None, ..issue });
        Self { delivery_issue, ..self }
    }
}

impl Sighted for super::contact::ContactResponse {
    fn without_personal_data(self) -> Self {
        Self { email: None, phone: None, first_name: None, last_name: None, attributes: Default::default(), ..self }
    }
}

impl Sighted for super::contact::ContactsPageResponse {
    fn without_personal_data(self) -> Self {
        Self { contacts: self.contacts.into_iter().map(Sighted::without_personal_data).collect(), ..self }
    }
}

impl Sighted for super::blocklist::BlocklistResponse {
    fn without_personal_data(self) -> Self {
        Self { contact_details: None, ..self }
    }
}

impl Sighted for super::blocklist::FailureResponse {
    fn without_personal_data(self) -> Self {
        Self { email_address: None, ..self }
    }
}

impl Sighted for super::timeline::EventResponse {
    fn without_personal_data(self) -> Self {
        Self { detail: None, ..self }
    }
}

impl Sighted for super::timeline::ContactEventResponse {
    fn without_personal_data(self) -> Self {
        Self { detail: None, ..self }
    }
}
