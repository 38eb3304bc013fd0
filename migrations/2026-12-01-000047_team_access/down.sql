DROP TABLE audit_events;
DROP INDEX api_keys_account_idx;
ALTER TABLE api_keys DROP COLUMN read_only, DROP COLUMN last_used_at, DROP COLUMN expires_at, DROP COLUMN name;
DROP INDEX users_email_per_account;
ALTER TABLE users DROP CONSTRAINT users_role_known, DROP COLUMN active;
