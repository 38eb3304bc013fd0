//! Visits to open links on PostgreSQL: the LINK sendout behind a handle, read with its survey in one statement on
//! the account the handle names, and a visitor added with the sendout's count in another.

use crate::distribution::cells_json;
use canvass_domain::distribution::{visitor_key, BackgroundData, OpenLinkTarget, RespondentStatus, SendoutStatus};
use canvass_domain::ids::{AccountId, RespondentId, SendoutId, SurveyId};
use canvass_domain::language::Language;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Bool, Jsonb, Text, Timestamptz};
use time::OffsetDateTime;

use crate::named::Named;
use crate::schema::{answer_sets, sendouts, surveys};

type TargetRow = (
    i64,
    i64,
    String,
    String,
    Named<Language>,
    Named<Language>,
    bool,
    Named<SendoutStatus>,
    Option<OffsetDateTime>,
    Option<i64>,
    Option<bool>,
    bool,
);

/// Whether a full `closeSurvey` quota of the target's survey closes it to newcomers (the account's quotas, by the
/// sendout's pinned account).
const CLOSED_BY_QUOTA: &str = "EXISTS (SELECT 1 FROM quotas q WHERE q.account_id = sendouts.account_id \
     AND q.survey_id = surveys.id AND q.action = 'closeSurvey' AND q.count >= q.quota_limit)";

/// The LINK sendout of `account` whose handle is `handle`, with its survey and whether a full `closeSurvey` quota
/// closes it; its completed answer sets are counted (a second statement) only when it has a cap.
pub(super) fn find_open_link(
    conn: &mut PgConnection,
    account: AccountId,
    handle: &str,
) -> QueryResult<Option<OpenLinkTarget>> {
    let row: Option<TargetRow> = sendouts::table
        .inner_join(
            surveys::table.on(surveys::account_id.eq(sendouts::account_id).and(surveys::id.eq(sendouts::survey_id))),
        )
        .filter(sendouts::account_id.eq(account.get()).and(sendouts::open_link_handle.eq(handle)))
        .select((
            sendouts::id,
            surveys::id,
            surveys::name,
            surveys::description,
            sendouts::language,
            surveys::language,
            surveys::active,
            sendouts::status,
            sendouts::expiry_date,
            sendouts::max_responses,
            sendouts::one_response_per_browser,
            diesel::dsl::sql::<Bool>(CLOSED_BY_QUOTA),
        ))
        .first(conn)
        .optional()?;
    let Some((sendout, survey, name, description, language, survey_language, active, status, expiry, cap, once, full)) =
        row
    else {
        return Ok(None);
    };
    let completed = match cap {
        Some(_) => answer_sets::table
            .filter(
                answer_sets::account_id
                    .eq(account.get())
                    .and(answer_sets::sendout_id.eq(sendout))
                    .and(answer_sets::completed.eq(true)),
            )
            .count()
            .get_result(conn)?,
        None => 0,
    };
    Ok(Some(OpenLinkTarget {
        account_id: account,
        survey_id: SurveyId::new(survey),
        sendout_id: SendoutId::new(sendout),
        survey_name: name,
        survey_description: description,
        language: language.0,
        survey_language: survey_language.0,
        survey_active: active,
        sendout_active: status.0 == SendoutStatus::Active,
        expiry_date: expiry,
        max_responses: cap,
        one_response_per_browser: once.unwrap_or(true),
        completed,
        closed_by_quota: full,
    }))
}

/// Adds an anonymous, Released visitor of `sendout` with its own `token`, and counts it in the sendout, in one
/// statement (the insert in a CTE, as a copy's respondents are counted: both name the account, one shard).
pub(super) fn insert_visitor(
    conn: &mut PgConnection,
    account: AccountId,
    sendout: SendoutId,
    token: &str,
    background: &BackgroundData,
    now: OffsetDateTime,
) -> QueryResult<RespondentId> {
    #[derive(QueryableByName)]
    struct Inserted {
        #[diesel(sql_type = BigInt)]
        id: i64,
    }
    let inserted: Inserted = diesel::sql_query(
        "WITH inserted AS ( \
             INSERT INTO respondents (account_id, sendout_id, contact_details, contact_key, send_mail, \
                 background_data, status, token, added_at, released_at) \
             VALUES ($1, $2, '', $3, false, $7, $4, $5, $6, $6) RETURNING id), \
         noted AS (INSERT INTO respondent_events (account_id, respondent_id, at, kind) \
             SELECT $1, id, $6, 'added' FROM inserted) \
         UPDATE sendouts SET respondent_count = respondent_count + 1 \
         WHERE account_id = $1 AND id = $2 RETURNING (SELECT id FROM inserted) AS id",
    )
    .bind::<BigInt, _>(account.get())
    .bind::<BigInt, _>(sendout.get())
    .bind::<Text, _>(visitor_key(token))
    .bind::<Text, _>(RespondentStatus::Released.as_str())
    .bind::<Text, _>(token)
    .bind::<Timestamptz, _>(now)
    .bind::<Jsonb, _>(cells_json(background))
    .get_result(conn)?;
    Ok(RespondentId::new(inserted.id))
}
