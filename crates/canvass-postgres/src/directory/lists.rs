//! The directory's lists on PostgreSQL (`contact_lists`, `contact_list_members`, migration `000039_contact_lists`),
//! and a list's chunk added to a sendout in one statement.

use canvass_domain::directory::ports::ContactListRepository;
use canvass_domain::directory::{ContactDetail, ContactList, ListChunk, ListEntry};
use canvass_domain::ids::{AccountId, ContactId, ContactListId, SendoutId};
use canvass_domain::ports::RepoResult;
use canvass_domain::use_cases::respondents::RejectReason;
use diesel::dsl::count_star;
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Jsonb, Nullable, Text, Timestamptz};
use serde_json::{Map, Value};
use time::OffsetDateTime;

use crate::error::OrRepoError;
use crate::prepared::prepared;
use crate::schema::{contact_list_members, contact_lists, contacts};
use crate::PgUnitOfWork;

/// One chunk of a list's members added to a sendout, and what became of each, in one statement.
///
/// `members` takes the chunk's contact ids through the primary key of `contact_list_members`; `chunk` reads their
/// contacts, each with the detail of the sendout's kind (`$5`: `email`, `phone` or `either`), its key as the
/// sendout's unique index compares it (`email_key`, the address lower-cased, else the number) and its place in the
/// chunk, which picks its token from `$6` (joined to the array's ordinality: a subscript would walk the array of
/// texts from its start for every row); `judged` refuses the members without the detail and those on the
/// blocklist; `inserted` adds the rest, the sendout's unique index skipping the contacts it has already
/// (`duplicate`), and `noted` writes each one's `added` event. Background data: the attributes named as a key of
/// `$8` (`{"<label name>": "<label id>"}`), not
/// blank, under that label's id.
const ADD_CHUNK: &str = "\
WITH members AS (
    SELECT contact_id FROM contact_list_members
    WHERE account_id = $1 AND list_id = $2 AND contact_id > $3
    ORDER BY contact_id LIMIT $4
), chunk AS (
    SELECT c.id, c.language, c.attributes,
        CASE $5 WHEN 'email' THEN c.email WHEN 'phone' THEN c.phone ELSE coalesce(c.email, c.phone) END AS details,
        CASE $5 WHEN 'email' THEN c.email_key WHEN 'phone' THEN c.phone ELSE coalesce(c.email_key, c.phone) END AS key,
        row_number() OVER (ORDER BY c.id) AS place
    FROM members JOIN contacts c ON c.account_id = $1 AND c.id = members.contact_id
), judged AS (
    SELECT chunk.*, CASE
        WHEN chunk.details IS NULL THEN 'noContactDetail'
        WHEN EXISTS (SELECT 1 FROM blocklist b WHERE b.account_id = $1 AND b.contact_key = chunk.key)
            THEN 'blocklisted'
    END AS reason
    FROM chunk
), inserted AS (
    INSERT INTO respondents (account_id, sendout_id, contact_details, contact_key, send_mail, background_data,
        status, token, added_at, language, contact_id)
    SELECT $1, $7, judged.details, judged.key, true,
        CASE WHEN $8 = '{}'::jsonb THEN '{}'::jsonb ELSE
            (SELECT coalesce(jsonb_object_agg(label.value, judged.attributes ->> label.key), '{}'::jsonb)
             FROM jsonb_each_text($8) AS label WHERE judged.attributes ->> label.key ~ '\\S') END,
        'Pending', fresh.token, $9, judged.language, judged.id
    FROM judged JOIN unnest($6::text[]) WITH ORDINALITY AS fresh (token, place) ON fresh.place = judged.place
    WHERE judged.reason IS NULL
    ON CONFLICT (account_id, sendout_id, contact_key) DO NOTHING
    RETURNING id, contact_id
), noted AS (
    INSERT INTO respondent_events (account_id, respondent_id, at, kind)
    SELECT $1, inserted.id, $9, 'added' FROM inserted
)
SELECT judged.id AS contact,
    coalesce(judged.reason, CASE WHEN inserted.contact_id IS NULL THEN 'duplicate' END) AS reason
FROM judged LEFT JOIN inserted ON inserted.contact_id = judged.id
ORDER BY judged.id";

#[derive(QueryableByName)]
struct EntryRow {
    #[diesel(sql_type = BigInt)]
    contact: i64,
    #[diesel(sql_type = Nullable<Text>)]
    reason: Option<String>,
}

impl EntryRow {
    fn entry(self) -> ListEntry {
        let rejected = self.reason.map(|reason| match reason.as_str() {
            "noContactDetail" => RejectReason::NoContactDetail,
            "blocklisted" => RejectReason::Blocklisted,
            _ => RejectReason::Duplicate,
        });
        ListEntry { contact: ContactId::new(self.contact), rejected }
    }
}

fn detail_name(detail: ContactDetail) -> &'static str {
    match detail {
        ContactDetail::Email => "email",
        ContactDetail::Phone => "phone",
        ContactDetail::EmailElsePhone => "either",
    }
}

#[derive(Queryable)]
struct ListRow {
    id: i64,
    name: String,
    created_at: OffsetDateTime,
    member_count: i64,
}

impl From<ListRow> for ContactList {
    fn from(row: ListRow) -> Self {
        Self {
            id: ContactListId::new(row.id),
            name: row.name,
            member_count: row.member_count,
            created_at: row.created_at,
        }
    }
}

