-- Lists of the directory's contacts (issue 42; docs/decisions.md, "Contacts"), and the contact a respondent was
-- made from.
--
-- A list's members go with the list and with the contact (ON DELETE CASCADE on both keys). `respondents.contact_id`
-- has no foreign key: a contact's deletion leaves its respondents, which keep their own copy of its details; the
-- deletion clears the column instead (crates/canvass-postgres/src/directory.rs). Its partial index serves that and
-- a contact's timeline.
CREATE TABLE contact_lists (
    account_id BIGINT      NOT NULL REFERENCES accounts (id),
    id         BIGSERIAL   NOT NULL,
    name       TEXT        NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (account_id, id)
);

CREATE TABLE contact_list_members (
    account_id BIGINT      NOT NULL,
    list_id    BIGINT      NOT NULL,
    contact_id BIGINT      NOT NULL,
    added_at   TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (account_id, list_id, contact_id),
    FOREIGN KEY (account_id, list_id) REFERENCES contact_lists (account_id, id) ON DELETE CASCADE,
    FOREIGN KEY (account_id, contact_id) REFERENCES contacts (account_id, id) ON DELETE CASCADE
);

CREATE INDEX contact_list_members_contact ON contact_list_members (account_id, contact_id);

ALTER TABLE respondents ADD COLUMN contact_id BIGINT;

CREATE INDEX respondents_contact ON respondents (account_id, contact_id) WHERE contact_id IS NOT NULL;
