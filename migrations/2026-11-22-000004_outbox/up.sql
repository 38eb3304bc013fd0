-- Delivery: the outbox. A release writes each invitation here in the same transaction; a reminder writes its
-- messages here at its send date. Workers claim due messages under a lease (FOR UPDATE SKIP LOCKED), send
-- them, and record the outcome.

CREATE TABLE outbox (
    account_id      BIGINT      NOT NULL REFERENCES accounts (id),
    id              BIGSERIAL   NOT NULL,
    respondent_id   BIGINT      NOT NULL,
    sendout_id      BIGINT      NOT NULL,
    reminder_id     BIGINT,
    -- Stable across retries and crashes; also the email's Message-ID.
    idempotency_key TEXT        NOT NULL,
    status          TEXT        NOT NULL CHECK (status IN ('Pending', 'Sent', 'Bounced', 'Failed', 'Cancelled')),
    due_at          TIMESTAMPTZ NOT NULL,
    attempts        INTEGER     NOT NULL DEFAULT 0,
    lease_until     TIMESTAMPTZ,
    last_error      TEXT,
    created_at      TIMESTAMPTZ NOT NULL,
    sent_at         TIMESTAMPTZ,
    PRIMARY KEY (account_id, id),
    UNIQUE (account_id, idempotency_key),
    FOREIGN KEY (account_id, respondent_id) REFERENCES respondents (account_id, id) ON DELETE CASCADE
);
-- Workers look for due pending messages across accounts.
CREATE INDEX outbox_due_idx ON outbox (due_at) WHERE status = 'Pending';
CREATE INDEX outbox_respondent_idx ON outbox (account_id, respondent_id);
