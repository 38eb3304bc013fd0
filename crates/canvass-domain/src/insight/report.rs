//! What a survey's report holds beyond its results: each sendout's funnel, the histogram of each Numeric item
//! (bins of a round width the results' lowest and highest numbers decide) and a few of each OpenText item's texts.

use crate::ids::{QuestionItemId, SendoutId};

/// How many of one sendout's respondents it reached, and how many of those started and completed the survey.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SendoutFunnel {
    /// The sendout.
    pub sendout: SendoutId,
    /// Its name.
    pub name: String,
    /// Its respondents, in any status.
    pub respondents: i64,
    /// Those `Sent` or `Released`.
    pub reached: i64,
    /// Reached respondents with at least one answer set.
    pub started: i64,
    /// Reached respondents with a completed one.
    pub completed: i64,
}

/// At most this many bins in a histogram (one more when the highest number falls on the last edge).
pub const HISTOGRAM_BINS: u32 = 10;

/// How many texts of each OpenText item a report quotes.
pub const QUOTED_TEXTS: u32 = 5;

/// The bins of one Numeric item's histogram: `bins` of `width` from `lower`, each holding the numbers from its
/// lower edge up to, not including, the next.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BinLayout {
    /// The item.
    pub item: QuestionItemId,
    /// The first bin's lower edge: a whole multiple of `width` at or below the lowest number.
    pub lower: f64,
    /// Each bin's width: 1, 2, 2.5 or 5 times a power of ten.
    pub width: f64,
    /// How many bins.
    pub bins: u32,
}

impl BinLayout {
    /// The bins that hold every number from `min` to `max` in at most [`HISTOGRAM_BINS`] (+1) bins of a round width.
    ///
    /// ```
    /// use canvass_domain::ids::QuestionItemId;
    /// use canvass_domain::insight::BinLayout;
    ///
    /// let item = QuestionItemId::new(1);
    /// let ages = BinLayout::of(item, 18.0, 67.0);
    /// assert_eq!((ages.lower, ages.width, ages.bins), (15.0, 5.0, 11));
    /// let one = BinLayout::of(item, 4.0, 4.0);
    /// assert_eq!((one.lower, one.width, one.bins), (4.0, 1.0, 1));
    /// ```
    pub fn of(item: QuestionItemId, min: f64, max: f64) -> Self {
        let range = max - min;
        if !(range.is_finite() && range > 0.0) {
            return Self { item, lower: min.floor(), width: 1.0, bins: 1 };
        }
        let rough = range / f64::from(HISTOGRAM_BINS);
        let magnitude = 10f64.powf(rough.log10().floor());
        let width = [1.0, 2.0, 2.5, 5.0, 10.0]
            .into_iter()
            .map(|step| step * magnitude)
            .find(|width| *width >= rough)
            .unwrap_or(10.0 * magnitude);
        let lower = (min / width).floor() * width;
        let bins = ((max - lower) / width).floor() as u32 + 1;
        Self { item, lower, width, bins: bins.clamp(1, HISTOGRAM_BINS + 1) }
    }

    /// The lower and upper edge of bin `index` (from 0).
    pub fn edges(&self, index: u32) -> (f64, f64) {
        let lower = self.lower + self.width * f64::from(index);
        (lower, lower + self.width)
    }

    /// The bin a number falls in, the lowest or highest one for a number outside them.
    pub fn bin_of(&self, number: f64) -> u32 {
        let index = ((number - self.lower) / self.width).floor();
        if index <= 0.0 {
            0
        } else {
            (index as u32).min(self.bins - 1)
        }
    }
}

/// A Numeric item's histogram: how many numbers fall in each bin of its layout.
#[derive(Debug, Clone, PartialEq)]
pub struct Histogram {
    /// Its bins.
    pub layout: BinLayout,
    /// The count of each bin, from the lowest.
    pub counts: Vec<i64>,
}

impl Histogram {
    /// The histogram of the layout from the store's counts of `(bin, count)` (bins not given count zero).
    pub fn of(layout: BinLayout, counts: impl IntoIterator<Item = (u32, i64)>) -> Self {
        let mut all = vec![0; layout.bins as usize];
        for (bin, count) in counts {
            if let Some(slot) = all.get_mut(bin as usize) {
                *slot += count;
            }
        }
        Self { layout, counts: all }
    }
}

/// A few texts answered to one OpenText item, the latest first: personal data, never in `Debug`.
#[derive(Clone, PartialEq, Eq)]
pub struct QuotedTexts {
    /// The item.
    pub item: QuestionItemId,
    /// The texts.
    pub texts: Vec<String>,
}
crate::debug_without_personal_data!(QuotedTexts { item });

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(min: f64, max: f64) -> BinLayout {
        BinLayout::of(QuestionItemId::new(1), min, max)
    }

    #[test]
    fn bins_are_round_and_hold_the_lowest_and_the_highest_number() {
        for (min, max) in [(0.0, 10.0), (0.5, 0.73), (-40.0, 12.0), (1.0, 1_000_000.0), (3.0, 3.2), (18.0, 67.0)] {
            let bins = layout(min, max);
            assert!(bins.bins <= HISTOGRAM_BINS + 1, "{min}..{max}: {bins:?}");
            assert!(bins.lower <= min && bins.edges(bins.bins - 1).1 > max, "{min}..{max}: {bins:?}");
            assert_eq!(bins.bin_of(min), 0);
            assert_eq!(bins.bin_of(max), bins.bins - 1, "{min}..{max}: {bins:?}");
            let mantissa = bins.width / 10f64.powf(bins.width.log10().floor());
            assert!([1.0, 2.0, 2.5, 5.0].iter().any(|m| (m - mantissa).abs() < 1e-9), "{bins:?}");
        }
        let zero_to_ten = layout(0.0, 10.0);
        assert_eq!((zero_to_ten.lower, zero_to_ten.width, zero_to_ten.bins), (0.0, 1.0, 11));
        assert_eq!(zero_to_ten.bin_of(9.99), 9);
    }

    #[test]
    fn a_single_number_is_one_bin_and_numbers_outside_fall_at_the_ends() {
        let bins = layout(-2.5, -2.5);
        assert_eq!((bins.lower, bins.width, bins.bins), (-3.0, 1.0, 1));
        assert_eq!((bins.bin_of(-100.0), bins.bin_of(100.0)), (0, 0));
        let five = BinLayout { item: QuestionItemId::new(1), lower: 0.0, width: 1.0, bins: 5 };
        let histogram = Histogram::of(five, [(0, 2), (3, 5), (3, 1), (99, 7)]);
        assert_eq!(histogram.counts, vec![2, 0, 0, 6, 0], "bin 99 does not exist");
    }
}
