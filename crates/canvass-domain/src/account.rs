//! Accounts, their users and API keys: how a key is made, shown once, stored as a hash and checked.

mod access;
pub mod ports;
mod settings;

pub use access::{grants_table, Permission, Refusal, Role, GRANTS};
pub use settings::{AccountSettings, MAX_MIN_GROUP_SIZE};

use rand::RngCore;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use time::OffsetDateTime;
use validator::ValidateEmail;

use crate::error::FieldError;
use crate::ids::{AccountId, KeyId, UserId};

/// Every key starts with this.
pub const KEY_PREFIX: &str = "cvs_";
/// How many characters of a key (including [`KEY_PREFIX`]) are stored in clear to find and revoke it.
pub const LOOKUP_PREFIX_LEN: usize = KEY_PREFIX.len() + 12;

/// A user of an account.
#[derive(Clone, PartialEq, Eq)]
pub struct User {
    /// The user's id.
    pub id: UserId,
    /// The account the user belongs to.
    pub account_id: AccountId,
    /// Display name.
    pub name: String,
    /// Email address.
    pub email: String,
    /// Role within the account (`owner` for the first user).
    pub role: Role,
    /// Whether the user's keys work: a deactivated user's keys answer 401.
    pub active: bool,
    /// When the user was created.
    pub created_at: OffsetDateTime,
}

/// A user to add to an account, checked: a non-empty name and an email address.
#[derive(Clone, PartialEq, Eq)]
pub struct NewUser {
    /// Display name, trimmed.
    pub name: String,
    /// Email address, trimmed.
    pub email: String,
    /// The role the user gets.
    pub role: Role,
}

impl NewUser {
    /// Checks the name and the email address.
    pub fn new(name: &str, email: &str, role: Role) -> Result<Self, Vec<FieldError>> {
        let checked = NewAccount::new(name, email)?;
        Ok(Self { name: checked.name, email: checked.email, role })
    }
}

/// What a change of a user sets; `None` leaves the field as it is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct UserChange {
    /// The new role.
    pub role: Option<Role>,
    /// Activates or deactivates the user.
    pub active: Option<bool>,
}

/// What a new key is: its name, when it stops working, and whether it may only read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeySpec {
    /// A name for people (`"CI export"`).
    pub name: String,
    /// When the key stops working.
    pub expires_at: Option<OffsetDateTime>,
    /// Whether the key may only read.
    pub read_only: bool,
}

impl KeySpec {
    /// The name the command line's keys get.
    pub const COMMAND_LINE: &'static str = "command line";
}

/// A key of an account as listed: never the key itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyRecord {
    /// The key's stored prefix.
    pub prefix: KeyPrefix,
    /// Whose key it is.
    pub user_id: UserId,
    /// Its name.
    pub name: String,
    /// When it was made.
    pub created_at: OffsetDateTime,
    /// When a request last presented it (to within the key cache's seconds).
    pub last_used_at: Option<OffsetDateTime>,
    /// When it stops working.
    pub expires_at: Option<OffsetDateTime>,
    /// Whether it may only read.
    pub read_only: bool,
    /// When it was revoked.
    pub revoked_at: Option<OffsetDateTime>,
}

/// What `canvass account create` needs: a checked account name and owner email.
#[derive(Clone, PartialEq, Eq)]
pub struct NewAccount {
    name: String,
    email: String,
}

impl NewAccount {
    /// Checks the name (non-empty) and the email address.
    ///
    /// ```
    /// use canvass_domain::account::NewAccount;
    ///
    /// assert!(NewAccount::new("Acme", "owner@acme.example").is_ok());
    /// assert!(NewAccount::new(" ", "owner@acme.example").is_err());
    /// assert!(NewAccount::new("Acme", "not an email").is_err());
    /// ```
    pub fn new(name: &str, email: &str) -> Result<Self, Vec<FieldError>> {
        let mut errors = Vec::new();
        if name.trim().is_empty() {
            errors.push(FieldError::new("name", "must not be empty"));
        }
        if !email.validate_email() {
            errors.push(FieldError::new("email", "must be an email address"));
        }
        if errors.is_empty() {
            Ok(Self { name: name.trim().to_owned(), email: email.trim().to_owned() })
        } else {
            Err(errors)
        }
    }

