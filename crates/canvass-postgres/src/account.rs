//! Accounts, users and API keys on PostgreSQL.

use canvass_domain::account::{
    AccountSettings, ApiKey, ApiKeyHash, Caller, KeyPrefix, KeyRecord, KeySpec, NewAccount, NewUser, Role, StoredKey,
    User, UserChange,
};
use canvass_domain::ids::{AccountId, KeyId, UserId};
use canvass_domain::ports::{AccountRepository, RepoResult};
use canvass_domain::RepoError;
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
    active: bool,
    created_at: OffsetDateTime,
}

/// A stored role the domain does not know: the column's check keeps this from happening.
fn role_of(name: &str) -> RepoResult<Role> {
    Role::named(name).ok_or_else(|| RepoError::Other(format!("a user's stored role is unknown: {name}").into()))
}

impl TryFrom<UserRow> for User {
    type Error = RepoError;

    fn try_from(row: UserRow) -> RepoResult<Self> {
        Ok(Self {
            id: UserId::new(row.id),
            account_id: AccountId::new(row.account_id),
            name: row.name,
            email: row.email,
            role: role_of(&row.role)?,
            active: row.active,
            created_at: row.created_at,
        })
    }
}

#[derive(Queryable, Selectable)]
#[diesel(table_name = api_keys)]
struct KeyRow {
    user_id: i64,
    prefix: String,
    name: String,
    created_at: OffsetDateTime,
    last_used_at: Option<OffsetDateTime>,
    expires_at: Option<OffsetDateTime>,
    read_only: bool,
    revoked_at: Option<OffsetDateTime>,
}

impl TryFrom<KeyRow> for KeyRecord {
    type Error = RepoError;

    fn try_from(row: KeyRow) -> RepoResult<Self> {
        let prefix = KeyPrefix::parse(&row.prefix)
            .ok_or_else(|| RepoError::Other("a stored key prefix has not the shape of one".into()))?;
        Ok(Self {
            prefix,
            user_id: UserId::new(row.user_id),
            name: row.name,
            created_at: row.created_at,
            last_used_at: row.last_used_at,
            expires_at: row.expires_at,
            read_only: row.read_only,
            revoked_at: row.revoked_at,
        })
    }
}

fn users_of(rows: Vec<UserRow>) -> RepoResult<Vec<User>> {
    rows.into_iter().map(User::try_from).collect()
}

