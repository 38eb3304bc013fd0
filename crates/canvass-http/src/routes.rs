//! The endpoints, one module per resource. Handlers parse, run one use case in one blocking hop, and shape the
//! response.

pub mod accounts;
pub mod alerts;
pub mod answers;
pub mod api_scope;
pub mod audit;
pub mod bgdata;
pub mod blocklist;
pub mod contact_lists;
pub mod contacts;
pub mod dsn;
pub mod erasure;
pub mod exports;
pub mod fallback;
pub mod frequency;
pub mod health;
pub mod insight;
pub mod metrics;
pub mod preview;
pub mod questionnaire;
pub mod questions;
pub mod quotas;
pub mod reports;
pub mod respondents;
pub mod retention_policies;
pub mod retention_rules;
pub mod retention_runs;
pub mod sendouts;
pub mod shared_secret;
pub mod sms;
pub mod surveys;
pub mod team;
pub mod timelines;
pub mod translations;
pub mod webhooks;

use utoipa_actix_web::service_config::ServiceConfig;

pub use api_scope::{API_VERSIONS, RULES_VERSION};

/// Registers every endpoint of the interface, relative to the version segment (`api_scope`).
pub fn api(cfg: &mut ServiceConfig) {
    // `/surveys/frequency` first: it would otherwise match `/surveys/{surveyId}`.
    cfg.service(frequency::get_account)
        .service(frequency::put_account)
        .service(frequency::enable_account)
        .service(frequency::disable_account)
        .service(frequency::get_survey)
        .service(frequency::put_survey)
        .service(frequency::enable_survey)
        .service(frequency::disable_survey)
        .service(retention_policies::get_account)
        .service(retention_policies::set_account)
        .service(retention_policies::get_survey)
        .service(retention_policies::set_survey)
        .service(retention_runs::runs)
        .service(surveys::list)
        .service(surveys::create)
        .service(surveys::get)
        .service(surveys::copy)
        .service(questions::question_tree)
        .service(questions::set_logic)
        .service(questions::delete_item)
        .service(questionnaire::patch_item)
        .service(questionnaire::add_page)
        .service(questionnaire::patch_page)
        .service(questionnaire::delete_page)
        .service(questionnaire::add_item)
        .service(quotas::create)
        .service(quotas::list)
        .service(quotas::get)
        .service(quotas::change)
        .service(quotas::remove)
        .service(alerts::create)
        .service(alerts::list)
        .service(alerts::get)
        .service(alerts::remove)
        .service(translations::list_translations)
        .service(translations::put_translation)
        .service(translations::get_translation)
        .service(translations::delete_translation)
        .service(answers::list)
        .service(answers::page)
        .service(answers::of_respondent)
        // Before `answers::get` and `answers::replace`, whose `{answerSetId}` would otherwise take `export` (and
        // refuse it as no number): the export's path answers every other method itself, 405 with `Allow: GET`.
        .service(exports::export)
        .route("/surveys/{surveyId}/answers/export", actix_web::web::route().to(fallback::unknown_route))
        .service(answers::get)
        .service(answers::item_answer)
        .service(answers::record)
        .service(answers::replace)
        .service(insight::results)
        .service(reports::report)
        .service(reports::chart)
        .service(accounts::list_categories)
        .service(accounts::get_category)
        .service(accounts::create_category)
        .service(team::list_users)
        .service(team::create_user)
        .service(team::get_user)
        .service(team::change_user)
        .service(team::create_key)
        .service(team::list_keys)
        .service(team::revoke_key)
        .service(audit::events)
        .service(accounts::get_settings)
        .service(accounts::save_settings)
        .service(erasure::erase)
        .service(erasure::receipt)
        .service(erasure::person)
        .service(sendouts::list)
        .service(sendouts::create)
        .service(sendouts::get)
        .service(sendouts::activate)
        .service(sendouts::deactivate)
        .service(sendouts::rotate_open_link)
        .service(sendouts::qr)
        .service(sendouts::list_labels)
        .service(sendouts::create_label)
        .service(sendouts::list_reminders)
        .service(sendouts::create_reminder)
        .service(preview::preview)
        .service(insight::statistics)
        .service(respondents::list)
        .service(respondents::add)
        .service(respondents::add_batch)
        .service(contact_lists::add_to_sendout)
        .service(timelines::of_respondent)
        .service(bgdata::list)
        .service(bgdata::get)
        .service(bgdata::document_labels)
        .service(bgdata::read_row)
        .service(bgdata::edit_row)
        .service(bgdata::add_row)
        .service(bgdata::delete_cells)
        .service(blocklist::list)
        .service(blocklist::add)
        .service(blocklist::remove)
        .service(contacts::create)
        .service(contacts::import)
        // Before `contacts::get`, `patch` and `delete`, whose `{contactId}` would otherwise take `import` (and
        // refuse it as no number): the import's path answers every other method itself, 405 with `Allow: POST`.
        .route("/contacts/import", actix_web::web::route().to(fallback::unknown_route))
        .service(contacts::list)
        .service(contacts::get)
        .service(contacts::patch)
        .service(contacts::delete)
        .service(timelines::of_contact)
        .service(contact_lists::create)
        .service(contact_lists::all)
        .service(contact_lists::delete)
        .service(contact_lists::add_members)
        .service(contact_lists::remove_member)
        .service(blocklist::list_failures)
        .service(blocklist::record_failures)
        .service(webhooks::list)
        .service(webhooks::create)
        .service(webhooks::get)
        .service(webhooks::remove)
        .service(webhooks::test)
        .service(webhooks::deliveries);
}

/// Registers the endpoints that exist only from API version 1.5: the retention rules, relative to
/// `/api/v1.5/data-retention/rules` (`api_scope`).
pub fn api_v1_5(cfg: &mut ServiceConfig) {
    cfg.service(retention_rules::set_account)
        .service(retention_rules::set_survey)
        .service(retention_rules::set_sendout)
        .service(retention_rules::list_all)
        .service(retention_rules::list_account)
        .service(retention_rules::list_survey)
        .service(retention_rules::list_sendout)
        .service(retention_rules::update_account)
        .service(retention_rules::update_survey)
        .service(retention_rules::update_sendout)
        .service(retention_rules::delete_account)
        .service(retention_rules::delete_survey)
        .service(retention_rules::delete_sendout);
}
