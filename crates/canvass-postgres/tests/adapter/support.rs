//! What the adapter's tests share: a new account, made as `canvass account create` makes it (through the use case,
//! on the store) or written through a unit of work at a time the test chooses, an account with a survey, and a
//! survey stored with its tree read back.

use canvass_domain::account::{ApiKey, NewAccount};
use canvass_domain::clock::SystemClock;
use canvass_domain::ids::{AccountId, SurveyId};
use canvass_domain::ports::RepoResult;
use canvass_domain::ports::{AccountRepository, StoreExt, SurveyRepository};
use canvass_domain::survey::{QuestionTree, Survey, SurveyDraft, SurveyInput};
use canvass_domain::use_cases::accounts;
use canvass_postgres::{PgStore, PgUnitOfWork};
use time::OffsetDateTime;

/// A new account in `store`, made by the use case as `canvass account create` makes it.
pub fn account(store: &PgStore, name: &str, email: &str) -> AccountId {
    store.with_uow(|uow| accounts::create_account(uow, &SystemClock, name, email)).unwrap().account_id
}

/// A new account named Acme with a key, written through `uow` at `at`.
pub fn account_at(uow: &mut PgUnitOfWork<'_>, email: &str, at: OffsetDateTime) -> AccountId {
    uow.create_account(&NewAccount::new("Acme", email).unwrap(), &ApiKey::generate(), at).unwrap().0
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
