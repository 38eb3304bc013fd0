-- Survey frequency compares contacts case-insensitively, login identifiers included (email addresses are stored
-- lower-cased already; contact keys of login identifiers keep their case, as the login page and duplicates within
-- a sendout compare them exactly). Activation counts a contact's releases through lower(contact_key).
CREATE INDEX respondents_released_nocase_idx ON respondents (account_id, lower(contact_key), released_at)
    WHERE released_at IS NOT NULL;
-- Code still running during the deployment finds those rows through respondents_contact_idx.
DROP INDEX respondents_released_idx;
