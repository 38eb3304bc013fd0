//! The surveys a fake holds, and the one [`SurveyRepository`] every fake shares: a fake keeps a [`Surveys`] in its
//! state and says where ([`HoldsSurveys`]). Only reads are implemented; no flow under test writes surveys.

#![allow(clippy::unimplemented)]

use time::OffsetDateTime;

use crate::ids::{AccountId, QuestionItemId, SurveyId};
use crate::ports::{RepoResult, SurveyRepository};
use crate::survey::{LogicRules, QuestionTree, Survey, SurveyDraft};
use crate::RepoError;

/// One account's surveys and their question trees.
#[derive(Debug, Clone)]
pub struct Surveys {
    /// The account they belong to; another account's reads find nothing.
    pub owner: AccountId,
    /// The survey records.
    pub rows: Vec<Survey>,
    /// The question trees, by their `survey_id`.
    pub trees: Vec<QuestionTree>,
}

impl Default for Surveys {
    fn default() -> Self {
        Self { owner: AccountId::new(1), rows: Vec::new(), trees: Vec::new() }
    }
}

/// A fake whose state holds [`Surveys`].
pub trait HoldsSurveys {
    /// Where they are.
    fn surveys(&mut self) -> &mut Surveys;
}

impl<T: HoldsSurveys> SurveyRepository for T {
    fn list_surveys(&mut self, account: AccountId) -> RepoResult<Vec<Survey>> {
        let held = self.surveys();
        Ok(if account == held.owner { held.rows.clone() } else { Vec::new() })
    }

    fn find_survey(&mut self, account: AccountId, id: SurveyId) -> RepoResult<Option<Survey>> {
        let held = self.surveys();
        Ok(held.rows.iter().find(|s| account == held.owner && s.id == id).cloned())
    }

    fn find_survey_tree(&mut self, account: AccountId, id: SurveyId) -> RepoResult<Option<(Survey, QuestionTree)>> {
        let held = self.surveys();
        let Some(survey) = held.rows.iter().find(|s| account == held.owner && s.id == id).cloned() else {
            return Ok(None);
        };
        let tree = held.trees.iter().find(|t| t.survey_id == id).cloned();
        Ok(Some((survey, tree.unwrap_or_else(|| QuestionTree::assemble(id, Vec::new(), Vec::new())))))
    }

    fn question_tree(&mut self, account: AccountId, survey: SurveyId) -> RepoResult<QuestionTree> {
        let held = self.surveys();
        let tree = held.trees.iter().find(|t| account == held.owner && t.survey_id == survey);
        tree.cloned().ok_or_else(|| RepoError::Other(format!("the fake holds no tree of survey {survey}")))
    }

    fn insert_survey(
        &mut self,
        _: AccountId,
        _: &SurveyDraft,
        _: OffsetDateTime,
    ) -> RepoResult<(Survey, QuestionTree)> {
        unimplemented!("no flow under test creates surveys")
    }

    fn replace_logic(&mut self, _: AccountId, _: SurveyId, _: &LogicRules) -> RepoResult<()> {
        unimplemented!("no flow under test changes logic")
    }

    fn delete_question_item(&mut self, _: AccountId, _: SurveyId, _: QuestionItemId) -> RepoResult<bool> {
        unimplemented!("no flow under test deletes items")
    }

    fn touch_survey(&mut self, _: AccountId, _: SurveyId, _: OffsetDateTime) -> RepoResult<()> {
        unimplemented!("no flow under test touches surveys")
    }
}
