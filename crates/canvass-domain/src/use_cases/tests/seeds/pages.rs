//! Where the respondent page's tests start in the one in-memory store: one respondent's link to a four-page
//! survey of an active sendout, and what a test changes or reads of them.

use crate::answer::AnswerSet;
use crate::distribution::{Sendout, SendoutStatus};
use crate::ids::{AccountId, PageId, QuestionItemId, RespondentId, RuleId, SendoutId, SurveyId};
use crate::survey::{LogicRule, QuestionItem, QuestionTree, QuestionType};
use crate::testing::{Memory, MessageStatus};

/// The account of the one respondent.
pub const ACCOUNT: AccountId = AccountId::new(1);

/// The one survey.
pub const SURVEY: SurveyId = SurveyId::new(1);

/// The respondent's sendout.
pub const SENDOUT: SendoutId = SendoutId::new(3);

/// The one respondent.
pub const RESPONDENT: RespondentId = RespondentId::new(7);

/// The link token of the one respondent.
pub const TOKEN: &str = "1-00000000000000000000000000000000000000aa";

/// A link token of the old form (naming no account), as links sent before tokens named their account have.
pub const OLD_TOKEN: &str = "00000000000000000000000000000000000000bb";

/// Four pages with one required open-text item each (ids 10, 20, 30, 40); answering "skip" on page 1 goes to
/// page 4. The respondent, `ann@example.com`, has [`TOKEN`] in an active EMAIL sendout.
pub fn four_pages() -> Memory {
    let item = |page: i64| QuestionItem {
        id: QuestionItemId::new(page * 10),
        page_id: PageId::new(page),
        kind: QuestionType::OpenText,
        text: format!("Question {page}"),
        required: true,
        options: Vec::new(),
        min_label: None,
        max_label: None,
        settings: Default::default(),
    };
    let page = |id: i64| crate::survey::Page {
        id: PageId::new(id),
        title: String::new(),
        items: vec![item(id)],
        randomize_items: false,
    };
    let rule = LogicRule {
        id: RuleId::new(1),
        rule: crate::survey::LogicRuleDraft {
            question_item_id: QuestionItemId::new(10),
            equals: "skip".into(),
            go_to_page_id: PageId::new(4),
        }
        .into(),
        broken: false,
    };
    let mut memory = Memory::default();
    memory.seed_survey(ACCOUNT, SURVEY);
    memory.state.surveys.trees.push(QuestionTree::assemble(SURVEY, (1..=4).map(page).collect(), vec![rule]));
    memory.seed_sendout(ACCOUNT, SURVEY, SENDOUT, crate::distribution::DispatchType::Email);
    sendout(&mut memory).status = SendoutStatus::Active;
    memory.seed_respondent_as(ACCOUNT, SENDOUT, RESPONDENT, "ann@example.com");
    memory.respondent_row(RESPONDENT).token = TOKEN.into();
    memory
}

/// The respondent's sendout, to change.
pub fn sendout(memory: &mut Memory) -> &mut Sendout {
    let found = memory.state.sendouts.iter_mut().find(|(_, sendout)| sendout.id == SENDOUT);
    found.map(|(_, sendout)| sendout).unwrap_or_else(|| panic!("no sendout {SENDOUT}"))
}

/// The respondent's latest answer set and the page it left off on.
pub fn progress(memory: &Memory) -> Option<(AnswerSet, Option<PageId>)> {
    let mut theirs = memory.state.answer_sets.iter().filter(|held| held.set.respondent_id == Some(RESPONDENT));
    theirs.next_back().map(|held| (held.set.clone(), held.page))
}

/// The texts of the messages of its own text written to the respondent, in order.
pub fn messages(memory: &Memory) -> Vec<String> {
    let own = memory.state.outbox.iter().filter(|held| held.message.own_text && held.status == MessageStatus::Pending);
    own.map(|held| held.message.template.clone()).collect()
}
