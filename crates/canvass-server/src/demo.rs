//! The demo set-up of `canvass serve --demo` (what `just run` uses): a demo account with a sample survey, made
//! once, and a fresh key for it on every start.

use canvass_domain::account::ApiKey;
use canvass_domain::clock::Clock;
use canvass_domain::ports::UnitOfWork;
use canvass_domain::survey::{ChoiceOption, PageDraft, QuestionItemDraft, QuestionType, SurveyInput};
use canvass_domain::use_cases::{accounts, surveys};
use canvass_domain::{AccountId, DomainError};

/// The demo account's owner.
pub const DEMO_EMAIL: &str = "demo@canvass.localhost";

/// The demo account and a new key for it.
#[derive(Debug)]
pub struct Demo {
    /// The demo account.
    pub account_id: AccountId,
    /// A key made for this start.
    pub api_key: ApiKey,
}

/// Finds or makes the demo account (with its sample survey) and makes a key for it.
pub fn ensure_demo(uow: &mut dyn UnitOfWork, clock: &dyn Clock) -> Result<Demo, DomainError> {
    if let Some(user) = accounts::find_user_by_email(uow, DEMO_EMAIL)? {
        let api_key = accounts::create_key(uow, clock, user.id)?;
        return Ok(Demo { account_id: user.account_id, api_key });
    }
    let created = accounts::create_account(uow, clock, "Demo", DEMO_EMAIL)?;
    surveys::create(uow, clock, created.account_id, sample_survey())?;
    Ok(Demo { account_id: created.account_id, api_key: created.api_key })
}

fn item(kind: QuestionType, text: &str, required: bool, options: &[(&str, &str)]) -> QuestionItemDraft {
    let options = options.iter().map(|(v, l)| ChoiceOption { value: (*v).into(), label: (*l).into() }).collect();
    QuestionItemDraft { kind, text: text.into(), required, options, ..QuestionItemDraft::default() }
}

/// A two-page employee pulse survey that shows every question type.
fn sample_survey() -> SurveyInput {
    SurveyInput {
        name: "Employee pulse (sample)".into(),
        description: Some("A sample survey made by the demo set-up.".into()),
        pages: vec![
            PageDraft {
                title: "Your week".into(),
                items: vec![
                    item(
                        QuestionType::Info,
                        "Thank you for taking two minutes to tell us about your week.",
                        false,
                        &[],
                    ),
                    QuestionItemDraft {
                        min_label: Some("A hard week".into()),
                        max_label: Some("A great week".into()),
                        ..item(QuestionType::Rating, "How was your week, from 0 to 10?", true, &[])
                    },
                    item(
                        QuestionType::SingleChoice,
                        "Did you have what you needed to do your work?",
                        true,
                        &[("yes", "Yes"), ("partly", "Partly"), ("no", "No")],
                    ),
                ],
                randomize_items: false,
            },
            PageDraft {
                title: "Details".into(),
                items: vec![
                    item(
                        QuestionType::MultipleChoice,
                        "What got in the way?",
                        false,
                        &[("meetings", "Meetings"), ("tools", "Tools"), ("workload", "Workload")],
                    ),
                    item(QuestionType::Numeric, "How many hours did you work?", false, &[]),
                    item(QuestionType::OpenText, "Anything else?", false, &[]),
                ],
                randomize_items: false,
            },
        ],
        ..Default::default()
    }
}
