//! Quotas: checked against the survey's tree, scoped to the account; a completed set counts in the quotas it meets
//! up to their limits; a full `endSurvey` quota ends a matching set (not completed, `quotaFull`, no event); a
//! change keeps the count; a copy keeps the quotas at zero.

use crate::answer::{Answer, AnswerValue};
use crate::ids::{PageId, QuestionItemId, SurveyId};
use crate::survey::{
    ChoiceOption, Condition, ConditionValue, Conditions, Operator, Page, QuestionItem, QuestionTree, QuestionType,
    QuotaAction, QuotaInput, QuotaPatch, Subject,
};
use crate::testing::Memory;
use crate::use_cases::answers::{self, AnswerSetInput};
use crate::use_cases::quotas;
use crate::AccountId;

use super::seeds::{invalid_fields, not_found, At, NOW};

const ACCOUNT: AccountId = AccountId::new(1);
const OTHER: AccountId = AccountId::new(2);
const SURVEY: SurveyId = SurveyId::new(1);
const THEIRS: SurveyId = SurveyId::new(2);
/// A single choice of `north` and `south`.
const REGION: QuestionItemId = QuestionItemId::new(10);

fn fixture() -> Memory {
    let mut fake = Memory::default();
    fake.seed_survey(ACCOUNT, SURVEY);
    fake.seed_survey(OTHER, THEIRS);
    let page = PageId::new(20);
    let options = ["north", "south"].map(|v| ChoiceOption { value: v.into(), label: v.into() }).to_vec();
    let region = QuestionItem {
        id: REGION,
        page_id: page,
        kind: QuestionType::SingleChoice,
        text: "Where?".into(),
        required: false,
        options,
        min_label: None,
        max_label: None,
        settings: Default::default(),
    };
    let pages = vec![Page { id: page, title: String::new(), items: vec![region], randomize_items: false }];
    fake.state.surveys.trees.push(QuestionTree::assemble(SURVEY, pages, Vec::new()));
    fake
}

fn of_region(name: &str) -> Conditions {
    let value = Some(ConditionValue::Text(name.into()));
    Conditions::One(Condition { subject: Subject::Item(REGION), operator: Operator::Equals, value })
}

fn quota(region: &str, limit: i64, action: QuotaAction) -> QuotaInput {
    QuotaInput { name: format!("{region} {limit}"), when: of_region(region), limit, action }
}

fn complete(fake: &mut Memory, region: &str) -> crate::answer::AnswerSet {
    let answers = vec![Answer { question_item_id: REGION, value: AnswerValue::Text(region.into()) }];
    let input = AnswerSetInput { respondent_id: None, completed: true, answers, language: None };
    answers::record(fake, &At(NOW), ACCOUNT, SURVEY, input).unwrap()
}

#[test]
fn completed_sets_count_up_to_the_limit_then_a_full_end_quota_ends_them() {
    let mut fake = fixture();
    let north = quotas::create(&mut fake, &At(NOW), ACCOUNT, SURVEY, quota("north", 2, QuotaAction::EndSurvey));
    let north = north.unwrap();
    let south = quotas::create(&mut fake, &At(NOW), ACCOUNT, SURVEY, quota("south", 1, QuotaAction::CloseSurvey));
    let south = south.unwrap();
    assert_eq!((north.count, south.count), (0, 0), "a new quota counts from zero");
    for _ in 0..2 {
        assert!(complete(&mut fake, "north").completed);
    }
    assert_eq!(fake.state.events.len(), 2);
    let held = complete(&mut fake, "north");
    assert!(!held.completed && held.quota_full, "the full endSurvey quota ends the third");
    assert_eq!(fake.state.events.len(), 2, "a set a quota ended is no answerSet.completed event");
    assert!(fake.state.answer_sets.iter().any(|stored| stored.set.id == held.id && stored.set.quota_full));
    for _ in 0..2 {
        let set = complete(&mut fake, "south");
        assert!(set.completed && !set.quota_full, "a full closeSurvey quota holds no one who has started");
    }
    let counts: Vec<i64> =
        quotas::list(&mut fake, ACCOUNT, SURVEY).unwrap().into_iter().map(|quota| quota.count).collect();
    assert_eq!(counts, [2, 1], "no quota counts past its limit");
}

#[test]
fn a_quota_is_checked_against_the_tree_and_scoped_to_the_account() {
    let mut fake = fixture();
    let on_missing = QuotaInput {
        when: Conditions::One(Condition {
            subject: Subject::Item(QuestionItemId::new(99)),
            operator: Operator::Answered,
            value: None,
        }),
        ..quota("north", 0, QuotaAction::EndSurvey)
    };
    let created = quotas::create(&mut fake, &At(NOW), ACCOUNT, SURVEY, on_missing);
    assert_eq!(invalid_fields(created), ["limit", "when.questionItemId"]);
    assert!(fake.state.quotas.is_empty(), "nothing stored");
    let theirs = quotas::create(&mut fake, &At(NOW), ACCOUNT, THEIRS, quota("north", 1, QuotaAction::EndSurvey));
    assert!(not_found(&theirs, "survey"));
    let made = quotas::create(&mut fake, &At(NOW), ACCOUNT, SURVEY, quota("north", 1, QuotaAction::EndSurvey));
    let made = made.unwrap();
    assert!(not_found(&quotas::get(&mut fake, OTHER, SURVEY, made.id), "survey"));
    assert!(not_found(&quotas::delete(&mut fake, OTHER, THEIRS, made.id), "quota"));
}

#[test]
fn a_change_keeps_the_count_and_a_delete_removes_the_quota() {
    let mut fake = fixture();
    let made = quotas::create(&mut fake, &At(NOW), ACCOUNT, SURVEY, quota("north", 1, QuotaAction::EndSurvey));
    let made = made.unwrap();
    complete(&mut fake, "north");
    let patch = QuotaPatch { limit: Some(5), name: Some("North".into()), ..QuotaPatch::default() };
    let changed = quotas::patch(&mut fake, ACCOUNT, SURVEY, made.id, patch).unwrap();
    assert_eq!((changed.input.name.as_str(), changed.input.limit, changed.count), ("North", 5, 1));
    let blank = QuotaPatch { name: Some(" ".into()), ..QuotaPatch::default() };
    assert_eq!(invalid_fields(quotas::patch(&mut fake, ACCOUNT, SURVEY, made.id, blank)), ["name"]);
    assert_eq!(quotas::get(&mut fake, ACCOUNT, SURVEY, made.id).unwrap().input.name, "North", "nothing changed");
    quotas::delete(&mut fake, ACCOUNT, SURVEY, made.id).unwrap();
    assert!(not_found(&quotas::get(&mut fake, ACCOUNT, SURVEY, made.id), "quota"));
}
