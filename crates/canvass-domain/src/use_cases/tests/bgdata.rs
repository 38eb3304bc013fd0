//! Background data documents: a document is its sendout's, its labels the sendout's and its rows the sendout's
//! respondents; cells are read, edited and deleted only under labels of the document, and a new row is a new
//! Pending respondent, refused when its contact is blocklisted.

use crate::distribution::{BackgroundData, DispatchType, RespondentStatus};
use crate::error::{ConflictKind, DomainError};
use crate::ids::{BgDocumentId, LabelId, RespondentId};
use crate::language::Language;
use crate::use_cases::bgdata::{add_row, delete_cells, edit_row, get, labels, list, read_row};
use crate::AccountId;

use super::seeds::distribution::ACCOUNT;
use super::seeds::{invalid_fields, not_found, At, NOW};
use crate::testing::Memory;

const DEPARTMENT: LabelId = LabelId::new(50);
const OFFICE: LabelId = LabelId::new(51);
const UNKNOWN: LabelId = LabelId::new(99);

fn cells(pairs: &[(LabelId, &str)]) -> BackgroundData {
    pairs.iter().map(|(label, value)| (*label, (*value).to_owned())).collect()
}

/// An EMAIL sendout's document with labels Department and Office and one respondent, Ann, in Sales.
fn document() -> (Memory, BgDocumentId, RespondentId) {
    let (mut fake, _, sendout) = Memory::with_sendout(DispatchType::Email);
    fake.seed_label(ACCOUNT, sendout, DEPARTMENT);
    fake.seed_label(ACCOUNT, sendout, OFFICE);
    let ann = fake.pending(sendout, "ann@example.com");
    fake.state.respondents[0].row.background_data = cells(&[(DEPARTMENT, "Sales")]);
    (fake, BgDocumentId::new(sendout.get()), ann)
}

#[test]
fn a_document_and_its_labels_are_read_within_their_account_only() {
    let (mut fake, id, ann) = document();
    assert_eq!(list(&mut fake, ACCOUNT).unwrap().len(), 1);
    assert_eq!(get(&mut fake, ACCOUNT, id).unwrap().row_count, 1);
    let label_ids: Vec<LabelId> = labels(&mut fake, ACCOUNT, id).unwrap().into_iter().map(|l| l.id).collect();
    assert_eq!(label_ids, [DEPARTMENT, OFFICE]);

    let other = AccountId::new(2);
    assert!(list(&mut fake, other).unwrap().is_empty());
    assert!(not_found(&get(&mut fake, other, id), "background data document"));
    assert!(not_found(&read_row(&mut fake, other, id, ann, &[DEPARTMENT]), "background data document"));
    assert!(not_found(&get(&mut fake, ACCOUNT, BgDocumentId::new(999)), "background data document"));
}

#[test]
fn a_row_gives_the_requested_cells_that_have_values() {
    let (mut fake, id, ann) = document();
    let row = read_row(&mut fake, ACCOUNT, id, ann, &[DEPARTMENT, OFFICE]).unwrap();
    assert_eq!((row.respondent_id, row.cells), (ann, cells(&[(DEPARTMENT, "Sales")])));

    let fields = invalid_fields(read_row(&mut fake, ACCOUNT, id, ann, &[OFFICE, UNKNOWN]));
    assert_eq!(fields, ["labels[1]"], "a label of no document");
    assert!(not_found(&read_row(&mut fake, ACCOUNT, id, RespondentId::new(999), &[OFFICE]), "row"));
}

#[test]
fn cells_are_edited_and_deleted_under_the_documents_labels_only() {
    let (mut fake, id, ann) = document();
    let edited = edit_row(&mut fake, ACCOUNT, id, ann, cells(&[(OFFICE, "Oslo")])).unwrap();
    assert_eq!(edited.cells, cells(&[(DEPARTMENT, "Sales"), (OFFICE, "Oslo")]), "the whole row");

    let refused = edit_row(&mut fake, ACCOUNT, id, ann, cells(&[(UNKNOWN, "x"), (OFFICE, "Bergen")]));
    assert_eq!(invalid_fields(refused), [format!("cellData.{UNKNOWN}")]);
    assert_eq!(fake.state.respondents[0].row.background_data[&OFFICE], "Oslo", "nothing changed");
    assert_eq!(fake.transactions.rolled_back, 1);

    let left = delete_cells(&mut fake, ACCOUNT, id, ann, &[DEPARTMENT]).unwrap();
    assert_eq!(left.cells, cells(&[(OFFICE, "Oslo")]));
    assert_eq!(invalid_fields(delete_cells(&mut fake, ACCOUNT, id, ann, &[UNKNOWN])), ["labels[0]"]);
    let missing = edit_row(&mut fake, ACCOUNT, id, RespondentId::new(999), cells(&[(OFFICE, "Oslo")]));
    assert!(not_found(&missing, "row"));
}

#[test]
fn a_new_row_is_a_new_pending_respondent_unless_its_contact_is_blocklisted() {
    let (mut fake, id, _) = document();
    let row = add_row(
        &mut fake,
        &At(NOW),
        ACCOUNT,
        id,
        "bob@example.com".into(),
        cells(&[(OFFICE, "Oslo")]),
        Some(Language::Nb),
    );
    let row = row.unwrap();
    let bob = fake.respondent_rows().into_iter().find(|r| r.id == row.respondent_id).unwrap();
    assert_eq!((bob.contact_details.as_str(), bob.status), ("bob@example.com", RespondentStatus::Pending));
    assert_eq!(bob.language, Some(Language::Nb), "a row may name the language its respondent sees");
    assert_eq!(row.cells, cells(&[(OFFICE, "Oslo")]));

    fake.seed_blocked(ACCOUNT, "carol@example.com");
    let blocked = add_row(&mut fake, &At(NOW), ACCOUNT, id, "Carol@Example.com".into(), BackgroundData::new(), None);
    assert!(matches!(blocked, Err(DomainError::Conflict { kind: ConflictKind::Blocklisted, .. })), "{blocked:?}");
    let unknown = add_row(&mut fake, &At(NOW), ACCOUNT, id, "dan@example.com".into(), cells(&[(UNKNOWN, "x")]), None);
    assert_eq!(invalid_fields(unknown), [format!("cellData.{UNKNOWN}")], "paths name the document's cells");
    assert_eq!(fake.state.respondents.len(), 2, "Ann and Bob only");
}
