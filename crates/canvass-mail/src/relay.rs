//! `SMTP_URL`: which relay, how the connection to it is secured, and the credentials. Credentials are never sent
//! over a connection that is not encrypted, so a URL with credentials and no TLS is refused.

use std::fmt;

use mail_send::Credentials;
use percent_encoding::percent_decode_str;

/// How the connection to the relay is secured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Security {
    /// `smtp://host:port`: plain SMTP, for a relay on the same host or network.
    Plain,
    /// `smtp://host:587?tls=required`: STARTTLS, and nothing is sent to a relay that does not offer it.
    StartTlsRequired,
    /// `smtp://host:587?tls=opportunistic`: STARTTLS when the relay offers it, else plain.
    StartTlsOpportunistic,
    /// `smtps://host:465`: TLS from the first byte.
    Implicit,
}

/// A relay named by `SMTP_URL`.
#[derive(Clone)]
pub struct Relay {
    /// Host name or address (also the name its certificate must carry).
    pub host: String,
    /// Port.
    pub port: u16,
    /// How the connection is secured.
    pub security: Security,
    pub(crate) credentials: Option<Credentials<String>>,
}

impl fmt::Debug for Relay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Relay")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("security", &self.security)
            .field("credentials", &self.credentials.as_ref().map(|_| "<redacted>"))
            .finish()
    }
}

impl Relay {
    /// Reads an `SMTP_URL`. Its errors never repeat the URL, which may hold a password.
    ///
    /// ```
    /// use canvass_mail::{Relay, Security};
    ///
    /// let relay = Relay::parse("smtp://user:secret@mail.example:587?tls=required").unwrap();
    /// assert_eq!((relay.host.as_str(), relay.port, relay.security), ("mail.example", 587, Security::StartTlsRequired));
    /// assert!(!format!("{relay:?}").contains("secret"));
    /// assert_eq!(Relay::parse("smtps://user:secret@mail.example").unwrap().port, 465);
    /// let refused = Relay::parse("smtp://user:secret@mail.example:25").unwrap_err();
    /// assert!(refused.contains("no TLS") && !refused.contains("secret"));
    /// ```
    pub fn parse(text: &str) -> Result<Self, String> {
        let url = url::Url::parse(text).map_err(|e| format!("SMTP_URL is not a URL: {e}"))?;
        let host = url.host_str().filter(|h| !h.is_empty()).ok_or("SMTP_URL has no host")?;
        let host = host.trim_start_matches('[').trim_end_matches(']').to_owned();
        let tls = url.query_pairs().find(|(key, _)| key == "tls").map(|(_, value)| value.into_owned());
        let security = match (url.scheme(), tls.as_deref()) {
            ("smtp", None) => Security::Plain,
            ("smtp", Some("required")) => Security::StartTlsRequired,
            ("smtp", Some("opportunistic")) => Security::StartTlsOpportunistic,
            ("smtps", None | Some("required")) => Security::Implicit,
            ("smtp" | "smtps", Some(other)) => {
                return Err(format!("SMTP_URL: tls={other} is not one of required, opportunistic"))
            }
            (scheme, _) => return Err(format!("SMTP_URL: the scheme must be smtp or smtps, not {scheme}")),
        };
        let port = url.port().unwrap_or(match security {
            Security::Plain => 25,
            Security::StartTlsRequired | Security::StartTlsOpportunistic => 587,
            Security::Implicit => 465,
        });
        let credentials = credentials(&url)?;
        if credentials.is_some() && matches!(security, Security::Plain | Security::StartTlsOpportunistic) {
            return Err("SMTP_URL has credentials but no TLS, and credentials are never sent unencrypted: use \
                        smtp://user:password@host:587?tls=required (STARTTLS) or smtps://user:password@host:465"
                .into());
        }
        Ok(Self { host, port, security, credentials })
    }

    /// Whether the relay gets credentials (AUTH).
    pub fn authenticates(&self) -> bool {
        self.credentials.is_some()
    }
}

fn credentials(url: &url::Url) -> Result<Option<Credentials<String>>, String> {
    if url.username().is_empty() && url.password().is_none() {
        return Ok(None);
    }
    let decode = |part: &str, what: &str| {
        percent_decode_str(part)
            .decode_utf8()
            .map(|text| text.into_owned())
            .map_err(|_| format!("SMTP_URL: the {what} is not UTF-8 once percent-decoded"))
    };
    let user = decode(url.username(), "user name")?;
    let password = decode(url.password().unwrap_or_default(), "password")?;
    Ok(Some(Credentials::new(user, password)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_four_forms_are_read() {
        let plain = Relay::parse("smtp://127.0.0.1:2525").unwrap();
        assert_eq!((plain.port, plain.security, plain.authenticates()), (2525, Security::Plain, false));
        assert_eq!(Relay::parse("smtp://relay.example").unwrap().port, 25);
        let opportunistic = Relay::parse("smtp://relay.example:587?tls=opportunistic").unwrap();
        assert_eq!(opportunistic.security, Security::StartTlsOpportunistic);
        let required = Relay::parse("smtp://a%40b:p%3Aw@relay.example:587?tls=required").unwrap();
        assert!(required.credentials == Some(Credentials::new("a@b".into(), "p:w".into())), "percent-decoded");
        let implicit = Relay::parse("smtps://user:pw@[::1]:4650").unwrap();
        assert_eq!((implicit.host.as_str(), implicit.port, implicit.security), ("::1", 4650, Security::Implicit));
    }

    #[test]
    fn credentials_without_tls_and_unknown_forms_are_refused_without_the_password() {
        for url in [
            "smtp://user:hunter2@relay.example:25",
            "smtp://user:hunter2@relay.example:587?tls=opportunistic",
            "smtp://user:hunter2@relay.example:587?tls=sometimes",
            "http://user:hunter2@relay.example",
            "smtp://user:hunter2@",
        ] {
            let error = Relay::parse(url).unwrap_err();
            assert!(!error.contains("hunter2"), "{url}: {error}");
        }
    }
}
