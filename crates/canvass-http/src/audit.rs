//! The audit log's side of a request. The API guard opens an [`AuditSlot`] for a request whose operation the log
//! records (`x-canvass-audit`); the request's one blocking hop writes the event in the transaction of its change
//! (`blocking::run`), with the status the operation answers on success, or the status its answer was rendered with
//! inside the hop (`blocking::respond`); a request refused with a 4xx (by the guard, an extractor or its use case,
//! whose transaction rolled back) has its refusal written by the guard afterwards, on its own. A 5xx is not
//! recorded (nothing changed), nor a kept answer served again for an `Idempotency-Key` (nothing ran).
//!
//! What an event names is parsed, never read off the raw path: the path's last id, as the `Ids` extractor read it,
//! or the id a create's answer gives (`surveyId` of `survey.create`). Nothing of a body is recorded.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use canvass_domain::account::Caller;
use canvass_domain::audit::{Actor, NewAuditEvent, Target};
use canvass_domain::AccountId;
use time::OffsetDateTime;

/// The header a request's id is read from, when a client sends a fitting one, and answered in.
pub const REQUEST_ID: &str = "x-request-id";

/// Longest request id taken from a client.
const MAX_REQUEST_ID: usize = 64;

/// What is known of an audited request before it runs.
#[derive(Debug, Clone)]
pub struct Draft {
    /// The caller.
    pub caller: Caller,
    /// `<resource>.<verb>`.
    pub action: String,
    /// The status the operation answers on success.
    pub success: u16,
    /// The client's address.
    pub client_address: Option<String>,
    /// The request's id.
    pub request_id: String,
}

/// One audited request's event, filled in as the request runs and written once.
#[derive(Debug)]
pub struct AuditSlot {
    draft: Draft,
    path_target: Mutex<Option<Target>>,
    served: Mutex<Option<(u16, Option<String>)>>,
    written: AtomicBool,
}

tokio::task_local! {
    static CURRENT: Option<Arc<AuditSlot>>;
}

impl AuditSlot {
    /// A slot for a request about to run.
    pub fn new(draft: Draft) -> Arc<Self> {
        Arc::new(Self {
            draft,
            path_target: Mutex::new(None),
            served: Mutex::new(None),
            written: AtomicBool::new(false),
        })
    }

    /// The slot of the request being served, if its operation is audited.
    pub fn current() -> Option<Arc<Self>> {
        CURRENT.try_with(Option::clone).ok().flatten()
    }

    /// Runs `work` with `self` as the current slot.
    pub async fn scope<F: std::future::Future>(self: Arc<Self>, work: F) -> F::Output {
        CURRENT.scope(Some(self), work).await
    }

    /// Runs `work` outside any slot: the hops of the request's middleware (an `Idempotency-Key`'s claim and its
    /// release), which are not the request's change and must not write its event.
    pub async fn outside<F: std::future::Future>(work: F) -> F::Output {
        CURRENT.scope(None, work).await
    }

    /// Names the thing the request's path names (its last id), for the current request's event.
    pub fn name_target(kind: &'static str, id: String) {
        if let Some(slot) = Self::current() {
            if let Ok(mut target) = slot.path_target.lock() {
                *target = Some(Target { kind: kind.to_owned(), id: Some(id) });
            }
        }
    }

    /// The request's id, answered in `X-Request-Id`.
    pub fn request_id(&self) -> &str {
        &self.draft.request_id
    }

    /// The account the event belongs to.
    pub fn account(&self) -> AccountId {
        self.draft.caller.account_id
    }

    /// Whether the event is still to be written.
    pub fn pending(&self) -> bool {
        !self.written.load(Ordering::Acquire)
    }

    /// Marks the event written.
    pub fn mark_written(&self) {
        self.written.store(true, Ordering::Release);
    }

    /// Notes the answer a hop rendered: its status and, for a 201, the new thing's id as its JSON gives it
    /// (`<resource>Id`, else `prefix` for a key).
    pub fn note_served(&self, status: u16, body: &[u8]) {
        let made = (status == 201).then(|| created_id(self.resource(), body)).flatten();
        if let Ok(mut served) = self.served.lock() {
            *served = Some((status, made));
        }
    }

    /// The event of the request's success, to write in its hop's transaction; `None` when the hop rendered a
    /// refusal (the guard writes that after the transaction rolled back).
    pub fn success(&self, now: OffsetDateTime) -> Option<NewAuditEvent> {
        let (status, made) =
            self.served.lock().ok().and_then(|served| served.clone()).unwrap_or((self.draft.success, None));
        if status >= 400 {
            return None;
        }
        let target = match made {
            Some(id) => Target { kind: self.resource().to_owned(), id: Some(id) },
            None => self.path_target(),
        };
        Some(self.event(now, status, target))
    }

    /// The event of the request's refusal with `status`.
    pub fn refusal(&self, now: OffsetDateTime, status: u16) -> NewAuditEvent {
        self.event(now, status, self.path_target())
    }

