//! The lane's queue: one queue per [`Share`], each in arrival order, and which unit of work a free thread takes
//! next. The share with the fewest of the lane's threads goes first, and among shares holding as many, the one
//! served longest ago (a share that starts to wait counts as served just before the share served last); so while
//! several shares wait, each freed thread goes to one that holds less than its part, a share that starts to wait
//! is served after one turn of each share waiting longer, and a share alone may have every thread. Bounded: a share may have [`SHARE_QUEUE`] units waiting and the lane
//! [`LANE_QUEUE`]. No threads or locks here: the lane keeps this behind its mutex.

use std::collections::{HashMap, VecDeque};

use crate::blocking::Share;

/// How many units of work one share may have waiting: four times the 32 clients the read benchmarks run, so a busy
/// integration keeps its requests queued, while a client that sends more at once than the lane could ever run
/// within its turn wait is answered 503 at once, holding neither memory nor a place in the queue.
pub const SHARE_QUEUE: usize = 128;

/// How many units of work the lane may have waiting in all: sixteen full shares. Each holds its request's parsed
/// input (up to a 1 MiB body), so the bound is also one on memory.
pub const LANE_QUEUE: usize = 16 * SHARE_QUEUE;

/// Why a unit of work was not queued.
#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    /// Its share has as many units waiting as the schedule's bound for one share.
    ShareFull,
    /// The lane has as many units waiting as the schedule's bound in all.
    LaneFull,
}

/// Where a queued unit of work is, for taking it back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ticket {
    share: Share,
    number: u64,
}

/// The units of work waiting, by share, and the threads each share holds.
pub struct Schedule<J> {
    shares: HashMap<Share, Turns<J>>,
    waiting: usize,
    share_bound: usize,
    lane_bound: usize,
    /// Numbers the units of work in arrival order.
    arrivals: u64,
    /// Counts the units of work handed to threads, so that shares can be served in turn.
    served: u64,
}

/// One share's units of work waiting, oldest first, and what it holds.
struct Turns<J> {
    waiting: VecDeque<(u64, J)>,
    running: usize,
    /// In half turns, when the share last had a unit of work taken: twice the turn's number; for a share that
    /// started to wait and has not been served since, one less than twice the turn before it came (so it goes
    /// after the shares served earlier and before the one served last).
    last_served: u64,
}

impl<J> Schedule<J> {
    /// An empty schedule that queues at most `share_bound` units of one share and `lane_bound` in all (at least
    /// one each).
    pub fn bounded(share_bound: usize, lane_bound: usize) -> Self {
        Self {
            shares: HashMap::new(),
            waiting: 0,
            share_bound: share_bound.max(1),
            lane_bound: lane_bound.max(1),
            arrivals: 0,
            served: 0,
        }
    }

    /// How many units of work wait, in all.
    pub fn waiting(&self) -> usize {
        self.waiting
    }

    /// Queues `job` behind its share's others; refused when its share's queue or the lane's is full.
    pub fn push(&mut self, share: Share, job: J) -> Result<Ticket, Refused> {
        if self.waiting >= self.lane_bound {
            return Err(Refused::LaneFull);
        }
        let arrived = (2 * self.served).saturating_sub(1);
        let turns = self.shares.entry(share).or_insert_with(|| Turns {
            waiting: VecDeque::new(),
            running: 0,
            last_served: arrived,
        });
        if turns.waiting.len() >= self.share_bound {
            return Err(Refused::ShareFull);
        }
        self.arrivals += 1;
        turns.waiting.push_back((self.arrivals, job));
        self.waiting += 1;
        Ok(Ticket { share, number: self.arrivals })
    }

    /// Takes back a unit of work no thread has taken yet; `None` when one has.
    pub fn withdraw(&mut self, ticket: Ticket) -> Option<J> {
        let turns = self.shares.get_mut(&ticket.share)?;
        let at = turns.waiting.binary_search_by_key(&ticket.number, |(number, _)| *number).ok()?;
        let (_, job) = turns.waiting.remove(at)?;
        self.waiting -= 1;
        if turns.waiting.is_empty() && turns.running == 0 {
            self.shares.remove(&ticket.share);
        }
        Some(job)
    }

    /// The unit of work a free thread takes next, and its share, which holds one more thread until [`Self::done`].
    pub fn next(&mut self) -> Option<(Share, J)> {
        let share = self
            .shares
            .iter()
            .filter_map(|(share, turns)| {
                let (oldest, _) = turns.waiting.front()?;
                Some(((turns.running, turns.last_served, *oldest), *share))
            })
            .min_by_key(|(order, _)| *order)?
            .1;
        let turns = self.shares.get_mut(&share)?;
        let (_, job) = turns.waiting.pop_front()?;
        self.waiting -= 1;
        self.served += 1;
        turns.running += 1;
        turns.last_served = 2 * self.served;
        Some((share, job))
    }

