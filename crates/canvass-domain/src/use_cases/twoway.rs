//! TWOWAY conversations: a respondent's text replies, delivered by the SMS provider, are recorded as answers,
//! and the next question (or a thank-you) is written to the outbox.

use crate::answer::{Answer, AnswerSetDraft};
use crate::clock::Clock;
use crate::distribution::{contact_key, TokenContext};
use crate::error::DomainError;
use crate::ids::{AccountId, SurveyId};
use crate::language::words::{words, Words};
use crate::language::Language;
use crate::ports::{
    transaction, AnswerRepository, OutboxRepository, RespondentPageRepository, SurveyRepository, Transactional,
};
use crate::survey::{PipeValues, QuestionItem, QuestionTree, TranslatedTexts};

/// How a conversation speaks to one respondent: the service's words in the language it is shown, and the
/// survey's texts in it where the survey has a translation (the survey's own where it has none).
pub struct Voice {
    words: &'static Words,
    texts: Option<TranslatedTexts>,
}

impl Voice {
    /// The voice of `survey` in `language`, its translation read in one statement.
    pub fn of(
        uow: &mut (impl SurveyRepository + ?Sized),
        account: AccountId,
        survey: SurveyId,
        language: Language,
    ) -> Result<Self, DomainError> {
        let (_, texts) = uow.page_translation(account, survey, language, None)?;
        Ok(Self { words: words(language), texts })
    }

    /// `item` as this voice asks it: its texts translated where they can be.
    fn shown(&self, item: &QuestionItem) -> QuestionItem {
        match &self.texts {
            Some(texts) => texts.translate_item(item.clone()),
            None => item.clone(),
        }
    }

    /// The text message that asks `item`.
    pub fn prompt(&self, item: &QuestionItem) -> String {
        self.shown(item).prompt(self.words)
    }

    /// The text message that asks `item`, its texts piped with `values` once translated.
    pub fn piped_prompt(&self, item: &QuestionItem, values: &PipeValues<'_>) -> String {
        values.item(self.shown(item)).prompt(self.words)
    }

    /// What is said when the conversation is complete.
    pub fn thank_you(&self) -> &'static str {
        self.words.thank_you
    }
}

/// What a reply led to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplyOutcome {
    /// No open TWOWAY conversation has this number (or the reply was seen before).
    Ignored,
    /// The reply was recorded; the next question or the thank-you is on its way.
    Recorded {
        /// Whether that answer completed the survey.
        completed: bool,
    },
    /// The reply did not fit the question, which is asked again.
    AskedAgain,
}

/// The text of the first question of a conversation, sent after the invitation's own text; `None` when the
/// survey asks nothing.
pub fn first_question(tree: &QuestionTree, voice: &Voice, personal: &crate::delivery::Personal) -> Option<String> {
    let values = PipeValues::new(tree, &[], personal);
    tree.current_question(None, &[], &personal.background).map(|(_, item)| voice.piped_prompt(item, &values))
}

/// A text message from a respondent, as the SMS provider delivers it.
#[derive(Clone, Copy)]
pub struct Reply<'a> {
    /// The respondent's number.
    pub from: &'a str,
    /// The number the message was sent to: only conversations sent from it, by the account it is provisioned to,
    /// are considered. A reply that does not say is ignored: it cannot be told which account it was meant for.
    pub to: Option<&'a str>,
    /// The text.
    pub text: &'a str,
    /// The provider's id of the message: a repeated delivery of the same reply is harmless.
    pub message_id: Option<&'a str>,
}

