//! `COOKIE_KEY`: the key that encrypts and authenticates the open links' cookies. At least 64 random bytes, given
//! in base64 (`openssl rand -base64 64`); every server of one service needs the same key, or a browser sent to
//! another server would start afresh. Never shown: its `Debug` says only that it is there.

use actix_web::cookie::Key;
use base64::Engine;

/// The fewest bytes a cookie key may have (the cookie crate derives its encryption and signing keys from them).
pub const MIN_BYTES: usize = 64;

/// A cookie key read from its base64 text.
#[derive(Clone)]
pub struct CookieKey(pub Key);

impl std::fmt::Debug for CookieKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CookieKey(<secret>)")
    }
}

impl std::str::FromStr for CookieKey {
    type Err = String;

    /// ```
    /// use canvass_http::CookieKey;
    ///
    /// let key = "a".repeat(88);
    /// assert!(key.parse::<CookieKey>().is_ok());
    /// assert!("c2hvcnQ=".parse::<CookieKey>().unwrap_err().contains("at least 64 bytes"));
    /// assert!("not base64!".parse::<CookieKey>().is_err());
    /// ```
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(text.trim())
            .map_err(|_| "must be base64 (openssl rand -base64 64)".to_owned())?;
        if bytes.len() < MIN_BYTES {
            return Err(format!("must hold at least {MIN_BYTES} bytes, not {}", bytes.len()));
        }
        Key::try_from(bytes.as_slice()).map(Self).map_err(|error| error.to_string())
    }
}
