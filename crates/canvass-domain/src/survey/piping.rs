//! Piping: a survey's texts may hold `{{answer.<questionItemId>}}` (an item of an earlier page), `{{bg.<label>}}`,
//! `{{firstName}}`, `{{lastName}}` and `{{contact.<attribute>}}`, each with an optional default after a bar, as
//! invitations do. They are replaced when a page is shown (the page escapes what it shows); a value that is
//! missing reads as the default, else as nothing.

use std::borrow::Cow;
use std::collections::HashMap;

use crate::answer::{Answer, AnswerValue};
use crate::delivery::placeholders::{one_line, placeholder, scan, Piece, Placeholder};
use crate::delivery::Personal;
use crate::error::FieldError;
use crate::ids::QuestionItemId;

use super::question::{QuestionItem, QuestionType};
use super::tree::QuestionTree;

/// What a piped placeholder stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pipe<'a> {
    Answer(QuestionItemId),
    Personal(Placeholder<'a>),
}

/// Reads what is between `{{` and `}}`: an answer, or a personal placeholder (the links are no pipe).
fn read(inner: &str) -> Option<(Pipe<'_>, &str)> {
    if let Some(rest) = inner.strip_prefix("answer.") {
        let (id, default) = rest.split_once('|').unwrap_or((rest, ""));
        let id = id.parse::<i64>().ok().filter(|id| *id > 0)?;
        return Some((Pipe::Answer(QuestionItemId::new(id)), default));
    }
    match placeholder(inner)? {
        (Placeholder::SurveyLink | Placeholder::OptOutLink, _) => None,
        (personal, default) => Some((Pipe::Personal(personal), default)),
    }
}

/// The items whose answers `text` pipes, in order.
///
/// ```
/// use canvass_domain::survey::piped_items;
///
/// let ids: Vec<i64> = piped_items("You chose {{answer.12}} ({{answer.7|nothing}}), {{firstName}}")
///     .into_iter().map(|id| id.get()).collect();
/// assert_eq!(ids, [12, 7]);
/// ```
pub fn piped_items(text: &str) -> Vec<QuestionItemId> {
    scan(text, read)
        .filter_map(|piece| match piece {
            Piece::Slot(Pipe::Answer(id), _) => Some(id),
            _ => None,
        })
        .collect()
}

/// The text with each `{{answer.<id>}}` naming its item's pair in `items` (old, new), as a copy of the survey has
/// it; one with no pair is kept as it is.
///
/// ```
/// use canvass_domain::ids::QuestionItemId;
/// use canvass_domain::survey::pipes_mapped;
///
/// let pairs = [(QuestionItemId::new(7), QuestionItemId::new(70))];
/// assert_eq!(pipes_mapped("{{answer.7}} {{answer.7|x}} {{answer.8}}", &pairs), "{{answer.70}} {{answer.70|x}} {{answer.8}}");
/// ```
pub fn pipes_mapped(text: &str, items: &[(QuestionItemId, QuestionItemId)]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("{{answer.") {
        let (before, from) = rest.split_at(at + "{{answer.".len());
        out.push_str(before);
        let digits = from.find(|c: char| !c.is_ascii_digit()).unwrap_or(from.len());
        let id = from[..digits].parse::<i64>().ok().map(QuestionItemId::new);
        match id.and_then(|id| super::paired(items, id)) {
            Some(new) => out.push_str(&new.to_string()),
            None => out.push_str(&from[..digits]),
        }
        rest = &from[digits..];
    }
    out.push_str(rest);
    out
}

