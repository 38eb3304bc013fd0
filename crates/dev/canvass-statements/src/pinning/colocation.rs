//! The rule for `INSERT … SELECT` into an account table: Citus pushes it down to the shards only when every
//! account table its `SELECT` reads is joined to the others on `account_id` ("complex joins are only supported
//! when all distributed tables are co-located and joined on their distribution columns"); each pinned to the same
//! parameter is not enough. Every relation of every scope is a node; an `x.account_id = y.account_id` among the
//! `AND`-ed conditions of a scope joins two nodes of it or of its enclosing scopes; the account tables read must
//! end up in one group.

use std::cmp::Reverse;

use super::Finding;

/// An account table read by the `INSERT … SELECT` being checked.
struct Occurrence {
    node: usize,
    /// How deep its scope is nested in the statement (0 for the outermost).
    depth: usize,
    table: String,
    alias: String,
}

/// The groups of relations joined on `account_id`, and the account tables of the `INSERT … SELECT` being walked.
#[derive(Default)]
pub(super) struct Colocation {
    /// Union-find: each node's parent, a root its own.
    parent: Vec<usize>,
    /// The account tables read so far, while an `INSERT … SELECT` into an account table is walked.
    occurrences: Option<Vec<Occurrence>>,
}

/// The state of an enclosing `INSERT … SELECT`, put back by [`Colocation::end`].
pub(super) struct Outer(Option<Vec<Occurrence>>);

impl Colocation {
    /// A new relation.
    pub(super) fn node(&mut self) -> usize {
        self.parent.push(self.parent.len());
        self.parent.len() - 1
    }

    fn root(&mut self, mut node: usize) -> usize {
        while self.parent[node] != node {
            self.parent[node] = self.parent[self.parent[node]];
            node = self.parent[node];
        }
        node
    }

    /// `a.account_id = b.account_id`.
    pub(super) fn join(&mut self, a: usize, b: usize) {
        let (a, b) = (self.root(a), self.root(b));
        self.parent[a] = b;
    }

    /// An account table read in the scope being finished: counted if an `INSERT … SELECT` is walked.
    pub(super) fn read(&mut self, node: usize, depth: usize, table: &str, alias: &str) {
        if let Some(occurrences) = &mut self.occurrences {
            occurrences.push(Occurrence { node, depth, table: table.to_owned(), alias: alias.to_owned() });
        }
    }

    /// Starts counting the account tables of an `INSERT … SELECT`.
    pub(super) fn begin(&mut self) -> Outer {
        Outer(self.occurrences.replace(Vec::new()))
    }

    /// The account tables of the `INSERT … SELECT` just walked not joined on `account_id` to the others: those
    /// outside its largest group (among groups as large, the one reaching the outermost scope, then the first).
    pub(super) fn end(&mut self, outer: Outer) -> Vec<Finding> {
        let occurrences = std::mem::replace(&mut self.occurrences, outer.0).unwrap_or_default();
        let roots: Vec<usize> = occurrences.iter().map(|occurrence| self.root(occurrence.node)).collect();
        let rank = |root: &usize| {
            let members = occurrences.iter().zip(&roots).filter(|(_, other)| *other == root);
            let shallowest = members.clone().map(|(occurrence, _)| occurrence.depth).min().unwrap_or_default();
            (members.count(), Reverse(shallowest))
        };
        let Some(main) = roots.iter().rev().max_by_key(|root| rank(root)).copied() else { return Vec::new() };
        occurrences
            .into_iter()
            .zip(&roots)
            .filter(|(_, root)| **root != main)
            .map(|(occurrence, _)| Finding::InsertSelectNotColocated {
                table: occurrence.table,
                alias: occurrence.alias,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
