-- Distribution: sendouts, their background data documents and labels, respondents, reminders, the blocklist and
-- permanent email failures. account_id leads every key and index (see docs/scaling.md).

CREATE TABLE sendouts (
    account_id    BIGINT      NOT NULL,
    id            BIGSERIAL   NOT NULL,
    survey_id     BIGINT      NOT NULL,
    name          TEXT        NOT NULL,
    dispatch_type TEXT        NOT NULL,
    status        TEXT        NOT NULL,
    send_date     TIMESTAMPTZ,
    sender        TEXT,
    subject       TEXT,
    message       TEXT,
    expiry_date   TIMESTAMPTZ,
    created_at    TIMESTAMPTZ NOT NULL,
    activated_at  TIMESTAMPTZ,
    PRIMARY KEY (account_id, id),
    FOREIGN KEY (account_id, survey_id) REFERENCES surveys (account_id, id) ON DELETE CASCADE
);
CREATE INDEX sendouts_survey_idx ON sendouts (account_id, survey_id);

CREATE TABLE bg_documents (
    account_id  BIGINT    NOT NULL,
    id          BIGSERIAL NOT NULL,
    sendout_id  BIGINT    NOT NULL,
    PRIMARY KEY (account_id, id),
    UNIQUE (account_id, sendout_id),
    FOREIGN KEY (account_id, sendout_id) REFERENCES sendouts (account_id, id) ON DELETE CASCADE
);

CREATE TABLE bg_labels (
    account_id  BIGINT      NOT NULL,
    id          BIGSERIAL   NOT NULL,
    sendout_id  BIGINT      NOT NULL,
    name        TEXT        NOT NULL,
    label_type  TEXT        NOT NULL,
    function    SMALLINT    NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (account_id, id),
    UNIQUE (account_id, sendout_id, name),
    FOREIGN KEY (account_id, sendout_id) REFERENCES sendouts (account_id, id) ON DELETE CASCADE
);

CREATE TABLE respondents (
    account_id      BIGINT      NOT NULL,
    id              BIGSERIAL   NOT NULL,
    sendout_id      BIGINT      NOT NULL,
    contact_details TEXT        NOT NULL,
    -- Trimmed, and lower-cased for email addresses: what duplicates and the blocklist compare.
    contact_key     TEXT        NOT NULL,
    send_mail       BOOLEAN     NOT NULL,
    -- {"<labelId>": "value"}
    background_data JSONB       NOT NULL,
    status          TEXT        NOT NULL,
    token           TEXT        NOT NULL,
    added_at        TIMESTAMPTZ NOT NULL,
    released_at     TIMESTAMPTZ,
    sent_at         TIMESTAMPTZ,
    PRIMARY KEY (account_id, id),
    UNIQUE (account_id, sendout_id, contact_key),
    UNIQUE (account_id, token),
    FOREIGN KEY (account_id, sendout_id) REFERENCES sendouts (account_id, id) ON DELETE CASCADE
);
-- The respondent page finds a respondent by token alone (160 random bits).
CREATE INDEX respondents_token_idx ON respondents (token);
CREATE INDEX respondents_contact_idx ON respondents (account_id, contact_key);
CREATE INDEX respondents_pending_idx ON respondents (account_id, sendout_id) WHERE status = 'Pending';

ALTER TABLE answer_sets
    ADD FOREIGN KEY (account_id, respondent_id) REFERENCES respondents (account_id, id) ON DELETE SET NULL (respondent_id);

CREATE TABLE reminders (
    account_id    BIGINT      NOT NULL,
    id            BIGSERIAL   NOT NULL,
    sendout_id    BIGINT      NOT NULL,
    sendout_logic TEXT        NOT NULL,
    send_date     TIMESTAMPTZ NOT NULL,
    sender        TEXT        NOT NULL,
    subject       TEXT,
    message       TEXT        NOT NULL,
    status        TEXT        NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (account_id, id),
    FOREIGN KEY (account_id, sendout_id) REFERENCES sendouts (account_id, id) ON DELETE CASCADE
);
CREATE INDEX reminders_sendout_idx ON reminders (account_id, sendout_id);

CREATE TABLE blocklist (
    account_id      BIGINT      NOT NULL REFERENCES accounts (id),
    contact_key     TEXT        NOT NULL,
    contact_details TEXT        NOT NULL,
    entry_type      TEXT        NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (account_id, contact_key)
);

CREATE TABLE permanent_failures (
    account_id     BIGINT      NOT NULL REFERENCES accounts (id),
    id             BIGSERIAL   NOT NULL,
    email_address  TEXT        NOT NULL,
    email_key      TEXT        NOT NULL,
    sending_domain TEXT        NOT NULL,
    failed_at      TIMESTAMPTZ NOT NULL,
    reason         TEXT        NOT NULL,
    sendout_id     BIGINT,
    respondent_id  BIGINT,
    PRIMARY KEY (account_id, id),
    UNIQUE (account_id, email_key, failed_at)
);
CREATE INDEX permanent_failures_failed_idx ON permanent_failures (account_id, failed_at, id);
