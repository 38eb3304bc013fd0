//! Idempotency keys on PostgreSQL: `idempotency_keys`, keyed by account and key. A claim is one
//! `INSERT ... ON CONFLICT DO UPDATE ... WHERE` that inserts a new row or takes over one that counts as absent, so
//! of two requests at once the unique key lets exactly one in.

use canvass_domain::idempotency::ports::IdempotencyRepository;
use canvass_domain::idempotency::{Fingerprint, IdempotencyKey, KeptResponse, KeyRecord, KeyState, Staleness};
use canvass_domain::ids::AccountId;
use canvass_domain::ports::RepoResult;
use canvass_domain::RepoError;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Bytea, Nullable, SmallInt, Text, Timestamptz};
use time::OffsetDateTime;

use crate::error::OrRepoError;
use crate::prepared::prepared;
use crate::PgUnitOfWork;

const CLAIM: &str = "INSERT INTO idempotency_keys AS k (account_id, key, fingerprint, state, created_at) \
     VALUES ($1, $2, $3, 'running', $4) \
     ON CONFLICT (account_id, key) DO UPDATE \
     SET fingerprint = EXCLUDED.fingerprint, state = 'running', status = NULL, content_type = NULL, body = NULL, \
         created_at = EXCLUDED.created_at \
     WHERE k.created_at <= $5 OR (k.state = 'running' AND k.created_at <= $6)";

const FIND: &str = "SELECT fingerprint, state, status, content_type, body, created_at FROM idempotency_keys \
     WHERE account_id = $1 AND key = $2";

const FINISH: &str = "UPDATE idempotency_keys SET state = 'done', status = $4, content_type = $5, body = $6 \
     WHERE account_id = $1 AND key = $2 AND state = 'running' AND created_at = $3";

const RELEASE: &str = "DELETE FROM idempotency_keys \
     WHERE account_id = $1 AND key = $2 AND state = 'running' AND created_at = $3";

/// The accounts with expired keys: the purge's one statement across accounts (docs/citus-allowlist.txt), read
/// through the `created_at` index, without locks.
const EXPIRED_ACCOUNTS: &str = "SELECT account_id FROM idempotency_keys WHERE created_at <= $1 \
     GROUP BY account_id ORDER BY account_id";

/// Deletes up to `$3` of one account's expired keys, pinned to the account so that it goes to one shard.
const PURGE: &str = "DELETE FROM idempotency_keys WHERE account_id = $1 AND key IN ( \
         SELECT key FROM idempotency_keys WHERE account_id = $1 AND created_at <= $2 LIMIT $3)";

#[derive(QueryableByName)]
struct AccountRow {
    #[diesel(sql_type = BigInt)]
    account_id: i64,
}

#[derive(QueryableByName)]
struct Row {
    #[diesel(sql_type = Bytea)]
    fingerprint: Vec<u8>,
    #[diesel(sql_type = Text)]
    state: String,
    #[diesel(sql_type = Nullable<SmallInt>)]
    status: Option<i16>,
    #[diesel(sql_type = Nullable<Text>)]
    content_type: Option<String>,
    #[diesel(sql_type = Nullable<Bytea>)]
    body: Option<Vec<u8>>,
    #[diesel(sql_type = Timestamptz)]
    created_at: OffsetDateTime,
}

impl Row {
    fn into_record(self) -> RepoResult<KeyRecord> {
        let fingerprint = Fingerprint::from_bytes(&self.fingerprint)
            .ok_or_else(|| RepoError::Other("an idempotency fingerprint is not 32 bytes".into()))?;
        let state = match (self.state.as_str(), self.status, self.body) {
            ("done", Some(status), Some(body)) => KeyState::Done(KeptResponse {
                status: u16::try_from(status).map_err(|_| RepoError::Other("a kept status is negative".into()))?,
                content_type: self.content_type,
                body,
            }),
            ("erased", _, _) => KeyState::Erased,
            _ => KeyState::Running,
        };
        Ok(KeyRecord { fingerprint, state, created_at: self.created_at })
    }
}

impl IdempotencyRepository for PgUnitOfWork<'_> {
    fn claim_idempotency_key(
        &mut self,
        account: AccountId,
        key: &IdempotencyKey,
        fingerprint: &Fingerprint,
        at: OffsetDateTime,
        stale: Staleness,
    ) -> RepoResult<bool> {
        let claimed = prepared(CLAIM)
            .bind::<BigInt, _>(account.get())
            .bind::<Text, _>(key.as_str())
            .bind::<Bytea, _>(fingerprint.as_bytes().as_slice())
            .bind::<Timestamptz, _>(at)
            .bind::<Timestamptz, _>(stale.expired_at_or_before)
            .bind::<Timestamptz, _>(stale.abandoned_at_or_before)
            .execute(self.conn)
            .or_repo()?;
        Ok(claimed == 1)
    }

    fn find_idempotency_key(&mut self, account: AccountId, key: &IdempotencyKey) -> RepoResult<Option<KeyRecord>> {
        let row: Option<Row> = prepared(FIND)
            .bind::<BigInt, _>(account.get())
            .bind::<Text, _>(key.as_str())
            .get_result(self.conn)
            .optional()
            .or_repo()?;
        row.map(Row::into_record).transpose()
    }

    fn finish_idempotency_key(
        &mut self,
        account: AccountId,
        key: &IdempotencyKey,
        claimed_at: OffsetDateTime,
        response: &KeptResponse,
    ) -> RepoResult<bool> {
        let status = i16::try_from(response.status).map_err(|_| RepoError::Other("a status over 32767".into()))?;
        let finished = prepared(FINISH)
            .bind::<BigInt, _>(account.get())
            .bind::<Text, _>(key.as_str())
            .bind::<Timestamptz, _>(claimed_at)
            .bind::<SmallInt, _>(status)
            .bind::<Nullable<Text>, _>(response.content_type.as_deref())
            .bind::<Bytea, _>(response.body.as_slice())
            .execute(self.conn)
            .or_repo()?;
        Ok(finished == 1)
    }

    fn release_idempotency_key(
        &mut self,
        account: AccountId,
        key: &IdempotencyKey,
        claimed_at: OffsetDateTime,
    ) -> RepoResult<bool> {
        let released = prepared(RELEASE)
            .bind::<BigInt, _>(account.get())
            .bind::<Text, _>(key.as_str())
            .bind::<Timestamptz, _>(claimed_at)
            .execute(self.conn)
            .or_repo()?;
        Ok(released == 1)
    }

    fn purge_idempotency_keys(&mut self, expired_at_or_before: OffsetDateTime, limit: usize) -> RepoResult<u64> {
        let accounts: Vec<AccountRow> =
            prepared(EXPIRED_ACCOUNTS).bind::<Timestamptz, _>(expired_at_or_before).load(self.conn).or_repo()?;
        let mut remaining = i64::try_from(limit).unwrap_or(i64::MAX);
        let mut purged = 0_u64;
        for account in accounts {
            if remaining <= 0 {
                break;
            }
            let deleted = prepared(PURGE)
                .bind::<BigInt, _>(account.account_id)
                .bind::<Timestamptz, _>(expired_at_or_before)
                .bind::<BigInt, _>(remaining)
                .execute(self.conn)
                .or_repo()?;
            remaining -= i64::try_from(deleted).unwrap_or(remaining);
            purged += deleted as u64;
        }
        Ok(purged)
    }
}
