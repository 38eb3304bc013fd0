//! The arithmetic of insight figures, exact in integers: a quotient rounded half away from zero, and a rate
//! rounded to four decimals.

/// `numerator / denominator` rounded to the nearest integer, halves away from zero (`-12.5` → `-13`, `12.5` →
/// `13`), computed exactly in integers; `None` when `denominator` is not positive.
///
/// ```
/// use canvass_domain::insight::divide_rounded;
///
/// assert_eq!(divide_rounded(-100, 8), Some(-13));
/// assert_eq!(divide_rounded(100, 8), Some(13));
/// assert_eq!(divide_rounded(2, 3), Some(1));
/// assert_eq!(divide_rounded(1, 0), None);
/// ```
pub fn divide_rounded(numerator: i128, denominator: i128) -> Option<i128> {
    if denominator <= 0 {
        return None;
    }
    let magnitude = (2 * numerator.abs() + denominator) / (2 * denominator);
    Some(if numerator < 0 { -magnitude } else { magnitude })
}

/// Ten-thousandths in one.
const RATE_SCALE: i128 = 10_000;

/// `part / whole` rounded to four decimals (halves up, in integers); `None` when `whole` is 0 (or negative). The
/// value is the double nearest to the four-decimal figure, so it prints as that figure (`0.6667`).
///
/// ```
/// use canvass_domain::insight::rate;
///
/// assert_eq!(rate(2, 3), Some(0.6667));
/// assert_eq!(rate(1, 20_000), Some(0.0001), "0.00005 rounds up");
/// assert_eq!(rate(0, 0), None);
/// ```
pub fn rate(part: i64, whole: i64) -> Option<f64> {
    let scaled = divide_rounded(i128::from(part) * RATE_SCALE, i128::from(whole))?;
    // At most ten thousand times a ratio of i64s that never exceeds 1 in use: exact in an f64 (below 2^53).
    Some(scaled as f64 / RATE_SCALE as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_round_away_from_zero_and_the_rest_to_the_nearest() {
        assert_eq!(divide_rounded(25, 2), Some(13));
        assert_eq!(divide_rounded(-25, 2), Some(-13));
        assert_eq!(divide_rounded(24, 2), Some(12));
        assert_eq!(divide_rounded(-1, 3), Some(0));
        assert_eq!(divide_rounded(-2, 3), Some(-1));
        assert_eq!(divide_rounded(0, 7), Some(0));
        assert_eq!(divide_rounded(5, -1), None);
    }

    #[test]
    fn rates_have_four_decimals_and_none_without_a_whole() {
        assert_eq!(rate(1, 3), Some(0.3333));
        assert_eq!(rate(3, 3), Some(1.0));
        assert_eq!(rate(0, 5), Some(0.0));
        assert_eq!(rate(1, 7), Some(0.1429), "0.142857… rounds up");
        assert_eq!(rate(12_345, 100_000_000), Some(0.0001), "0.00012345 rounds down");
        assert_eq!(rate(3, 0), None);
        assert_eq!(rate(2, 3).map(|r| r.to_string()), Some("0.6667".to_owned()), "prints as its four decimals");
    }
}
