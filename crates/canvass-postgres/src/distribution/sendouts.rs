//! Sendouts, labels, reminders and background data documents on PostgreSQL.

use std::collections::HashMap;

use canvass_domain::distribution::new_survey_link_token;
use canvass_domain::distribution::{
    BgDocument, DeliveryIssue, DeliveryIssueKind, DispatchType, Label, LabelDraft, LabelType, OpenLink, Reminder,
    ReminderDraft, ReminderStatus, Sendout, SendoutDelivery, SendoutDraft, SendoutLogic, SendoutStatus, Transition,
    BACKGROUND_FUNCTION,
};
use canvass_domain::ids::{AccountId, BgDocumentId, LabelId, ReminderId, SendoutId, SurveyId};
use canvass_domain::language::Language;
use canvass_domain::ports::{RepoResult, SendoutRepository};
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Jsonb, Text, Timestamptz};
use time::OffsetDateTime;

use crate::error::OrRepoError;
use crate::named::Named;
use crate::schema::{bg_documents, bg_labels, login_sendouts, reminders, respondents, sendouts, surveys};
use crate::PgUnitOfWork;

#[derive(Queryable, Selectable)]
#[diesel(table_name = sendouts)]
struct SendoutRow {
    id: i64,
    survey_id: i64,
    name: String,
    dispatch_type: Named<DispatchType>,
    status: Named<SendoutStatus>,
    send_date: Option<OffsetDateTime>,
    sender: Option<String>,
    subject: Option<String>,
    message: Option<String>,
    expiry_date: Option<OffsetDateTime>,
    created_at: OffsetDateTime,
    activated_at: Option<OffsetDateTime>,
    respondent_count: i64,
    pending_count: i64,
    delivery_issue_kind: Option<String>,
    delivery_issue_reply: Option<String>,
    delivery_issue_since: Option<OffsetDateTime>,
    language: Named<Language>,
    open_link_handle: Option<String>,
    max_responses: Option<i64>,
    one_response_per_browser: Option<bool>,
    messages: serde_json::Value,
}

impl SendoutRow {
    fn into_sendout(self) -> Sendout {
        Sendout {
            kind: self.dispatch_type.0,
            status: self.status.0,
            id: SendoutId::new(self.id),
            survey_id: SurveyId::new(self.survey_id),
            name: self.name,
            send_date: self.send_date,
            sender: self.sender,
            subject: self.subject,
            message: self.message,
            messages: super::localized::from_json(self.messages),
            expiry_date: self.expiry_date,
            created_at: self.created_at,
            activated_at: self.activated_at,
            respondent_count: self.respondent_count,
            pending_count: self.pending_count,
            delivery: SendoutDelivery::default(),
            delivery_issue: match (self.delivery_issue_kind, self.delivery_issue_reply, self.delivery_issue_since) {
                (Some(kind), reply, Some(since)) => kind.parse().ok().map(|kind: DeliveryIssueKind| DeliveryIssue {
                    kind,
                    reply: reply.unwrap_or_default(),
                    since,
                }),
                _ => None,
            },
            language: self.language.0,
            open_link: self.open_link_handle.map(|handle| OpenLink {
                handle,
                max_responses: self.max_responses,
                one_response_per_browser: self.one_response_per_browser.unwrap_or(true),
            }),
        }
    }
}

#[derive(Queryable, Selectable)]
#[diesel(table_name = bg_labels)]
struct LabelRow {
    id: i64,
    sendout_id: i64,
    name: String,
    label_type: Named<LabelType>,
    function: i16,
}

impl From<LabelRow> for Label {
    fn from(row: LabelRow) -> Self {
        Self {
            label_type: row.label_type.0,
            id: LabelId::new(row.id),
            sendout_id: SendoutId::new(row.sendout_id),
            name: row.name,
            function: row.function,
        }
    }
}

#[derive(Queryable, Selectable)]
#[diesel(table_name = reminders)]
struct ReminderRow {
    id: i64,
    sendout_id: i64,
    sendout_logic: Named<SendoutLogic>,
    send_date: OffsetDateTime,
    sender: String,
    subject: Option<String>,
    message: String,
    status: Named<ReminderStatus>,
    created_at: OffsetDateTime,
    messages: serde_json::Value,
}

