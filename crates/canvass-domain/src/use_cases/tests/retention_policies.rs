//! Retention policies: the account's reads empty before it is set, a change keeps the fields it does not name,
//! and a survey's policy is checked against the survey's end date and the account's labels.

use crate::governance::{AccountPolicy, AccountPolicyInput, Patch, SurveyPolicy, SurveyPolicyInput};
use crate::ids::LabelId;
use crate::survey::SurveyInput;
use crate::use_cases::{retention_policies, surveys};

use super::seeds::{invalid_fields, not_found, two_accounts, At, NOW};

#[test]
fn the_accounts_policy_is_empty_until_set_and_a_change_keeps_what_it_does_not_name() {
    let (mut memory, acme, other) = two_accounts();
    assert_eq!(retention_policies::account(&mut memory, acme).unwrap(), AccountPolicy::default());

    let set = AccountPolicyInput {
        partial_delete_after_days: Patch::Set(30),
        complete_delete_after_days: Patch::Set(90),
        include_open_text_in_partial_delete: Some(true),
    };
    retention_policies::set_account(&mut memory, &At(NOW), acme, set).unwrap();
    let clear = AccountPolicyInput { partial_delete_after_days: Patch::Clear, ..AccountPolicyInput::default() };
    let after = retention_policies::set_account(&mut memory, &At(NOW), acme, clear).unwrap();

    let expected = AccountPolicy {
        partial_delete_after_days: None,
        complete_delete_after_days: Some(90),
        include_open_text_in_partial_delete: true,
    };
    assert_eq!(after, expected);
    assert_eq!(retention_policies::account(&mut memory, acme).unwrap(), expected);
    assert_eq!(retention_policies::account(&mut memory, other).unwrap(), AccountPolicy::default());
}

#[test]
fn days_that_are_not_positive_are_refused_and_nothing_changes() {
    let (mut memory, acme, _) = two_accounts();
    let zero = AccountPolicyInput { complete_delete_after_days: Patch::Set(0), ..AccountPolicyInput::default() };
    let fields = invalid_fields(retention_policies::set_account(&mut memory, &At(NOW), acme, zero));
    assert_eq!(fields, ["complete_delete_after_days"]);
    assert_eq!(retention_policies::account(&mut memory, acme).unwrap(), AccountPolicy::default());
}

#[test]
fn a_surveys_policy_is_checked_against_its_end_and_the_accounts_labels() {
    let (mut memory, acme, other) = two_accounts();
    let input = SurveyInput { name: "Staff".into(), ..SurveyInput::default() };
    let survey = surveys::create(&mut memory, &At(NOW), acme, input).unwrap();
    assert_eq!(retention_policies::survey(&mut memory, acme, survey.id).unwrap(), SurveyPolicy::default());
    assert!(not_found(&retention_policies::survey(&mut memory, other, survey.id), "survey"));

    let too_early = SurveyPolicyInput {
        partial_delete_date: Patch::Set(survey.end_date.date()),
        excluded_bg_data_label_ids: Some(vec![LabelId::new(77)]),
        ..SurveyPolicyInput::default()
    };
    let fields = invalid_fields(retention_policies::set_survey(&mut memory, &At(NOW), acme, survey.id, too_early));
    assert_eq!(fields, ["partial_delete_date", "excludedBgDataLabelIds[0]"]);

    let later = survey.end_date.date().next_day().unwrap();
    let fine = SurveyPolicyInput { complete_delete_date: Patch::Set(later), ..SurveyPolicyInput::default() };
    retention_policies::set_survey(&mut memory, &At(NOW), acme, survey.id, fine.clone()).unwrap();
    let stored = retention_policies::survey(&mut memory, acme, survey.id).unwrap();
    assert_eq!(stored.complete_delete_date, Some(later));

    let theirs = retention_policies::set_survey(&mut memory, &At(NOW), other, survey.id, fine);
    assert!(not_found(&theirs, "survey"), "another account cannot set it");
}
