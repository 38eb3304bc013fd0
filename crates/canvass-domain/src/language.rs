//! The languages the respondent's side speaks: a sendout names one, and every word the service writes itself on
//! that sendout's pages is in it. The survey's own texts are shown as written.

/// A language of the respondent pages, by its ISO 639-1 code (`en`, `sv`, ...), which is what the API takes and
/// returns, what the store keeps and what `<html lang>` says. Only these twelve are taken: `sv-SE` is not one.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, strum::EnumString, strum::IntoStaticStr, strum::VariantArray,
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
