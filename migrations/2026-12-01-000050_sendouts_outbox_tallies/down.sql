ALTER TABLE sendouts DROP COLUMN outbox_pending, DROP COLUMN outbox_held;
