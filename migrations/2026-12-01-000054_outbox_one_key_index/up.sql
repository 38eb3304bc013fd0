-- outbox_respondent_key_idx (the previous migration) serves both: the conflict target of every write of a message,
-- and a respondent's messages.
ALTER TABLE outbox DROP CONSTRAINT outbox_account_id_idempotency_key_key;
DROP INDEX outbox_respondent_idx;
