//! Every enum column's CHECK constraint accepts exactly the names of its domain enum: each name the code writes
//! passes, and the constraint names nothing the enum lacks.

use canvass_domain::distribution::{
    BlocklistType, DispatchType, EventKind, LabelType, ReminderStatus, RespondentStatus, SendoutLogic, SendoutStatus,
};
use canvass_domain::governance::{RetentionAction, RuleStatus, ScopeKind};
use canvass_domain::language::Language;
use canvass_domain::survey::QuestionType;
use canvass_domain::webhook::{DeliveryStatus, WebhookEvent};
use canvass_testdb::TestDatabase;
use diesel::prelude::*;
use diesel::sql_types::Text;
use strum::VariantArray;

/// The names of every variant, sorted.
fn names<E: VariantArray + Copy + Into<&'static str>>() -> Vec<String> {
    let mut names: Vec<String> = E::VARIANTS.iter().map(|&variant| variant.into().to_owned()).collect();
    names.sort();
    names
}

#[derive(QueryableByName)]
struct Definition {
    #[diesel(sql_type = Text)]
    definition: String,
}

/// The values the CHECK constraint on `table.column` alone lists, sorted: the quoted literals of its definition,
/// such as `CHECK ((status = ANY (ARRAY['Draft'::text, 'Active'::text])))`. Constraints across several columns
/// (`sendouts_open_link_check` names `dispatch_type` beside the open link's columns) are not the enum's.
fn allowed(conn: &mut PgConnection, table: &str, column: &str) -> Vec<String> {
    let found: Vec<Definition> = diesel::sql_query(
        "SELECT pg_get_constraintdef(c.oid) AS definition FROM pg_constraint c \
         JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey) \
         WHERE c.conrelid = $1::regclass AND c.contype = 'c' AND a.attname = $2 \
         AND cardinality(c.conkey) = 1",
    )
    .bind::<Text, _>(table)
    .bind::<Text, _>(column)
    .load(conn)
    .unwrap();
    assert_eq!(found.len(), 1, "{table}.{column} has one CHECK constraint");
    let mut values: Vec<String> = found[0].definition.split('\'').skip(1).step_by(2).map(str::to_owned).collect();
    values.sort();
    values
}

#[test]
fn every_enum_column_accepts_exactly_its_enum_names() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let columns = [
        ("question_items", "item_type", names::<QuestionType>()),
        ("sendouts", "dispatch_type", names::<DispatchType>()),
        ("sendouts", "status", names::<SendoutStatus>()),
        ("sendouts", "language", names::<Language>()),
        ("bg_labels", "label_type", names::<LabelType>()),
        ("respondents", "status", names::<RespondentStatus>()),
        ("respondent_events", "kind", names::<EventKind>()),
        ("contacts", "language", names::<Language>()),
        ("reminders", "sendout_logic", names::<SendoutLogic>()),
        ("reminders", "status", names::<ReminderStatus>()),
        ("blocklist", "entry_type", names::<BlocklistType>()),
        ("retention_rules", "scope", names::<ScopeKind>()),
        ("retention_rules", "action", names::<RetentionAction>()),
        ("retention_rules", "status", names::<RuleStatus>()),
        ("webhook_deliveries", "event", names::<WebhookEvent>()),
        ("webhook_deliveries", "status", names::<DeliveryStatus>()),
    ];
    for (table, column, names) in columns {
        assert_eq!(allowed(&mut conn, table, column), names, "{table}.{column}");
    }
}