/// The broken rules of the pipes of `text`, at `field`, shown on the page at `page_index` of `tree`: each
/// `{{answer.<id>}}` names an item of an earlier page.
pub fn check_pipes(text: &str, field: &str, tree: &QuestionTree, page_index: usize, errors: &mut Vec<FieldError>) {
    for id in piped_items(text) {
        let on = tree.item(id).and_then(|item| tree.page_index(item.page_id));
        match on {
            None => errors.push(FieldError::new(field, format!("{{{{answer.{id}}}}} is not an item of this survey"))),
            Some(on) if on >= page_index => {
                errors.push(FieldError::new(field, format!("{{{{answer.{id}}}}} must be an item of an earlier page")))
            }
            Some(_) => {}
        }
    }
}

/// The broken rules of the pipes of an item's text and option labels on the page at `page_index`, at `path`
/// (`.text`, `.options[2].label` under it).
pub fn check_item_pipes(
    item: &super::QuestionItemDraft,
    path: &str,
    tree: &QuestionTree,
    page_index: usize,
) -> Vec<FieldError> {
    let mut errors = Vec::new();
    check_pipes(&item.text, &format!("{path}.text"), tree, page_index, &mut errors);
    for (index, option) in item.options.iter().enumerate() {
        check_pipes(&option.label, &format!("{path}.options[{index}].label"), tree, page_index, &mut errors);
    }
    errors
}

/// Whether `text` holds a piped placeholder at all (most texts hold none, and are shown as they are).
pub fn pipes(text: &str) -> bool {
    text.contains("{{") && scan(text, read).any(|piece| matches!(piece, Piece::Slot(..)))
}

/// What one respondent's piped texts are filled with: its answers, read with their items, and its personal data.
pub struct PipeValues<'a> {
    items: HashMap<QuestionItemId, &'a QuestionItem>,
    answers: HashMap<QuestionItemId, &'a AnswerValue>,
    personal: &'a Personal,
}

impl<'a> PipeValues<'a> {
    /// The values of `answers` to the items of `tree`, and of `personal`.
    pub fn new(tree: &'a QuestionTree, answers: &'a [Answer], personal: &'a Personal) -> Self {
        Self {
            items: tree.items().map(|item| (item.id, item)).collect(),
            answers: answers.iter().map(|answer| (answer.question_item_id, &answer.value)).collect(),
            personal,
        }
    }

    /// The page with its title, item texts and option labels piped.
    pub fn page(&self, mut page: super::Page) -> super::Page {
        page.title = self.fill(&page.title).into_owned();
        page.items = page.items.into_iter().map(|item| self.item(item)).collect();
        page
    }

    /// The item with its text and option labels piped.
    pub fn item(&self, mut item: QuestionItem) -> QuestionItem {
        item.text = self.fill(&item.text).into_owned();
        for option in &mut item.options {
            option.label = self.fill(&option.label).into_owned();
        }
        item
    }

