-- Signed webhooks. An account subscribes URLs to events; each event is written to webhook_deliveries in the same
-- transaction as the change that causes it, one row per subscribed webhook, and a worker claims due rows under a
-- lease (FOR UPDATE SKIP LOCKED), signs and POSTs them, and records each attempt.

CREATE TABLE webhooks (
    account_id  BIGINT      NOT NULL REFERENCES accounts (id),
    id          BIGSERIAL   NOT NULL,
    url         TEXT        NOT NULL,
    events      TEXT[]      NOT NULL CHECK (cardinality(events) > 0),
    description TEXT,
    -- `whsec_` + base64 of 32 random bytes: needed to sign, never shown again after creation.
    secret      TEXT        NOT NULL,
    active      BOOLEAN     NOT NULL DEFAULT TRUE,
    created_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (account_id, id)
);

CREATE TABLE webhook_deliveries (
    account_id      BIGINT      NOT NULL REFERENCES accounts (id),
    id              BIGSERIAL   NOT NULL,
    webhook_id      BIGINT      NOT NULL,
    -- The `webhook-id` header: random, stable across retries of this delivery.
    message_id      TEXT        NOT NULL,
    event           TEXT        NOT NULL CHECK (event IN ('answerSet.completed', 'respondent.sent',
                        'respondent.bounced', 'respondent.optedOut', 'sendout.activated', 'webhook.test')),
    survey_id       BIGINT,
    sendout_id      BIGINT,
    respondent_id   BIGINT,
    answer_set_id   BIGINT,
    -- When the event happened: the body's `timestamp`.
    occurred_at     TIMESTAMPTZ NOT NULL,
    status          TEXT        NOT NULL DEFAULT 'Pending' CHECK (status IN ('Pending', 'Delivered', 'Failed')),
    attempts        INTEGER     NOT NULL DEFAULT 0,
    due_at          TIMESTAMPTZ NOT NULL,
    lease_until     TIMESTAMPTZ,
    last_status_code INTEGER,
    last_error      TEXT,
    PRIMARY KEY (account_id, id),
    FOREIGN KEY (account_id, webhook_id) REFERENCES webhooks (account_id, id) ON DELETE CASCADE
);
-- Workers look for due pending deliveries across accounts.
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (due_at) WHERE status = 'Pending';
-- A webhook's deliveries, newest first; also serves the cascade when a webhook is deleted.
CREATE INDEX webhook_deliveries_webhook_idx ON webhook_deliveries (account_id, webhook_id, id);
