-- Public handles that carry their account (docs/scaling.md, "Public handles"): the login page `/login/<sendoutId>`
-- knows only a sendout id. `login_sendouts` maps every LOGIN sendout to its account, so the login look-up finds
-- the account first (one small table; a Citus reference table, copied to every node) and then reads the respondent
-- with `account_id = $n` from that account's shard alone.
--
-- A row is written in the transaction that creates a LOGIN sendout (a new one or a copy,
-- crates/canvass-postgres/src/sendouts.rs); a sendout's dispatch type never changes. Rows of deleted sendouts stay:
-- sendout ids are never reused, so such a row leads to an account that has no such sendout, and the look-up finds
-- nothing, as it did before. No foreign key to `sendouts`: Citus refuses one from a reference table to a
-- distributed table. The key to `accounts` (reference to reference) is allowed.
--
-- Safe with the code already serving (migrations/README.md): the previous code neither reads nor writes this
-- table. LOGIN sendouts that it creates after this backfill and before the new code serves have no row, so their
-- login page would find no one: run the backfill below once more after the deployment (it is idempotent).
CREATE TABLE login_sendouts (
    sendout_id BIGINT PRIMARY KEY,
    account_id BIGINT NOT NULL REFERENCES accounts (id)
);

INSERT INTO login_sendouts (sendout_id, account_id)
SELECT id, account_id FROM sendouts WHERE dispatch_type = 'LOGIN'
ON CONFLICT (sendout_id) DO NOTHING;
