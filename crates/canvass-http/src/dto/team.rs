//! Bodies of the team endpoints: users with their roles, and keys.

use canvass_domain::account::{KeyRecord, KeySpec, NewUser, Role, User, UserChange};
use canvass_domain::timestamp::DayEdge;
use canvass_domain::FieldError;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;

use super::client_date::ClientDate;
use super::mirror::mirrored;
use super::schemas::DateText;

mirrored! {
    /// A user's role: what its keys may do (the README's "Who may do what").
    #[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema)]
    #[serde(rename_all = "lowercase")]
    pub enum RoleBody <=> Role {
        /// Everything; the only role that makes, changes or removes owners.
        Owner,
        /// Everything but owners: users, keys, governance.
        Admin,
        /// Surveys, translations, logic, quotas.
        Editor,
        /// Sendouts, respondents, contacts, reminders.
        Distributor,
        /// Answers, results, exports, reports.
        Analyst,
        /// Reads surveys, sendouts and statistics, without personal data.
        Viewer,
    }
}

/// A user of the account.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserResponse {
    /// The user's id.
    pub user_id: i64,
    /// Name.
    pub name: String,
    /// Email address.
    pub email: String,
    /// Role within the account.
    pub role: RoleBody,
    /// Whether the user's keys work.
    pub active: bool,
    /// When the user was created.
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
}

impl From<User> for UserResponse {
    fn from(user: User) -> Self {
        Self {
            user_id: user.id.get(),
            name: user.name,
            email: user.email,
            role: user.role.into(),
            active: user.active,
            created_at: user.created_at,
        }
    }
}

/// A user to add.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateUserBody {
    /// Display name.
    #[schema(min_length = 1, max_length = 200, pattern = "\\S")]
    pub name: String,
    /// Email address, distinct among the account's users (compared case-insensitively).
    #[schema(format = Email, max_length = 320)]
    pub email: String,
    /// The user's role; only an owner makes an owner.
    pub role: RoleBody,
}

impl CreateUserBody {
    /// The checked user.
    pub fn into_domain(self) -> Result<NewUser, Vec<FieldError>> {
        let mut errors = Vec::new();
        if self.name.chars().count() > 200 {
            errors.push(FieldError::new("name", "must be at most 200 characters"));
        }
        if self.email.chars().count() > canvass_domain::limits::EMAIL {
            errors.push(FieldError::new("email", "must be at most 320 characters"));
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        NewUser::new(&self.name, &self.email, self.role.into())
    }
}

/// A change of a user: its role, whether it is active, or both.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChangeUserBody {
    /// The new role; only an owner makes or unmakes an owner.
    pub role: Option<RoleBody>,
    /// `false` deactivates the user: its keys answer 401 from the next request on.
    pub active: Option<bool>,
}

impl From<ChangeUserBody> for UserChange {
    fn from(body: ChangeUserBody) -> Self {
        Self { role: body.role.map(Role::from), active: body.active }
    }
}

/// A key to make for a user.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateKeyBody {
    /// A name for people (`CI export`).
    #[schema(min_length = 1, max_length = 200, pattern = "\\S")]
    pub name: String,
    /// When the key stops working (RFC 3339, or a day: its end); in the future.
    #[serde(default)]
    #[schema(value_type = Option<DateText>)]
    pub expires_at: Option<ClientDate>,
    /// Whether the key may only read (its other requests answer 403).
    #[serde(default)]
    pub read_only: bool,
}

impl From<CreateKeyBody> for KeySpec {
    fn from(body: CreateKeyBody) -> Self {
        Self { name: body.name, expires_at: body.expires_at.map(|at| at.at(DayEdge::End)), read_only: body.read_only }
    }
}

/// A key of the account, as listed: never the key itself.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct KeyResponse {
    /// The key's first 16 characters, which name it (`cvs_` and 12 hex digits).
    #[schema(min_length = 16, max_length = 16, pattern = "^cvs_[0-9a-f]{12}$")]
    pub prefix: String,
    /// Its name.
    pub name: String,
    /// Whose key it is.
    pub user_id: i64,
    /// When it was made.
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// When a request last presented it (to within a few seconds); null until one has.
    #[serde(with = "time::serde::rfc3339::option")]
    pub last_used_at: Option<OffsetDateTime>,
    /// When it stops working; null for never.
    #[serde(with = "time::serde::rfc3339::option")]
    pub expires_at: Option<OffsetDateTime>,
    /// Whether it may only read.
    pub read_only: bool,
    /// When it was revoked; null while it works.
    #[serde(with = "time::serde::rfc3339::option")]
    pub revoked_at: Option<OffsetDateTime>,
}

impl From<KeyRecord> for KeyResponse {
    fn from(key: KeyRecord) -> Self {
        Self {
            prefix: key.prefix.to_string(),
            name: key.name,
            user_id: key.user_id.get(),
            created_at: key.created_at,
            last_used_at: key.last_used_at,
            expires_at: key.expires_at,
            read_only: key.read_only,
            revoked_at: key.revoked_at,
        }
    }
}

/// A key just made: what is listed of it, and the key itself, shown this once.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedKeyResponse {
    /// The key as listed.
    #[serde(flatten)]
    pub key: KeyResponse,
    /// The key: send it as `X-API-KEY` or `Authorization: Bearer`. Only its hash is stored.
    #[schema(min_length = 68, max_length = 68, pattern = "^cvs_[0-9a-f]{64}$")]
    pub api_key: String,
}
