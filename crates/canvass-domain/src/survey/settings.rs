//! What an item holds beyond its text and options: the rows of a Matrix, the bounds of a Date, and the checks
//! answers to it must pass (the answer validation of Numeric, OpenText and MultipleChoice items).

use time::Date;

use crate::answer::{AnswerValue, ValueProblem};
use crate::error::FieldError;

use super::question::{ChoiceOption, QuestionType};

/// A finite number, as an item's `min` and `max` are; equal to another when their values are.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Finite(f64);

impl Finite {
    /// The number, when it is finite.
    pub fn new(value: f64) -> Option<Self> {
        value.is_finite().then_some(Self(value))
    }

    /// Its value.
    pub const fn get(self) -> f64 {
        self.0
    }
}

impl Eq for Finite {}

/// The form an OpenText answer must have. Its names (`email`, ...) are what clients send and the store keeps.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    strum::Display,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[strum(serialize_all = "lowercase")]
pub enum TextFormat {
    /// An email address.
    Email,
    /// A phone number in E.164 form (`+` and 8 to 15 digits).
    Phone,
    /// The item's `pattern`, a regular expression in the `regex` crate's syntax, matched by the whole answer.
    Pattern,
}

impl TextFormat {
    /// The name clients send as `format`.
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// The longest `pattern` in characters.
pub const PATTERN_LEN: usize = 200;
/// The most memory a compiled `pattern` may take.
pub const PATTERN_SIZE: usize = 1 << 20;
/// The highest `maxLength` of an OpenText item.
pub const MAX_LENGTH: u32 = 10_000;
/// The most rows of a Matrix.
pub const MATRIX_ROWS: usize = 50;

/// The settings of an item that only some types take; each is empty (or its default) on the types that do not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemSettings {
    /// The rows of a Matrix, which share its options.
    pub rows: Vec<ChoiceOption>,
    /// The lowest number a Numeric answer may be.
    pub min: Option<Finite>,
    /// The highest number a Numeric answer may be.
    pub max: Option<Finite>,
    /// Whether a Numeric answer must be a whole number.
    pub whole_number: bool,
    /// The fewest characters of an OpenText answer.
    pub min_length: Option<u32>,
    /// The most characters of an OpenText answer.
    pub max_length: Option<u32>,
    /// Whether an OpenText answer may hold line breaks (and is shown as a text area).
    pub multiline: bool,
    /// The form an OpenText answer must have.
    pub format: Option<TextFormat>,
    /// The regular expression of [`TextFormat::Pattern`] (and only of it).
    pub pattern: Option<String>,
    /// The fewest values a MultipleChoice answer chooses.
    pub min_selected: Option<u32>,
    /// The most values a MultipleChoice answer chooses.
    pub max_selected: Option<u32>,
    /// The earliest date a Date answer may be.
    pub min_date: Option<Date>,
    /// The latest date a Date answer may be.
    pub max_date: Option<Date>,
    /// When the item is shown: conditions on earlier items' answers and background data; always when none.
    pub display_when: Option<super::Conditions>,
    /// Whether a choice, Dropdown or Ranking item shows its options in an order drawn per respondent.
    pub randomize_options: bool,
    /// How many of the last options keep their place when the others are drawn ("Other", "Don't know").
    pub fixed_last: Option<u32>,
}

impl Default for ItemSettings {
    fn default() -> Self {
        Self {
            rows: Vec::new(),
            min: None,
            max: None,
            whole_number: false,
            min_length: None,
            max_length: None,
            multiline: true,
            format: None,
            pattern: None,
            min_selected: None,
            max_selected: None,
            min_date: None,
            max_date: None,
            display_when: None,
            randomize_options: false,
            fixed_last: None,
        }
    }
}

