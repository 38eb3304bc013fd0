-- Back to the keys of 2026-11-22-000001_foundation and 2026-11-22-000002_distribution.
ALTER TABLE api_keys DROP CONSTRAINT api_keys_account_id_fkey;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_account_id_user_id_fkey
    FOREIGN KEY (account_id, user_id) REFERENCES users (account_id, id);

ALTER TABLE answer_sets
    DROP CONSTRAINT answer_sets_account_id_respondent_id_fkey,
    ADD CONSTRAINT answer_sets_account_id_respondent_id_fkey
        FOREIGN KEY (account_id, respondent_id) REFERENCES respondents (account_id, id) ON DELETE SET NULL (respondent_id);
