//! What an alert email says: a subject naming the alert and the survey, and a plain text naming the survey, the
//! sendout and the answer set, with the answers in the tree's order when the alert includes them.

use std::fmt::Write as _;

use time::format_description::well_known::Rfc3339;

use super::Alert;
use crate::answer::AnswerSet;
use crate::delivery::Personal;
use crate::ids::SendoutId;
use crate::survey::{PipeValues, QuestionTree, QuestionType};

/// Where a completed set came from, as an alert email names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AlertOrigin<'a> {
    /// The survey's name.
    pub survey_name: &'a str,
    /// The sendout the set came through, with its name; `None` for a set recorded through the API without a
    /// respondent.
    pub sendout: Option<(SendoutId, &'a str)>,
}

/// The subject and the text of `alert`'s email about `set`.
pub(super) fn written(
    alert: &Alert,
    origin: &AlertOrigin<'_>,
    tree: &QuestionTree,
    set: &AnswerSet,
) -> (String, String) {
    let name = one_line(&alert.input.name);
    let survey = one_line(origin.survey_name);
    let subject = format!("Alert \"{name}\": {survey}");
    let mut body = String::with_capacity(512);
    let _ = writeln!(body, "The alert \"{name}\" was met.\n");
    let _ = writeln!(body, "Survey: {survey} (survey {})", set.survey_id);
    match origin.sendout {
        Some((id, sendout)) => _ = writeln!(body, "Sendout: {} (sendout {id})", one_line(sendout)),
        None => body.push_str("Sendout: none (recorded through the API)\n"),
    }
    let completed = set.updated_at.format(&Rfc3339).unwrap_or_default();
    let _ = writeln!(body, "Answer set: {} (completed {completed})", set.id);
    if alert.input.include_answers {
        body.push_str("\nAnswers:\n");
        write_answers(&mut body, tree, set);
    } else {
        body.push_str("\nThis alert does not include the answers: read them in Canvass.\n");
    }
    (subject, body)
}

/// Each answered item's text, then its answer indented, in the tree's order.
fn write_answers(body: &mut String, tree: &QuestionTree, set: &AnswerSet) {
    let personal = Personal::default();
    let values = PipeValues::new(tree, &set.answers, &personal);
    let answered = tree.items().filter(|item| item.kind != QuestionType::Info);
    let mut any = false;
    for item in answered {
        let Some(answer) = values.answer(item.id) else { continue };
        any = true;
        let _ = writeln!(body, "\n{}", one_line(&values.fill(&item.text)));
        for line in answer.lines() {
            let _ = writeln!(body, "  {line}");
        }
    }
    if !any {
        body.push_str("\n(no answers)\n");
    }
}

/// The text on one line: control characters (line breaks included) as spaces.
fn one_line(text: &str) -> String {
    text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}
