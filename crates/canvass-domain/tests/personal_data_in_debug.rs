//! Every type that holds contact details, background data or answers, formatted with `{:?}` and `{:#?}`, shows
//! none of them: a planted address, number and text never appear.

#![expect(clippy::expect_used)]

use std::collections::{BTreeMap, HashSet};

use canvass_domain::account::{NewAccount, NewUser, Role, User};
use canvass_domain::answer::{Answer, AnswerSet, AnswerValue};
use canvass_domain::delivery::dsn::{RecipientStatus, StatusReport};
use canvass_domain::delivery::{ClaimedMessage, OutgoingMessage};
use canvass_domain::distribution::{
    BlocklistEntry, BlocklistKey, BlocklistType, DispatchType, InvitationDelivery, NewPermanentFailure, NewRespondent,
    PermanentFailure, Respondent, RespondentInput, RespondentStatus, TokenContext,
};
use canvass_domain::ids::{AnswerSetId, LabelId, PageId, QuestionItemId, RespondentId, SendoutId, SurveyId, UserId};
use canvass_domain::language::Language;
use canvass_domain::ports::SentLookup;
use canvass_domain::survey::Page;
use canvass_domain::use_cases::answers::AnswerSetInput;
use canvass_domain::use_cases::bgdata::Row;
use canvass_domain::use_cases::respondent_page::{PageState, PageView, QuestionPage};
use canvass_domain::use_cases::respondents::{BatchOutcome, RejectReason, Rejection};
use canvass_domain::use_cases::twoway::Reply;
use canvass_domain::AccountId;
use time::macros::datetime;
use time::Duration;

const ADDRESS: &str = "planted.person@leak.example";
const NUMBER: &str = "+4799912345";
const TEXT: &str = "planted open text";
const LABEL_VALUE: &str = "planted background value";
const TOKEN: &str = "plantedlinktoken";

fn background() -> BTreeMap<LabelId, String> {
    BTreeMap::from([(LabelId::new(1), LABEL_VALUE.to_owned())])
}

fn answers() -> Vec<Answer> {
    vec![
        Answer { question_item_id: QuestionItemId::new(1), value: AnswerValue::Text(TEXT.into()) },
        Answer { question_item_id: QuestionItemId::new(2), value: AnswerValue::Choices(vec![TEXT.into()]) },
    ]
}

fn respondent() -> Respondent {
    Respondent {
        id: RespondentId::new(1),
        sendout_id: SendoutId::new(1),
        contact_details: ADDRESS.into(),
        visitor: false,
        send_mail: true,
        background_data: background(),
        status: RespondentStatus::Sent,
        token: TOKEN.into(),
        added_at: datetime!(2000-01-01 0:00 UTC),
        sent_at: None,
        delivery: delivery(),
        language: None,
        contact_id: None,
    }
}

fn delivery() -> InvitationDelivery {
    InvitationDelivery {
        attempts: 1,
        last_error: Some(format!("550 5.1.1 <{ADDRESS}>: no such user")),
        next_attempt_at: None,
    }
}

fn input() -> RespondentInput {
    RespondentInput { contact_details: ADDRESS.into(), send_mail: true, background_data: background(), language: None }
}

fn claimed() -> ClaimedMessage {
    ClaimedMessage {
        account_id: AccountId::new(1),
        id: 1,
        respondent_id: RespondentId::new(1),
        sendout_id: SendoutId::new(1),
        survey_id: SurveyId::new(1),
        is_reminder: false,
        own_text: true,
        idempotency_key: "k".into(),
        message_token: "m".into(),
        attempts: 1,
        holds: 0,
        aged: Duration::ZERO,
        sendout_held: false,
        lease_until: None,
        channel: DispatchType::Email,
        recipient: ADDRESS.into(),
        token: TOKEN.into(),
        sender: "hr@acme.example".into(),
        subject: None,
        template: TEXT.into(),
        expiry_date: None,
        language: canvass_domain::language::Language::En,
        blocklisted: false,
        personal: Default::default(),
    }
}

fn token_context() -> TokenContext {
    TokenContext {
        account_id: AccountId::new(1),
        respondent_id: RespondentId::new(1),
        sendout_id: SendoutId::new(1),
        survey_id: SurveyId::new(1),
        survey_name: "Pulse".into(),
        thank_you_message: None,
        tree_version: 1,
        language: Language::En,
        survey_language: Language::En,
        respondent_language: None,
        survey_active: true,
        sendout_active: true,
        expiry_date: None,
        contact_details: ADDRESS.into(),
        contact_key: ADDRESS.into(),
    }
}

