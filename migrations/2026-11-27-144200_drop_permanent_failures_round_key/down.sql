-- Fails while two failures of one address share a moment; delete one of them first.
ALTER TABLE permanent_failures
    ADD CONSTRAINT permanent_failures_account_id_email_key_failed_at_key UNIQUE (account_id, email_key, failed_at);