impl From<ReminderRow> for Reminder {
    fn from(row: ReminderRow) -> Self {
        Self {
            sendout_logic: row.sendout_logic.0,
            id: ReminderId::new(row.id),
            sendout_id: SendoutId::new(row.sendout_id),
            send_date: row.send_date,
            sender: row.sender,
            subject: row.subject,
            message: row.message,
            messages: super::localized::from_json(row.messages),
            status: row.status.0,
            created_at: row.created_at,
        }
    }
}

impl PgUnitOfWork<'_> {
    /// Copies the labels of sendout `from` to sendout `to` in two statements, whatever their number (the labels
    /// are read, then copied), and answers the map from each old label id to its copy's as a jsonb object of id
    /// strings (`{"12": "34"}`), the shape of background data keys. Labels are matched by name, unique within a
    /// sendout.
    fn copy_labels(&mut self, account: i64, from: i64, to: i64, now: OffsetDateTime) -> QueryResult<serde_json::Value> {
        #[derive(QueryableByName)]
        struct Copied {
            #[diesel(sql_type = BigInt)]
            id: i64,
            #[diesel(sql_type = Text)]
            name: String,
        }
        let originals: Vec<(i64, String)> = bg_labels::table
            .filter(bg_labels::account_id.eq(account).and(bg_labels::sendout_id.eq(from)))
            .order(bg_labels::id)
            .select((bg_labels::id, bg_labels::name))
            .load(self.conn)?;
        // Exactly the labels read are copied, so a label added meanwhile cannot miss the map.
        let ids: Vec<i64> = originals.iter().map(|(id, _)| *id).collect();
        let copied: Vec<Copied> = diesel::sql_query(
            "INSERT INTO bg_labels (account_id, sendout_id, name, label_type, function, created_at) \
             SELECT account_id, $3, name, label_type, function, $4 FROM bg_labels \
             WHERE account_id = $1 AND sendout_id = $2 AND id = ANY ($5) ORDER BY id RETURNING id, name",
        )
        .bind::<BigInt, _>(account)
        .bind::<BigInt, _>(from)
        .bind::<BigInt, _>(to)
        .bind::<Timestamptz, _>(now)
        .bind::<Array<BigInt>, _>(&ids)
        .load(self.conn)?;
        let copies: HashMap<&str, i64> = copied.iter().map(|label| (label.name.as_str(), label.id)).collect();
        let map: serde_json::Map<String, serde_json::Value> = originals
            .iter()
            .filter_map(|(old, name)| copies.get(name.as_str()).map(|new| (old.to_string(), new.to_string().into())))
            .collect();
        Ok(serde_json::Value::Object(map))
    }

    /// Maps a new LOGIN sendout to its account in `login_sendouts`, so that its login page finds the account
    /// before it reads the respondent (docs/scaling.md, "Public handles").
    fn map_login_sendout(&mut self, account: i64, sendout: i64) -> QueryResult<usize> {
        diesel::insert_into(login_sendouts::table)
            .values((login_sendouts::sendout_id.eq(sendout), login_sendouts::account_id.eq(account)))
            .execute(self.conn)
    }

    fn copy_sendout(&mut self, account: i64, from: i64, to: i64, id: i64, now: OffsetDateTime) -> QueryResult<()> {
        #[derive(QueryableByName)]
        struct NewId {
            #[diesel(sql_type = BigInt)]
            id: i64,
            #[diesel(sql_type = Text)]
            dispatch_type: String,
        }
        // A LINK sendout's copy gets a handle of its own (drawn for every copy, used by LINK ones only).
        let copy: NewId = diesel::sql_query(
            "INSERT INTO sendouts (account_id, survey_id, name, dispatch_type, status, send_date, sender, subject, \
                 message, expiry_date, language, created_at, open_link_handle, max_responses, \
                 one_response_per_browser, messages) \
             SELECT account_id, $2, name, dispatch_type, 'Draft', send_date, sender, subject, message, expiry_date, \
                 language, $4, CASE WHEN open_link_handle IS NULL THEN NULL ELSE $6 END, max_responses, \
                 one_response_per_browser, messages \
             FROM sendouts WHERE account_id = $1 AND id = $3 AND survey_id = $5 RETURNING id, dispatch_type",
        )
        .bind::<BigInt, _>(account)
        .bind::<BigInt, _>(to)
        .bind::<BigInt, _>(id)
        .bind::<Timestamptz, _>(now)
        .bind::<BigInt, _>(from)
        .bind::<Text, _>(new_survey_link_token(AccountId::new(account)))
        .get_result(self.conn)?;
        diesel::insert_into(bg_documents::table)
            .values((bg_documents::account_id.eq(account), bg_documents::sendout_id.eq(copy.id)))
            .execute(self.conn)?;
        if copy.dispatch_type == DispatchType::Login.as_str() {
            self.map_login_sendout(account, copy.id)?;
        }
        // Every copied respondent gets a link token of the domain's one generator, as added respondents do.
        let originals: Vec<i64> = respondents::table
            .filter(respondents::account_id.eq(account).and(respondents::sendout_id.eq(id)))
            .order(respondents::id)
            .select(respondents::id)
            .load(self.conn)?;
        let tokens: Vec<String> = originals.iter().map(|_| new_survey_link_token(AccountId::new(account))).collect();
        let label_map = self.copy_labels(account, id, copy.id, now)?;
        // The respondents' background data keys are mapped from the old label ids to the new ones by one jsonb
        // object looked up with `->>` (no join inside the subquery: Citus cannot plan `jsonb_each` joined to a
        // CTE there). Keys of other sendouts' labels stay. Contacts on the blocklist are copied as Blocklisted, so
        // an activation never releases them; the blocklist joins the respondent on `account_id`, the distribution
        // column, as well as naming the account: Citus pushes an INSERT ... SELECT down only when its tables are
        // joined on it ("complex joins are only supported when ... joined on their distribution columns").
        // The copy's counts are those of the rows inserted.
        diesel::sql_query(
            "WITH inserted AS ( \
                 INSERT INTO respondents (account_id, sendout_id, contact_details, contact_key, send_mail, \
                     background_data, status, token, added_at) \
                 SELECT r.account_id, $3, r.contact_details, r.contact_key, r.send_mail, \
                     (SELECT coalesce(jsonb_object_agg(coalesce($7 ->> cell.key, cell.key), cell.value), '{}'::jsonb) \
                      FROM jsonb_each(r.background_data) AS cell), \
                     CASE WHEN EXISTS (SELECT 1 FROM blocklist b WHERE b.account_id = $1 \
                         AND b.account_id = r.account_id AND b.contact_key = r.contact_key) THEN 'Blocklisted' ELSE 'Pending' END, \
                     fresh.token, $4 \
                 FROM respondents r JOIN unnest($5::bigint[], $6::text[]) AS fresh (id, token) ON fresh.id = r.id \
                 WHERE r.account_id = $1 AND r.sendout_id = $2 ORDER BY r.id RETURNING status) \
             UPDATE sendouts SET respondent_count = respondent_count + (SELECT count(*) FROM inserted), \
                 pending_count = pending_count + (SELECT count(*) FROM inserted WHERE status = 'Pending') \
             WHERE account_id = $1 AND id = $3",
        )
        .bind::<BigInt, _>(account)
        .bind::<BigInt, _>(id)
        .bind::<BigInt, _>(copy.id)
        .bind::<Timestamptz, _>(now)
        .bind::<Array<BigInt>, _>(&originals)
        .bind::<Array<Text>, _>(&tokens)
        .bind::<Jsonb, _>(&label_map)
        .execute(self.conn)?;
        Ok(())
    }
}

