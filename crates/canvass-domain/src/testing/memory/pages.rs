//! The respondent page: the respondent behind a link token, a LOGIN identifier or a TWOWAY number, and where it is
//! in its survey.

use time::OffsetDateTime;

use super::{HeldRespondent, Memory, State};
use crate::answer::AnswerSet;
use crate::distribution::{
    contact_key, DispatchType, LinkRoute, LoginPage, OpenLinkTarget, Respondent, RespondentStatus, SendoutStatus,
    TokenContext,
};
use crate::ids::{AccountId, AnswerSetId, PageId, RespondentId, SendoutId, SurveyId};
use crate::ports::{RepoResult, RespondentPageRepository};

impl State {
    /// What the respondent page knows of a respondent: its sendout and survey, and its contact.
    pub(super) fn context(&self, held: &HeldRespondent) -> Option<TokenContext> {
        let account = held.account_id;
        let sendout = self.own_sendout(account, held.row.sendout_id)?;
        let survey = self.surveys.find(account, sendout.survey_id)?;
        Some(TokenContext {
            account_id: account,
            respondent_id: held.row.id,
            sendout_id: sendout.id,
            survey_id: survey.id,
            survey_name: survey.name.clone(),
            thank_you_message: survey.thank_you_message.clone(),
            tree_version: survey.tree_version,
            language: sendout.language,
            survey_language: survey.language,
            respondent_language: held.row.language,
            survey_active: survey.active,
            sendout_active: sendout.status == SendoutStatus::Active,
            expiry_date: sendout.expiry_date,
            contact_details: held.row.contact_details.clone(),
            contact_key: contact_key(&held.row.contact_details),
        })
    }

    /// The LOGIN sendout with this id, of any account, and its account.
    fn login_sendout(&self, sendout: SendoutId) -> Option<(AccountId, &crate::distribution::Sendout)> {
        self.any_sendout(sendout).filter(|(_, s)| s.kind == DispatchType::Login)
    }
}

impl RespondentPageRepository for Memory {
    fn find_by_token(&mut self, route: LinkRoute, token: &str) -> RepoResult<Option<TokenContext>> {
        let found = self.state.respondents.iter().find(|held| {
            held.row.token == token
                && match route {
                    LinkRoute::Account(account) => held.account_id == account,
                    LinkRoute::AnyAccount => true,
                }
        });
        Ok(found.and_then(|held| self.state.context(held)))
    }

    fn find_login(&mut self, sendout: SendoutId, key: &str) -> RepoResult<Option<(String, TokenContext)>> {
        let Some((account, _)) = self.state.login_sendout(sendout) else { return Ok(None) };
        let found = self.state.respondents.iter().find(|held| {
            held.account_id == account
                && held.row.sendout_id == sendout
                && contact_key(&held.row.contact_details) == key
        });
        Ok(found.and_then(|held| Some((held.row.token.clone(), self.state.context(held)?))))
    }

    fn login_page(&mut self, sendout: SendoutId) -> RepoResult<Option<LoginPage>> {
        let Some((account, row)) = self.state.login_sendout(sendout) else { return Ok(None) };
        let language = row.language;
        let held = self.state.respondents.iter().filter(|r| r.account_id == account && r.row.sendout_id == sendout);
        Ok(Some(LoginPage { language, respondents: held.count() as u64 }))
    }

    fn find_conversations(&mut self, key: &str, to: &str) -> RepoResult<Vec<TokenContext>> {
        let state = &self.state;
        let Some(account) = state.senders.iter().find(|(_, s)| s.number == to).map(|(owner, _)| *owner) else {
            return Ok(Vec::new());
        };
        let from_number = |sendout: SendoutId| {
            state
                .own_sendout(account, sendout)
                .is_some_and(|s| s.kind == DispatchType::TwoWay && s.sender.as_deref() == Some(to))
        };
        let mut found: Vec<&HeldRespondent> = state
            .respondents
            .iter()
            .filter(|r| r.account_id == account && from_number(r.row.sendout_id))
            .filter(|r| contact_key(&r.row.contact_details) == key)
            .collect();
        // The one last sent a message first.
        let last_sent = |r: &HeldRespondent| {
            let sent =
                state.outbox.iter().filter(|m| m.message.account_id == account && m.message.respondent_id == r.row.id);
            sent.filter_map(|m| m.sent_at).max()
        };
        found.sort_by_key(|r| std::cmp::Reverse(last_sent(r)));
        Ok(found.into_iter().filter_map(|held| state.context(held)).collect())
    }

