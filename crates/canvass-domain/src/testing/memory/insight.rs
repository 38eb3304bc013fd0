//! A sendout's statistics and a survey's result tallies, computed over what the store holds as the adapter's SQL
//! computes them.

use strum::VariantArray;
use time::{Date, OffsetDateTime};

use super::answers::passes;
use super::Memory;
use crate::answer::{AnswerFilter, AnswerSet, AnswerValue};
use crate::distribution::RespondentStatus;
use crate::ids::{AccountId, LabelId, QuestionItemId, SendoutId, SurveyId};
use crate::insight::ports::OpenTextVisit;
use crate::insight::{Breakdown, ResultTallies, TallyGroup, ValueTallies};
use crate::insight::{DailyActivity, SendoutFigures, SendoutFunnel, StatusCounts};
use crate::ports::{InsightRepository, RepoResult};
use crate::survey::{QuestionTree, QuestionType};

/// The median of sorted numbers.
fn median(sorted: &[f64]) -> Option<f64> {
    let middle = sorted.len() / 2;
    match sorted.len() {
        0 => None,
        n if n % 2 == 1 => Some(sorted[middle]),
        _ => Some((sorted[middle - 1] + sorted[middle]) / 2.0),
    }
}

/// The tallies of the tree's items but its OpenText ones over these sets: each answer's value counted as the
/// adapter's statement counts them, read by [`ValueTallies`].
fn tally(tree: &QuestionTree, sets: &[AnswerSet]) -> ResultTallies {
    let mut tallies = ValueTallies::new(tree);
    let open_text: Vec<QuestionItemId> =
        tree.items().filter(|item| item.kind == QuestionType::OpenText).map(|item| item.id).collect();
    for answer in sets.iter().flat_map(|set| set.answers.iter()) {
        if !open_text.contains(&answer.question_item_id) {
            tallies.add(answer.question_item_id, Some(&answer.value.to_json()), 1);
        }
    }
    tallies.finish(sets.len() as i64)
}

impl Memory {
    /// The sets that pass the filter, all together and, with a breakdown, by their key (as the store reads it).
    fn grouped(
        &self,
        account: AccountId,
        tree: &QuestionTree,
        filter: &AnswerFilter,
        breakdown: Option<Breakdown>,
    ) -> Vec<(TallyGroup, Vec<AnswerSet>)> {
        let sets = self.state.sets_of(account, tree.survey_id, |set| passes(set, filter));
        if sets.is_empty() {
            return Vec::new();
        }
        let mut groups: Vec<(TallyGroup, Vec<AnswerSet>)> = Vec::new();
        if let Some(breakdown) = breakdown {
            for set in &sets {
                let group = TallyGroup::Key(self.key_of(account, set, breakdown));
                match groups.iter_mut().find(|(found, _)| *found == group) {
                    Some((_, members)) => members.push(set.clone()),
                    None => groups.push((group, vec![set.clone()])),
                }
            }
        }
        groups.push((TallyGroup::Whole, sets));
        groups
    }

    /// A set's key in a breakdown: a number as its shortest digits.
    fn key_of(&self, account: AccountId, set: &AnswerSet, breakdown: Breakdown) -> Option<String> {
        match breakdown {
            Breakdown::Language => set.language.map(|language| language.code().to_owned()),
            Breakdown::Sendout => set.sendout_id.map(|sendout| sendout.get().to_string()),
            Breakdown::Item(item) => match &set.answers.iter().find(|answer| answer.question_item_id == item)?.value {
                AnswerValue::Text(text) => Some(text.clone()),
                AnswerValue::Number(number) => Some(number.to_string()),
                AnswerValue::Choices(_) | AnswerValue::Rows(_) => None,
            },
            Breakdown::Label(label) => {
                let respondent = set.respondent_id?;
                let held = self.state.respondents.iter().find(|r| r.account_id == account && r.row.id == respondent)?;
                held.row.background_data.get(&label).cloned()
            }
        }
    }
}

