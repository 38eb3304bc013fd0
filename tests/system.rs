//! The whole system: what needs more than HTTP. The delivery worker's rounds against the SMTP and SMS sinks, driven
//! by their `now` (delivery, relays, holds, refusals, late bounces, two-way conversations), the webhook worker, the
//! retention engine, an erasure checked column by column, a keyed request whose kept answer cannot be written, a real browser (end to end, and every page's
//! accessibility), the database taken away or locked (outages), states the API cannot reach planted with SQL, long
//! lists filled through the store, and the scripts (`scripts/pg-cluster.sh`). Each file says what it touches besides
//! HTTP and why; `lane_shares` locks a table to flood the store's lane with one account's slow requests.

mod accessibility;
mod alerts;
mod browser;
mod chromium;
mod delivery;
mod dev_cluster;
mod email_format;
mod erasure_reach;
mod holds;
mod idempotency_faults;
mod invitation_languages;
mod lane_shares;
mod late_bounces;
mod long_lists;
mod outages;
mod outages_in_german;
mod personal_invitations;
mod planted_rows;
mod refusals;
mod relays;
mod retention_engine;
mod sendout_counts;
pub(crate) mod timelines;
mod twoway_senders;
mod webhook_delivery;
