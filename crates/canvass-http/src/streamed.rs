//! Bodies streamed from lists read in chunks, so that a reader costs one chunk of rows and no database connection
//! while it reads: the long JSON lists, and the answer exports (CSV, XLSX, JSON Lines).
//!
//! The first chunk is read before the response starts, by the use case that also checks what the path names, so
//! every error a client can cause still gets its status. Then the body is written by a [`RowWriter`] (bytes before
//! the first row, each row's bytes, bytes after the last), in pieces of about 16 KiB written from the rows in hand
//! when actix asks for more body (that is, once the piece before went out to the socket); when the rows in hand
//! are written, the next chunk is read in a blocking hop of its own (wait for a turn at the store, borrow a unit of
//! work, read, give it back). A writer that works on files ([`RowWriter::ON_FILES`], the XLSX workbook) writes each
//! chunk's rows on the blocking pool, in a hop after the one that read them, and may end with a file whose bytes
//! end the body, read in pieces the same way. A chunk that cannot be read, or a row that cannot be written, ends
//! the body with an error: actix then closes the connection, so the client sees a truncated body, never a
//! well-formed one that lacks rows. A client that goes away drops the body, and with it the rows in hand and any
//! file; a body checks that its client is still there before it reads a chunk ([`Peer`]), so one that writes no
//! bytes for a while (the XLSX workbook) stops within a chunk of its client leaving. A client that stops reading
//! has its connection closed once a piece stays unread for the stream idle timeout (`watch`).

mod body;
mod json_array;
mod peer;
mod watch;

use std::fs::File;
use std::marker::PhantomData;
use std::sync::Arc;

use actix_web::web::{self, Bytes};
use actix_web::HttpResponse;
use canvass_domain::chunks::{Chunk, ChunkRequest, CHUNK_SIZE};
use canvass_domain::ports::{StoreExt, UnitOfWork};
use canvass_domain::DomainError;
use futures_util::Stream;
use serde::Serialize;

use crate::blocking::Share;
use crate::problem::Problem;
use crate::state::AppState;

pub use json_array::JsonArray;
pub use peer::{keep_socket, Peer};

/// Why a writer could not write: logged where the body breaks off, never sent (the response has started).
pub type WriteError = Box<dyn std::error::Error + Send + Sync>;

/// How a streamed body writes rows `T`.
pub trait RowWriter<T>: Send + 'static {
    /// Whether the writer works on files rather than in memory: then every call runs on the blocking pool, one
    /// chunk's rows at a time, never on the server's workers.
    const ON_FILES: bool = false;

    /// Writes what comes before the first row.
    fn header(&mut self, out: &mut Vec<u8>) -> Result<(), WriteError>;

    /// Writes one row.
    fn row(&mut self, row: T, out: &mut Vec<u8>) -> Result<(), WriteError>;

    /// Writes what comes after the last row; a writer that built a file returns it, read from its start, and its
    /// bytes end the body.
    fn footer(&mut self, out: &mut Vec<u8>) -> Result<Option<File>, WriteError>;
}

/// What reads one chunk of a list through a use case, in a unit of work lent for it (the first chunk's read also
/// checks what the path names).
pub trait ReadChunk<T, K>:
    Fn(&mut dyn UnitOfWork, &ChunkRequest<K>) -> Result<Chunk<T, K>, DomainError> + Send + Sync + 'static
{
}

impl<T, K, F> ReadChunk<T, K> for F where
    F: Fn(&mut dyn UnitOfWork, &ChunkRequest<K>) -> Result<Chunk<T, K>, DomainError> + Send + Sync + 'static
{
}

/// The error that ends a body whose next chunk could not be read or written; the cause was logged where it was
/// met.
#[derive(Debug)]
pub struct ListBroken(&'static str);

impl std::fmt::Display for ListBroken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the list of {} ended early: a chunk could not be read or written", self.0)
    }
}

impl std::error::Error for ListBroken {}

