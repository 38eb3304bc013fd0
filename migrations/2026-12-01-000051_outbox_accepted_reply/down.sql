ALTER TABLE outbox DROP COLUMN accepted_reply;
