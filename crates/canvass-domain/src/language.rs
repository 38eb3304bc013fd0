//! The languages the respondent's side speaks: a respondent is shown its own, else its sendout's; every word the
//! service writes itself (pages, TWOWAY prompts: the catalogue in [`words`]) is in it, and the survey's own texts
//! are shown in it where the survey has a translation.

pub mod words;

/// A language of the respondent pages, by its ISO 639-1 code (`en`, `sv`, ...), which is what the API takes and
/// returns, what the store keeps and what `<html lang>` says. Only these twelve are taken: `sv-SE` is not one.
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[strum(serialize_all = "lowercase")]
pub enum Language {
    /// English, the default.
    #[default]
    En,
    /// Swedish.
    Sv,
    /// Danish.
    Da,
    /// Norwegian Bokmål.
    Nb,
    /// Finnish.
    Fi,
    /// German.
    De,
    /// French.
    Fr,
    /// Spanish.
    Es,
    /// Dutch.
    Nl,
    /// Polish.
    Pl,
    /// Italian.
    It,
    /// Portuguese.
    Pt,
}

impl Language {
    /// The code (`sv`).
    pub fn code(self) -> &'static str {
        self.into()
    }

    /// The language's name in itself (`Svenska`, `Suomi`), as a page offers it to those who read it.
    pub fn native_name(self) -> &'static str {
        match self {
            Self::En => "English",
            Self::Sv => "Svenska",
            Self::Da => "Dansk",
            Self::Nb => "Norsk bokmål",
            Self::Fi => "Suomi",
            Self::De => "Deutsch",
            Self::Fr => "Français",
            Self::Es => "Español",
            Self::Nl => "Nederlands",
            Self::Pl => "Polski",
            Self::It => "Italiano",
            Self::Pt => "Português",
        }
    }

    /// Every code, in the order above (for `supportedValues`).
    pub fn codes() -> impl Iterator<Item = &'static str> {
        <Self as strum::VariantArray>::VARIANTS.iter().map(|language| language.code())
    }
}

/// What a visitor of an open link asks for: a language it picked (`?lang=`), then the languages its browser
/// accepts, best first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LanguageWish {
    /// The language named by `?lang=`, when it is one of the twelve.
    pub picked: Option<Language>,
    /// The languages of `Accept-Language` that are among the twelve, in the browser's order of preference.
    pub accepted: Vec<Language>,
}

impl LanguageWish {
    /// The language to show of those `offered` (a survey's): the picked one when offered, else the first accepted
    /// one offered, else none (the sendout's then applies).
    ///
    /// ```
    /// use canvass_domain::language::{Language, LanguageWish};
    ///
    /// let wish = LanguageWish { picked: Some(Language::De), accepted: vec![Language::Fr, Language::Fi] };
    /// assert_eq!(wish.choose(&[Language::Sv, Language::Fi]), Some(Language::Fi));
    /// assert_eq!(wish.choose(&[Language::Sv, Language::De]), Some(Language::De));
    /// assert_eq!(wish.choose(&[Language::Sv]), None);
    /// ```
    pub fn choose(&self, offered: &[Language]) -> Option<Language> {
        self.picked.iter().chain(&self.accepted).copied().find(|language| offered.contains(language))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_only_the_twelve_are_taken() {
        let codes: Vec<_> = Language::codes().collect();
        assert_eq!(codes, ["en", "sv", "da", "nb", "fi", "de", "fr", "es", "nl", "pl", "it", "pt"]);
        for code in codes {
            assert_eq!(code.parse::<Language>().map(Language::code), Ok(code));
        }
        for other in ["sv-SE", "SV", "no", "", "en "] {
            assert!(other.parse::<Language>().is_err(), "{other:?} is not one of the twelve");
        }
        assert_eq!(Language::default(), Language::En);
    }
}
