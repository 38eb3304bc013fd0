//! A fake of the respondent page's ports: one respondent's link (and TWOWAY conversation), the survey's question
//! tree, the answer set with the page the respondent left off on, and the messages written to the respondent.

use time::OffsetDateTime;

use super::Snapshots;
use crate::answer::{AnswerFilter, AnswerSet, AnswerSetDraft, ReplacedAnswerSet};
use crate::chunks::{ChunkRequest, Weighed};
use crate::delivery::{ClaimedMessage, Settled};
use crate::distribution::{LinkRoute, TokenContext};
use crate::ids::{AccountId, AnswerSetId, PageId, QuestionItemId, RespondentId, RuleId, SendoutId, SurveyId};
use crate::paging::{Page, PageRequest};
use crate::ports::{
    AnswerRepository, OutboxBacklog, OutboxRepository, RecordedRound, RepoResult, RespondentPageRepository, SentLookup,
};
use crate::survey::{LogicRule, QuestionItem, QuestionTree, QuestionType};
use crate::testing::{staff_survey, HoldsSurveys, Surveys};

/// The fake's one survey.
pub const SURVEY: SurveyId = SurveyId::new(1);

/// The link token of the fake's one respondent (of the fake's account).
pub const TOKEN: &str = "1-00000000000000000000000000000000000000aa";

/// The same respondent's link token of the old form (naming no account), as links sent before tokens named
/// their account have.
pub const OLD_TOKEN: &str = "00000000000000000000000000000000000000bb";

/// What the fake holds; cloned for each transaction.
#[derive(Debug, Clone)]
pub struct State {
    pub context: TokenContext,
    pub surveys: Surveys,
    /// The respondent's answer set and the page it left off on.
    pub progress: Option<(AnswerSet, Option<PageId>)>,
    /// Whether the respondent's row was locked.
    pub locked: bool,
    /// The webhook events written.
    pub webhook_events: super::WebhookEvents,
    /// The number the respondent's TWOWAY conversation is sent from, if it has one.
    pub conversation_from: Option<String>,
    /// The messages written to the respondent, as (key, text).
    pub messages: Vec<(String, String)>,
    /// When the respondent was marked as opted out through its link.
    pub opted_out_at: Option<OffsetDateTime>,
}

/// The fake: its state and its transactions.
#[derive(Debug)]
pub struct Pages {
    pub state: State,
    pub transactions: Snapshots<State>,
}

/// Four pages with one required open-text item each (ids 10, 20, 30, 40); answering "skip" on page 1 goes to
/// page 4.
pub fn four_pages() -> Pages {
    let item = |page: i64| QuestionItem {
        id: QuestionItemId::new(page * 10),
        page_id: PageId::new(page),
        kind: QuestionType::OpenText,
        text: format!("Question {page}"),
        required: true,
        options: Vec::new(),
        min_label: None,
        max_label: None,
    };
    let page = |id: i64| crate::survey::Page { id: PageId::new(id), title: String::new(), items: vec![item(id)] };
    let rule = LogicRule {
        id: RuleId::new(1),
        question_item_id: QuestionItemId::new(10),
        equals: "skip".into(),
        go_to_page_id: PageId::new(4),
        broken: false,
    };
    let context = TokenContext {
        account_id: AccountId::new(1),
        respondent_id: RespondentId::new(7),
        sendout_id: SendoutId::new(3),
        survey_id: SURVEY,
        survey_name: "Staff".into(),
        thank_you_message: None,
        language: crate::language::Language::En,
        survey_active: true,
        sendout_active: true,
        expiry_date: None,
        contact_details: "ann@example.com".into(),
        contact_key: "ann@example.com".into(),
    };
    let state = State {
        surveys: Surveys {
            rows: vec![(context.account_id, staff_survey(SURVEY))],
            trees: vec![QuestionTree::assemble(SURVEY, (1..=4).map(page).collect(), vec![rule])],
        },
        context,
        progress: None,
        locked: false,
        webhook_events: Vec::new(),
        conversation_from: None,
        messages: Vec::new(),
        opted_out_at: None,
    };
    Pages { state, transactions: Snapshots::default() }
}

super::snapshot_transactions!(Pages);
super::record_webhook_events!(Pages);

impl HoldsSurveys for Pages {
    fn surveys(&mut self) -> &mut Surveys {
        &mut self.state.surveys
    }
}

fn stored(draft: &AnswerSetDraft, respondent: Option<(RespondentId, SendoutId)>, now: OffsetDateTime) -> AnswerSet {
    AnswerSet {
        id: AnswerSetId::new(99),
        survey_id: SURVEY,
        respondent_id: respondent.map(|(r, _)| r),
        sendout_id: respondent.map(|(_, s)| s),
        completed: draft.completed(),
        created_at: now,
        updated_at: now,
        answers: draft.answers().to_vec(),
    }
}
impl RespondentPageRepository for Pages {
    fn find_by_token(&mut self, route: LinkRoute, token: &str) -> RepoResult<Option<TokenContext>> {
        // A token is found within the account it names only; an old one within every account.
        let found = match route {
            LinkRoute::Account(account) => account == self.state.context.account_id && token == TOKEN,
            LinkRoute::AnyAccount => token == OLD_TOKEN,
        };
        Ok(found.then(|| self.state.context.clone()))
    }

    fn lock_respondent(&mut self, account: AccountId, respondent: RespondentId) -> RepoResult<()> {
        self.state.locked = account == self.state.context.account_id && respondent == self.state.context.respondent_id;
        Ok(())
    }

