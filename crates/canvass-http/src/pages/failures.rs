//! Failed guesses on the respondent pages, per client address: unknown link tokens under `/r/` and unknown login
//! identifiers per `/login/<sendoutId>`. Each address keeps the instants of its recent failures (a sliding
//! window); once more than the allowed number fall within the window, further attempts are refused until the
//! oldest of them leaves it. A login page's allowed number is its sendout's budget, as the page last told it.

use std::collections::VecDeque;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use moka::sync::Cache;

use crate::protection::FailureWindow;

/// What was guessed at.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Scope {
    /// A link token under `/r/`.
    Tokens,
    /// A login identifier of this `/login/<sendoutId>` (the path segment as sent).
    Login(String),
}

/// Addresses tracked at most; the least recently used are forgotten first.
const MAX_TRACKED: u64 = 100_000;

/// The recent failures of one address at one scope.
#[derive(Debug)]
struct Log {
    /// Failures allowed within the window.
    allowed: u32,
    /// When they happened, oldest first; at most `allowed + 1` are kept.
    at: VecDeque<Instant>,
}

/// Recent failures per client address and scope.
pub struct Failures {
    tokens: FailureWindow,
    logins: FailureWindow,
    recent: Cache<(IpAddr, Scope), Arc<Mutex<Log>>>,
}

impl Failures {
    /// Failure logs for these windows; an address's log is forgotten once the longer window has passed idle.
    pub fn new(tokens: FailureWindow, logins: FailureWindow) -> Self {
        let idle = tokens.window.max(logins.window);
        Self { tokens, logins, recent: Cache::builder().max_capacity(MAX_TRACKED).time_to_idle(idle).build() }
    }

    fn window(&self, scope: &Scope) -> FailureWindow {
        match scope {
            Scope::Tokens => self.tokens,
            Scope::Login(_) => self.logins,
        }
    }

    /// How long `address` must wait before it may try `scope` again, or `None` when it may now.
    pub fn blocked_for(&self, address: IpAddr, scope: &Scope, now: Instant) -> Option<Duration> {
        let window = self.window(scope).window;
        let log = self.recent.get(&(address, scope.clone()))?;
        let mut log = log.lock().ok()?;
        let allowed = log.allowed as usize;
        forget_old(&mut log.at, window, now);
        if log.at.len() <= allowed {
            return None;
        }
        // Blocked until enough failures have left the window to bring the count back to the allowed number.
        let freeing = log.at.len() - allowed - 1;
        log.at.get(freeing).map(|at| (*at + window).saturating_duration_since(now))
    }

    /// Records one failed guess of `address` at `scope`, where `budget` failures are allowed within the window
    /// (the scope's default when `None`).
    pub fn record(&self, address: IpAddr, scope: Scope, budget: Option<u32>, now: Instant) {
        let limit = self.window(&scope);
        let allowed = budget.unwrap_or(limit.allowed);
        let log = self.recent.get_with((address, scope), || Arc::new(Mutex::new(Log { allowed, at: VecDeque::new() })));
        let Ok(mut log) = log.lock() else { return };
        log.allowed = allowed;
        forget_old(&mut log.at, limit.window, now);
        log.at.push_back(now);
        // One past the allowed number is all that is needed to block; older ones are not kept.
        while log.at.len() > allowed as usize + 1 {
            log.at.pop_front();
        }
    }
}

fn forget_old(log: &mut VecDeque<Instant>, window: Duration, now: Instant) {
    while log.front().is_some_and(|at| now.saturating_duration_since(*at) >= window) {
        log.pop_front();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failures() -> Failures {
        Failures::new(
            FailureWindow { allowed: 3, window: Duration::from_secs(60) },
            FailureWindow { allowed: 2, window: Duration::from_secs(600) },
        )
    }

    #[test]
    fn more_than_the_allowed_failures_block_until_the_window_passes() {
        let failures = failures();
        let address: IpAddr = [192, 0, 2, 1].into();
        let start = Instant::now();
        for second in 0..4 {
            assert_eq!(failures.blocked_for(address, &Scope::Tokens, start + Duration::from_secs(second)), None);
            failures.record(address, Scope::Tokens, None, start + Duration::from_secs(second));
        }
        let later = start + Duration::from_secs(10);
        assert_eq!(failures.blocked_for(address, &Scope::Tokens, later), Some(Duration::from_secs(50)));
        assert_eq!(failures.blocked_for(address, &Scope::Tokens, start + Duration::from_secs(60)), None);
        assert_eq!(failures.blocked_for([192, 0, 2, 2].into(), &Scope::Tokens, later), None, "another address");
        assert_eq!(failures.blocked_for(address, &Scope::Login("1".into()), later), None, "another scope");
    }

    #[test]
    fn logins_count_per_sendout() {
        let failures = failures();
        let address: IpAddr = [192, 0, 2, 1].into();
        let now = Instant::now();
        for _ in 0..3 {
            failures.record(address, Scope::Login("7".into()), None, now);
        }
        assert!(failures.blocked_for(address, &Scope::Login("7".into()), now).is_some());
        assert!(failures.blocked_for(address, &Scope::Login("8".into()), now).is_none());
    }

    #[test]
    fn a_login_page_budget_is_the_one_its_page_last_gave() {
        let failures = failures();
        let address: IpAddr = [192, 0, 2, 1].into();
        let office = Scope::Login("9".into());
        let now = Instant::now();
        for _ in 0..5 {
            failures.record(address, office.clone(), Some(5), now);
        }
        assert_eq!(failures.blocked_for(address, &office, now), None, "five of a budget of five");
        failures.record(address, office.clone(), Some(5), now);
        assert!(failures.blocked_for(address, &office, now).is_some(), "the sixth");
        failures.record(address, office.clone(), Some(8), now);
        assert_eq!(failures.blocked_for(address, &office, now), None, "the sendout grew: seven of eight");
    }
}
