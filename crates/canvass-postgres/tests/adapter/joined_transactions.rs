//! A joined transaction on PostgreSQL (`joined_transaction`, what the HTTP hop that writes an audit event opens):
//! the use cases' own transactions inside it send no `SAVEPOINT` or `RELEASE`, their writes commit with the
//! outer one's, and a nested transaction that rolled back takes the whole transaction down at its commit. The
//! sendout count shift of added respondents waits for the commit, so it holds the sendout's row the shortest time.

use std::sync::{Arc, Mutex};

use canvass_domain::clock::SystemClock;
use canvass_domain::distribution::{
    BackgroundData, DispatchType, MessageInput, RespondentInput, SendoutDraft, SendoutInput,
};
use canvass_domain::ids::{SendoutId, SurveyId};
use canvass_domain::ports::{
    joined_transaction, transaction, CategoryRepository, RespondentRepository, SendoutRepository,
};
use canvass_domain::use_cases::{categories, respondents};
use canvass_domain::{AccountId, DomainError, RepoError};
use canvass_postgres::PgUnitOfWork;
use canvass_testdb::TestDatabase;
use diesel::connection::{AnsiTransactionManager, Instrumentation, InstrumentationEvent, TransactionManager};
use diesel::{Connection, PgConnection};
use time::OffsetDateTime;

use crate::support::{account_at, account_with_survey};

/// The statements a connection sends, as their text starts.
#[derive(Clone, Default)]
struct Sent(Arc<Mutex<Vec<String>>>);

impl Instrumentation for Sent {
    fn on_connection_event(&mut self, event: InstrumentationEvent<'_>) {
        if let InstrumentationEvent::StartQuery { query, .. } = event {
            self.0.lock().unwrap().push(query.to_string());
        }
    }
}

impl Sent {
    fn on(conn: &mut PgConnection) -> Self {
        let sent = Self::default();
        conn.set_instrumentation(sent.clone());
        sent
    }

    /// The statements sent since the last call, each by its first word.
    fn take_words(&self) -> Vec<String> {
        let taken = std::mem::take(&mut *self.0.lock().unwrap());
        taken.iter().map(|query| query.split_whitespace().next().unwrap_or_default().to_ascii_uppercase()).collect()
    }
}

/// A use case that writes in a transaction of its own: a category.
fn add(tx: &mut PgUnitOfWork<'_>, account: AccountId, name: &str) -> Result<(), DomainError> {
    transaction(tx, |tx| categories::create(tx, &SystemClock, account, name).map(drop))
}

fn names(uow: &mut PgUnitOfWork<'_>, account: AccountId) -> Vec<String> {
    let mut names: Vec<String> = uow.list_categories(account).unwrap().into_iter().map(|c| c.name).collect();
    names.sort();
    names
}

#[test]
fn use_cases_inside_a_joined_transaction_send_no_savepoints_and_commit_with_it() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let sent = Sent::on(&mut conn);
    let mut uow = PgUnitOfWork::new(&mut conn);
    let account = account_at(&mut uow, "a@acme.example", OffsetDateTime::now_utc());
    sent.take_words();

    joined_transaction(&mut uow, |tx| {
        add(tx, account, "Staff")?;
        add(tx, account, "Guests")
    })
    .unwrap();
    assert_eq!(sent.take_words(), ["BEGIN", "INSERT", "INSERT", "COMMIT"]);
    assert_eq!(names(&mut uow, account), ["Guests", "Staff"]);

    // The same under an ordinary transaction: the use case's transaction is a savepoint.
    sent.take_words();
    transaction(&mut uow, |tx| add(tx, account, "Visitors")).unwrap();
    assert_eq!(sent.take_words(), ["BEGIN", "SAVEPOINT", "INSERT", "RELEASE", "COMMIT"], "the comparison");
}

