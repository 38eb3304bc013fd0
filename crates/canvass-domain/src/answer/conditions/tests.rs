//! Reading `where` conditions, checking them against a tree, and what they hold for.

use super::*;
use crate::answer::AnswerValue;
use crate::ids::{PageId, SurveyId};
use crate::survey::{Page, QuestionItem};
use crate::testing::{capitalised, question_item};

fn item(id: i64, kind: QuestionType) -> QuestionItem {
    question_item(id, 1, kind, capitalised(&["a", "b"]))
}

/// Items 1 SingleChoice, 2 MultipleChoice, 3 Numeric, 4 Rating, 5 Date, 6 OpenText, 7 Matrix, 8 Info.
fn tree() -> QuestionTree {
    use QuestionType::*;
    let kinds = [SingleChoice, MultipleChoice, Numeric, Rating, Date, OpenText, Matrix, Info];
    let items = kinds.iter().zip(1..).map(|(kind, id)| item(id, *kind)).collect();
    let page = Page { id: PageId::new(1), title: "One".into(), items, randomize_items: false };
    QuestionTree::assemble(SurveyId::new(1), vec![page], vec![])
}

fn check(texts: &[&str]) -> Result<(), FieldError> {
    let conditions = texts.iter().map(|text| AnswerCondition::parse(text)).collect::<Result<Vec<_>, _>>()?;
    check_conditions(&tree(), &conditions)
}

#[test]
fn a_condition_reads_item_operator_and_values() {
    let condition = AnswerCondition::parse("3:gt:4.5").unwrap();
    assert_eq!(
        (condition.item, condition.op, condition.values.clone()),
        (QuestionItemId::new(3), FilterOp::Gt, vec!["4.5".into()])
    );
    assert_eq!(AnswerCondition::parse("6:eq:a|b").unwrap().values, ["a|b"], "only `in` splits");
    assert_eq!(AnswerCondition::parse("1:eq:").unwrap().values, [""]);
    for bad in ["", "3", "3:gt", "x:eq:1", "0:eq:1", "-2:eq:1", "3:ge:1", "3:EQ:1"] {
        let error = AnswerCondition::parse(bad).unwrap_err();
        assert_eq!(error.field, WHERE, "{bad:?}");
    }
    let many = format!("1:in:{}", vec!["a"; MAX_VALUES + 1].join("|"));
    assert!(AnswerCondition::parse(&many).is_err());
}

#[test]
fn its_debug_hides_the_values() {
    let condition = AnswerCondition::parse("6:eq:Anna Svensson").unwrap();
    let shown = format!("{condition:?}");
    assert!(!shown.contains("Anna"), "{shown}");
    assert!(shown.contains("<1 values>"), "{shown}");
}

#[test]
fn operators_fit_the_item_types() {
    for fitting in ["1:eq:a", "1:in:a|b", "2:ne:a", "3:gt:2", "3:lt:-1.5", "4:in:9|10", "5:gt:2026-01-31", "6:eq:hi"] {
        assert_eq!(check(&[fitting]), Ok(()), "{fitting}");
    }
    for misfit in ["1:gt:a", "2:lt:a", "6:gt:m", "7:eq:a", "8:eq:a"] {
        let error = check(&[misfit]).unwrap_err();
        assert!(error.message.contains("does not fit"), "{misfit}: {error}");
    }
}

#[test]
fn values_are_of_the_item_kind_and_items_of_the_tree() {
    for wrong in ["3:eq:three", "4:in:9|x", "5:eq:2026-02-30", "5:eq:26-01-01", "3:eq:inf"] {
        let error = check(&[wrong]).unwrap_err();
        assert!(error.message.contains("must be"), "{wrong}: {error}");
    }
    let error = check(&["99:eq:a"]).unwrap_err();
    assert_eq!((error.field.as_str(), error.message.as_str()), (WHERE, "99 is not an item of the survey"));
    let too_many: Vec<&str> = vec!["1:eq:a"; MAX_CONDITIONS + 1];
    assert!(check(&too_many).is_err());
    assert!(check(&too_many[..MAX_CONDITIONS]).is_ok());
}

#[test]
fn conditions_hold_as_the_store_compiles_them() {
    let holds = |text: &str, answer: Option<AnswerValue>| AnswerCondition::parse(text).unwrap().holds(answer.as_ref());
    let number = |n: f64| Some(AnswerValue::Number(n));
    let text = |t: &str| Some(AnswerValue::Text(t.into()));
    assert!(holds("3:eq:7", number(7.0)) && holds("3:eq:7.0", number(7.0)));
    assert!(holds("3:gt:6.5", number(7.0)) && !holds("3:gt:7", number(7.0)));
    assert!(holds("3:lt:10", number(7.0)) && !holds("3:lt:-1", number(7.0)));
    assert!(holds("4:in:0|7|9", number(7.0)) && !holds("4:in:0|9", number(7.0)));
    assert!(holds("5:gt:2026-01-09", text("2026-01-10")) && !holds("5:lt:2026-01-09", text("2026-01-10")));
    assert!(holds("1:eq:a", text("a")) && !holds("1:eq:b", text("a")));
    let chose = Some(AnswerValue::Choices(vec!["a".into(), "b".into()]));
    assert!(holds("2:eq:b", chose.clone()) && holds("2:in:x|a", chose.clone()) && !holds("2:ne:a", chose));
    // `ne` holds on no answer; nothing else does.
    assert!(holds("1:ne:a", None) && holds("1:ne:a", text("b")) && !holds("1:ne:a", text("a")));
    for other in ["1:eq:a", "3:gt:0", "3:lt:100", "1:in:a|b"] {
        assert!(!holds(other, None), "{other}");
    }
}
