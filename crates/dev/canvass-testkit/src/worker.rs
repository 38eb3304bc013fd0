//! The delivery worker's round, run on the app's database with the `now` a test chooses, as `canvass worker` runs
//! it. For system tests: an `api/` or `security/` test that needs messages sent starts the server with its own
//! worker (`Settings::delivery`) instead.

use canvass_domain::delivery::{LinkBase, Transports};
use canvass_domain::use_cases::delivery::{deliver_due, DeliveryReport, Round, LEASE};
use time::OffsetDateTime;

use crate::TestApp;

impl TestApp {
    /// Runs one delivery round on the app's database as a worker does, claiming up to `limit` messages, with
    /// links under `public_url`.
    pub fn deliver_round(
        &self,
        transports: Transports<'_>,
        now: OffsetDateTime,
        public_url: &str,
        limit: i64,
    ) -> DeliveryReport {
        self.deliver_shaped(transports, now, &Round::new(limit, LEASE, LinkBase::new(public_url)))
    }

    /// Runs one delivery round of this shape (its retry policy and pace) on the app's database.
    pub fn deliver_shaped(&self, transports: Transports<'_>, now: OffsetDateTime, round: &Round) -> DeliveryReport {
        deliver_due(&self.db.store(), transports, now, round).unwrap()
    }
}
