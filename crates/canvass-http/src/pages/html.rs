//! The respondent pages' HTML: plain server-rendered forms that work without JavaScript, with labels,
//! fieldsets and error messages tied to their questions.

use canvass_domain::answer::{Answer, AnswerValue};
use canvass_domain::survey::{QuestionItem, QuestionType};
use canvass_domain::use_cases::respondent_page::PageView;
use maud::{html, Markup, DOCTYPE};

/// The pages' only style, inline; the Content-Security-Policy allows it by its hash.
pub(crate) const STYLE: &str = "body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;line-height:1.5}\
fieldset{border:1px solid #ccc;border-radius:.4rem;margin:1rem 0;padding:.8rem}\
.error{color:#a40000;font-weight:600}label{display:block}textarea{width:100%}button{font-size:1rem;padding:.4rem 1.2rem}";

/// A whole page around `body`.
pub fn layout(title: &str, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                style { (STYLE) }
            }
            body { main { (body) } }
        }
    }
}

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

fn question(item: &QuestionItem, answer: Option<&Answer>, error: Option<&str>) -> Markup {
    let name = format!("q{}", item.id);
    let error_id = format!("{name}-error");
    let options: Vec<(String, String)> = match item.kind {
        QuestionType::Rating => {
            (QuestionType::RATING_MIN..=QuestionType::RATING_MAX).map(|n| (n.to_string(), n.to_string())).collect()
        }
        _ => item.options.iter().map(|o| (o.value.clone(), o.label.clone())).collect(),
    };
    html! {
        @if item.kind == QuestionType::Info {
            p { (item.text) }
        } @else {
            fieldset aria-describedby=[error.map(|_| error_id.clone())] {
                legend { (item.text) @if item.required { " (required)" } }
                @if let Some(error) = error { p.error id=(error_id) { (error) } }
                @match item.kind {
                    QuestionType::SingleChoice => (choices(&name, "radio", &options, answer, item.required)),
                    QuestionType::Rating => (choices(&name, "radio", &options, answer, item.required)),
                    QuestionType::MultipleChoice => (choices(&name, "checkbox", &options, answer, false)),
                    QuestionType::Numeric => {
                        label for=(name) { "Your answer" }
                        input type="number" step="any" id=(name) name=(name) value=(text_of(answer)) required[item.required];
                    }
                    QuestionType::OpenText | QuestionType::Info => {
                        label for=(name) { "Your answer" }
                        textarea id=(name) name=(name) rows="4" required[item.required] { (text_of(answer)) }
                    }
                }
            }
        }
    }
}

/// The respondent's view as HTML, posting back to `action`.
pub fn view(view: &PageView, action: &str) -> Markup {
    match view {
        PageView::Closed { survey_name } => layout(
            survey_name,
            html! {
                h1 { (survey_name) }
                p { "This survey is closed. Thank you for your interest." }
            },
        ),
        PageView::Done { survey_name } => layout(
            survey_name,
            html! {
                h1 { (survey_name) }
                p { "Thank you! Your answers have been saved." }
            },
        ),
        PageView::Page { survey_name, page, number, count, answers, errors } => layout(
            survey_name,
            html! {
                h1 { (survey_name) }
                p { "Page " (number) " of " (count) }
                @if !page.title.is_empty() { h2 { (page.title) } }
                @if let Some(flow) = errors.iter().find(|e| e.field == "page") {
                    p.error role="alert" { (flow.message) }
                } @else if !errors.is_empty() {
                    p.error role="alert" { "Please check the answers marked below." }
                }
                form method="post" action=(action) {
                    input type="hidden" name="page" value=(page.id);
                    @for item in &page.items {
                        @let answer = answers.iter().find(|a| a.question_item_id == item.id);
                        @let error = errors.iter().find(|e| e.field == format!("q{}", item.id)).map(|e| e.message.as_str());
                        (question(item, answer, error))
                    }
                    button type="submit" { @if number == count { "Finish" } @else { "Next" } }
                }
                p { small { "Your answers are saved page by page: you can leave and come back to this link." } }
            },
        ),
    }
}

/// The login form posting to `action`; after a try that opened nothing, `tried` is what was entered.
pub fn login(action: &str, tried: Option<&str>) -> Markup {
    layout(
        "Log in to your survey",
        html! {
            h1 { "Log in to your survey" }
            @if tried.is_some() {
                p.error role="alert" { "No open survey was found for this login. Please check it and try again." }
            }
            form method="post" action=(action) {
                label for="identifier" { "Your login" }
                input type="text" id="identifier" name="identifier" required value=(tried.unwrap_or_default()) autocomplete="username";
                " "
                button type="submit" { "Open survey" }
            }
        },
    )
}
