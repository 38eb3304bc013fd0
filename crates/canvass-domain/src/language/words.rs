//! Every word the respondent's side writes itself (the pages, and the prompts of a TWOWAY conversation), in each
//! of the twelve languages: one typed catalogue per language (`words/<code>.rs`), a `const` of [`Words`]. A language without one of the messages does not compile;
//! the tests below catch what the compiler cannot (an empty or untranslated message, a placeholder lost).
//! Placeholders are written `{name}` and filled by [`fill`]. The survey's own texts never pass through here.

mod da;
mod de;
mod en;
mod es;
mod fi;
mod fr;
mod it;
mod nb;
mod nl;
mod pl;
mod pt;
mod sv;

use super::Language;
use crate::answer::ValueProblem;

/// Declares the catalogue's struct and the list of its messages from one list of names, so that the two cannot
/// differ.
macro_rules! catalogue {
    ($($(#[doc = $doc:literal])+ $name:ident,)+) => {
        /// The messages of one language.
        pub struct Words {
            $($(#[doc = $doc])+ pub $name: &'static str,)+
        }

        impl Words {
            /// Every message with its name, in declaration order.
            #[cfg(test)]
            pub fn entries(&self) -> Vec<(&'static str, &'static str)> {
                vec![$((stringify!($name), self.$name),)+]
            }
        }
    };
}

catalogue! {
    /// The title of pages that have no survey to name: "Survey".
    survey,
    /// Where the respondent is: "Page {number} of {count}".
    page_of,
    /// After a required question's text: "(required)".
    required,
    /// The label of a number or text answer: "Your answer".
    your_answer,
    /// The button to the next page.
    next,
    /// The button on the last page.
    finish,
    /// Under the form: answers are kept page by page.
    saved_as_you_go,
    /// The name of the list of links to the survey's other languages: "Languages".
    languages,
    /// Above a page with errors.
    check_marked,
    /// A required question left unanswered.
    answer_required,
    /// Another page than the current one was sent.
    pages_in_order,
    /// A number was expected: "Please enter a number."
    enter_number,
    /// An answer too long: "... at most {max} characters."
    too_long,
    /// A choice not among the options (a tampered form).
    choose_shown,
    /// A number below the item's `min`: "... at least {min}."
    at_least,
    /// A number above the item's `max`: "... at most {max}."
    at_most,
    /// A number with a fraction where a whole number is asked.
    whole_number,
    /// A text shorter than the item's `minLength`: "... at least {min} characters."
    too_short,
    /// A line break in a one-line answer.
    one_line,
    /// A text that is not an email address.
    enter_email,
    /// A text that is not a phone number in international form.
    enter_phone,
    /// A text that does not have the form the item's pattern asks for.
    pattern_mismatch,
    /// Fewer choices than the item's `minSelected`: "... at least {min} ..."
    choose_at_least,
    /// More choices than the item's `maxSelected`: "... at most {max} ..."
    choose_at_most,
    /// A Date answer that is no date.
    enter_date,
    /// A date before the item's `minDate`: "... on or after {date}."
    date_from,
    /// A date after the item's `maxDate`: "... on or before {date}."
    date_until,
    /// A required Matrix with rows left unanswered.
    every_row,
    /// A Ranking with places left empty.
    rank_every_option,
    /// A Ranking giving one place to two options.
    place_twice,
    /// The label of a Ranking's place field for one option: "Place of {option}".
    place_of,
    /// Answers on earlier pages no longer fit a changed survey.
    earlier_answers,
    /// After the last page, unless the survey has its own words.
    thank_you,
    /// A deactivated or expired sendout, or an inactive survey.
    closed,
    /// A link that leads nowhere.
    unknown_link,
    /// A form that could not be read.
    unreadable,
    /// The service failed.
    server_error,
    /// The opt-out page's heading.
    opt_out_heading,
    /// What opting out means.
    opt_out_text,
    /// The opt-out button.
    opt_out_button,
    /// The heading after opting out.
    opted_out_heading,
    /// What follows from opting out.
    opted_out_text,
    /// The login page's heading.
    login_heading,
    /// The login field's label.
    login_label,
    /// The login button.
    login_button,
    /// The button on an open link's start page.
    start_button,
    /// A login that opens nothing.
    login_unknown,
    /// A form posted from another site.
    cross_site,
    /// Too many failed attempts from one address.
    too_many_attempts,
    /// An attempt that could not be checked now (the shared limits are unreachable): try again shortly.
    try_again_shortly,
    /// A TWOWAY question's choices, after its text: "Reply {choices}" ("1 = Yes, 2 = No").
    reply_choice,
    /// A TWOWAY multiple choice's choices: "Reply one or more, separated by commas: {choices}".
    reply_choices,
    /// A TWOWAY rating: "Reply a number from {min} to {max}".
    reply_scale,
    /// A TWOWAY number: "Reply a number".
    reply_number,
    /// A TWOWAY reply with nothing in it.
    reply_empty,
    /// A TWOWAY reply that names no option of a single choice.
    reply_option,
    /// A TWOWAY reply that names no options of a multiple choice.
    reply_options,
    /// A TWOWAY reply that is no number where one is asked.
    reply_not_number,
}

/// The catalogue of `language`.
pub fn words(language: Language) -> &'static Words {
    match language {
        Language::En => &en::WORDS,
        Language::Sv => &sv::WORDS,
        Language::Da => &da::WORDS,
        Language::Nb => &nb::WORDS,
        Language::Fi => &fi::WORDS,
        Language::De => &de::WORDS,
        Language::Fr => &fr::WORDS,
        Language::Es => &es::WORDS,
        Language::Nl => &nl::WORDS,
        Language::Pl => &pl::WORDS,
        Language::It => &it::WORDS,
        Language::Pt => &pt::WORDS,
    }
}

impl Words {
    /// What is said of an answer that does not fit its item: a required one left empty is
    /// [`Words::answer_required`]; a value not among the options (a tampered form) [`Words::choose_shown`].
    ///
    /// ```
    /// use canvass_domain::answer::ValueProblem;
    /// use canvass_domain::language::{words::words, Language};
    ///
    /// assert_eq!(words(Language::Sv).problem(&ValueProblem::NotANumber), "Ange ett tal.");
    /// ```
    pub fn problem(&self, problem: &ValueProblem) -> String {
        match problem {
            ValueProblem::NotANumber => self.enter_number.to_owned(),
            ValueProblem::TooLong { max } => fill(self.too_long, &[("max", max)]),
            ValueProblem::BelowMin(min) => fill(self.at_least, &[("min", &min.get())]),
            ValueProblem::AboveMax(max) => fill(self.at_most, &[("max", &max.get())]),
            ValueProblem::NotWhole => self.whole_number.to_owned(),
            ValueProblem::TooShort { min } => fill(self.too_short, &[("min", min)]),
            ValueProblem::LineBreak => self.one_line.to_owned(),
            ValueProblem::NotAnEmail => self.enter_email.to_owned(),
            ValueProblem::NotAPhone => self.enter_phone.to_owned(),
            ValueProblem::NoMatch => self.pattern_mismatch.to_owned(),
            ValueProblem::TooFewChosen { min } => fill(self.choose_at_least, &[("min", min)]),
            ValueProblem::TooManyChosen { max } => fill(self.choose_at_most, &[("max", max)]),
            ValueProblem::NotADate => self.enter_date.to_owned(),
            ValueProblem::BeforeMinDate(date) => fill(self.date_from, &[("date", date)]),
            ValueProblem::AfterMaxDate(date) => fill(self.date_until, &[("date", date)]),
            ValueProblem::EveryRow => self.every_row.to_owned(),
            ValueProblem::RankEveryOption => self.rank_every_option.to_owned(),
            ValueProblem::PlaceTwice => self.place_twice.to_owned(),
            _ => self.choose_shown.to_owned(),
        }
    }
}

/// `message` with each `{name}` replaced by its value.
///
/// ```
/// use canvass_domain::language::words::fill;
///
/// assert_eq!(fill("Page {number} of {count}", &[("number", &2), ("count", &3)]), "Page 2 of 3");
/// ```
pub fn fill(message: &str, values: &[(&str, &dyn std::fmt::Display)]) -> String {
    values
        .iter()
        .fold(message.to_owned(), |text, (name, value)| text.replace(&format!("{{{name}}}"), &value.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use strum::VariantArray;

    /// The `{name}` placeholders of a message, in order.
    fn placeholders(message: &str) -> Vec<&str> {
        message.split('{').skip(1).filter_map(|part| part.split_once('}').map(|(name, _)| name)).collect()
    }

    /// Messages that may read the same as in English in these languages (a word both languages share).
    const SAME_AS_ENGLISH: &[(Language, &str)] = &[];

    #[test]
    fn every_language_has_every_message_of_the_english_catalogue_translated() {
        let english = words(Language::En).entries();
        let mut lacking = Vec::new();
        for &language in Language::VARIANTS {
            let entries = words(language).entries();
            assert_eq!(entries.len(), english.len(), "{language:?}");
            for ((name, text), (_, english_text)) in entries.iter().zip(&english) {
                let shared = SAME_AS_ENGLISH.contains(&(language, *name));
                if text.trim().is_empty() || (language != Language::En && text == english_text && !shared) {
                    lacking.push(format!("{}.{name}", language.code()));
                }
                if placeholders(text) != placeholders(english_text) {
                    lacking.push(format!("{}.{name} (placeholders {:?})", language.code(), placeholders(text)));
                }
            }
        }
        assert!(lacking.is_empty(), "missing, untranslated or with other placeholders: {lacking:?}");
    }

    #[test]
    fn placeholders_are_filled() {
        assert_eq!(fill("Page {number} of {count}", &[("number", &2), ("count", &3)]), "Page 2 of 3");
        assert_eq!(placeholders("Sida {number} av {count}"), ["number", "count"]);
        assert_eq!(fill(words(Language::Sv).page_of, &[("number", &1), ("count", &4)]), "Sida 1 av 4");
    }
}
