//! `/accounts/users` and `/accounts/keys`: the account's team, by its owners and admins. A change that takes a key
//! away (a revocation, a user deactivated or given another role) drops the affected keys from this server's key
//! cache at once; other servers of the service re-read them within the cache's seconds.

use actix_web::{delete, get, patch, post, web, HttpRequest, HttpResponse};
use canvass_domain::account::{KeyPrefix, Permission};
use canvass_domain::ids::UserId;
use canvass_domain::use_cases::{accounts, team};

use crate::audit::AuditSlot;
use crate::blocking;
use crate::dto::team::{ChangeUserBody, CreateKeyBody, CreateUserBody, CreatedKeyResponse, KeyResponse, UserResponse};
use crate::extract::body::Body;
use crate::extract::path::Ids;
use crate::middleware::auth::Authenticated;
use crate::problem::Problem;
use crate::state::AppState;

/// Lists the account's users, deactivated ones too.
#[utoipa::path(tag = "Accounts",
    responses((status = 200, body = Vec<UserResponse>), (status = 401, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Admin.name()))))]
#[get("/accounts/users")]
pub async fn list_users(state: web::Data<AppState>, caller: Authenticated) -> Result<HttpResponse, Problem> {
    let account = caller.account();
    let found = blocking::run(&state, move |uow, _| accounts::list_users(uow, account)).await?;
    Ok(HttpResponse::Ok().json(found.into_iter().map(UserResponse::from).collect::<Vec<_>>()))
}

/// Reads one user of the account.
#[utoipa::path(tag = "Accounts",
    params(("userId" = i64, Path, description = "A user of the account")),
    responses((status = 200, body = UserResponse), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Admin.name()))))]
#[get("/accounts/users/{userId}")]
pub async fn get_user(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<UserId>,
) -> Result<HttpResponse, Problem> {
    let (account, id) = (caller.account(), path.0);
    let user = blocking::run(&state, move |uow, _| accounts::get_user(uow, account, id)).await?;
    Ok(HttpResponse::Ok().json(UserResponse::from(user)))
}

/// Adds a user to the account; only an owner adds an owner.
#[utoipa::path(tag = "Accounts", request_body = CreateUserBody,
    responses((status = 201, body = UserResponse), (status = 403, body = Problem),
        (status = 409, description = "the account has a user with this email address", body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Admin.name())), ("x-canvass-audit" = json!("user.create"))))]
#[post("/accounts/users")]
pub async fn create_user(
    state: web::Data<AppState>,
    req: HttpRequest,
    caller: Authenticated,
    body: Body<CreateUserBody>,
) -> Result<HttpResponse, Problem> {
    let who = caller.0;
    let user = body.0.into_domain().map_err(Problem::invalid)?;
    blocking::respond(
        &state,
        &req,
        move |uow, clock| team::create_user(uow, clock, &who, user),
        |user| HttpResponse::Created().json(UserResponse::from(user)),
    )
    .await
}

/// Changes a user's role or whether it is active. The account keeps one active owner (409); only an owner makes,
/// changes or removes an owner (403). A deactivated user's keys answer 401 from the next request on.
#[utoipa::path(tag = "Accounts", request_body = ChangeUserBody,
    params(("userId" = i64, Path, description = "A user of the account")),
    responses((status = 200, body = UserResponse), (status = 403, body = Problem), (status = 404, body = Problem),
        (status = 409, description = "the change would leave no active owner", body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Admin.name())), ("x-canvass-audit" = json!("user.change"))))]
#[patch("/accounts/users/{userId}")]
pub async fn change_user(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<UserId>,
    body: Body<ChangeUserBody>,
) -> Result<HttpResponse, Problem> {
    let (who, id, change) = (caller.0, path.0, body.0.into());
    let user = blocking::run(&state, move |uow, _| team::change_user(uow, &who, id, change)).await?;
    state.forget_keys(who.account_id, move |cached| cached.user_id == id);
    Ok(HttpResponse::Ok().json(UserResponse::from(user)))
}

/// Makes a key for a user of the account, shown this once; only an owner makes an owner's keys.
#[utoipa::path(tag = "Accounts", request_body = CreateKeyBody,
    params(("userId" = i64, Path, description = "A user of the account")),
    responses((status = 201, body = CreatedKeyResponse), (status = 403, body = Problem), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Admin.name())), ("x-canvass-audit" = json!("key.create"))))]
#[post("/accounts/users/{userId}/keys")]
pub async fn create_key(
    state: web::Data<AppState>,
    req: HttpRequest,
    caller: Authenticated,
    path: Ids<UserId>,
    body: Body<CreateKeyBody>,
) -> Result<HttpResponse, Problem> {
    let (who, user, spec) = (caller.0, path.0, body.0.into());
    blocking::respond(
        &state,
        &req,
        move |uow, clock| team::create_key(uow, clock, &who, user, spec),
        |(record, key)| {
            let api_key = key.secret().to_owned();
            HttpResponse::Created().json(CreatedKeyResponse { key: KeyResponse::from(record), api_key })
        },
    )
    .await
}

/// Lists every key of the account (those the command line made too), revoked ones included; never a key itself.
#[utoipa::path(tag = "Accounts",
    responses((status = 200, body = Vec<KeyResponse>)),
    extensions(("x-canvass-permission" = json!(Permission::Admin.name()))))]
#[get("/accounts/keys")]
pub async fn list_keys(state: web::Data<AppState>, caller: Authenticated) -> Result<HttpResponse, Problem> {
    let who = caller.0;
    let keys = blocking::run(&state, move |uow, _| team::list_keys(uow, &who)).await?;
    Ok(HttpResponse::Ok().json(keys.into_iter().map(KeyResponse::from).collect::<Vec<_>>()))
}

/// Revokes a key by its prefix: it answers 401 from the next request on. Only an owner revokes an owner's key.
#[utoipa::path(tag = "Accounts",
    params(("prefix" = String, Path, description = "The key's first 16 characters: `cvs_` and 12 hex digits",
        min_length = 16, max_length = 16, pattern = "^cvs_[0-9a-f]{12}$")),
    responses((status = 204, description = "Revoked"), (status = 403, body = Problem), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Admin.name())), ("x-canvass-audit" = json!("key.revoke"))))]
#[delete("/accounts/keys/{prefix}")]
pub async fn revoke_key(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<String>,
) -> Result<HttpResponse, Problem> {
    let who = caller.0;
    let prefix = KeyPrefix::parse(&path.0).ok_or_else(|| {
        Problem::invalid_field("prefix", "must be a key's first 16 characters: cvs_ and 12 hex digits")
    })?;
    AuditSlot::name_target("key", prefix.to_string());
    blocking::run(&state, move |uow, clock| team::revoke_key(uow, clock, &who, prefix)).await?;
    state.forget_keys(who.account_id, move |cached| cached.key == prefix);
    Ok(HttpResponse::NoContent().finish())
}
