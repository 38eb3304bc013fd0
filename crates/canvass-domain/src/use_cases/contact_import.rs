//! Importing a file of contacts: each row, in file order, creates a contact or updates the one it names (by email
//! address, then by phone number), in one transaction, a chunk of rows at a time: one look-up of the chunk's
//! contacts, then one set-based update and one set-based insert. A row that breaks a rule is rejected with its
//! line; a file that cannot be read at all changes nothing.

use std::collections::HashMap;

use time::OffsetDateTime;

use crate::clock::Clock;
use crate::directory::ports::ContactRepository;
use crate::directory::{Contact, ContactDraft, ImportRow};
use crate::error::{DomainError, FieldError};
use crate::ids::{AccountId, ContactId};
use crate::ports::{transaction, Transactional};

/// Rows looked up and written together.
pub const IMPORT_CHUNK: usize = 2_000;

/// One row of the file: its line number (the header is line 1) and the row, or what is wrong with it.
#[derive(Debug, Clone)]
pub struct ImportLine {
    /// The line the row starts on.
    pub line: u64,
    /// The row as read.
    pub row: Result<ImportRow, String>,
}

/// A row that was not imported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportRejection {
    /// The line the row starts on.
    pub line: u64,
    /// Why, in words that name the field.
    pub reason: String,
}

/// What an import did: rows that created a contact, rows that updated one, rows rejected.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImportOutcome {
    /// Rows that created a contact.
    pub created: usize,
    /// Rows that updated a contact.
    pub updated: usize,
    /// Rows rejected, in file order.
    pub rejected: Vec<ImportRejection>,
}

/// Imports the rows in one transaction; an `Err` among them (a file that turned out unreadable) rolls back
/// everything and is returned.
pub fn import(
    uow: &mut (impl ContactRepository + Transactional + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    lines: impl Iterator<Item = Result<ImportLine, DomainError>>,
) -> Result<ImportOutcome, DomainError> {
    transaction(uow, |tx| {
        let now = clock.now();
        let mut outcome = ImportOutcome::default();
        let mut chunk = Vec::with_capacity(IMPORT_CHUNK);
        for line in lines {
            chunk.push(line?);
            if chunk.len() == IMPORT_CHUNK {
                Chunk::apply(tx, account, now, std::mem::take(&mut chunk), &mut outcome)?;
            }
        }
        Chunk::apply(tx, account, now, chunk, &mut outcome)?;
        Ok(outcome)
    })
}

/// Where a row's contact is: one the chunk has touched already (a slot), or one stored before the chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    Slot(usize),
    Stored(usize),
}

/// A contact the chunk creates (`id` none) or changes, as the chunk's rows so far left it.
struct Slot {
    id: Option<ContactId>,
    contact: Contact,
}

/// One chunk's work: the contacts stored before it that its rows name, and the contacts its rows made or changed,
/// each reachable by its current email key and phone number.
#[derive(Default)]
struct Chunk {
    stored: Vec<Contact>,
    stored_by_email: HashMap<String, usize>,
    stored_by_phone: HashMap<String, usize>,
    slots: Vec<Slot>,
    slot_of_stored: HashMap<usize, usize>,
    slot_by_email: HashMap<String, usize>,
    slot_by_phone: HashMap<String, usize>,
}

/// What broke, field by field, as a rejection's reason.
fn reason_of(errors: &[FieldError]) -> String {
    let parts: Vec<String> = errors.iter().map(|error| format!("{}: {}", error.field, error.message)).collect();
    parts.join("; ")
}

impl Chunk {
    fn apply(
        uow: &mut (impl ContactRepository + ?Sized),
        account: AccountId,
        now: OffsetDateTime,
        lines: Vec<ImportLine>,
        outcome: &mut ImportOutcome,
    ) -> Result<(), DomainError> {
        if lines.is_empty() {
            return Ok(());
        }
        let rows = lines.iter().filter_map(|line| line.row.as_ref().ok());
        let (emails, phones): (Vec<Option<String>>, Vec<Option<String>>) =
            rows.map(|row| (row.email_key(), row.phone().map(str::to_owned))).unzip();
        let emails: Vec<String> = emails.into_iter().flatten().collect();
        let phones: Vec<String> = phones.into_iter().flatten().collect();
        let mut chunk = Self::default();
        for contact in uow.contacts_holding(account, &emails, &phones)? {
            chunk.remember_stored(contact);
        }
        for line in lines {
            if let Err(reason) = chunk.take(line.row, now, outcome) {
                outcome.rejected.push(ImportRejection { line: line.line, reason });
            }
        }
        let (mut changes, mut creations) = (Vec::new(), Vec::new());
        for slot in chunk.slots {
            let contact = slot.contact;
            let draft = ContactDraft::new(crate::directory::ContactInput {
                email: contact.email,
                phone: contact.phone,
                first_name: contact.first_name,
                last_name: contact.last_name,
                language: contact.language,
                attributes: contact.attributes,
            })
            .map_err(DomainError::Invalid)?;
            match slot.id {
                Some(id) => changes.push((id, draft)),
                None => creations.push(draft),
            }
        }
        // Changes first: a contact may give up an address that a new contact of the same chunk takes.
        uow.update_contacts(account, &changes, now)?;
        uow.insert_contacts(account, &creations, now)?;
        Ok(())
    }

