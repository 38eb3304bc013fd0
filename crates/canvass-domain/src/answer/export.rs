//! The wide table of an answer export: one row per answer set, the six columns every set has, then one column per
//! answering question item of the survey in tree order, then (on request) one column per background data label
//! name; each cell typed (text, number, boolean, timestamp or empty) so that each file format writes it as its own
//! kind of value. Also the guard against formulas that a spreadsheet would run (CSV injection), for the formats
//! that end up in one.

use std::borrow::Cow;
use std::collections::HashMap;

use time::OffsetDateTime;

use super::{AnswerSet, AnswerValue};
use crate::distribution::LabelType;
use crate::ids::{QuestionItemId, RespondentId, SendoutId};
use crate::survey::{QuestionTree, QuestionType};

/// The names of the columns every answer set has, in order, before the item columns.
pub const FIXED_COLUMNS: [&str; 6] =
    ["answerSetId", "respondentId", "sendoutId", "completed", "createdAt", "updatedAt"];

/// The name of the column of the language a set was last shown in, after the fixed columns, in the exports of a
/// survey with a translation.
pub const LANGUAGE_COLUMN: &str = "language";

/// What joins the options chosen in a MultipleChoice answer.
pub const CHOICE_SEPARATOR: &str = "; ";

/// What heads a background data column with [`Headings::Ids`], before the label's name.
pub const BACKGROUND_PREFIX: &str = "bg.";

/// One background data value of an exported set's respondent: its label's name and type, and the value as stored.
/// Its `Debug` leaves the value out.
#[derive(Clone, PartialEq, Eq)]
pub struct BackgroundCell {
    /// The label's name, which heads the column.
    pub name: String,
    /// What the label's values are.
    pub label_type: LabelType,
    /// The value.
    pub value: String,
}

crate::debug_without_personal_data!(BackgroundCell { name, label_type });

/// One row of an export: an answer set with its answers, and its respondent's background data (empty unless the
/// export asks for it, and for a set of no respondent).
#[derive(Debug, Clone, PartialEq)]
pub struct ExportRow {
    /// The set.
    pub set: AnswerSet,
    /// Its respondent's background data, one cell per label.
    pub background: Vec<BackgroundCell>,
}

impl From<AnswerSet> for ExportRow {
    fn from(set: AnswerSet) -> Self {
        Self { set, background: Vec::new() }
    }
}

/// How the item columns are headed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Headings {
    /// By the item's text (a background data column: by the label's name).
    #[default]
    Texts,
    /// By `q<questionItemId>` (a background data column: by `bg.<name>`).
    Ids,
}

/// How the options of choice answers are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ChoiceValues {
    /// The option's label (a value the item does not have, as itself).
    #[default]
    Labels,
    /// The option's value, as stored.
    Codes,
}

/// One cell of the table.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell<'a> {
    /// No value: an item the set does not answer, or a set of no respondent or sendout.
    Empty,
    /// Text: open text, option labels or codes.
    Text(Cow<'a, str>),
    /// An id.
    Integer(i64),
    /// The number of a Numeric or Rating answer.
    Number(f64),
    /// Whether the set is completed.
    Bool(bool),
    /// When the set was created or last updated.
    Timestamp(OffsetDateTime),
    /// The date of a Date answer.
    Date(time::Date),
}

/// The column of one answering item: its id, its heading and, for choice items, its options' labels by value.
#[derive(Debug, Clone)]
struct ItemColumn {
    /// The heading by text: the item's, and for a Matrix row `<item text> - <row label>`.
    text: String,
    /// The heading by id: `q<id>`, and for a Matrix row `q<id>_<row value>`.
    id_heading: String,
    labels: HashMap<String, String>,
    /// Whether its answers are dates (written as dates where the format has them).
    dates: bool,
}

