//! The top words of an OpenText item: the words found in the most answers (each answer counts a word once), words
//! being runs of letters and digits of two characters or more, lower-cased and not stemmed, without the stop words
//! of the survey's languages (the ISO lists of the `stop-words` crate).

use std::collections::HashMap;

use string_interner::backend::StringBackend;
use string_interner::symbol::SymbolU32;
use string_interner::{StringInterner, Symbol};

use super::{QuotedTexts, TallyGroup};
use crate::ids::{AnswerSetId, QuestionItemId};
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

/// One item's top words from the store's tallies of its words: most answers first, ties by word, [`TOP_WORDS`] at
/// most.
pub(super) fn top_words(mut tallies: Vec<WordTally>) -> Vec<WordCount> {
    tallies.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.word.cmp(&b.word)));
    tallies.into_iter().take(TOP_WORDS).map(|tally| WordCount { word: tally.word, count: tally.count }).collect()
}

/// What [`TextTallies`] counted.
#[derive(Clone, PartialEq, Eq)]
pub struct TextFigures {
    /// Per group and item, its answers.
    pub answered: Vec<(TallyGroup, QuestionItemId, i64)>,
    /// Per group and item, its top words.
    pub words: Vec<(TallyGroup, WordTally)>,
    /// Per item of the whole, its latest texts.
    pub quoted: Vec<QuotedTexts>,
}
crate::debug_without_personal_data!(TextFigures { answered });

/// What the texts answered to OpenText items say, counted as the store hands them over one by one: per group and
/// item each word's answers (without the stop words), and per item of the whole its latest texts.
///
/// ```
/// use canvass_domain::ids::{AnswerSetId, QuestionItemId};
/// use canvass_domain::insight::{TallyGroup, TextTallies};
///
/// let item = QuestionItemId::new(1);
/// let stop = ["the".to_owned()];
/// let mut texts = TextTallies::new(&stop, 1);
/// texts.add(&TallyGroup::Whole, item, AnswerSetId::new(1), Some("The fika, the FIKA!"));
/// texts.add(&TallyGroup::Whole, item, AnswerSetId::new(2), Some("fika again"));
/// texts.add(&TallyGroup::Whole, item, AnswerSetId::new(3), None);
/// let figures = texts.finish();
/// let counted: Vec<(&str, i64)> = figures.words.iter().map(|(_, w)| (w.word.as_str(), w.count)).collect();
/// assert_eq!(counted, [("fika", 2), ("again", 1)]);
/// assert_eq!(figures.quoted[0].texts, ["fika again"]);
/// assert_eq!(figures.answered, [(TallyGroup::Whole, item, 3)]);
/// ```
pub struct TextTallies {
    quotes_per_item: usize,
    /// Every distinct word once, in one buffer: a survey's answers may hold hundreds of thousands (a number in each).
    /// The stop words come first, so a word is one when its symbol is among the first `stop_words`.
    words: StringInterner<StringBackend<SymbolU32>>,
    stop_words: usize,
    /// The words of the text being read (kept to spare an allocation per text).
    found: Vec<SymbolU32>,
    /// Per group and item, its answers.
    answered: HashMap<(TallyGroup, QuestionItemId), i64>,
    /// Per group and item, each word's answers.
    counts: HashMap<(TallyGroup, QuestionItemId), hashbrown::HashMap<SymbolU32, u32>>,
    quotes: HashMap<QuestionItemId, Vec<(AnswerSetId, String)>>,
}

impl TextTallies {
    /// Nothing counted; `quotes_per_item` texts kept per item.
    pub fn new(stop_words: &[String], quotes_per_item: u32) -> Self {
        let mut words = StringInterner::new();
        for word in stop_words {
            words.get_or_intern(word);
        }
        Self {
            stop_words: words.len(),
            found: Vec::new(),
            quotes_per_item: quotes_per_item as usize,
            words,
            answered: HashMap::new(),
            counts: HashMap::new(),
            quotes: HashMap::new(),
        }
    }

    /// Counts the answer of the set `set` to `item`, in `group`, and the words of its text (`None`: a stored value
    /// that is not a text, an answer without words).
    pub fn add(&mut self, group: &TallyGroup, item: QuestionItemId, set: AnswerSetId, text: Option<&str>) {
        let key = (group.clone(), item);
        match self.answered.get_mut(&key) {
            Some(answered) => *answered += 1,
            None => {
                self.answered.insert(key, 1);
            }
        }
        let Some(text) = text else { return };
        let lower = text.to_lowercase();
        let mut found = std::mem::take(&mut self.found);
        found.clear();
        for word in lower.split(|c: char| !c.is_alphanumeric()).filter(|word| word.chars().nth(1).is_some()) {
            let symbol = self.words.get_or_intern(word);
            if symbol.to_usize() >= self.stop_words {
                found.push(symbol);
            }
        }
        found.sort_unstable();
        found.dedup();
        if !found.is_empty() {
            let counts = match self.counts.get_mut(&(group.clone(), item)) {
                Some(counts) => counts,
                None => self.counts.entry((group.clone(), item)).or_default(),
            };
            for word in &found {
                *counts.entry(*word).or_default() += 1;
            }
        }
        self.found = found;
        if *group == TallyGroup::Whole && !text.is_empty() {
            self.quote(item, set, text);
        }
    }

