use std::collections::BTreeMap;

use time::macros::datetime;

use super::*;
use crate::answer::{Answer, AnswerValue};
use crate::ids::{PageId, QuestionItemId, SendoutId};
use crate::survey::{
    ChoiceOption, Condition, ConditionValue, KnownFacts, Operator, Page, QuestionItem, QuestionType, Subject,
};

fn tree() -> QuestionTree {
    let item = |id: i64, kind: QuestionType, text: &str, options: Vec<ChoiceOption>| QuestionItem {
        id: QuestionItemId::new(id),
        page_id: PageId::new(1),
        kind,
        text: text.into(),
        required: false,
        options,
        min_label: None,
        max_label: None,
        settings: Default::default(),
    };
    let option = |value: &str, label: &str| ChoiceOption { value: value.into(), label: label.into() };
    let items = vec![
        item(1, QuestionType::Rating, "How likely are you to recommend us?", vec![]),
        item(2, QuestionType::SingleChoice, "Which store?", vec![option("sto", "Stockholm"), option("osl", "Oslo")]),
        item(3, QuestionType::Info, "Thank you so far.", vec![]),
        item(4, QuestionType::OpenText, "What could we do better?", vec![]),
    ];
    let page = Page { id: PageId::new(1), title: String::new(), items, randomize_items: false };
    QuestionTree::assemble(SurveyId::new(7), vec![page], vec![])
}

fn detractors() -> Conditions {
    Conditions::One(Condition {
        subject: Subject::Item(QuestionItemId::new(1)),
        operator: Operator::AtMost,
        value: Some(ConditionValue::Number(6.0)),
    })
}

fn input(recipients: &[&str]) -> AlertInput {
    AlertInput {
        name: "Unhappy customer".into(),
        when: detractors(),
        recipients: recipients.iter().map(|r| (*r).to_owned()).collect(),
        include_answers: true,
    }
}

fn fields(input: AlertInput) -> Vec<String> {
    input.trimmed().check(&tree()).into_iter().map(|error| error.field).collect()
}

#[test]
fn an_alert_is_checked_by_field_and_each_recipient_by_its_place() {
    assert!(fields(input(&["manager@example.com", " owner@example.com "])).is_empty(), "recipients are trimmed");
    assert_eq!(fields(input(&[])), ["recipients"]);
    assert_eq!(fields(input(&["manager@example.com", "not an address"])), ["recipients[1]"]);
    assert_eq!(fields(input(&["a@example.com", "b@example.com", "A@Example.com"])), ["recipients[2]"]);
    let many: Vec<String> = (0..=ALERT_RECIPIENTS).map(|n| format!("person{n}@example.com")).collect();
    let many: Vec<&str> = many.iter().map(String::as_str).collect();
    assert_eq!(fields(input(&many)), ["recipients"], "21 recipients are one too many");
    assert_eq!(fields(AlertInput { name: " ".into(), ..input(&["a@example.com"]) }), ["name"]);
    assert_eq!(fields(AlertInput { name: "Bad\nname".into(), ..input(&["a@example.com"]) }), ["name"]);
    let unknown = Conditions::One(Condition {
        subject: Subject::Item(QuestionItemId::new(99)),
        operator: Operator::Answered,
        value: None,
    });
    assert_eq!(fields(AlertInput { when: unknown, ..input(&["a@example.com"]) }), ["when.questionItemId"]);
    let on_text = Conditions::One(Condition {
        subject: Subject::Item(QuestionItemId::new(4)),
        operator: Operator::GreaterThan,
        value: Some(ConditionValue::Number(3.0)),
    });
    assert_eq!(fields(AlertInput { when: on_text, ..input(&["a@example.com"]) }), ["when.operator"]);
}

fn alert(include_answers: bool) -> Alert {
    let input = AlertInput { include_answers, ..input(&["manager@example.com", "owner@example.com"]) };
    Alert { id: AlertId::new(3), survey_id: SurveyId::new(7), input, created_at: datetime!(2026-11-01 09:00 UTC) }
}

fn set(score: f64) -> AnswerSet {
    let answer = |id: i64, value: AnswerValue| Answer { question_item_id: QuestionItemId::new(id), value };
    AnswerSet {
        id: AnswerSetId::new(41),
        survey_id: SurveyId::new(7),
        respondent_id: None,
        sendout_id: Some(SendoutId::new(5)),
        completed: true,
        quota_full: false,
        created_at: datetime!(2026-11-02 10:00 UTC),
        updated_at: datetime!(2026-11-02 10:05 UTC),
        language: None,
        answers: vec![
            answer(4, AnswerValue::Text("The queue\nwas long".into())),
            answer(1, AnswerValue::Number(score)),
            answer(2, AnswerValue::Text("osl".into())),
        ],
        shown_order: Default::default(),
    }
}

#[test]
fn a_completed_set_meets_an_alert_by_its_conditions() {
    let (tree, none) = (tree(), BTreeMap::new());
    let (low, high) = (set(3.0), set(9.0));
    assert!(alert(true).met_by(&KnownFacts::new(&tree, &low.answers, &none)));
    assert!(!alert(true).met_by(&KnownFacts::new(&tree, &high.answers, &none)));
    assert!(!name_background(&[alert(true)]));
}

#[test]
fn each_recipient_gets_an_email_naming_survey_sendout_and_set_with_the_answers_in_tree_order() {
    let origin = AlertOrigin { survey_name: "Store visits", sendout: Some((SendoutId::new(5), "Spring\nvisitors")) };
    let alert = alert(true);
    let emails = alert_emails(&[&alert], &origin, &tree(), &set(3.0));
    let to: Vec<&str> = emails.iter().map(|email| email.recipient.as_str()).collect();
    assert_eq!(to, ["manager@example.com", "owner@example.com"]);
    let email = &emails[0];
    assert_eq!((email.alert_id, email.answer_set_id), (AlertId::new(3), AnswerSetId::new(41)));
    assert_eq!(email.subject, "Alert \"Unhappy customer\": Store visits");
    assert_eq!(
        email.body,
        "The alert \"Unhappy customer\" was met.\n\n\
         Survey: Store visits (survey 7)\n\
         Sendout: Spring visitors (sendout 5)\n\
         Answer set: 41 (completed 2026-11-02T10:05:00Z)\n\
         \nAnswers:\n\
         \nHow likely are you to recommend us?\n  3\n\
         \nWhich store?\n  Oslo\n\
         \nWhat could we do better?\n  The queue\n  was long\n"
    );
    assert_eq!(
        format!("{email:?}"),
        "AlertEmail { alert_id: AlertId(3), answer_set_id: AnswerSetId(41), .. }",
        "no address, no answer"
    );
}

#[test]
fn without_include_answers_the_email_names_the_set_and_holds_no_answer() {
    let origin = AlertOrigin { survey_name: "Store visits", sendout: None };
    let alert = alert(false);
    let emails = alert_emails(&[&alert], &origin, &tree(), &set(3.0));
    assert_eq!(emails.len(), 2);
    let body = &emails[1].body;
    assert!(body.contains("Sendout: none (recorded through the API)\n"), "{body}");
    assert!(body.contains("Answer set: 41"), "{body}");
    assert!(!body.contains("queue") && !body.contains("Oslo"), "{body}");
}
