//! A sendout's statistics: how many respondents it has in each status, how many it reached, how many of those
//! started and completed the survey, how long completing took, and the same day by day.

use strum::VariantArray;
use time::Date;

use super::figures::rate;
use crate::distribution::RespondentStatus;
use crate::ids::SendoutId;

/// A count of respondents for every [`RespondentStatus`], zeros included.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StatusCounts([i64; RespondentStatus::VARIANTS.len()]);

impl StatusCounts {
    /// The counts of the statuses given, every other status at zero; a status given twice adds up.
    ///
    /// ```
    /// use canvass_domain::distribution::RespondentStatus;
    /// use canvass_domain::insight::StatusCounts;
    ///
    /// let counts = StatusCounts::of([(RespondentStatus::Sent, 3), (RespondentStatus::Released, 2)]);
    /// assert_eq!((counts.count(RespondentStatus::Sent), counts.count(RespondentStatus::Expired)), (3, 0));
    /// assert_eq!(counts.total(), 5);
    /// assert_eq!(counts.iter().count(), 9, "every status");
    /// ```
    pub fn of(counts: impl IntoIterator<Item = (RespondentStatus, i64)>) -> Self {
        let mut all = Self::default();
        for (status, count) in counts {
            all.0[Self::position(status)] += count;
        }
        all
    }

    /// A status's place in [`RespondentStatus::VARIANTS`], which lists them in declaration order.
    fn position(status: RespondentStatus) -> usize {
        status as usize
    }

    /// The respondents in `status`.
    pub fn count(&self, status: RespondentStatus) -> i64 {
        self.0[Self::position(status)]
    }

    /// Every status with its count, in the order the statuses are declared.
    pub fn iter(&self) -> impl Iterator<Item = (RespondentStatus, i64)> + '_ {
        RespondentStatus::VARIANTS.iter().copied().zip(self.0.iter().copied())
    }

    /// The respondents in any status.
    pub fn total(&self) -> i64 {
        self.0.iter().sum()
    }
}

/// What one UTC day saw: invitations handed over, and respondents who first answered and first completed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DailyActivity {
    /// The day, in UTC.
    pub date: Date,
    /// Respondents whose invitation was handed over that day (`sentAt`).
    pub sent: i64,
    /// Reached respondents whose first answer set was created that day.
    pub started: i64,
    /// Reached respondents whose first completion was that day.
    pub completed: i64,
}

/// What the store counts for a sendout's statistics, over all its respondents (see
/// [`InsightRepository::sendout_figures`](super::ports::InsightRepository::sendout_figures)).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SendoutFigures {
    /// Its respondents by status.
    pub by_status: StatusCounts,
    /// Its respondents who opted out through one of its links.
    pub opted_out: i64,
    /// Its respondents `Sent` or `Released`.
    pub reached: i64,
    /// Reached respondents with at least one answer set.
    pub started: i64,
    /// Reached respondents with at least one completed answer set.
    pub completed: i64,
    /// The median, over completed respondents, of the seconds from `sentAt` (`addedAt` for `Released`) to their
    /// first completion (the mean of the two middle values for an even count); `None` when none completed.
    pub median_seconds_to_complete: Option<f64>,
    /// One entry per UTC day from the sendout's first activation to today, in order; empty when never activated.
    pub daily: Vec<DailyActivity>,
}

/// A sendout's statistics, as the contract states them.
#[derive(Debug, Clone, PartialEq)]
pub struct SendoutStatistics {
    /// The sendout.
    pub sendout_id: SendoutId,
    /// All its respondents.
    pub respondents: i64,
    /// Its respondents by status, every status named.
    pub by_status: StatusCounts,
    /// Respondents whose invitation was handed over (`Sent`) or whose link was given out (`Released`).
    pub reached: i64,
    /// Reached respondents with at least one answer set.
    pub started: i64,
    /// Reached respondents with at least one completed answer set.
    pub completed: i64,
    /// Respondents who opted out through one of the sendout's links.
    pub opted_out: i64,
    /// `started / reached`, four decimals; `None` when none was reached.
    pub response_rate: Option<f64>,
    /// `completed / reached`, four decimals; `None` when none was reached.
    pub completion_rate: Option<f64>,
    /// See [`SendoutFigures::median_seconds_to_complete`].
    pub median_seconds_to_complete: Option<f64>,
    /// Day by day, from the first activation to today.
    pub daily: Vec<DailyActivity>,
}

