-- Team access: a user's role is one of six and a user can be deactivated (its keys then answer 401); a key has a
-- name, an optional expiry, a last use and may be read-only. An account's users have distinct email addresses.
ALTER TABLE users ADD COLUMN active BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE users ADD CONSTRAINT users_role_known
    CHECK (role IN ('owner', 'admin', 'editor', 'distributor', 'analyst', 'viewer'));
CREATE UNIQUE INDEX users_email_per_account ON users (account_id, lower(email));

ALTER TABLE api_keys ADD COLUMN name TEXT NOT NULL DEFAULT 'command line';
ALTER TABLE api_keys ADD COLUMN expires_at TIMESTAMPTZ;
ALTER TABLE api_keys ADD COLUMN last_used_at TIMESTAMPTZ;
ALTER TABLE api_keys ADD COLUMN read_only BOOLEAN NOT NULL DEFAULT FALSE;
CREATE INDEX api_keys_account_idx ON api_keys (account_id, id);

-- The audit log: who did what to which thing, with what outcome, never what the thing holds (no contact details,
-- no email addresses). Written in the transaction of the change it records; nothing in the API changes or
-- deletes a row; the retention timer removes rows older than AUDIT_RETENTION_DAYS.
CREATE TABLE audit_events (
    account_id     BIGINT      NOT NULL,
    id             BIGSERIAL   NOT NULL,
    at             TIMESTAMPTZ NOT NULL,
    user_id        BIGINT      NOT NULL,
    key_prefix     TEXT        NOT NULL,
    action         TEXT        NOT NULL,
    target_type    TEXT        NOT NULL,
    target_id      TEXT,
    client_address TEXT,
    request_id     TEXT,
    status         SMALLINT    NOT NULL,
    PRIMARY KEY (account_id, id)
);
-- Newest first is by id (the primary key's index); the retention timer's purge is by time, across accounts.
CREATE INDEX audit_events_at_idx ON audit_events (at);
