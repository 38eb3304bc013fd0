//! A survey's translations in `survey_translations`: one row per survey and language, its texts as one JSONB
//! object whose keys are the API's (`name`, `pages`, `items`, `thankYouMessage`, `minLabel`, ...). The domain checked
//! every text before it was stored; a value that does not read back as text (which no write makes) is left out.

use std::collections::BTreeMap;

use canvass_domain::ids::{AccountId, PageId, QuestionItemId, SurveyId};
use canvass_domain::language::Language;
use canvass_domain::survey::{ItemTexts, TranslatedTexts, Translation};
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Nullable, Text};
use diesel::upsert::excluded;
use serde_json::{json, Map, Value};
use time::OffsetDateTime;

use crate::named::Named;
use crate::prepared::prepared;
use crate::schema::survey_translations;

/// A stored translation.
#[derive(Queryable, Selectable)]
#[diesel(table_name = survey_translations)]
struct TranslationRow {
    language: Named<Language>,
    texts: Value,
    created_at: OffsetDateTime,
    updated_at: OffsetDateTime,
}

impl From<TranslationRow> for Translation {
    fn from(row: TranslationRow) -> Self {
        Self {
            language: row.language.0,
            texts: from_json(&row.texts),
            created_at: row.created_at,
            updated_at: row.updated_at,
        }
    }
}

/// One statement: the row is inserted, or its texts and `updated_at` replaced where the language was stored.
pub(super) fn put(
    conn: &mut PgConnection,
    account: AccountId,
    survey: SurveyId,
    language: Language,
    texts: &TranslatedTexts,
    now: OffsetDateTime,
) -> QueryResult<Translation> {
    diesel::insert_into(survey_translations::table)
        .values((
            survey_translations::account_id.eq(account.get()),
            survey_translations::survey_id.eq(survey.get()),
            survey_translations::language.eq(language.code()),
            survey_translations::texts.eq(to_json(texts)),
            survey_translations::created_at.eq(now),
            survey_translations::updated_at.eq(now),
        ))
        .on_conflict((survey_translations::account_id, survey_translations::survey_id, survey_translations::language))
        .do_update()
        .set((
            survey_translations::texts.eq(excluded(survey_translations::texts)),
            survey_translations::updated_at.eq(excluded(survey_translations::updated_at)),
        ))
        .returning(TranslationRow::as_returning())
        .get_result::<TranslationRow>(conn)
        .map(Translation::from)
}

/// The survey's translations in the order their languages were first stored, or only the one of `language`.
pub(super) fn list(
    conn: &mut PgConnection,
    account: AccountId,
    survey: SurveyId,
    language: Option<Language>,
) -> QueryResult<Vec<Translation>> {
    let mut query = survey_translations::table
        .filter(survey_translations::account_id.eq(account.get()))
        .filter(survey_translations::survey_id.eq(survey.get()))
        .order(survey_translations::id)
        .select(TranslationRow::as_select())
        .into_boxed();
    if let Some(language) = language {
        query = query.filter(survey_translations::language.eq(language.code()));
    }
    Ok(query.load::<TranslationRow>(conn)?.into_iter().map(Translation::from).collect())
}

/// The languages of the survey (`$1` account, `$2` survey) translations in the order first stored, and the texts of
/// the one into `$3`, as JSON text: all of them when `$4` is null, else its texts but those of the items outside
/// `$4` (item ids as text), each of which is looked up by key, so that a page of 20 items of a 100-item survey reads
/// 20.
///
/// What a page pays for here is PostgreSQL's work on JSON, measured (docs/benchmarks.md): the stored object is
/// opened once, by `jsonb_each` (each `->` on the column itself would decompress the whole TOASTed value again),
/// and the answer is the text of the parts it holds, joined, because building a new `jsonb` of them
/// (`jsonb_object_agg`) cost twice as much as writing them out. Every part is `jsonb`'s own text and every key
/// goes through `to_json`, so the text is JSON.
const FOR_PAGE: &str = "\
SELECT language, CASE WHEN language = $3 THEN (
    SELECT '{' || coalesce(string_agg(to_json(part.key)::text || ':' ||
        CASE WHEN part.key = 'items' AND $4::text[] IS NOT NULL THEN (
            SELECT '{' || coalesce(string_agg(to_json(wanted.id)::text || ':' || found.texts::text, ','), '') || '}'
            FROM unnest($4::text[]) AS wanted (id), LATERAL (SELECT part.value -> wanted.id AS texts) AS found
            WHERE found.texts IS NOT NULL)
        ELSE part.value::text END, ','), '') || '}'
    FROM jsonb_each(texts) AS part) END AS texts
FROM survey_translations WHERE account_id = $1 AND survey_id = $2 ORDER BY id";