    fn progress(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        respondent: RespondentId,
    ) -> RepoResult<Option<(AnswerSet, Option<PageId>)>> {
        let context = &self.state.context;
        let ours = account == context.account_id && survey == SURVEY && respondent == context.respondent_id;
        Ok(self.state.progress.clone().filter(|_| ours))
    }

    fn mark_opted_out(&mut self, account: AccountId, respondent: RespondentId, now: OffsetDateTime) -> RepoResult<()> {
        let context = &self.state.context;
        if (account, respondent) == (context.account_id, context.respondent_id) {
            self.state.opted_out_at.get_or_insert(now);
        }
        Ok(())
    }

    fn save_progress(&mut self, account: AccountId, answer_set: AnswerSetId, page: Option<PageId>) -> RepoResult<()> {
        if let Some((_, left_on)) = self.state.progress.as_mut().filter(|(set, _)| set.id == answer_set) {
            let _ = account;
            *left_on = page;
        }
        Ok(())
    }

    fn find_login(&mut self, sendout: SendoutId, contact_key: &str) -> RepoResult<Option<(String, TokenContext)>> {
        let context = &self.state.context;
        let ours = sendout == context.sendout_id && contact_key == context.contact_key;
        Ok(ours.then(|| (TOKEN.to_owned(), context.clone())))
    }

    fn login_page(&mut self, sendout: SendoutId) -> RepoResult<Option<crate::distribution::LoginPage>> {
        let language = self.state.context.language;
        Ok((sendout == self.state.context.sendout_id)
            .then_some(crate::distribution::LoginPage { language, respondents: 1 }))
    }

    fn find_conversations(&mut self, contact_key: &str, to: &str) -> RepoResult<Vec<TokenContext>> {
        let context = &self.state.context;
        let ours = context.contact_key == contact_key && self.state.conversation_from.as_deref() == Some(to);
        Ok(if ours { vec![context.clone()] } else { Vec::new() })
    }
}

impl OutboxRepository for Pages {
    fn enqueue_message(
        &mut self,
        context: &TokenContext,
        key: &str,
        body: &str,
        now: OffsetDateTime,
    ) -> RepoResult<bool> {
        let _ = (context, now);
        if self.state.messages.iter().any(|(held, _)| held == key) {
            return Ok(false);
        }
        self.state.messages.push((key.to_owned(), body.to_owned()));
        Ok(true)
    }

    super::not_kept! {
        fn enqueue_due_reminders(&mut self, now: OffsetDateTime) -> RepoResult<u64>;
        fn claim_due(&mut self, now: OffsetDateTime, lease_until: OffsetDateTime, limit: i64) -> RepoResult<Vec<ClaimedMessage>>;
        fn record_round(&mut self, settled: &[Settled], now: OffsetDateTime) -> RepoResult<RecordedRound>;
        fn find_sent_by_token(&mut self, message_token: &str) -> RepoResult<SentLookup>;
        fn backlog(&mut self, now: OffsetDateTime) -> RepoResult<OutboxBacklog>;
    }
}

impl AnswerRepository for Pages {
    fn insert_answer_set(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        respondent: Option<(RespondentId, SendoutId)>,
        draft: &AnswerSetDraft,
        now: OffsetDateTime,
    ) -> RepoResult<AnswerSet> {
        let _ = (account, survey);
        let set = stored(draft, respondent, now);
        self.state.progress = Some((set.clone(), None));
        Ok(set)
    }

    fn replace_answers(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        id: AnswerSetId,
        draft: &AnswerSetDraft,
        now: OffsetDateTime,
    ) -> RepoResult<Option<ReplacedAnswerSet>> {
        let _ = (account, survey);
        let Some((set, _)) = self.state.progress.as_mut().filter(|(set, _)| set.id == id) else { return Ok(None) };
        let was_completed = set.completed;
        set.answers = draft.answers().to_vec();
        set.completed = draft.completed();
        set.updated_at = now;
        Ok(Some(ReplacedAnswerSet { set: set.clone(), was_completed }))
    }

    super::not_kept! {
        fn answer_sets_chunk(&mut self, account: AccountId, survey: SurveyId, filter: &AnswerFilter, request: &ChunkRequest<AnswerSetId>) -> RepoResult<Vec<AnswerSet>>;
        fn weigh_answer_sets(&mut self, account: AccountId, survey: SurveyId, filter: &AnswerFilter, request: &ChunkRequest<AnswerSetId>) -> RepoResult<Vec<Weighed<AnswerSetId>>>;
        fn weigh_answer_set_page(&mut self, account: AccountId, survey: SurveyId, filter: &AnswerFilter, page: PageRequest) -> RepoResult<Page<Weighed<AnswerSetId>>>;
        fn answer_sets_with_answers(&mut self, account: AccountId, survey: SurveyId, ids: &[AnswerSetId]) -> RepoResult<Vec<AnswerSet>>;
        fn page_answer_sets(&mut self, account: AccountId, survey: SurveyId, filter: &AnswerFilter, page: PageRequest) -> RepoResult<Page<AnswerSet>>;
        fn find_answer_set(&mut self, account: AccountId, survey: SurveyId, id: AnswerSetId) -> RepoResult<Option<AnswerSet>>;
        fn answer_sets_of_respondent(&mut self, account: AccountId, survey: SurveyId, respondent: RespondentId) -> RepoResult<Vec<AnswerSet>>;
        fn copy_answer_sets(&mut self, account: AccountId, from: SurveyId, to: SurveyId, items: &[(QuestionItemId, QuestionItemId)]) -> RepoResult<u64>;
    }
}
