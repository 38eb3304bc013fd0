//! Erasure receipts on PostgreSQL: one row per erasure, distributed by account on Citus.

use canvass_domain::account::KeyPrefix;
use canvass_domain::audit::Actor;
use canvass_domain::governance::{ErasureReceipt, NewErasureReceipt};
use canvass_domain::ids::{AccountId, ErasureReceiptId, UserId};
use canvass_domain::ports::RepoResult;
use canvass_domain::RepoError;
use diesel::prelude::*;
use time::OffsetDateTime;

use crate::error::OrRepoError;
use crate::schema::erasure_receipts;
use crate::PgUnitOfWork;

type ReceiptRow = (i64, OffsetDateTime, i64, String, bool, i64, i64);

impl PgUnitOfWork<'_> {
    pub(super) fn insert_erasure_receipt(
        &mut self,
        account: AccountId,
        receipt: &NewErasureReceipt,
    ) -> RepoResult<ErasureReceiptId> {
        let id: i64 = diesel::insert_into(erasure_receipts::table)
            .values((
                erasure_receipts::account_id.eq(account.get()),
                erasure_receipts::at.eq(receipt.at),
                erasure_receipts::user_id.eq(receipt.actor.user_id.get()),
                erasure_receipts::key_prefix.eq(receipt.actor.key.as_str()),
                erasure_receipts::include_answers.eq(receipt.include_answers),
                erasure_receipts::respondents_erased.eq(i64::try_from(receipt.respondents_erased).unwrap_or(i64::MAX)),
                erasure_receipts::answer_sets_deleted
                    .eq(i64::try_from(receipt.answer_sets_deleted).unwrap_or(i64::MAX)),
            ))
            .returning(erasure_receipts::id)
            .get_result(self.conn)
            .or_repo()?;
        Ok(ErasureReceiptId::new(id))
    }

    pub(super) fn erasure_receipt(
        &mut self,
        account: AccountId,
        id: ErasureReceiptId,
    ) -> RepoResult<Option<ErasureReceipt>> {
        let row: Option<ReceiptRow> = erasure_receipts::table
            .filter(erasure_receipts::account_id.eq(account.get()).and(erasure_receipts::id.eq(id.get())))
            .select((
                erasure_receipts::id,
                erasure_receipts::at,
                erasure_receipts::user_id,
                erasure_receipts::key_prefix,
                erasure_receipts::include_answers,
                erasure_receipts::respondents_erased,
                erasure_receipts::answer_sets_deleted,
            ))
            .first(self.conn)
            .optional()
            .or_repo()?;
        row.map(|(id, at, user, key, include_answers, respondents, answer_sets)| {
            let key =
                KeyPrefix::parse(&key).ok_or_else(|| RepoError::Other("a receipt's key prefix is not one".into()))?;
            Ok(ErasureReceipt {
                id: ErasureReceiptId::new(id),
                erasure: NewErasureReceipt {
                    at,
                    actor: Actor { user_id: UserId::new(user), key },
                    include_answers,
                    respondents_erased: u64::try_from(respondents).unwrap_or_default(),
                    answer_sets_deleted: u64::try_from(answer_sets).unwrap_or_default(),
                },
            })
        })
        .transpose()
    }
}
