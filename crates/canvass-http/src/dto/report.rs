//! The queries of a survey's report and of one item's chart (their format; the filters are the results'), and
//! their bodies as the document states them.

use serde::Deserialize;
use utoipa::openapi::schema::Schema;
use utoipa::openapi::RefOr;
use utoipa::{IntoParams, PartialSchema, ToSchema};

/// What a report is made as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ReportFormat {
    /// `text/html`: one self-contained document, its charts inline SVG, no script.
    #[default]
    Html,
    /// `application/pdf`: A4 pages, text selectable, fonts embedded.
    Pdf,
}

/// The format of `GET /surveys/{surveyId}/report`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ReportFormatQuery {
    /// `html` (default) or `pdf`.
    #[param(inline)]
    pub format: Option<ReportFormat>,
}

/// What a chart is drawn as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ChartFormat {
    /// `image/svg+xml`, 720 units wide.
    #[default]
    Svg,
    /// `image/png`, 1440 pixels wide.
    Png,
}

/// The format of `GET /surveys/{surveyId}/items/{questionItemId}/chart`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ChartFormatQuery {
    /// `svg` (default) or `png`.
    #[param(inline)]
    pub format: Option<ChartFormat>,
}

/// The body of a report as the document states it: an HTML document or a PDF file.
pub struct ReportFile;

impl PartialSchema for ReportFile {
    fn schema() -> RefOr<Schema> {
        super::schemas::binary_file("The report")
    }
}

impl ToSchema for ReportFile {}

/// The body of a chart as the document states it: an SVG or PNG file.
pub struct ChartFile;

impl PartialSchema for ChartFile {
    fn schema() -> RefOr<Schema> {
        super::schemas::binary_file("The chart")
    }
}

impl ToSchema for ChartFile {}
