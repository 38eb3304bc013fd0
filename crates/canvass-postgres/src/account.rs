//! Accounts, users and API keys on PostgreSQL.

use canvass_domain::account::{AccountSettings, ApiKey, ApiKeyHash, Caller, NewAccount, StoredKey, User};
use canvass_domain::ids::{AccountId, KeyId, UserId};
use canvass_domain::ports::{AccountRepository, RepoResult};
use diesel::prelude::*;
use time::OffsetDateTime;

use crate::error::OrRepoError;
use crate::schema::{account_settings, accounts, api_keys, users};
use crate::PgUnitOfWork;

#[derive(Queryable, Selectable)]
#[diesel(table_name = users)]
struct UserRow {
    account_id: i64,
    id: i64,
    name: String,
    email: String,
    role: String,
    created_at: OffsetDateTime,
}

impl From<UserRow> for User {
    fn from(row: UserRow) -> Self {
        Self {
            id: UserId::new(row.id),
            account_id: AccountId::new(row.account_id),
            name: row.name,
            email: row.email,
            role: row.role,
            created_at: row.created_at,
        }
    }
}

impl PgUnitOfWork<'_> {
    fn insert_key(&mut self, account: i64, user: i64, key: &ApiKey, now: OffsetDateTime) -> QueryResult<usize> {
        diesel::insert_into(api_keys::table)
            .values((
                api_keys::account_id.eq(account),
                api_keys::user_id.eq(user),
                api_keys::prefix.eq(key.lookup_prefix()),
                api_keys::key_hash.eq(key.hash().0.to_vec()),
                api_keys::created_at.eq(now),
            ))
            .execute(self.conn)
    }
}

impl AccountRepository for PgUnitOfWork<'_> {
    fn create_account(
        &mut self,
        account: &NewAccount,
        key: &ApiKey,
        now: OffsetDateTime,
    ) -> RepoResult<(AccountId, UserId)> {
        let account_id: i64 = diesel::insert_into(accounts::table)
            .values((accounts::name.eq(account.name()), accounts::created_at.eq(now)))
            .returning(accounts::id)
            .get_result(self.conn)
            .or_repo()?;
        let user_id: i64 = diesel::insert_into(users::table)
            .values((
                users::account_id.eq(account_id),
                users::name.eq(account.name()),
                users::email.eq(account.email()),
                users::role.eq("owner"),
                users::created_at.eq(now),
            ))
            .returning(users::id)
            .get_result(self.conn)
            .or_repo()?;
        self.insert_key(account_id, user_id, key, now).or_repo()?;
        Ok((AccountId::new(account_id), UserId::new(user_id)))
    }

    fn create_key(&mut self, user_id: UserId, key: &ApiKey, now: OffsetDateTime) -> RepoResult<Option<AccountId>> {
        let account: Option<i64> = users::table
            .filter(users::id.eq(user_id.get()))
            .select(users::account_id)
            .first(self.conn)
            .optional()
            .or_repo()?;
        let Some(account) = account else {
            return Ok(None);
        };
        self.insert_key(account, user_id.get(), key, now).or_repo()?;
        Ok(Some(AccountId::new(account)))
    }

    fn revoke_keys(&mut self, lookup_prefix: &str, now: OffsetDateTime) -> RepoResult<u64> {
        let revoked = diesel::update(api_keys::table)
            .filter(api_keys::prefix.eq(lookup_prefix).and(api_keys::revoked_at.is_null()))
            .set(api_keys::revoked_at.eq(now))
            .execute(self.conn)
            .or_repo()?;
        Ok(revoked as u64)
    }

    fn active_keys_with_prefix(&mut self, lookup_prefix: &str) -> RepoResult<Vec<StoredKey>> {
        let rows: Vec<(i64, i64, i64, Vec<u8>)> = api_keys::table
            .filter(api_keys::prefix.eq(lookup_prefix).and(api_keys::revoked_at.is_null()))
            .select((api_keys::id, api_keys::account_id, api_keys::user_id, api_keys::key_hash))
            .load(self.conn)
            .or_repo()?;
        Ok(rows
            .into_iter()
            .filter_map(|(id, account, user, hash)| {
                let hash = ApiKeyHash(hash.try_into().ok()?);
                let caller = Caller { account_id: AccountId::new(account), user_id: UserId::new(user) };
                Some(StoredKey { id: KeyId::new(id), caller, hash })
            })
            .collect())
    }

    fn find_user_by_email(&mut self, email: &str) -> RepoResult<Option<User>> {
        let row: Option<UserRow> = users::table
            .filter(
                diesel::dsl::sql::<diesel::sql_types::Bool>("lower(email) = lower(")
                    .bind::<diesel::sql_types::Text, _>(email)
                    .sql(")"),
            )
            .order(users::id)
            .select(UserRow::as_select())
            .first(self.conn)
            .optional()
            .or_repo()?;
        Ok(row.map(User::from))
    }

    fn list_users(&mut self, account: AccountId) -> RepoResult<Vec<User>> {
        let rows: Vec<UserRow> = users::table
            .filter(users::account_id.eq(account.get()))
            .order(users::id)
            .select(UserRow::as_select())
            .load(self.conn)
            .or_repo()?;
        Ok(rows.into_iter().map(User::from).collect())
    }

    fn find_user(&mut self, account: AccountId, id: UserId) -> RepoResult<Option<User>> {
        let row: Option<UserRow> = users::table
            .filter(users::account_id.eq(account.get()).and(users::id.eq(id.get())))
            .select(UserRow::as_select())
            .first(self.conn)
            .optional()
            .or_repo()?;
        Ok(row.map(User::from))
    }

    fn account_settings(&mut self, account: AccountId) -> RepoResult<AccountSettings> {
        let floor: Option<i32> = account_settings::table
            .filter(account_settings::account_id.eq(account.get()))
            .select(account_settings::min_group_size)
            .first(self.conn)
            .optional()
            .or_repo()?;
        Ok(floor.map_or_else(AccountSettings::default, |floor| AccountSettings { min_group_size: i64::from(floor) }))
    }

    fn save_account_settings(&mut self, account: AccountId, settings: &AccountSettings) -> RepoResult<()> {
        // The domain keeps the floor within 1 to 10,000; the column's check says the same.
        let floor = i32::try_from(settings.min_group_size).unwrap_or(i32::MAX);
        diesel::insert_into(account_settings::table)
            .values((account_settings::account_id.eq(account.get()), account_settings::min_group_size.eq(floor)))
            .on_conflict(account_settings::account_id)
            .do_update()
            .set(account_settings::min_group_size.eq(floor))
            .execute(self.conn)
            .or_repo()?;
        Ok(())
    }
}
