//! The directory's contacts on PostgreSQL (`contacts`): unique within the account by `email_key` (the address
//! lower-cased) and by `phone`, each a unique index, so that two requests that add one person at once store one
//! contact; searched through the trigram index on the four searchable fields (migration `000038_contacts`).

mod lists;
mod search;

use std::collections::BTreeMap;

use canvass_domain::directory::ports::ContactRepository;
use canvass_domain::directory::{Contact, ContactDraft};
use canvass_domain::ids::{AccountId, ContactId, ContactListId};
use canvass_domain::language::Language;
use canvass_domain::paging::{Page, PageRequest};
use canvass_domain::ports::RepoResult;
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error};
use diesel::sql_types::{Array, BigInt, Jsonb, Nullable, Text, Timestamptz};

use crate::prepared::prepared;
use serde_json::Value;
use time::OffsetDateTime;

use crate::error::OrRepoError;
use crate::named::Named;
use crate::schema::{contact_list_members, contacts, respondents};
use crate::PgUnitOfWork;

#[derive(Queryable, Selectable, QueryableByName)]
#[diesel(table_name = contacts)]
pub(crate) struct ContactRow {
    id: i64,
    email: Option<String>,
    phone: Option<String>,
    first_name: Option<String>,
    last_name: Option<String>,
    language: Option<Named<Language>>,
    attributes: Value,
    created_at: OffsetDateTime,
    updated_at: OffsetDateTime,
}

impl From<ContactRow> for Contact {
    fn from(row: ContactRow) -> Self {
        // The column's CHECK keeps it an object of texts, the only values a draft writes.
        let stored = match row.attributes {
            Value::Object(stored) => stored,
            _ => serde_json::Map::new(),
        };
        let attributes: BTreeMap<String, String> = stored
            .into_iter()
            .filter_map(|(name, value)| value.as_str().map(|value| (name, value.to_owned())))
            .collect();
        Self {
            id: ContactId::new(row.id),
            email: row.email,
            phone: row.phone,
            first_name: row.first_name,
            last_name: row.last_name,
            language: row.language.map(|language| language.0),
            attributes,
            created_at: row.created_at,
            updated_at: row.updated_at,
        }
    }
}

/// The fields of a contact a draft sets, on insert and on update alike (a `None` writes NULL).
#[derive(Insertable, AsChangeset)]
#[diesel(table_name = contacts, treat_none_as_null = true)]
struct ContactFields<'a> {
    email: Option<&'a str>,
    email_key: Option<String>,
    phone: Option<&'a str>,
    first_name: Option<&'a str>,
    last_name: Option<&'a str>,
    language: Option<&'static str>,
    attributes: Value,
}

impl<'a> ContactFields<'a> {
    fn of(draft: &'a ContactDraft) -> Self {
        let attributes = draft.attributes().iter().map(|(name, value)| (name.clone(), value.clone().into()));
        Self {
            email: draft.email(),
            email_key: draft.email_key(),
            phone: draft.phone(),
            first_name: draft.first_name(),
            last_name: draft.last_name(),
            language: draft.language().map(Language::code),
            attributes: Value::Object(attributes.collect()),
        }
    }
}

/// Many contacts changed at once: each gets its drafted fields, matched by id within the account.
const UPDATE_CONTACTS: &str = "\
UPDATE contacts SET email = changed.email, email_key = changed.email_key, phone = changed.phone,
    first_name = changed.first_name, last_name = changed.last_name, language = changed.language,
    attributes = changed.attributes, updated_at = $2
FROM unnest($3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::jsonb[])
    AS changed (id, email, email_key, phone, first_name, last_name, language, attributes)
WHERE contacts.account_id = $1 AND contacts.id = changed.id";

/// A bulk write's unique violation: the caller looked the addresses and numbers up in this transaction, so
/// another request took one meanwhile.
fn taken_meanwhile(error: Error) -> canvass_domain::RepoError {
    match error {
        Error::DatabaseError(DatabaseErrorKind::UniqueViolation, _) => {
            canvass_domain::RepoError::Concurrent(error.into())
        }
        error => crate::error::map_diesel_error(error),
    }
}

/// `text` as a `LIKE` pattern that matches it anywhere, its own `%`, `_` and `\` taken literally.
fn anywhere(text: &str) -> String {
    let escaped = text.to_lowercase().replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_");
    format!("%{escaped}%")
}

