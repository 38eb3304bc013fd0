-- Foundation: accounts, users, API keys, categories, surveys, question trees, answer sets.
-- Every table with account data carries account_id, which leads its primary key, unique keys and indexes, and
-- foreign keys between account tables include it (see docs/scaling.md).

CREATE TABLE accounts (
    id          BIGSERIAL PRIMARY KEY,
    name        TEXT        NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL
);

CREATE TABLE users (
    account_id  BIGINT      NOT NULL REFERENCES accounts (id),
    id          BIGSERIAL   NOT NULL,
    name        TEXT        NOT NULL,
    email       TEXT        NOT NULL,
    role        TEXT        NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (account_id, id)
);
CREATE UNIQUE INDEX users_email_key ON users (account_id, lower(email));
-- `canvass key create --user ID` finds a user by id alone.
CREATE INDEX users_id_idx ON users (id);

-- Looked up by prefix on every cold request, before the account is known: a reference table under Citus.
CREATE TABLE api_keys (
    account_id  BIGINT      NOT NULL,
    id          BIGSERIAL   NOT NULL,
    user_id     BIGINT      NOT NULL,
    prefix      TEXT        NOT NULL,
    key_hash    BYTEA       NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL,
    revoked_at  TIMESTAMPTZ,
    PRIMARY KEY (account_id, id),
    FOREIGN KEY (account_id, user_id) REFERENCES users (account_id, id)
);
CREATE INDEX api_keys_prefix_idx ON api_keys (prefix) WHERE revoked_at IS NULL;

CREATE TABLE categories (
    account_id  BIGINT      NOT NULL REFERENCES accounts (id),
    id          BIGSERIAL   NOT NULL,
    name        TEXT        NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (account_id, id)
);

CREATE TABLE surveys (
    account_id  BIGINT      NOT NULL REFERENCES accounts (id),
    id          BIGSERIAL   NOT NULL,
    name        TEXT        NOT NULL,
    description TEXT        NOT NULL,
    start_date  TIMESTAMPTZ NOT NULL,
    end_date    TIMESTAMPTZ NOT NULL,
    category_id BIGINT,
    active      BOOLEAN     NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (account_id, id),
    FOREIGN KEY (account_id, category_id) REFERENCES categories (account_id, id),
    CHECK (end_date > start_date)
);

CREATE TABLE survey_pages (
    account_id  BIGINT      NOT NULL,
    id          BIGSERIAL   NOT NULL,
    survey_id   BIGINT      NOT NULL,
    position    INTEGER     NOT NULL,
    title       TEXT        NOT NULL,
    PRIMARY KEY (account_id, id),
    UNIQUE (account_id, survey_id, position),
    FOREIGN KEY (account_id, survey_id) REFERENCES surveys (account_id, id) ON DELETE CASCADE
);

CREATE TABLE question_items (
    account_id  BIGINT      NOT NULL,
    id          BIGSERIAL   NOT NULL,
    survey_id   BIGINT      NOT NULL,
    page_id     BIGINT      NOT NULL,
    position    INTEGER     NOT NULL,
    item_type   TEXT        NOT NULL,
    text        TEXT        NOT NULL,
    required    BOOLEAN     NOT NULL,
    -- [{"value": "...", "label": "..."}], in order; empty for items without options.
    options     JSONB       NOT NULL,
    PRIMARY KEY (account_id, id),
    UNIQUE (account_id, page_id, position),
    FOREIGN KEY (account_id, page_id) REFERENCES survey_pages (account_id, id) ON DELETE CASCADE
);
CREATE INDEX question_items_survey_idx ON question_items (account_id, survey_id);

-- A rule keeps the ids it was given: when its item or page is deleted it stays and reads as broken.
CREATE TABLE logic_rules (
    account_id       BIGINT  NOT NULL,
    id               BIGSERIAL NOT NULL,
    survey_id        BIGINT  NOT NULL,
    position         INTEGER NOT NULL,
    question_item_id BIGINT  NOT NULL,
    equals           TEXT    NOT NULL,
    go_to_page_id    BIGINT  NOT NULL,
    PRIMARY KEY (account_id, id),
    UNIQUE (account_id, survey_id, position),
    FOREIGN KEY (account_id, survey_id) REFERENCES surveys (account_id, id) ON DELETE CASCADE
);

CREATE TABLE answer_sets (
    account_id    BIGINT      NOT NULL,
    id            BIGSERIAL   NOT NULL,
    survey_id     BIGINT      NOT NULL,
    respondent_id BIGINT,
    sendout_id    BIGINT,
    completed     BOOLEAN     NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL,
    updated_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (account_id, id),
    FOREIGN KEY (account_id, survey_id) REFERENCES surveys (account_id, id) ON DELETE CASCADE
);
CREATE INDEX answer_sets_created_idx ON answer_sets (account_id, survey_id, created_at, id);
CREATE INDEX answer_sets_updated_idx ON answer_sets (account_id, survey_id, updated_at);
CREATE INDEX answer_sets_respondent_idx ON answer_sets (account_id, respondent_id) WHERE respondent_id IS NOT NULL;

CREATE TABLE answers (
    account_id       BIGINT  NOT NULL,
    answer_set_id    BIGINT  NOT NULL,
    question_item_id BIGINT  NOT NULL,
    -- A JSON string, array of strings or number, as the item's type requires.
    value            JSONB   NOT NULL,
    PRIMARY KEY (account_id, answer_set_id, question_item_id),
    FOREIGN KEY (account_id, answer_set_id) REFERENCES answer_sets (account_id, id) ON DELETE CASCADE,
    FOREIGN KEY (account_id, question_item_id) REFERENCES question_items (account_id, id) ON DELETE CASCADE
);
CREATE INDEX answers_item_idx ON answers (account_id, question_item_id);