impl ItemSettings {
    /// The broken rules of these settings on an item of `kind` with `options`, with field paths under `path`.
    pub(crate) fn check(&self, kind: QuestionType, options: &[ChoiceOption], path: &str) -> Vec<FieldError> {
        let mut errors = Vec::new();
        let at = |name: &str| format!("{path}.{name}");
        let mut only = |present: bool, name: &str, types: &str, allowed: bool| {
            if present && !allowed {
                errors.push(FieldError::new(at(name), format!("only {types} items take {name}")));
            }
        };
        let numeric = kind == QuestionType::Numeric;
        let text = kind == QuestionType::OpenText;
        let multiple = kind == QuestionType::MultipleChoice;
        let date = kind == QuestionType::Date;
        only(!self.rows.is_empty(), "rows", "Matrix", kind == QuestionType::Matrix);
        only(self.min.is_some(), "min", "Numeric", numeric);
        only(self.max.is_some(), "max", "Numeric", numeric);
        only(self.whole_number, "wholeNumber", "Numeric", numeric);
        only(self.min_length.is_some(), "minLength", "OpenText", text);
        only(self.max_length.is_some(), "maxLength", "OpenText", text);
        only(!self.multiline, "multiline", "OpenText", text);
        only(self.format.is_some(), "format", "OpenText", text);
        only(self.min_selected.is_some(), "minSelected", "MultipleChoice", multiple);
        only(self.max_selected.is_some(), "maxSelected", "MultipleChoice", multiple);
        only(self.min_date.is_some(), "minDate", "Date", date);
        only(self.max_date.is_some(), "maxDate", "Date", date);
        let shuffles = kind.shuffles_options();
        only(self.randomize_options, "randomizeOptions", "choice, Dropdown and Ranking", shuffles);
        only(self.fixed_last.is_some(), "fixedLast", "choice, Dropdown and Ranking", shuffles);
        let mut order = |low: bool, name: &str, high: &str| {
            if low {
                errors.push(FieldError::new(at(name), format!("must not be above {high}")));
            }
        };
        order(matches!((self.min, self.max), (Some(l), Some(h)) if l > h), "min", "max");
        order(matches!((self.min_length, self.max_length), (Some(l), Some(h)) if l > h), "minLength", "maxLength");
        order(
            matches!((self.min_selected, self.max_selected), (Some(l), Some(h)) if l > h),
            "minSelected",
            "maxSelected",
        );
        order(matches!((self.min_date, self.max_date), (Some(l), Some(h)) if l > h), "minDate", "maxDate");
        if kind == QuestionType::Matrix {
            if self.rows.is_empty() || self.rows.len() > MATRIX_ROWS {
                errors.push(FieldError::new(at("rows"), format!("a Matrix takes 1 to {MATRIX_ROWS} rows")));
            } else {
                super::question::check_choices(&mut errors, &at("rows"), &self.rows);
            }
        }
        if self.max_length.is_some_and(|max| max > MAX_LENGTH) {
            errors.push(FieldError::new(at("maxLength"), format!("must be at most {MAX_LENGTH}")));
        }
        if self.max_length == Some(0) {
            errors.push(FieldError::new(at("maxLength"), "must be at least 1"));
        }
        for (name, count) in
            [("minSelected", self.min_selected), ("maxSelected", self.max_selected), ("fixedLast", self.fixed_last)]
        {
            if count.is_some_and(|count| count as usize > options.len()) {
                errors.push(FieldError::new(at(name), "must not be above the number of options"));
            }
        }
        match (self.format, &self.pattern) {
            (Some(TextFormat::Pattern), Some(pattern)) => {
                if let Err(message) = compile_pattern(pattern) {
                    errors.push(FieldError::new(at("pattern"), message));
                }
            }
            (Some(TextFormat::Pattern), None) => {
                errors.push(FieldError::new(at("pattern"), "is required when format is pattern"))
            }
            (_, Some(_)) => errors.push(FieldError::new(at("pattern"), "is taken only with format pattern")),
            (_, None) => {}
        }
        errors
    }
}

impl ItemSettings {
    /// Whether `value`, which fits its item's type, passes these checks; `pattern` is the item's compiled
    /// [`Self::pattern`] (compiled once per tree, [`crate::survey::QuestionTree::pattern`]). An empty answer (`""`,
    /// `[]`) to an item that is not `required` passes whatever the checks.
    pub(crate) fn check_answer(
        &self,
        value: &AnswerValue,
        kind: QuestionType,
        pattern: Option<&regex::Regex>,
    ) -> Result<(), ValueProblem> {
        match value {
            AnswerValue::Number(number) => self.check_number(*number),
            AnswerValue::Text(text) if kind == QuestionType::Date => self.check_date(text),
            AnswerValue::Text(text) => self.check_text(text, pattern),
            AnswerValue::Choices(chosen) => self.check_chosen(chosen.len()),
            AnswerValue::Rows(_) => Ok(()),
        }
    }

    fn check_date(&self, text: &str) -> Result<(), ValueProblem> {
        let Some(date) = crate::answer::parse_date(text) else { return Err(ValueProblem::NotADate) };
        match (self.min_date, self.max_date) {
            (Some(min), _) if date < min => Err(ValueProblem::BeforeMinDate(min)),
            (_, Some(max)) if date > max => Err(ValueProblem::AfterMaxDate(max)),
            _ => Ok(()),
        }
    }

