//! A sendout's statistics and a survey's result tallies, computed over what the store holds as the adapter's SQL
//! computes them.

use strum::VariantArray;
use time::{Date, OffsetDateTime};

use super::answers::passes;
use super::Memory;
use crate::answer::{AnswerFilter, AnswerSet, AnswerValue};
use crate::distribution::RespondentStatus;
use crate::ids::{AccountId, LabelId, QuestionItemId, SendoutId, SurveyId};
use crate::insight::{BinLayout, QuotedTexts, SendoutFigures, SendoutFunnel, StatusCounts};
use crate::insight::{Breakdown, ResultTallies, TallyGroup, WordTally};
use crate::insight::{
    CellCount, ChoiceCount, DailyActivity, DateTally, ItemTally, NumericSummary, RankTally, RatingCount,
};
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

fn summary(mut numbers: Vec<f64>) -> NumericSummary {
    if numbers.is_empty() {
        return NumericSummary::default();
    }
    numbers.sort_by(f64::total_cmp);
    NumericSummary {
        count: numbers.len() as i64,
        mean: Some(numbers.iter().sum::<f64>() / numbers.len() as f64),
        median: median(&numbers),
        min: numbers.first().copied(),
        max: numbers.last().copied(),
    }
}

/// The tallies of the tree's items over these sets, as the adapter's statements compute them.
fn tally(tree: &QuestionTree, sets: &[AnswerSet]) -> ResultTallies {
    let mut tallies = ResultTallies { answer_sets: sets.len() as i64, ..ResultTallies::default() };
    for item in tree.items() {
        let answers: Vec<&AnswerValue> = sets
            .iter()
            .flat_map(|set| set.answers.iter())
            .filter(|answer| answer.question_item_id == item.id)
            .map(|answer| &answer.value)
            .collect();
        if answers.is_empty() {
            continue;
        }
        let numbers: Vec<f64> = answers
            .iter()
            .filter_map(|value| if let AnswerValue::Number(n) = value { Some(*n) } else { None })
            .collect();
        let numeric =
            if item.kind == QuestionType::Numeric { summary(numbers.clone()) } else { NumericSummary::default() };
        tallies.items.push(ItemTally { item: item.id, answered: answers.len() as i64, numbers: numeric });
        match item.kind {
            QuestionType::Date => {
                let mut dates: Vec<&String> = answers
                    .iter()
                    .filter_map(|value| if let AnswerValue::Text(text) = value { Some(text) } else { None })
                    .filter(|text| !text.is_empty())
                    .collect();
                dates.sort();
                if let (Some(earliest), Some(latest)) = (dates.first(), dates.last()) {
                    let (earliest, latest) = ((*earliest).clone(), (*latest).clone());
                    tallies.dates.push(DateTally { item: item.id, count: dates.len() as i64, earliest, latest });
                }
            }
            QuestionType::Matrix => {
                for value in &answers {
                    let AnswerValue::Rows(rows) = value else { continue };
                    for (row, option) in rows {
                        let cell = CellCount { item: item.id, row: row.clone(), value: option.clone(), count: 1 };
                        tallies.cells.push(cell);
                    }
                }
            }
            QuestionType::Ranking => {
                for option in &item.options {
                    let places: Vec<usize> = answers
                        .iter()
                        .filter_map(|value| match value {
                            AnswerValue::Choices(order) => order.iter().position(|v| *v == option.value),
                            _ => None,
                        })
                        .collect();
                    tallies.ranks.push(RankTally {
                        item: item.id,
                        value: option.value.clone(),
                        count: places.len() as i64,
                        places: places.iter().map(|place| (place + 1) as f64).sum(),
                        first_places: places.iter().filter(|place| **place == 0).count() as i64,
                    });
                }
            }
            QuestionType::SingleChoice | QuestionType::MultipleChoice | QuestionType::Dropdown => {
                for option in &item.options {
                    let chose = |value: &&&AnswerValue| match value {
                        AnswerValue::Text(text) => *text == option.value,
                        AnswerValue::Choices(choices) => choices.contains(&option.value),
                        AnswerValue::Number(_) | AnswerValue::Rows(_) => false,
                    };
                    let count = answers.iter().filter(chose).count() as i64;
                    tallies.choices.push(ChoiceCount { item: item.id, value: option.value.clone(), count });
                }
            }
            QuestionType::Rating => {
                for rating in QuestionType::RATING_MIN..=QuestionType::RATING_MAX {
                    let count = numbers.iter().filter(|n| **n == rating as f64).count() as i64;
                    if count > 0 {
                        tallies.ratings.push(RatingCount { item: item.id, rating, count });
                    }
                }
            }
            _ => {}
        }
    }
    tallies
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

    fn word_tallies(
        &mut self,
        account: AccountId,
        tree: &QuestionTree,
        filter: &AnswerFilter,
        breakdown: Option<Breakdown>,
        stop_words: &[String],
    ) -> RepoResult<Vec<(TallyGroup, WordTally)>> {
        let open_text: Vec<_> = tree.items().filter(|item| item.kind == QuestionType::OpenText).map(|i| i.id).collect();
        let mut tallies = Vec::new();
        for (group, sets) in self.grouped(account, tree, filter, breakdown) {
            let mut counts: std::collections::BTreeMap<(crate::ids::QuestionItemId, String), i64> = Default::default();
            for answer in sets.iter().flat_map(|set| set.answers.iter()) {
                let AnswerValue::Text(text) = &answer.value else { continue };
                if !open_text.contains(&answer.question_item_id) {
                    continue;
                }
                for word in crate::insight::words_of(text) {
                    if stop_words.binary_search(&word).is_err() {
                        *counts.entry((answer.question_item_id, word)).or_default() += 1;
                    }
                }
            }
            let words = counts.into_iter().map(|((item, word), count)| WordTally { item, word, count });
            tallies.extend(words.map(|word| (group.clone(), word)));
        }
        Ok(tallies)
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

    fn numeric_bins(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        filter: &AnswerFilter,
        layouts: &[BinLayout],
    ) -> RepoResult<Vec<(QuestionItemId, u32, i64)>> {
        let sets = self.state.sets_of(account, survey, |set| passes(set, filter));
        let mut counts: std::collections::BTreeMap<(QuestionItemId, u32), i64> = Default::default();
        for answer in sets.iter().flat_map(|set| set.answers.iter()) {
            let AnswerValue::Number(number) = answer.value else { continue };
            if let Some(layout) = layouts.iter().find(|layout| layout.item == answer.question_item_id) {
                *counts.entry((layout.item, layout.bin_of(number))).or_default() += 1;
            }
        }
        Ok(counts.into_iter().map(|((item, bin), count)| (item, bin, count)).collect())
    }

    fn quoted_texts(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        filter: &AnswerFilter,
        items: &[QuestionItemId],
        per_item: u32,
    ) -> RepoResult<Vec<QuotedTexts>> {
        let mut sets = self.state.sets_of(account, survey, |set| passes(set, filter));
        sets.reverse();
        let quoted = items.iter().map(|item| {
            let texts = sets
                .iter()
                .flat_map(|set| set.answers.iter().filter(|answer| answer.question_item_id == *item))
                .filter_map(|answer| match &answer.value {
                    AnswerValue::Text(text) if !text.is_empty() => Some(text.clone()),
                    _ => None,
                })
                .take(per_item as usize)
                .collect();
            QuotedTexts { item: *item, texts }
        });
        Ok(quoted.filter(|quoted| !quoted.texts.is_empty()).collect())
    }
}
