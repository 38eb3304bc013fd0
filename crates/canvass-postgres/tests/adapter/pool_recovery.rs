//! The pool after an outage: the connection that meets it is dropped, and the others the outage took are pinged
//! and replaced before they are lent, so an outage fails the request that finds it, not one per pooled connection.

use std::time::Duration;

use canvass_domain::ids::AccountId;
use canvass_domain::ports::SurveyRepository;
use canvass_domain::{DomainError, RepoError};
use canvass_postgres::{connect_pool_with_timeout, PoolConnection};
use canvass_testdb::TestDatabase;
use diesel::{sql_query, RunQueryDsl};

fn read(conn: &mut PoolConnection) -> Result<(), DomainError> {
    conn.run(|uow| Ok(uow.list_surveys(AccountId::new(1)).map(drop)?))
}

#[test]
fn an_outage_fails_the_request_that_finds_it_and_no_other() {
    let db = TestDatabase::new();
    let pool = connect_pool_with_timeout(db.url(), 4, Duration::from_secs(5)).unwrap();
    let mut warm: Vec<_> = (0..4).map(|_| pool.get().unwrap()).collect();
    for conn in &mut warm {
        read(conn).unwrap();
    }
    drop(warm);
    assert_eq!(pool.state().idle_connections, 4);

    sql_query(
        "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity \
         WHERE datname = current_database() AND pid <> pg_backend_pid()",
    )
    .execute(&mut db.connect())
    .unwrap();

    let found = read(&mut pool.get().unwrap());
    assert!(matches!(found, Err(DomainError::Repo(RepoError::Unavailable(_)))), "{found:?}");
    let mut after: Vec<_> = (0..4).map(|_| pool.get().unwrap()).collect();
    for conn in &mut after {
        read(conn).expect("a connection lent after the outage was found works");
    }
}
