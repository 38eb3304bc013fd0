-- Open links (docs/decisions.md, "Open links"): a LINK sendout has a handle anyone may visit (`/s/<handle>`) and
-- the rules of those visits. The handle has the survey link token's form, `<account>-<40 hex digits>`, so its
-- look-up names the account and goes to that account's shard alone (docs/scaling.md, "Public handles"); the index
-- is unique per account, as Citus needs a unique index to hold the distribution column.
--
-- Safe with the code already serving (migrations/README.md): the previous code writes none of these columns and
-- never a LINK sendout, and every row it writes obeys the new checks.
ALTER TABLE sendouts DROP CONSTRAINT sendouts_dispatch_type_check;
ALTER TABLE sendouts ADD CONSTRAINT sendouts_dispatch_type_check
    CHECK (dispatch_type IN ('EMAIL', 'SMS', 'LOGIN', 'TWOWAY', 'LINK'));

ALTER TABLE sendouts
    ADD COLUMN open_link_handle TEXT,
    ADD COLUMN max_responses BIGINT,
    ADD COLUMN one_response_per_browser BOOLEAN;

-- A LINK sendout has a handle and says whether one browser answers once; no other type has either, or a cap.
ALTER TABLE sendouts ADD CONSTRAINT sendouts_open_link_check CHECK (
    CASE WHEN dispatch_type = 'LINK'
        THEN open_link_handle IS NOT NULL AND one_response_per_browser IS NOT NULL
        ELSE open_link_handle IS NULL AND one_response_per_browser IS NULL AND max_responses IS NULL
    END
);
ALTER TABLE sendouts ADD CONSTRAINT sendouts_max_responses_check CHECK (max_responses BETWEEN 1 AND 10000000);

CREATE UNIQUE INDEX sendouts_open_link_handle_key ON sendouts (account_id, open_link_handle)
    WHERE open_link_handle IS NOT NULL;
