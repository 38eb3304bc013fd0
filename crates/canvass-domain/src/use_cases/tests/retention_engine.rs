//! The retention engine: the most specific active rule decides each sendout's cutoff, rows go in batches of
//! [`BATCH`] each in its own transaction, a dry run only counts, one account's failure spares the others, and a
//! run gives way to one already running. Policies delete whole surveys' answers and respondents.

use time::{Duration, OffsetDateTime};

use crate::governance::{RetentionAction, RetentionRule, RuleScope, RuleStatus, SurveyPolicy};
use crate::ids::{AccountId, SendoutId, SurveyId};
use crate::use_cases::retention::{run, RetentionSummary, BATCH};

use super::fakes::retention::{Held, HeldSurvey, Retention};
use super::fakes::NOW;

const ACME: AccountId = AccountId::new(1);
const OTHER: AccountId = AccountId::new(2);

fn rule_with(scope: RuleScope, days: i64, status: RuleStatus) -> RetentionRule {
    RetentionRule::new(scope, RetentionAction::RemoveRespondentDataWithoutAnswers, days, status).unwrap()
}

fn rule(scope: RuleScope, days: i64) -> RetentionRule {
    rule_with(scope, days, RuleStatus::Active)
}

fn held(account: AccountId, survey: i64, sendout: i64, days_ago: i64) -> Held {
    let (survey, sendout) = (SurveyId::new(survey), SendoutId::new(sendout));
    Held { account, survey, sendout, added_at: NOW - Duration::days(days_ago), contact: true }
}

fn run_at(fake: &mut Retention, now: OffsetDateTime, dry_run: bool) -> RetentionSummary {
    run(fake, now, dry_run, false, &mut |_, _| {}).unwrap()
}

fn remaining(fake: &Retention) -> Vec<(i64, i64)> {
    fake.state.respondents.iter().map(|r| (r.sendout.get(), (NOW - r.added_at).whole_days())).collect()
}

/// Acme: survey 1 has sendouts 11 (under the survey's rule, 10 days) and 12 (its own rule, 60 days); survey 2's
/// sendout 21 falls back to the account's rule (30 days).
fn acme() -> Retention {
    let mut fake = Retention::default();
    fake.state.rules = vec![
        (ACME, rule(RuleScope::Account, 30)),
        (ACME, rule(RuleScope::Survey(SurveyId::new(1)), 10)),
        (ACME, rule(RuleScope::Sendout(SurveyId::new(1), SendoutId::new(12)), 60)),
    ];
    fake.state.respondents = vec![
        held(ACME, 1, 11, 20),
        held(ACME, 1, 11, 5),
        held(ACME, 1, 12, 20),
        held(ACME, 1, 12, 90),
        held(ACME, 2, 21, 40),
        held(ACME, 2, 21, 20),
    ];
    fake
}

#[test]
fn the_most_specific_rule_decides_each_sendouts_cutoff() {
    let mut fake = acme();
    let summary = run_at(&mut fake, NOW, false);
    assert!(summary.ran);
    assert_eq!(summary.respondents_removed, 3);
    assert_eq!(remaining(&fake), [(11, 5), (12, 20), (21, 20)]);
    assert!(!fake.state.locked, "the lock is released");
}

#[test]
fn a_dry_run_counts_and_changes_nothing() {
    let mut fake = acme();
    let summary = run_at(&mut fake, NOW, true);
    assert_eq!((summary.respondents_removed, summary.dry_run), (3, true));
    assert_eq!(fake.state.respondents, acme().state.respondents);
}

#[test]
fn rows_go_in_batches_each_in_a_transaction_of_its_own() {
    let mut fake = Retention::default();
    fake.state.rules = vec![(ACME, rule(RuleScope::Account, 30))];
    let expired = usize::try_from(2 * BATCH + 1).unwrap();
    fake.state.respondents = (0..expired).map(|_| held(ACME, 1, 11, 40)).collect();
    fake.state.respondents.push(held(ACME, 1, 11, 1));

    let summary = run_at(&mut fake, NOW, false);

    assert_eq!(summary.respondents_removed, expired as u64);
    let batches: Vec<u64> = fake.state.batches.iter().map(|(_, rows)| *rows).collect();
    let full = u64::try_from(BATCH).unwrap();
    assert_eq!(batches, [full, full, 1], "a short batch ends the step");
    assert_eq!(fake.transactions.committed, 3);
    assert_eq!(remaining(&fake), [(11, 1)]);
}

#[test]
fn a_paused_rule_gives_way_to_the_next_broader_one() {
    let mut fake = acme();
    fake.state.rules[1].1 = rule_with(RuleScope::Survey(SurveyId::new(1)), 10, RuleStatus::Paused);
    run_at(&mut fake, NOW, false);
    assert_eq!(remaining(&fake), [(11, 20), (11, 5), (12, 20), (21, 20)], "survey 1's sendout 11: 30 days now");
}

#[test]
fn one_accounts_failure_spares_the_others() {
    let mut fake = acme();
    fake.state.rules.push((OTHER, rule(RuleScope::Account, 1)));
    fake.state.respondents.push(held(OTHER, 3, 31, 10));
    fake.state.failing = Some(OTHER);

    let summary = run_at(&mut fake, NOW, false);

    assert_eq!(summary.failed_accounts.len(), 1);
    assert_eq!(summary.failed_accounts[0].0, OTHER);
    assert_eq!(summary.respondents_removed, 3, "Acme's expired respondents still go");
    assert!(fake.state.respondents.iter().any(|r| r.account == OTHER));
}

#[test]
fn a_run_gives_way_to_one_already_running() {
    let mut fake = acme();
    fake.state.locked_elsewhere = true;
    let summary = run_at(&mut fake, NOW, false);
    assert!(!summary.ran);
    assert_eq!(fake.state.respondents.len(), 6);
}

#[test]
fn a_surveys_complete_delete_date_removes_its_answers_and_respondents() {
    let mut fake = Retention::default();
    let policy = SurveyPolicy { complete_delete_date: Some((NOW - Duration::days(1)).date()), ..Default::default() };
    let survey = |id, policy| HeldSurvey {
        account: ACME,
        id: SurveyId::new(id),
        end: NOW,
        policy,
        answer_sets: 7,
        open_text: 3,
    };
    fake.state.surveys = vec![survey(1, Some(policy)), survey(2, None)];
    fake.state.respondents = vec![held(ACME, 1, 11, 1), held(ACME, 2, 21, 1)];

    let summary = run_at(&mut fake, NOW, false);

    assert_eq!((summary.answer_sets_removed, summary.survey_respondents_removed), (7, 1));
    assert_eq!(fake.state.surveys[0].answer_sets, 0);
    assert_eq!(fake.state.surveys[1].answer_sets, 7, "a survey without a policy keeps its answers");
    assert_eq!(remaining(&fake), [(21, 1)]);
}
