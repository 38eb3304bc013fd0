//! Path parameters read as the domain's ids: `Ids<SurveyId>`, `Ids<(SurveyId, SendoutId)>`, `Ids<(SurveyId,
//! String)>`, read as `web::Path` reads numbers, so a malformed one is the same 400 ([`super::query::path_config`]).
//! The last id read names the request's thing for the audit log (`crate::audit`).

use actix_web::dev::Payload;
use actix_web::{web, FromRequest, HttpRequest};
use canvass_domain::ids::{
    AlertId, AnswerSetId, BgDocumentId, CategoryId, ContactId, ContactListId, ErasureReceiptId, PageId, QuestionItemId,
    QuotaId, RespondentId, SendoutId, SurveyId, UserId, WebhookId,
};
use futures_util::future::{MapOk, TryFutureExt};
use serde::de::DeserializeOwned;

/// The path parameters of a request, in their order in the path, as ids of the domain (or text).
#[derive(Debug)]
pub struct Ids<T>(pub T);

/// One path parameter: what the path holds (`Raw`) and the value made of it.
pub trait Segment: Sized {
    /// What `web::Path` reads.
    type Raw: DeserializeOwned;
    /// The value of what was read.
    fn from_raw(raw: Self::Raw) -> Self;
    /// What the audit log names the segment's thing by (`("survey", "12")`); `None` for text, which may be
    /// personal (a blocked contact) and names no thing of its own.
    fn audit_target(&self) -> Option<(&'static str, String)> {
        None
    }
}

/// Declares the ids that path parameters name, each read as the number it wraps, with the audit log's name of its
/// thing.
macro_rules! id_segments {
    ($($id:ident => $kind:literal),+) => {$(
        impl Segment for $id {
            type Raw = i64;
            fn from_raw(raw: i64) -> Self {
                Self::new(raw)
            }
            fn audit_target(&self) -> Option<(&'static str, String)> {
                Some(($kind, self.get().to_string()))
            }
        }
    )+};
}

id_segments!(
    AlertId => "alert",
    AnswerSetId => "answerSet",
    BgDocumentId => "backgroundData",
    CategoryId => "category",
    ContactId => "contact",
    ContactListId => "contactList",
    ErasureReceiptId => "erasureReceipt",
    PageId => "page",
    QuestionItemId => "questionItem",
    QuotaId => "quota",
    RespondentId => "respondent",
    SendoutId => "sendout",
    SurveyId => "survey",
    UserId => "user",
    WebhookId => "webhook"
);

impl Segment for String {
    type Raw = String;
    fn from_raw(raw: String) -> Self {
        raw
    }
}

/// The path parameters of a route: one of them, or a tuple of them in order.
pub trait Segments: Sized {
    /// What `web::Path` reads.
    type Raw: DeserializeOwned;
    /// The values of what was read.
    fn from_raw(raw: Self::Raw) -> Self;
    /// The audit log's name of the last segment that names a thing.
    fn audit_target(&self) -> Option<(&'static str, String)>;
}

impl<A: Segment> Segments for A {
    type Raw = A::Raw;
    fn from_raw(raw: A::Raw) -> Self {
        A::from_raw(raw)
    }
    fn audit_target(&self) -> Option<(&'static str, String)> {
        Segment::audit_target(self)
    }
}

impl<A: Segment, B: Segment> Segments for (A, B) {
    type Raw = (A::Raw, B::Raw);
    fn from_raw((a, b): Self::Raw) -> Self {
        (A::from_raw(a), B::from_raw(b))
    }
    fn audit_target(&self) -> Option<(&'static str, String)> {
        self.1.audit_target().or_else(|| self.0.audit_target())
    }
}

impl<A: Segment, B: Segment, C: Segment> Segments for (A, B, C) {
    type Raw = (A::Raw, B::Raw, C::Raw);
    fn from_raw((a, b, c): Self::Raw) -> Self {
        (A::from_raw(a), B::from_raw(b), C::from_raw(c))
    }
    fn audit_target(&self) -> Option<(&'static str, String)> {
        self.2.audit_target().or_else(|| self.1.audit_target()).or_else(|| self.0.audit_target())
    }
}

type Read<T> = <web::Path<<T as Segments>::Raw> as FromRequest>::Future;

impl<T: Segments> FromRequest for Ids<T> {
    type Error = actix_web::Error;
    type Future = MapOk<Read<T>, fn(web::Path<T::Raw>) -> Self>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let made: fn(web::Path<T::Raw>) -> Self = |path| {
            let ids = T::from_raw(path.into_inner());
            if let Some((kind, id)) = ids.audit_target() {
                crate::audit::AuditSlot::name_target(kind, id);
            }
            Ids(ids)
        };
        web::Path::<T::Raw>::from_request(req, payload).map_ok(made)
    }
}