/// The columns of an export of one survey, and how its answers are written.
///
/// ```
/// use canvass_domain::answer::export::{Cell, ChoiceValues, ExportTable, Headings};
/// use canvass_domain::answer::{Answer, AnswerSet, AnswerValue};
/// use canvass_domain::ids::{AnswerSetId, PageId, QuestionItemId, SurveyId};
/// use canvass_domain::survey::{ChoiceOption, Page, QuestionItem, QuestionTree, QuestionType};
///
/// let item = QuestionItem { id: QuestionItemId::new(7), page_id: PageId::new(1), kind: QuestionType::SingleChoice,
///     text: "Happy?".into(), required: false,
///     options: vec![ChoiceOption { value: "y".into(), label: "Yes".into() }], min_label: None, max_label: None,
///     settings: Default::default() };
/// let tree = QuestionTree::assemble(SurveyId::new(1), vec![Page { id: PageId::new(1), title: String::new(), items: vec![item], randomize_items: false }], vec![]);
/// let table = ExportTable::new(&tree, Headings::Ids, ChoiceValues::Labels);
/// assert_eq!(table.headings().last().unwrap(), "q7");
/// let at = time::macros::datetime!(2026-11-22 10:00 UTC);
/// let set = AnswerSet { id: AnswerSetId::new(3), survey_id: SurveyId::new(1), respondent_id: None, sendout_id: None,
///     completed: true, quota_full: false, shown_order: Default::default(), created_at: at, updated_at: at, language: None,
///     answers: vec![Answer { question_item_id: QuestionItemId::new(7), value: AnswerValue::Text("y".into()) }] };
/// assert_eq!(table.row(&set.into()).last(), Some(&Cell::Text("Yes".into())));
/// ```
#[derive(Debug, Clone)]
pub struct ExportTable {
    headings: Headings,
    values: ChoiceValues,
    items: Vec<ItemColumn>,
    /// Where each item's column is among the item columns (a Matrix's: its first row's).
    positions: HashMap<QuestionItemId, usize>,
    /// Where each Matrix row's column is among the item columns, by item and row value.
    row_positions: HashMap<(QuestionItemId, String), usize>,
    /// The background data label names that head the last columns, in order.
    labels: Vec<String>,
    /// Where each label name's column is among the background columns.
    label_positions: HashMap<String, usize>,
    /// Whether a `language` column follows the fixed ones.
    language: bool,
}

impl ExportTable {
    /// The table of a survey with this tree: a column per item that takes an answer (Info items have none), in
    /// tree order.
    pub fn new(tree: &QuestionTree, headings: Headings, values: ChoiceValues) -> Self {
        let (mut items, mut positions, mut row_positions) = (Vec::new(), HashMap::new(), HashMap::new());
        for item in tree.items().filter(|item| item.kind.takes_answer()) {
            positions.insert(item.id, items.len());
            let column = ItemColumn {
                text: item.text.clone(),
                id_heading: format!("q{}", item.id),
                labels: item.options.iter().map(|o| (o.value.clone(), o.label.clone())).collect(),
                dates: item.kind == QuestionType::Date,
            };
            if item.kind != QuestionType::Matrix {
                items.push(column);
                continue;
            }
            for row in &item.settings.rows {
                row_positions.insert((item.id, row.value.clone()), items.len());
                items.push(ItemColumn {
                    text: format!("{} - {}", item.text, row.label),
                    id_heading: format!("q{}_{}", item.id, row.value),
                    ..column.clone()
                });
            }
        }
        let (labels, label_positions) = (Vec::new(), HashMap::new());
        Self { headings, values, items, positions, row_positions, labels, label_positions, language: false }
    }

    /// The table with a [`LANGUAGE_COLUMN`] after the fixed columns when `language` is set (a survey with a
    /// translation): the language each set was last shown in.
    pub fn with_language(self, language: bool) -> Self {
        Self { language, ..self }
    }

    /// Where the item columns start.
    fn items_start(&self) -> usize {
        FIXED_COLUMNS.len() + usize::from(self.language)
    }

