//! Reading the long lists in chunks: the first chunk checks the owner of the list (404 for unknown and other
//! accounts' ids), each later one reads on after the last key, and together they give the whole list once, in
//! key order, with the filter applied across chunks.

use crate::answer::AnswerFilter;
use crate::chunks::{Chunk, ChunkRequest};
use crate::distribution::{BlocklistEntry, BlocklistType, DispatchType};
use crate::error::{DomainError, Resource};
use crate::ids::{AccountId, AnswerSetId, SendoutId, SurveyId};
use crate::use_cases::{answers, blocklist, respondents};

use super::seeds::distribution::ACCOUNT;
use super::seeds::NOW;
use crate::testing::Memory;

/// Reads a whole list chunk by chunk, as the HTTP layer does; returns its rows and how many chunks it read.
fn walk<T, K>(size: usize, read: impl FnMut(&ChunkRequest<K>) -> Result<Chunk<T, K>, DomainError>) -> (Vec<T>, usize) {
    read_on(Some(ChunkRequest::first(size)), read)
}

/// Reads chunks from `request` on until the list ends; returns the rows and how many chunks it read.
fn read_on<T, K>(
    mut request: Option<ChunkRequest<K>>,
    mut read: impl FnMut(&ChunkRequest<K>) -> Result<Chunk<T, K>, DomainError>,
) -> (Vec<T>, usize) {
    let (mut rows, mut reads) = (Vec::new(), 0);
    while let Some(current) = request {
        let chunk = read(&current).unwrap();
        reads += 1;
        assert!(chunk.items.len() <= current.size(), "a chunk holds at most its size");
        rows.extend(chunk.items);
        request = chunk.next;
    }
    (rows, reads)
}

fn ids(sets: &[crate::answer::AnswerSet]) -> Vec<i64> {
    sets.iter().map(|set| set.id.get()).collect()
}

#[test]
fn answer_sets_come_whole_and_in_order_across_chunks() {
    let (mut fake, survey) = Memory::with_sets(2_500);
    let filter = AnswerFilter::default();
    let (sets, reads) = walk(1_000, |request| answers::list_chunk(&mut fake, ACCOUNT, survey, &filter, request));
    assert_eq!(ids(&sets), (1..=2_500).collect::<Vec<_>>());
    assert_eq!(reads, 3, "1000 + 1000 + 500: the short chunk ends the list");
}

#[test]
fn a_list_that_fills_its_last_chunk_ends_with_an_empty_read() {
    let (mut fake, survey) = Memory::with_sets(6);
    let filter = AnswerFilter::default();
    let (sets, reads) = walk(3, |request| answers::list_chunk(&mut fake, ACCOUNT, survey, &filter, request));
    assert_eq!(ids(&sets), [1, 2, 3, 4, 5, 6]);
    assert_eq!(reads, 3);
    assert_eq!(fake.hooks.chunks_read, 3);
}

#[test]
fn an_empty_list_is_one_empty_chunk() {
    let (mut fake, survey) = Memory::with_sets(0);
    let filter = AnswerFilter::default();
    let first = answers::list_chunk(&mut fake, ACCOUNT, survey, &filter, &ChunkRequest::first(10)).unwrap();
    assert_eq!(first, Chunk { items: Vec::new(), next: None });
}

#[test]
fn the_filter_applies_across_chunks() {
    let (mut fake, survey) = Memory::with_sets(25);
    let completed = AnswerFilter::new(None, None, None, true).unwrap();
    let (sets, _) = walk(4, |request| answers::list_chunk(&mut fake, ACCOUNT, survey, &completed, request));
    assert_eq!(ids(&sets), (2..=24).step_by(2).collect::<Vec<_>>());

    let window =
        AnswerFilter::new(Some(NOW + time::Duration::minutes(5)), Some(NOW + time::Duration::minutes(12)), None, false)
            .unwrap();
    let (sets, _) = walk(3, |request| answers::list_chunk(&mut fake, ACCOUNT, survey, &window, request));
    assert_eq!(ids(&sets), (5..=12).collect::<Vec<_>>());
}

