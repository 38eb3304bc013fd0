//! Sendouts: a new one is a checked Draft of its survey; only an activated one can be deactivated; labels are
//! unique by name within their sendout and reminders follow the message rules of the sendout's type; another
//! account's surveys and sendouts are not found, exactly as missing ones.

use crate::distribution::{
    DispatchType, LabelType, MessageInput, ReminderInput, ReminderStatus, SendoutInput, SendoutLogic, SendoutStatus,
};
use crate::error::{ConflictKind, DomainError};
use crate::ids::{SendoutId, SurveyId};
use crate::language::Language;
use crate::survey::SurveyInput;
use crate::testing::Memory;
use crate::use_cases::{sendouts, surveys};
use crate::AccountId;

use super::seeds::distribution::ACCOUNT;
use super::seeds::{invalid_fields, not_found, two_accounts, At, NOW};

fn email(name: &str) -> SendoutInput {
    SendoutInput {
        name: name.into(),
        kind: DispatchType::Email,
        message: MessageInput {
            send_date: Some(NOW + time::Duration::days(1)),
            sender: Some("hr@acme.example".into()),
            subject: Some("Staff survey".into()),
            message: Some("Answer here: {{surveyLink}}".into()),
            messages: Vec::new(),
        },
        expiry_date: None,
        language: None,
        open_link: Default::default(),
    }
}

fn survey_of(memory: &mut Memory, account: AccountId) -> SurveyId {
    let input = SurveyInput { name: "Staff".into(), ..SurveyInput::default() };
    surveys::create(memory, &At(NOW), account, input).unwrap().id
}

fn reminder(subject: Option<&str>, sender: &str) -> ReminderInput {
    ReminderInput {
        sendout_logic: SendoutLogic::NotCompleted,
        message: MessageInput {
            send_date: Some(NOW + time::Duration::days(3)),
            sender: Some(sender.into()),
            subject: subject.map(Into::into),
            message: Some("Still time: {{surveyLink}}".into()),
            messages: Vec::new(),
        },
    }
}

fn is_conflict<T: std::fmt::Debug>(result: &Result<T, DomainError>, kind: ConflictKind) -> bool {
    matches!(result, Err(DomainError::Conflict { kind: found, .. }) if *found == kind)
}

#[test]
fn a_new_sendout_is_a_draft_read_and_listed_under_its_own_survey() {
    let (mut memory, acme, _) = two_accounts();
    let (staff, exit) = (survey_of(&mut memory, acme), survey_of(&mut memory, acme));

    let created = sendouts::create(&mut memory, &At(NOW), acme, staff, email("  Spring  ")).unwrap();
    sendouts::create(&mut memory, &At(NOW), acme, exit, email("Exit")).unwrap();

    assert_eq!((created.name.as_str(), created.status, created.created_at), ("Spring", SendoutStatus::Draft, NOW));
    assert_eq!((created.respondent_count, created.pending_count, created.activated_at), (0, 0, None));
    assert_eq!(created.subject.as_deref(), Some("Staff survey"));
    assert_eq!(sendouts::list(&mut memory, acme, staff).unwrap(), std::slice::from_ref(&created));
    assert_eq!(sendouts::get(&mut memory, acme, staff, created.id).unwrap(), created);
    assert_eq!(sendouts::kind_of(&mut memory, acme, staff, created.id).unwrap(), DispatchType::Email);
    assert!(not_found(&sendouts::get(&mut memory, acme, exit, created.id), "sendout"), "a sendout of another survey");
    assert!(not_found(&sendouts::kind_of(&mut memory, acme, exit, created.id), "sendout"));
}

#[test]
fn a_sendout_keeps_its_language_and_speaks_english_when_given_none() {
    let (mut memory, acme, _) = two_accounts();
    let staff = survey_of(&mut memory, acme);

    let swedish = SendoutInput { language: Some(Language::Sv), ..email("Vår") };
    let swedish = sendouts::create(&mut memory, &At(NOW), acme, staff, swedish).unwrap();
    let english = sendouts::create(&mut memory, &At(NOW), acme, staff, email("Spring")).unwrap();

    assert_eq!((swedish.language, english.language), (Language::Sv, Language::En));
    assert_eq!(sendouts::get(&mut memory, acme, staff, swedish.id).unwrap().language, Language::Sv);
    let listed: Vec<Language> = sendouts::list(&mut memory, acme, staff).unwrap().iter().map(|s| s.language).collect();
    assert_eq!(listed, [Language::Sv, Language::En]);
}