    /// The table with one more column per background data label name, after the items, in the order given (a
    /// name given twice has one column).
    pub fn with_background(mut self, names: Vec<String>) -> Self {
        for name in names {
            if !self.label_positions.contains_key(&name) {
                self.label_positions.insert(name.clone(), self.labels.len());
                self.labels.push(name);
            }
        }
        self
    }

    /// How many columns a row has.
    pub fn width(&self) -> usize {
        self.items_start() + self.items.len() + self.labels.len()
    }

    /// The heading of every column, in order: the fixed columns' names (and `language`), then each item's text
    /// (or `q<id>`), then each background data label's name (or `bg.<name>`).
    pub fn headings(&self) -> impl Iterator<Item = Cow<'_, str>> {
        let items = self.items.iter().map(|item| match self.headings {
            Headings::Texts => Cow::Borrowed(item.text.as_str()),
            Headings::Ids => Cow::Borrowed(item.id_heading.as_str()),
        });
        let labels = self.labels.iter().map(|name| match self.headings {
            Headings::Texts => Cow::Borrowed(name.as_str()),
            Headings::Ids => Cow::Owned(format!("{BACKGROUND_PREFIX}{name}")),
        });
        let language = self.language.then_some(Cow::Borrowed(LANGUAGE_COLUMN));
        FIXED_COLUMNS.into_iter().map(Cow::Borrowed).chain(language).chain(items).chain(labels)
    }

    /// The row of one answer set, [`Self::width`] cells: its ids, completion and times, then its answer to each
    /// item (an answer to an item that is no longer in the survey has no column and is left out), then its
    /// respondent's value of each background data label (a Number label's value that reads as a number as a
    /// number, every other as text; a label whose name has no column is left out).
    pub fn row<'a>(&'a self, row: &'a ExportRow) -> Vec<Cell<'a>> {
        let set = &row.set;
        let mut cells = Vec::with_capacity(self.width());
        cells.extend([
            Cell::Integer(set.id.get()),
            set.respondent_id.map_or(Cell::Empty, |id| Cell::Integer(RespondentId::get(id))),
            set.sendout_id.map_or(Cell::Empty, |id| Cell::Integer(SendoutId::get(id))),
            Cell::Bool(set.completed),
            Cell::Timestamp(set.created_at),
            Cell::Timestamp(set.updated_at),
        ]);
        if self.language {
            cells.push(set.language.map_or(Cell::Empty, |language| Cell::Text(Cow::Borrowed(language.code()))));
        }
        let start = self.items_start();
        cells.resize(self.width(), Cell::Empty);
        for answer in &set.answers {
            if let AnswerValue::Rows(rows) = &answer.value {
                for (row, option) in rows {
                    if let Some(&position) = self.row_positions.get(&(answer.question_item_id, row.clone())) {
                        let column = &self.items[position];
                        cells[start + position] = Cell::Text(Cow::Borrowed(self.option(column, option)));
                    }
                }
            } else if let Some(&position) = self.positions.get(&answer.question_item_id) {
                cells[start + position] = self.cell(&self.items[position], &answer.value);
            }
        }
        let labels_start = start + self.items.len();
        for background in &row.background {
            if let Some(&position) = self.label_positions.get(&background.name) {
                cells[labels_start + position] = background_cell(background);
            }
        }
        cells
    }

    /// One answer's cell: numbers as numbers, open text as text, options by label or code, the options of a
    /// multiple choice joined with [`CHOICE_SEPARATOR`] in the order the answer gives them.
    fn cell<'a>(&'a self, item: &'a ItemColumn, value: &'a AnswerValue) -> Cell<'a> {
        match value {
            AnswerValue::Number(number) => Cell::Number(*number),
            AnswerValue::Text(text) if item.dates => super::parse_date(text).map_or(Cell::Empty, Cell::Date),
            AnswerValue::Text(text) => Cell::Text(Cow::Borrowed(self.option(item, text))),
            // Each row has a column of its own (`row`); a Matrix answer never reaches one item's cell.
            AnswerValue::Rows(_) => Cell::Empty,
            AnswerValue::Choices(choices) => {
                let mut joined = String::new();
                for (index, choice) in choices.iter().enumerate() {
                    if index > 0 {
                        joined.push_str(CHOICE_SEPARATOR);
                    }
                    joined.push_str(self.option(item, choice));
                }
                Cell::Text(Cow::Owned(joined))
            }
        }
    }

    /// How an option value is written: its label, or the value itself (with `values=codes`, for a value the item
    /// has no option of, and for open text, whose item has no options).
    fn option<'a>(&'a self, item: &'a ItemColumn, value: &'a str) -> &'a str {
        match self.values {
            ChoiceValues::Labels => item.labels.get(value).map_or(value, String::as_str),
            ChoiceValues::Codes => value,
        }
    }
}