#[test]
fn the_first_chunk_of_an_unknown_or_foreign_survey_is_not_found() {
    let (mut fake, survey) = Memory::with_sets(3);
    let filter = AnswerFilter::default();
    let first = ChunkRequest::first(10);
    let unknown = answers::list_chunk(&mut fake, ACCOUNT, SurveyId::new(99), &filter, &first);
    assert!(matches!(unknown, Err(DomainError::NotFound(Resource::Survey))), "{unknown:?}");
    let foreign = answers::list_chunk(&mut fake, AccountId::new(2), survey, &filter, &first);
    assert!(matches!(foreign, Err(DomainError::NotFound(Resource::Survey))), "{foreign:?}");
    assert_eq!(fake.hooks.chunks_read, 0, "nothing is read for a survey that is not the account's");
    // A later chunk only reads on, and another account's read finds nothing.
    let later = ChunkRequest::after(AnswerSetId::new(0), 10);
    let foreign_later = answers::list_chunk(&mut fake, AccountId::new(2), survey, &filter, &later).unwrap();
    assert!(foreign_later.items.is_empty());
}

#[test]
fn rows_added_while_a_list_is_read_appear_only_beyond_the_cursor() {
    let (mut fake, survey) = Memory::with_sets(4);
    let filter = AnswerFilter::default();
    let first = answers::list_chunk(&mut fake, ACCOUNT, survey, &filter, &ChunkRequest::first(2)).unwrap();
    assert_eq!(ids(&first.items), [1, 2]);
    // Between two chunks, a set is added (id 5) and set 1, already read, is removed.
    let mut added = fake.state.answer_sets[3].set.clone();
    added.id = AnswerSetId::new(5);
    fake.seed_answer_set(ACCOUNT, added);
    fake.state.answer_sets.remove(0);
    let (rest, _) = read_on(first.next, |request| answers::list_chunk(&mut fake, ACCOUNT, survey, &filter, request));
    assert_eq!(ids(&rest), [3, 4, 5], "each set once, in id order, the new one included");
}

#[test]
fn respondents_come_whole_and_in_order_and_an_unknown_sendout_is_not_found() {
    let (mut fake, survey, sendout) = Memory::with_sendout(DispatchType::Email);
    let added: Vec<_> = (0..7).map(|n| fake.pending(sendout, &format!("p{n}@example.com"))).collect();
    let (found, reads) = walk(3, |request| respondents::list_chunk(&mut fake, ACCOUNT, survey, sendout, request));
    assert_eq!(found.iter().map(|r| r.id).collect::<Vec<_>>(), added);
    assert_eq!(reads, 3);

    let first = ChunkRequest::first(3);
    let unknown = respondents::list_chunk(&mut fake, ACCOUNT, survey, SendoutId::new(99), &first);
    assert!(matches!(unknown, Err(DomainError::NotFound(Resource::Sendout))), "{unknown:?}");
    let wrong_survey = respondents::list_chunk(&mut fake, ACCOUNT, SurveyId::new(99), sendout, &first);
    assert!(matches!(wrong_survey, Err(DomainError::NotFound(Resource::Survey))), "{wrong_survey:?}");
    let foreign = respondents::list_chunk(&mut fake, AccountId::new(2), survey, sendout, &first);
    assert!(matches!(foreign, Err(DomainError::NotFound(_))), "{foreign:?}");
}

#[test]
fn the_blocklist_comes_in_creation_order_then_by_contact_key() {
    let (mut fake, _, _) = Memory::with_sendout(DispatchType::Email);
    let entry = |contact: &str, minutes: i64| BlocklistEntry {
        contact_details: contact.into(),
        kind: BlocklistType::Blocked,
        created_at: NOW + time::Duration::minutes(minutes),
    };
    // Stored out of order; three share an instant and sort by their keys (lower-cased email addresses).
    let entries = [
        entry("late@example.com", 9),
        entry("Carol@example.com", 1),
        entry("alice@example.com", 1),
        entry("BOB@example.com", 1),
        entry("first@example.com", 0),
    ];
    let keyed = entries.map(|e| (ACCOUNT, crate::distribution::contact_key(&e.contact_details), e));
    fake.state.blocklist = keyed.to_vec();
    let (entries, reads) = walk(2, |request| blocklist::list_chunk(&mut fake, ACCOUNT, request));
    let contacts: Vec<&str> = entries.iter().map(|e| e.contact_details.as_str()).collect();
    assert_eq!(
        contacts,
        ["first@example.com", "alice@example.com", "BOB@example.com", "Carol@example.com", "late@example.com"]
    );
    assert_eq!(reads, 3);
    let foreign = blocklist::list_chunk(&mut fake, AccountId::new(2), &ChunkRequest::first(2)).unwrap();
    assert!(foreign.items.is_empty() && foreign.next.is_none());
}