impl ContactListRepository for PgUnitOfWork<'_> {
    fn insert_contact_list(&mut self, account: AccountId, name: &str, now: OffsetDateTime) -> RepoResult<ContactList> {
        let (id, created_at): (i64, OffsetDateTime) = diesel::insert_into(contact_lists::table)
            .values((
                contact_lists::account_id.eq(account.get()),
                contact_lists::name.eq(name),
                contact_lists::created_at.eq(now),
            ))
            .returning((contact_lists::id, contact_lists::created_at))
            .get_result(self.conn)
            .or_repo()?;
        Ok(ContactList { id: ContactListId::new(id), name: name.to_owned(), member_count: 0, created_at })
    }

    fn contact_lists(&mut self, account: AccountId) -> RepoResult<Vec<ContactList>> {
        let rows: Vec<ListRow> = contact_lists::table
            .left_join(
                contact_list_members::table.on(contact_list_members::account_id
                    .eq(contact_lists::account_id)
                    .and(contact_list_members::list_id.eq(contact_lists::id))),
            )
            .filter(contact_lists::account_id.eq(account.get()))
            .group_by((contact_lists::account_id, contact_lists::id, contact_lists::name, contact_lists::created_at))
            .order(contact_lists::id)
            .select((
                contact_lists::id,
                contact_lists::name,
                contact_lists::created_at,
                diesel::dsl::count(contact_list_members::contact_id.nullable()),
            ))
            .load(self.conn)
            .or_repo()?;
        Ok(rows.into_iter().map(ContactList::from).collect())
    }

    fn contact_list_exists(&mut self, account: AccountId, list: ContactListId) -> RepoResult<bool> {
        let found = contact_lists::table
            .filter(contact_lists::account_id.eq(account.get()).and(contact_lists::id.eq(list.get())));
        diesel::select(diesel::dsl::exists(found)).get_result(self.conn).or_repo()
    }

    fn delete_contact_list(&mut self, account: AccountId, list: ContactListId) -> RepoResult<bool> {
        let deleted = diesel::delete(contact_lists::table)
            .filter(contact_lists::account_id.eq(account.get()).and(contact_lists::id.eq(list.get())))
            .execute(self.conn)
            .or_repo()?;
        Ok(deleted == 1)
    }

    fn add_list_members(
        &mut self,
        account: AccountId,
        list: ContactListId,
        contacts: &[ContactId],
        now: OffsetDateTime,
    ) -> RepoResult<Option<usize>> {
        let ids: Vec<i64> = contacts.iter().map(|id| id.get()).collect();
        let known = contacts::table
            .filter(contacts::account_id.eq(account.get()).and(contacts::id.eq_any(&ids)))
            .select(count_star());
        let found: i64 = known.get_result(self.conn).or_repo()?;
        if usize::try_from(found).ok() != Some(ids.len()) {
            return Ok(None);
        }
        let rows: Vec<_> = ids
            .iter()
            .map(|id| {
                (
                    contact_list_members::account_id.eq(account.get()),
                    contact_list_members::list_id.eq(list.get()),
                    contact_list_members::contact_id.eq(*id),
                    contact_list_members::added_at.eq(now),
                )
            })
            .collect();
        let mut added = 0;
        // 4 parameters a row: 10,000 rows stay below PostgreSQL's 65,535.
        for chunk in rows.chunks(10_000) {
            added += diesel::insert_into(contact_list_members::table)
                .values(chunk)
                .on_conflict_do_nothing()
                .execute(self.conn)
                .or_repo()?;
        }
        Ok(Some(added))
    }

    fn remove_list_member(&mut self, account: AccountId, list: ContactListId, contact: ContactId) -> RepoResult<bool> {
        let deleted = diesel::delete(contact_list_members::table)
            .filter(
                contact_list_members::account_id
                    .eq(account.get())
                    .and(contact_list_members::list_id.eq(list.get()))
                    .and(contact_list_members::contact_id.eq(contact.get())),
            )
            .execute(self.conn)
            .or_repo()?;
        Ok(deleted == 1)
    }

    fn add_list_chunk(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        chunk: &ListChunk,
        now: OffsetDateTime,
    ) -> RepoResult<Vec<ListEntry>> {
        let labels: Map<String, Value> =
            chunk.labels.iter().map(|(name, id)| (name.clone(), Value::String(id.to_string()))).collect();
        let rows: Vec<EntryRow> = prepared(ADD_CHUNK)
            .bind::<BigInt, _>(account.get())
            .bind::<BigInt, _>(chunk.list.get())
            .bind::<BigInt, _>(chunk.after.map_or(0, ContactId::get))
            .bind::<BigInt, _>(i64::try_from(chunk.tokens.len()).unwrap_or(i64::MAX))
            .bind::<Text, _>(detail_name(chunk.detail))
            .bind::<Array<Text>, _>(&chunk.tokens)
            .bind::<BigInt, _>(sendout.get())
            .bind::<Jsonb, _>(Value::Object(labels))
            .bind::<Timestamptz, _>(now)
            .load(self.conn)
            .or_repo()?;
        let added = rows.iter().filter(|row| row.reason.is_none()).count();
        self.add_pending(account, sendout, added)?;
        Ok(rows.into_iter().map(EntryRow::entry).collect())
    }
}
