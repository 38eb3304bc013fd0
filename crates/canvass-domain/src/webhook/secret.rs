//! A webhook's signing secret and the Standard Webhooks signature made with it.

use std::fmt;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use hmac::{Hmac, Mac};
use rand::RngCore;
use sha2::Sha256;

/// What every secret starts with.
pub const SECRET_PREFIX: &str = "whsec_";

/// A webhook's signing secret: `whsec_` and the base64 of 32 random bytes. Shown to the client once, when the
/// webhook is created; kept by the store to sign with. Its `Debug` never shows it.
#[derive(Clone, PartialEq, Eq)]
pub struct WebhookSecret(String);

impl fmt::Debug for WebhookSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("WebhookSecret(<redacted>)")
    }
}

impl WebhookSecret {
    /// A new random secret.
    ///
    /// ```
    /// use canvass_domain::webhook::WebhookSecret;
    ///
    /// let secret = WebhookSecret::generate();
    /// assert!(secret.expose().starts_with("whsec_"));
    /// assert_eq!(secret.expose().len(), 6 + 44);
    /// assert_ne!(WebhookSecret::generate(), secret);
    /// assert_eq!(format!("{secret:?}"), "WebhookSecret(<redacted>)");
    /// ```
    pub fn generate() -> Self {
        let mut bytes = [0u8; 32];
        rand::rng().fill_bytes(&mut bytes);
        Self(format!("{SECRET_PREFIX}{}", STANDARD.encode(bytes)))
    }

    /// A secret as the store keeps it.
    pub fn from_stored(secret: String) -> Self {
        Self(secret)
    }

    /// The secret itself: to store it, and to show it once in the answer to the creation.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// The Standard Webhooks signature of one attempt: `v1,` and the base64 of the HMAC-SHA256 of
    /// `<id>.<timestamp>.<body>`, keyed with the base64-decoded part of the secret after `whsec_`.
    ///
    /// ```
    /// use canvass_domain::webhook::WebhookSecret;
    ///
    /// // The example of the Standard Webhooks reference libraries.
    /// let secret = WebhookSecret::from_stored("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw".into());
    /// let body = r#"{"test": 2432232314}"#;
    /// assert_eq!(
    ///     secret.sign("msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body),
    ///     "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
    /// );
    /// ```
    pub fn sign(&self, id: &str, timestamp: i64, body: &str) -> String {
        let encoded = self.0.strip_prefix(SECRET_PREFIX).unwrap_or(&self.0);
        // A stored secret is always base64; should one not be, its bytes still key the MAC (never a panic).
        let key = STANDARD.decode(encoded).unwrap_or_else(|_| encoded.as_bytes().to_vec());
        // HMAC takes a key of any length: this never gives up.
        let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(&key) else { return String::new() };
        mac.update(format!("{id}.{timestamp}.{body}").as_bytes());
        format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes()))
    }
}