impl SendoutRepository for PgUnitOfWork<'_> {
    fn insert_sendout(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        draft: &SendoutDraft,
        now: OffsetDateTime,
    ) -> RepoResult<Sendout> {
        let row: SendoutRow = diesel::insert_into(sendouts::table)
            .values((
                sendouts::account_id.eq(account.get()),
                sendouts::survey_id.eq(survey.get()),
                sendouts::name.eq(draft.name()),
                sendouts::dispatch_type.eq(draft.kind().as_str()),
                sendouts::status.eq(SendoutStatus::Draft.as_str()),
                sendouts::send_date.eq(draft.send_date()),
                sendouts::sender.eq(draft.sender()),
                sendouts::subject.eq(draft.subject()),
                sendouts::message.eq(draft.message()),
                sendouts::messages.eq(super::localized::to_json(draft.messages())),
                sendouts::expiry_date.eq(draft.expiry_date()),
                sendouts::language.eq(draft.language().code()),
                sendouts::created_at.eq(now),
                sendouts::open_link_handle.eq(draft.open_link().map(|rules| rules.handle(account))),
                sendouts::max_responses.eq(draft.open_link().and_then(|rules| rules.max_responses)),
                sendouts::one_response_per_browser.eq(draft.open_link().map(|rules| rules.one_response_per_browser)),
            ))
            .returning(SendoutRow::as_returning())
            .get_result(self.conn)
            .or_repo()?;
        diesel::insert_into(bg_documents::table)
            .values((bg_documents::account_id.eq(account.get()), bg_documents::sendout_id.eq(row.id)))
            .execute(self.conn)
            .or_repo()?;
        if draft.kind() == DispatchType::Login {
            self.map_login_sendout(account.get(), row.id).or_repo()?;
        }
        Ok(row.into_sendout())
    }

    fn list_sendouts(&mut self, account: AccountId, survey: SurveyId) -> RepoResult<Option<Vec<Sendout>>> {
        // The survey left-joined to its sendouts: no row when there is no such survey, one row without a sendout
        // when it has none.
        let rows: Vec<Option<SendoutRow>> = surveys::table
            .left_join(
                sendouts::table
                    .on(sendouts::account_id.eq(surveys::account_id).and(sendouts::survey_id.eq(surveys::id))),
            )
            .filter(surveys::account_id.eq(account.get()).and(surveys::id.eq(survey.get())))
            .order(sendouts::id)
            .select(Option::<SendoutRow>::as_select())
            .load(self.conn)
            .or_repo()?;
        if rows.is_empty() {
            return Ok(None);
        }
        let mut sendouts: Vec<Sendout> = rows.into_iter().flatten().map(SendoutRow::into_sendout).collect();
        crate::delivery::sendout_delivery::fill(self.conn, account, &mut sendouts).or_repo()?;
        Ok(Some(sendouts))
    }

    fn find_sendout(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        id: SendoutId,
        lock: bool,
    ) -> RepoResult<Option<Sendout>> {
        let query = sendouts::table
            .filter(
                sendouts::account_id
                    .eq(account.get())
                    .and(sendouts::survey_id.eq(survey.get()))
                    .and(sendouts::id.eq(id.get())),
            )
            .select(SendoutRow::as_select());
        if lock {
            let row: Option<SendoutRow> = query.for_update().first(self.conn).optional().or_repo()?;
            return Ok(row.map(SendoutRow::into_sendout));
        }
        let row: Option<SendoutRow> = query.first(self.conn).optional().or_repo()?;
        let mut sendouts: Vec<Sendout> = row.into_iter().map(SendoutRow::into_sendout).collect();
        crate::delivery::sendout_delivery::fill(self.conn, account, &mut sendouts).or_repo()?;
        Ok(sendouts.pop())
    }

    fn sendout_kind(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        id: SendoutId,
    ) -> RepoResult<Option<DispatchType>> {
        let this = sendouts::account_id
            .eq(account.get())
            .and(sendouts::survey_id.eq(survey.get()))
            .and(sendouts::id.eq(id.get()));
        let kind: Option<Named<DispatchType>> =
            sendouts::table.filter(this).select(sendouts::dispatch_type).first(self.conn).optional().or_repo()?;
        Ok(kind.map(|kind| kind.0))
    }

    fn apply_transition(
        &mut self,
        account: AccountId,
        id: SendoutId,
        transition: Transition,
        now: OffsetDateTime,
    ) -> RepoResult<()> {
        let this = sendouts::account_id.eq(account.get()).and(sendouts::id.eq(id.get()));
        if transition.to() == SendoutStatus::Active {
            diesel::update(sendouts::table.filter(this))
                .set((sendouts::status.eq(transition.to().as_str()), sendouts::activated_at.eq(now)))
                .execute(self.conn)
                .or_repo()?;
        } else {
            diesel::update(sendouts::table.filter(this))
                .set(sendouts::status.eq(transition.to().as_str()))
                .execute(self.conn)
                .or_repo()?;
        }
        Ok(())
    }

    fn replace_open_link_handle(&mut self, account: AccountId, id: SendoutId, handle: &str) -> RepoResult<()> {
        diesel::update(sendouts::table)
            .filter(sendouts::account_id.eq(account.get()).and(sendouts::id.eq(id.get())))
            .filter(sendouts::open_link_handle.is_not_null())
            .set(sendouts::open_link_handle.eq(handle))
            .execute(self.conn)
            .or_repo()?;
        Ok(())
    }

    fn copy_sendouts(
        &mut self,
        account: AccountId,
        from: SurveyId,
        to: SurveyId,
        ids: &[SendoutId],
        now: OffsetDateTime,
    ) -> RepoResult<()> {
        for id in ids {
            self.copy_sendout(account.get(), from.get(), to.get(), id.get(), now).or_repo()?;
        }
        Ok(())
    }

    fn insert_label(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        draft: &LabelDraft,
        now: OffsetDateTime,
    ) -> RepoResult<Label> {
        diesel::insert_into(bg_labels::table)
            .values((
                bg_labels::account_id.eq(account.get()),
                bg_labels::sendout_id.eq(sendout.get()),
                bg_labels::name.eq(draft.name()),
                bg_labels::label_type.eq(draft.label_type().as_str()),
                bg_labels::function.eq(BACKGROUND_FUNCTION),
                bg_labels::created_at.eq(now),
            ))
            .returning(LabelRow::as_returning())
            .get_result::<LabelRow>(self.conn)
            .map(Label::from)
            .or_repo()
    }

    fn list_labels(&mut self, account: AccountId, sendout: SendoutId) -> RepoResult<Vec<Label>> {
        let rows: Vec<LabelRow> = bg_labels::table
            .filter(bg_labels::account_id.eq(account.get()).and(bg_labels::sendout_id.eq(sendout.get())))
            .order(bg_labels::id)
            .select(LabelRow::as_select())
            .load(self.conn)
            .or_repo()?;
        Ok(rows.into_iter().map(Label::from).collect())
    }

    fn background_label_ids(&mut self, account: AccountId) -> RepoResult<Vec<LabelId>> {
        let ids: Vec<i64> = bg_labels::table
            .filter(bg_labels::account_id.eq(account.get()).and(bg_labels::function.eq(BACKGROUND_FUNCTION)))
            .select(bg_labels::id)
            .load(self.conn)
            .or_repo()?;
        Ok(ids.into_iter().map(LabelId::new).collect())
    }

    fn insert_reminder(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        draft: &ReminderDraft,
        now: OffsetDateTime,
    ) -> RepoResult<Reminder> {
        diesel::insert_into(reminders::table)
            .values((
                reminders::account_id.eq(account.get()),
                reminders::sendout_id.eq(sendout.get()),
                reminders::sendout_logic.eq(draft.sendout_logic().as_str()),
                reminders::send_date.eq(draft.send_date()),
                reminders::sender.eq(draft.sender()),
                reminders::subject.eq(draft.subject()),
                reminders::message.eq(draft.message()),
                reminders::messages.eq(super::localized::to_json(draft.messages())),
                reminders::status.eq(ReminderStatus::Scheduled.as_str()),
                reminders::created_at.eq(now),
            ))
            .returning(ReminderRow::as_returning())
            .get_result::<ReminderRow>(self.conn)
            .map(Reminder::from)
            .or_repo()
    }

    fn list_reminders(&mut self, account: AccountId, sendout: SendoutId) -> RepoResult<Vec<Reminder>> {
        let rows: Vec<ReminderRow> = reminders::table
            .filter(reminders::account_id.eq(account.get()).and(reminders::sendout_id.eq(sendout.get())))
            .order(reminders::id)
            .select(ReminderRow::as_select())
            .load(self.conn)
            .or_repo()?;
        Ok(rows.into_iter().map(Reminder::from).collect())
    }

    fn list_documents(&mut self, account: AccountId) -> RepoResult<Vec<BgDocument>> {
        self.documents(account, None)
    }

    fn find_document(&mut self, account: AccountId, id: BgDocumentId) -> RepoResult<Option<BgDocument>> {
        Ok(self.documents(account, Some(id))?.pop())
    }
}

impl PgUnitOfWork<'_> {
    fn documents(&mut self, account: AccountId, only: Option<BgDocumentId>) -> RepoResult<Vec<BgDocument>> {
        let mut query = bg_documents::table
            .inner_join(
                sendouts::table.on(sendouts::account_id
                    .eq(bg_documents::account_id)
                    .and(sendouts::id.eq(bg_documents::sendout_id))),
            )
            .filter(bg_documents::account_id.eq(account.get()))
            .order(bg_documents::id)
            .select((bg_documents::id, sendouts::id, sendouts::survey_id, sendouts::name, sendouts::respondent_count))
            .into_boxed();
        if let Some(id) = only {
            query = query.filter(bg_documents::id.eq(id.get()));
        }
        let rows: Vec<(i64, i64, i64, String, i64)> = query.load(self.conn).or_repo()?;
        Ok(rows
            .into_iter()
            .map(|(id, sendout_id, survey_id, name, row_count)| BgDocument {
                id: BgDocumentId::new(id),
                sendout_id: SendoutId::new(sendout_id),
                survey_id: SurveyId::new(survey_id),
                name,
                row_count,
            })
            .collect())
    }
}
