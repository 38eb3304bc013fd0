-- An erasure's receipt: when, by whom and what was erased; never the contact. Written in the erasure's
-- transaction.
CREATE TABLE erasure_receipts (
    account_id          BIGINT      NOT NULL,
    id                  BIGSERIAL   NOT NULL,
    at                  TIMESTAMPTZ NOT NULL,
    user_id             BIGINT      NOT NULL,
    key_prefix          TEXT        NOT NULL,
    include_answers     BOOLEAN     NOT NULL,
    respondents_erased  BIGINT      NOT NULL,
    answer_sets_deleted BIGINT      NOT NULL,
    PRIMARY KEY (account_id, id)
);

-- Every retention run that ran (the timer's and the command line's), and each account's figures of it where
-- the run removed something there or failed for it; an account without a row had nothing to remove.
CREATE TABLE retention_runs (
    id          BIGSERIAL   PRIMARY KEY,
    started_at  TIMESTAMPTZ NOT NULL,
    finished_at TIMESTAMPTZ NOT NULL,
    trigger     TEXT        NOT NULL CHECK (trigger IN ('timer', 'command'))
);
CREATE TABLE retention_run_figures (
    account_id                 BIGINT  NOT NULL,
    run_id                     BIGINT  NOT NULL,
    respondents_removed        BIGINT  NOT NULL,
    respondents_erased         BIGINT  NOT NULL,
    open_text_answers_removed  BIGINT  NOT NULL,
    answer_sets_removed        BIGINT  NOT NULL,
    survey_respondents_removed BIGINT  NOT NULL,
    failed                     BOOLEAN NOT NULL,
    PRIMARY KEY (account_id, run_id)
);
