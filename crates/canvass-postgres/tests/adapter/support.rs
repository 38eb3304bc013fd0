//! What the adapter's tests share: a new account, made as `canvass account create` makes it (through the use case,
//! on the store) or written through a unit of work at a time the test chooses, an account with a survey, and a
//! survey stored with its tree read back, and an active sendout with Pending respondents written with SQL.

use canvass_domain::account::{ApiKey, NewAccount};
use canvass_domain::clock::SystemClock;
use canvass_domain::ids::{AccountId, SurveyId};
use canvass_domain::ports::RepoResult;
use canvass_domain::ports::{AccountRepository, StoreExt, SurveyRepository};
use canvass_domain::survey::{QuestionTree, Survey, SurveyDraft, SurveyInput};
use canvass_domain::use_cases::accounts;
use canvass_postgres::{PgStore, PgUnitOfWork};
use diesel::sql_types::{BigInt, Timestamptz};
use diesel::{PgConnection, QueryableByName, RunQueryDsl};
use time::OffsetDateTime;

/// A new account in `store`, made by the use case as `canvass account create` makes it.
pub fn account(store: &PgStore, name: &str, email: &str) -> AccountId {
    store.with_uow(|uow| accounts::create_account(uow, &SystemClock, name, email)).unwrap().account_id
}

/// A new account named Acme with a key, written through `uow` at `at`.
pub fn account_at(uow: &mut PgUnitOfWork<'_>, email: &str, at: OffsetDateTime) -> AccountId {
    uow.create_account(&NewAccount::new("Acme", email).unwrap(), &ApiKey::generate(), at).unwrap().0
}

#[derive(QueryableByName)]
struct Id {
    #[diesel(sql_type = BigInt)]
    id: i64,
}

/// [`account_at`] with a survey named Pulse (no pages), created at `at` too.
pub fn account_with_survey(uow: &mut PgUnitOfWork<'_>, email: &str, at: OffsetDateTime) -> (AccountId, SurveyId) {
    let account = account_at(uow, email, at);
    let input = SurveyInput { name: "Pulse".into(), ..Default::default() };
    let survey = uow.insert_survey(account, &SurveyDraft::new(input, at).unwrap(), at).unwrap();
    (account, survey.id)
}

/// Stores `draft` for `account` and reads its tree back, with the ids the store gave.
pub fn insert_with_tree(
    uow: &mut PgUnitOfWork<'_>,
    account: AccountId,
    draft: &SurveyDraft,
    now: OffsetDateTime,
) -> RepoResult<(Survey, QuestionTree)> {
    let survey = uow.insert_survey(account, draft, now)?;
    let tree = uow.question_tree(account, survey.id)?;
    Ok((survey, tree))
}

/// An active EMAIL sendout of `survey` with `n` Pending respondents added a day before `now`.
pub fn sendout_with_pending(conn: &mut PgConnection, account: i64, survey: i64, n: i64, now: OffsetDateTime) -> i64 {
    let sendout = diesel::sql_query(
        "INSERT INTO sendouts (account_id, survey_id, name, dispatch_type, status, created_at, sender, subject, \
         message, respondent_count, pending_count) VALUES ($1, $2, 'Invite', 'EMAIL', 'Active', $4, \
         'hr@acme.example', 'Your view', 'Answer: {{surveyLink}}', $3, $3) RETURNING id",
    )
    .bind::<BigInt, _>(account)
    .bind::<BigInt, _>(survey)
    .bind::<BigInt, _>(n)
    .bind::<Timestamptz, _>(now)
    .get_result::<Id>(conn)
    .unwrap()
    .id;
    diesel::sql_query(
        "INSERT INTO respondents (account_id, sendout_id, contact_details, contact_key, send_mail, background_data, \
         status, token, added_at) \
         SELECT $1, $2, 'p' || i || '@example.com', 'p' || i || '@example.com', true, '{}', 'Pending', \
                'token-' || $2 || '-' || i, $4 - interval '1 day' FROM generate_series(1, $3) AS i",
    )
    .bind::<BigInt, _>(account)
    .bind::<BigInt, _>(sendout)
    .bind::<BigInt, _>(n)
    .bind::<Timestamptz, _>(now)
    .execute(conn)
    .unwrap();
    sendout
}
