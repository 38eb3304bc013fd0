-- Data governance: survey frequency settings, retention rules and retention policies.

CREATE TABLE account_frequency_settings (
    account_id     BIGINT   NOT NULL REFERENCES accounts (id),
    enabled        BOOLEAN  NOT NULL,
    number_of_days SMALLINT NOT NULL CHECK (number_of_days >= 1),
    max_surveys    SMALLINT NOT NULL CHECK (max_surveys >= 1),
    PRIMARY KEY (account_id)
);

CREATE TABLE survey_frequency_settings (
    account_id     BIGINT   NOT NULL,
    survey_id      BIGINT   NOT NULL,
    enabled        BOOLEAN  NOT NULL,
    number_of_days SMALLINT NOT NULL CHECK (number_of_days >= 1),
    max_surveys    SMALLINT NOT NULL CHECK (max_surveys >= 1),
    PRIMARY KEY (account_id, survey_id),
    FOREIGN KEY (account_id, survey_id) REFERENCES surveys (account_id, id) ON DELETE CASCADE
);

-- One rule per scope and action; survey_id and sendout_id are 0 where the scope has none.
CREATE TABLE retention_rules (
    account_id     BIGINT      NOT NULL REFERENCES accounts (id),
    scope          TEXT        NOT NULL CHECK (scope IN ('Account', 'Survey', 'Sendout')),
    survey_id      BIGINT      NOT NULL,
    sendout_id     BIGINT      NOT NULL,
    action         TEXT        NOT NULL,
    retention_days INTEGER     NOT NULL CHECK (retention_days BETWEEN 1 AND 3650),
    status         TEXT        NOT NULL CHECK (status IN ('Active', 'Paused')),
    updated_at     TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (account_id, scope, survey_id, sendout_id, action)
);

CREATE TABLE account_retention_policies (
    account_id                 BIGINT      NOT NULL REFERENCES accounts (id),
    partial_delete_after_days  INTEGER CHECK (partial_delete_after_days > 0),
    complete_delete_after_days INTEGER CHECK (complete_delete_after_days > 0),
    include_open_text          BOOLEAN     NOT NULL,
    updated_at                 TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (account_id)
);

CREATE TABLE survey_retention_policies (
    account_id                   BIGINT      NOT NULL,
    survey_id                    BIGINT      NOT NULL,
    partial_delete_date          DATE,
    complete_delete_date         DATE,
    respondent_partial_days      INTEGER CHECK (respondent_partial_days > 0),
    respondent_complete_days     INTEGER CHECK (respondent_complete_days > 0),
    exclude_from_policies        BOOLEAN     NOT NULL,
    excluded_label_ids           BIGINT[]    NOT NULL,
    updated_at                   TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (account_id, survey_id),
    FOREIGN KEY (account_id, survey_id) REFERENCES surveys (account_id, id) ON DELETE CASCADE
);

-- Frequency counts look up a contact's releases; retention finds respondents by entry time.
CREATE INDEX respondents_released_idx ON respondents (account_id, contact_key, released_at) WHERE released_at IS NOT NULL;
CREATE INDEX respondents_added_idx ON respondents (account_id, sendout_id, added_at);
