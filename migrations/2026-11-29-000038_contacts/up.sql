-- The account's directory of contacts (issue 42; docs/decisions.md, "Contacts"): reused across sendouts, unique
-- within the account by email address (compared by `email_key`, the address lower-cased) and by phone number.
--
-- `search` matches email, phone and names anywhere in them: a `LIKE '%term%'` on one lower-cased text of the four,
-- served by a trigram GIN index (pg_trgm) on exactly that expression, which keeps a search of 1,000,000 contacts
-- to the rows holding the term's trigrams instead of a scan (a term of fewer than three characters has none and
-- scans the account's rows).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE contacts (
    account_id BIGINT      NOT NULL REFERENCES accounts (id),
    id         BIGSERIAL   NOT NULL,
    email      TEXT,
    email_key  TEXT,
    phone      TEXT,
    first_name TEXT,
    last_name  TEXT,
    language   TEXT        CHECK (language IN ('en', 'sv', 'da', 'nb', 'fi', 'de', 'fr', 'es', 'nl', 'pl', 'it', 'pt')),
    attributes JSONB       NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(attributes) = 'object'),
    created_at TIMESTAMPTZ NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (account_id, id),
    CHECK (email IS NOT NULL OR phone IS NOT NULL),
    CHECK ((email IS NULL) = (email_key IS NULL))
);

CREATE UNIQUE INDEX contacts_email_key ON contacts (account_id, email_key);
CREATE UNIQUE INDEX contacts_phone ON contacts (account_id, phone);
CREATE INDEX contacts_search ON contacts USING gin ((lower(coalesce(email, '') || ' ' || coalesce(phone, '') || ' '
    || coalesce(first_name, '') || ' ' || coalesce(last_name, ''))) gin_trgm_ops);