#[test]
fn a_sendout_given_no_language_takes_its_survey_s() {
    let (mut memory, acme, _) = two_accounts();
    let input = SurveyInput { name: "Henkilöstö".into(), language: Some(Language::Fi), ..SurveyInput::default() };
    let finnish = surveys::create(&mut memory, &At(NOW), acme, input).unwrap().id;
    let taken = sendouts::create(&mut memory, &At(NOW), acme, finnish, email("Kevät")).unwrap();
    assert_eq!(taken.language, Language::Fi);
    let given = SendoutInput { language: Some(Language::Sv), ..email("Vår") };
    assert_eq!(sendouts::create(&mut memory, &At(NOW), acme, finnish, given).unwrap().language, Language::Sv);
}

#[test]
fn every_broken_rule_of_a_new_sendout_is_named_and_nothing_is_stored() {
    let (mut memory, acme, _) = two_accounts();
    let staff = survey_of(&mut memory, acme);
    let mut input = email(" ");
    input.message.subject = None;
    input.message.sender = Some("not an address".into());
    input.expiry_date = Some(NOW);
    assert_eq!(
        invalid_fields(sendouts::create(&mut memory, &At(NOW), acme, staff, input)),
        ["name", "sender", "subject", "expiryDate"]
    );
    let login = SendoutInput { kind: DispatchType::Login, ..email("Login") };
    assert_eq!(
        invalid_fields(sendouts::create(&mut memory, &At(NOW), acme, staff, login)),
        ["sendDate", "sender", "subject", "message"],
        "a LOGIN sendout sends nothing, so it takes no message"
    );
    assert!(sendouts::list(&mut memory, acme, staff).unwrap().is_empty());
    assert!(memory.state.sendouts.is_empty());
    assert_eq!(memory.transactions.rolled_back, 2);
}

#[test]
fn another_accounts_survey_is_not_found_as_a_missing_one_is_before_the_input_is_checked() {
    let (mut memory, acme, other) = two_accounts();
    let theirs = survey_of(&mut memory, other);
    let missing = SurveyId::new(999);

    for survey in [theirs, missing] {
        assert!(not_found(&sendouts::list(&mut memory, acme, survey), "survey"), "{survey}");
        assert!(not_found(&sendouts::create(&mut memory, &At(NOW), acme, survey, email("Spring")), "survey"));
        let broken = email("");
        assert!(not_found(&sendouts::create(&mut memory, &At(NOW), acme, survey, broken), "survey"), "no field leaks");
    }
    assert!(memory.state.sendouts.is_empty());
}

#[test]
fn another_accounts_sendout_is_not_found_by_any_sendout_use_case_as_a_missing_one_is() {
    let (mut memory, acme, other) = two_accounts();
    let ours = survey_of(&mut memory, acme);
    let theirs = survey_of(&mut memory, other);
    let their_sendout = sendouts::create(&mut memory, &At(NOW), other, theirs, email("Theirs")).unwrap().id;

    // Through our survey, their sendout is as missing as an id that never was; through theirs, the survey is.
    for (survey, sendout, what) in
        [(ours, their_sendout, "sendout"), (ours, SendoutId::new(999), "sendout"), (theirs, their_sendout, "survey")]
    {
        let clock = At(NOW);
        assert!(not_found(&sendouts::get(&mut memory, acme, survey, sendout), what));
        assert!(not_found(&sendouts::kind_of(&mut memory, acme, survey, sendout), what));
        assert!(not_found(&sendouts::deactivate(&mut memory, &clock, acme, survey, sendout), what));
        assert!(not_found(&sendouts::list_labels(&mut memory, acme, survey, sendout), what));
        assert!(not_found(&sendouts::list_reminders(&mut memory, acme, survey, sendout), what));
        let label = sendouts::create_label(&mut memory, &clock, acme, survey, sendout, "Department", LabelType::Text);
        assert!(not_found(&label, what), "{label:?}");
        let reminder = reminder(Some("Reminder"), "hr@acme.example");
        assert!(not_found(&sendouts::create_reminder(&mut memory, &clock, acme, survey, sendout, reminder), what));
    }
    assert_eq!(sendouts::get(&mut memory, other, theirs, their_sendout).unwrap().status, SendoutStatus::Draft);
}

#[test]
fn a_draft_cannot_be_deactivated_and_stays_a_draft() {
    let (mut fake, survey, sendout) = Memory::with_sendout(DispatchType::Email);

    let refused = sendouts::deactivate(&mut fake, &At(NOW), ACCOUNT, survey, sendout);

    assert!(is_conflict(&refused, ConflictKind::NotActivated), "{refused:?}");
    assert_eq!(fake.sendout_row(sendout).status, SendoutStatus::Draft);
    assert_eq!((fake.transactions.committed, fake.transactions.rolled_back), (0, 1));
}

