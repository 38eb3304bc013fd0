CREATE INDEX respondents_released_idx ON respondents (account_id, contact_key, released_at) WHERE released_at IS NOT NULL;
DROP INDEX respondents_released_nocase_idx;
