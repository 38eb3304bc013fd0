//! What the retention engine reads and removes: at most `limit` rows a call, every candidate counted on a dry run.

use time::OffsetDateTime;

use super::{limit_of, HeldRespondent, Memory, MessageStatus, State};
use crate::governance::{NewRetentionRun, RetentionRun, SurveyPolicy};
use crate::ids::{AccountId, LabelId, RespondentId, SendoutId, SurveyId};
use crate::ports::{RepoResult, RetentionRepository};
use crate::survey::QuestionType;

impl State {
    /// Removes (or on a dry run only counts) the account's respondents `pick` selects, at most `limit` of them:
    /// their answer sets stay without them, their messages go.
    pub(super) fn remove_respondents_where(
        &mut self,
        account: AccountId,
        limit: i64,
        dry_run: bool,
        pick: impl Fn(&HeldRespondent) -> bool,
    ) -> u64 {
        let chosen: Vec<RespondentId> =
            self.respondents.iter().filter(|r| r.account_id == account && pick(r)).map(|r| r.row.id).collect();
        if dry_run {
            return chosen.len() as u64;
        }
        let gone: Vec<RespondentId> = chosen.into_iter().take(limit_of(limit)).collect();
        self.respondents.retain(|r| !(r.account_id == account && gone.contains(&r.row.id)));
        self.outbox.retain(|m| !(m.message.account_id == account && gone.contains(&m.message.respondent_id)));
        for held in self.answer_sets.iter_mut().filter(|h| h.account_id == account) {
            if held.set.respondent_id.is_some_and(|r| gone.contains(&r)) {
                held.set.respondent_id = None;
            }
        }
        gone.len() as u64
    }
}

impl RetentionRepository for Memory {
    fn record_retention_run(&mut self, run: &NewRetentionRun) -> RepoResult<i64> {
        self.state.retention_runs.push(run.clone());
        Ok(self.state.retention_runs.len() as i64)
    }

    fn retention_runs(&mut self, account: AccountId, limit: i64) -> RepoResult<Vec<RetentionRun>> {
        let runs = self.state.retention_runs.iter().enumerate().rev().take(usize::try_from(limit).unwrap_or(0));
        Ok(runs
            .map(|(index, run)| RetentionRun {
                id: index as i64 + 1,
                started_at: run.started_at,
                finished_at: run.finished_at,
                trigger: run.trigger,
                figures: run.figures.iter().find(|(owner, _)| *owner == account).map(|(_, f)| *f).unwrap_or_default(),
            })
            .collect())
    }

    fn lock_retention(&mut self, wait: bool) -> RepoResult<bool> {
        // Held by another run, it is not freed while this one waits: a wait would never end.
        let _ = wait;
        if self.hooks.retention_held_elsewhere {
            return Ok(false);
        }
        self.state.retention_locked = true;
        Ok(true)
    }

    fn unlock_retention(&mut self) -> RepoResult<()> {
        self.state.retention_locked = false;
        Ok(())
    }

    fn accounts_with_retention(&mut self) -> RepoResult<Vec<AccountId>> {
        let state = &self.state;
        let mut accounts: Vec<AccountId> = state.rules.iter().map(|(a, _)| *a).collect();
        accounts.extend(state.account_policies.iter().map(|(a, _)| *a));
        accounts.extend(state.survey_policies.iter().map(|(a, ..)| *a));
        accounts.sort_by_key(|a| a.get());
        accounts.dedup();
        Ok(accounts)
    }

    fn sendouts_of_account(&mut self, account: AccountId) -> RepoResult<Vec<(SurveyId, SendoutId)>> {
        let mut pairs: Vec<(SurveyId, SendoutId)> =
            self.state.sendouts.iter().filter(|(o, _)| *o == account).map(|(_, s)| (s.survey_id, s.id)).collect();
        pairs.sort_by_key(|(_, sendout)| *sendout);
        Ok(pairs)
    }

    fn remove_respondents(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        added_before: OffsetDateTime,
        limit: i64,
        dry_run: bool,
    ) -> RepoResult<u64> {
        let pick = |r: &HeldRespondent| r.row.sendout_id == sendout && r.row.added_at <= added_before;
        Ok(self.state.remove_respondents_where(account, limit, dry_run, pick))
    }

