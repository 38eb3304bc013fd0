//! The streamed body itself: where it is (the rows in hand, the chunk after them, the writer, a file to send) and
//! the next piece, made when actix asks for more.

use std::fs::File;
use std::io::Read;
use std::sync::Arc;

use actix_web::web::{self, Bytes};
use canvass_domain::chunks::{Chunk, ChunkRequest};
use futures_util::{stream, Stream};
use tracing::Instrument;

use super::peer::Peer;
use super::watch::watched;
use super::{read_chunk, ListBroken, ReadChunk, RowWriter, WriteError};
use crate::blocking;
use crate::problem::Problem;
use crate::state::AppState;

/// About how many bytes one piece of the body holds: a piece never grows actix's write buffer (32 KiB) much past
/// its limit, and needs no large allocation.
const PIECE_BYTES: usize = 16 * 1024;

/// How many bytes of a file one piece holds.
const FILE_PIECE_BYTES: usize = 64 * 1024;

/// What reads the later chunks, and where, and for whom.
struct Source<R> {
    name: &'static str,
    read: Arc<R>,
    state: web::Data<AppState>,
    peer: Peer,
}

/// Why a body ends before its last row.
enum Stop {
    /// A chunk could not be read or written (the cause is logged).
    Broken(Problem),
    /// The client went away: nothing more is read or written for it.
    ClientGone,
}

impl From<Problem> for Stop {
    fn from(problem: Problem) -> Self {
        Self::Broken(problem)
    }
}

/// What the body is doing.
enum Phase {
    /// Writing rows (and, after the last, the footer).
    Rows,
    /// Sending the file the footer returned.
    File(File),
    /// Done: everything is sent, or the body broke off.
    Over,
}

/// Where the body is.
struct Cursor<T, K, W> {
    /// The rows of the chunk in hand not yet written.
    rows: std::vec::IntoIter<T>,
    /// The chunk after them; `None` when they are the last rows of the list.
    next: Option<ChunkRequest<K>>,
    /// The writer; away only while it works on the blocking pool.
    writer: Option<W>,
    /// Whether the header is written.
    opened: bool,
    phase: Phase,
}

/// The body of a list whose `first` chunk is read: each piece made when actix asks for one, inside the request's
/// span, the next chunk read only while `peer` is still there, and the connection closed once a piece stays
/// unasked-for for the idle timeout ([`super::watch`]).
pub(super) fn stream<T, K, R, W>(
    name: &'static str,
    first: Chunk<T, K>,
    read: Arc<R>,
    writer: W,
    state: web::Data<AppState>,
    peer: Peer,
) -> impl Stream<Item = Result<Bytes, ListBroken>> + 'static
where
    T: Send + 'static,
    K: Send + 'static,
    R: ReadChunk<T, K>,
    W: RowWriter<T>,
{
    let (idle, metrics) = (state.protection.stream_idle_timeout, state.metrics.clone());
    let source = Arc::new(Source { name, read, state, peer: peer.clone() });
    let span = tracing::Span::current();
    let cursor = Cursor {
        rows: first.items.into_iter(),
        next: first.next,
        writer: Some(writer),
        opened: false,
        phase: Phase::Rows,
    };
    let body = stream::unfold(cursor, move |mut cursor| {
        let (source, span) = (source.clone(), span.clone());
        async move {
            let piece = next_piece(&source, &mut cursor).instrument(span.clone()).await;
            match piece {
                Ok(Some(piece)) => Some((Ok(piece), cursor)),
                Ok(None) => None,
                Err(stop) => {
                    // The writer, its files and the rows in hand go now, not when actix drops the body.
                    cursor = Cursor {
                        rows: Vec::new().into_iter(),
                        next: None,
                        writer: None,
                        opened: true,
                        phase: Phase::Over,
                    };
                    let _entered = span.enter();
                    match stop {
                        // The cause was logged where it became a problem; this says what the client saw.
                        Stop::Broken(problem) => tracing::warn!(
                            list.name = source.name,
                            error.kind = problem.kind.name(),
                            "a streamed list broke off"
                        ),
                        Stop::ClientGone => {
                            tracing::info!(list.name = source.name, "the client of a streamed list went away; it stops")
                        }
                    }
                    Some((Err(ListBroken(source.name)), cursor))
                }
            }
        }
    });
    watched(name, body, peer, idle, metrics)
}

/// Reads the chunk `request` names for a body that is under way, unless its client is gone.
async fn read_on<T, K, R>(source: &Source<R>, request: ChunkRequest<K>) -> Result<Chunk<T, K>, Stop>
where
    T: Send + 'static,
    K: Send + 'static,
    R: ReadChunk<T, K>,
{
    if source.peer.gone() {
        return Err(Stop::ClientGone);
    }
    source.state.metrics.count_streamed_chunk();
    Ok(read_chunk(&source.state, source.read.clone(), request).await?)
}

