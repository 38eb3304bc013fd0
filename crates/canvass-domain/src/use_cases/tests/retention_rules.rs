//! Retention rules: a rule's scope must be the account's (its survey, or its survey's sendout), setting a scope's
//! rule again overwrites it in place, and changing or deleting a rule that is not there is `NotFound`.

use crate::distribution::{DispatchType, MessageInput, SendoutInput};
use crate::governance::{RetentionAction, RuleInput, RulePatch, RuleScope, RuleStatus};
use crate::ids::{SendoutId, SurveyId};
use crate::survey::SurveyInput;
use crate::testing::Memory;
use crate::use_cases::{retention_rules, sendouts, surveys};
use crate::AccountId;

use super::seeds::{invalid_fields, not_found, two_accounts, At, NOW};

const ACTION: RetentionAction = RetentionAction::RemoveRespondentDataWithoutAnswers;

fn input(days: i64) -> RuleInput {
    RuleInput { action: ACTION, retention_days: days, status: None }
}

/// A survey of the account with one LOGIN sendout.
fn survey_with_sendout(memory: &mut Memory, account: AccountId) -> (SurveyId, SendoutId) {
    let survey = surveys::create(memory, &At(NOW), account, SurveyInput { name: "Staff".into(), ..Default::default() });
    let survey = survey.unwrap().id;
    let login = SendoutInput {
        name: "Spring".into(),
        kind: DispatchType::Login,
        message: MessageInput::default(),
        expiry_date: None,
        language: None,
        open_link: Default::default(),
    };
    (survey, sendouts::create(memory, &At(NOW), account, survey, login).unwrap().id)
}

#[test]
fn a_rules_scope_must_be_the_accounts() {
    let (mut memory, acme, other) = two_accounts();
    let (survey, sendout) = survey_with_sendout(&mut memory, other);
    let (ours, _) = survey_with_sendout(&mut memory, acme);

    let theirs = retention_rules::set(&mut memory, &At(NOW), acme, RuleScope::Survey(survey), input(30));
    assert!(not_found(&theirs, "survey"));
    let scope = RuleScope::Sendout(survey, sendout);
    assert!(not_found(&retention_rules::set(&mut memory, &At(NOW), acme, scope, input(30)), "survey"));
    let elsewhere = RuleScope::Sendout(ours, sendout);
    assert!(not_found(&retention_rules::set(&mut memory, &At(NOW), acme, elsewhere, input(30)), "sendout"));
    assert!(not_found(&retention_rules::list(&mut memory, acme, Some(RuleScope::Survey(survey))), "survey"));
    assert!(memory.state.rules.is_empty());
}

#[test]
fn days_out_of_range_are_refused_naming_the_field() {
    let (mut memory, acme, _) = two_accounts();
    let fields = invalid_fields(retention_rules::set(&mut memory, &At(NOW), acme, RuleScope::Account, input(0)));
    assert_eq!(fields, ["retentionDays"]);
    assert!(memory.state.rules.is_empty());
}

#[test]
fn a_scopes_rule_is_overwritten_in_place_and_listed_by_scope() {
    let (mut memory, acme, other) = two_accounts();
    let (survey, sendout) = survey_with_sendout(&mut memory, acme);
    let scopes = [RuleScope::Account, RuleScope::Survey(survey), RuleScope::Sendout(survey, sendout)];
    for (scope, days) in scopes.into_iter().zip([30, 20, 10]) {
        retention_rules::set(&mut memory, &At(NOW), acme, scope, input(days)).unwrap();
    }
    retention_rules::set(&mut memory, &At(NOW), acme, RuleScope::Account, input(45)).unwrap();

    let all = retention_rules::list(&mut memory, acme, None).unwrap();
    let days: Vec<i32> = all.iter().map(|rule| rule.retention_days()).collect();
    assert_eq!(days, [45, 20, 10], "the account's rule overwritten where it stood");
    let one = retention_rules::list(&mut memory, acme, Some(RuleScope::Survey(survey))).unwrap();
    assert_eq!(one.iter().map(|rule| rule.scope()).collect::<Vec<_>>(), [RuleScope::Survey(survey)]);
    assert!(retention_rules::list(&mut memory, other, None).unwrap().is_empty());
}

#[test]
fn a_rule_is_changed_or_deleted_only_when_it_is_there() {
    let (mut memory, acme, other) = two_accounts();
    let pause = RulePatch::new(None, Some(RuleStatus::Paused)).unwrap();
    let update = retention_rules::update(&mut memory, &At(NOW), acme, RuleScope::Account, ACTION, pause);
    assert!(not_found(&update, "retention rule"));
    assert!(not_found(&retention_rules::delete(&mut memory, acme, RuleScope::Account, ACTION), "retention rule"));

    retention_rules::set(&mut memory, &At(NOW), acme, RuleScope::Account, input(30)).unwrap();
    let paused = retention_rules::update(&mut memory, &At(NOW), acme, RuleScope::Account, ACTION, pause).unwrap();
    assert_eq!((paused.retention_days(), paused.status()), (30, RuleStatus::Paused), "the days stay");
    assert_eq!(retention_rules::list(&mut memory, acme, None).unwrap(), [paused]);

    assert!(not_found(&retention_rules::delete(&mut memory, other, RuleScope::Account, ACTION), "retention rule"));
    retention_rules::delete(&mut memory, acme, RuleScope::Account, ACTION).unwrap();
    assert!(retention_rules::list(&mut memory, acme, None).unwrap().is_empty());
}
