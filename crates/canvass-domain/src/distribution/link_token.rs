//! Survey link tokens: the public handle of a respondent, which names the respondent's account so that a look-up
//! goes to that account's data alone (one shard when the tables are distributed by account, docs/scaling.md).

use rand::RngCore;

use crate::ids::AccountId;

/// What separates the account from the random part in a survey link token (`<account>-<40 hex digits>`).
pub const ACCOUNT_SEPARATOR: char = '-';

/// Random hexadecimal digits in every survey link token: 160 random bits.
const RANDOM_DIGITS: usize = 40;

/// Most decimal digits of an account id (`i64::MAX` has 19).
const MAX_ACCOUNT_DIGITS: usize = 19;

/// Where a survey link token says its respondent is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkRoute {
    /// A token of the current form: the respondent is one of this account's (if any is).
    Account(AccountId),
    /// A token sent before tokens named their account (40 hex digits alone): it may be any account's.
    AnyAccount,
}

/// A new survey link token of a respondent of `account`: the account id in base 10, `-`, and 160 random bits as
/// 40 lowercase hexadecimal digits. URL-safe; the account part is no secret (the random part is).
///
/// ```
/// use canvass_domain::distribution::{new_survey_link_token, survey_link_route, LinkRoute};
/// use canvass_domain::ids::AccountId;
///
/// let token = new_survey_link_token(AccountId::new(42));
/// assert!(token.starts_with("42-"));
/// assert_eq!(survey_link_route(&token), Some(LinkRoute::Account(AccountId::new(42))));
/// ```
pub fn new_survey_link_token(account: AccountId) -> String {
    account_token(account, &random_part())
}

/// 160 random bits as 40 lowercase hexadecimal digits: the secret part of a link token or an open link's handle.
pub(crate) fn random_part() -> String {
    let mut bytes = [0u8; RANDOM_DIGITS / 2];
    rand::rng().fill_bytes(&mut bytes);
    hex::encode(bytes)
}

/// `<account>-<random>`: a token that names its account, so its look-up goes to that account's data alone.
pub(crate) fn account_token(account: AccountId, random: &str) -> String {
    format!("{}{ACCOUNT_SEPARATOR}{random}", account.get())
}

fn is_random_part(text: &str) -> bool {
    text.len() == RANDOM_DIGITS && text.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// Where the token `text` leads: to one account (`<account>-<40 hex digits>`, the account a positive base-10
/// number without leading zeros), to any account (40 hex digits alone: a token of the old form), or nowhere
/// (`None`: anything else, which is never looked up).
///
/// ```
/// use canvass_domain::distribution::{survey_link_route, LinkRoute};
/// use canvass_domain::ids::AccountId;
///
/// let random = "0123456789abcdef0123456789abcdef01234567";
/// assert_eq!(survey_link_route(&format!("7-{random}")), Some(LinkRoute::Account(AccountId::new(7))));
/// assert_eq!(survey_link_route(random), Some(LinkRoute::AnyAccount));
/// assert_eq!(survey_link_route("erased:42"), None);
/// assert_eq!(survey_link_route(&format!("07-{random}")), None);
/// ```
pub fn survey_link_route(text: &str) -> Option<LinkRoute> {
    let Some((account, random)) = text.split_once(ACCOUNT_SEPARATOR) else {
        return is_random_part(text).then_some(LinkRoute::AnyAccount);
    };
    let canonical = !account.is_empty()
        && account.len() <= MAX_ACCOUNT_DIGITS
        && account.bytes().all(|b| b.is_ascii_digit())
        && !account.starts_with('0');
    if !canonical || !is_random_part(random) {
        return None;
    }
    account.parse::<i64>().ok().map(|id| LinkRoute::Account(AccountId::new(id)))
}

/// Whether `text` has the shape of a survey link token, of either form: anything else is no link, and is not
/// looked up.
///
/// ```
/// use canvass_domain::distribution::{is_survey_link_token, new_survey_link_token};
/// use canvass_domain::ids::AccountId;
///
/// assert!(is_survey_link_token(&new_survey_link_token(AccountId::new(1))));
/// assert!(is_survey_link_token("0123456789abcdef0123456789abcdef01234567"));
/// assert!(!is_survey_link_token("erased:42"));
/// assert!(!is_survey_link_token("0000000000000000000000000000000000000\0\0\0"));
/// ```
pub fn is_survey_link_token(text: &str) -> bool {
    survey_link_route(text).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    const RANDOM: &str = "0123456789abcdef0123456789abcdef01234567";

    #[test]
    fn new_tokens_name_their_account_and_keep_160_random_bits() {
        let account = AccountId::new(9_007_199_254_740_993);
        let one = new_survey_link_token(account);
        let two = new_survey_link_token(account);
        assert_ne!(one, two);
        let (prefix, random) = one.split_once('-').unwrap();
        assert_eq!(prefix, "9007199254740993");
        assert!(is_random_part(random), "{one}");
        assert_eq!(survey_link_route(&one), Some(LinkRoute::Account(account)));
        assert!(one.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'), "URL-safe: {one}");
    }

    #[test]
    fn the_largest_account_id_round_trips() {
        let token = new_survey_link_token(AccountId::new(i64::MAX));
        assert_eq!(survey_link_route(&token), Some(LinkRoute::Account(AccountId::new(i64::MAX))));
    }

    #[test]
    fn old_tokens_lead_to_any_account() {
        assert_eq!(survey_link_route(RANDOM), Some(LinkRoute::AnyAccount));
    }

    #[test]
    fn malformed_tokens_lead_nowhere() {
        for bad in [
            String::new(),
            "-".to_owned(),
            format!("-{RANDOM}"),
            format!("0-{RANDOM}"),
            format!("007-{RANDOM}"),
            format!("+7-{RANDOM}"),
            format!("x7-{RANDOM}"),
            format!("7 -{RANDOM}"),
            format!("9223372036854775808-{RANDOM}"),
            format!("99999999999999999999-{RANDOM}"),
            format!("7-{}", &RANDOM[1..]),
            format!("7-{RANDOM}0"),
            format!("7-{}", RANDOM.to_uppercase()),
            format!("7-7-{RANDOM}"),
            format!("7-{RANDOM}-"),
            RANDOM[1..].to_owned(),
            RANDOM.to_uppercase(),
            "erased:42".to_owned(),
            format!("{}{RANDOM}", crate::distribution::ERASED_PREFIX),
        ] {
            assert_eq!(survey_link_route(&bad), None, "{bad:?}");
        }
    }
}