impl PgUnitOfWork<'_> {
    /// The contact of `account`, other than `except`, that holds the draft's email address or phone number.
    fn holder(
        &mut self,
        account: AccountId,
        draft: &ContactDraft,
        except: Option<ContactId>,
    ) -> QueryResult<Option<i64>> {
        let same = contacts::email_key.eq(draft.email_key()).or(contacts::phone.eq(draft.phone()));
        contacts::table
            .filter(contacts::account_id.eq(account.get()))
            .filter(contacts::id.ne(except.map_or(0, ContactId::get)))
            .filter(same.assume_not_null())
            .order(contacts::id)
            .select(contacts::id)
            .first(self.conn)
            .optional()
    }
}

impl ContactRepository for PgUnitOfWork<'_> {
    fn insert_contact(
        &mut self,
        account: AccountId,
        draft: &ContactDraft,
        now: OffsetDateTime,
    ) -> RepoResult<Result<Contact, ContactId>> {
        let inserted: Option<ContactRow> = diesel::insert_into(contacts::table)
            .values((
                contacts::account_id.eq(account.get()),
                ContactFields::of(draft),
                contacts::created_at.eq(now),
                contacts::updated_at.eq(now),
            ))
            .on_conflict_do_nothing()
            .returning(ContactRow::as_returning())
            .get_result(self.conn)
            .optional()
            .or_repo()?;
        if let Some(row) = inserted {
            return Ok(Ok(row.into()));
        }
        match self.holder(account, draft, None).or_repo()? {
            Some(existing) => Ok(Err(ContactId::new(existing))),
            // The contact in the way went before it could be named: the caller may try again.
            None => Err(canvass_domain::RepoError::Concurrent("contacts unique".into())),
        }
    }

    fn find_contact(&mut self, account: AccountId, id: ContactId) -> RepoResult<Option<Contact>> {
        let row: Option<ContactRow> = contacts::table
            .filter(contacts::account_id.eq(account.get()).and(contacts::id.eq(id.get())))
            .select(ContactRow::as_select())
            .first(self.conn)
            .optional()
            .or_repo()?;
        Ok(row.map(Contact::from))
    }

    fn update_contact(
        &mut self,
        account: AccountId,
        id: ContactId,
        draft: &ContactDraft,
        now: OffsetDateTime,
    ) -> RepoResult<Option<Result<Contact, ContactId>>> {
        if let Some(other) = self.holder(account, draft, Some(id)).or_repo()? {
            return Ok(Some(Err(ContactId::new(other))));
        }
        let updated = diesel::update(contacts::table)
            .filter(contacts::account_id.eq(account.get()).and(contacts::id.eq(id.get())))
            .set((ContactFields::of(draft), contacts::updated_at.eq(now)))
            .returning(ContactRow::as_returning())
            .get_result::<ContactRow>(self.conn)
            .optional();
        match updated {
            Ok(row) => Ok(row.map(|row| Ok(row.into()))),
            // Another request took the address or number since the look-up above.
            Err(Error::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => {
                match self.holder(account, draft, Some(id)).or_repo()? {
                    Some(other) => Ok(Some(Err(ContactId::new(other)))),
                    None => Err(canvass_domain::RepoError::Concurrent("contacts unique".into())),
                }
            }
            Err(error) => Err(error).or_repo(),
        }
    }

    fn contacts_holding(
        &mut self,
        account: AccountId,
        email_keys: &[String],
        phones: &[String],
    ) -> RepoResult<Vec<Contact>> {
        if email_keys.is_empty() && phones.is_empty() {
            return Ok(Vec::new());
        }
        let holding = contacts::email_key.eq_any(email_keys).or(contacts::phone.eq_any(phones));
        let rows: Vec<ContactRow> = contacts::table
            .filter(contacts::account_id.eq(account.get()))
            .filter(holding.assume_not_null())
            .select(ContactRow::as_select())
            .load(self.conn)
            .or_repo()?;
        Ok(rows.into_iter().map(Contact::from).collect())
    }

    fn insert_contacts(&mut self, account: AccountId, drafts: &[ContactDraft], now: OffsetDateTime) -> RepoResult<()> {
        // 9 parameters a row: 5,000 rows stay below PostgreSQL's 65,535.
        for chunk in drafts.chunks(5_000) {
            let rows: Vec<_> = chunk
                .iter()
                .map(|draft| {
                    (
                        contacts::account_id.eq(account.get()),
                        ContactFields::of(draft),
                        contacts::created_at.eq(now),
                        contacts::updated_at.eq(now),
                    )
                })
                .collect();
            diesel::insert_into(contacts::table).values(rows).execute(self.conn).map_err(taken_meanwhile)?;
        }
        Ok(())
    }

    fn update_contacts(
        &mut self,
        account: AccountId,
        changes: &[(ContactId, ContactDraft)],
        now: OffsetDateTime,
    ) -> RepoResult<()> {
        if changes.is_empty() {
            return Ok(());
        }
        let fields: Vec<ContactFields<'_>> = changes.iter().map(|(_, draft)| ContactFields::of(draft)).collect();
        prepared(UPDATE_CONTACTS)
            .bind::<BigInt, _>(account.get())
            .bind::<Timestamptz, _>(now)
            .bind::<Array<BigInt>, _>(changes.iter().map(|(id, _)| id.get()).collect::<Vec<_>>())
            .bind::<Array<Nullable<Text>>, _>(fields.iter().map(|f| f.email).collect::<Vec<_>>())
            .bind::<Array<Nullable<Text>>, _>(fields.iter().map(|f| f.email_key.as_deref()).collect::<Vec<_>>())
            .bind::<Array<Nullable<Text>>, _>(fields.iter().map(|f| f.phone).collect::<Vec<_>>())
            .bind::<Array<Nullable<Text>>, _>(fields.iter().map(|f| f.first_name).collect::<Vec<_>>())
            .bind::<Array<Nullable<Text>>, _>(fields.iter().map(|f| f.last_name).collect::<Vec<_>>())
            .bind::<Array<Nullable<Text>>, _>(fields.iter().map(|f| f.language).collect::<Vec<_>>())
            .bind::<Array<Jsonb>, _>(fields.iter().map(|f| &f.attributes).collect::<Vec<_>>())
            .execute(self.conn)
            .map_err(taken_meanwhile)?;
        Ok(())
    }

    fn delete_contact(&mut self, account: AccountId, id: ContactId) -> RepoResult<bool> {
        // Its respondents keep their own copy of its details, and no longer name it.
        diesel::update(respondents::table)
            .filter(respondents::account_id.eq(account.get()).and(respondents::contact_id.eq(id.get())))
            .set(respondents::contact_id.eq(None::<i64>))
            .execute(self.conn)
            .or_repo()?;
        let deleted = diesel::delete(contacts::table)
            .filter(contacts::account_id.eq(account.get()).and(contacts::id.eq(id.get())))
            .execute(self.conn)
            .or_repo()?;
        Ok(deleted == 1)
    }

    fn page_contacts(
        &mut self,
        account: AccountId,
        search: Option<&str>,
        list: Option<ContactListId>,
        page: PageRequest,
    ) -> RepoResult<Page<Contact>> {
        if let Some(search) = search {
            return search::page(self.conn, account, &anywhere(search), list, page).or_repo();
        }
        let matching = || {
            let mut query = contacts::table.filter(contacts::account_id.eq(account.get())).into_boxed();
            if let Some(list) = list {
                let members = contact_list_members::table
                    .filter(contact_list_members::account_id.eq(account.get()))
                    .filter(contact_list_members::list_id.eq(list.get()))
                    .select(contact_list_members::contact_id);
                query = query.filter(contacts::id.eq_any(members));
            }
            query
        };
        let total_count: i64 = matching().count().get_result(self.conn).or_repo()?;
        let rows: Vec<ContactRow> = matching()
            .order(contacts::id)
            .offset(page.offset())
            .limit(page.size())
            .select(ContactRow::as_select())
            .load(self.conn)
            .or_repo()?;
        Ok(Page { request: page, items: rows.into_iter().map(Contact::from).collect(), total_count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_search_term_is_matched_literally_anywhere() {
        assert_eq!(anywhere("Anna"), "%anna%");
        assert_eq!(anywhere("100%_a\\b"), "%100\\%\\_a\\\\b%");
    }
}
