//! The client's end of a streamed body: a handle on the connection's socket, kept when the connection opens, so
//! that a body can tell whether its client is still there between two chunks, and close a connection whose client
//! stopped reading (actix no longer polls a body whose client reads nothing, so the body cannot end itself).

use std::any::Any;
use std::future::{ready, Ready};
use std::io::ErrorKind;
use std::mem::MaybeUninit;
use std::net::Shutdown;
use std::rc::Rc;

use actix_web::dev::{Extensions, Payload};
use actix_web::rt::net::TcpStream;
use actix_web::{FromRequest, HttpRequest};
use socket2::{SockRef, Socket};

/// The socket of a request's connection (a second descriptor of it), when the server kept one; none in the
/// in-process tests, whose requests have no socket.
#[derive(Clone, Default)]
pub struct Peer(Option<Rc<Socket>>);

/// What the connection keeps: the second descriptor, shared by its requests.
#[derive(Clone)]
struct ConnectionSocket(Rc<Socket>);

/// `HttpServer::on_connect`: keeps a second descriptor of a TCP connection's socket with the connection (it is
/// closed with the connection's data, when the connection ends).
pub fn keep_socket(connection: &dyn Any, data: &mut Extensions) {
    if let Some(stream) = connection.downcast_ref::<TcpStream>() {
        match SockRef::from(stream).try_clone() {
            Ok(socket) => {
                data.insert(ConnectionSocket(Rc::new(socket)));
            }
            Err(error) => tracing::warn!(error.message = %error, "a connection's socket could not be kept"),
        }
    }
}

impl Peer {
    /// The peer of this request.
    pub fn of(req: &HttpRequest) -> Self {
        Self(req.conn_data::<ConnectionSocket>().map(|kept| kept.0.clone()))
    }

    /// Whether the client is known to be gone: it closed its end (a client sends nothing after its request while
    /// it waits for the answer), or the connection was reset. Never blocks; without a socket, never gone.
    pub fn gone(&self) -> bool {
        let Some(socket) = &self.0 else { return false };
        let mut byte = [MaybeUninit::<u8>::uninit()];
        // The descriptor shares the connection's non-blocking mode: nothing to read yet is `WouldBlock`.
        match socket.peek(&mut byte) {
            Ok(0) => true,
            Ok(_) => false,
            Err(error) => !matches!(error.kind(), ErrorKind::WouldBlock | ErrorKind::Interrupted),
        }
    }

    /// Closes the connection both ways: actix's next write fails, and it drops the response and its body.
    pub fn close(&self) {
        if let Some(socket) = &self.0 {
            if let Err(error) = socket.shutdown(Shutdown::Both) {
                tracing::debug!(error.message = %error, "a stalled connection was already closed");
            }
        }
    }
}

impl FromRequest for Peer {
    type Error = actix_web::Error;
    type Future = Ready<Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(Ok(Self::of(req)))
    }
}
