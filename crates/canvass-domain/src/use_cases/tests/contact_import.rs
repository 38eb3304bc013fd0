//! Importing contacts: rows in file order create or update (by email, then phone; an empty cell leaves a field),
//! a row naming two contacts or breaking a rule is rejected by line, repeats within a file and across chunks meet
//! the same contact, and an unreadable file changes nothing.

use crate::directory::{ContactInput, ImportHeader};
use crate::error::DomainError;
use crate::language::Language;
use crate::testing::Memory;
use crate::use_cases::contact_import::{import, ImportLine, ImportOutcome, IMPORT_CHUNK};
use crate::use_cases::contacts;

use super::seeds::distribution::ACCOUNT;
use super::seeds::{At, NOW};

const HEADER: [&str; 5] = ["email", "phone", "firstName", "language", "tier"];

fn lines(rows: &[[&str; 5]]) -> Vec<Result<ImportLine, DomainError>> {
    let header = ImportHeader::new(&HEADER).unwrap();
    let line = |(index, row): (usize, &[&str; 5])| Ok(ImportLine { line: index as u64 + 2, row: header.row(*row) });
    rows.iter().enumerate().map(line).collect()
}

fn run(fake: &mut Memory, rows: &[[&str; 5]]) -> ImportOutcome {
    import(fake, &At(NOW), ACCOUNT, lines(rows).into_iter()).unwrap()
}

fn stored(fake: &Memory) -> Vec<(Option<&str>, Option<&str>, Option<&str>)> {
    let mut all: Vec<_> = fake
        .state
        .contacts
        .iter()
        .map(|(_, c)| (c.email.as_deref(), c.phone.as_deref(), c.first_name.as_deref()))
        .collect();
    all.sort();
    all
}

#[test]
fn rows_create_or_update_by_email_then_phone_and_empty_cells_leave_fields() {
    let (mut fake, _, _) = Memory::with_sendout(crate::distribution::DispatchType::Email);
    let anna = ContactInput {
        email: Some("anna@example.com".into()),
        first_name: Some("Anna".into()),
        language: Some(Language::Sv),
        ..ContactInput::default()
    };
    contacts::create(&mut fake, &At(NOW), ACCOUNT, anna).unwrap();
    contacts::create(
        &mut fake,
        &At(NOW),
        ACCOUNT,
        ContactInput { phone: Some("+4790000002".into()), ..Default::default() },
    )
    .unwrap();
    let outcome = run(
        &mut fake,
        &[
            ["ANNA@example.com", "+4790000001", "", "", "gold"],
            ["", "+4790000002", "Bo", "", ""],
            ["cleo@example.com", "", "Cleo", "xx", ""],
            ["cleo@example.com", "", "Cleo", "fi", ""],
            ["", "+4790000001", "Anna-Li", "", ""],
            ["anna@example.com", "+4790000002", "", "", ""],
            ["not an address", "", "", "", ""],
            ["", "", "Nobody", "", ""],
        ],
    );
    assert_eq!((outcome.created, outcome.updated), (1, 3));
    let rejected: Vec<(u64, &str)> = outcome.rejected.iter().map(|r| (r.line, r.reason.as_str())).collect();
    assert_eq!(rejected[0].0, 4);
    assert!(rejected[0].1.starts_with("language: "));
    assert_eq!(rejected[1], (7, "email and phone belong to two different contacts"));
    assert_eq!(rejected[2], (8, "email: must be an email address"));
    assert_eq!(rejected[3], (9, "email: or phone is mandatory"));
    assert_eq!(
        stored(&fake),
        [
            (None, Some("+4790000002"), Some("Bo")),
            (Some("ANNA@example.com"), Some("+4790000001"), Some("Anna-Li")),
            (Some("cleo@example.com"), None, Some("Cleo")),
        ]
    );
    let anna = &fake.state.contacts.iter().find(|(_, c)| c.phone.as_deref() == Some("+4790000001")).unwrap().1;
    assert_eq!((anna.language, anna.attributes.get("tier").map(String::as_str)), (Some(Language::Sv), Some("gold")));
    assert_eq!((fake.transactions.committed, fake.transactions.rolled_back), (1, 0), "one transaction");
}

#[test]
fn a_contact_made_in_one_chunk_is_updated_in_the_next() {
    let (mut fake, _, _) = Memory::with_sendout(crate::distribution::DispatchType::Email);
    let mut rows = vec![["same@example.com", "", "First", "", ""]; 1];
    rows.extend((0..IMPORT_CHUNK).map(|_| ["", "", "", "", ""]));
    rows.push(["SAME@example.com", "+4790000009", "Last", "", ""]);
    let outcome = run(&mut fake, &rows);
    assert_eq!((outcome.created, outcome.updated, outcome.rejected.len()), (1, 1, IMPORT_CHUNK));
    assert_eq!(stored(&fake), [(Some("SAME@example.com"), Some("+4790000009"), Some("Last"))]);
}

#[test]
fn an_unreadable_file_changes_nothing() {
    let (mut fake, _, _) = Memory::with_sendout(crate::distribution::DispatchType::Email);
    let mut given = lines(&[["anna@example.com", "", "Anna", "", ""]]);
    given.push(Err(DomainError::invalid("line 3", "has 2 cells where the header has 5")));
    let error = import(&mut fake, &At(NOW), ACCOUNT, given.into_iter()).unwrap_err();
    assert!(matches!(error, DomainError::Invalid(ref errors) if errors[0].field == "line 3"));
    assert!(fake.state.contacts.is_empty());
    assert_eq!(fake.transactions.rolled_back, 1);
}