    /// The text with every pipe replaced.
    pub fn fill<'t>(&self, text: &'t str) -> Cow<'t, str> {
        if !text.contains("{{") {
            return Cow::Borrowed(text);
        }
        let mut out = String::with_capacity(text.len() + 32);
        for piece in scan(text, read) {
            match piece {
                Piece::Text(text) | Piece::Unknown(text) => out.push_str(text),
                Piece::Slot(pipe, default) => {
                    let value = match pipe {
                        Pipe::Answer(id) => self.answer(id),
                        Pipe::Personal(personal) => self.personal.value(personal).map(Cow::Borrowed),
                    };
                    let value = value.filter(|value| !value.trim().is_empty());
                    out.push_str(&one_line(value.as_deref().unwrap_or(default)));
                }
            }
        }
        Cow::Owned(out)
    }

    /// An answer as text: the option's label for a choice, the labels joined with `, ` for a MultipleChoice or a
    /// Ranking (in its order), `row: option` pairs for a Matrix, the value as given otherwise.
    pub fn answer(&self, id: QuestionItemId) -> Option<Cow<'a, str>> {
        let (item, value) = (self.items.get(&id)?, *self.answers.get(&id)?);
        let label = |value: &'a str| item.options.iter().find(|o| o.value == value).map_or(value, |o| o.label.as_str());
        Some(match value {
            AnswerValue::Text(text) if item.kind.has_options() => Cow::Borrowed(label(text)),
            AnswerValue::Text(text) => Cow::Borrowed(text.as_str()),
            AnswerValue::Number(number) if item.kind == QuestionType::Rating || number.fract() == 0.0 => {
                Cow::Owned(format!("{number:.0}"))
            }
            AnswerValue::Number(number) => Cow::Owned(number.to_string()),
            AnswerValue::Choices(values) => {
                Cow::Owned(values.iter().map(|value| label(value)).collect::<Vec<_>>().join(", "))
            }
            AnswerValue::Rows(rows) => {
                let row = |value: &'a str| {
                    item.settings.rows.iter().find(|r| r.value == value).map_or(value, |r| r.label.as_str())
                };
                let pairs: Vec<String> =
                    rows.iter().map(|(r, option)| format!("{}: {}", row(r), label(option))).collect();
                Cow::Owned(pairs.join(", "))
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::ids::{PageId, SurveyId};
    use crate::survey::{ChoiceOption, Page};

    fn tree() -> QuestionTree {
        let option = |value: &str, label: &str| ChoiceOption { value: value.into(), label: label.into() };
        let item = |id: i64, kind: QuestionType, options: Vec<ChoiceOption>| QuestionItem {
            id: QuestionItemId::new(id),
            page_id: PageId::new(1),
            kind,
            text: "q".into(),
            required: false,
            options,
            min_label: None,
            max_label: None,
            settings: Default::default(),
        };
        let offices = vec![option("sto", "Stockholm"), option("osl", "Oslo")];
        let items = vec![
            item(1, QuestionType::SingleChoice, offices.clone()),
            item(2, QuestionType::MultipleChoice, offices),
            item(3, QuestionType::Numeric, vec![]),
            item(4, QuestionType::OpenText, vec![]),
        ];
        let page = Page { id: PageId::new(1), title: String::new(), items, randomize_items: false };
        QuestionTree::assemble(SurveyId::new(1), vec![page], vec![])
    }

    #[test]
    fn answers_and_personal_values_are_piped_by_kind() {
        let tree = tree();
        let answer = |id: i64, value: AnswerValue| Answer { question_item_id: QuestionItemId::new(id), value };
        let answers = [
            answer(1, AnswerValue::Text("sto".into())),
            answer(2, AnswerValue::Choices(vec!["osl".into(), "sto".into()])),
            answer(3, AnswerValue::Number(4.0)),
            answer(4, AnswerValue::Text("line one\nline two".into())),
        ];
        let personal = Personal {
            first_name: Some("Anna".into()),
            background: BTreeMap::from([("Region".into(), "North".into())]),
            ..Personal::default()
        };
        let values = PipeValues::new(&tree, &answers, &personal);
        assert_eq!(values.fill("How was the {{answer.1}} office?"), "How was the Stockholm office?");
        assert_eq!(
            values.fill("{{answer.2}} | {{answer.3}} | {{answer.4}}"),
            "Oslo, Stockholm | 4 | line one line two"
        );
        assert_eq!(values.fill("{{firstName}} in {{bg.Region}}, {{lastName|friend}}"), "Anna in North, friend");
        assert_eq!(values.fill("{{answer.99}}|{{surveyLink}}|{{nope}}"), "|{{surveyLink}}|{{nope}}");
        let nothing = PipeValues::new(&tree, &[], &personal);
        assert_eq!(nothing.fill("You chose {{answer.1|nothing}}."), "You chose nothing.");
    }

    #[test]
    fn only_pipes_are_pipes() {
        assert!(pipes("Hi {{firstName}}"));
        assert!(!pipes("Hi {{surveyLink}} {{x}}"));
        assert!(!pipes("no braces"));
        assert!(piped_items("{{answer.x}} {{answer.-1}} {{answer.0}}").is_empty());
    }
}
