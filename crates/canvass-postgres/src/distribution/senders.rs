//! Sender numbers provisioned to accounts, on PostgreSQL: `sender_numbers`, unique by number.

use canvass_domain::distribution::{ProvisionedSender, SenderNumber};
use canvass_domain::ids::AccountId;
use canvass_domain::ports::{RepoResult, SenderRepository};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text, Timestamptz};
use time::OffsetDateTime;

use crate::error::OrRepoError;
use crate::schema::sender_numbers;
use crate::PgUnitOfWork;

impl SenderRepository for PgUnitOfWork<'_> {
    fn provision_sender(
        &mut self,
        account: AccountId,
        number: &SenderNumber,
        now: OffsetDateTime,
    ) -> RepoResult<Option<AccountId>> {
        #[derive(QueryableByName)]
        struct Owner {
            #[diesel(sql_type = BigInt)]
            account_id: i64,
        }
        // Inserted only for an account that exists; a number any account has already is left as it is.
        let inserted: Option<Owner> = diesel::sql_query(
            "INSERT INTO sender_numbers (account_id, number, created_at) \
             SELECT id, $2, $3 FROM accounts WHERE id = $1 \
             ON CONFLICT DO NOTHING RETURNING account_id",
        )
        .bind::<BigInt, _>(account.get())
        .bind::<Text, _>(number.as_str())
        .bind::<Timestamptz, _>(now)
        .get_result(self.conn)
        .optional()
        .or_repo()?;
        if let Some(owner) = inserted {
            return Ok(Some(AccountId::new(owner.account_id)));
        }
        let owner: Option<i64> = sender_numbers::table
            .filter(sender_numbers::number.eq(number.as_str()))
            .select(sender_numbers::account_id)
            .first(self.conn)
            .optional()
            .or_repo()?;
        Ok(owner.map(AccountId::new))
    }

    fn list_senders(&mut self, account: AccountId) -> RepoResult<Vec<ProvisionedSender>> {
        let rows: Vec<(String, OffsetDateTime)> = sender_numbers::table
            .filter(sender_numbers::account_id.eq(account.get()))
            .order((sender_numbers::created_at, sender_numbers::number))
            .select((sender_numbers::number, sender_numbers::created_at))
            .load(self.conn)
            .or_repo()?;
        Ok(rows.into_iter().map(|(number, created_at)| ProvisionedSender { number, created_at }).collect())
    }

    fn remove_sender(&mut self, account: AccountId, number: &SenderNumber) -> RepoResult<bool> {
        let removed = diesel::delete(
            sender_numbers::table
                .filter(sender_numbers::account_id.eq(account.get()).and(sender_numbers::number.eq(number.as_str()))),
        )
        .execute(self.conn)
        .or_repo()?;
        Ok(removed > 0)
    }

    fn holds_sender(&mut self, account: AccountId, number: &str) -> RepoResult<bool> {
        let held: Option<String> = sender_numbers::table
            .filter(sender_numbers::account_id.eq(account.get()).and(sender_numbers::number.eq(number)))
            .select(sender_numbers::number)
            .for_share()
            .first(self.conn)
            .optional()
            .or_repo()?;
        Ok(held.is_some())
    }
}