/// A list whose first chunk is read, and how the rest is read (`R`) and written (`W`).
pub struct Streamed<T, K, R, W> {
    name: &'static str,
    first: Chunk<T, K>,
    read: Arc<R>,
    writer: W,
}

impl<T, K, R, W> Streamed<T, K, R, W>
where
    T: Send + 'static,
    K: Send + 'static,
    R: ReadChunk<T, K>,
    W: RowWriter<T>,
{
    /// A list named `name` in logs (never a key: a blocklist key is a contact), whose `first` chunk the handler
    /// read, whose later chunks `read` reads through a use case, and which `writer` writes.
    pub fn new(name: &'static str, first: Chunk<T, K>, read: R, writer: W) -> Self {
        Self { name, first, read: Arc::new(read), writer }
    }

    /// The body for the client at `peer`: the first chunk's rows, then each later chunk's as the client reads on.
    pub fn body(
        self,
        state: web::Data<AppState>,
        peer: Peer,
    ) -> impl Stream<Item = Result<Bytes, ListBroken>> + 'static {
        Share::carried(body::stream(self.name, self.first, self.read, self.writer, state, peer))
    }
}

/// Reads the chunk `request` names in a blocking hop of its own on the store's lane, in the request's share (the
/// body carries it: [`Share::carried`]): borrow a unit of work, read, give it back.
async fn read_chunk<T, K, R>(state: &AppState, read: Arc<R>, request: ChunkRequest<K>) -> Result<Chunk<T, K>, Problem>
where
    T: Send + 'static,
    K: Send + 'static,
    R: ReadChunk<T, K>,
{
    let store = state.store.clone();
    state.store_lane.run(Share::current(), move || Ok(store.with_uow(|uow| read(uow, &request))?)).await
}

/// A page of rows whose size the client decides (answer sets with their answers), answered as one JSON object
/// whose last member is the page's array: the object's start and the first chunk are read before the response
/// starts, the rest chunk by chunk as the client reads on, so a page of large rows is never held whole.
pub fn respond_page<T, K, D, R, W>(
    name: &'static str,
    start: Vec<u8>,
    first: Chunk<T, K>,
    read: R,
    write: W,
    state: web::Data<AppState>,
    peer: Peer,
) -> HttpResponse
where
    T: Send + 'static,
    K: Send + 'static,
    D: Serialize + 'static,
    R: ReadChunk<T, K>,
    W: Fn(T) -> D + Send + Sync + 'static,
{
    let body =
        Share::carried(body::stream(name, first, Arc::new(read), JsonArray::within(start, b"}", write), state, peer));
    HttpResponse::Ok().content_type("application/json").streaming(body)
}

/// A long list answered as one JSON array: rows `T` with keys `K`, read by `R` and written by `W` as DTOs `D`.
pub struct List<T, K, D, R, W> {
    name: &'static str,
    read: R,
    write: W,
    rows: PhantomData<fn(T, K) -> D>,
}

impl<T, K, D, R, W> List<T, K, D, R, W>
where
    T: Send + 'static,
    K: Send + 'static,
    D: Serialize + 'static,
    R: ReadChunk<T, K>,
    W: Fn(T) -> D + Send + Sync + 'static,
{
    /// A list named `name` in logs (never a key: a blocklist key is a contact), whose chunks `read` reads through a
    /// use case (the first one also checks what the path names), and whose rows `write` turns into their DTOs.
    pub fn new(name: &'static str, read: R, write: W) -> Self {
        Self { name, read, write, rows: PhantomData }
    }

    /// Reads the first chunk (an error answers as a problem, before anything is sent), then answers 200 with the
    /// whole list as a streamed JSON array, for the client at `peer`.
    pub async fn respond(self, state: web::Data<AppState>, peer: Peer) -> Result<HttpResponse, Problem> {
        let read = Arc::new(self.read);
        let first = read_chunk(&state, read.clone(), ChunkRequest::first(CHUNK_SIZE)).await?;
        let body = Share::carried(body::stream(self.name, first, read, JsonArray::new(self.write), state, peer));
        Ok(HttpResponse::Ok().content_type("application/json").streaming(body))
    }
}