impl PgUnitOfWork<'_> {
    fn insert_key(
        &mut self,
        account: i64,
        user: i64,
        key: &ApiKey,
        spec: &KeySpec,
        now: OffsetDateTime,
    ) -> QueryResult<usize> {
        diesel::insert_into(api_keys::table)
            .values((
                api_keys::account_id.eq(account),
                api_keys::user_id.eq(user),
                api_keys::prefix.eq(key.lookup_prefix()),
                api_keys::key_hash.eq(key.hash().0.to_vec()),
                api_keys::created_at.eq(now),
                api_keys::name.eq(&spec.name),
                api_keys::expires_at.eq(spec.expires_at),
                api_keys::read_only.eq(spec.read_only),
            ))
            .execute(self.conn)
    }

    fn insert_user(&mut self, account: i64, user: &NewUser, now: OffsetDateTime) -> QueryResult<Option<UserRow>> {
        diesel::insert_into(users::table)
            .values((
                users::account_id.eq(account),
                users::name.eq(&user.name),
                users::email.eq(&user.email),
                users::role.eq(user.role.name()),
                users::created_at.eq(now),
            ))
            .on_conflict_do_nothing()
            .returning(UserRow::as_returning())
            .get_result(self.conn)
            .optional()
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
        let owner = NewUser { name: account.name().to_owned(), email: account.email().to_owned(), role: Role::Owner };
        let user = self
            .insert_user(account_id, &owner, now)
            .or_repo()?
            .ok_or_else(|| RepoError::Other("a new account's first user was refused".into()))?;
        let spec = KeySpec { name: KeySpec::COMMAND_LINE.into(), expires_at: None, read_only: false };
        self.insert_key(account_id, user.id, key, &spec, now).or_repo()?;
        Ok((AccountId::new(account_id), UserId::new(user.id)))
    }

    fn create_key(
        &mut self,
        user_id: UserId,
        key: &ApiKey,
        spec: &KeySpec,
        now: OffsetDateTime,
    ) -> RepoResult<Option<AccountId>> {
        let account: Option<i64> = users::table
            .filter(users::id.eq(user_id.get()))
            .select(users::account_id)
            .first(self.conn)
            .optional()
            .or_repo()?;
        let Some(account) = account else {
            return Ok(None);
        };
        self.insert_key(account, user_id.get(), key, spec, now).or_repo()?;
        Ok(Some(AccountId::new(account)))
    }

    fn revoke_keys(&mut self, account: Option<AccountId>, prefix: &KeyPrefix, now: OffsetDateTime) -> RepoResult<u64> {
        let unrevoked = api_keys::prefix.eq(prefix.as_str()).and(api_keys::revoked_at.is_null());
        let revoked = match account {
            Some(account) => diesel::update(api_keys::table)
                .filter(unrevoked.and(api_keys::account_id.eq(account.get())))
                .set(api_keys::revoked_at.eq(now))
                .execute(self.conn),
            None => {
                diesel::update(api_keys::table).filter(unrevoked).set(api_keys::revoked_at.eq(now)).execute(self.conn)
            }
        }
        .or_repo()?;
        Ok(revoked as u64)
    }

    fn active_keys_with_prefix(&mut self, prefix: &KeyPrefix) -> RepoResult<Vec<StoredKey>> {
        // Two look-ups, not a join: the keys are a reference table, the users are distributed by account, and only
        // the second look-up names the account that finds its shard (docs/scaling.md).
        type Found = (i64, i64, i64, Vec<u8>, bool, Option<OffsetDateTime>);
        let keys: Vec<Found> = api_keys::table
            .filter(api_keys::prefix.eq(prefix.as_str()).and(api_keys::revoked_at.is_null()))
            .select((
                api_keys::id,
                api_keys::account_id,
                api_keys::user_id,
                api_keys::key_hash,
                api_keys::read_only,
                api_keys::expires_at,
            ))
            .load(self.conn)
            .or_repo()?;
        let mut stored = Vec::with_capacity(keys.len());
        for (id, account, user, hash, read_only, expires_at) in keys {
            let holder: Option<(String, bool)> = users::table
                .filter(users::account_id.eq(account).and(users::id.eq(user)))
                .select((users::role, users::active))
                .first(self.conn)
                .optional()
                .or_repo()?;
            let (Some((role, true)), Ok(hash)) = (holder, <[u8; 32]>::try_from(hash)) else { continue };
            let caller = Caller {
                account_id: AccountId::new(account),
                user_id: UserId::new(user),
                role: role_of(&role)?,
                key: *prefix,
                read_only,
                expires_at,
            };
            stored.push(StoredKey { id: KeyId::new(id), caller, hash: ApiKeyHash(hash) });
        }
        Ok(stored)
    }

    fn mark_key_used(&mut self, account: AccountId, prefix: &KeyPrefix, now: OffsetDateTime) -> RepoResult<()> {
        diesel::update(api_keys::table)
            .filter(api_keys::account_id.eq(account.get()).and(api_keys::prefix.eq(prefix.as_str())))
            .set(api_keys::last_used_at.eq(now))
            .execute(self.conn)
            .or_repo()?;
        Ok(())
    }

    fn list_keys(&mut self, account: AccountId) -> RepoResult<Vec<KeyRecord>> {
        let rows: Vec<KeyRow> = api_keys::table
            .filter(api_keys::account_id.eq(account.get()))
            .order(api_keys::id)
            .select(KeyRow::as_select())
            .load(self.conn)
            .or_repo()?;
        rows.into_iter().map(KeyRecord::try_from).collect()
    }

    fn find_key(&mut self, account: AccountId, prefix: &KeyPrefix) -> RepoResult<Option<KeyRecord>> {
        let row: Option<KeyRow> = api_keys::table
            .filter(api_keys::account_id.eq(account.get()).and(api_keys::prefix.eq(prefix.as_str())))
            .order(api_keys::id.desc())
            .select(KeyRow::as_select())
            .first(self.conn)
            .optional()
            .or_repo()?;
        row.map(KeyRecord::try_from).transpose()
    }

    fn create_user(&mut self, account: AccountId, user: &NewUser, now: OffsetDateTime) -> RepoResult<Option<User>> {
        self.insert_user(account.get(), user, now).or_repo()?.map(User::try_from).transpose()
    }

    fn change_user(&mut self, account: AccountId, id: UserId, change: UserChange) -> RepoResult<Option<User>> {
        let Some(current) = self.find_user(account, id)? else { return Ok(None) };
        let row: UserRow = diesel::update(users::table)
            .filter(users::account_id.eq(account.get()).and(users::id.eq(id.get())))
            .set((
                users::role.eq(change.role.unwrap_or(current.role).name()),
                users::active.eq(change.active.unwrap_or(current.active)),
            ))
            .returning(UserRow::as_returning())
            .get_result(self.conn)
            .or_repo()?;
        User::try_from(row).map(Some)
    }

    fn lock_active_owners(&mut self, account: AccountId) -> RepoResult<Vec<UserId>> {
        let ids: Vec<i64> = users::table
            .filter(users::account_id.eq(account.get()))
            .filter(users::role.eq(Role::Owner.name()).and(users::active))
            .order(users::id)
            .select(users::id)
            .for_update()
            .load(self.conn)
            .or_repo()?;
        Ok(ids.into_iter().map(UserId::new).collect())
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
        row.map(User::try_from).transpose()
    }

    fn list_users(&mut self, account: AccountId) -> RepoResult<Vec<User>> {
        let rows: Vec<UserRow> = users::table
            .filter(users::account_id.eq(account.get()))
            .order(users::id)
            .select(UserRow::as_select())
            .load(self.conn)
            .or_repo()?;
        users_of(rows)
    }

    fn find_user(&mut self, account: AccountId, id: UserId) -> RepoResult<Option<User>> {
        let row: Option<UserRow> = users::table
            .filter(users::account_id.eq(account.get()).and(users::id.eq(id.get())))
            .select(UserRow::as_select())
            .first(self.conn)
            .optional()
            .or_repo()?;
        row.map(User::try_from).transpose()
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
