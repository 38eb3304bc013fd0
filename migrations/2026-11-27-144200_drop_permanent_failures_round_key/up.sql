-- The first schema's key on (account_id, email_key, failed_at) dropped the second of two sendouts' failures of one
-- address in one round; permanent_failures_failure_key (the previous migration) is the key now. Dropping a
-- constraint takes its lock only for a moment.
ALTER TABLE permanent_failures DROP CONSTRAINT IF EXISTS permanent_failures_account_id_email_key_failed_at_key;
