//! Why a value does not fit its item: one reason per broken rule, so that the API can word it for programs and
//! the respondent pages for people, in the respondent's language.

use std::fmt;

use crate::survey::{Finite, QuestionType};

/// A value that does not fit its item's type, options or limits. `Display` gives the API's wording.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ValueProblem {
    /// An Info item was answered.
    InfoTakesNoAnswer,
    /// An open text is longer than `max` characters.
    TooLong {
        /// The limit.
        max: usize,
    },
    /// A single choice is not one of the item's option values.
    NotAnOption,
    /// One of a multiple choice's values (shortened to 100 characters) is not an option value.
    NotAnOptionValue(String),
    /// A multiple choice has more values than the item has options.
    TooManyChoices {
        /// Values chosen.
        chosen: usize,
        /// Options of the item.
        options: usize,
    },
    /// A value (shortened to 100 characters) is chosen twice.
    ChosenTwice(String),
    /// A rating is not a whole number of the scale.
    OffTheScale,
    /// A text was expected.
    NotAString,
    /// A list of option values was expected.
    NotOptionValues,
    /// A number was expected.
    NotANumber,
    /// A form sent several values for an item that takes one.
    OneValue,
    /// A number below the item's `min`.
    BelowMin(Finite),
    /// A number above the item's `max`.
    AboveMax(Finite),
    /// A number with a fraction where the item takes whole numbers.
    NotWhole,
    /// A text shorter than the item's `minLength`.
    TooShort {
        /// The fewest characters.
        min: u32,
    },
    /// A line break in the answer to a one-line item.
    LineBreak,
    /// A text that is not an email address.
    NotAnEmail,
    /// A text that is not an E.164 phone number.
    NotAPhone,
    /// A text that the item's pattern does not match whole.
    NoMatch,
    /// Fewer values chosen than the item's `minSelected`.
    TooFewChosen {
        /// The fewest values.
        min: u32,
    },
    /// A Date answer that is not a `YYYY-MM-DD` date.
    NotADate,
    /// A date before the item's `minDate`.
    BeforeMinDate(time::Date),
    /// A date after the item's `maxDate`.
    AfterMaxDate(time::Date),
    /// A Matrix answer that is not an object of rows.
    NotRows,
    /// A Matrix row (shortened to 100 characters) that is not one of the item's rows.
    NotARow(String),
    /// A required Matrix answered with some rows left out.
    EveryRow,
    /// A Ranking that leaves options out (or, on a page, leaves places empty).
    RankEveryOption,
    /// A place of a Ranking given to two options on a page.
    PlaceTwice,
    /// More values chosen than the item's `maxSelected`.
    TooManyChosen {
        /// The most values.
        max: u32,
    },
}

impl fmt::Display for ValueProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InfoTakesNoAnswer => f.write_str("an Info item takes no answer"),
            Self::TooLong { max } => write!(f, "must be at most {max} characters"),
            Self::NotAnOption => f.write_str("is not an option value of the item"),
            Self::NotAnOptionValue(value) => write!(f, "`{value}` is not an option value of the item"),
            Self::TooManyChoices { chosen, options } => {
                write!(f, "chooses {chosen} values; the item has {options} options, each of which can be chosen once")
            }
            Self::ChosenTwice(value) => write!(f, "`{value}` is chosen twice"),
            Self::OffTheScale => {
                write!(f, "must be a whole number from {} to {}", QuestionType::RATING_MIN, QuestionType::RATING_MAX)
            }
            Self::NotAString => f.write_str("must be a string"),
            Self::NotOptionValues => f.write_str("must be an array of option values"),
            Self::NotANumber => f.write_str("must be a number"),
            Self::OneValue => f.write_str("takes one value"),
            Self::BelowMin(min) => write!(f, "must be at least {}", min.get()),
            Self::AboveMax(max) => write!(f, "must be at most {}", max.get()),
            Self::NotWhole => f.write_str("must be a whole number"),
            Self::TooShort { min } => write!(f, "must be at least {min} characters"),
            Self::LineBreak => f.write_str("must be one line: the item takes no line breaks"),
            Self::NotAnEmail => f.write_str("must be an email address"),
            Self::NotAPhone => f.write_str("must be a phone number in E.164 form, such as +4790000001"),
            Self::NoMatch => f.write_str("does not match the item's pattern"),
            Self::TooFewChosen { min } => write!(f, "must choose at least {min} values"),
            Self::TooManyChosen { max } => write!(f, "must choose at most {max} values"),
            Self::NotADate => f.write_str("must be a date as YYYY-MM-DD"),
            Self::BeforeMinDate(min) => write!(f, "must be on or after {min}"),
            Self::AfterMaxDate(max) => write!(f, "must be on or before {max}"),
            Self::NotRows => f.write_str("must be an object of row values to option values"),
            Self::NotARow(row) => write!(f, "`{row}` is not a row value of the item"),
            Self::EveryRow => f.write_str("must answer every row of a required Matrix"),
            Self::RankEveryOption => f.write_str("must rank every option value of the item, each once"),
            Self::PlaceTwice => f.write_str("gives one place to two options"),
        }
    }
}
