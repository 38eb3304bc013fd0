//! A layer that only some requests pass through: [`OnPaths`] runs a middleware for the requests it applies to (by
//! the [`Area`](super::area::Area) the request layer found) and hands the others straight to the service inside, so
//! they pay nothing for it (the API guard off the API, the respondent pages' guard off the pages).

use std::rc::Rc;
use std::task::{Context, Poll};

use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{Service, ServiceRequest, ServiceResponse, Transform};
use actix_web::Error;
use futures_util::future::{Either, FutureExt, LocalBoxFuture, Map};

/// `layer`, for the requests `applies` says yes to.
pub struct OnPaths<T> {
    applies: fn(&ServiceRequest) -> bool,
    layer: T,
}

impl<T> OnPaths<T> {
    /// Runs `layer` for the requests `applies` says yes to; the others skip it.
    pub fn new(applies: fn(&ServiceRequest) -> bool, layer: T) -> Self {
        Self { applies, layer }
    }
}

impl<S, B, T, L> Transform<S, ServiceRequest> for OnPaths<T>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = Error> + 'static,
    T: Transform<Rc<S>, ServiceRequest, Response = ServiceResponse<L>, Error = Error, InitError = ()>,
    T::Future: 'static,
    B: MessageBody + 'static,
    L: MessageBody + 'static,
{
    type Response = ServiceResponse<EitherBody<L, B>>;
    type Error = Error;
    type Transform = OnPathsService<T::Transform, S>;
    type InitError = ();
    type Future = LocalBoxFuture<'static, Result<Self::Transform, ()>>;

    fn new_transform(&self, service: S) -> Self::Future {
        let service = Rc::new(service);
        let (applies, layered) = (self.applies, self.layer.new_transform(service.clone()));
        Box::pin(async move { Ok(OnPathsService { applies, layered: layered.await?, service }) })
    }
}

/// The service of [`OnPaths`]: the layered service, and the one inside it for the other paths.
pub struct OnPathsService<T, S> {
    applies: fn(&ServiceRequest) -> bool,
    layered: T,
    service: Rc<S>,
}

type Answer<B> = Result<ServiceResponse<B>, Error>;

fn through_layer<L, B>(answer: Answer<L>) -> Answer<EitherBody<L, B>> {
    answer.map(ServiceResponse::map_into_left_body)
}

fn past_layer<L, B>(answer: Answer<B>) -> Answer<EitherBody<L, B>> {
    answer.map(ServiceResponse::map_into_right_body)
}

impl<T, S, B, L> Service<ServiceRequest> for OnPathsService<T, S>
where
    T: Service<ServiceRequest, Response = ServiceResponse<L>, Error = Error>,
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = Error>,
{
    type Response = ServiceResponse<EitherBody<L, B>>;
    type Error = Error;
    type Future = Either<
        Map<T::Future, fn(Answer<L>) -> Answer<EitherBody<L, B>>>,
        Map<S::Future, fn(Answer<B>) -> Answer<EitherBody<L, B>>>,
    >;

    fn poll_ready(&self, cx: &mut Context<'_>) -> Poll<Result<(), Error>> {
        self.service.poll_ready(cx)
    }

    fn call(&self, req: ServiceRequest) -> Self::Future {
        if (self.applies)(&req) {
            Either::Left(self.layered.call(req).map(through_layer as fn(_) -> _))
        } else {
            Either::Right(self.service.call(req).map(past_layer as fn(_) -> _))
        }
    }
}
