//! Distribution: sendouts and their state machine, respondents, background data, the blocklist, frequency limits
//! and the counts a sendout keeps.

mod bgdata;
mod blocklist;
mod frequency;
mod respondent_languages;
mod respondents;
pub(crate) mod sendout_counts;
mod sendout_language;
mod sendouts;
