//! One question item as a form control: choices as labelled radio buttons or check boxes, the rating scale as a
//! row of eleven labelled radio buttons with its end labels, numbers, dates and texts as labelled inputs (a
//! Dropdown, Matrix and Ranking as [`grid`] draws them); a question's error inside its fieldset and tied to it.

use canvass_domain::answer::{Answer, AnswerValue, MAX_TEXT_LEN};
use canvass_domain::survey::{Finite, QuestionItem, QuestionType, TextFormat, TextKey};
use canvass_domain::use_cases::respondent_page::PageError;
use maud::{html, Markup};

use super::{grid, Marks};
use crate::pages::words::Words;

fn text_of(answer: Option<&Answer>) -> String {
    match answer.map(|a| &a.value) {
        Some(AnswerValue::Text(text)) => text.clone(),
        Some(AnswerValue::Number(number)) => number.to_string(),
        Some(AnswerValue::Choices(choices)) => choices.join(", "),
        Some(AnswerValue::Rows(_)) | None => String::new(),
    }
}

fn chosen(answer: Option<&Answer>, value: &str) -> bool {
    match answer.map(|a| &a.value) {
        Some(AnswerValue::Text(text)) => text == value,
        Some(AnswerValue::Choices(choices)) => choices.iter().any(|c| c == value),
        Some(AnswerValue::Number(number)) => value.parse::<f64>().is_ok_and(|v| v == *number),
        Some(AnswerValue::Rows(_)) | None => false,
    }
}

fn choices(item: &QuestionItem, name: &str, input: &str, answer: Option<&Answer>, marks: Marks) -> Markup {
    html! {
        @for (index, option) in item.options.iter().enumerate() {
            @let id = format!("{name}-{index}");
            label for=(id) {
                input type=(input) id=(id) name=(name) value=(option.value) checked[chosen(answer, &option.value)]
                    required[item.required && input == "radio"];
                " " (marks.text(|| TextKey::Option(item.id, option.value.clone()), &option.label))
            }
        }
    }
}

/// The rating scale: eleven radio buttons in a row, each labelled with its number, and the item's end labels
/// (`describedby` names the paragraph that holds them).
fn scale(item: &QuestionItem, name: &str, answer: Option<&Answer>, ends: Option<&str>, marks: Marks) -> Markup {
    let (low, high) = (QuestionType::RATING_MIN, QuestionType::RATING_MAX);
    html! {
        div.scale {
            @for point in low..=high {
                @let (id, value) = (format!("{name}-{point}"), point.to_string());
                label for=(id) {
                    input type="radio" id=(id) name=(name) value=(value) checked[chosen(answer, &value)]
                        required[item.required];
                    span { (point) }
                }
            }
        }
        @if let Some(ends) = ends {
            p.ends id=(ends) {
                @if let Some(label) = &item.min_label {
                    span { (low) ": " (marks.text(|| TextKey::MinLabel(item.id), label)) }
                } @else { span {} }
                @if let Some(label) = &item.max_label {
                    span { (high) ": " (marks.text(|| TextKey::MaxLabel(item.id), label)) }
                }
            }
        }
    }
}

/// What the page says of an item's error.
fn error_text(error: &PageError, words: &Words) -> String {
    match error {
        PageError::Invalid(_, problem) => words.problem(problem),
        _ => words.answer_required.to_owned(),
    }
}

/// One item of a page, with its answer so far and its error, if any.
pub fn item(
    item: &QuestionItem,
    answer: Option<&Answer>,
    error: Option<&PageError>,
    words: &Words,
    marks: Marks,
) -> Markup {
    let name = format!("q{}", item.id);
    let error_id = format!("{name}-error");
    let has_ends = item.kind == QuestionType::Rating && (item.min_label.is_some() || item.max_label.is_some());
    let ends_id = has_ends.then(|| format!("{name}-ends"));
    let described: Vec<&str> = error.map(|_| error_id.as_str()).into_iter().chain(ends_id.as_deref()).collect();
    let text_lang = marks.lang(|| TextKey::Text(item.id));
    html! {
        @if item.kind == QuestionType::Info {
            p lang=[text_lang] { (item.text) }
        } @else {
            fieldset aria-describedby=[(!described.is_empty()).then(|| described.join(" "))] {
                legend {
                    @match text_lang { Some(lang) => span lang=(lang) { (item.text) }, None => (item.text) }
                    @if item.required { " " (words.required) }
                }
                @if let Some(error) = error { p.error id=(error_id) { (error_text(error, words)) } }
                @match item.kind {
                    QuestionType::SingleChoice => (choices(item, &name, "radio", answer, marks)),
                    QuestionType::MultipleChoice => (choices(item, &name, "checkbox", answer, marks)),
                    QuestionType::Rating => (scale(item, &name, answer, ends_id.as_deref(), marks)),
                    QuestionType::Numeric => {
                        @let checks = &item.settings;
                        label for=(name) { (words.your_answer) }
                        input type="number" step=(if checks.whole_number { "1" } else { "any" }) id=(name) name=(name)
                            min=[checks.min.map(Finite::get)] max=[checks.max.map(Finite::get)]
                            value=(text_of(answer)) required[item.required];
                    }
                    QuestionType::OpenText | QuestionType::Info => (text_field(item, &name, answer, words)),
                    QuestionType::Dropdown => (grid::dropdown(item, &name, answer, words, marks)),
                    QuestionType::Date => {
                        label for=(name) { (words.your_answer) }
                        input type="date" id=(name) name=(name) min=[item.settings.min_date.map(|d| d.to_string())]
                            max=[item.settings.max_date.map(|d| d.to_string())] value=(text_of(answer))
                            required[item.required];
                    }
                    QuestionType::Matrix => (grid::matrix(item, &name, answer, marks)),
                    QuestionType::Ranking => (grid::ranking(item, &name, answer, words)),
                }
            }
        }
    }
}

/// The field of an OpenText item: a text area, or one line (of the kind its `format` asks for) when the item takes
/// no line breaks; with the item's lengths.
fn text_field(item: &QuestionItem, name: &str, answer: Option<&Answer>, words: &Words) -> Markup {
    let checks = &item.settings;
    let max = checks.max_length.map_or(MAX_TEXT_LEN, |max| max as usize);
    let kind = match checks.format {
        Some(TextFormat::Email) => "email",
        Some(TextFormat::Phone) => "tel",
        _ => "text",
    };
    let autocomplete = match checks.format {
        Some(TextFormat::Email) => Some("email"),
        Some(TextFormat::Phone) => Some("tel"),
        _ => None,
    };
    html! {
        label for=(name) { (words.your_answer) }
        @if checks.multiline {
            textarea id=(name) name=(name) rows="4" minlength=[checks.min_length] maxlength=(max) required[item.required] { (text_of(answer)) }
        } @else {
            input type=(kind) id=(name) name=(name) minlength=[checks.min_length] maxlength=(max)
                autocomplete=[autocomplete] value=(text_of(answer)) required[item.required];
        }
    }
}