/// Each value formatted both ways, by the name of its type.
fn shown() -> Vec<(&'static str, String)> {
    let at = datetime!(2000-01-01 0:00 UTC);
    let mut shown = Vec::new();
    macro_rules! show {
        ($($value:expr),* $(,)?) => {$(
            let value = $value;
            shown.push((stringify!($value), format!("{value:?} {value:#?}")));
        )*};
    }
    let page = QuestionPage {
        page: Page { id: PageId::new(1), title: "One".into(), items: Vec::new(), randomize_items: false },
        number: 1,
        count: 1,
        answers: answers(),
        errors: Vec::new(),
    };
    let set = AnswerSet {
        id: AnswerSetId::new(1),
        survey_id: SurveyId::new(1),
        respondent_id: Some(RespondentId::new(1)),
        sendout_id: None,
        completed: true,
        quota_full: false,
        shown_order: Default::default(),
        created_at: at,
        updated_at: at,
        language: None,
        answers: answers(),
    };
    let labels = HashSet::from([LabelId::new(1)]);
    let checked =
        NewRespondent::check(AccountId::new(1), input(), DispatchType::Email, &labels, "").expect("a valid respondent");
    let failure = NewPermanentFailure::check(ADDRESS, "mail.acme.example", at, TEXT, "").expect("a valid failure");
    let bounce = RecipientStatus {
        recipient: ADDRESS.into(),
        action: "failed".into(),
        status: "5.1.1".into(),
        diagnostic: Some(format!("550 <{ADDRESS}>")),
    };
    show![
        AnswerValue::Text(TEXT.into()),
        answers(),
        set.clone(),
        AnswerSetInput { respondent_id: None, completed: true, answers: answers(), language: None },
        respondent(),
        delivery(),
        input(),
        checked,
        Rejection { index: 0, contact_details: ADDRESS.into(), reason: RejectReason::Duplicate },
        BatchOutcome {
            added: vec![respondent()],
            rejected: vec![Rejection { index: 1, contact_details: NUMBER.into(), reason: RejectReason::Duplicate }],
        },
        PermanentFailure {
            email_address: ADDRESS.into(),
            sending_domain: "mail.acme.example".into(),
            failed_at: at,
            reason: format!("550 <{ADDRESS}>"),
            sendout_id: None,
            respondent_id: None,
        },
        failure,
        BlocklistEntry { contact_details: NUMBER.into(), kind: BlocklistType::OptedOut, created_at: at },
        BlocklistKey { created_at: at, contact_key: ADDRESS.into() },
        User {
            id: UserId::new(1),
            account_id: AccountId::new(1),
            name: "Ann".into(),
            email: ADDRESS.into(),
            role: Role::Owner,
            active: true,
            created_at: at,
        },
        NewAccount::new("Acme", ADDRESS).expect("a valid account"),
        NewUser::new("Ann", ADDRESS, Role::Viewer).expect("a valid user"),
        Row { respondent_id: RespondentId::new(1), cells: background() },
        bounce.clone(),
        StatusReport { original_message_id: None, recipients: vec![bounce] },
        claimed(),
        SentLookup::Sent(Box::new(claimed())),
        OutgoingMessage {
            idempotency_key: "k".into(),
            message_id: "<m@acme.example>".into(),
            to: ADDRESS.into(),
            from: "hr@acme.example".into(),
            subject: None,
            body: format!("{TEXT} /r/{TOKEN}"),
            html: Some(TEXT.into()),
            unsubscribe_url: Some(format!("/o/{TOKEN}")),
        },
        Reply { from: NUMBER, to: Some("12345"), text: TEXT, message_id: None },
        token_context(),
        page.clone(),
        PageView {
            survey_name: "Pulse".into(),
            language: Language::En,
            state: PageState::Page(page),
            survey_language: Language::En,
            untranslated: Default::default(),
            languages: Vec::new(),
        },
    ];
    shown
}

#[test]
fn debug_output_names_no_contact_no_background_value_and_no_answer() {
    let leaks: Vec<String> = shown()
        .into_iter()
        .filter(|(_, text)| [ADDRESS, NUMBER, TEXT, LABEL_VALUE, TOKEN].iter().any(|planted| text.contains(planted)))
        .map(|(name, text)| format!("{name}: {text}"))
        .collect();
    assert!(leaks.is_empty(), "personal data in Debug:\n{}", leaks.join("\n"));
}

#[test]
fn debug_output_still_names_what_identifies_a_record() {
    let shown = shown();
    let respondent = &shown.iter().find(|(name, _)| *name == "respondent()").expect("formatted").1;
    assert!(respondent.contains("id: RespondentId(1)") || respondent.contains("RespondentId"), "{respondent}");
    let value = &shown[0].1;
    assert!(value.starts_with("Text(<17 characters>)"), "{value}");
}