    fn check_number(&self, number: f64) -> Result<(), ValueProblem> {
        match (self.min, self.max) {
            (Some(min), _) if number < min.get() => Err(ValueProblem::BelowMin(min)),
            (_, Some(max)) if number > max.get() => Err(ValueProblem::AboveMax(max)),
            _ if self.whole_number && number.fract() != 0.0 => Err(ValueProblem::NotWhole),
            _ => Ok(()),
        }
    }

    fn check_text(&self, text: &str, pattern: Option<&regex::Regex>) -> Result<(), ValueProblem> {
        use validator::ValidateEmail;
        let length = text.chars().count();
        if let Some(min) = self.min_length.filter(|&min| length < min as usize) {
            return Err(ValueProblem::TooShort { min });
        }
        if let Some(max) = self.max_length.filter(|&max| length > max as usize) {
            return Err(ValueProblem::TooLong { max: max as usize });
        }
        if !self.multiline && text.contains(['\n', '\r']) {
            return Err(ValueProblem::LineBreak);
        }
        match self.format {
            Some(TextFormat::Email) if !text.validate_email() => Err(ValueProblem::NotAnEmail),
            Some(TextFormat::Phone) if !crate::distribution::contact::is_e164(text) => Err(ValueProblem::NotAPhone),
            Some(TextFormat::Pattern) if !pattern.is_some_and(|pattern| pattern.is_match(text)) => {
                Err(ValueProblem::NoMatch)
            }
            _ => Ok(()),
        }
    }

    fn check_chosen(&self, count: usize) -> Result<(), ValueProblem> {
        match (self.min_selected, self.max_selected) {
            (Some(min), _) if count < min as usize => Err(ValueProblem::TooFewChosen { min }),
            (_, Some(max)) if count > max as usize => Err(ValueProblem::TooManyChosen { max }),
            _ => Ok(()),
        }
    }
}