/// The next piece of the body, never empty; `None` once the body is over.
async fn next_piece<T, K, R, W>(source: &Source<R>, cursor: &mut Cursor<T, K, W>) -> Result<Option<Bytes>, Stop>
where
    T: Send + 'static,
    K: Send + 'static,
    R: ReadChunk<T, K>,
    W: RowWriter<T>,
{
    loop {
        let piece = match cursor.phase {
            Phase::Over => return Ok(None),
            Phase::File(_) => file_piece(cursor).await?,
            Phase::Rows if W::ON_FILES => chunk_on_files(source, cursor).await?,
            Phase::Rows => rows_in_memory(source, cursor).await?,
        };
        if !piece.is_empty() {
            return Ok(Some(Bytes::from(piece)));
        }
    }
}

/// A writer's failure as the problem that breaks the body off, its cause logged once.
fn unwritten(error: &WriteError) -> Problem {
    Problem::internal(error)
}

/// The problem of a writer found away: it is away only while a hop that has it is awaited, and a body is never
/// polled meanwhile.
fn away() -> Problem {
    Problem::internal(&"the writer of a streamed body is away")
}

/// Once no rows are in hand and none come after them: the footer, and the file it returned, if any, to send.
fn finish<T, K, W: RowWriter<T>>(cursor: &mut Cursor<T, K, W>, out: &mut Vec<u8>) -> Result<(), Problem> {
    let file = cursor.writer.as_mut().ok_or_else(away)?.footer(out).map_err(|e| unwritten(&e))?;
    cursor.phase = file.map_or(Phase::Over, Phase::File);
    Ok(())
}

/// Writes rows in hand until the piece holds about [`PIECE_BYTES`], reading the next chunk first when none are in
/// hand. A chunk goes on only after a full one, so the rows in hand are empty only at the end of the list.
async fn rows_in_memory<T, K, R, W>(source: &Source<R>, cursor: &mut Cursor<T, K, W>) -> Result<Vec<u8>, Stop>
where
    T: Send + 'static,
    K: Send + 'static,
    R: ReadChunk<T, K>,
    W: RowWriter<T>,
{
    if cursor.rows.len() == 0 {
        if let Some(request) = cursor.next.take() {
            let chunk = read_on(source, request).await?;
            (cursor.rows, cursor.next) = (chunk.items.into_iter(), chunk.next);
        }
    }
    let mut out = Vec::with_capacity(PIECE_BYTES + PIECE_BYTES / 8);
    let opened = std::mem::replace(&mut cursor.opened, true);
    let writer = cursor.writer.as_mut().ok_or_else(away)?;
    if !opened {
        writer.header(&mut out).map_err(|e| unwritten(&e))?;
    }
    while out.len() < PIECE_BYTES {
        let Some(row) = cursor.rows.next() else { break };
        writer.row(row, &mut out).map_err(|e| unwritten(&e))?;
    }
    if cursor.rows.len() == 0 && cursor.next.is_none() {
        finish(cursor, &mut out)?;
    }
    Ok(out)
}

/// For a writer on files: the rows in hand, or else the next chunk (read in a hop of its own), written whole in a
/// blocking hop that holds no connection; the header before the first, the footer after the last.
async fn chunk_on_files<T, K, R, W>(source: &Source<R>, cursor: &mut Cursor<T, K, W>) -> Result<Vec<u8>, Stop>
where
    T: Send + 'static,
    K: Send + 'static,
    R: ReadChunk<T, K>,
    W: RowWriter<T>,
{
    let mut rows: Vec<T> = std::mem::take(&mut cursor.rows).collect();
    if rows.is_empty() {
        if let Some(request) = cursor.next.take() {
            let chunk = read_on(source, request).await?;
            (rows, cursor.next) = (chunk.items, chunk.next);
        }
    }
    let last = cursor.next.is_none();
    let opened = std::mem::replace(&mut cursor.opened, true);
    let mut writer = cursor.writer.take().ok_or_else(away)?;
    let (writer, out, file) = blocking::in_span(move || {
        let mut out = Vec::new();
        let write = || -> Result<Option<File>, WriteError> {
            if !opened {
                writer.header(&mut out)?;
            }
            for row in rows {
                writer.row(row, &mut out)?;
            }
            if last {
                writer.footer(&mut out)
            } else {
                Ok(None)
            }
        };
        let file = write().map_err(|e| unwritten(&e))?;
        Ok((writer, out, file))
    })
    .await?;
    cursor.writer = Some(writer);
    if last {
        cursor.phase = file.map_or(Phase::Over, Phase::File);
    }
    Ok(out)
}

/// The next piece of the file the footer returned, read in a blocking hop; the body is over at its end.
async fn file_piece<T, K, W>(cursor: &mut Cursor<T, K, W>) -> Result<Vec<u8>, Problem> {
    let Phase::File(mut file) = std::mem::replace(&mut cursor.phase, Phase::Over) else { return Ok(Vec::new()) };
    let (file, piece) = blocking::in_span(move || {
        let mut piece = vec![0; FILE_PIECE_BYTES];
        let length = file.read(&mut piece).map_err(|error| Problem::internal(&error))?;
        piece.truncate(length);
        Ok((file, piece))
    })
    .await?;
    if !piece.is_empty() {
        cursor.phase = Phase::File(file);
    }
    Ok(piece)
}
