//! A survey as a text conversation (TWOWAY): one question at a time, replies read by the item's type, the logic
//! followed from page to page.

use crate::answer::{Answer, AnswerValue};
use crate::ids::PageId;
use crate::language::words::{fill, Words};

use super::question::{QuestionItem, QuestionType};
use super::tree::QuestionTree;

/// The question as a text message in the language of `words`, with how to answer it.
///
/// ```
/// use canvass_domain::ids::{PageId, QuestionItemId};
/// use canvass_domain::language::{words::words, Language};
/// use canvass_domain::survey::{ChoiceOption, QuestionItem, QuestionType};
///
/// let item = QuestionItem { id: QuestionItemId::new(1), page_id: PageId::new(1), kind: QuestionType::SingleChoice,
///     text: "Happy?".into(), required: true,
///     options: vec![ChoiceOption { value: "yes".into(), label: "Yes".into() }, ChoiceOption { value: "no".into(), label: "No".into() }],
///     min_label: None, max_label: None,
///     settings: Default::default() };
/// assert_eq!(item.prompt(words(Language::En)), "Happy? Reply 1 = Yes, 2 = No");
/// assert_eq!(item.prompt(words(Language::Sv)), "Happy? Svara 1 = Yes, 2 = No");
/// ```
impl QuestionItem {
    /// The text message that asks this question, its own words (text, option labels) as they are and the
    /// service's in the language of `words`.
    pub fn prompt(&self, words: &Words) -> String {
        let numbered = || {
            self.options
                .iter()
                .enumerate()
                .map(|(i, o)| format!("{} = {}", i + 1, o.label))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let how = match self.kind {
            QuestionType::SingleChoice | QuestionType::Dropdown => {
                fill(words.reply_choice, &[("choices", &numbered())])
            }
            QuestionType::MultipleChoice => fill(words.reply_choices, &[("choices", &numbered())]),
            QuestionType::Rating => {
                fill(words.reply_scale, &[("min", &QuestionType::RATING_MIN), ("max", &QuestionType::RATING_MAX)])
            }
            QuestionType::Numeric => words.reply_number.to_owned(),
            QuestionType::OpenText
            | QuestionType::Info
            | QuestionType::Date
            | QuestionType::Matrix
            | QuestionType::Ranking => return self.text.clone(),
        };
        format!("{} {how}", self.text)
    }

    /// Reads a text reply: an option by its number, value or label (any case), several separated by commas for
    /// a multiple choice, a number, or free text. The error says, in the language of `words`, what was expected.
    pub fn read_reply(&self, reply: &str, words: &Words) -> Result<AnswerValue, String> {
        let reply = reply.trim();
        let option = |part: &str| {
            let part = part.trim();
            part.parse::<usize>()
                .ok()
                .and_then(|n| n.checked_sub(1))
                .and_then(|i| self.options.get(i))
                .or_else(|| {
                    self.options
                        .iter()
                        .find(|o| o.value.eq_ignore_ascii_case(part) || o.label.eq_ignore_ascii_case(part))
                })
                .map(|o| o.value.clone())
        };
        match self.kind {
            _ if reply.is_empty() => Err(words.reply_empty.to_owned()),
            QuestionType::SingleChoice | QuestionType::Dropdown => {
                option(reply).map(AnswerValue::Text).ok_or_else(|| words.reply_option.to_owned())
            }
            QuestionType::MultipleChoice => reply
                .split(',')
                .map(option)
                .collect::<Option<Vec<_>>>()
                .map(AnswerValue::Choices)
                .ok_or_else(|| words.reply_options.to_owned()),
            QuestionType::Numeric | QuestionType::Rating => reply
                .replace(',', ".")
                .parse::<f64>()
                .map(AnswerValue::Number)
                .map_err(|_| words.reply_not_number.to_owned()),
            // Conversations do not ask these (`current_question` skips them): a reply is taken as text.
            QuestionType::OpenText
            | QuestionType::Info
            | QuestionType::Date
            | QuestionType::Matrix
            | QuestionType::Ranking => Ok(AnswerValue::Text(reply.to_owned())),
        }
    }
}

impl QuestionTree {
    /// The question a conversation is at: the first unanswered question of `page` (the first page shown when
    /// none) that a text message can ask (no Date, Matrix or Ranking item) and that is not hidden
    /// (`displayWhen`), moving on by the logic while a page has none left; `None` when the survey is done.
    pub fn current_question(
        &self,
        page: Option<PageId>,
        answers: &[Answer],
        background: &std::collections::BTreeMap<String, String>,
    ) -> Option<(PageId, &QuestionItem)> {
        let mut page = match page {
            Some(page) => page,
            None => *self.path(answers, background).first()?,
        };
        let hidden = self.hidden_items(answers, background);
        for _ in 0..=self.pages.len() {
            let index = self.page_index(page)?;
            let unanswered = self.pages[index].items.iter().find(|i| {
                i.kind.takes_answer()
                    && i.kind.asked_by_sms()
                    && !hidden.contains(&i.id)
                    && answers.iter().all(|a| a.question_item_id != i.id)
            });
            match unanswered {
                Some(item) => return Some((page, item)),
                None => page = self.next_page(page, answers, background)?,
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::{QuestionItemId, RuleId, SurveyId};
    use crate::language::{words::words, Language};
    use crate::survey::{ChoiceOption, LogicRule, Page};

    fn item(id: i64, page_id: i64, kind: QuestionType) -> QuestionItem {
        let options =
            ["Yes", "No"].iter().map(|l| ChoiceOption { value: l.to_lowercase(), label: (*l).into() }).collect();
        QuestionItem {
            id: QuestionItemId::new(id),
            page_id: PageId::new(page_id),
            kind,
            text: "q".into(),
            required: false,
            options: if kind.has_options() { options } else { vec![] },
            min_label: None,
            max_label: None,
            settings: Default::default(),
        }
    }

    #[test]
    fn replies_are_read_by_type() {
        let en = words(Language::En);
        let single = item(1, 1, QuestionType::SingleChoice);
        assert_eq!(single.read_reply(" 2 ", en), Ok(AnswerValue::Text("no".into())));
        assert_eq!(single.read_reply("YES", en), Ok(AnswerValue::Text("yes".into())));
        assert!(single.read_reply("3", en).is_err());
        let multiple = item(2, 1, QuestionType::MultipleChoice);
        assert_eq!(multiple.read_reply("1, no", en), Ok(AnswerValue::Choices(vec!["yes".into(), "no".into()])));
        assert_eq!(item(3, 1, QuestionType::Numeric).read_reply("7,5", en), Ok(AnswerValue::Number(7.5)));
        assert!(item(4, 1, QuestionType::Rating).read_reply("lots", en).is_err());
    }

    #[test]
    fn the_prompts_and_the_hints_speak_the_language_of_the_catalogue() {
        let (pl, de) = (words(Language::Pl), words(Language::De));
        assert_eq!(item(1, 1, QuestionType::SingleChoice).prompt(pl), "q Odpowiedz 1 = Yes, 2 = No");
        assert_eq!(item(4, 1, QuestionType::Rating).prompt(de), "q Antworten Sie mit einer Zahl von 0 bis 10");
        assert_eq!(item(3, 1, QuestionType::Numeric).read_reply("viel", de), Err(de.reply_not_number.to_owned()));
        assert_eq!(item(1, 1, QuestionType::SingleChoice).read_reply("", pl), Err("Napisz odpowiedź.".to_owned()));
    }

    #[test]
    fn the_conversation_follows_the_logic() {
        let page = |id, items| Page { id: PageId::new(id), title: String::new(), items, randomize_items: false };
        let pages = vec![
            page(1, vec![item(1, 1, QuestionType::Info), item(2, 1, QuestionType::SingleChoice)]),
            page(2, vec![item(3, 2, QuestionType::OpenText)]),
            page(3, vec![item(4, 3, QuestionType::Numeric)]),
        ];
        let rule = LogicRule {
            id: RuleId::new(1),
            rule: crate::survey::LogicRuleDraft {
                question_item_id: QuestionItemId::new(2),
                equals: "no".into(),
                go_to_page_id: PageId::new(3),
            }
            .into(),
            broken: false,
        };
        let tree = QuestionTree::assemble(SurveyId::new(1), pages, vec![rule]);
        let at = |page: Option<i64>, answers: &[Answer]| {
            tree.current_question(page.map(PageId::new), answers, &Default::default())
                .map(|(p, i)| (p.get(), i.id.get()))
        };
        assert_eq!(at(None, &[]), Some((1, 2)), "Info items are skipped");
        let no = [Answer { question_item_id: QuestionItemId::new(2), value: AnswerValue::Text("no".into()) }];
        assert_eq!(at(Some(1), &no), Some((3, 4)));
        let done =
            [no[0].clone(), Answer { question_item_id: QuestionItemId::new(4), value: AnswerValue::Number(1.0) }];
        assert_eq!(at(Some(3), &done), None);
    }
}
