//! The evaluator on each operator and type, on missing answers, and under arbitrary input (proptest); the checker's
//! paths.

use std::collections::HashMap;

use proptest::prelude::*;

use super::*;
use crate::ids::{PageId, SurveyId};
use crate::survey::{ChoiceOption, Page, QuestionItem, QuestionTree};

#[derive(Default)]
struct Known {
    answers: HashMap<QuestionItemId, (QuestionType, AnswerValue)>,
    background: HashMap<String, String>,
}

impl Facts for Known {
    fn answer(&self, item: QuestionItemId) -> Option<(QuestionType, &AnswerValue)> {
        self.answers.get(&item).map(|(kind, value)| (*kind, value))
    }
    fn background(&self, label: &str) -> Option<&str> {
        self.background.get(label).map(String::as_str)
    }
}

fn answered(kind: QuestionType, value: AnswerValue) -> Known {
    Known { answers: HashMap::from([(QuestionItemId::new(1), (kind, value))]), ..Known::default() }
}

fn on_item(operator: Operator, value: Option<ConditionValue>) -> Conditions {
    Conditions::One(Condition { subject: Subject::Item(QuestionItemId::new(1)), operator, value })
}

fn text(value: &str) -> Option<ConditionValue> {
    Some(ConditionValue::Text(value.into()))
}

fn number(value: f64) -> Option<ConditionValue> {
    Some(ConditionValue::Number(value))
}

#[test]
fn numbers_are_compared_and_ordered() {
    let score = answered(QuestionType::Rating, AnswerValue::Number(6.0));
    let holds = |operator, value| on_item(operator, number(value)).holds(&score);
    assert!(holds(Operator::AtMost, 6.0) && holds(Operator::LessThan, 7.0) && holds(Operator::Equals, 6.0));
    assert!(!holds(Operator::GreaterThan, 6.0) && !holds(Operator::AtLeast, 7.0) && !holds(Operator::NotEquals, 6.0));
}

#[test]
fn dates_order_by_their_text_and_texts_compare_without_case() {
    let date = answered(QuestionType::Date, AnswerValue::Text("2040-05-01".into()));
    assert!(on_item(Operator::GreaterThan, text("2040-04-30")).holds(&date));
    assert!(!on_item(Operator::LessThan, text("2040-05-01")).holds(&date));
    let open = answered(QuestionType::OpenText, AnswerValue::Text("The Stockholm office".into()));
    assert!(on_item(Operator::Contains, text("stockholm")).holds(&open));
    assert!(on_item(Operator::Equals, text(" the stockholm OFFICE ")).holds(&open));
    let choice = answered(QuestionType::SingleChoice, AnswerValue::Text("yes".into()));
    assert!(!on_item(Operator::Equals, text("YES")).holds(&choice), "option values compare exactly");
}

#[test]
fn choices_rankings_and_matrix_cells() {
    let many = answered(QuestionType::MultipleChoice, AnswerValue::Choices(vec!["a".into(), "b".into()]));
    assert!(on_item(Operator::Contains, text("b")).holds(&many));
    assert!(!on_item(Operator::Equals, text("a")).holds(&many), "two choices equal no one value");
    let one = answered(QuestionType::MultipleChoice, AnswerValue::Choices(vec!["a".into()]));
    assert!(on_item(Operator::Equals, text("a")).holds(&one));
    let ranking = answered(QuestionType::Ranking, AnswerValue::Choices(vec!["b".into(), "a".into()]));
    assert!(on_item(Operator::Equals, text("b")).holds(&ranking), "the option ranked first");
    let grid = answered(QuestionType::Matrix, AnswerValue::Rows(vec![("speed".into(), "good".into())]));
    let cell = |row: &str, option: &str| Some(ConditionValue::Cell { row: row.into(), option: option.into() });
    assert!(on_item(Operator::Equals, cell("speed", "good")).holds(&grid));
    assert!(on_item(Operator::NotEquals, cell("price", "good")).holds(&grid), "an unanswered row");
}

#[test]
fn groups_combine_and_background_cells_compare_as_text_or_number() {
    let facts = Known {
        background: HashMap::from([("Region".into(), "North".into()), ("Age".into(), "42".into())]),
        ..Known::default()
    };
    let on = |label: &str, operator, value| {
        Conditions::One(Condition { subject: Subject::Background(label.into()), operator, value })
    };
    let north = on("Region", Operator::Equals, text("north"));
    let old = on("Age", Operator::AtLeast, number(40.0));
    let young = on("Age", Operator::LessThan, number(30.0));
    assert!(Conditions::All(vec![north.clone(), old.clone()]).holds(&facts));
    assert!(!Conditions::All(vec![north.clone(), young.clone()]).holds(&facts));
    assert!(Conditions::Any(vec![young.clone(), Conditions::All(vec![north, old])]).holds(&facts));
    assert!(on("Office", Operator::NotAnswered, None).holds(&facts));
    assert!(!on("Region", Operator::GreaterThan, number(1.0)).holds(&facts), "a text is not ordered");
}

fn any_operator() -> impl Strategy<Value = Operator> {
    proptest::sample::select(Operator::ALL.to_vec())
}

fn any_value() -> impl Strategy<Value = Option<ConditionValue>> {
    prop_oneof![
        Just(None),
        ".{0,12}".prop_map(|text| Some(ConditionValue::Text(text))),
        any::<f64>().prop_map(|number| Some(ConditionValue::Number(number))),
        (".{0,6}", ".{0,6}").prop_map(|(row, option)| Some(ConditionValue::Cell { row, option })),
    ]
}

