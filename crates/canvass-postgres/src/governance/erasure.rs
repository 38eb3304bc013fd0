//! Erasure of one person across an account on PostgreSQL: up to nine statements, whatever the number of sendouts,
//! each pinned to the account. The contact is found by its key where it is a key (respondents, permanent failures)
//! and by the domain's patterns (`ContactPatterns`, PostgreSQL regular expressions) where it is quoted in a text
//! (relay replies, answers) or held in a kept answer (docs/decisions.md, "Erasure"). The person's answer sets are
//! those of their respondents and the copies of those (`answer_sets.copy_of`, which names the original also for a
//! copy of a copy), so a survey copied with its answers keeps nothing of them either.

use canvass_domain::governance::{ContactPatterns, ErasureReceipt, HeldOnPerson, NewErasureReceipt, ERASED_MARK};
use canvass_domain::ids::{AccountId, ErasureReceiptId};
use canvass_domain::ports::{Erased, ErasureRepository, RepoResult};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};

use crate::distribution::counts::respondents_gone;
use crate::error::OrRepoError;
use crate::prepared::prepared;
use crate::PgUnitOfWork;

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    count: i64,
}

/// Locks the sendouts the person is a respondent of, in id order, before any of their respondents: activation and
/// the retention removals lock a sendout before its respondents too, so none waits on another in a cycle.
const LOCK_SENDOUTS: &str = "SELECT count(*) AS count FROM (SELECT s.id FROM sendouts s \
     WHERE s.account_id = $1 AND s.id IN (SELECT sendout_id FROM respondents WHERE account_id = $1 AND contact_key = $2) \
     ORDER BY s.id FOR UPDATE) AS locked";

/// The sendouts the person is a respondent of, as a subquery on `$1` (account) and `$2` (contact key).
macro_rules! their_sendouts {
    () => {
        "(SELECT sendout_id FROM respondents WHERE account_id = $1 AND contact_key = $2)"
    };
}

/// Redacts the relay replies kept on their sendouts' messages that quote the contact (`$3`, replaced by `$4`): a
/// reply can be kept on messages other than the one it answered (a refused sender's reply is copied to the
/// sendout's other held invitations). Their own messages go with them after.
const REDACT_MESSAGE_REPLIES: &str = concat!(
    "WITH redacted AS (UPDATE outbox SET last_error = regexp_replace(last_error, $3, $4, 'g') \
     WHERE account_id = $1 AND sendout_id IN ",
    their_sendouts!(),
    " AND last_error ~ $3 RETURNING 1) SELECT count(*) AS count FROM redacted"
);

/// Redacts their sendouts' delivery issue (the relay's last reply) where it quotes the contact.
const REDACT_DELIVERY_ISSUES: &str = concat!(
    "WITH redacted AS (UPDATE sendouts SET delivery_issue_reply = regexp_replace(delivery_issue_reply, $3, $4, 'g') \
     WHERE account_id = $1 AND id IN ",
    their_sendouts!(),
    " AND delivery_issue_reply ~ $3 RETURNING 1) SELECT count(*) AS count FROM redacted"
);

/// The person's answer sets, as a subquery on `$1` (account) and `$2` (contact key): their respondents' and the
/// copies of those, copies of copies included (each names the original it copies).
macro_rules! their_answer_sets {
    () => {
        "(SELECT id FROM answer_sets WHERE account_id = $1 AND respondent_id IN \
         (SELECT id FROM respondents WHERE account_id = $1 AND contact_key = $2) \
         UNION ALL SELECT id FROM answer_sets WHERE account_id = $1 AND copy_of IN \
         (SELECT id FROM answer_sets WHERE account_id = $1 AND respondent_id IN \
         (SELECT id FROM respondents WHERE account_id = $1 AND contact_key = $2)))"
    };
}

/// Redacts the contact where the person's own answers (and their copies) quote it (an open text that gives their
/// address), before their answer sets lose their respondent. The replacement holds no quote, so the value stays
/// JSON.
const REDACT_ANSWERS: &str = concat!(
    "WITH redacted AS (UPDATE answers SET value = regexp_replace(value::text, $3, $4, 'g')::jsonb \
     WHERE account_id = $1 AND answer_set_id IN ",
    their_answer_sets!(),
    " AND value::text ~ $3 RETURNING 1) SELECT count(*) AS count FROM redacted"
);

/// Erases the account's kept `Idempotency-Key` answers that hold the contact (`$2`, a pattern over the body's
/// `encode(body, 'escape')` form): the key stays, `erased`, so a repeat answers 410 and runs nothing.
const ERASE_KEPT_ANSWERS: &str = "WITH erased AS (UPDATE idempotency_keys \
     SET state = 'erased', status = NULL, content_type = NULL, body = NULL \
     WHERE account_id = $1 AND state = 'done' AND encode(body, 'escape') ~ $2 RETURNING 1) \
     SELECT count(*) AS count FROM erased";

/// Removes the person's answer sets and their copies (their answers go with them).
const DELETE_ANSWER_SETS: &str = concat!(
    "WITH gone AS (DELETE FROM answer_sets WHERE account_id = $1 AND id IN ",
    their_answer_sets!(),
    " RETURNING 1) SELECT count(*) AS count FROM gone"
);

