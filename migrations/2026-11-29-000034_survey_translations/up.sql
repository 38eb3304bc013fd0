-- A survey in several languages (docs/decisions.md, "A survey in several languages"):
-- * `surveys.language`: the language its own texts are written in; `en` for the surveys before it. The constant
--   default is kept in the catalogue (nothing is rewritten); the check comes apart from the column, as Citus takes
--   no CHECK inside ADD COLUMN.
-- * `survey_translations`: one row per survey and language, its texts as one object keyed by page and item ids
--   and option and row values (`{"name", "description", "thankYouMessage", "pages": {"<id>": "title"}, "items":
--   {"<id>": {"text", "minLabel", "maxLabel", "options": {"<value>": "label"}, "rows": {...}}}}`). A key may name
--   what a later change of the tree removed: readers keep only what the tree holds. `id` gives the order in which
--   languages were first stored; a PUT replaces `texts` in place.
--
-- Safe with the code already serving: the previous code reads neither and writes surveys that take the default.
ALTER TABLE surveys ADD COLUMN language text NOT NULL DEFAULT 'en';
ALTER TABLE surveys ADD CONSTRAINT surveys_language_check
    CHECK (language IN ('en', 'sv', 'da', 'nb', 'fi', 'de', 'fr', 'es', 'nl', 'pl', 'it', 'pt')) NOT VALID;
ALTER TABLE surveys VALIDATE CONSTRAINT surveys_language_check;

CREATE TABLE survey_translations (
    account_id  BIGINT      NOT NULL,
    survey_id   BIGINT      NOT NULL,
    language    TEXT        NOT NULL
        CHECK (language IN ('en', 'sv', 'da', 'nb', 'fi', 'de', 'fr', 'es', 'nl', 'pl', 'it', 'pt')),
    id          BIGSERIAL   NOT NULL,
    texts       JSONB       NOT NULL CHECK (jsonb_typeof(texts) = 'object'),
    created_at  TIMESTAMPTZ NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (account_id, survey_id, language),
    FOREIGN KEY (account_id, survey_id) REFERENCES surveys (account_id, id) ON DELETE CASCADE
);
