//! `/surveys/{surveyId}/translations`: a survey's texts in other languages, one language stored whole, read with
//! what it lacks, listed and deleted. The language in the path is one of the twelve codes; another is a 400 listing
//! them.

use actix_web::{delete, get, put, web, HttpResponse};
use canvass_domain::account::Permission;
use canvass_domain::ids::SurveyId;
use canvass_domain::language::Language;
use canvass_domain::use_cases::translations;

use crate::blocking;
use crate::dto::sendout::LanguageBody;
use crate::dto::translation::{TranslationBody, TranslationResponse, TranslationSummaryResponse};
use crate::extract::body::Body;
use crate::extract::path::Ids;
use crate::middleware::auth::Authenticated;
use crate::problem::Problem;
use crate::state::AppState;

/// The language a path names, by its code; another value is a 400 listing the codes.
fn language_of(code: &str) -> Result<Language, Problem> {
    code.parse().map_err(|_| {
        Problem::invalid_field("language", format!("`{code}` is not one of the supported languages"))
            .with_supported_values(Language::codes())
    })
}

/// Stores the survey's texts in one language, replacing what that language held.
#[utoipa::path(tag = "Translations", request_body = TranslationBody,
    params(("surveyId" = i64, Path, description = "A survey of the account"),
        ("language" = LanguageBody, Path, description = "A language other than the survey's own")),
    responses((status = 200, body = TranslationResponse),
        (status = 400, body = Problem, description = "The survey's own language, a code outside the twelve \
            (`supportedValues` lists them), a text too long, or a page, item, option or row the survey does not \
            hold, each named in `errors`"),
        (status = 404, body = Problem), (status = 415, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::SurveysWrite.name())), ("x-canvass-audit" = json!("translation.change"))))]
#[put("/surveys/{surveyId}/translations/{language}")]
pub async fn put_translation(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<(SurveyId, String)>,
    body: Body<TranslationBody>,
) -> Result<HttpResponse, Problem> {
    let (account, (survey, code)) = (caller.account(), path.0);
    let language = language_of(&code)?;
    let input = body.0.into();
    let stored =
        blocking::run(&state, move |uow, clock| translations::put(uow, clock, account, survey, language, input))
            .await?;
    Ok(HttpResponse::Ok().json(TranslationResponse::from(stored)))
}

/// Reads the survey's texts in one language, with every text still lacking.
#[utoipa::path(tag = "Translations",
    params(("surveyId" = i64, Path, description = "A survey of the account"),
        ("language" = LanguageBody, Path, description = "A language of the survey's translations")),
    responses((status = 200, body = TranslationResponse),
        (status = 400, body = Problem, description = "A code outside the twelve (`supportedValues` lists them)"),
        (status = 404, body = Problem, description = "No such survey, or no translation into that language")),
    extensions(("x-canvass-permission" = json!(Permission::SurveysRead.name()))))]
#[get("/surveys/{surveyId}/translations/{language}")]
pub async fn get_translation(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<(SurveyId, String)>,
) -> Result<HttpResponse, Problem> {
    let (account, (survey, code)) = (caller.account(), path.0);
    let language = language_of(&code)?;
    let found = blocking::run(&state, move |uow, _| translations::get(uow, account, survey, language)).await?;
    Ok(HttpResponse::Ok().json(TranslationResponse::from(found)))
}

/// Deletes the survey's texts in one language.
#[utoipa::path(tag = "Translations",
    params(("surveyId" = i64, Path, description = "A survey of the account"),
        ("language" = LanguageBody, Path, description = "A language of the survey's translations")),
    responses((status = 204, description = "Deleted"),
        (status = 400, body = Problem, description = "A code outside the twelve (`supportedValues` lists them)"),
        (status = 404, body = Problem, description = "No such survey, or no translation into that language")),
    extensions(("x-canvass-permission" = json!(Permission::SurveysWrite.name())), ("x-canvass-audit" = json!("translation.delete"))))]
#[delete("/surveys/{surveyId}/translations/{language}")]
pub async fn delete_translation(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<(SurveyId, String)>,
) -> Result<HttpResponse, Problem> {
    let (account, (survey, code)) = (caller.account(), path.0);
    let language = language_of(&code)?;
    blocking::run(&state, move |uow, _| translations::delete(uow, account, survey, language)).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Lists the survey's translations in the order their languages were first stored, each with how many texts it
/// lacks.
#[utoipa::path(tag = "Translations",
    params(("surveyId" = i64, Path, description = "A survey of the account")),
    responses((status = 200, body = Vec<TranslationSummaryResponse>), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::SurveysRead.name()))))]
#[get("/surveys/{surveyId}/translations")]
pub async fn list_translations(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<SurveyId>,
) -> Result<HttpResponse, Problem> {
    let (account, survey) = (caller.account(), path.0);
    let listed = blocking::run(&state, move |uow, _| translations::list(uow, account, survey)).await?;
    Ok(HttpResponse::Ok().json(listed.into_iter().map(TranslationSummaryResponse::from).collect::<Vec<_>>()))
}
