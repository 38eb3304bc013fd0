//! The HTTP contract, one folder per area of the product. These tests speak HTTP to the server and nothing else:
//! they set up what they need through the API (and the operator's actions in [`crate::helpers`]) and assert on
//! what the API answers, on the sinks that stand for the outside world, and on nothing stored. A test that needs
//! SQL goes to the adapter's tests (crates/canvass-postgres/tests) or, when it is about the whole system, to
//! [`crate::system`]. `scripts/test.sh` checks that no file here uses the domain, the adapter, the SQL library
//! or the test database.

pub(crate) mod accounts;
mod directory;
pub(crate) mod distribution;
pub(crate) mod exports;
mod governance;
mod insight;
pub(crate) mod platform;
pub(crate) mod respondent;
mod surveys;
