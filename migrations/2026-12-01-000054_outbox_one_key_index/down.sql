CREATE INDEX outbox_respondent_idx ON outbox (account_id, respondent_id);
ALTER TABLE outbox ADD CONSTRAINT outbox_account_id_idempotency_key_key UNIQUE (account_id, idempotency_key);
