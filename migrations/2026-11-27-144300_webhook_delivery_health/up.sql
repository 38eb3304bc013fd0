-- What a webhook's own record says of its deliveries (docs/webhooks.md):
-- * `last_delivery_at`: when its last delivery attempt was made (null before the first);
-- * `consecutive_failures`: its failed attempts since its last successful one, 0 after a success.
-- Both are written by the statement that records a round's attempts. Nullable and a constant default: adding them
-- rewrites nothing, and the code already serving neither reads nor writes them. The check is added apart from
-- the column (Citus takes no CHECK inside ADD COLUMN) and validated without blocking writes.
ALTER TABLE webhooks ADD COLUMN last_delivery_at timestamptz, ADD COLUMN consecutive_failures integer NOT NULL DEFAULT 0;
ALTER TABLE webhooks ADD CONSTRAINT webhooks_consecutive_failures_check CHECK (consecutive_failures >= 0) NOT VALID;
ALTER TABLE webhooks VALIDATE CONSTRAINT webhooks_consecutive_failures_check;
