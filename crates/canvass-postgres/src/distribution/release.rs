//! Releasing pending respondents on activation, with the contact locks and counts the frequency limit needs.

use canvass_domain::distribution::{EventKind, RespondentStatus};
use canvass_domain::ids::{AccountId, RespondentId, SendoutId, SurveyId};
use canvass_domain::ports::{ReleaseRepository, RepoResult};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Timestamptz};
use time::OffsetDateTime;

use super::counts;
use super::timeline::Events;
use crate::error::OrRepoError;
use crate::keys::keys;
use crate::schema::{blocklist, respondents};
use crate::PgUnitOfWork;

impl ReleaseRepository for PgUnitOfWork<'_> {
    fn lock_pending_contacts(&mut self, account: AccountId, sendout: SendoutId) -> RepoResult<()> {
        // Contacts are compared case-insensitively (login identifiers keep their case in the key). Locks are taken
        // in contact order, so two activations sharing contacts cannot deadlock.
        diesel::sql_query(
            "SELECT pg_advisory_xact_lock(hashtextextended($1::text || ':' || contact, 0)) \
             FROM (SELECT DISTINCT lower(contact_key) AS contact FROM respondents \
                   WHERE account_id = $1 AND sendout_id = $2 AND status = 'Pending' ORDER BY contact) AS pending",
        )
        .bind::<BigInt, _>(account.get())
        .bind::<BigInt, _>(sendout.get())
        .execute(self.conn)
        .or_repo()?;
        Ok(())
    }

    fn pending_other_surveys(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        survey: SurveyId,
        since: OffsetDateTime,
    ) -> RepoResult<Vec<(RespondentId, i64)>> {
        #[derive(QueryableByName)]
        struct Count {
            #[diesel(sql_type = BigInt)]
            id: i64,
            #[diesel(sql_type = BigInt)]
            others: i64,
        }
        let rows: Vec<Count> = diesel::sql_query(
            "SELECT pending.id, \
                 (SELECT count(DISTINCT s.survey_id) FROM respondents r \
                  JOIN sendouts s ON s.account_id = r.account_id AND s.id = r.sendout_id \
                  WHERE r.account_id = $1 AND lower(r.contact_key) = lower(pending.contact_key) \
                    AND r.released_at >= $4 AND s.survey_id <> $3) AS others \
             FROM respondents pending \
             WHERE pending.account_id = $1 AND pending.sendout_id = $2 AND pending.status = 'Pending'",
        )
        .bind::<BigInt, _>(account.get())
        .bind::<BigInt, _>(sendout.get())
        .bind::<BigInt, _>(survey.get())
        .bind::<Timestamptz, _>(since)
        .load(self.conn)
        .or_repo()?;
        Ok(rows.into_iter().map(|row| (RespondentId::new(row.id), row.others)).collect())
    }

    fn release_pending(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        held_back: &[RespondentId],
        sends_messages: bool,
        now: OffsetDateTime,
    ) -> RepoResult<()> {
        let pending = respondents::account_id
            .eq(account.get())
            .and(respondents::sendout_id.eq(sendout.get()))
            .and(respondents::status.eq(RespondentStatus::Pending.as_str()));
        // A contact that joined the blocklist while it was being added (after that add checked) is caught here.
        let blocklisted = blocklist::table.filter(
            blocklist::account_id.eq(respondents::account_id).and(blocklist::contact_key.eq(respondents::contact_key)),
        );
        // Every row these updates move leaves Pending; the sendout's pending count drops by as many (not to 0: a
        // respondent another transaction adds meanwhile, which these updates do not see, stays Pending and counted).
        let mut events = Events::default();
        let blocked: Vec<i64> =
            diesel::update(respondents::table.filter(pending.and(diesel::dsl::exists(blocklisted))))
                .set(respondents::status.eq(RespondentStatus::Blocklisted.as_str()))
                .returning(respondents::id)
                .get_results(self.conn)
                .or_repo()?;
        blocked.iter().for_each(|id| events.push(*id, now, EventKind::Blocklisted, None));
        if !held_back.is_empty() {
            let limited: Vec<i64> =
                diesel::update(respondents::table.filter(pending.and(respondents::id.eq_any(keys(held_back)))))
                    .set(respondents::status.eq(RespondentStatus::FrequencyLimitReached.as_str()))
                    .returning(respondents::id)
                    .get_results(self.conn)
                    .or_repo()?;
            limited.iter().for_each(|id| events.push(*id, now, EventKind::FrequencyLimited, None));
        }
        for send_mail in [true, false] {
            let released: Vec<i64> =
                diesel::update(respondents::table.filter(pending.and(respondents::send_mail.eq(send_mail))))
                    .set((
                        respondents::status.eq(RespondentStatus::released(send_mail && sends_messages).as_str()),
                        respondents::released_at.eq(now),
                    ))
                    .returning(respondents::id)
                    .get_results(self.conn)
                    .or_repo()?;
            released.iter().for_each(|id| events.push(*id, now, EventKind::Released, None));
        }
        let left_pending = events.len();
        events.record(self.conn, account.get()).or_repo()?;
        counts::leave_pending(self.conn, account, sendout, left_pending).or_repo()?;
        if sends_messages && self.enqueue_invitations(account, sendout, now).or_repo()? > 0 {
            crate::delivery::wake::notify(self.conn).or_repo()?;
        }
        Ok(())
    }
}