    fn surveys_for_policies(
        &mut self,
        account: AccountId,
    ) -> RepoResult<Vec<(SurveyId, OffsetDateTime, Option<SurveyPolicy>)>> {
        let state = &self.state;
        let policy = |survey: SurveyId| {
            let found = state.survey_policies.iter().find(|(o, s, _)| *o == account && *s == survey);
            found.map(|(.., policy)| policy.clone())
        };
        let mut surveys: Vec<_> = state
            .surveys
            .rows
            .iter()
            .filter(|(owner, _)| *owner == account)
            .map(|(_, survey)| (survey.id, survey.end_date, policy(survey.id)))
            .collect();
        surveys.sort_by_key(|(id, ..)| *id);
        Ok(surveys)
    }

    fn erase_respondents(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        kept_labels: &[LabelId],
        limit: i64,
        dry_run: bool,
    ) -> RepoResult<u64> {
        let state = &mut self.state;
        let candidates: Vec<RespondentId> = state
            .respondents
            .iter()
            .filter(|r| r.account_id == account && r.survey_id == survey)
            .filter(|r| {
                !r.row.contact_details.is_empty() || r.row.background_data.keys().any(|l| !kept_labels.contains(l))
            })
            .map(|r| r.row.id)
            .collect();
        if dry_run {
            return Ok(candidates.len() as u64);
        }
        let erased: Vec<RespondentId> = candidates.into_iter().take(limit_of(limit)).collect();
        for held in state.respondents.iter_mut().filter(|r| r.account_id == account && erased.contains(&r.row.id)) {
            held.row.contact_details.clear();
            held.row.token = format!("erased:{}", held.row.id.get());
            held.row.background_data.retain(|label, _| kept_labels.contains(label));
        }
        let pending = state.outbox.iter_mut().filter(|m| {
            m.message.account_id == account
                && erased.contains(&m.message.respondent_id)
                && m.status == MessageStatus::Pending
        });
        for message in pending {
            (message.status, message.last_error, message.message.lease_until) =
                (MessageStatus::Cancelled, Some("Erased".into()), None);
        }
        Ok(erased.len() as u64)
    }

    fn remove_open_text(&mut self, account: AccountId, survey: SurveyId, limit: i64, dry_run: bool) -> RepoResult<u64> {
        let state = &mut self.state;
        let Some(tree) = state.surveys.tree(account, survey) else { return Ok(0) };
        let open_text: Vec<_> = tree.items().filter(|i| i.kind == QuestionType::OpenText).map(|i| i.id).collect();
        let mut left = if dry_run { usize::MAX } else { limit_of(limit) };
        let mut count = 0;
        for held in state.answer_sets.iter_mut().filter(|h| h.account_id == account && h.set.survey_id == survey) {
            held.set.answers.retain(|answer| {
                let goes = left > 0 && open_text.contains(&answer.question_item_id);
                if goes {
                    left -= 1;
                    count += 1;
                }
                !goes || dry_run
            });
        }
        Ok(count)
    }

    fn remove_answer_sets(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        limit: i64,
        dry_run: bool,
    ) -> RepoResult<u64> {
        let state = &mut self.state;
        let ours = |h: &super::HeldAnswerSet| h.account_id == account && h.set.survey_id == survey;
        let chosen: Vec<_> = state.answer_sets.iter().filter(|h| ours(h)).map(|h| h.set.id).collect();
        if dry_run {
            return Ok(chosen.len() as u64);
        }
        let gone: Vec<_> = chosen.into_iter().take(limit_of(limit)).collect();
        state.answer_sets.retain(|h| !(h.account_id == account && gone.contains(&h.set.id)));
        Ok(gone.len() as u64)
    }

    fn remove_survey_respondents(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        limit: i64,
        dry_run: bool,
    ) -> RepoResult<u64> {
        Ok(self.state.remove_respondents_where(account, limit, dry_run, |r| r.survey_id == survey))
    }
}
