//! `/accounts/categories` and `/accounts/settings`: the account's categories and settings (users and keys:
//! `team.rs`).

use actix_web::{get, post, web, HttpRequest, HttpResponse};
use canvass_domain::account::Permission;
use canvass_domain::ids::CategoryId;
use canvass_domain::use_cases::{accounts, categories};

use crate::blocking;
use canvass_domain::account::AccountSettings;

use crate::dto::account::{AccountSettingsBody, CategoryResponse, CreateCategoryBody};
use crate::extract::body::Body;
use crate::extract::path::Ids;
use crate::middleware::auth::Authenticated;
use crate::problem::Problem;
use crate::state::AppState;

/// Lists the account's categories.
#[utoipa::path(tag = "Accounts",
    responses((status = 200, body = Vec<CategoryResponse>), (status = 401, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::SurveysRead.name()))))]
#[get("/accounts/categories")]
pub async fn list_categories(state: web::Data<AppState>, caller: Authenticated) -> Result<HttpResponse, Problem> {
    let account = caller.account();
    let found = blocking::run(&state, move |uow, _| categories::list(uow, account)).await?;
    Ok(HttpResponse::Ok().json(found.into_iter().map(CategoryResponse::from).collect::<Vec<_>>()))
}

/// Reads one category.
#[utoipa::path(tag = "Accounts",
    params(("categoryId" = i64, Path, description = "A category of the account")),
    responses((status = 200, body = CategoryResponse), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::SurveysRead.name()))))]
#[get("/accounts/categories/{categoryId}")]
pub async fn get_category(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<CategoryId>,
) -> Result<HttpResponse, Problem> {
    let (account, id) = (caller.account(), path.0);
    let category = blocking::run(&state, move |uow, _| categories::get(uow, account, id)).await?;
    Ok(HttpResponse::Ok().json(CategoryResponse::from(category)))
}

/// Creates a category.
#[utoipa::path(tag = "Accounts", request_body = CreateCategoryBody,
    responses((status = 201, body = CategoryResponse), (status = 400, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::SurveysWrite.name())), ("x-canvass-audit" = json!("category.create"))))]
#[post("/accounts/categories")]
pub async fn create_category(
    state: web::Data<AppState>,
    req: HttpRequest,
    caller: Authenticated,
    body: Body<CreateCategoryBody>,
) -> Result<HttpResponse, Problem> {
    let account = caller.account();
    let name = body.0.name;
    blocking::respond(
        &state,
        &req,
        move |uow, clock| categories::create(uow, clock, account, &name),
        |category| HttpResponse::Created().json(CategoryResponse::from(category)),
    )
    .await
}

/// The account's settings: the floor of `minGroupSize` (1 until set).
#[utoipa::path(tag = "Accounts",
    responses((status = 200, body = AccountSettingsBody), (status = 401, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Admin.name()))))]
#[get("/accounts/settings")]
pub async fn get_settings(state: web::Data<AppState>, caller: Authenticated) -> Result<HttpResponse, Problem> {
    let account = caller.account();
    let settings = blocking::run(&state, move |uow, _| accounts::settings(uow, account)).await?;
    Ok(HttpResponse::Ok().json(AccountSettingsBody::from(settings)))
}

/// Stores the account's settings, in place of those it had; answers them as stored.
#[utoipa::path(tag = "Accounts", request_body = AccountSettingsBody,
    responses((status = 200, body = AccountSettingsBody), (status = 400, body = Problem), (status = 401, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Admin.name())), ("x-canvass-audit" = json!("settings.change"))))]
#[post("/accounts/settings")]
pub async fn save_settings(
    state: web::Data<AppState>,
    req: HttpRequest,
    caller: Authenticated,
    body: Body<AccountSettingsBody>,
) -> Result<HttpResponse, Problem> {
    let account = caller.account();
    let settings = AccountSettings::new(body.0.min_group_size).map_err(|error| Problem::invalid(vec![error]))?;
    blocking::respond(
        &state,
        &req,
        move |uow, _| accounts::save_settings(uow, account, settings),
        |settings| HttpResponse::Ok().json(AccountSettingsBody::from(settings)),
    )
    .await
}