    /// The account's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The first user's email address.
    pub fn email(&self) -> &str {
        &self.email
    }
}

/// A freshly made API key: the secret is shown once, only [`ApiKeyHash`] and the lookup prefix are stored.
#[derive(Clone)]
pub struct ApiKey {
    secret: String,
}

impl std::fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ApiKey").field("prefix", &self.lookup_prefix()).finish_non_exhaustive()
    }
}

impl ApiKey {
    /// Makes a key of 256 random bits: `cvs_` and 64 hex digits.
    ///
    /// ```
    /// use canvass_domain::account::ApiKey;
    ///
    /// let key = ApiKey::generate();
    /// assert!(key.secret().starts_with("cvs_"));
    /// assert_eq!(key.secret().len(), 4 + 64);
    /// assert!(key.hash().matches(key.secret()));
    /// assert_ne!(ApiKey::generate().secret(), key.secret());
    /// ```
    pub fn generate() -> Self {
        let mut bytes = [0u8; 32];
        rand::rng().fill_bytes(&mut bytes);
        Self { secret: format!("{KEY_PREFIX}{}", hex::encode(bytes)) }
    }

    /// The key itself, to show the client once.
    pub fn secret(&self) -> &str {
        &self.secret
    }

    /// The stored, non-secret start of the key that finds it and names it for revocation.
    pub fn lookup_prefix(&self) -> &str {
        &self.secret[..LOOKUP_PREFIX_LEN]
    }

    /// The SHA-256 hash that is stored in place of the key.
    pub fn hash(&self) -> ApiKeyHash {
        ApiKeyHash::of(&self.secret)
    }
}

/// The SHA-256 hash of a key, which is all the store keeps of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiKeyHash(pub [u8; 32]);

impl ApiKeyHash {
    /// Hashes a presented key.
    pub fn of(secret: &str) -> Self {
        Self(Sha256::digest(secret.as_bytes()).into())
    }

    /// Whether `presented` hashes to this hash, compared in constant time.
    pub fn matches(&self, presented: &str) -> bool {
        Self::of(presented).0.ct_eq(&self.0).into()
    }
}

/// The part of a presented key used to find its stored record, or `None` when it cannot be a Canvass key.
///
/// ```
/// use canvass_domain::account::lookup_prefix_of;
///
/// assert_eq!(lookup_prefix_of("cvs_0123456789abcdef"), Some("cvs_0123456789ab"));
/// assert_eq!(lookup_prefix_of("Bearer something"), None);
/// ```
pub fn lookup_prefix_of(presented: &str) -> Option<&str> {
    (presented.starts_with(KEY_PREFIX) && presented.len() > LOOKUP_PREFIX_LEN && presented.is_ascii())
        .then(|| &presented[..LOOKUP_PREFIX_LEN])
}

/// Hex digits after [`KEY_PREFIX`] in every key [`ApiKey::generate`] makes.
pub const KEY_HEX_DIGITS: usize = 64;

