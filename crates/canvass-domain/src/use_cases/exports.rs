//! Answer exports: every answer set of a survey that passes the filter, with its answers, read in chunks so that a
//! streamed file holds one chunk at a time.

use crate::answer::{AnswerFilter, AnswerSet};
use crate::chunks::{within_budget, Chunk, ChunkRequest};
use crate::error::DomainError;
use crate::ids::{AccountId, AnswerSetId, SurveyId};
use crate::ports::{AnswerRepository, SendoutRepository, SurveyRepository};
use crate::survey::QuestionTree;

use super::{answers, surveys};

/// Answer sets per chunk of an export: a quarter of the lists' [`crate::chunks::CHUNK_SIZE`], because each set
/// comes with its answers (a chunk of 250 sets of ten answers is 2,500 rows). Chunks are read on whichever
/// blocking thread is free, and glibc's malloc keeps what a chunk used in that thread's arena: smaller chunks keep
/// the server's peak memory during an export flat (docs/benchmarks.md, "Insight").
pub const EXPORT_CHUNK_SIZE: usize = 250;

/// The start of an export: the survey's question tree, whose items head the columns, and the first chunk.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportStart {
    /// The survey's question tree.
    pub tree: QuestionTree,
    /// The first answer sets, with their answers, in id order.
    pub chunk: Chunk<AnswerSet, AnswerSetId>,
}

/// Starts an export of the survey's answer sets that pass the filter: checks that the survey is the account's
/// (`NotFound` otherwise), then the sendout the filter names (`Invalid` naming `sendoutId` for a sendout of another
/// survey or account), and reads the survey's tree and the first chunk of at most `size` sets weighing at most
/// `budget` bytes (see [`export_chunk`]).
pub fn start_export(
    uow: &mut (impl AnswerRepository + SendoutRepository + SurveyRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
    filter: &AnswerFilter,
    size: usize,
    budget: u64,
) -> Result<ExportStart, DomainError> {
    let (_, tree) = surveys::get_with_tree(uow, account, survey)?;
    answers::check_filter_sendout(uow, account, survey, filter)?;
    let chunk = export_chunk(uow, account, survey, filter, &ChunkRequest::first(size), budget)?;
    Ok(ExportStart { tree, chunk })
}

/// One chunk of the survey's answer sets that pass the filter, with their answers, in creation (id) order: after
/// [`start_export`] checked the survey and the filter, a later chunk only reads on after its cursor (the read is
/// scoped to the account and the survey). The sets are weighed before they are read, and the chunk ends where
/// they reach `budget` bytes (after its first set, whatever that weighs): a chunk of large sets holds fewer of
/// them, and the next one reads on after the last it holds.
pub fn export_chunk(
    uow: &mut (impl AnswerRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
    filter: &AnswerFilter,
    request: &ChunkRequest<AnswerSetId>,
    budget: u64,
) -> Result<Chunk<AnswerSet, AnswerSetId>, DomainError> {
    let weighed = uow.weigh_answer_sets(account, survey, filter, request)?;
    let taken = within_budget(weighed.iter().map(|set| set.bytes), budget);
    let ids: Vec<AnswerSetId> = weighed[..taken].iter().map(|set| set.key).collect();
    let items = if ids.is_empty() { Vec::new() } else { uow.answer_sets_with_answers(account, survey, &ids)? };
    // More may follow a chunk cut by its budget, or one that came back full.
    let more = taken < weighed.len() || weighed.len() >= request.size();
    let next = ids.last().filter(|_| more).map(|last| request.next(*last));
    Ok(Chunk { items, next })
}
