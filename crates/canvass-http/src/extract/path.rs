//! Path parameters read as the domain's ids: `Ids<SurveyId>`, `Ids<(SurveyId, SendoutId)>`, `Ids<(SurveyId,
//! String)>`, read as `web::Path` reads numbers, so a malformed one is the same 400 ([`super::query::path_config`]).

use actix_web::dev::Payload;
use actix_web::{web, FromRequest, HttpRequest};
use canvass_domain::ids::{
    AlertId, AnswerSetId, BgDocumentId, CategoryId, ContactId, ContactListId, PageId, QuestionItemId, QuotaId,
    RespondentId, SendoutId, SurveyId, UserId, WebhookId,
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
}

/// Declares the ids that path parameters name, each read as the number it wraps.
macro_rules! id_segments {
    ($($id:ident),+) => {$(
        impl Segment for $id {
            type Raw = i64;
            fn from_raw(raw: i64) -> Self {
                Self::new(raw)
            }
        }
    )+};
}

id_segments!(
    AlertId,
    AnswerSetId,
    BgDocumentId,
    CategoryId,
    ContactId,
    ContactListId,
    PageId,
    QuestionItemId,
    QuotaId,
    RespondentId,
    SendoutId,
    SurveyId,
    UserId,
    WebhookId
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
}

impl<A: Segment> Segments for A {
    type Raw = A::Raw;
    fn from_raw(raw: A::Raw) -> Self {
        A::from_raw(raw)
    }
}

impl<A: Segment, B: Segment> Segments for (A, B) {
    type Raw = (A::Raw, B::Raw);
    fn from_raw((a, b): Self::Raw) -> Self {
        (A::from_raw(a), B::from_raw(b))
    }
}

impl<A: Segment, B: Segment, C: Segment> Segments for (A, B, C) {
    type Raw = (A::Raw, B::Raw, C::Raw);
    fn from_raw((a, b, c): Self::Raw) -> Self {
        (A::from_raw(a), B::from_raw(b), C::from_raw(c))
    }
}

type Read<T> = <web::Path<<T as Segments>::Raw> as FromRequest>::Future;

impl<T: Segments> FromRequest for Ids<T> {
    type Error = actix_web::Error;
    type Future = MapOk<Read<T>, fn(web::Path<T::Raw>) -> Self>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let made: fn(web::Path<T::Raw>) -> Self = |path| Ids(T::from_raw(path.into_inner()));
        web::Path::<T::Raw>::from_request(req, payload).map_ok(made)
    }
}