impl InsightRepository for Memory {
    fn sendout_figures(&mut self, account: AccountId, sendout: SendoutId, today: Date) -> RepoResult<SendoutFigures> {
        let state = &self.state;
        let Some(row) = state.own_sendout(account, sendout) else { return Ok(SendoutFigures::default()) };
        let respondents: Vec<_> =
            state.respondents.iter().filter(|r| r.account_id == account && r.row.sendout_id == sendout).collect();
        let mut by_status = Vec::new();
        for status in RespondentStatus::VARIANTS {
            by_status.push((*status, respondents.iter().filter(|r| r.row.status == *status).count() as i64));
        }
        let sets_of = |respondent| -> Vec<&AnswerSet> {
            let theirs = state.answer_sets.iter().filter(|h| h.account_id == account);
            theirs.map(|h| &h.set).filter(|set| set.respondent_id == Some(respondent)).collect()
        };
        let reached: Vec<_> = respondents
            .iter()
            .filter(|r| matches!(r.row.status, RespondentStatus::Sent | RespondentStatus::Released))
            .collect();
        let mut figures = SendoutFigures {
            by_status: StatusCounts::of(by_status),
            opted_out: respondents.iter().filter(|r| r.opted_out_at.is_some()).count() as i64,
            reached: reached.len() as i64,
            ..SendoutFigures::default()
        };
        let mut seconds = Vec::new();
        let mut firsts: Vec<(Option<OffsetDateTime>, Option<OffsetDateTime>)> = Vec::new();
        for held in &reached {
            let sets = sets_of(held.row.id);
            let started = sets.iter().map(|set| set.created_at).min();
            let completed = sets.iter().filter(|set| set.completed).map(|set| set.updated_at).min();
            figures.started += i64::from(started.is_some());
            figures.completed += i64::from(completed.is_some());
            if let Some(done) = completed {
                let from = held.row.sent_at.unwrap_or(held.row.added_at);
                seconds.push((done - from).as_seconds_f64());
            }
            firsts.push((started, completed));
        }
        seconds.sort_by(f64::total_cmp);
        figures.median_seconds_to_complete = median(&seconds);
        let released = respondents.iter().filter_map(|r| r.released_at).min();
        let first = [row.activated_at, released].into_iter().flatten().min();
        if let Some(mut day) = first.map(|at| at.to_offset(time::UtcOffset::UTC).date()) {
            let on = |at: Option<OffsetDateTime>, day: Date| {
                at.is_some_and(|at| at.to_offset(time::UtcOffset::UTC).date() == day)
            };
            while day <= today {
                figures.daily.push(DailyActivity {
                    date: day,
                    sent: respondents.iter().filter(|r| on(r.row.sent_at, day)).count() as i64,
                    started: firsts.iter().filter(|(started, _)| on(*started, day)).count() as i64,
                    completed: firsts.iter().filter(|(_, completed)| on(*completed, day)).count() as i64,
                });
                let Some(next) = day.next_day() else { break };
                day = next;
            }
        }
        Ok(figures)
    }

    fn result_tallies(
        &mut self,
        account: AccountId,
        tree: &QuestionTree,
        filter: &AnswerFilter,
        breakdown: Option<Breakdown>,
    ) -> RepoResult<Vec<(TallyGroup, ResultTallies)>> {
        let groups = self.grouped(account, tree, filter, breakdown);
        Ok(groups.into_iter().map(|(group, sets)| (group, tally(tree, &sets))).collect())
    }

    fn survey_has_label(&mut self, account: AccountId, survey: SurveyId, label: LabelId) -> RepoResult<bool> {
        let state = &self.state;
        Ok(state.labels.iter().any(|(owner, found)| {
            *owner == account
                && found.id == label
                && state
                    .sendouts
                    .iter()
                    .any(|(o, sendout)| *o == account && sendout.id == found.sendout_id && sendout.survey_id == survey)
        }))
    }

    fn open_texts(
        &mut self,
        account: AccountId,
        tree: &QuestionTree,
        filter: &AnswerFilter,
        breakdown: Option<Breakdown>,
        visit: &mut OpenTextVisit<'_>,
    ) -> RepoResult<()> {
        let open_text: Vec<_> = tree.items().filter(|item| item.kind == QuestionType::OpenText).map(|i| i.id).collect();
        for (group, sets) in self.grouped(account, tree, filter, breakdown) {
            for set in &sets {
                for answer in set.answers.iter().filter(|answer| open_text.contains(&answer.question_item_id)) {
                    let text = if let AnswerValue::Text(text) = &answer.value { Some(text.as_str()) } else { None };
                    visit(&group, answer.question_item_id, set.id, text);
                }
            }
        }
        Ok(())
    }

    fn sendout_funnels(&mut self, account: AccountId, survey: SurveyId) -> RepoResult<Vec<SendoutFunnel>> {
        let state = &self.state;
        let mut sendouts: Vec<_> =
            state.sendouts.iter().filter(|(owner, s)| *owner == account && s.survey_id == survey).collect();
        sendouts.sort_by_key(|(_, sendout)| sendout.id);
        let funnel = |sendout: &crate::distribution::Sendout| {
            let respondents: Vec<_> = state
                .respondents
                .iter()
                .filter(|r| r.account_id == account && r.row.sendout_id == sendout.id)
                .collect();
            let reached: Vec<_> = respondents
                .iter()
                .filter(|r| matches!(r.row.status, RespondentStatus::Sent | RespondentStatus::Released))
                .collect();
            let sets_of = |respondent| {
                let sets = state.answer_sets.iter().filter(|h| h.account_id == account);
                sets.filter(move |h| h.set.respondent_id == Some(respondent) && h.set.sendout_id == Some(sendout.id))
            };
            SendoutFunnel {
                sendout: sendout.id,
                name: sendout.name.clone(),
                respondents: respondents.len() as i64,
                reached: reached.len() as i64,
                started: reached.iter().filter(|r| sets_of(r.row.id).next().is_some()).count() as i64,
                completed: reached.iter().filter(|r| sets_of(r.row.id).any(|h| h.set.completed)).count() as i64,
            }
        };
        Ok(sendouts.into_iter().map(|(_, sendout)| funnel(sendout)).collect())
    }
}