    /// A unit of work of `share` has ended: its thread is free.
    pub fn done(&mut self, share: Share) {
        if let Some(turns) = self.shares.get_mut(&share) {
            turns.running = turns.running.saturating_sub(1);
            if turns.running == 0 && turns.waiting.is_empty() {
                self.shares.remove(&share);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use canvass_domain::AccountId;

    use super::*;

    const A: Share = Share::Account(AccountId::new(1));
    const B: Share = Share::Account(AccountId::new(2));

    /// The labels of the next `count` units taken, each done at once (one thread).
    fn taken_one_at_a_time(schedule: &mut Schedule<&'static str>, count: usize) -> Vec<&'static str> {
        (0..count)
            .filter_map(|_| {
                let (share, job) = schedule.next()?;
                schedule.done(share);
                Some(job)
            })
            .collect()
    }

    #[test]
    fn one_thread_serves_waiting_shares_in_turn_each_in_arrival_order() {
        let mut schedule = Schedule::bounded(SHARE_QUEUE, LANE_QUEUE);
        for job in ["a1", "a2", "a3", "a4"] {
            schedule.push(A, job).unwrap();
        }
        for job in ["b1", "b2"] {
            schedule.push(B, job).unwrap();
        }
        schedule.push(Share::Public, "p1").unwrap();
        assert_eq!(taken_one_at_a_time(&mut schedule, 8), ["a1", "b1", "p1", "a2", "b2", "a3", "a4"]);
        assert_eq!(schedule.waiting(), 0);
        assert!(schedule.shares.is_empty(), "nothing is kept for shares with nothing waiting or running");
    }

    #[test]
    fn a_freed_thread_goes_to_the_waiting_share_that_holds_fewest() {
        let mut schedule = Schedule::bounded(SHARE_QUEUE, LANE_QUEUE);
        for job in ["a1", "a2", "a3", "a4", "a5"] {
            schedule.push(A, job).unwrap();
        }
        // A alone takes every thread (three here).
        let held: Vec<_> = (0..3).filter_map(|_| schedule.next()).collect();
        assert_eq!(held.iter().map(|(_, job)| *job).collect::<Vec<_>>(), ["a1", "a2", "a3"]);
        schedule.push(B, "b1").unwrap();
        schedule.push(B, "b2").unwrap();
        // One of A's ends: B holds none, so the thread is B's; when B's ends, B's again, since A still holds two.
        schedule.done(A);
        assert_eq!(schedule.next(), Some((B, "b1")));
        schedule.done(B);
        assert_eq!(schedule.next(), Some((B, "b2")));
        // Each holds one: A, served longer ago, takes the next.
        schedule.done(A);
        assert_eq!(schedule.next(), Some((A, "a4")));
    }

    #[test]
    fn a_share_that_starts_to_wait_goes_after_those_waiting_longer_and_before_the_one_served_last() {
        const C: Share = Share::Account(AccountId::new(3));
        let mut schedule = Schedule::bounded(SHARE_QUEUE, LANE_QUEUE);
        for (share, jobs) in [(A, ["a1", "a2"]), (B, ["b1", "b2"]), (C, ["c1", "c2"])] {
            for job in jobs {
                schedule.push(share, job).unwrap();
            }
        }
        assert_eq!(taken_one_at_a_time(&mut schedule, 3), ["a1", "b1", "c1"]);
        schedule.push(Share::Public, "p1").unwrap();
        assert_eq!(taken_one_at_a_time(&mut schedule, 4), ["a2", "b2", "p1", "c2"]);
    }

    #[test]
    fn a_share_that_comes_back_after_its_turn_goes_before_the_share_that_had_the_thread() {
        let mut schedule = Schedule::bounded(SHARE_QUEUE, LANE_QUEUE);
        schedule.push(A, "a1").unwrap();
        let (share, _) = schedule.next().unwrap();
        for job in ["a2", "a3"] {
            schedule.push(A, job).unwrap();
        }
        // B arrives while A holds the only thread: it is next, not behind A's two.
        schedule.push(B, "b1").unwrap();
        schedule.done(share);
        assert_eq!(taken_one_at_a_time(&mut schedule, 3), ["b1", "a2", "a3"]);
    }

    #[test]
    fn withdrawn_work_leaves_the_queue_and_is_never_taken() {
        let mut schedule = Schedule::bounded(SHARE_QUEUE, LANE_QUEUE);
        let first = schedule.push(A, "a1").unwrap();
        let second = schedule.push(A, "a2").unwrap();
        schedule.push(A, "a3").unwrap();
        assert_eq!(schedule.withdraw(second), Some("a2"));
        assert_eq!(schedule.withdraw(second), None);
        assert_eq!(schedule.waiting(), 2);
        assert_eq!(schedule.next(), Some((A, "a1")));
        assert_eq!(schedule.withdraw(first), None, "a thread has it");
        assert_eq!(schedule.next(), Some((A, "a3")));
        assert_eq!(schedule.next(), None);
    }

    #[test]
    fn a_full_share_is_refused_while_others_still_queue_up_to_the_lane_bound() {
        let mut schedule = Schedule::bounded(2, 3);
        schedule.push(A, "a1").unwrap();
        schedule.push(A, "a2").unwrap();
        assert_eq!(schedule.push(A, "a3"), Err(Refused::ShareFull));
        schedule.push(B, "b1").unwrap();
        assert_eq!(schedule.push(Share::Public, "p1"), Err(Refused::LaneFull));
        assert_eq!(schedule.waiting(), 3);
    }
}