#[test]
fn an_active_sendout_becomes_inactive_and_a_second_deactivation_keeps_it_so() {
    let (mut fake, survey, sendout) = Memory::with_sendout(DispatchType::Email);
    fake.pending(sendout, "ann@example.com");
    sendouts::activate(&mut fake, &At(NOW), ACCOUNT, survey, sendout).unwrap();

    let later = At(NOW + time::Duration::hours(2));
    let deactivated = sendouts::deactivate(&mut fake, &later, ACCOUNT, survey, sendout).unwrap();

    assert_eq!(deactivated.status, SendoutStatus::Inactive);
    assert_eq!(deactivated.activated_at, Some(NOW), "deactivation keeps the time of the last activation");
    assert_eq!(deactivated.respondent_count, 1);
    let again = sendouts::deactivate(&mut fake, &later, ACCOUNT, survey, sendout).unwrap();
    assert_eq!(again.status, SendoutStatus::Inactive);
    // A deactivated sendout can be activated again.
    assert_eq!(sendouts::activate(&mut fake, &later, ACCOUNT, survey, sendout).unwrap().status, SendoutStatus::Active);

    let foreign = sendouts::deactivate(&mut fake, &later, AccountId::new(2), survey, sendout);
    assert!(not_found(&foreign, "survey"), "{foreign:?}");
    assert_eq!(fake.sendout_row(sendout).status, SendoutStatus::Active);
}

#[test]
fn a_label_name_is_unique_within_its_sendout() {
    let (mut fake, survey, sendout) = Memory::with_sendout(DispatchType::Email);
    let other_sendout = fake.another_sendout(survey, DispatchType::Email);
    let clock = At(NOW);

    let made =
        sendouts::create_label(&mut fake, &clock, ACCOUNT, survey, sendout, " Department ", LabelType::Text).unwrap();
    assert_eq!((made.name.as_str(), made.sendout_id, made.function), ("Department", sendout, 0));

    let twice = sendouts::create_label(&mut fake, &clock, ACCOUNT, survey, sendout, "Department", LabelType::Number);
    assert!(is_conflict(&twice, ConflictKind::Duplicate), "{twice:?}");
    assert_eq!(fake.transactions.rolled_back, 1);
    assert_eq!(sendouts::list_labels(&mut fake, ACCOUNT, survey, sendout).unwrap(), std::slice::from_ref(&made));

    // Another sendout may use the name.
    let elsewhere =
        sendouts::create_label(&mut fake, &clock, ACCOUNT, survey, other_sendout, "Department", LabelType::Date)
            .unwrap();
    assert_ne!(elsewhere.id, made.id);
    assert_eq!(sendouts::list_labels(&mut fake, ACCOUNT, survey, other_sendout).unwrap(), [elsewhere]);
    assert_eq!(sendouts::list_labels(&mut fake, ACCOUNT, survey, sendout).unwrap(), [made]);
}

#[test]
fn a_blank_or_overlong_label_name_is_refused_naming_the_field() {
    let (mut fake, survey, sendout) = Memory::with_sendout(DispatchType::Email);
    let overlong = "x".repeat(201);
    for bad in ["", "   ", overlong.as_str()] {
        let made = sendouts::create_label(&mut fake, &At(NOW), ACCOUNT, survey, sendout, bad, LabelType::Text);
        assert_eq!(invalid_fields(made), ["name"]);
    }
    assert!(fake.state.labels.is_empty());
    assert_eq!(fake.transactions.committed + fake.transactions.rolled_back, 0, "refused before a transaction");
}

#[test]
fn a_reminder_follows_the_message_rules_of_its_sendouts_type() {
    let (mut fake, survey, sendout) = Memory::with_sendout(DispatchType::Email);
    let login = fake.another_sendout(survey, DispatchType::Login);
    let clock = At(NOW);

    let no_subject =
        sendouts::create_reminder(&mut fake, &clock, ACCOUNT, survey, sendout, reminder(None, "hr@acme.example"));
    assert_eq!(invalid_fields(no_subject), ["subject"]);
    let sms_sender =
        sendouts::create_reminder(&mut fake, &clock, ACCOUNT, survey, sendout, reminder(Some("Hi"), "Canvass"));
    assert_eq!(invalid_fields(sms_sender), ["sender"]);
    let to_login =
        sendouts::create_reminder(&mut fake, &clock, ACCOUNT, survey, login, reminder(Some("Hi"), "hr@acme.example"));
    assert_eq!(invalid_fields(to_login), ["sendoutLogic"]);
    assert!(fake.state.reminders.is_empty());
    assert_eq!(fake.transactions.rolled_back, 3);

    let made = sendouts::create_reminder(
        &mut fake,
        &clock,
        ACCOUNT,
        survey,
        sendout,
        reminder(Some(" Reminder "), " hr@acme.example "),
    )
    .unwrap();
    assert_eq!((made.sendout_id, made.status, made.created_at), (sendout, ReminderStatus::Scheduled, NOW));
    assert_eq!((made.sender.as_str(), made.subject.as_deref()), ("hr@acme.example", Some("Reminder")));
    assert_eq!(made.sendout_logic, SendoutLogic::NotCompleted);
    assert_eq!(sendouts::list_reminders(&mut fake, ACCOUNT, survey, sendout).unwrap(), [made]);
    assert!(sendouts::list_reminders(&mut fake, ACCOUNT, survey, login).unwrap().is_empty());
}

