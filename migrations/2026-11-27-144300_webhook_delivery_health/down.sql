ALTER TABLE webhooks DROP COLUMN last_delivery_at, DROP COLUMN consecutive_failures;
