ALTER TABLE respondents RESET (fillfactor);
CREATE INDEX respondents_pending_idx ON respondents (account_id, sendout_id) WHERE status = 'Pending';
ALTER TABLE outbox RESET (fillfactor);
DROP INDEX outbox_message_token_idx;
ALTER TABLE outbox DROP COLUMN message_token;