/// A background data value's cell: a Number label's value that reads as a finite number is a number, every other
/// value text.
fn background_cell(background: &BackgroundCell) -> Cell<'_> {
    let number = (background.label_type == LabelType::Number)
        .then(|| background.value.trim().parse::<f64>().ok())
        .flatten()
        .filter(|number| number.is_finite());
    number.map_or(Cell::Text(Cow::Borrowed(&background.value)), Cell::Number)
}

/// The characters that make a spreadsheet program read a cell, or a `;`-separated part of one, as a formula.
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// The text of a spreadsheet cell, made harmless: a text that starts with `=`, `+`, `-`, `@`, a tab or a carriage
/// return, which a spreadsheet program would read as a formula, gets a leading `'`. So does each part after a `;`
/// (its leading spaces skipped): a spreadsheet program in a locale whose list separator is `;` splits a CSV line
/// there, so the chosen options of a multiple choice (joined with [`CHOICE_SEPARATOR`]) and any text that holds a
/// `;` would start cells of their own. For the formats that end up in a spreadsheet (CSV, XLSX); JSON keeps the
/// text as it is.
///
/// ```
/// use canvass_domain::answer::export::guarded;
///
/// assert_eq!(guarded("=1+1"), "'=1+1");
/// assert_eq!(guarded("1+1="), "1+1=");
/// assert_eq!(guarded("Pay; =Team"), "Pay; '=Team");
/// assert_eq!(guarded("a;-2+3;@SUM(1)"), "a;'-2+3;'@SUM(1)");
/// ```
pub fn guarded(text: &str) -> Cow<'_, str> {
    let risky_part = |part: &str| part.trim_start_matches(' ').starts_with(FORMULA_STARTS);
    let mut parts = text.split(';');
    let first_risky = parts.next().is_some_and(|first| first.starts_with(FORMULA_STARTS));
    if !first_risky && !parts.any(risky_part) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 4);
    for (index, part) in text.split(';').enumerate() {
        if index == 0 {
            if first_risky {
                out.push('\'');
            }
            out.push_str(part);
            continue;
        }
        out.push(';');
        let spaces = part.len() - part.trim_start_matches(' ').len();
        out.push_str(&part[..spaces]);
        if risky_part(part) {
            out.push('\'');
        }
        out.push_str(&part[spaces..]);
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;
    use crate::answer::Answer;
    use crate::ids::{AnswerSetId, PageId, SurveyId};
    use crate::survey::{ChoiceOption, Page, QuestionItem, QuestionType};

    const AT: OffsetDateTime = datetime!(2026-11-22 10:00:00.5 UTC);

    fn item(id: i64, page: i64, kind: QuestionType, text: &str) -> QuestionItem {
        let options = if kind.has_options() {
            [("pay", "Pay"), ("team", "The team"), ("desk", "=Desk")]
                .iter()
                .map(|(value, label)| ChoiceOption { value: (*value).into(), label: (*label).into() })
                .collect()
        } else {
            Vec::new()
        };
        QuestionItem {
            id: QuestionItemId::new(id),
            page_id: PageId::new(page),
            kind,
            text: text.into(),
            required: false,
            options,
            min_label: None,
            max_label: None,
            settings: Default::default(),
        }
    }

    /// Two pages: a single choice, an Info item and a multiple choice; then a number, a rating and open text.
    fn tree() -> QuestionTree {
        let first = Page {
            id: PageId::new(1),
            title: String::new(),
            items: vec![
                item(30, 1, QuestionType::SingleChoice, "Why stay?"),
                item(10, 1, QuestionType::Info, "Next, numbers."),
                item(20, 1, QuestionType::MultipleChoice, "What helps?"),
            ],
            randomize_items: false,
        };
        let second = Page {
            id: PageId::new(2),
            title: String::new(),
            items: vec![
                item(5, 2, QuestionType::Numeric, "Hours?"),
                item(6, 2, QuestionType::Rating, "Rate us"),
                item(4, 2, QuestionType::OpenText, "Anything else?"),
            ],
            randomize_items: false,
        };
        QuestionTree::assemble(SurveyId::new(1), vec![first, second], vec![])
    }

    fn set(answers: Vec<(i64, AnswerValue)>) -> ExportRow {
        ExportRow::from(AnswerSet {
            id: AnswerSetId::new(41),
            survey_id: SurveyId::new(1),
            respondent_id: Some(RespondentId::new(8)),
            sendout_id: Some(SendoutId::new(9)),
            completed: true,
            quota_full: false,
            shown_order: Default::default(),
            created_at: AT,
            updated_at: AT + time::Duration::minutes(3),
            language: None,
            answers: answers
                .into_iter()
                .map(|(id, value)| Answer { question_item_id: QuestionItemId::new(id), value })
                .collect(),
        })
    }

    fn text(value: &str) -> Cell<'static> {
        Cell::Text(Cow::Owned(value.to_owned()))
    }

    fn choices(values: &[&str]) -> AnswerValue {
        AnswerValue::Choices(values.iter().map(|v| (*v).to_owned()).collect())
    }

    #[test]
    fn a_language_column_follows_the_fixed_ones_when_asked_for_and_the_items_move_along() {
        let table = ExportTable::new(&tree(), Headings::Ids, ChoiceValues::Codes).with_language(true);
        let headings: Vec<_> = table.headings().collect();
        assert_eq!(headings[5..8], ["updatedAt", "language", "q30"]);
        assert_eq!(table.width(), headings.len());
        let mut row = set(vec![(30, AnswerValue::Text("pay".into()))]);
        row.set.language = Some(crate::language::Language::Sv);
        let cells = table.row(&row);
        assert_eq!((&cells[6], &cells[7]), (&text("sv"), &text("pay")));
        assert_eq!(cells.len(), table.width());
        let empty = set(vec![]);
        let unknown = table.row(&empty);
        assert_eq!(unknown[6], Cell::Empty, "a set in no known language");
        let without = ExportTable::new(&tree(), Headings::Ids, ChoiceValues::Codes);
        assert_eq!(without.headings().nth(6).unwrap(), "q30");
    }

    #[test]
    fn the_columns_are_the_fixed_six_then_each_answering_item_in_tree_order() {
        let table = ExportTable::new(&tree(), Headings::Texts, ChoiceValues::Labels);
        let headings: Vec<_> = table.headings().collect();
        assert_eq!(
            headings,
            [
                "answerSetId",
                "respondentId",
                "sendoutId",
                "completed",
                "createdAt",
                "updatedAt",
                "Why stay?",
                "What helps?",
                "Hours?",
                "Rate us",
                "Anything else?"
            ]
        );
        assert_eq!(table.width(), 11);
        let ids = ExportTable::new(&tree(), Headings::Ids, ChoiceValues::Labels);
        let headings: Vec<_> = ids.headings().skip(6).collect();
        assert_eq!(headings, ["q30", "q20", "q5", "q6", "q4"], "the Info item (10) has no column");
    }

    #[test]
    fn a_row_holds_typed_cells_in_column_order_whatever_order_the_answers_come_in() {
        let table = ExportTable::new(&tree(), Headings::Texts, ChoiceValues::Labels);
        let answered = set(vec![
            (4, AnswerValue::Text("Fine, \"mostly\"".into())),
            (6, AnswerValue::Number(9.0)),
            (30, AnswerValue::Text("team".into())),
            (5, AnswerValue::Number(37.5)),
        ]);
        let row = table.row(&answered);
        assert_eq!(
            row,
            [
                Cell::Integer(41),
                Cell::Integer(8),
                Cell::Integer(9),
                Cell::Bool(true),
                Cell::Timestamp(AT),
                Cell::Timestamp(datetime!(2026-11-22 10:03:00.5 UTC)),
                text("The team"),
                Cell::Empty,
                Cell::Number(37.5),
                Cell::Number(9.0),
                text("Fine, \"mostly\""),
            ]
        );
    }

    #[test]
    fn a_set_of_no_respondent_leaves_its_ids_empty_and_an_unanswered_survey_leaves_every_item_empty() {
        let table = ExportTable::new(&tree(), Headings::Texts, ChoiceValues::Labels);
        let anonymous = AnswerSet { respondent_id: None, sendout_id: None, completed: false, ..set(vec![]).set };
        let anonymous = ExportRow::from(anonymous);
        let row = table.row(&anonymous);
        assert_eq!(row[..4], [Cell::Integer(41), Cell::Empty, Cell::Empty, Cell::Bool(false)]);
        assert!(row[6..].iter().all(|cell| *cell == Cell::Empty));
    }

    #[test]
    fn chosen_options_are_joined_in_the_order_given_by_label_or_by_code() {
        let answered = set(vec![(20, choices(&["desk", "pay", "team"])), (30, AnswerValue::Text("pay".into()))]);
        let labels = ExportTable::new(&tree(), Headings::Texts, ChoiceValues::Labels);
        let row = labels.row(&answered);
        assert_eq!((&row[6], &row[7]), (&text("Pay"), &text("=Desk; Pay; The team")));
        let codes = ExportTable::new(&tree(), Headings::Texts, ChoiceValues::Codes);
        let row = codes.row(&answered);
        assert_eq!((&row[6], &row[7]), (&text("pay"), &text("desk; pay; team")));
        let none = set(vec![(20, choices(&[]))]);
        assert_eq!(labels.row(&none)[7], text(""), "an empty choice is an empty text, not a missing answer");
    }

    #[test]
    fn a_value_the_item_has_no_option_of_is_written_as_itself() {
        let answered = set(vec![(20, choices(&["gone", "pay"])), (30, AnswerValue::Text("retired".into()))]);
        let table = ExportTable::new(&tree(), Headings::Texts, ChoiceValues::Labels);
        let row = table.row(&answered);
        assert_eq!((&row[6], &row[7]), (&text("retired"), &text("gone; Pay")));
    }

    #[test]
    fn answers_to_items_outside_the_tree_and_to_info_items_have_no_column() {
        let answered = set(vec![(10, AnswerValue::Text("x".into())), (99, AnswerValue::Number(1.0))]);
        let table = ExportTable::new(&tree(), Headings::Texts, ChoiceValues::Labels);
        let row = table.row(&answered);
        assert_eq!(row.len(), 11);
        assert!(row[6..].iter().all(|cell| *cell == Cell::Empty));
    }

    #[test]
    fn open_text_is_never_read_as_an_option() {
        // An open text that happens to equal an option value of another item stays as written.
        let answered = set(vec![(4, AnswerValue::Text("pay".into()))]);
        let table = ExportTable::new(&tree(), Headings::Texts, ChoiceValues::Labels);
        let row = table.row(&answered);
        assert_eq!(row[10], text("pay"));
    }

    fn background(name: &str, label_type: LabelType, value: &str) -> BackgroundCell {
        BackgroundCell { name: name.into(), label_type, value: value.into() }
    }

    #[test]
    fn background_columns_follow_the_items_once_per_name_headed_by_name_or_bg_name() {
        let names = ["dept", "src", "dept", "age"].map(String::from).to_vec();
        let table = ExportTable::new(&tree(), Headings::Texts, ChoiceValues::Labels).with_background(names.clone());
        assert_eq!(table.width(), 14, "a name given twice has one column");
        let headings: Vec<_> = table.headings().skip(11).collect();
        assert_eq!(headings, ["dept", "src", "age"]);
        let ids = ExportTable::new(&tree(), Headings::Ids, ChoiceValues::Labels).with_background(names);
        let headings: Vec<_> = ids.headings().skip(10).collect();
        assert_eq!(headings, ["q4", "bg.dept", "bg.src", "bg.age"]);
        let plain = ExportTable::new(&tree(), Headings::Texts, ChoiceValues::Labels);
        assert_eq!((plain.width(), plain.headings().count()), (11, 11), "no background columns unless asked for");
    }

    #[test]
    fn background_values_land_under_their_name_numbers_of_number_labels_as_numbers() {
        let names = ["dept", "age", "unused"].map(String::from).to_vec();
        let table = ExportTable::new(&tree(), Headings::Texts, ChoiceValues::Labels).with_background(names);
        let mut row = set(vec![(5, AnswerValue::Number(2.0))]);
        row.background = vec![
            background("age", LabelType::Number, "-41.5"),
            background("dept", LabelType::Text, "-Sales"),
            background("no column", LabelType::Text, "x"),
        ];
        let cells = table.row(&row);
        assert_eq!(cells.len(), 14);
        assert_eq!(cells[8], Cell::Number(2.0));
        assert_eq!(cells[11..], [text("-Sales"), Cell::Number(-41.5), Cell::Empty]);
        row.background = vec![background("age", LabelType::Number, "forty"), background("dept", LabelType::Text, "7")];
        assert_eq!(table.row(&row)[11..], [text("7"), text("forty"), Cell::Empty], "only a Number label's number");
        row.background = vec![background("age", LabelType::Number, "NaN")];
        assert_eq!(table.row(&row)[12], text("NaN"), "a number that is not finite stays text");
    }

    #[test]
    fn a_background_cell_never_shows_its_value_in_debug() {
        let shown = format!("{:?}", background("email", LabelType::Email, "ann@example.com"));
        assert!(shown.contains("email") && !shown.contains("ann@"), "{shown}");
    }

    #[test]
    fn texts_a_spreadsheet_would_run_get_a_leading_quote() {
        for (given, written) in [
            ("=1+1", "'=1+1"),
            ("+46 70 123", "'+46 70 123"),
            ("-2", "'-2"),
            ("@x", "'@x"),
            ("\tcalc", "'\tcalc"),
            ("\rcalc", "'\rcalc"),
            ("'=already", "'=already"),
            ("a=1", "a=1"),
            (" =1", " =1"),
            ("", ""),
            ("åäö 🎉", "åäö 🎉"),
        ] {
            assert_eq!(guarded(given), written, "{given:?}");
        }
        assert!(matches!(guarded("plain"), Cow::Borrowed(_)), "a harmless text is not copied");
    }

    #[test]
    fn every_part_after_a_semicolon_is_guarded_as_a_cell_of_its_own() {
        for (given, written) in [
            ("x;=1+1", "x;'=1+1"),
            ("a;-2+3;@SUM(1)", "a;'-2+3;'@SUM(1)"),
            ("Pay; =Team; Desk", "Pay; '=Team; Desk"),
            ("=a; +b", "'=a; '+b"),
            ("a;  \tb", "a;  '\tb"),
            ("a;\rb", "a;'\rb"),
            ("a; b; c", "a; b; c"),
            ("a;;=", "a;;'="),
            (";@x", ";'@x"),
            ("a;b=1", "a;b=1"),
        ] {
            assert_eq!(guarded(given), written, "{given:?}");
        }
        assert!(matches!(guarded("Pay; Desk"), Cow::Borrowed(_)), "harmless parts are not copied");
    }
}