    /// Keeps the text among the item's latest (by set) if it is one.
    fn quote(&mut self, item: QuestionItemId, set: AnswerSetId, text: &str) {
        let kept = self.quotes.entry(item).or_default();
        if kept.len() == self.quotes_per_item {
            match kept.iter().enumerate().min_by_key(|(_, (set, _))| *set) {
                Some((at, (oldest, _))) if *oldest < set => {
                    kept.swap_remove(at);
                }
                _ => return,
            }
        }
        kept.push((set, text.to_owned()));
    }

    /// Per group and item its answers and its top [`TOP_WORDS`] words (most answers first, ties by word), and per
    /// item its latest texts, the latest first (items in id order).
    pub fn finish(self) -> TextFigures {
        let mut words = Vec::new();
        let text = |word: SymbolU32| self.words.resolve(word).unwrap_or_default();
        for ((group, item), counts) in self.counts {
            let mut counted: Vec<(SymbolU32, u32)> = counts.into_iter().collect();
            let order =
                |a: &(SymbolU32, u32), b: &(SymbolU32, u32)| b.1.cmp(&a.1).then_with(|| text(a.0).cmp(text(b.0)));
            if counted.len() > TOP_WORDS {
                counted.select_nth_unstable_by(TOP_WORDS, order);
                counted.truncate(TOP_WORDS);
            }
            counted.sort_unstable_by(order);
            let tallies = (counted.into_iter()).map(|(word, count)| WordTally {
                item,
                word: text(word).to_owned(),
                count: i64::from(count),
            });
            words.extend(tallies.map(|tally| (group.clone(), tally)));
        }
        let mut quoted: Vec<QuotedTexts> = self
            .quotes
            .into_iter()
            .map(|(item, mut kept)| {
                kept.sort_unstable_by_key(|(set, _)| std::cmp::Reverse(*set));
                QuotedTexts { item, texts: kept.into_iter().map(|(_, text)| text).collect() }
            })
            .collect();
        quoted.sort_unstable_by_key(|quoted| quoted.item);
        let answered = self.answered.into_iter().map(|((group, item), count)| (group, item, count)).collect();
        TextFigures { answered, words, quoted }
    }
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

    #[test]
    fn text_tallies_count_per_group_and_keep_the_whole_s_latest_texts() {
        let (item, other) = (QuestionItemId::new(1), QuestionItemId::new(2));
        let sales = TallyGroup::Key(Some("Sales".into()));
        let stop = vec!["and".to_owned()];
        let mut texts = TextTallies::new(&stop, 2);
        for (set, text) in [(3, "Fika and fika"), (1, "fika"), (7, ""), (5, "Coffee"), (4, "x coffee")] {
            texts.add(&TallyGroup::Whole, item, AnswerSetId::new(set), Some(text));
        }
        texts.add(&sales, item, AnswerSetId::new(3), Some("Fika and fika"));
        texts.add(&TallyGroup::Whole, other, AnswerSetId::new(2), Some("Tea"));
        texts.add(&TallyGroup::Whole, other, AnswerSetId::new(9), None);
        let TextFigures { mut answered, mut words, quoted } = texts.finish();
        answered.sort_by_key(|(group, item, _)| (*group == TallyGroup::Whole, *item));
        assert_eq!(answered, [(sales.clone(), item, 1), (TallyGroup::Whole, item, 5), (TallyGroup::Whole, other, 2)]);
        words.sort_by(|a, b| {
            (format!("{:?}", a.0), a.1.item, &a.1.word).cmp(&(format!("{:?}", b.0), b.1.item, &b.1.word))
        });
        let listed: Vec<(bool, i64, &str, i64)> = words
            .iter()
            .map(|(group, w)| (*group == TallyGroup::Whole, w.item.get(), w.word.as_str(), w.count))
            .collect();
        assert_eq!(
            listed,
            [(false, 1, "fika", 1), (true, 1, "coffee", 2), (true, 1, "fika", 2), (true, 2, "tea", 1)],
            "each answer counts a word once; one letter and stop words are left out"
        );
        let latest: Vec<(i64, Vec<&str>)> =
            quoted.iter().map(|q| (q.item.get(), q.texts.iter().map(String::as_str).collect())).collect();
        assert_eq!(latest, [(1, vec!["Coffee", "x coffee"]), (2, vec!["Tea"])], "the latest two, empty texts never");
    }
}