    fn remember_stored(&mut self, contact: Contact) {
        let index = self.stored.len();
        if let Some(email) = contact.email.as_deref() {
            self.stored_by_email.insert(crate::distribution::contact_key(email), index);
        }
        if let Some(phone) = contact.phone.clone() {
            self.stored_by_phone.insert(phone, index);
        }
        self.stored.push(contact);
    }

    fn by_email(&self, key: &str) -> Option<Target> {
        match self.slot_by_email.get(key) {
            Some(slot) => Some(Target::Slot(*slot)),
            None => self.stored_by_email.get(key).map(|stored| Target::Stored(*stored)),
        }
    }

    fn by_phone(&self, phone: &str) -> Option<Target> {
        match self.slot_by_phone.get(phone) {
            Some(slot) => Some(Target::Slot(*slot)),
            None => self.stored_by_phone.get(phone).map(|stored| Target::Stored(*stored)),
        }
    }

    /// One row, in file order: what is wrong with it, or its change made to the chunk's contacts.
    fn take(
        &mut self,
        row: Result<ImportRow, String>,
        now: OffsetDateTime,
        outcome: &mut ImportOutcome,
    ) -> Result<(), String> {
        let row = row?;
        let by_email = row.email_key().and_then(|key| self.by_email(&key));
        let by_phone = row.phone().and_then(|phone| self.by_phone(phone));
        if let (Some(email), Some(phone)) = (by_email, by_phone) {
            if self.slot_index(email) != self.slot_index(phone) {
                return Err("email and phone belong to two different contacts".into());
            }
        }
        match by_email.or(by_phone) {
            Some(target) => {
                let slot = self.slot_for(target);
                let draft = row.patch().merged(&self.slots[slot].contact).map_err(|errors| reason_of(&errors))?;
                self.rekey(slot, draft, now);
                outcome.updated += 1;
            }
            None => {
                let draft = ContactDraft::new(row.input()).map_err(|errors| reason_of(&errors))?;
                let slot = self.slots.len();
                self.slots.push(Slot { id: None, contact: draft.clone().into_contact(ContactId::new(0), now, now) });
                self.rekey(slot, draft, now);
                outcome.created += 1;
            }
        }
        Ok(())
    }

    /// The slot a target is or would be, to compare two targets: a stored contact without a slot is told apart by
    /// its index past the slots.
    fn slot_index(&self, target: Target) -> usize {
        match target {
            Target::Slot(slot) => slot,
            Target::Stored(stored) => self.slot_of_stored.get(&stored).copied().unwrap_or(self.slots.len() + stored),
        }
    }

    /// The slot of a target, made for a stored contact the chunk has not touched yet.
    fn slot_for(&mut self, target: Target) -> usize {
        match target {
            Target::Slot(slot) => slot,
            Target::Stored(stored) => {
                if let Some(slot) = self.slot_of_stored.get(&stored) {
                    return *slot;
                }
                let contact = self.stored[stored].clone();
                if let Some(email) = contact.email.as_deref() {
                    self.stored_by_email.remove(&crate::distribution::contact_key(email));
                }
                if let Some(phone) = contact.phone.as_deref() {
                    self.stored_by_phone.remove(phone);
                }
                let slot = self.slots.len();
                self.slot_of_stored.insert(stored, slot);
                self.slots.push(Slot { id: Some(contact.id), contact });
                slot
            }
        }
    }

    /// Gives the slot the draft's fields, reachable by its new email key and phone number only.
    fn rekey(&mut self, slot: usize, draft: ContactDraft, now: OffsetDateTime) {
        let old = &self.slots[slot].contact;
        if let Some(email) = old.email.as_deref() {
            self.slot_by_email.remove(&crate::distribution::contact_key(email));
        }
        if let Some(phone) = old.phone.as_deref() {
            self.slot_by_phone.remove(phone);
        }
        if let Some(key) = draft.email_key() {
            self.slot_by_email.insert(key, slot);
        }
        if let Some(phone) = draft.phone() {
            self.slot_by_phone.insert(phone.to_owned(), slot);
        }
        let contact = &self.slots[slot].contact;
        let (id, created_at) = (contact.id, contact.created_at);
        self.slots[slot].contact = draft.into_contact(id, created_at, now);
    }
}