/// The regular expression of a `pattern`, anchored so that it matches a whole answer; or why it cannot be one
/// (too long, not valid, or past 1 MiB compiled).
pub fn compile_pattern(pattern: &str) -> Result<regex::Regex, String> {
    if pattern.chars().count() > PATTERN_LEN {
        return Err(format!("must be at most {PATTERN_LEN} characters"));
    }
    if pattern.is_empty() {
        return Err("must not be empty".to_owned());
    }
    regex::RegexBuilder::new(&format!("^(?:{pattern})$")).size_limit(PATTERN_SIZE).build().map_err(
        |error| match error {
            regex::Error::CompiledTooBig(_) => "compiles past 1 MiB".to_owned(),
            _ => "is not a valid regular expression".to_owned(),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(settings: &ItemSettings, kind: QuestionType) -> Vec<String> {
        settings.check(kind, &[], "i").into_iter().map(|e| e.field).collect()
    }

    #[test]
    fn each_setting_belongs_to_its_types() {
        let numeric = ItemSettings { min: Finite::new(1.0), whole_number: true, ..Default::default() };
        assert!(fields(&numeric, QuestionType::Numeric).is_empty());
        assert_eq!(fields(&numeric, QuestionType::OpenText), ["i.min", "i.wholeNumber"]);
        let text = ItemSettings { multiline: false, format: Some(TextFormat::Email), ..Default::default() };
        assert!(fields(&text, QuestionType::OpenText).is_empty());
        assert_eq!(fields(&text, QuestionType::Rating), ["i.multiline", "i.format"]);
    }

    #[test]
    fn a_pattern_comes_with_the_pattern_format_only() {
        let pattern = |format, pattern: Option<&str>| ItemSettings {
            format,
            pattern: pattern.map(Into::into),
            ..Default::default()
        };
        assert!(fields(&pattern(Some(TextFormat::Pattern), Some("[0-9]+")), QuestionType::OpenText).is_empty());
        assert_eq!(fields(&pattern(Some(TextFormat::Pattern), None), QuestionType::OpenText), ["i.pattern"]);
        assert_eq!(fields(&pattern(Some(TextFormat::Email), Some("x")), QuestionType::OpenText), ["i.pattern"]);
        assert_eq!(fields(&pattern(Some(TextFormat::Pattern), Some("(")), QuestionType::OpenText), ["i.pattern"]);
    }

    #[test]
    fn lower_bounds_stay_below_upper_ones() {
        let bounds = ItemSettings { min: Finite::new(5.0), max: Finite::new(1.0), ..Default::default() };
        assert_eq!(fields(&bounds, QuestionType::Numeric), ["i.min"]);
        let lengths = ItemSettings { min_length: Some(3), max_length: Some(MAX_LENGTH + 1), ..Default::default() };
        assert_eq!(fields(&lengths, QuestionType::OpenText), ["i.maxLength"]);
    }

    #[test]
    fn selections_fit_the_options() {
        let options: Vec<_> =
            ["a", "b"].iter().map(|v| ChoiceOption { value: (*v).into(), label: (*v).into() }).collect();
        let settings = ItemSettings { min_selected: Some(1), max_selected: Some(3), ..Default::default() };
        let found: Vec<_> =
            settings.check(QuestionType::MultipleChoice, &options, "i").into_iter().map(|e| e.field).collect();
        assert_eq!(found, ["i.maxSelected"]);
    }

    fn check(settings: &ItemSettings, value: AnswerValue) -> Result<(), ValueProblem> {
        let pattern = settings.pattern.as_deref().map(|p| compile_pattern(p).unwrap());
        let kind = match value {
            AnswerValue::Number(_) => QuestionType::Numeric,
            AnswerValue::Choices(_) => QuestionType::MultipleChoice,
            _ => QuestionType::OpenText,
        };
        settings.check_answer(&value, kind, pattern.as_ref())
    }

    #[test]
    fn numbers_stay_within_their_bounds_and_whole_when_asked() {
        let age =
            ItemSettings { min: Finite::new(16.0), max: Finite::new(120.0), whole_number: true, ..Default::default() };
        assert_eq!(check(&age, AnswerValue::Number(16.0)), Ok(()));
        assert_eq!(check(&age, AnswerValue::Number(-3.0)), Err(ValueProblem::BelowMin(Finite::new(16.0).unwrap())));
        assert_eq!(check(&age, AnswerValue::Number(4000.0)), Err(ValueProblem::AboveMax(Finite::new(120.0).unwrap())));
        assert_eq!(check(&age, AnswerValue::Number(30.5)), Err(ValueProblem::NotWhole));
        assert_eq!(check(&ItemSettings::default(), AnswerValue::Number(30.5)), Ok(()));
    }

    #[test]
    fn texts_keep_their_length_lines_and_form() {
        let code = ItemSettings {
            min_length: Some(2),
            max_length: Some(6),
            multiline: false,
            format: Some(TextFormat::Pattern),
            pattern: Some("[A-Z]+[0-9]*".into()),
            ..Default::default()
        };
        assert_eq!(check(&code, AnswerValue::Text("AB12".into())), Ok(()));
        assert_eq!(check(&code, AnswerValue::Text("A".into())), Err(ValueProblem::TooShort { min: 2 }));
        assert_eq!(check(&code, AnswerValue::Text("ABCDEFG".into())), Err(ValueProblem::TooLong { max: 6 }));
        assert_eq!(check(&code, AnswerValue::Text("AB\n12".into())), Err(ValueProblem::LineBreak));
        assert_eq!(check(&code, AnswerValue::Text("ab12".into())), Err(ValueProblem::NoMatch), "matched whole");
        let email = ItemSettings { format: Some(TextFormat::Email), ..Default::default() };
        assert_eq!(check(&email, AnswerValue::Text("asdf".into())), Err(ValueProblem::NotAnEmail));
        assert_eq!(check(&email, AnswerValue::Text("ann@example.com".into())), Ok(()));
        let phone = ItemSettings { format: Some(TextFormat::Phone), ..Default::default() };
        assert_eq!(check(&phone, AnswerValue::Text("555-1234".into())), Err(ValueProblem::NotAPhone));
        assert_eq!(check(&phone, AnswerValue::Text("+4790000001".into())), Ok(()));
    }

    #[test]
    fn choices_stay_within_their_counts() {
        let two_or_three = ItemSettings { min_selected: Some(2), max_selected: Some(3), ..Default::default() };
        let chosen = |n: usize| AnswerValue::Choices((0..n).map(|v| v.to_string()).collect());
        assert_eq!(check(&two_or_three, chosen(1)), Err(ValueProblem::TooFewChosen { min: 2 }));
        assert_eq!(check(&two_or_three, chosen(4)), Err(ValueProblem::TooManyChosen { max: 3 }));
        assert_eq!(check(&two_or_three, chosen(3)), Ok(()));
        assert_eq!(check(&two_or_three, chosen(0)), Err(ValueProblem::TooFewChosen { min: 2 }), "when asked");
    }

    #[test]
    fn patterns_compile_within_their_limits() {
        assert!(compile_pattern("[A-Z]{2}[0-9]{4}").is_ok_and(|r| r.is_match("AB1234") && !r.is_match("xAB1234")));
        assert_eq!(compile_pattern("(").err().as_deref(), Some("is not a valid regular expression"));
        assert_eq!(compile_pattern(&"a".repeat(201)).err().as_deref(), Some("must be at most 200 characters"));
        assert_eq!(compile_pattern(r"\w{1000}\w{1000}").err().as_deref(), Some("compiles past 1 MiB"));
    }
}
