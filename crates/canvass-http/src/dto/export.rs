//! The query of `GET /surveys/{surveyId}/answers/export` (the format, how columns are headed and choices written,
//! a byte-order mark, background data, and the answer filters with a sendout), and one JSON line of a JSON Lines
//! export.

use canvass_domain::answer::export::{BackgroundCell, ChoiceValues, ExportRow, Headings};
use canvass_domain::ids::{RespondentId, SendoutId};
use canvass_domain::use_cases::exports::ExportSelection;
use canvass_domain::FieldError;
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

use utoipa::openapi::{RefOr, Schema};
use utoipa::{IntoParams, PartialSchema, ToSchema};

use super::answer_value::AnswerValueBody;
use super::insight::ResultsFilterQuery;
use super::mirror::mirrored;

/// The file an export is written as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ExportFormat {
    /// RFC 4180 CSV, UTF-8, CRLF line ends.
    #[default]
    Csv,
    /// An Office Open XML workbook with one sheet.
    Xlsx,
    /// JSON Lines: one JSON object per answer set.
    Jsonl,
}

mirrored! {
    /// How the item columns of CSV and XLSX are headed.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, ToSchema)]
    #[serde(rename_all = "lowercase")]
    pub enum ExportHeader => Headings {
        /// By the item's text.
        #[default]
        Text = Texts,
        /// By `q<questionItemId>`.
        Ids,
    }
}

mirrored! {
    /// How CSV and XLSX write the options of choice answers.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, ToSchema)]
    #[serde(rename_all = "lowercase")]
    pub enum ExportValues => ChoiceValues {
        /// The option's label.
        #[default]
        Labels,
        /// The option's value.
        Codes,
    }
}

/// The query of an export: its format and layout, and the answer filters of results.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ExportQuery {
    /// The file: csv (default), xlsx or jsonl.
    #[param(inline)]
    pub format: Option<ExportFormat>,
    /// CSV and XLSX: item columns headed by the item's text (default) or by `q<questionItemId>` (ids).
    #[param(inline)]
    pub header: Option<ExportHeader>,
    /// CSV and XLSX: options written by their label (default) or by their value (codes). JSON Lines writes
    /// values as the answer list does.
    #[param(inline)]
    pub values: Option<ExportValues>,
    /// CSV: true starts the file with a UTF-8 byte-order mark, for spreadsheet programs (default false).
    pub bom: Option<bool>,
    /// true adds the respondents' background data: in CSV and XLSX one more column per distinct label name of
    /// the exported sets' sendouts, after the items (headed by the name, `bg.<name>` with header=ids); in JSON
    /// Lines a `backgroundData` object from label name to value on every line (default false).
    #[serde(rename = "backgroundData")]
    #[param(rename = "backgroundData")]
    pub background_data: Option<bool>,
}

impl ExportQuery {
    /// The checked filter, and whether background data comes with the sets.
    pub fn selection(&self, filter: ResultsFilterQuery) -> Result<ExportSelection, Vec<FieldError>> {
        let filter = filter.into_domain()?;
        Ok(ExportSelection { filter, background_data: self.background_data.unwrap_or(false) })
    }

    /// How the item columns are headed.
    pub fn headings(&self) -> Headings {
        self.header.unwrap_or_default().into()
    }

    /// How choices are written.
    pub fn choice_values(&self) -> ChoiceValues {
        self.values.unwrap_or_default().into()
    }
}

/// One line of a JSON Lines export: an answer set and its answers by item id, in question tree order, each value
/// as the answer list writes it, and (when the export asks for it) its respondent's background data by label name.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExportLine {
    answer_set_id: i64,
    respondent_id: Option<i64>,
    sendout_id: Option<i64>,
    completed: bool,
    quota_full: bool,
    #[serde(with = "time::serde::rfc3339")]
    created_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    updated_at: OffsetDateTime,
    language: Option<&'static str>,
    answers: AnswersByItem,
    shown_order: serde_json::Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    background_data: Option<BackgroundByName>,
}

impl ExportLine {
    /// The line of one row; with `background_data`, its respondent's values by label name (an empty object for a
    /// set of no respondent or none).
    pub fn new(row: ExportRow, background_data: bool) -> Self {
        let ExportRow { set, background } = row;
        Self {
            answer_set_id: set.id.get(),
            respondent_id: set.respondent_id.map(RespondentId::get),
            sendout_id: set.sendout_id.map(SendoutId::get),
            completed: set.completed,
            quota_full: set.quota_full,
            created_at: set.created_at,
            updated_at: set.updated_at,
            language: set.language.map(|language| language.code()),
            shown_order: set.shown_order.to_json(),
            answers: AnswersByItem(
                set.answers.into_iter().map(|a| (a.question_item_id.get(), AnswerValueBody(a.value))).collect(),
            ),
            background_data: background_data.then_some(BackgroundByName(background)),
        }
    }
}