/// Records a reply for the open TWOWAY conversation with that number, sent from the number the reply went to by
/// the account that number is provisioned to, that was last sent a message. Replies to numbers provisioned to no
/// account, and replies that do not name the number they went to, are ignored. The reply that completes the survey
/// writes an `answerSet.completed` event in the same transaction.
pub fn reply(
    uow: &mut (impl AnswerRepository
              + OutboxRepository
              + crate::ports::QuotaRepository
              + crate::ports::AlertRepository
              + RespondentPageRepository
              + crate::ports::RespondentRepository
              + SurveyRepository
              + crate::ports::TimelineRepository
              + Transactional
              + crate::ports::WebhookEvents
              + ?Sized),
    clock: &dyn Clock,
    reply: Reply<'_>,
) -> Result<ReplyOutcome, DomainError> {
    let Reply { from, to, text, message_id } = reply;
    let Some(to) = to.map(contact_key).filter(|to| !to.is_empty()) else { return Ok(ReplyOutcome::Ignored) };
    transaction(uow, |tx| {
        let now = clock.now();
        let open = |context: &TokenContext| {
            context.sendout_active && context.survey_active && context.expiry_date.is_none_or(|e| e > now)
        };
        let Some(context) = tx.find_conversations(&contact_key(from), &to)?.into_iter().find(open) else {
            return Ok(ReplyOutcome::Ignored);
        };
        let (account, survey) = (context.account_id, context.survey_id);
        // Replies of one respondent are recorded one at a time.
        tx.lock_respondent(account, context.respondent_id)?;
        let progress = tx.progress(account, survey, context.respondent_id)?;
        if progress.as_ref().is_some_and(|(set, _)| set.is_over()) {
            return Ok(ReplyOutcome::Ignored);
        }
        let tree = tx.question_tree(account, survey)?;
        let voice = Voice::of(tx, account, survey, context.shown_language())?;
        let (answers, page) = progress.as_ref().map(|(set, page)| (set.answers.clone(), *page)).unwrap_or_default();
        let personal = super::respondent_page::personal_of(tx, &context, &tree)?;
        let background = &personal.background;
        let Some((page_id, item)) = tree.current_question(page, &answers, background) else {
            return Ok(ReplyOutcome::Ignored);
        };
        // The question as it was asked, for asking it again.
        let asked = voice.piped_prompt(item, &PipeValues::new(&tree, &answers, &personal));
        let key = |suffix: &str| match message_id {
            Some(id) => format!("tw-{}-{id}", context.respondent_id),
            None => format!("tw-{}-{}-{suffix}-{}", context.respondent_id, item.id, now.unix_timestamp_nanos()),
        };
        let checked =
            voice.shown(item).read_reply(text, voice.words).and_then(|value| match tree.check_answer(item, &value) {
                Ok(()) => Ok(value),
                Err(problem) => Err(voice.words.problem(&problem)),
            });
        let value = match checked {
            Ok(value) => value,
            Err(hint) => {
                let queued = tx.enqueue_message(&context, &key("again"), &format!("{hint} {asked}"), now)?;
                return Ok(if queued { ReplyOutcome::AskedAgain } else { ReplyOutcome::Ignored });
            }
        };
        let mut answers = answers;
        answers.push(Answer { question_item_id: item.id, value });
        let draft = AnswerSetDraft::check(false, answers, &tree).map_err(DomainError::Invalid);
        let draft = match draft {
            Ok(draft) => draft,
            Err(_) => {
                let queued = tx.enqueue_message(&context, &key("again"), &asked, now)?;
                return Ok(if queued { ReplyOutcome::AskedAgain } else { ReplyOutcome::Ignored });
            }
        };
        let next = tree
            .current_question(Some(page_id), draft.answers(), background)
            .map(|(page, item)| (page, voice.piped_prompt(item, &PipeValues::new(&tree, draft.answers(), &personal))));
        let completed = next.is_none();
        let text = next.as_ref().map_or(voice.thank_you().to_owned(), |(_, prompt)| prompt.clone());
        if !tx.enqueue_message(&context, &key("next"), &text, now)? {
            return Ok(ReplyOutcome::Ignored);
        }
        // Completed: the answers of items hidden from the respondent are dropped.
        let draft = if completed {
            let hidden = tree.hidden_items(draft.answers(), background);
            draft.without(&hidden).finished()
        } else {
            draft
        };
        let existing = progress.map(|(set, _)| set.id);
        let next = next.map(|(page, _)| page);
        super::answers::save_respondent_progress(tx, &context, (existing, draft, next), (&tree, background), now)?;
        Ok(ReplyOutcome::Recorded { completed })
    })
}

crate::debug_without_personal_data!(Reply<'a> { message_id });
