-- Alerts: "tell the store manager when a customer scores 0 to 6". `conditions` is the alert's `when` in the API's
-- JSON shape; `recipients` its 1 to 20 email addresses.
CREATE TABLE alerts (
    account_id      BIGINT      NOT NULL,
    id              BIGSERIAL   NOT NULL,
    survey_id       BIGINT      NOT NULL,
    name            TEXT        NOT NULL,
    conditions      JSONB       NOT NULL,
    recipients      TEXT[]      NOT NULL CHECK (cardinality(recipients) BETWEEN 1 AND 20),
    include_answers BOOLEAN     NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (account_id, id),
    FOREIGN KEY (account_id, survey_id) REFERENCES surveys (account_id, id) ON DELETE CASCADE
);
CREATE INDEX alerts_survey_idx ON alerts (account_id, survey_id, id);

-- The alert outbox: the emails a completion writes, in the transaction that completes its set, one per alert and
-- recipient, with their text (which may hold the set's answers: dropped once the email is sent or given up). The
-- delivery worker claims them beside the outbox's messages, under a lease, and records them as it records those.
-- An email goes with its alert, and with its answer set (retention, an erasure of the set's person).
CREATE TABLE alert_emails (
    account_id    BIGINT      NOT NULL,
    id            BIGSERIAL   NOT NULL,
    alert_id      BIGINT      NOT NULL,
    answer_set_id BIGINT      NOT NULL,
    recipient     TEXT        NOT NULL,
    subject       TEXT        NOT NULL,
    body          TEXT        NOT NULL,
    status        TEXT        NOT NULL CHECK (status IN ('Pending', 'Sent', 'Bounced', 'Failed')),
    due_at        TIMESTAMPTZ NOT NULL,
    attempts      INTEGER     NOT NULL DEFAULT 0,
    holds         INTEGER     NOT NULL DEFAULT 0,
    aged_ms       BIGINT      NOT NULL DEFAULT 0,
    lease_until   TIMESTAMPTZ,
    last_error    TEXT,
    message_token TEXT        NOT NULL DEFAULT replace(gen_random_uuid()::text, '-', ''),
    created_at    TIMESTAMPTZ NOT NULL,
    sent_at       TIMESTAMPTZ,
    PRIMARY KEY (account_id, id),
    FOREIGN KEY (account_id, alert_id) REFERENCES alerts (account_id, id) ON DELETE CASCADE,
    FOREIGN KEY (account_id, answer_set_id) REFERENCES answer_sets (account_id, id) ON DELETE CASCADE
);
-- Workers find the accounts with due emails through the pending ones only, and each account's in due order.
CREATE INDEX alert_emails_pending_idx ON alert_emails (account_id, due_at) WHERE status = 'Pending';
CREATE INDEX alert_emails_alert_idx ON alert_emails (account_id, alert_id);
CREATE INDEX alert_emails_answer_set_idx ON alert_emails (account_id, answer_set_id);
