//! The controls of the richer item types, without script: a Matrix as a table of radio buttons with `<th scope>`
//! headers on wide screens and one fieldset of radio buttons per row on phones (both are in the page, one shown
//! by the media query; a row's radio buttons in either share one name, so they are one group and the form sends
//! the one chosen), a Ranking as one place field per option, a Dropdown as a `<select>`.

use canvass_domain::answer::{Answer, AnswerValue};
use canvass_domain::survey::{ChoiceOption, QuestionItem, TextKey};
use maud::{html, Markup};

use super::Marks;
use crate::pages::words::{fill, Words};

/// The option value chosen for a Matrix row in `answer`, if any.
fn row_choice<'a>(answer: Option<&'a Answer>, row: &str) -> Option<&'a str> {
    match answer.map(|a| &a.value) {
        Some(AnswerValue::Rows(rows)) => rows.iter().find(|(r, _)| r == row).map(|(_, option)| option.as_str()),
        _ => None,
    }
}

/// A Matrix: the table for wide screens and the fieldsets for phones.
pub fn matrix(item: &QuestionItem, name: &str, answer: Option<&Answer>, marks: Marks) -> Markup {
    let rows = &item.settings.rows;
    let option_label =
        |option: &ChoiceOption| marks.text(|| TextKey::Option(item.id, option.value.clone()), &option.label);
    let row_label = |row: &ChoiceOption| marks.text(|| TextKey::Row(item.id, row.value.clone()), &row.label);
    html! {
        table.matrix {
            thead {
                tr {
                    td {}
                    @for (o, option) in item.options.iter().enumerate() {
                        th scope="col" id=(format!("{name}-h{o}")) { (option_label(option)) }
                    }
                }
            }
            tbody {
                @for (r, row) in rows.iter().enumerate() {
                    @let chosen = row_choice(answer, &row.value);
                    @let row_id = format!("{name}-{r}-row");
                    tr {
                        th scope="row" id=(row_id) { (row_label(row)) }
                        @for (o, option) in item.options.iter().enumerate() {
                            @let id = format!("{name}-{r}-{o}");
                            td {
                                input type="radio" id=(id) name=(format!("{name}-{r}")) value=(option.value)
                                    aria-labelledby=(format!("{row_id} {name}-h{o}"))
                                    checked[chosen == Some(option.value.as_str())] required[item.required];
                            }
                        }
                    }
                }
            }
        }
        div.matrix-rows {
            @for (r, row) in rows.iter().enumerate() {
                @let chosen = row_choice(answer, &row.value);
                fieldset {
                    legend { (row_label(row)) }
                    @for (o, option) in item.options.iter().enumerate() {
                        @let id = format!("{name}-{r}-{o}-p");
                        label for=(id) {
                            input type="radio" id=(id) name=(format!("{name}-{r}")) value=(option.value)
                                checked[chosen == Some(option.value.as_str())];
                            " " (option_label(option))
                        }
                    }
                }
            }
        }
    }
}

/// The place (from 1) an option has in a Ranking `answer`, if any.
fn place_of(answer: Option<&Answer>, value: &str) -> Option<usize> {
    match answer.map(|a| &a.value) {
        Some(AnswerValue::Choices(order)) => order.iter().position(|v| v == value).map(|place| place + 1),
        _ => None,
    }
}

/// A Ranking: per option, a field choosing its place.
pub fn ranking(item: &QuestionItem, name: &str, answer: Option<&Answer>, words: &Words) -> Markup {
    let count = item.options.len();
    html! {
        @for (o, option) in item.options.iter().enumerate() {
            @let id = format!("{name}-{o}");
            @let place = place_of(answer, &option.value);
            div.rank {
                label for=(id) { (fill(words.place_of, &[("option", &option.label)])) }
                select id=(id) name=(id) required[item.required] {
                    option value="" { "—" }
                    @for n in 1..=count {
                        option value=(n) selected[place == Some(n)] { (n) }
                    }
                }
            }
        }
    }
}

/// A Dropdown: a `<select>` of its options after an empty choice.
pub fn dropdown(item: &QuestionItem, name: &str, answer: Option<&Answer>, words: &Words, marks: Marks) -> Markup {
    let chosen = match answer.map(|a| &a.value) {
        Some(AnswerValue::Text(text)) => Some(text.as_str()),
        _ => None,
    };
    html! {
        label for=(name) { (words.your_answer) }
        select id=(name) name=(name) required[item.required] {
            option value="" { "—" }
            @for option in &item.options {
                option value=(option.value) selected[chosen == Some(option.value.as_str())]
                    lang=[marks.lang(|| TextKey::Option(item.id, option.value.clone()))] { (option.label) }
            }
        }
    }
}