impl SendoutStatistics {
    /// The statistics the figures make: the total and the two rates.
    ///
    /// ```
    /// use canvass_domain::ids::SendoutId;
    /// use canvass_domain::insight::{SendoutFigures, SendoutStatistics};
    ///
    /// let figures = SendoutFigures { reached: 3, started: 2, completed: 1, ..SendoutFigures::default() };
    /// let statistics = SendoutStatistics::new(SendoutId::new(7), figures);
    /// assert_eq!((statistics.response_rate, statistics.completion_rate), (Some(0.6667), Some(0.3333)));
    /// ```
    pub fn new(sendout_id: SendoutId, figures: SendoutFigures) -> Self {
        Self {
            sendout_id,
            respondents: figures.by_status.total(),
            by_status: figures.by_status,
            reached: figures.reached,
            started: figures.started,
            completed: figures.completed,
            opted_out: figures.opted_out,
            response_rate: rate(figures.started, figures.reached),
            completion_rate: rate(figures.completed, figures.reached),
            median_seconds_to_complete: figures.median_seconds_to_complete.filter(|_| figures.completed > 0),
            daily: figures.daily,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_status_is_counted_zeros_included() {
        let counts = StatusCounts::of([
            (RespondentStatus::Blocklisted, 1),
            (RespondentStatus::Sent, 4),
            (RespondentStatus::Blocklisted, 2),
        ]);
        let named: Vec<(&str, i64)> = counts.iter().map(|(status, n)| (status.as_str(), n)).collect();
        assert_eq!(
            named,
            [
                ("Pending", 0),
                ("Scheduled", 0),
                ("Released", 0),
                ("Sent", 4),
                ("Bounced", 0),
                ("Failed", 0),
                ("FrequencyLimitReached", 0),
                ("Blocklisted", 3),
                ("Expired", 0),
            ]
        );
        assert_eq!(counts.total(), 7);
        assert_eq!(StatusCounts::of([]).total(), 0);
    }

    #[test]
    fn the_total_is_every_status_and_rates_are_of_the_reached() {
        let by_status = StatusCounts::of([
            (RespondentStatus::Sent, 5),
            (RespondentStatus::Released, 2),
            (RespondentStatus::Pending, 3),
        ]);
        let figures = SendoutFigures {
            by_status,
            opted_out: 1,
            reached: 7,
            started: 5,
            completed: 3,
            median_seconds_to_complete: Some(90.5),
            daily: vec![],
        };
        let statistics = SendoutStatistics::new(SendoutId::new(3), figures);
        assert_eq!(statistics.respondents, 10);
        assert_eq!(statistics.response_rate, Some(0.7143), "5/7 = 0.714285…");
        assert_eq!(statistics.completion_rate, Some(0.4286), "3/7 = 0.428571…");
        assert_eq!(statistics.median_seconds_to_complete, Some(90.5));
        assert_eq!(statistics.opted_out, 1);
    }

    #[test]
    fn nothing_reached_has_no_rates_and_nothing_completed_no_median() {
        let figures = SendoutFigures {
            by_status: StatusCounts::of([(RespondentStatus::Pending, 2)]),
            median_seconds_to_complete: Some(1.0),
            ..SendoutFigures::default()
        };
        let statistics = SendoutStatistics::new(SendoutId::new(3), figures);
        assert_eq!((statistics.response_rate, statistics.completion_rate), (None, None));
        assert_eq!(statistics.median_seconds_to_complete, None);
        let none_started = SendoutFigures { reached: 4, ..SendoutFigures::default() };
        let statistics = SendoutStatistics::new(SendoutId::new(3), none_started);
        assert_eq!((statistics.response_rate, statistics.completion_rate), (Some(0.0), Some(0.0)));
    }
}
