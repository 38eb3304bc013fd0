//! An account's settings: the floor of the smallest group a breakdown shows, which no query may go under.

use crate::error::FieldError;

/// The largest floor an account may set.
pub const MAX_MIN_GROUP_SIZE: i64 = 10_000;

/// What an account has set; every setting has a default until it is set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AccountSettings {
    /// The floor of `minGroupSize`: no breakdown of the account's results shows a group of fewer answer sets.
    pub min_group_size: i64,
}

impl Default for AccountSettings {
    fn default() -> Self {
        Self { min_group_size: 1 }
    }
}

impl AccountSettings {
    /// Checked settings: a floor from 1 to [`MAX_MIN_GROUP_SIZE`].
    ///
    /// ```
    /// use canvass_domain::account::AccountSettings;
    ///
    /// assert_eq!(AccountSettings::new(5).unwrap().min_group_size, 5);
    /// assert_eq!(AccountSettings::new(0).unwrap_err().field, "minGroupSize");
    /// ```
    pub fn new(min_group_size: i64) -> Result<Self, FieldError> {
        if !(1..=MAX_MIN_GROUP_SIZE).contains(&min_group_size) {
            return Err(FieldError::new("minGroupSize", format!("must be from 1 to {MAX_MIN_GROUP_SIZE}")));
        }
        Ok(Self { min_group_size })
    }

    /// The smallest group a breakdown shows: the query's, which may not be under the floor, or else the larger of
    /// [`crate::insight::DEFAULT_MIN_GROUP_SIZE`] and the floor.
    pub fn min_group_size(self, asked: Option<i64>) -> Result<i64, FieldError> {
        match asked {
            Some(asked) if asked < self.min_group_size => Err(FieldError::new(
                "minGroupSize",
                format!("must be at least {}, the account's floor", self.min_group_size),
            )),
            Some(asked) => Ok(asked),
            None => Ok(crate::insight::DEFAULT_MIN_GROUP_SIZE.max(self.min_group_size)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_query_may_not_go_under_the_floor() {
        let floor = AccountSettings::new(8).unwrap();
        assert_eq!(floor.min_group_size(None), Ok(8));
        assert_eq!(floor.min_group_size(Some(9)), Ok(9));
        assert_eq!(floor.min_group_size(Some(7)).unwrap_err().field, "minGroupSize");
        let unset = AccountSettings::default();
        assert_eq!(unset.min_group_size(None), Ok(5), "the default is 5 over a lower floor");
        assert_eq!(unset.min_group_size(Some(1)), Ok(1));
        assert!(AccountSettings::new(MAX_MIN_GROUP_SIZE + 1).is_err() && AccountSettings::new(-1).is_err());
    }
}
