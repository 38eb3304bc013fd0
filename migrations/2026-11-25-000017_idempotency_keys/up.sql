-- Idempotency keys of POST requests under /api (docs/idempotency.md): one row per account and key, claimed by
-- the first request with the key (`running`) and holding its answer once it is carried out (`done`). Rows older
-- than 24 hours count as absent and are purged by the server's retention timer through the `created_at` index.
-- `account_id` leads the key, as everywhere an account's rows are distributed by it.
CREATE TABLE idempotency_keys (
    account_id   BIGINT      NOT NULL REFERENCES accounts (id),
    key          TEXT        NOT NULL,
    fingerprint  BYTEA       NOT NULL,
    state        TEXT        NOT NULL,
    status       SMALLINT,
    content_type TEXT,
    body         BYTEA,
    created_at   TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (account_id, key),
    CONSTRAINT idempotency_keys_state_check CHECK (state IN ('running', 'done')),
    CONSTRAINT idempotency_keys_done_check CHECK ((state = 'done') = (status IS NOT NULL AND body IS NOT NULL)),
    CONSTRAINT idempotency_keys_key_check CHECK (octet_length(key) BETWEEN 1 AND 255),
    CONSTRAINT idempotency_keys_fingerprint_check CHECK (octet_length(fingerprint) = 32)
);

CREATE INDEX idempotency_keys_created_at_idx ON idempotency_keys (created_at);
