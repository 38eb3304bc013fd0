//! Answer exports: every answer set of a survey that passes the filter, with its answers (and on request its
//! respondent's background data), read in chunks so that a streamed file holds one chunk at a time.

use std::collections::HashMap;

use crate::answer::export::{BackgroundCell, ExportRow};
use crate::answer::{check_conditions, AnswerFilter};
use crate::chunks::{within_budget, Chunk, ChunkRequest};
use crate::error::DomainError;
use crate::ids::{AccountId, AnswerSetId, RespondentId, SurveyId};
use crate::ports::{AnswerRepository, SendoutRepository, SurveyRepository};
use crate::survey::QuestionTree;

use super::{answers, surveys};

/// Answer sets per chunk of an export: a quarter of the lists' [`crate::chunks::CHUNK_SIZE`], because each set
/// comes with its answers (a chunk of 250 sets of ten answers is 2,500 rows). Chunks are read on whichever
/// blocking thread is free, and glibc's malloc keeps what a chunk used in that thread's arena: smaller chunks keep
/// the server's peak memory during an export flat (docs/benchmarks.md, "Insight").
pub const EXPORT_CHUNK_SIZE: usize = 250;

/// Which sets an export holds and what comes with them.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportSelection {
    /// The sets that pass it.
    pub filter: AnswerFilter,
    /// Whether each row carries its respondent's background data (a column per label name).
    pub background_data: bool,
}

/// The start of an export: the survey's question tree, whose items head the columns, the background data label
/// names that head the columns after them (none unless asked for), and the first chunk.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportStart {
    /// The survey's question tree.
    pub tree: QuestionTree,
    /// The background data label names of the exported sets' sendouts, each once.
    pub labels: Vec<String>,
    /// Whether the survey has a translation (its exports then say in which language each set was answered).
    pub translated: bool,
    /// The first answer sets, with their answers, in id order.
    pub chunk: Chunk<ExportRow, AnswerSetId>,
}

/// Starts an export of the survey's answer sets that the selection picks: checks that the survey is the
/// account's (`NotFound` otherwise), then the sendout the filter names (`Invalid` naming `sendoutId` for a
/// sendout of another survey or account) and its conditions (`Invalid` naming `where` for one that does not fit the
/// tree), and reads the survey's tree, the background data label names when the
/// selection asks for them, and the first chunk of at most `size` sets weighing at most `budget` bytes (see
/// [`export_chunk`]).
pub fn start_export(
    uow: &mut (impl AnswerRepository + SendoutRepository + SurveyRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
    selection: &ExportSelection,
    size: usize,
    budget: u64,
) -> Result<ExportStart, DomainError> {
    let (found, tree) = surveys::get_with_tree(uow, account, survey)?;
    answers::check_filter_sendout(uow, account, survey, &selection.filter)?;
    check_conditions(&tree, &selection.filter.conditions).map_err(|error| DomainError::Invalid(vec![error]))?;
    let (translated, _) = uow.page_translation(account, survey, found.language, Some(&[]))?;
    let labels = if selection.background_data {
        uow.export_label_names(account, survey, &selection.filter)?
    } else {
        Vec::new()
    };
    let chunk = export_chunk(uow, account, survey, selection, &ChunkRequest::first(size), budget)?;
    Ok(ExportStart { tree, labels, translated: !translated.is_empty(), chunk })
}

/// One chunk of the survey's answer sets that the selection picks, with their answers, in creation (id) order:
/// after [`start_export`] checked the survey and the filter, a later chunk only reads on after its cursor (the
/// read is scoped to the account and the survey). The sets are weighed before they are read, and the chunk ends
/// where they reach `budget` bytes (after its first set, whatever that weighs): a chunk of large sets holds fewer
/// of them, and the next one reads on after the last it holds. With background data, one more read fetches the
/// chunk's respondents' values.
pub fn export_chunk(
    uow: &mut (impl AnswerRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
    selection: &ExportSelection,
    request: &ChunkRequest<AnswerSetId>,
    budget: u64,
) -> Result<Chunk<ExportRow, AnswerSetId>, DomainError> {
    let weighed = uow.weigh_answer_sets(account, survey, &selection.filter, request)?;
    let taken = within_budget(weighed.iter().map(|set| set.bytes), budget);
    let ids: Vec<AnswerSetId> = weighed[..taken].iter().map(|set| set.key).collect();
    let sets = if ids.is_empty() { Vec::new() } else { uow.answer_sets_with_answers(account, survey, &ids)? };
    let mut background = HashMap::<RespondentId, Vec<BackgroundCell>>::new();
    let respondents: Vec<RespondentId> = sets.iter().filter_map(|set| set.respondent_id).collect();
    if selection.background_data && !respondents.is_empty() {
        for (respondent, cell) in uow.background_cells(account, &respondents)? {
            background.entry(respondent).or_default().push(cell);
        }
    }
    let items = sets
        .into_iter()
        .map(|set| {
            let cells = set.respondent_id.and_then(|id| background.get(&id).cloned()).unwrap_or_default();
            ExportRow { set, background: cells }
        })
        .collect();
    // More may follow a chunk cut by its budget, or one that came back full.
    let more = taken < weighed.len() || weighed.len() >= request.size();
    let next = ids.last().filter(|_| more).map(|last| request.next(*last));
    Ok(Chunk { items, next })
}