/// Whether a presented key has the shape of a generated key (`cvs_` and 64 lowercase hex digits), so that
/// anything else can be refused without a look-up.
///
/// ```
/// use canvass_domain::account::{is_well_formed_key, ApiKey};
///
/// assert!(is_well_formed_key(ApiKey::generate().secret()));
/// assert!(!is_well_formed_key("cvs_0123"));
/// assert!(!is_well_formed_key(&format!("cvs_{}", "G".repeat(64))));
/// assert!(!is_well_formed_key(&format!("xyz_{}", "0".repeat(64))));
/// ```
pub fn is_well_formed_key(presented: &str) -> bool {
    presented.strip_prefix(KEY_PREFIX).is_some_and(|hex| {
        hex.len() == KEY_HEX_DIGITS && hex.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}

/// Whether `presented` is the `configured` secret (a shared secret, a metrics token), compared as SHA-256 digests
/// in constant time, so neither the secret's length nor how much of it matched shows in the time taken.
pub fn same_secret(configured: &str, presented: &str) -> bool {
    ApiKeyHash::of(configured).matches(presented)
}

/// A stored key as the store returns it when looked up by prefix.
#[derive(Debug, Clone)]
pub struct StoredKey {
    /// The key's id.
    pub id: KeyId,
    /// The key's owner.
    pub caller: Caller,
    /// The stored hash.
    pub hash: ApiKeyHash,
}

/// Who is calling: the account, user and role of an authenticated key, and what the key itself allows. Every use
/// case is scoped by its account.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caller {
    /// The caller's account.
    pub account_id: AccountId,
    /// The user the key belongs to.
    pub user_id: UserId,
    /// The user's role.
    pub role: Role,
    /// The key's stored prefix, which names it in the audit log and for revocation.
    pub key: KeyPrefix,
    /// Whether the key may only read.
    pub read_only: bool,
    /// When the key stops working, if it was made with an expiry.
    pub expires_at: Option<OffsetDateTime>,
}

impl Caller {
    /// Whether the caller may run an operation that needs `permission` and, when `changes`, changes something
    /// (a read-only key runs none of those).
    ///
    /// ```
    /// use canvass_domain::account::{Caller, Permission, Refusal, Role};
    /// use canvass_domain::testing::caller;
    ///
    /// let viewer = Caller { role: Role::Viewer, ..caller(1) };
    /// assert_eq!(viewer.may(Permission::SurveysRead, false), Ok(()));
    /// assert_eq!(viewer.may(Permission::AnswersRead, false), Err(Refusal::RoleLacks(Permission::AnswersRead)));
    /// let read_only = Caller { read_only: true, ..caller(1) };
    /// assert_eq!(read_only.may(Permission::Admin, false), Ok(()));
    /// assert_eq!(read_only.may(Permission::Admin, true), Err(Refusal::ReadOnlyKey(Permission::Admin)));
    /// ```
    pub fn may(&self, permission: Permission, changes: bool) -> Result<(), Refusal> {
        if !self.role.holds(permission) {
            return Err(Refusal::RoleLacks(permission));
        }
        if self.read_only && changes {
            return Err(Refusal::ReadOnlyKey(permission));
        }
        Ok(())
    }

    /// Whether the key has expired at `now`.
    pub fn expired_at(&self, now: OffsetDateTime) -> bool {
        self.expires_at.is_some_and(|expires| expires <= now)
    }

    /// Whether the caller reads personal data (contact details, names, delivery errors): not a viewer.
    pub fn sees_personal_data(&self) -> bool {
        self.role.sees_personal_data()
    }
}

/// The stored, non-secret first [`LOOKUP_PREFIX_LEN`] characters of a key (`cvs_` and 12 hex digits), which name it.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyPrefix([u8; LOOKUP_PREFIX_LEN]);

impl KeyPrefix {
    /// The prefix `text` names, when it has the shape of one (`cvs_` and 12 lowercase hex digits).
    ///
    /// ```
    /// use canvass_domain::account::KeyPrefix;
    ///
    /// assert_eq!(KeyPrefix::parse("cvs_0123456789ab").map(|p| p.to_string()), Some("cvs_0123456789ab".into()));
    /// assert!(KeyPrefix::parse("cvs_0123456789abc").is_none());
    /// assert!(KeyPrefix::parse("cvs_0123456789aZ").is_none());
    /// ```
    pub fn parse(text: &str) -> Option<Self> {
        let hex = text.strip_prefix(KEY_PREFIX)?;
        let shaped =
            text.len() == LOOKUP_PREFIX_LEN && hex.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        shaped.then(|| Self(text.as_bytes().try_into().unwrap_or([b'0'; LOOKUP_PREFIX_LEN])))
    }

    /// The prefix as text.
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.0).unwrap_or_default()
    }
}

impl std::fmt::Display for KeyPrefix {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::fmt::Debug for KeyPrefix {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "KeyPrefix({})", self.as_str())
    }
}

/// What `account create` returns: the new ids and the key, shown once.
#[derive(Debug, Clone)]
pub struct CreatedAccount {
    /// The new account.
    pub account_id: AccountId,
    /// Its first user, the owner.
    pub user_id: UserId,
    /// The owner's first key.
    pub api_key: ApiKey,
}

crate::debug_without_personal_data!(User { id, account_id, role, active, created_at });

crate::debug_without_personal_data!(NewUser { role });

crate::debug_without_personal_data!(NewAccount {});