fn any_answer() -> impl Strategy<Value = AnswerValue> {
    prop_oneof![
        ".{0,12}".prop_map(AnswerValue::Text),
        any::<f64>().prop_map(AnswerValue::Number),
        proptest::collection::vec(".{0,6}", 0..4).prop_map(AnswerValue::Choices),
        proptest::collection::vec((".{0,6}", ".{0,6}"), 0..4).prop_map(AnswerValue::Rows),
    ]
}

fn any_kind() -> impl Strategy<Value = QuestionType> {
    proptest::sample::select(vec![
        QuestionType::SingleChoice,
        QuestionType::MultipleChoice,
        QuestionType::OpenText,
        QuestionType::Numeric,
        QuestionType::Rating,
        QuestionType::Dropdown,
        QuestionType::Date,
        QuestionType::Matrix,
        QuestionType::Ranking,
    ])
}

fn any_conditions() -> impl Strategy<Value = Conditions> {
    let leaf = (any_operator(), any_value(), any::<bool>()).prop_map(|(operator, value, on_label)| {
        let subject = if on_label { Subject::Background("L".into()) } else { Subject::Item(QuestionItemId::new(1)) };
        Conditions::One(Condition { subject, operator, value })
    });
    leaf.prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Conditions::All),
            proptest::collection::vec(inner, 0..4).prop_map(Conditions::Any),
        ]
    })
}

proptest! {
    #[test]
    fn the_evaluator_never_panics(
        conditions in any_conditions(),
        kind in any_kind(),
        answer in any_answer(),
        cell in proptest::option::of(".{0,8}"),
    ) {
        let mut facts = answered(kind, answer);
        if let Some(cell) = cell {
            facts.background.insert("L".into(), cell);
        }
        let _ = conditions.holds(&facts);
        let _ = conditions.holds(&Known::default());
    }

    #[test]
    fn on_a_missing_answer_only_not_equals_and_not_answered_hold(
        operator in any_operator(),
        value in any_value(),
        blank in proptest::sample::select(vec![
            None,
            Some(AnswerValue::Text("  ".into())),
            Some(AnswerValue::Choices(vec![])),
            Some(AnswerValue::Rows(vec![])),
        ]),
        kind in any_kind(),
    ) {
        let facts = blank.map_or_else(Known::default, |blank| answered(kind, blank));
        let holds = on_item(operator, value).holds(&facts);
        prop_assert_eq!(holds, matches!(operator, Operator::NotEquals | Operator::NotAnswered));
    }
}

fn tree() -> QuestionTree {
    let item = |id: i64, page: i64, kind: QuestionType| QuestionItem {
        id: QuestionItemId::new(id),
        page_id: PageId::new(page),
        kind,
        text: "q".into(),
        required: false,
        options: if kind.has_options() {
            vec![ChoiceOption { value: "yes".into(), label: "Yes".into() }]
        } else {
            vec![]
        },
        min_label: None,
        max_label: None,
        settings: Default::default(),
    };
    let page = |id, items| Page { id: PageId::new(id), title: String::new(), items, randomize_items: false };
    let first = page(1, vec![item(11, 1, QuestionType::Numeric), item(12, 1, QuestionType::SingleChoice)]);
    QuestionTree::assemble(SurveyId::new(1), vec![first, page(2, vec![item(21, 2, QuestionType::Info)])], vec![])
}

fn condition(item: i64, operator: Operator, value: Option<ConditionValue>) -> Conditions {
    Conditions::One(Condition { subject: Subject::Item(QuestionItemId::new(item)), operator, value })
}

fn fields(conditions: &Conditions) -> Vec<String> {
    check_conditions(conditions, "[2].when", &tree(), &|_| None).into_iter().map(|error| error.field).collect()
}

#[test]
fn the_checker_names_each_broken_rule_by_its_path() {
    let good = Conditions::All(vec![
        condition(11, Operator::AtMost, number(6.0)),
        Conditions::Any(vec![condition(12, Operator::Equals, text("yes")), condition(12, Operator::Answered, None)]),
    ]);
    assert!(fields(&good).is_empty(), "{:?}", fields(&good));
    let bad = Conditions::All(vec![
        condition(11, Operator::Contains, text("6")),
        condition(12, Operator::Equals, text("maybe")),
        condition(21, Operator::Answered, None),
        condition(99, Operator::Answered, None),
        condition(11, Operator::Answered, number(1.0)),
        condition(11, Operator::Equals, None),
    ]);
    assert_eq!(
        fields(&bad),
        [
            "[2].when.all[0].operator",
            "[2].when.all[1].value",
            "[2].when.all[2].questionItemId",
            "[2].when.all[3].questionItemId",
            "[2].when.all[4].value",
            "[2].when.all[5].value",
        ]
    );
}

#[test]
fn groups_nest_three_deep_and_hold_one_to_fifty() {
    let leaf = || condition(11, Operator::Answered, None);
    let three = Conditions::All(vec![Conditions::Any(vec![Conditions::All(vec![leaf()])])]);
    assert!(fields(&three).is_empty());
    let four = Conditions::All(vec![Conditions::Any(vec![Conditions::All(vec![Conditions::Any(vec![leaf()])])])]);
    assert_eq!(fields(&four), ["[2].when.all[0].any[0].all[0].any"]);
    assert_eq!(fields(&Conditions::Any(vec![])), ["[2].when.any"]);
    let excluded = check_conditions(&leaf(), "when", &tree(), &|_| Some("names an item of a later page"));
    assert_eq!(excluded[0].field, "when.questionItemId");
}
