ALTER TABLE outbox RESET (fillfactor);
DROP INDEX outbox_message_token_idx;
ALTER TABLE outbox DROP COLUMN message_token;
