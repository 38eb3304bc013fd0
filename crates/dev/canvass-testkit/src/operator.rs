//! The operator's actions the API has no endpoint for, done through the domain on the app's database as the
//! binary's commands do them: `canvass account create`, `canvass key revoke`, `canvass sender add` and `remove`.
//! (The binary's own tests run the commands themselves.)

use canvass_domain::clock::SystemClock;
use canvass_domain::ports::{StoreExt, UnitOfWork};
use canvass_domain::use_cases::{accounts, senders};

use crate::TestApp;

impl TestApp {
    /// Creates another account through the domain; returns its id and key.
    pub fn new_account(&self, name: &str, email: &str) -> (i64, String) {
        let created = self
            .db
            .store()
            .with_uow(|uow| accounts::create_account(uow, &SystemClock, name, email))
            .expect("create an account");
        (created.account_id.get(), created.api_key.secret().to_owned())
    }

    /// Provisions an SMS sender number to an account, as `canvass sender add` does.
    pub fn provision_sender(&self, account: i64, number: &str) {
        let account = canvass_domain::AccountId::new(account);
        let store = self.db.store();
        store.with_uow(|uow| senders::add(uow, &SystemClock, account, number)).expect("provision a sender");
    }

    /// Takes a sender number from an account, as `canvass sender remove` does.
    pub fn remove_sender(&self, account: i64, number: &str) {
        let account = canvass_domain::AccountId::new(account);
        let remove = |uow: &mut dyn UnitOfWork| senders::remove(uow, account, number);
        self.db.store().with_uow(remove).expect("remove a sender");
    }

    /// Revokes the key whose prefix (its first 16 characters) is `prefix`, as `canvass key revoke` does.
    pub fn revoke_key(&self, prefix: &str) {
        self.db.store().with_uow(|uow| accounts::revoke_key(uow, &SystemClock, prefix)).expect("revoke a key");
    }
}
