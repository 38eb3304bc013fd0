//! The limits a request meets, kept by this process or, with `LIMITS_URL`, by Redis for every process of the
//! service (`canvass-limits`): each API key's request rate, the respondent side's guesses (unknown link tokens,
//! login identifiers, login pages) and an open link's starts, each per client (an IPv4 address or an IPv6 /64).
//!
//! A key's requests take their cells from Redis a few at a time: a process takes up to a hundredth of the key's
//! burst at once (one round trip) and spends them on the key's next requests within 5 seconds, so that a busy key
//! costs one round trip per that many requests while N processes hold back at most N hundredths of a burst.
//!
//! When Redis cannot be reached each limit follows its rule (docs/decisions.md, "Many servers, one service"): a
//! key's rate and an open link's starts fall back to this process's own count (open: the service then lets
//! through what one process lets through, times the processes); a guess fails closed, for the guard answers an
//! unknown link 503 rather than count nothing (a known one is served: it needs no count).

use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use canvass_limits::{SharedLimits, Unreachable, Window};
use moka::sync::Cache;

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

/// How long cells taken ahead stay this process's to spend.
const AHEAD_FOR: Duration = Duration::from_secs(5);

/// Keys with cells taken ahead, at most.
const KEYS_AHEAD: u64 = 10_000;

/// Cells of a key taken from Redis ahead of its requests, and where the key stood then.
#[derive(Debug, Clone, Copy)]
struct Ahead {
    cells: u32,
    remaining: u32,
    reset: Duration,
}

/// Every counter of the limits: see the module documentation.
pub struct Limits {
    keys: KeyLimits,
    failures: Failures,
    shared: Option<Arc<SharedLimits>>,
    ahead: Cache<KeyDigest, Arc<Mutex<Ahead>>>,
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
            ahead: Cache::builder().max_capacity(KEYS_AHEAD).time_to_live(AHEAD_FOR).build(),
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
        let Some(shared) = &self.shared else { return self.keys.check(digest) };
        if let Some(standing) = self.spend_ahead(digest) {
            return standing;
        }
        let wanted = (self.burst / 100).max(1);
        match shared.take_request(&hex::encode(digest), self.per_second, self.burst, wanted).await {
            Ok(grant) => {
                let ahead = grant.granted.saturating_sub(1);
                if ahead > 0 {
                    let cells = Ahead { cells: ahead, remaining: grant.remaining, reset: grant.reset };
                    self.ahead.insert(*digest, Arc::new(Mutex::new(cells)));
                }
                Standing::of_grant(&grant, ahead, self.burst)
            }
            Err(Unreachable) => self.keys.check(digest),
        }
    }

    /// Spends one cell taken ahead for this key, if one is left.
    fn spend_ahead(&self, digest: &KeyDigest) -> Option<Standing> {
        let entry = self.ahead.get(digest)?;
        let mut ahead = entry.lock().unwrap_or_else(PoisonError::into_inner);
        ahead.cells = ahead.cells.checked_sub(1)?;
        let reset = ahead.reset.as_secs() + u64::from(ahead.reset.subsec_nanos() > 0);
        let remaining = ahead.remaining.saturating_add(ahead.cells);
        Some(Standing { limit: self.burst, remaining, reset, retry_after: None })
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
    use std::num::NonZeroU32;

    use canvass_domain::ids::SendoutId;
    use canvass_limits::LimitsUrl;
    use canvass_testdb::TestRedis;

    use super::*;

    /// Three processes' limits over one Redis, a key's burst of 2,000 (a hundredth, 20 cells, taken at once): the
    /// key's requests, sent to each in turn as a round-robin proxy would, are let through about one burst in all,
    /// not three, and the cells each process holds back cost at most their hundredths.
    #[actix_web::test]
    async fn a_large_burst_holds_across_processes_that_take_cells_ahead() {
        let redis = TestRedis::start();
        let url = LimitsUrl::parse(&redis.url()).unwrap_or_else(|error| panic!("{error:?}"));
        let protection =
            Protection { rate_limit_per_key: NonZeroU32::new(200).unwrap_or(NonZeroU32::MIN), ..Protection::default() };
        let processes: Vec<Limits> = (0..3)
            .map(|_| {
                let shared = SharedLimits::open(&url).unwrap_or_else(|error| panic!("{error:?}"));
                Limits::local(&protection).shared(Arc::new(shared))
            })
            .collect();
        let digest = [7u8; 32];
        let mut let_through = 0;
        let mut refused_in_a_row = 0;
        let started = Instant::now();
        for request in 0..4_000 {
            let standing = processes[request % 3].count_request(&digest).await;
            if standing.retry_after.is_none() {
                let_through += 1;
                refused_in_a_row = 0;
            } else {
                refused_in_a_row += 1;
                if refused_in_a_row == 3 {
                    break;
                }
            }
        }
        // The key earns 200 cells a second while the requests run: they are part of what it may use.
        let earned = (started.elapsed().as_secs_f64() * 200.0).ceil() as u32;
        assert!(let_through >= 2_000 - 3 * 20, "{let_through} let through: the processes held back too much");
        assert!(let_through <= 2_000 + earned, "{let_through} let through, {earned} earned meanwhile");
        assert!(let_through <= 2_200 + earned, "within 10% of one burst");
    }

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
