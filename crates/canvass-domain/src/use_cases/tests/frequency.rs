//! Survey frequency settings: the account's and each survey's own are kept apart, a survey's must be a survey of
//! the account, and enabling or disabling changes only the flag.

use crate::governance::FrequencyLimits;
use crate::ids::SurveyId;
use crate::survey::SurveyInput;
use crate::use_cases::{frequency, surveys};

use super::seeds::{not_found, two_accounts, At, NOW};

fn limits(days: i64, max: i64) -> FrequencyLimits {
    FrequencyLimits::new(days, max).unwrap()
}

#[test]
fn a_scope_has_no_setting_before_one_is_put() {
    let (mut memory, acme, _) = two_accounts();
    assert!(not_found(&frequency::get(&mut memory, acme, None), "frequency setting"));
    assert!(not_found(&frequency::set_enabled(&mut memory, acme, None, true), "frequency setting"));
    assert!(memory.state.frequency.is_empty());
}

#[test]
fn the_accounts_setting_and_a_surveys_own_are_kept_apart() {
    let (mut memory, acme, other) = two_accounts();
    let input = SurveyInput { name: "Staff".into(), ..SurveyInput::default() };
    let survey = surveys::create(&mut memory, &At(NOW), acme, input).unwrap().id;

    frequency::put(&mut memory, acme, None, true, limits(30, 2)).unwrap();
    frequency::put(&mut memory, acme, Some(survey), false, limits(10, 5)).unwrap();
    frequency::put(&mut memory, acme, None, true, limits(60, 3)).unwrap();

    let account = frequency::get(&mut memory, acme, None).unwrap();
    assert_eq!((account.enabled, account.limits), (true, limits(60, 3)), "replaced in place");
    let own = frequency::get(&mut memory, acme, Some(survey)).unwrap();
    assert_eq!((own.survey_id, own.enabled, own.limits), (Some(survey), false, limits(10, 5)));
    assert!(not_found(&frequency::get(&mut memory, other, None), "frequency setting"), "the other account has none");
}

#[test]
fn a_surveys_setting_needs_a_survey_of_the_account() {
    let (mut memory, acme, other) = two_accounts();
    let input = SurveyInput { name: "Staff".into(), ..SurveyInput::default() };
    let theirs = surveys::create(&mut memory, &At(NOW), other, input).unwrap().id;

    assert!(not_found(&frequency::put(&mut memory, acme, Some(theirs), true, limits(30, 2)), "survey"));
    assert!(not_found(&frequency::put(&mut memory, acme, Some(SurveyId::new(999)), true, limits(30, 2)), "survey"));
    assert!(not_found(&frequency::get(&mut memory, acme, Some(theirs)), "survey"));
    assert!(memory.state.frequency.is_empty());
}

#[test]
fn enabling_changes_only_the_flag() {
    let (mut memory, acme, _) = two_accounts();
    frequency::put(&mut memory, acme, None, true, limits(30, 2)).unwrap();

    let disabled = frequency::set_enabled(&mut memory, acme, None, false).unwrap();
    assert_eq!((disabled.enabled, disabled.limits), (false, limits(30, 2)));
    assert!(!frequency::get(&mut memory, acme, None).unwrap().enabled);
    let again = frequency::set_enabled(&mut memory, acme, None, false).unwrap();
    assert_eq!(again, disabled, "nothing changes when it is already so");
}
