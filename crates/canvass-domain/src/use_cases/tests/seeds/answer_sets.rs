//! Where the answer flows' tests start in the one in-memory store: survey 1 of the account with answer sets seeded
//! by id.

use crate::answer::AnswerSet;
use crate::ids::{AnswerSetId, SurveyId};
use crate::testing::{Memory, NOW};

use super::distribution::ACCOUNT;

impl Memory {
    /// A store holding survey 1 of the account and `count` answer sets of it with ids 1 to `count`, every other
    /// one completed, each created a minute after the one before.
    pub fn with_sets(count: i64) -> (Self, SurveyId) {
        let survey = SurveyId::new(1);
        let mut memory = Self::default();
        memory.seed_survey(ACCOUNT, survey);
        for id in 1..=count {
            let at = NOW + time::Duration::minutes(id);
            memory.seed_answer_set(
                ACCOUNT,
                AnswerSet {
                    id: AnswerSetId::new(id),
                    survey_id: survey,
                    respondent_id: None,
                    sendout_id: None,
                    completed: id % 2 == 0,
                    quota_full: false,
                    shown_order: Default::default(),
                    created_at: at,
                    updated_at: at,
                    language: None,
                    answers: Vec::new(),
                },
            );
        }
        (memory, survey)
    }
}