    fn lock_respondent(&mut self, account: AccountId, respondent: RespondentId) -> RepoResult<()> {
        if self.state.respondent(account, respondent).is_some() {
            self.hooks.locked.push(respondent);
        }
        Ok(())
    }

    fn progress(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        respondent: RespondentId,
    ) -> RepoResult<Option<(AnswerSet, Option<PageId>)>> {
        let latest = self
            .state
            .answer_sets
            .iter()
            .filter(|held| {
                held.account_id == account && held.set.survey_id == survey && held.set.respondent_id == Some(respondent)
            })
            .max_by_key(|held| (held.set.created_at, held.set.id));
        Ok(latest.map(|held| (held.set.clone(), held.page)))
    }

    fn mark_opted_out(&mut self, account: AccountId, respondent: RespondentId, now: OffsetDateTime) -> RepoResult<()> {
        let Some(held) = self.state.respondent_mut(account, respondent) else { return Ok(()) };
        if held.opted_out_at.is_none() {
            held.opted_out_at = Some(now);
            let sendout = held.row.sendout_id;
            let opted_out = crate::distribution::EventKind::OptedOut;
            self.state.record_event(account, (sendout, respondent), now, opted_out, None);
        }
        Ok(())
    }

    fn set_respondent_language(
        &mut self,
        account: AccountId,
        respondent: RespondentId,
        language: crate::language::Language,
    ) -> RepoResult<()> {
        if let Some(held) = self.state.respondent_mut(account, respondent) {
            held.row.language = Some(language);
        }
        Ok(())
    }

    fn save_progress(&mut self, account: AccountId, answer_set: AnswerSetId, page: Option<PageId>) -> RepoResult<()> {
        let found = self.state.answer_sets.iter_mut().find(|h| h.account_id == account && h.set.id == answer_set);
        if let Some(held) = found {
            held.page = page;
        }
        Ok(())
    }

    fn find_open_link(&mut self, account: AccountId, handle: &str) -> RepoResult<Option<OpenLinkTarget>> {
        let state = &self.state;
        let found = state.sendouts.iter().find(|(owner, sendout)| {
            *owner == account && sendout.open_link.as_ref().is_some_and(|link| link.handle == handle)
        });
        let Some((_, sendout)) = found else { return Ok(None) };
        let Some(link) = sendout.open_link.as_ref() else { return Ok(None) };
        let Some(survey) = state.surveys.find(account, sendout.survey_id) else { return Ok(None) };
        let completed = state
            .answer_sets
            .iter()
            .filter(|held| held.account_id == account && held.set.sendout_id == Some(sendout.id) && held.set.completed)
            .count();
        Ok(Some(OpenLinkTarget {
            account_id: account,
            survey_id: survey.id,
            sendout_id: sendout.id,
            survey_name: survey.name.clone(),
            survey_description: survey.description.clone(),
            language: sendout.language,
            survey_language: survey.language,
            survey_active: survey.active,
            sendout_active: sendout.status == SendoutStatus::Active,
            expiry_date: sendout.expiry_date,
            max_responses: link.max_responses,
            one_response_per_browser: link.one_response_per_browser,
            completed: if link.max_responses.is_some() { completed as i64 } else { 0 },
            closed_by_quota: crate::survey::closes(
                &state
                    .quotas
                    .iter()
                    .filter(|(owner, q)| *owner == account && q.survey_id == survey.id)
                    .map(|(_, q)| q.clone())
                    .collect::<Vec<_>>(),
            ),
        }))
    }

    fn insert_visitor(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        token: &str,
        background: &crate::distribution::BackgroundData,
        now: OffsetDateTime,
    ) -> RepoResult<RespondentId> {
        let Some(survey) = self.state.own_sendout(account, sendout).map(|s| s.survey_id) else {
            return Err(crate::RepoError::Concurrent("respondents_sendout_fkey".into()));
        };
        let id = RespondentId::new(self.state.next_id());
        let row = Respondent {
            id,
            sendout_id: sendout,
            contact_details: String::new(),
            visitor: true,
            send_mail: false,
            background_data: background.clone(),
            status: RespondentStatus::Released,
            token: token.to_owned(),
            added_at: now,
            sent_at: None,
            delivery: Default::default(),
            language: None,
            contact_id: None,
        };
        let held =
            HeldRespondent { account_id: account, survey_id: survey, row, released_at: Some(now), opted_out_at: None };
        self.state.respondents.push(held);
        Ok(id)
    }
}