    fn event(&self, now: OffsetDateTime, status: u16, target: Target) -> NewAuditEvent {
        let draft = &self.draft;
        NewAuditEvent {
            at: now,
            actor: Actor { user_id: draft.caller.user_id, key: draft.caller.key },
            action: draft.action.clone(),
            target,
            client_address: draft.client_address.clone(),
            request_id: Some(draft.request_id.clone()),
            status,
        }
    }

    /// What the path named, else the action's resource without an id.
    fn path_target(&self) -> Target {
        let named = self.path_target.lock().ok().and_then(|target| target.clone());
        named.unwrap_or_else(|| Target { kind: self.resource().to_owned(), id: None })
    }

    /// The action's resource: `survey` of `survey.create`.
    fn resource(&self) -> &str {
        self.draft.action.split_once('.').map_or(self.draft.action.as_str(), |(resource, _)| resource)
    }
}

/// The id a create's answer gives its new thing: `<resource>Id`, else the id of the resource's last word
/// (`listId` of a `contactList`), else `prefix` (a key's).
fn created_id(resource: &str, body: &[u8]) -> Option<String> {
    let value: serde_json::Value = serde_json::from_slice(body).ok()?;
    let last_word = resource.rfind(|c: char| c.is_ascii_uppercase()).map(|at| resource[at..].to_ascii_lowercase());
    let id = value
        .get(format!("{resource}Id"))
        .or_else(|| last_word.and_then(|word| value.get(format!("{word}Id"))))
        .or_else(|| value.get("prefix"))?;
    match id {
        serde_json::Value::Number(number) => Some(number.to_string()),
        serde_json::Value::String(text) => Some(text.clone()),
        _ => None,
    }
}

/// The request's id: the client's `X-Request-Id` when it is 1 to 64 letters, digits, `-`, `_` or `.`, else 16
/// random bytes in hex.
pub fn request_id(sent: Option<&str>) -> String {
    let fits = |id: &&str| {
        !id.is_empty()
            && id.len() <= MAX_REQUEST_ID
            && id.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
    };
    sent.filter(fits).map_or_else(|| hex::encode(rand::random::<[u8; 16]>()), str::to_owned)
}

#[cfg(test)]
mod tests {
    use canvass_domain::testing::caller;

    use super::*;

    fn slot(action: &str) -> Arc<AuditSlot> {
        let draft = Draft {
            caller: caller(1),
            action: action.into(),
            success: 200,
            client_address: Some("192.0.2.1".into()),
            request_id: "r1".into(),
        };
        AuditSlot::new(draft)
    }

    #[test]
    fn a_create_names_what_it_made_and_a_change_what_its_path_named() {
        let now = OffsetDateTime::UNIX_EPOCH;
        let create = slot("survey.create");
        create.note_served(201, br#"{"surveyId": 42, "name": "Staff"}"#);
        let event = create.success(now).unwrap();
        assert_eq!((event.target.kind.as_str(), event.target.id.as_deref(), event.status), ("survey", Some("42"), 201));

        let change = slot("page.change");
        tokio_test_scope(&change, || AuditSlot::name_target("page", "7".into()));
        let event = change.success(now).unwrap();
        assert_eq!((event.target.kind.as_str(), event.target.id.as_deref(), event.status), ("page", Some("7"), 200));

        let list = slot("contactList.create");
        list.note_served(201, br#"{"listId": 3, "name": "Staff"}"#);
        assert_eq!(list.success(now).unwrap().target.id.as_deref(), Some("3"));

        let key = slot("key.create");
        key.note_served(201, br#"{"prefix": "cvs_0123456789ab", "apiKey": "cvs_secret"}"#);
        assert_eq!(key.success(now).unwrap().target.id.as_deref(), Some("cvs_0123456789ab"));
    }

    #[test]
    fn a_refusal_rendered_in_the_hop_is_left_to_the_guard() {
        let refused = slot("user.create");
        refused.note_served(409, br#"{"type": "/problems/duplicate"}"#);
        assert_eq!(refused.success(OffsetDateTime::UNIX_EPOCH), None);
        let event = refused.refusal(OffsetDateTime::UNIX_EPOCH, 409);
        assert_eq!((event.status, event.target.kind.as_str(), event.target.id), (409, "user", None));
    }

    #[test]
    fn a_clients_request_id_is_taken_only_when_it_fits() {
        assert_eq!(request_id(Some("abc-123_x.y")), "abc-123_x.y");
        for refused in [None, Some(""), Some("has space"), Some("ünïcode")] {
            assert_eq!(request_id(refused).len(), 32, "{refused:?}");
        }
        assert_eq!(request_id(Some(&"a".repeat(65))).len(), 32);
    }

    /// Runs `f` with `slot` current, as a request's future would.
    fn tokio_test_scope(slot: &Arc<AuditSlot>, f: impl FnOnce()) {
        CURRENT.sync_scope(Some(Arc::clone(slot)), f);
    }
}