fn in_swedish(subject: &str, message: &str) -> Vec<(String, crate::distribution::LocalizedInput)> {
    let texts = crate::distribution::LocalizedInput { subject: Some(subject.into()), message: Some(message.into()) };
    vec![("sv".into(), texts)]
}

#[test]
fn each_respondent_is_invited_and_reminded_in_its_language_and_the_others_in_the_sendouts_text() {
    use crate::distribution::{BackgroundData, RespondentInput};
    use crate::ports::OutboxRepository;
    let mut fake = Memory::default();
    let survey = survey_of(&mut fake, ACCOUNT);
    let clock = At(NOW);
    let mut input = email("Spring");
    input.message.messages = in_swedish(" Hej ", "Svara här: {{surveyLink}}");
    let sendout = sendouts::create(&mut fake, &clock, ACCOUNT, survey, input).unwrap();
    assert_eq!(sendout.messages[&Language::Sv].subject.as_deref(), Some("Hej"), "trimmed, as the subject is");
    let add = |fake: &mut Memory, contact: &str, language| {
        let input = RespondentInput {
            contact_details: contact.into(),
            send_mail: true,
            background_data: BackgroundData::default(),
            language,
        };
        crate::use_cases::respondents::add(fake, &clock, ACCOUNT, survey, sendout.id, input).unwrap();
    };
    add(&mut fake, "anna@acme.example", Some(Language::Sv));
    add(&mut fake, "bob@acme.example", None);
    add(&mut fake, "carl@acme.example", Some(Language::Fi));
    let mut reminder = reminder(Some("Reminder"), "hr@acme.example");
    reminder.message.messages = in_swedish("Påminnelse", "Det är inte för sent: {{surveyLink}}");
    reminder.message.send_date = Some(NOW);
    sendouts::create_reminder(&mut fake, &clock, ACCOUNT, survey, sendout.id, reminder).unwrap();
    sendouts::activate(&mut fake, &clock, ACCOUNT, survey, sendout.id).unwrap();
    for respondent in &mut fake.state.respondents {
        respondent.row.status = crate::distribution::RespondentStatus::Sent;
    }
    fake.enqueue_due_reminders(NOW).unwrap();

    let texts = |reminders: bool| -> Vec<(String, Option<String>, String)> {
        let held = fake.state.outbox.iter().filter(|held| held.message.is_reminder == reminders);
        held.map(|held| {
            let message = &held.message;
            (message.recipient.clone(), message.subject.clone(), message.template.clone())
        })
        .collect()
    };
    let expected = |swedish: (&str, &str), own: (&str, &str)| {
        let row =
            |to: &str, (subject, message): (&str, &str)| (to.to_owned(), Some(subject.to_owned()), message.to_owned());
        vec![row("anna@acme.example", swedish), row("bob@acme.example", own), row("carl@acme.example", own)]
    };
    assert_eq!(
        texts(false),
        expected(("Hej", "Svara här: {{surveyLink}}"), ("Staff survey", "Answer here: {{surveyLink}}"))
    );
    assert_eq!(
        texts(true),
        expected(("Påminnelse", "Det är inte för sent: {{surveyLink}}"), ("Reminder", "Still time: {{surveyLink}}"))
    );
}

#[test]
fn messages_in_other_languages_are_checked_as_the_sendouts_own_and_refused_on_login() {
    let mut fake = Memory::default();
    let survey = survey_of(&mut fake, ACCOUNT);
    let mut input = email("Spring");
    input.message.messages = in_swedish("", "no link");
    let refused = sendouts::create(&mut fake, &At(NOW), ACCOUNT, survey, input);
    assert_eq!(invalid_fields(refused), ["messages.sv.subject", "messages.sv.message"]);
    let login = SendoutInput {
        kind: DispatchType::Login,
        message: MessageInput { messages: in_swedish("Hej", "{{surveyLink}}"), ..MessageInput::default() },
        ..email("Staff")
    };
    assert_eq!(invalid_fields(sendouts::create(&mut fake, &At(NOW), ACCOUNT, survey, login)), ["messages"]);
    assert!(fake.state.sendouts.is_empty());
}
