-- What a sendout's statistics read and no column kept yet:
-- * when an answer set was first completed (`completed_at`, kept when a set is reopened; the backfill takes the
--   last update of the sets completed today, the closest the old rows know);
-- * when a respondent opted out through one of its own sendout's links (`opted_out_at`, the first time).
-- Both columns are nullable without a default: adding them rewrites nothing.
ALTER TABLE answer_sets ADD COLUMN completed_at timestamptz;
UPDATE answer_sets SET completed_at = updated_at WHERE completed;
ALTER TABLE respondents ADD COLUMN opted_out_at timestamptz;
