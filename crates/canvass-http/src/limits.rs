//! The limits a request meets, kept by this process or, with `LIMITS_URL`, by Redis for every process of the
//! service (`canvass-limits`): each API key's request rate, the respondent side's guesses (unknown link tokens,
//! login identifiers, login pages) and an open link's starts, each per client (an IPv4 address or an IPv6 /64).
//!
//! When Redis cannot be reached each limit follows its rule (docs/decisions.md, "Many servers, one service"): a
//! key's rate and an open link's starts fall back to this process's own count (open: the service then lets
//! through what one process lets through, times the processes); a guess fails closed, for the guard answers an
//! unknown link 503 rather than count nothing (a known one is served: it needs no count).

use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use canvass_limits::{SharedLimits, Unreachable, Window};

use crate::middleware::key_limits::{KeyDigest, KeyLimits, Standing};
use crate::pages::failures::{Client, Failures, Scope};
use crate::protection::Protection;

/// Whether a client may guess now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GuessCheck {
    /// It may.
    Free,
    /// Not before this has passed.
    Wait(Duration),
    /// The shared count could not be read: an unknown credential must not be answered as such.
    Unchecked,
}

/// Every counter of the limits: see the module documentation.
pub struct Limits {
    keys: KeyLimits,
    failures: Failures,
    shared: Option<Arc<SharedLimits>>,
    per_second: u32,
    burst: u32,
}

impl Limits {
    /// Counters of this process alone, under `protection`.
    pub fn local(protection: &Protection) -> Self {
        let failures = Failures::new(protection.token_failures, protection.login_failures)
            .with_starts(protection.open_link_starts);
        Self {
            keys: KeyLimits::new(protection.rate_limit_per_key, protection.burst_per_key()),
            failures,
            shared: None,
            per_second: protection.rate_limit_per_key.get(),
            burst: protection.burst_per_key().get(),
        }
    }

    /// The same limits kept in `shared` for every process, this process's counters their fallback.
    pub fn shared(self, shared: Arc<SharedLimits>) -> Self {
        Self { shared: Some(shared), ..self }
    }

    /// Whether the shared limits answered the last request: `None` without `LIMITS_URL`.
    pub fn backend_up(&self) -> Option<bool> {
        self.shared.as_ref().map(|shared| shared.is_up())
    }

    /// Counts one request of the key with this digest and says where the key stands.
    pub async fn count_request(&self, digest: &KeyDigest) -> Standing {
        if let Some(shared) = &self.shared {
            if let Ok(grant) = shared.take_request(&hex::encode(digest), self.per_second, self.burst).await {
                return Standing::of_grant(&grant, self.burst);
            }
        }
        self.keys.check(digest)
    }

    /// Whether the client at `address` may guess at every one of `scopes` now.
    pub async fn guess_check(&self, address: IpAddr, scopes: &[Scope]) -> GuessCheck {
        let client = Client::of(address);
        let Some(shared) = &self.shared else {
            let now = Instant::now();
            let wait = scopes.iter().filter_map(|scope| self.failures.blocked_for(address, *scope, now)).max();
            return wait.map_or(GuessCheck::Free, GuessCheck::Wait);
        };
        let keys: Vec<String> = scopes.iter().map(|scope| window_key(*scope, client)).collect();
        let windows: Vec<Window<'_>> = scopes
            .iter()
            .zip(&keys)
            .map(|(scope, key)| {
                let window = self.failures.window(*scope);
                Window { key, allowed: window.allowed, span: window.window }
            })
            .collect();
        match shared.wait(&windows).await {
            Ok(Some(wait)) => GuessCheck::Wait(wait),
            Ok(None) => GuessCheck::Free,
            Err(Unreachable) => GuessCheck::Unchecked,
        }
    }

    /// Records one failed guess of `address` at `scope`, where `budget` failures are allowed within the window
    /// (the scope's default when `None`).
    pub async fn record_guess(&self, address: IpAddr, scope: Scope, budget: Option<u32>) -> Result<(), Unreachable> {
        let Some(shared) = &self.shared else {
            self.failures.record(address, scope, budget, Instant::now());
            return Ok(());
        };
        let window = self.failures.window(scope);
        let key = window_key(scope, Client::of(address));
        shared.record(Window { key: &key, allowed: budget.unwrap_or(window.allowed), span: window.window }).await
    }

    /// Counts one start of an open link (`scope`) by `address`, unless its window is full: then the wait.
    pub async fn start(&self, address: IpAddr, scope: Scope) -> Option<Duration> {
        if let Some(shared) = &self.shared {
            let window = self.failures.window(scope);
            let key = window_key(scope, Client::of(address));
            if let Ok(wait) = shared.take(Window { key: &key, allowed: window.allowed, span: window.window }).await {
                return wait;
            }
        }
        let now = Instant::now();
        let wait = self.failures.blocked_for(address, scope, now);
        if wait.is_none() {
            self.failures.record(address, scope, None, now);
        }
        wait
    }
}

/// The name of a client's window at a scope in Redis: parsed values only (a sendout id, a handle's account and
/// random bits, an address), never text a client wrote.
fn window_key(scope: Scope, client: Client) -> String {
    let client = client.address();
    match scope {
        Scope::Tokens => format!("tokens:{client}"),
        Scope::Login(sendout) => format!("login:{}:{client}", sendout.get()),
        Scope::UnknownSendouts => format!("sendouts:{client}"),
        Scope::Starts(account, random) => format!("starts:{}:{}:{client}", account.get(), hex::encode(random)),
    }
}

#[cfg(test)]
mod tests {
    use canvass_domain::ids::SendoutId;

    use super::*;

    #[test]
    fn windows_are_named_by_scope_and_client_an_ipv6_client_by_its_64() {
        let v6 = |text: &str| Client::of(text.parse().unwrap_or(IpAddr::from([0u8; 16])));
        let one = window_key(Scope::Login(SendoutId::new(7)), v6("2001:db8:1:2:aaaa::1"));
        assert_eq!(one, "login:7:2001:db8:1:2::");
        assert_eq!(one, window_key(Scope::Login(SendoutId::new(7)), v6("2001:db8:1:2:ffff::9")));
        assert_ne!(window_key(Scope::Tokens, v6("2001:db8:1:3::1")), window_key(Scope::Tokens, v6("2001:db8:1:2::1")));
        assert_eq!(window_key(Scope::Tokens, Client::of(IpAddr::from([192, 0, 2, 1]))), "tokens:192.0.2.1");
    }
}
