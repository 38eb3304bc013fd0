//! Failed guesses on the respondent pages, per client: unknown link tokens under `/r/`, unknown login identifiers
//! per LOGIN sendout, and login pages of no LOGIN sendout at all. Each client keeps the instants of its recent
//! failures per scope (a sliding window); once more than the allowed number fall within the window, further
//! attempts are refused until the oldest of them leaves it. A login page's allowed number is its sendout's budget,
//! as the page last told it.
//!
//! A client is an IPv4 address, or an IPv6 /64: one subscriber's network, whose addresses it can rotate at will.
//! Scopes are parsed values (a sendout id, never the path text), so a client holds at most two logs plus one per
//! real LOGIN sendout it failed on, and each log is weighed by the bytes it may grow to: the cache is bounded by
//! [`MAX_BYTES`], not by a count of entries of any size.

use std::collections::VecDeque;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use canvass_domain::ids::SendoutId;
use moka::sync::Cache;

use crate::protection::FailureWindow;

/// What was guessed at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope {
    /// A link token under `/r/`.
    Tokens,
    /// A login identifier of this LOGIN sendout.
    Login(SendoutId),
    /// A login page of no LOGIN sendout (an id that is not one, or not in its canonical spelling): guessing at
    /// sendouts, shared by every such page.
    UnknownSendouts,
    /// Starts of one open link (not failures: every start counts), by its parsed handle: the account it names
    /// and its 160 random bits.
    Starts(canvass_domain::AccountId, [u8; 20]),
}

impl Scope {
    /// The scope of the starts of the open link `handle`; `None` for a handle of no form, which starts no one.
    pub fn starts_of(handle: &str) -> Option<Self> {
        let Some(canvass_domain::distribution::LinkRoute::Account(account)) =
            canvass_domain::distribution::survey_link_route(handle)
        else {
            return None;
        };
        let random = hex::decode(handle.split_once('-')?.1).ok()?;
        Some(Self::Starts(account, random.try_into().ok()?))
    }
}

/// Who failed: an IPv4 address, or the /64 network of an IPv6 address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Client(IpAddr);

impl Client {
    /// The client an address belongs to: itself for IPv4 (and IPv4-mapped IPv6), its /64 for IPv6.
    pub fn of(address: IpAddr) -> Self {
        match address.to_canonical() {
            IpAddr::V6(v6) => Self(IpAddr::V6(Ipv6Addr::from(v6.to_bits() & !u128::from(u64::MAX)))),
            v4 => Self(v4),
        }
    }

    /// The address that names the client: an IPv6 /64 with its low 64 bits cleared.
    pub fn address(self) -> IpAddr {
        self.0
    }
}

/// The most the failure logs may weigh together, in bytes; the least recently used go first beyond it.
pub const MAX_BYTES: u64 = 32 * 1024 * 1024;

/// What one log costs beside its instants: its key, the entry, its lock and the cache's own bookkeeping.
const ENTRY_BYTES: u64 = 256;

/// The recent failures of one client at one scope.
#[derive(Debug)]
struct Log {
    /// Failures allowed within the window; the log's weight follows it.
    allowed: AtomicU32,
    /// When they happened, oldest first; at most `allowed + 1` are kept.
    at: Mutex<VecDeque<Instant>>,
}

impl Log {
    /// The bytes this log may grow to: one past the allowed number of instants, in a buffer that grows by doubling.
    fn weight(&self) -> u32 {
        let instants = u64::from(self.allowed.load(Ordering::Acquire)).saturating_add(1).next_power_of_two();
        let bytes = ENTRY_BYTES + instants * std::mem::size_of::<Instant>() as u64;
        u32::try_from(bytes).unwrap_or(u32::MAX)
    }
}

/// Recent failures per client and scope.
pub struct Failures {
    tokens: FailureWindow,
    logins: FailureWindow,
    starts: FailureWindow,
    recent: Cache<(Client, Scope), Arc<Log>>,
}

impl Failures {
    /// Failure logs for these windows; a client's log is forgotten once the longer window has passed idle.
    pub fn new(tokens: FailureWindow, logins: FailureWindow) -> Self {
        Self::weighing(tokens, logins, MAX_BYTES)
    }

    fn weighing(tokens: FailureWindow, logins: FailureWindow, max_bytes: u64) -> Self {
        let idle = tokens.window.max(logins.window).max(crate::protection::OPEN_LINK_STARTS.window);
        let recent = Cache::builder()
            .max_capacity(max_bytes)
            .weigher(|_, log: &Arc<Log>| log.weight())
            .time_to_idle(idle)
            .build();
        Self { tokens, logins, starts: crate::protection::OPEN_LINK_STARTS, recent }
    }

    /// The same logs, with `starts` the window of an open link's starts (its `allowed` the starts that pass).
    pub fn with_starts(self, starts: FailureWindow) -> Self {
        Self { starts, ..self }
    }

    /// The window of `scope`: for starts, its `allowed` one fewer than the starts that pass (a log refuses once it
    /// holds more than `allowed`).
    pub fn window(&self, scope: Scope) -> FailureWindow {
        match scope {
            Scope::Tokens => self.tokens,
            Scope::Login(_) | Scope::UnknownSendouts => self.logins,
            // One fewer than the starts that pass: the log refuses once it holds more than this.
            Scope::Starts(..) => FailureWindow { allowed: self.starts.allowed.saturating_sub(1), ..self.starts },
        }
    }

    /// How long `address` must wait before it may try `scope` again, or `None` when it may now.
    pub fn blocked_for(&self, address: IpAddr, scope: Scope, now: Instant) -> Option<Duration> {
        let window = self.window(scope).window;
        let log = self.recent.get(&(Client::of(address), scope))?;
        let allowed = log.allowed.load(Ordering::Acquire) as usize;
        let mut at = log.at.lock().ok()?;
        forget_old(&mut at, window, now);
        if at.len() <= allowed {
            return None;
        }
        // Blocked until enough failures have left the window to bring the count back to the allowed number.
        let freeing = at.len() - allowed - 1;
        at.get(freeing).map(|at| (*at + window).saturating_duration_since(now))
    }

    /// Records one failed guess of `address` at `scope`, where `budget` failures are allowed within the window
    /// (the scope's default when `None`).
    pub fn record(&self, address: IpAddr, scope: Scope, budget: Option<u32>, now: Instant) {
        let limit = self.window(scope);
        let allowed = budget.unwrap_or(limit.allowed);
        let key = (Client::of(address), scope);
        let log = self
            .recent
            .entry(key)
            .or_insert_with(|| Arc::new(Log { allowed: AtomicU32::new(allowed), at: Mutex::new(VecDeque::new()) }))
            .into_value();
        if log.allowed.swap(allowed, Ordering::AcqRel) != allowed {
            // The page gave another budget: the same log again, so the cache weighs it anew.
            self.recent.insert(key, log.clone());
        }
        let Ok(mut at) = log.at.lock() else { return };
        forget_old(&mut at, limit.window, now);
        at.push_back(now);
        // One past the allowed number is all that is needed to block; older ones are not kept.
        while at.len() > allowed as usize + 1 {
            at.pop_front();
        }
    }

    /// The logs kept and their weight in bytes, once pending evictions are done.
    pub fn kept(&self) -> (u64, u64) {
        self.recent.run_pending_tasks();
        (self.recent.entry_count(), self.recent.weighted_size())
    }
}

fn forget_old(log: &mut VecDeque<Instant>, window: Duration, now: Instant) {
    while log.front().is_some_and(|at| now.saturating_duration_since(*at) >= window) {
        log.pop_front();
    }
}

#[cfg(test)]
mod tests;
