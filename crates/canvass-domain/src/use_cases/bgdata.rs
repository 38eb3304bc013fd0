//! Background data documents: one per sendout; rows are its respondents, cells their background data.

use std::collections::HashSet;

use crate::clock::Clock;
use crate::distribution::{check_background_data, BackgroundData, BgDocument, Label, NewRespondent, RespondentInput};
use crate::error::{DomainError, FieldError, Resource};
use crate::ids::{AccountId, BgDocumentId, LabelId, RespondentId};
use crate::ports::{
    transaction, BlocklistRepository, RespondentRepository, SendoutRepository, SurveyRepository, Transactional,
};

use super::respondents;

/// A row of a document: a respondent and its cells.
#[derive(Clone, PartialEq, Eq)]
pub struct Row {
    /// The respondent.
    pub respondent_id: RespondentId,
    /// Label id to value.
    pub cells: BackgroundData,
}

/// The account's documents.
pub fn list(uow: &mut (impl SendoutRepository + ?Sized), account: AccountId) -> Result<Vec<BgDocument>, DomainError> {
    Ok(uow.list_documents(account)?)
}

/// One document.
pub fn get(
    uow: &mut (impl SendoutRepository + ?Sized),
    account: AccountId,
    id: BgDocumentId,
) -> Result<BgDocument, DomainError> {
    uow.find_document(account, id)?.ok_or(DomainError::NotFound(Resource::BackgroundDataDocument))
}

/// The document's labels: its sendout's labels.
pub fn labels(
    uow: &mut (impl SendoutRepository + ?Sized),
    account: AccountId,
    id: BgDocumentId,
) -> Result<Vec<Label>, DomainError> {
    let document = get(uow, account, id)?;
    Ok(uow.list_labels(account, document.sendout_id)?)
}

/// The document and the ids of its labels.
fn with_label_ids(
    uow: &mut (impl SendoutRepository + ?Sized),
    account: AccountId,
    id: BgDocumentId,
) -> Result<(BgDocument, HashSet<LabelId>), DomainError> {
    let document = get(uow, account, id)?;
    let labels = uow.list_labels(account, document.sendout_id)?.into_iter().map(|l| l.id).collect();
    Ok((document, labels))
}

/// Field errors for requested label ids that are not labels of the document.
fn unknown_labels(requested: &[LabelId], labels: &HashSet<LabelId>) -> Vec<FieldError> {
    requested
        .iter()
        .enumerate()
        .filter(|(_, label)| !labels.contains(label))
        .map(|(index, label)| {
            FieldError::new(format!("labels[{index}]"), format!("{label} is not a label of this document"))
        })
        .collect()
}

/// The requested cells of a row; labels without a value are left out.
pub fn read_row(
    uow: &mut (impl RespondentRepository + SendoutRepository + ?Sized),
    account: AccountId,
    id: BgDocumentId,
    respondent: RespondentId,
    requested: &[LabelId],
) -> Result<Row, DomainError> {
    let (document, labels) = with_label_ids(uow, account, id)?;
    DomainError::check(unknown_labels(requested, &labels))?;
    let found = uow
        .find_respondent(account, document.sendout_id, respondent)?
        .ok_or(DomainError::NotFound(Resource::BackgroundDataRow))?;
    let cells = found.background_data.into_iter().filter(|(label, _)| requested.contains(label)).collect();
    Ok(Row { respondent_id: respondent, cells })
}

/// Edits the given cells of a row, or adds them; answers the whole row.
pub fn edit_row(
    uow: &mut (impl RespondentRepository + SendoutRepository + Transactional + ?Sized),
    account: AccountId,
    id: BgDocumentId,
    respondent: RespondentId,
    cells: BackgroundData,
) -> Result<Row, DomainError> {
    transaction(uow, |tx| {
        let (document, labels) = with_label_ids(tx, account, id)?;
        DomainError::check(check_background_data(&cells, &labels, "cellData"))?;
        let cells = tx
            .update_background_data(account, document.sendout_id, respondent, &cells, &[])?
            .ok_or(DomainError::NotFound(Resource::BackgroundDataRow))?;
        Ok(Row { respondent_id: respondent, cells })
    })
}

/// Deletes the given cells of a row; answers what is left of it.
pub fn delete_cells(
    uow: &mut (impl RespondentRepository + SendoutRepository + Transactional + ?Sized),
    account: AccountId,
    id: BgDocumentId,
    respondent: RespondentId,
    requested: &[LabelId],
) -> Result<Row, DomainError> {
    transaction(uow, |tx| {
        let (document, labels) = with_label_ids(tx, account, id)?;
        DomainError::check(unknown_labels(requested, &labels))?;
        let cells = tx
            .update_background_data(account, document.sendout_id, respondent, &BackgroundData::new(), requested)?
            .ok_or(DomainError::NotFound(Resource::BackgroundDataRow))?;
        Ok(Row { respondent_id: respondent, cells })
    })
}

/// Adds a row: a new Pending respondent of the document's sendout (the service sends its link), with cells.
pub fn add_row(
    uow: &mut (impl BlocklistRepository
              + RespondentRepository
              + SendoutRepository
              + SurveyRepository
              + Transactional
              + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    id: BgDocumentId,
    contact_details: String,
    cells: BackgroundData,
    language: Option<crate::language::Language>,
) -> Result<Row, DomainError> {
    transaction(uow, |tx| {
        let (document, labels) = with_label_ids(tx, account, id)?;
        let survey = document.survey_id;
        let sendout = super::sendouts::get(tx, account, survey, document.sendout_id)?;
        let kind = respondents::refuse_link(sendout.kind)?;
        let input = RespondentInput { contact_details, send_mail: true, background_data: cells, language };
        let checked = NewRespondent::check(account, input, kind, &labels, "").map_err(|errors| {
            DomainError::Invalid(
                errors
                    .into_iter()
                    .map(|e| FieldError::new(e.field.replace("backgroundData", "cellData"), e.message))
                    .collect(),
            )
        })?;
        let added = respondents::add_checked(tx, clock, account, sendout.id, checked)?;
        Ok(Row { respondent_id: added.id, cells: added.background_data })
    })
}

crate::debug_without_personal_data!(Row { respondent_id });
