//! One question item as a form control: choices as labelled radio buttons or check boxes, the rating scale as a
//! row of eleven labelled radio buttons with its end labels, numbers and texts as labelled inputs; a question's
//! error inside its fieldset and tied to it.

use canvass_domain::answer::{Answer, AnswerValue, ValueProblem, MAX_TEXT_LEN};
use canvass_domain::survey::{QuestionItem, QuestionType};
use canvass_domain::use_cases::respondent_page::PageError;
use maud::{html, Markup};

use crate::pages::words::{fill, Words};

fn text_of(answer: Option<&Answer>) -> String {
    match answer.map(|a| &a.value) {
        Some(AnswerValue::Text(text)) => text.clone(),
        Some(AnswerValue::Number(number)) => number.to_string(),
        Some(AnswerValue::Choices(choices)) => choices.join(", "),
        None => String::new(),
    }
}

fn chosen(answer: Option<&Answer>, value: &str) -> bool {
    match answer.map(|a| &a.value) {
        Some(AnswerValue::Text(text)) => text == value,
        Some(AnswerValue::Choices(choices)) => choices.iter().any(|c| c == value),
        Some(AnswerValue::Number(number)) => value.parse::<f64>().is_ok_and(|v| v == *number),
        None => false,
    }
}

fn choices(name: &str, input: &str, options: &[(String, String)], answer: Option<&Answer>, required: bool) -> Markup {
    html! {
        @for (index, (value, label)) in options.iter().enumerate() {
            @let id = format!("{name}-{index}");
            label for=(id) {
                input type=(input) id=(id) name=(name) value=(value) checked[chosen(answer, value)]
                    required[required && input == "radio"];
                " " (label)
            }
        }
    }
}

/// The rating scale: eleven radio buttons in a row, each labelled with its number, and the item's end labels
/// (`describedby` names the paragraph that holds them).
fn scale(item: &QuestionItem, name: &str, answer: Option<&Answer>, ends: Option<&str>) -> Markup {
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
                @if let Some(label) = &item.min_label { span { (low) ": " (label) } } @else { span {} }
                @if let Some(label) = &item.max_label { span { (high) ": " (label) } }
            }
        }
    }
}

/// What the page says of an item's error.
fn error_text(error: &PageError, words: &Words) -> String {
    match error {
        PageError::Invalid(_, ValueProblem::NotANumber) => words.enter_number.to_owned(),
        PageError::Invalid(_, ValueProblem::TooLong { max }) => fill(words.too_long, &[("max", max)]),
        PageError::Invalid(..) => words.choose_shown.to_owned(),
        _ => words.answer_required.to_owned(),
    }
}

/// One item of a page, with its answer so far and its error, if any.
pub fn item(item: &QuestionItem, answer: Option<&Answer>, error: Option<&PageError>, words: &Words) -> Markup {
    let name = format!("q{}", item.id);
    let error_id = format!("{name}-error");
    let has_ends = item.kind == QuestionType::Rating && (item.min_label.is_some() || item.max_label.is_some());
    let ends_id = has_ends.then(|| format!("{name}-ends"));
    let described: Vec<&str> = error.map(|_| error_id.as_str()).into_iter().chain(ends_id.as_deref()).collect();
    let options: Vec<(String, String)> = item.options.iter().map(|o| (o.value.clone(), o.label.clone())).collect();
    html! {
        @if item.kind == QuestionType::Info {
            p { (item.text) }
        } @else {
            fieldset aria-describedby=[(!described.is_empty()).then(|| described.join(" "))] {
                legend { (item.text) @if item.required { " " (words.required) } }
                @if let Some(error) = error { p.error id=(error_id) { (error_text(error, words)) } }
                @match item.kind {
                    QuestionType::SingleChoice => (choices(&name, "radio", &options, answer, item.required)),
                    QuestionType::MultipleChoice => (choices(&name, "checkbox", &options, answer, false)),
                    QuestionType::Rating => (scale(item, &name, answer, ends_id.as_deref())),
                    QuestionType::Numeric => {
                        label for=(name) { (words.your_answer) }
                        input type="number" step="any" id=(name) name=(name) value=(text_of(answer)) required[item.required];
                    }
                    QuestionType::OpenText | QuestionType::Info => {
                        label for=(name) { (words.your_answer) }
                        textarea id=(name) name=(name) rows="4" maxlength=(MAX_TEXT_LEN) required[item.required] { (text_of(answer)) }
                    }
                }
            }
        }
    }
}
