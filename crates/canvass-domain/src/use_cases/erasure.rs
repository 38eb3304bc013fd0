//! Erasure of one person on request: every respondent of the account with that contact, in every sendout.

use crate::account::Caller;
use crate::audit::Actor;
use crate::clock::Clock;
use crate::distribution::check_any_contact;
use crate::error::{DomainError, Resource};
use crate::governance::{ContactPatterns, ErasureReceipt, HeldOnPerson, NewErasureReceipt};
use crate::ids::{AccountId, ErasureReceiptId};
use crate::ports::{transaction, Erased, ErasureRepository, Transactional};

/// Erases the person as [`erase_person`] does and keeps a receipt of it in the same transaction: when, by whom,
/// what was erased; never the contact.
pub fn erase_with_receipt(
    uow: &mut (impl ErasureRepository + Transactional + ?Sized),
    clock: &dyn Clock,
    caller: &Caller,
    contact_details: &str,
    include_answers: bool,
) -> Result<ErasureReceipt, DomainError> {
    let account = caller.account_id;
    let contact = ContactPatterns::of(check_any_contact(contact_details)?);
    transaction(uow, |tx| {
        let erased = tx.erase_contact(account, &contact, include_answers)?;
        let erasure = NewErasureReceipt {
            at: clock.now(),
            actor: Actor { user_id: caller.user_id, key: caller.key },
            include_answers,
            respondents_erased: erased.respondents,
            answer_sets_deleted: erased.answer_sets,
        };
        let id = tx.record_erasure(account, &erasure)?;
        Ok(ErasureReceipt { id, erasure })
    })
}

/// Everything the account holds on the person with `contact_details` (a subject access request).
pub fn held_on_person(
    uow: &mut (impl ErasureRepository + ?Sized),
    account: AccountId,
    contact_details: &str,
) -> Result<HeldOnPerson, DomainError> {
    let contact = ContactPatterns::of(check_any_contact(contact_details)?);
    Ok(uow.held_on_person(account, &contact)?)
}

/// One receipt of the account's erasures.
pub fn receipt(
    uow: &mut (impl ErasureRepository + ?Sized),
    account: AccountId,
    id: ErasureReceiptId,
) -> Result<ErasureReceipt, DomainError> {
    uow.find_erasure(account, id)?.ok_or(DomainError::NotFound(Resource::ErasureReceipt))
}

/// Erases the person with `contact_details` from every sendout of the account, in one transaction: their
/// respondents (contact details, background data, survey links, messages) and the permanent failures recorded for
/// the address go; their answer sets go too with `include_answers`, and otherwise stay without a respondent (their
/// contact redacted where the answers quote it). The relay replies of their sendouts that quote the contact are
/// redacted, and the account's kept `Idempotency-Key` answers that hold it are erased, so that a repeat of such a
/// key answers 410 instead of adding the person again (docs/idempotency.md). The blocklist keeps its entry, so the
/// person is never contacted again. Email addresses compare case-insensitively, as everywhere. A repeat erases
/// nothing and answers zeros.
pub fn erase_person(
    uow: &mut (impl ErasureRepository + Transactional + ?Sized),
    account: AccountId,
    contact_details: &str,
    include_answers: bool,
) -> Result<Erased, DomainError> {
    let contact = ContactPatterns::of(check_any_contact(contact_details)?);
    transaction(uow, |tx| Ok(tx.erase_contact(account, &contact, include_answers)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::CONTACT;
    use crate::ports::RepoResult;

    /// Records what it was asked to erase and answers what it holds.
    #[derive(Default)]
    struct Recorder {
        asked: Vec<(AccountId, String, bool)>,
        patterns: Vec<ContactPatterns>,
        committed: usize,
        rolled_back: usize,
    }

    impl ErasureRepository for Recorder {
        fn erase_contact(
            &mut self,
            account: AccountId,
            contact: &ContactPatterns,
            include_answers: bool,
        ) -> RepoResult<Erased> {
            self.asked.push((account, contact.key().to_owned(), include_answers));
            self.patterns.push(contact.clone());
            Ok(Erased { respondents: 2, answer_sets: u64::from(include_answers) })
        }

        fn held_on_person(&mut self, _: AccountId, _: &ContactPatterns) -> RepoResult<HeldOnPerson> {
            Ok(HeldOnPerson::default())
        }

        fn record_erasure(&mut self, _: AccountId, _: &NewErasureReceipt) -> RepoResult<ErasureReceiptId> {
            Ok(ErasureReceiptId::new(1))
        }

        fn find_erasure(&mut self, _: AccountId, _: ErasureReceiptId) -> RepoResult<Option<ErasureReceipt>> {
            Ok(None)
        }
    }

    impl Transactional for Recorder {
        fn begin(&mut self) -> RepoResult<()> {
            Ok(())
        }
        fn commit(&mut self) -> RepoResult<()> {
            self.committed += 1;
            Ok(())
        }
        fn rollback(&mut self) -> RepoResult<()> {
            self.rolled_back += 1;
            Ok(())
        }
    }

    const ACCOUNT: AccountId = AccountId::new(7);

    #[test]
    fn an_email_address_is_erased_by_its_case_insensitive_key_in_one_transaction() {
        let mut store = Recorder::default();
        let erased = erase_person(&mut store, ACCOUNT, "  Kari.Nordmann@Example.NO ", true).unwrap();
        assert_eq!(erased, Erased { respondents: 2, answer_sets: 1 });
        assert_eq!(store.asked, [(ACCOUNT, "kari.nordmann@example.no".to_owned(), true)]);
        assert_eq!((store.committed, store.rolled_back), (1, 0));
        let patterns = &store.patterns[0];
        let kept = br#"{"respondentId":3,"contactDetails":"KARI.nordmann@example.NO"}"#;
        assert!(patterns.found_in_kept_body(kept), "kept answers are searched in any case");
        assert!(patterns.found_in_text("550 5.1.1 <Kari.Nordmann@Example.NO>: User unknown"));
    }

    #[test]
    fn a_phone_number_keeps_its_form_and_answers_stay_unless_asked() {
        let mut store = Recorder::default();
        erase_person(&mut store, ACCOUNT, "+4791234567", false).unwrap();
        assert_eq!(store.asked, [(ACCOUNT, "+4791234567".to_owned(), false)]);
        assert_eq!(store.patterns[0].text_pattern(), Some("\\+4791234567"));
    }

    #[test]
    fn an_empty_overlong_or_control_contact_is_refused_naming_the_field_and_erases_nothing() {
        let padded = format!(" {} ", "x".repeat(CONTACT - 1));
        for bad in ["", "   ", "a\u{7}@example.com", "\tann@example.com", &"x".repeat(CONTACT + 1), &padded] {
            let mut store = Recorder::default();
            let error = erase_person(&mut store, ACCOUNT, bad, false).unwrap_err();
            assert!(matches!(&error, DomainError::Invalid(fields) if fields[0].field == "contactDetails"), "{error:?}");
            assert!(store.asked.is_empty());
        }
    }
}
