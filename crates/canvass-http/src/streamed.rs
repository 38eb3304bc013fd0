//! Long lists answered as one JSON array streamed chunk by chunk, so that a reader costs one chunk of memory and
//! no database connection while it reads.
//!
//! The first chunk is read before the response starts, by the use case that also checks what the path names, so
//! every error a client can cause still gets its status. Then the body yields `[`, the rows joined by commas and
//! `]`, one `Bytes` per chunk; the next chunk is read (in a blocking hop of its own: borrow a unit of work, read,
//! give it back) only when actix asks for more body, that is when the client has taken what was sent. A chunk that
//! cannot be read ends the body with an error: actix then closes the connection, so the client sees a truncated
//! body, never a well-formed list that lacks rows.

use std::marker::PhantomData;
use std::sync::Arc;

use actix_web::web::{self, Bytes};
use actix_web::HttpResponse;
use canvass_domain::chunks::{Chunk, ChunkRequest, CHUNK_SIZE};
use canvass_domain::ports::{StoreExt, UnitOfWork};
use canvass_domain::DomainError;
use futures_util::stream;
use serde::Serialize;
use tracing::Instrument;

use crate::blocking;
use crate::problem::Problem;
use crate::state::AppState;

/// How a list of rows `T` with keys `K` is read (`R`) and written (`W`, to DTOs `D`).
pub struct List<T, K, D, R, W> {
    name: &'static str,
    read: R,
    write: W,
    rows: PhantomData<fn(T, K) -> D>,
}

/// A chunk written out: its part of the array, and the request for the chunk after it (`None`: the list ended).
struct Piece<K> {
    bytes: Bytes,
    next: Option<ChunkRequest<K>>,
}

/// Where the body is.
enum Step<K> {
    /// The first piece, read before the response started, is still to be sent.
    Send(Piece<K>),
    /// The next chunk is to be read.
    Read(ChunkRequest<K>),
    /// The array is closed, or broke.
    End,
}

/// The error that ends a body whose next chunk could not be read; the cause was logged where it was met.
#[derive(Debug)]
pub struct ListBroken(&'static str);

impl std::fmt::Display for ListBroken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the list of {} ended early: a chunk could not be read", self.0)
    }
}

impl std::error::Error for ListBroken {}

impl<T: 'static, K, D: 'static, R, W> List<T, K, D, R, W>
where
    R: Fn(&mut dyn UnitOfWork, &ChunkRequest<K>) -> Result<Chunk<T, K>, DomainError> + Send + Sync + 'static,
    W: Fn(T) -> D + Send + Sync + 'static,
    K: Send + 'static,
    D: Serialize,
{
    /// A list named `name` in logs (never a key: a blocklist key is a contact), whose chunks `read` reads through a
    /// use case (the first one also checks what the path names), and whose rows `write` turns into their DTOs.
    pub fn new(name: &'static str, read: R, write: W) -> Self {
        Self { name, read, write, rows: PhantomData }
    }

    /// Reads the first chunk (an error answers as a problem, before anything is sent), then answers 200 with the
    /// whole list as a streamed JSON array.
    pub async fn respond(self, state: web::Data<AppState>) -> Result<HttpResponse, Problem> {
        let list = Arc::new(self);
        let span = tracing::Span::current();
        let first = list.clone().piece(&state, ChunkRequest::first(CHUNK_SIZE)).await?;
        let body = stream::unfold(Step::Send(first), move |step| {
            let (list, state, span) = (list.clone(), state.clone(), span.clone());
            async move {
                let piece = match step {
                    Step::End => return None,
                    Step::Send(piece) => piece,
                    Step::Read(request) => match list.clone().piece(&state, request).instrument(span).await {
                        Ok(piece) => piece,
                        Err(problem) => {
                            // The cause was logged where it became a problem; this says what the client saw.
                            tracing::warn!(
                                list.name = list.name,
                                error.kind = problem.kind,
                                "a streamed list broke off"
                            );
                            return Some((Err(ListBroken(list.name)), Step::End));
                        }
                    },
                };
                Some((Ok(piece.bytes), piece.next.map_or(Step::End, Step::Read)))
            }
        });
        Ok(HttpResponse::Ok().content_type("application/json").streaming(body))
    }

    /// Reads the chunk `request` names in a blocking hop of its own and writes it out once the connection is back.
    async fn piece(self: Arc<Self>, state: &AppState, request: ChunkRequest<K>) -> Result<Piece<K>, Problem> {
        let store = state.store.clone();
        let _turn = blocking::turn(state).await?;
        blocking::in_span(move || {
            let chunk = store.with_uow(|uow| (self.read)(uow, &request))?;
            self.write_out(chunk, request.is_first())
        })
        .await
    }

    /// A chunk's part of the array: `[` before the first row of the list, a comma before every other row, `]`
    /// after the last chunk. Rows come only in the first chunk or after a full one, so a later chunk always follows
    /// a row.
    fn write_out(&self, chunk: Chunk<T, K>, first: bool) -> Result<Piece<K>, Problem> {
        let mut bytes = Vec::new();
        if first {
            bytes.push(b'[');
        }
        for (index, row) in chunk.items.into_iter().enumerate() {
            if index > 0 || !first {
                bytes.push(b',');
            }
            serde_json::to_writer(&mut bytes, &(self.write)(row)).map_err(|error| Problem::internal(&error))?;
        }
        if chunk.next.is_none() {
            bytes.push(b']');
        }
        Ok(Piece { bytes: Bytes::from(bytes), next: chunk.next })
    }
}
