//! The insight port's SQL against rows planted with fixed timestamps: a sendout's statistics (`statistics`) and a
//! survey's results (`results`), each figure computed by hand in the test.

mod groups;
mod report;
mod results;
mod statistics;

use crate::support::insert_with_tree;
use canvass_domain::ids::{AccountId, RespondentId, SendoutId, SurveyId};
use canvass_domain::survey::{
    ChoiceOption, PageDraft, QuestionItemDraft, QuestionTree, QuestionType, SurveyDraft, SurveyInput,
};
use canvass_postgres::PgUnitOfWork;
use diesel::sql_types::{BigInt, Bool, Nullable, Text, Timestamptz};
use diesel::{PgConnection, QueryableByName, RunQueryDsl};
use time::macros::datetime;
use time::OffsetDateTime;

const NOW: OffsetDateTime = datetime!(2020-11-01 08:00 UTC);

#[derive(QueryableByName)]
struct Id {
    #[diesel(sql_type = BigInt)]
    id: i64,
}

fn item(kind: QuestionType, text: &str, options: &[&str]) -> QuestionItemDraft {
    let options = options.iter().map(|v| ChoiceOption { value: (*v).into(), label: v.to_uppercase() }).collect();
    QuestionItemDraft { kind, text: text.into(), options, ..QuestionItemDraft::default() }
}

/// A survey of two pages: single choice `red`/`green`/`blue`, multiple choice `web`/`app`/`phone`, info; numeric,
/// rating, open text.
fn survey(conn: &mut PgConnection, account: AccountId) -> (SurveyId, QuestionTree) {
    let first = vec![
        item(QuestionType::SingleChoice, "Colour?", &["red", "green", "blue"]),
        item(QuestionType::MultipleChoice, "Tools?", &["web", "app", "phone"]),
        item(QuestionType::Info, "Next: numbers", &[]),
    ];
    let second = vec![
        item(QuestionType::Numeric, "Hours?", &[]),
        item(QuestionType::Rating, "Recommend?", &[]),
        item(QuestionType::OpenText, "Comments?", &[]),
    ];
    let input = SurveyInput {
        name: "Pulse".into(),
        start_date: Some(NOW),
        end_date: Some(NOW + time::Duration::days(60)),
        pages: vec![
            PageDraft { title: "One".into(), items: first, randomize_items: false },
            PageDraft { title: "Two".into(), items: second, randomize_items: false },
        ],
        ..Default::default()
    };
    let (survey, tree) =
        insert_with_tree(&mut PgUnitOfWork::new(conn), account, &SurveyDraft::new(input, NOW).unwrap(), NOW).unwrap();
    (survey.id, tree)
}

/// An EMAIL sendout of the survey, Active since `activated_at` (`None`: a Draft).
fn sendout(
    conn: &mut PgConnection,
    account: AccountId,
    survey: SurveyId,
    activated_at: Option<OffsetDateTime>,
) -> SendoutId {
    let row: Id = diesel::sql_query(
        "INSERT INTO sendouts (account_id, survey_id, name, dispatch_type, status, created_at, activated_at) \
         VALUES ($1, $2, 'Wave', 'EMAIL', CASE WHEN $3::timestamptz IS NULL THEN 'Draft' ELSE 'Active' END, $4, $3) \
         RETURNING id",
    )
    .bind::<BigInt, _>(account.get())
    .bind::<BigInt, _>(survey.get())
    .bind::<Nullable<Timestamptz>, _>(activated_at)
    .bind::<Timestamptz, _>(NOW)
    .get_result(conn)
    .unwrap();
    SendoutId::new(row.id)
}

/// A respondent as delivery left it.
struct Planted<'a> {
    contact: &'a str,
    status: &'a str,
    added_at: OffsetDateTime,
    released_at: Option<OffsetDateTime>,
    sent_at: Option<OffsetDateTime>,
    opted_out_at: Option<OffsetDateTime>,
}

impl<'a> Planted<'a> {
    /// Added at `added_at` and still in `status`, never released, sent or opted out.
    fn new(contact: &'a str, status: &'a str, added_at: OffsetDateTime) -> Self {
        Self { contact, status, added_at, released_at: None, sent_at: None, opted_out_at: None }
    }

    fn plant(&self, conn: &mut PgConnection, account: AccountId, sendout: SendoutId) -> RespondentId {
        let row: Id = diesel::sql_query(
            "INSERT INTO respondents (account_id, sendout_id, contact_details, contact_key, send_mail, \
                 background_data, status, token, added_at, released_at, sent_at, opted_out_at) \
             VALUES ($1, $2, $3, $3, $4, '{}', $5, $1 || '-' || $2 || '-' || $3, $6, $7, $8, $9) RETURNING id",
        )
        .bind::<BigInt, _>(account.get())
        .bind::<BigInt, _>(sendout.get())
        .bind::<Text, _>(self.contact)
        .bind::<Bool, _>(self.status != "Released")
        .bind::<Text, _>(self.status)
        .bind::<Timestamptz, _>(self.added_at)
        .bind::<Nullable<Timestamptz>, _>(self.released_at)
        .bind::<Nullable<Timestamptz>, _>(self.sent_at)
        .bind::<Nullable<Timestamptz>, _>(self.opted_out_at)
        .get_result(conn)
        .unwrap();
        RespondentId::new(row.id)
    }
}

/// An answer set of the survey without answers: created at `created_at`, `completed` now or not, first completed at
/// `completed_at` (kept when reopened); of the respondent and sendout given.
fn answer_set(
    conn: &mut PgConnection,
    account: AccountId,
    survey: SurveyId,
    respondent: Option<(RespondentId, SendoutId)>,
    created_at: OffsetDateTime,
    completed: bool,
    completed_at: Option<OffsetDateTime>,
) {
    diesel::sql_query(
        "INSERT INTO answer_sets (account_id, survey_id, respondent_id, sendout_id, completed, created_at, \
             updated_at, completed_at) \
         VALUES ($1, $2, $3, $4, $5, $6, coalesce($7, $6), $7)",
    )
    .bind::<BigInt, _>(account.get())
    .bind::<BigInt, _>(survey.get())
    .bind::<Nullable<BigInt>, _>(respondent.map(|(r, _)| r.get()))
    .bind::<Nullable<BigInt>, _>(respondent.map(|(_, s)| s.get()))
    .bind::<Bool, _>(completed)
    .bind::<Timestamptz, _>(created_at)
    .bind::<Nullable<Timestamptz>, _>(completed_at)
    .execute(conn)
    .unwrap();
}
