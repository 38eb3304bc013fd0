//! The retention engine: the most specific active rule decides each sendout's cutoff, rows go in batches of
//! [`BATCH`] each in its own transaction, a dry run only counts, one account's failure spares the others, and a
//! run gives way to one already running. Policies delete whole surveys' answers and respondents.

use time::{Duration, OffsetDateTime};

use crate::answer::AnswerSet;
use crate::distribution::DispatchType;
use crate::governance::{RetentionAction, RetentionRule, RuleScope, RuleStatus, SurveyPolicy};
use crate::ids::{AccountId, AnswerSetId, SendoutId, SurveyId};
use crate::testing::Memory;
use crate::use_cases::retention::{run, RetentionSummary, BATCH};

use super::seeds::NOW;

const ACME: AccountId = AccountId::new(1);
const OTHER: AccountId = AccountId::new(2);

fn rule_with(scope: RuleScope, days: i64, status: RuleStatus) -> RetentionRule {
    RetentionRule::new(scope, RetentionAction::RemoveRespondentDataWithoutAnswers, days, status).unwrap()
}

fn rule(scope: RuleScope, days: i64) -> RetentionRule {
    rule_with(scope, days, RuleStatus::Active)
}

/// A respondent of the account's sendout of the survey (both seeded when missing), added `days_ago`.
fn held(fake: &mut Memory, account: AccountId, survey: i64, sendout: i64, days_ago: i64) {
    let (survey, sendout) = (SurveyId::new(survey), SendoutId::new(sendout));
    if fake.state.surveys.find(account, survey).is_none() {
        fake.seed_survey(account, survey);
    }
    if !fake.state.sendouts.iter().any(|(_, s)| s.id == sendout) {
        fake.seed_sendout(account, survey, sendout, DispatchType::Email);
    }
    let id = fake.seed_respondent(account, sendout, "someone@example.com");
    fake.respondent_row(id).added_at = NOW - Duration::days(days_ago);
}

fn run_at(fake: &mut Memory, now: OffsetDateTime, dry_run: bool) -> RetentionSummary {
    run(fake, now, dry_run, false, &mut |_, _| {}).unwrap()
}

fn remaining(fake: &Memory) -> Vec<(i64, i64)> {
    let rows = fake.respondent_rows();
    rows.iter().map(|r| (r.sendout_id.get(), (NOW - r.added_at).whole_days())).collect()
}

/// Acme: survey 1 has sendouts 11 (under the survey's rule, 10 days) and 12 (its own rule, 60 days); survey 2's
/// sendout 21 falls back to the account's rule (30 days).
fn acme() -> Memory {
    let mut fake = Memory::default();
    fake.state.rules = vec![
        (ACME, rule(RuleScope::Account, 30)),
        (ACME, rule(RuleScope::Survey(SurveyId::new(1)), 10)),
        (ACME, rule(RuleScope::Sendout(SurveyId::new(1), SendoutId::new(12)), 60)),
    ];
    for (survey, sendout, days_ago) in [(1, 11, 20), (1, 11, 5), (1, 12, 20), (1, 12, 90), (2, 21, 40), (2, 21, 20)] {
        held(&mut fake, ACME, survey, sendout, days_ago);
    }
    fake
}

#[test]
fn the_most_specific_rule_decides_each_sendouts_cutoff() {
    let mut fake = acme();
    let summary = run_at(&mut fake, NOW, false);
    assert!(summary.ran);
    assert_eq!(summary.respondents_removed, 3);
    assert_eq!(remaining(&fake), [(11, 5), (12, 20), (21, 20)]);
    assert!(!fake.state.retention_locked, "the lock is released");
}

#[test]
fn a_dry_run_counts_and_changes_nothing() {
    let mut fake = acme();
    let summary = run_at(&mut fake, NOW, true);
    assert_eq!((summary.respondents_removed, summary.dry_run), (3, true));
    assert_eq!(remaining(&fake), remaining(&acme()));
}

#[test]
fn rows_go_in_batches_each_in_a_transaction_of_its_own() {
    let mut fake = Memory::default();
    fake.state.rules = vec![(ACME, rule(RuleScope::Account, 30))];
    let expired = usize::try_from(2 * BATCH + 1).unwrap();
    (0..expired).for_each(|_| held(&mut fake, ACME, 1, 11, 40));
    held(&mut fake, ACME, 1, 11, 1);

    let summary = run_at(&mut fake, NOW, false);

    assert_eq!(summary.respondents_removed, expired as u64);
    assert_eq!(fake.transactions.committed, 3, "two full batches and a short one that ends the step");
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
    held(&mut fake, OTHER, 3, 31, 10);
    fake.hooks.failing_account = Some(OTHER);

    let summary = run_at(&mut fake, NOW, false);

    assert_eq!(summary.failed_accounts.len(), 1);
    assert_eq!(summary.failed_accounts[0].0, OTHER);
    assert_eq!(summary.respondents_removed, 3, "Acme's expired respondents still go");
    assert!(fake.state.respondents.iter().any(|r| r.account_id == OTHER));
}

#[test]
fn a_run_gives_way_to_one_already_running() {
    let mut fake = acme();
    fake.hooks.retention_held_elsewhere = true;
    let summary = run_at(&mut fake, NOW, false);
    assert!(!summary.ran);
    assert_eq!(fake.state.respondents.len(), 6);
}

#[test]
fn a_surveys_complete_delete_date_removes_its_answers_and_respondents() {
    let mut fake = Memory::default();
    let policy = SurveyPolicy { complete_delete_date: Some((NOW - Duration::days(1)).date()), ..Default::default() };
    held(&mut fake, ACME, 1, 11, 1);
    held(&mut fake, ACME, 2, 21, 1);
    fake.state.survey_policies.push((ACME, SurveyId::new(1), policy));
    for (n, survey) in (1..=14).zip([1, 2].into_iter().cycle()) {
        let set = AnswerSet {
            id: AnswerSetId::new(100 + n),
            survey_id: SurveyId::new(survey),
            respondent_id: None,
            sendout_id: None,
            completed: true,
            quota_full: false,
            shown_order: Default::default(),
            created_at: NOW,
            updated_at: NOW,
            language: None,
            answers: Vec::new(),
        };
        fake.seed_answer_set(ACME, set);
    }
    let sets_of = |fake: &Memory, survey| fake.answer_sets().iter().filter(|s| s.survey_id.get() == survey).count();

    let summary = run_at(&mut fake, NOW, false);

    assert_eq!((summary.answer_sets_removed, summary.survey_respondents_removed), (7, 1));
    assert_eq!(sets_of(&fake, 1), 0);
    assert_eq!(sets_of(&fake, 2), 7, "a survey without a policy keeps its answers");
    assert_eq!(remaining(&fake), [(21, 1)]);
}
