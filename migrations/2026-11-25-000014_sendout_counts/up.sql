-- Every sendout keeps its number of respondents and of Pending ones (added since the last activation), so reading a
-- sendout no longer counts its respondents. The adapter's statements keep them exact on every write that adds,
-- deletes or moves respondents into or out of Pending (no triggers: Citus leaves them off on distributed tables).
-- Adding a column with a constant default rewrites nothing; the backfill below reads the respondents once.
ALTER TABLE sendouts
    ADD COLUMN respondent_count bigint NOT NULL DEFAULT 0,
    ADD COLUMN pending_count bigint NOT NULL DEFAULT 0;

UPDATE sendouts s
SET respondent_count = counted.respondents, pending_count = counted.pending
FROM (SELECT account_id, sendout_id, count(*) AS respondents, count(*) FILTER (WHERE status = 'Pending') AS pending
      FROM respondents GROUP BY account_id, sendout_id) AS counted
WHERE s.account_id = counted.account_id AND s.id = counted.sendout_id;
