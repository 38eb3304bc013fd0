//! The black-box suite's side of the test kit. The kit itself (crates/dev/canvass-testkit) starts the server on a
//! fresh database, does the operator's actions the API has no endpoint for (accounts, keys, sender numbers: what
//! `canvass account`, `canvass key` and `canvass sender` do) and holds a small JSON client; the binary's tests use
//! the same kit. These helpers are the only code the `api/` and `security/` tests reach that uses the domain: a
//! test there speaks HTTP and leaves to them what the operator does. The delivery round of [`worker`] is for
//! `system/` tests.

mod fixtures;
mod worker;

pub use canvass_testkit::{header, item_id, page_id, sample_survey_body, spawn_app, spawn_app_with, TestApp};
pub use canvass_testkit::{DSN_SECRET, PUBLIC};
pub use fixtures::*;
pub use worker::deliver_on;

/// Every endpoint of the interface under a version prefix, as the OpenAPI document names it.
pub const ENDPOINTS: [(&str, &str); 76] = [
    ("get", "/surveys"),
    ("post", "/surveys"),
    ("get", "/surveys/{surveyId}"),
    ("get", "/surveys/{surveyId}/copy"),
    ("get", "/surveys/{surveyId}/questions"),
    ("put", "/surveys/{surveyId}/logic"),
    ("delete", "/surveys/{surveyId}/questions/{questionItemId}"),
    ("patch", "/surveys/{surveyId}/questions/{questionItemId}"),
    ("post", "/surveys/{surveyId}/pages"),
    ("patch", "/surveys/{surveyId}/pages/{pageId}"),
    ("delete", "/surveys/{surveyId}/pages/{pageId}"),
    ("post", "/surveys/{surveyId}/pages/{pageId}/items"),
    ("get", "/surveys/{surveyId}/translations"),
    ("put", "/surveys/{surveyId}/translations/{language}"),
    ("get", "/surveys/{surveyId}/translations/{language}"),
    ("delete", "/surveys/{surveyId}/translations/{language}"),
    ("get", "/surveys/{surveyId}/answers"),
    ("post", "/surveys/{surveyId}/answers"),
    ("get", "/surveys/{surveyId}/answersWithData"),
    ("get", "/surveys/{surveyId}/answers/{answerSetId}"),
    ("put", "/surveys/{surveyId}/answers/{answerSetId}"),
    ("get", "/surveys/{surveyId}/answers/respondent/{respondentId}"),
    ("get", "/surveys/{surveyId}/answers/export"),
    ("get", "/surveys/{surveyId}/answers/{answerSetId}/questionitem/{questionItemId}"),
    ("get", "/surveys/{surveyId}/results"),
    ("get", "/accounts/categories"),
    ("post", "/accounts/categories"),
    ("get", "/accounts/categories/{categoryId}"),
    ("get", "/accounts/users"),
    ("get", "/accounts/users/{userId}"),
    ("get", "/surveys/{surveyId}/sendouts"),
    ("post", "/surveys/{surveyId}/sendouts"),
    ("get", "/surveys/{surveyId}/sendouts/{sendoutId}"),
    ("post", "/surveys/{surveyId}/sendouts/{sendoutId}/activate"),
    ("post", "/surveys/{surveyId}/sendouts/{sendoutId}/deactivate"),
    ("post", "/surveys/{surveyId}/sendouts/{sendoutId}/open-link/rotate"),
    ("get", "/surveys/{surveyId}/sendouts/{sendoutId}/qr"),
    ("get", "/surveys/{surveyId}/sendouts/{sendoutId}/respondents"),
    ("post", "/surveys/{surveyId}/sendouts/{sendoutId}/respondents"),
    ("post", "/surveys/{surveyId}/sendouts/{sendoutId}/respondents/batch"),
    ("get", "/surveys/{surveyId}/sendouts/{sendoutId}/reminders"),
    ("post", "/surveys/{surveyId}/sendouts/{sendoutId}/reminders"),
    ("get", "/surveys/{surveyId}/sendouts/{sendoutId}/labels"),
    ("post", "/surveys/{surveyId}/sendouts/{sendoutId}/labels"),
    ("get", "/surveys/{surveyId}/sendouts/{sendoutId}/statistics"),
    ("get", "/bgdata/bgdocuments"),
    ("get", "/bgdata/bgdocuments/{bgDocumentId}"),
    ("get", "/bgdata/bgdocuments/{bgDocumentId}/labels"),
    ("post", "/bgdata/bgdocuments/{bgDocumentId}/rows/{respondentId}"),
    ("put", "/bgdata/bgdocuments/{bgDocumentId}/rows/{respondentId}"),
    ("post", "/bgdata/bgdocuments/{bgDocumentId}/rows"),
    ("delete", "/bgdata/bgdocuments/{bgDocumentId}/rows/{respondentId}"),
    ("get", "/accounts/blocklist"),
    ("post", "/accounts/blocklist"),
    ("delete", "/accounts/blocklist/{contactDetails}"),
    ("post", "/accounts/erasure"),
    ("get", "/email-bounces/permanent-failures"),
    ("post", "/email-bounces/permanent-failures"),
    ("get", "/webhooks"),
    ("post", "/webhooks"),
    ("get", "/webhooks/{webhookId}"),
    ("delete", "/webhooks/{webhookId}"),
    ("post", "/webhooks/{webhookId}/test"),
    ("get", "/webhooks/{webhookId}/deliveries"),
    ("get", "/surveys/frequency"),
    ("put", "/surveys/frequency"),
    ("patch", "/surveys/frequency/enable"),
    ("patch", "/surveys/frequency/disable"),
    ("get", "/surveys/{surveyId}/frequency"),
    ("put", "/surveys/{surveyId}/frequency"),
    ("patch", "/surveys/{surveyId}/frequency/enable"),
    ("patch", "/surveys/{surveyId}/frequency/disable"),
    ("get", "/data-retention/account"),
    ("post", "/data-retention/account"),
    ("get", "/data-retention/surveys/{surveyId}"),
    ("post", "/data-retention/surveys/{surveyId}"),
];

/// The endpoints that exist only under `/api/v1.5`.
pub const RULE_ENDPOINTS: [(&str, &str); 13] = [
    ("post", "/data-retention/rules/account"),
    ("post", "/data-retention/rules/surveys/{surveyId}"),
    ("post", "/data-retention/rules/surveys/{surveyId}/sendouts/{sendoutId}"),
    ("get", "/data-retention/rules"),
    ("get", "/data-retention/rules/account"),
    ("get", "/data-retention/rules/surveys/{surveyId}"),
    ("get", "/data-retention/rules/surveys/{surveyId}/sendouts/{sendoutId}"),
    ("patch", "/data-retention/rules/account/actions/{action}"),
    ("patch", "/data-retention/rules/surveys/{surveyId}/actions/{action}"),
    ("patch", "/data-retention/rules/surveys/{surveyId}/sendouts/{sendoutId}/actions/{action}"),
    ("delete", "/data-retention/rules/account/actions/{action}"),
    ("delete", "/data-retention/rules/surveys/{surveyId}/actions/{action}"),
    ("delete", "/data-retention/rules/surveys/{surveyId}/sendouts/{sendoutId}/actions/{action}"),
];
