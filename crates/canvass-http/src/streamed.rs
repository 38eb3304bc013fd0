//! Long lists answered as one JSON array streamed chunk by chunk, so that a reader costs one chunk of rows and no
//! database connection while it reads.
//!
//! The first chunk is read before the response starts, by the use case that also checks what the path names, so
//! every error a client can cause still gets its status. Then the body yields `[`, the rows joined by commas and
//! `]`, in pieces of about 16 KiB written from the rows in hand when actix asks for more body (that is, once the
//! piece before went out to the socket); when the rows in hand are written, the next chunk is read in a blocking
//! hop of its own (borrow a unit of work, read, give it back). A chunk that cannot be read ends the body with an
//! error: actix then closes the connection, so the client sees a truncated body, never a well-formed list that
//! lacks rows.

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

/// About how many bytes of JSON one piece of the body holds: a piece never grows actix's write buffer (32 KiB)
/// much past its limit, and needs no large allocation.
const PIECE_BYTES: usize = 16 * 1024;

/// Where the body is: the rows of the chunk in hand and what comes after them.
struct Cursor<T, K> {
    /// The rows of the chunk in hand not yet written.
    rows: std::vec::IntoIter<T>,
    /// The chunk after them; `None` when they are the last rows of the list.
    next: Option<ChunkRequest<K>>,
    /// Whether `[` is written.
    opened: bool,
    /// Whether a row is written, so that the next one takes a comma.
    wrote_row: bool,
    /// Whether the body is over: `]` is written, or the list broke off.
    over: bool,
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

impl<T: Send + 'static, K, D: 'static, R, W> List<T, K, D, R, W>
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
        let first = list.clone().read_chunk(&state, ChunkRequest::first(CHUNK_SIZE)).await?;
        let cursor =
            Cursor { rows: first.items.into_iter(), next: first.next, opened: false, wrote_row: false, over: false };
        let body = stream::unfold(cursor, move |mut cursor| {
            let (list, state, span) = (list.clone(), state.clone(), span.clone());
            async move {
                if cursor.over {
                    return None;
                }
                let piece = match list.clone().next_piece(&state, &mut cursor).instrument(span).await {
                    Ok(piece) => Ok(piece),
                    Err(problem) => {
                        cursor.over = true;
                        // The cause was logged where it became a problem; this says what the client saw.
                        tracing::warn!(
                            list.name = list.name,
                            error.kind = problem.kind.name(),
                            "a streamed list broke off"
                        );
                        Err(ListBroken(list.name))
                    }
                };
                Some((piece, cursor))
            }
        });
        Ok(HttpResponse::Ok().content_type("application/json").streaming(body))
    }

    /// The next piece of the array: once the rows in hand are written, the next chunk is read first.
    async fn next_piece(self: Arc<Self>, state: &AppState, cursor: &mut Cursor<T, K>) -> Result<Bytes, Problem> {
        if cursor.rows.len() == 0 {
            if let Some(request) = cursor.next.take() {
                let chunk = self.clone().read_chunk(state, request).await?;
                (cursor.rows, cursor.next) = (chunk.items.into_iter(), chunk.next);
            }
        }
        self.write_piece(cursor)
    }

    /// Reads the chunk `request` names in a blocking hop of its own: borrow a unit of work, read, give it back.
    async fn read_chunk(self: Arc<Self>, state: &AppState, request: ChunkRequest<K>) -> Result<Chunk<T, K>, Problem> {
        let store = state.store.clone();
        let _turn = blocking::turn(state).await?;
        blocking::in_span(move || Ok(store.with_uow(|uow| (self.read)(uow, &request))?)).await
    }

    /// Writes rows in hand until the piece holds about [`PIECE_BYTES`]: `[` before the first row of the list, a
    /// comma before every other row, `]` after the last. A chunk goes on only after a full one, so the rows in hand
    /// are empty only at the end of the list.
    fn write_piece(&self, cursor: &mut Cursor<T, K>) -> Result<Bytes, Problem> {
        let mut bytes = Vec::with_capacity(PIECE_BYTES + PIECE_BYTES / 8);
        if !cursor.opened {
            bytes.push(b'[');
            cursor.opened = true;
        }
        while bytes.len() < PIECE_BYTES {
            let Some(row) = cursor.rows.next() else { break };
            if cursor.wrote_row {
                bytes.push(b',');
            }
            serde_json::to_writer(&mut bytes, &(self.write)(row)).map_err(|error| Problem::internal(&error))?;
            cursor.wrote_row = true;
        }
        if cursor.rows.len() == 0 && cursor.next.is_none() {
            bytes.push(b']');
            cursor.over = true;
        }
        Ok(Bytes::from(bytes))
    }
}