/// The languages of the survey's translations in the order first stored, and the texts of the one into
/// `language` (of the items, only those of `items` when given): one statement that reads the texts of that row
/// alone.
pub(super) fn for_page(
    conn: &mut PgConnection,
    account: AccountId,
    survey: SurveyId,
    language: Language,
    items: Option<&[QuestionItemId]>,
) -> QueryResult<(Vec<Language>, Option<TranslatedTexts>)> {
    #[derive(QueryableByName)]
    struct Row {
        #[diesel(sql_type = Text)]
        language: Named<Language>,
        #[diesel(sql_type = Nullable<Text>)]
        texts: Option<String>,
    }
    let wanted: Option<Vec<String>> = items.map(|items| items.iter().map(|id| id.get().to_string()).collect());
    let rows: Vec<Row> = prepared(FOR_PAGE)
        .bind::<BigInt, _>(account.get())
        .bind::<BigInt, _>(survey.get())
        .bind::<Text, _>(language.code())
        .bind::<Nullable<Array<Text>>, _>(wanted)
        .load(conn)?;
    let texts = rows.iter().find_map(|row| row.texts.as_deref()).map(|text| {
        // The statement writes JSON; were it ever not, the page shows the survey's own texts rather than fail.
        serde_json::from_str(text).map_or_else(|_| TranslatedTexts::default(), |json| from_json(&json))
    });
    Ok((rows.into_iter().map(|row| row.language.0).collect(), texts))
}

/// Deletes the survey's translation into `language`; whether there was one.
pub(super) fn delete(
    conn: &mut PgConnection,
    account: AccountId,
    survey: SurveyId,
    language: Language,
) -> QueryResult<bool> {
    let deleted = diesel::delete(survey_translations::table)
        .filter(survey_translations::account_id.eq(account.get()))
        .filter(survey_translations::survey_id.eq(survey.get()))
        .filter(survey_translations::language.eq(language.code()))
        .execute(conn)?;
    Ok(deleted == 1)
}

/// The column's value for these texts: only what is translated.
fn to_json(texts: &TranslatedTexts) -> Value {
    let mut object = Map::new();
    put_text(&mut object, "name", &texts.name);
    put_text(&mut object, "description", &texts.description);
    put_text(&mut object, "thankYouMessage", &texts.thank_you_message);
    let pages: Map<String, Value> = texts.pages.iter().map(|(id, title)| (id.to_string(), json!(title))).collect();
    object.insert("pages".into(), Value::Object(pages));
    let items: Map<String, Value> = texts.items.iter().map(|(id, item)| (id.to_string(), item_json(item))).collect();
    object.insert("items".into(), Value::Object(items));
    Value::Object(object)
}

fn item_json(item: &ItemTexts) -> Value {
    let mut object = Map::new();
    put_text(&mut object, "text", &item.text);
    put_text(&mut object, "minLabel", &item.min_label);
    put_text(&mut object, "maxLabel", &item.max_label);
    for (key, labels) in [("options", &item.options), ("rows", &item.rows)] {
        if !labels.is_empty() {
            object.insert(key.into(), json!(labels));
        }
    }
    Value::Object(object)
}

fn put_text(object: &mut Map<String, Value>, key: &str, text: &Option<String>) {
    if let Some(text) = text {
        object.insert(key.into(), json!(text));
    }
}

/// The texts a stored object holds.
fn from_json(json: &Value) -> TranslatedTexts {
    TranslatedTexts {
        name: text(&json["name"]),
        description: text(&json["description"]),
        thank_you_message: text(&json["thankYouMessage"]),
        pages: by_id(&json["pages"], text).map(|(id, title)| (PageId::new(id), title)).collect(),
        items: by_id(&json["items"], |item| Some(item_texts(item)))
            .map(|(id, texts)| (QuestionItemId::new(id), texts))
            .collect(),
    }
}

fn item_texts(json: &Value) -> ItemTexts {
    ItemTexts {
        text: text(&json["text"]),
        min_label: text(&json["minLabel"]),
        max_label: text(&json["maxLabel"]),
        options: labels(&json["options"]),
        rows: labels(&json["rows"]),
    }
}

fn text(json: &Value) -> Option<String> {
    json.as_str().map(str::to_owned)
}

fn labels(json: &Value) -> BTreeMap<String, String> {
    json.as_object()
        .map(|object| object.iter().filter_map(|(value, label)| Some((value.clone(), text(label)?))).collect())
        .unwrap_or_default()
}

/// The entries of an object keyed by ids, each read by `read`.
fn by_id<'a, T>(json: &'a Value, read: impl Fn(&'a Value) -> Option<T> + 'a) -> impl Iterator<Item = (i64, T)> + 'a {
    json.as_object().into_iter().flatten().filter_map(move |(key, value)| Some((key.parse().ok()?, read(value)?)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_read_back_as_written() {
        let texts = TranslatedTexts {
            name: Some("Pulse".into()),
            description: None,
            thank_you_message: Some("Thanks".into()),
            pages: [(PageId::new(3), "Work".to_owned())].into(),
            items: [(
                QuestionItemId::new(4),
                ItemTexts {
                    text: Some("Why?".into()),
                    min_label: Some("Poor".into()),
                    options: [("yes".to_owned(), "Yes".to_owned())].into(),
                    rows: [("speed".to_owned(), "Speed".to_owned())].into(),
                    ..ItemTexts::default()
                },
            )]
            .into(),
        };
        assert_eq!(from_json(&to_json(&texts)), texts);
        assert_eq!(to_json(&TranslatedTexts::default()), json!({"pages": {}, "items": {}}));
    }
}
