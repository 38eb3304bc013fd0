-- Two foreign keys that Citus refuses, reshaped so the schema can be distributed by account (docs/scaling.md,
-- "Keys Citus refuses").
--
-- 1. answer_sets -> respondents loses its action. Citus refuses ON DELETE SET NULL on a key that holds the
--    distribution column (`SET NULL (respondent_id)` included). The code now clears `answer_sets.respondent_id`
--    itself in every statement that deletes respondents (the retention removals in
--    crates/canvass-postgres/src/retention.rs, erasure in erasure.rs), in the same statement or before it. The key
--    stays as a plain one (NO ACTION), a safety net: a path that deleted a respondent without clearing first fails
--    instead of leaving an answer set that names a respondent that no longer exists. NO ACTION is checked at the
--    end of the statement, after every data-modifying CTE of it has run, so clearing and deleting in one statement
--    passes. The key is re-added NOT VALID: it holds its locks only for a moment; the rows stored before are
--    valid already (the SET NULL action kept them so), so validation can wait for a later migration of its own
--    (as 000013 does for 000012's checks).
--
-- 2. api_keys -> users is replaced by api_keys -> accounts. api_keys becomes a reference table under Citus, and
--    Citus refuses a foreign key from a reference table to a distributed one (users); a key from one reference
--    table to another (accounts) is allowed. Nothing is lost: the domain never deletes users, and a key is only
--    ever made for a user read in the same transaction (create_account, create_key). api_keys is small (one row
--    per key), so its new key is validated at once.
--
-- Safe with the code already serving (migrations/README.md):
-- - Code of this version works before and after this migration: it clears respondent_id before the SET NULL action
--   could, so that action has nothing left to do, and it never relied on api_keys -> users.
-- - The previous code works after it, with one exception that fails closed: its retention removals relied on
--   SET NULL. Against this schema a removal batch that meets a respondent with an answer set is refused by the
--   key and rolled back whole (nothing is removed, nothing is left dangling), and the next retention run, by the
--   new code, removes it. Its erasure already detached answer sets itself, and its key creation checked the user.
ALTER TABLE answer_sets
    DROP CONSTRAINT answer_sets_account_id_respondent_id_fkey,
    ADD CONSTRAINT answer_sets_account_id_respondent_id_fkey
        FOREIGN KEY (account_id, respondent_id) REFERENCES respondents (account_id, id) NOT VALID;

ALTER TABLE api_keys DROP CONSTRAINT api_keys_account_id_user_id_fkey;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts (id);