/// Removes the alert emails about the person's answer sets (and their copies): those not yet sent hold their
/// answers, and none is to tell of them any more.
const DELETE_ALERT_EMAILS: &str = concat!(
    "WITH gone AS (DELETE FROM alert_emails WHERE account_id = $1 AND answer_set_id IN ",
    their_answer_sets!(),
    " RETURNING 1) SELECT count(*) AS count FROM gone"
);

/// Keeps the person's answer sets, with no respondent.
const DETACH_ANSWER_SETS: &str = "WITH kept AS (UPDATE answer_sets SET respondent_id = NULL WHERE account_id = $1 \
     AND respondent_id IN (SELECT id FROM respondents WHERE account_id = $1 AND contact_key = $2) RETURNING 1) \
     SELECT count(*) AS count FROM kept";

/// Removes the respondents (their messages go with them) and their timelines, and takes them off their sendouts'
/// stored counts.
const DELETE_RESPONDENTS: &str = concat!(
    "WITH gone AS (DELETE FROM respondents WHERE account_id = $1 AND contact_key = $2 RETURNING id, sendout_id, status), ",
    respondents_gone!(),
    " SELECT count(*) AS count FROM gone"
);

/// Removes the permanent failures recorded for the address (they hold it).
const DELETE_FAILURES: &str = "WITH gone AS (DELETE FROM permanent_failures WHERE account_id = $1 AND email_key = $2 \
     RETURNING 1) SELECT count(*) AS count FROM gone";

/// Removes the directory's contacts whose email address (compared by its key) or phone number is the contact
/// (their list memberships go with them).
const DELETE_CONTACTS: &str = "WITH gone AS (DELETE FROM contacts WHERE account_id = $1 \
     AND (email_key = $2 OR phone = $2) RETURNING 1) SELECT count(*) AS count FROM gone";

impl PgUnitOfWork<'_> {
    /// Runs one of this module's statements for the account and `$2` (the contact key, or the kept-answer pattern)
    /// and reads its count.
    fn erasure_step(&mut self, sql: &'static str, account: AccountId, second: &str) -> RepoResult<u64> {
        let row: Count =
            prepared(sql).bind::<BigInt, _>(account.get()).bind::<Text, _>(second).get_result(self.conn).or_repo()?;
        Ok(row.count.max(0) as u64)
    }

    /// Runs one of this module's redactions for the account, contact key and text pattern, and reads its count.
    fn redaction_step(
        &mut self,
        sql: &'static str,
        account: AccountId,
        contact_key: &str,
        pattern: &str,
    ) -> RepoResult<u64> {
        let row: Count = prepared(sql)
            .bind::<BigInt, _>(account.get())
            .bind::<Text, _>(contact_key)
            .bind::<Text, _>(pattern)
            .bind::<Text, _>(ERASED_MARK)
            .get_result(self.conn)
            .or_repo()?;
        Ok(row.count.max(0) as u64)
    }
}

impl ErasureRepository for PgUnitOfWork<'_> {
    fn held_on_person(&mut self, account: AccountId, contact: &ContactPatterns) -> RepoResult<HeldOnPerson> {
        self.read_held_on_person(account, contact)
    }

    fn record_erasure(&mut self, account: AccountId, receipt: &NewErasureReceipt) -> RepoResult<ErasureReceiptId> {
        self.insert_erasure_receipt(account, receipt)
    }

    fn find_erasure(&mut self, account: AccountId, id: ErasureReceiptId) -> RepoResult<Option<ErasureReceipt>> {
        self.erasure_receipt(account, id)
    }

    fn erase_contact(
        &mut self,
        account: AccountId,
        contact: &ContactPatterns,
        include_answers: bool,
    ) -> RepoResult<Erased> {
        let contact_key = contact.key();
        self.erasure_step(LOCK_SENDOUTS, account, contact_key)?;
        if let Some(pattern) = contact.text_pattern() {
            self.redaction_step(REDACT_MESSAGE_REPLIES, account, contact_key, pattern)?;
            self.redaction_step(REDACT_DELIVERY_ISSUES, account, contact_key, pattern)?;
        }
        self.erasure_step(DELETE_ALERT_EMAILS, account, contact_key)?;
        let answer_sets = if include_answers {
            self.erasure_step(DELETE_ANSWER_SETS, account, contact_key)?
        } else {
            if let Some(pattern) = contact.text_pattern() {
                self.redaction_step(REDACT_ANSWERS, account, contact_key, pattern)?;
            }
            self.erasure_step(DETACH_ANSWER_SETS, account, contact_key)?;
            0
        };
        let respondents = self.erasure_step(DELETE_RESPONDENTS, account, contact_key)?;
        self.erasure_step(DELETE_FAILURES, account, contact_key)?;
        self.erasure_step(DELETE_CONTACTS, account, contact_key)?;
        self.erasure_step(ERASE_KEPT_ANSWERS, account, contact.kept_body_pattern())?;
        Ok(Erased { respondents, answer_sets })
    }
}
