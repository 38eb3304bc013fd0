//! The top words of an OpenText item: the words found in the most answers (each answer counts a word once), words
//! being runs of letters and digits of two characters or more, lower-cased and not stemmed, without the stop words
//! of the survey's languages (the ISO lists of the `stop-words` crate).

use crate::ids::QuestionItemId;
use crate::language::Language;

/// How many words an item's top words list at most.
pub const TOP_WORDS: usize = 25;

/// How many answers of an OpenText item hold one word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WordTally {
    /// The item.
    pub item: QuestionItemId,
    /// The word, lower-cased.
    pub word: String,
    /// Answers that hold it.
    pub count: i64,
}

/// One of an item's top words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WordCount {
    /// The word, lower-cased.
    pub word: String,
    /// Answers that hold it.
    pub count: i64,
}

/// The stop words of `languages`, lower-cased, sorted and without repeats.
///
/// ```
/// use canvass_domain::insight::stop_words;
/// use canvass_domain::language::Language;
///
/// let words = stop_words(&[Language::En, Language::Sv]);
/// assert!(words.contains(&"the".to_owned()) && words.contains(&"och".to_owned()));
/// assert!(!words.contains(&"stockholm".to_owned()));
/// ```
pub fn stop_words(languages: &[Language]) -> Vec<String> {
    let mut words: Vec<String> = languages
        .iter()
        .flat_map(|&language| stop_words::get(iso_list(language)).iter().map(|word| word.to_lowercase()))
        .collect();
    words.sort_unstable();
    words.dedup();
    words
}

/// The crate's list of a page language (Norwegian Bokmål reads the Norwegian list).
fn iso_list(language: Language) -> stop_words::LANGUAGE {
    use stop_words::LANGUAGE;
    match language {
        Language::En => LANGUAGE::English,
        Language::Sv => LANGUAGE::Swedish,
        Language::Da => LANGUAGE::Danish,
        Language::Nb => LANGUAGE::Norwegian,
        Language::Fi => LANGUAGE::Finnish,
        Language::De => LANGUAGE::German,
        Language::Fr => LANGUAGE::French,
        Language::Es => LANGUAGE::Spanish,
        Language::Nl => LANGUAGE::Dutch,
        Language::Pl => LANGUAGE::Polish,
        Language::It => LANGUAGE::Italian,
        Language::Pt => LANGUAGE::Portuguese,
    }
}

/// The distinct words of one answer, lower-cased, in the order first found (what a store without SQL counts).
///
/// ```
/// use canvass_domain::insight::words_of;
///
/// assert_eq!(words_of("Fika i Göteborg, FIKA! a 42"), ["fika", "göteborg", "42"]);
/// ```
pub fn words_of(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    let mut words: Vec<String> = Vec::new();
    for word in lower.split(|c: char| !c.is_alphanumeric()).filter(|word| word.chars().count() >= 2) {
        if !words.iter().any(|seen| seen == word) {
            words.push(word.to_owned());
        }
    }
    words
}

/// One item's top words from the store's tallies of its words: most answers first, ties by word, [`TOP_WORDS`] at
/// most.
pub(super) fn top_words(mut tallies: Vec<WordTally>) -> Vec<WordCount> {
    tallies.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.word.cmp(&b.word)));
    tallies.into_iter().take(TOP_WORDS).map(|tally| WordCount { word: tally.word, count: tally.count }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_page_language_has_a_list_and_top_words_rank_by_answers_then_word() {
        for &language in <Language as strum::VariantArray>::VARIANTS {
            assert!(stop_words(&[language]).len() > 20, "{language:?}");
        }
        let item = QuestionItemId::new(1);
        let tally = |word: &str, count| WordTally { item, word: word.into(), count };
        let mut tallies: Vec<WordTally> = (0..30).map(|n| tally(&format!("w{n:02}"), 1)).collect();
        tallies.extend([tally("zebra", 3), tally("apple", 3)]);
        let top = top_words(tallies);
        assert_eq!(top.len(), TOP_WORDS);
        let first: Vec<&str> = top.iter().take(3).map(|w| w.word.as_str()).collect();
        assert_eq!(first, ["apple", "zebra", "w00"]);
    }
}