#[test]
fn a_nested_rollback_inside_a_joined_transaction_writes_nothing_and_fails_its_commit() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let mut uow = PgUnitOfWork::new(&mut conn);
    let account = account_at(&mut uow, "a@acme.example", OffsetDateTime::now_utc());

    // The second use case fails after a write and its error is swallowed: the joined transaction cannot undo
    // it alone, so nothing of the whole stands and the commit says so.
    let outcome = joined_transaction(&mut uow, |tx| {
        add(tx, account, "Staff")?;
        let refused = transaction(tx, |tx| {
            add(tx, account, "Guests")?;
            Err::<(), _>(DomainError::invalid("name", "refused after a write"))
        });
        assert!(refused.is_err());
        Ok(())
    });
    assert!(matches!(outcome, Err(DomainError::Repo(RepoError::Other(_)))), "got {outcome:?}");
    assert!(names(&mut uow, account).is_empty(), "nothing was written");

    // A failure that is not swallowed rolls the whole back as an ordinary transaction does; the connection serves on.
    let outcome = joined_transaction(&mut uow, |tx| {
        add(tx, account, "Staff")?;
        Err::<(), _>(DomainError::invalid("name", "refused"))
    });
    assert!(matches!(outcome, Err(DomainError::Invalid(_))));
    joined_transaction(&mut uow, |tx| add(tx, account, "Guests")).unwrap();
    assert_eq!(names(&mut uow, account), ["Guests"]);
    let depth = AnsiTransactionManager::transaction_manager_status_mut(&mut conn).transaction_depth().unwrap();
    assert_eq!(depth, None, "no transaction is left open");
}

/// A LOGIN sendout of a new account's survey.
fn login_sendout(uow: &mut PgUnitOfWork<'_>) -> (AccountId, SurveyId, SendoutId) {
    let (account, survey) = account_with_survey(uow, "a@acme.example", OffsetDateTime::now_utc());
    let input = SendoutInput {
        name: "Staff".into(),
        kind: DispatchType::Login,
        message: MessageInput::default(),
        expiry_date: None,
        language: None,
        open_link: Default::default(),
    };
    let sendout = uow.insert_sendout(account, survey, &SendoutDraft::new(input).unwrap(), OffsetDateTime::now_utc());
    (account, survey, sendout.unwrap().id)
}

fn add_respondent(
    tx: &mut PgUnitOfWork<'_>,
    (account, survey, sendout): (AccountId, SurveyId, SendoutId),
    contact: &str,
) -> Result<(), DomainError> {
    let input = RespondentInput {
        contact_details: contact.into(),
        send_mail: false,
        background_data: BackgroundData::default(),
        language: None,
    };
    respondents::add(tx, &SystemClock, account, survey, sendout, input).map(drop)
}

fn counts(uow: &mut PgUnitOfWork<'_>, (account, survey, sendout): (AccountId, SurveyId, SendoutId)) -> (i64, i64) {
    let read = uow.find_sendout(account, survey, sendout, false).unwrap().unwrap();
    (read.respondent_count, read.pending_count)
}

#[test]
fn a_sendouts_count_shift_is_the_last_statement_before_the_commit_and_goes_with_a_rolled_back_savepoint() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let sent = Sent::on(&mut conn);
    let mut uow = PgUnitOfWork::new(&mut conn);
    let sendout = login_sendout(&mut uow);

    // An audited hop: the respondent, its event, the hop's own write (a category stands in for the audit event),
    // and only then the sendout's row, held from there to the commit.
    sent.take_words();
    joined_transaction(&mut uow, |tx| {
        add_respondent(tx, sendout, "one@acme.example")?;
        categories::create(tx, &SystemClock, sendout.0, "Staff").map(drop)
    })
    .unwrap();
    let words = sent.take_words();
    assert_eq!(words[words.len() - 4..], ["INSERT", "INSERT", "UPDATE", "COMMIT"], "{words:?}");
    assert_eq!(counts(&mut uow, sendout), (1, 1));

    // A keyed hop's savepoints: a use case that rolled back takes its shift with it; one that committed keeps it.
    transaction(&mut uow, |tx| {
        add_respondent(tx, sendout, "two@acme.example")?;
        let refused = transaction(tx, |tx| {
            add_respondent(tx, sendout, "three@acme.example")?;
            Err::<(), _>(DomainError::invalid("name", "refused after a write"))
        });
        assert!(refused.is_err());
        Ok(())
    })
    .unwrap();
    assert_eq!(counts(&mut uow, sendout), (2, 2));

    // Outside a transaction the shift is written at once; a failed transaction writes none.
    uow.insert_respondents(sendout.0, sendout.2, &[], OffsetDateTime::now_utc()).unwrap();
    let failed = joined_transaction(&mut uow, |tx| {
        add_respondent(tx, sendout, "four@acme.example")?;
        Err::<(), _>(DomainError::invalid("name", "refused"))
    });
    assert!(failed.is_err());
    assert_eq!(counts(&mut uow, sendout), (2, 2));
    add_respondent(&mut uow, sendout, "five@acme.example").unwrap();
    assert_eq!(counts(&mut uow, sendout), (3, 3));
}
