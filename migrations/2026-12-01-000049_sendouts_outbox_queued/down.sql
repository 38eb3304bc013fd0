DROP INDEX sendouts_outbox_queued_idx;
ALTER TABLE sendouts DROP COLUMN outbox_queued;
