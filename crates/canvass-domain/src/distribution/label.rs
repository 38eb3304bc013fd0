//! Background data labels and documents.

use crate::error::FieldError;
use crate::ids::{BgDocumentId, LabelId, SendoutId, SurveyId};

/// The function of labels made through a sendout: background data.
pub const BACKGROUND_FUNCTION: i16 = 0;

/// What a label's values are. Its name (`Text`, ...) is what the store keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::EnumString, strum::IntoStaticStr, strum::VariantArray)]
pub enum LabelType {
    /// Free text.
    Text,
    /// A number.
    Number,
    /// A date.
    Date,
    /// An email address.
    Email,
    /// A phone number.
    Phone,
}

impl LabelType {
    /// The type's name.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// A stored label.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    /// The label's id.
    pub id: LabelId,
    /// The sendout it was made through.
    pub sendout_id: SendoutId,
    /// Its name, unique within the sendout.
    pub name: String,
    /// What its values are.
    pub label_type: LabelType,
    /// Its function; 0 is background data.
    pub function: i16,
}

/// A checked new label. Made only by [`LabelDraft::new`], read through its accessors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabelDraft {
    name: String,
    label_type: LabelType,
}

impl LabelDraft {
    /// Checks the name.
    ///
    /// ```
    /// use canvass_domain::distribution::{LabelDraft, LabelType};
    ///
    /// assert!(LabelDraft::new(" Department ", LabelType::Text).is_ok());
    /// assert!(LabelDraft::new("", LabelType::Text).is_err());
    /// assert!(LabelDraft::new(&format!("{}x", " ".repeat(200)), LabelType::Text).is_err(), "201 characters as sent");
    /// ```
    pub fn new(name: &str, label_type: LabelType) -> Result<Self, FieldError> {
        let name = crate::limits::check_name("name", name, crate::limits::SHORT_NAME)?;
        Ok(Self { name: name.to_owned(), label_type })
    }

    /// Non-empty name, trimmed, at most 200 characters.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its type.
    pub fn label_type(&self) -> LabelType {
        self.label_type
    }
}

/// The background data document of a sendout: its labels are the sendout's, its rows the sendout's respondents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BgDocument {
    /// The document's id.
    pub id: BgDocumentId,
    /// Its sendout.
    pub sendout_id: SendoutId,
    /// The sendout's survey.
    pub survey_id: SurveyId,
    /// The sendout's name.
    pub name: String,
    /// How many rows (respondents) it has.
    pub row_count: i64,
}
