//! Joined transactions: an outer transaction whose nested transactions join it instead of becoming savepoints, so
//! that a use case run inside a hop's transaction (one that also writes the request's audit event) costs no
//! `SAVEPOINT` and `RELEASE`. [`Nesting`] is the bookkeeping an adapter keeps for it.

/// What an adapter does for one `begin`, `commit` or `rollback` of a unit of work in a joined transaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// The call is a nested transaction's and joins the open one: no statement.
    Joined,
    /// The call is the ordinary one (the outermost transaction's, or any when nothing is joined): its statement.
    Ordinary,
    /// The outermost commit of a joined transaction inside which a nested one rolled back: what that nested one
    /// wrote cannot be undone alone, so the whole transaction rolls back and the commit fails.
    Undo,
}

/// The nesting of a unit of work's transactions, when its outermost one was opened joined.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Nesting {
    joined: bool,
    depth: u32,
    undone: bool,
}

impl Nesting {
    /// Notes that the outermost transaction was opened joined; the adapter issues its `BEGIN`.
    pub fn open_joined(&mut self) {
        *self = Self { joined: true, depth: 0, undone: false };
    }

    /// A `begin`: inside a joined transaction it joins it.
    pub fn begin(&mut self) -> Step {
        if !self.joined {
            return Step::Ordinary;
        }
        self.depth += 1;
        Step::Joined
    }

    /// A `commit`: a nested one's joins (its writes stand or fall with the outermost), the outermost's commits,
    /// unless a nested transaction rolled back inside it.
    pub fn commit(&mut self) -> Step {
        if !self.joined {
            return Step::Ordinary;
        }
        if self.depth > 0 {
            self.depth -= 1;
            return Step::Joined;
        }
        let undone = self.undone;
        *self = Self::default();
        if undone {
            Step::Undo
        } else {
            Step::Ordinary
        }
    }

    /// A `rollback`: a nested one's leaves the whole transaction to roll back; the outermost's rolls it back.
    pub fn rollback(&mut self) -> Step {
        if self.joined && self.depth > 0 {
            self.depth -= 1;
            self.undone = true;
            return Step::Joined;
        }
        *self = Self::default();
        Step::Ordinary
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outside_a_joined_transaction_every_call_is_the_ordinary_one() {
        let mut nesting = Nesting::default();
        assert_eq!(nesting.begin(), Step::Ordinary);
        assert_eq!(nesting.begin(), Step::Ordinary);
        assert_eq!(nesting.commit(), Step::Ordinary);
        assert_eq!(nesting.rollback(), Step::Ordinary);
    }

    #[test]
    fn nested_transactions_join_and_the_outermost_commits() {
        let mut nesting = Nesting::default();
        nesting.open_joined();
        assert_eq!(nesting.begin(), Step::Joined);
        assert_eq!(nesting.begin(), Step::Joined);
        assert_eq!(nesting.commit(), Step::Joined);
        assert_eq!(nesting.commit(), Step::Joined);
        assert_eq!(nesting.commit(), Step::Ordinary, "the outermost commit is the one statement");
        assert_eq!(nesting.begin(), Step::Ordinary, "a transaction after it is an ordinary one again");
    }

    #[test]
    fn a_nested_rollback_undoes_the_whole_joined_transaction_at_its_commit() {
        let mut nesting = Nesting::default();
        nesting.open_joined();
        assert_eq!(nesting.begin(), Step::Joined);
        assert_eq!(nesting.rollback(), Step::Joined);
        assert_eq!(nesting.begin(), Step::Joined, "a later nested transaction still joins");
        assert_eq!(nesting.commit(), Step::Joined);
        assert_eq!(nesting.commit(), Step::Undo);
        assert_eq!(nesting, Nesting::default());
    }

    #[test]
    fn the_outermost_rollback_ends_the_joined_transaction() {
        let mut nesting = Nesting::default();
        nesting.open_joined();
        assert_eq!(nesting.begin(), Step::Joined);
        assert_eq!(nesting.rollback(), Step::Joined);
        assert_eq!(nesting.rollback(), Step::Ordinary);
        assert_eq!(nesting, Nesting::default());
    }
}