/// Background data as a JSON object from label name to value, as stored.
#[derive(Debug)]
struct BackgroundByName(Vec<BackgroundCell>);

impl Serialize for BackgroundByName {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for cell in &self.0 {
            map.serialize_entry(&cell.name, &cell.value)?;
        }
        map.end()
    }
}

/// Answers as a JSON object from item id to value, keeping their order (the question tree's).
#[derive(Debug)]
struct AnswersByItem(Vec<(i64, AnswerValueBody)>);

impl Serialize for AnswersByItem {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (item, value) in &self.0 {
            map.serialize_entry(&item.to_string(), value)?;
        }
        map.end()
    }
}

/// The body of an export as the document states it: text (CSV, JSON Lines) or a binary workbook (XLSX).
pub struct ExportFile;

impl PartialSchema for ExportFile {
    fn schema() -> RefOr<Schema> {
        super::schemas::binary_file("The exported file")
    }
}

impl ToSchema for ExportFile {}

#[cfg(test)]
mod tests {
    use canvass_domain::answer::{Answer, AnswerSet, AnswerValue};
    use canvass_domain::ids::{AnswerSetId, QuestionItemId, SurveyId};
    use time::macros::datetime;

    use super::*;

    #[test]
    fn a_line_keeps_the_answers_in_tree_order_with_values_typed_as_in_the_answer_list() {
        let answer = |id, value| Answer { question_item_id: QuestionItemId::new(id), value };
        let set = AnswerSet {
            id: AnswerSetId::new(12),
            survey_id: SurveyId::new(1),
            respondent_id: None,
            sendout_id: Some(SendoutId::new(3)),
            completed: false,
            quota_full: false,
            shown_order: Default::default(),
            created_at: datetime!(2026-11-22 10:00 UTC),
            updated_at: datetime!(2026-11-22 10:00:01.25 UTC),
            language: None,
            answers: vec![
                answer(90, AnswerValue::Number(7.0)),
                answer(100, AnswerValue::Choices(vec!["b".into(), "a".into()])),
                answer(9, AnswerValue::Text("=1+1".into())),
                answer(80, AnswerValue::Number(2.5)),
            ],
        };
        let line = serde_json::to_string(&ExportLine::new(set.into(), false)).unwrap();
        assert_eq!(
            line,
            r#"{"answerSetId":12,"respondentId":null,"sendoutId":3,"completed":false,"quotaFull":false,"createdAt":"2026-11-22T10:00:00Z","updatedAt":"2026-11-22T10:00:01.25Z","language":null,"answers":{"90":7,"100":["b","a"],"9":"=1+1","80":2.5},"shownOrder":{"items":{},"pages":{}}}"#
        );
    }

    #[test]
    fn a_line_with_background_data_carries_it_by_label_name_and_an_empty_object_when_there_is_none() {
        use canvass_domain::distribution::LabelType;
        let at = datetime!(2026-11-22 10:00 UTC);
        let set = AnswerSet {
            id: AnswerSetId::new(5),
            survey_id: SurveyId::new(1),
            respondent_id: None,
            sendout_id: None,
            completed: true,
            quota_full: false,
            shown_order: Default::default(),
            created_at: at,
            updated_at: at,
            language: None,
            answers: Vec::new(),
        };
        let cell = |name: &str, value: &str| BackgroundCell {
            name: name.into(),
            label_type: LabelType::Text,
            value: value.into(),
        };
        let row = ExportRow { set: set.clone(), background: vec![cell("dept", "Sales"), cell("src", "poster")] };
        let line = serde_json::to_value(ExportLine::new(row, true)).unwrap();
        assert_eq!(line["backgroundData"], serde_json::json!({"dept": "Sales", "src": "poster"}));
        let line = serde_json::to_value(ExportLine::new(set.clone().into(), true)).unwrap();
        assert_eq!(line["backgroundData"], serde_json::json!({}));
        let line = serde_json::to_value(ExportLine::new(set.into(), false)).unwrap();
        assert!(line.get("backgroundData").is_none(), "no key unless the export asks for it");
    }
}
