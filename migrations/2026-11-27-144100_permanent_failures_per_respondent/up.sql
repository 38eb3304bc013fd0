-- A permanent failure is one address refusing one respondent's message at one moment. The key of the first
-- schema, (account_id, email_key, failed_at), took two sendouts of one account that reach one address in one
-- delivery round (both recorded at the round's time) for one failure, and dropped the second. This key adds the
-- sendout and the respondent, so both are kept, while recording the same failure again (a record retried after
-- the database was away for a moment, a failure posted twice to /email-bounces/permanent-failures) still changes
-- nothing: NULLS NOT DISTINCT makes two failures without a sendout or respondent (those posted through the API)
-- equal when their address and time are, as the old key did. account_id leads it (docs/scaling.md).
--
-- Built CONCURRENTLY: bounces are recorded meanwhile. The old key goes in the next migration, once this one
-- exists, so at no moment is there no key; the code of every version inserts with a bare ON CONFLICT DO NOTHING,
-- which any unique index serves.
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS permanent_failures_failure_key
    ON permanent_failures (account_id, email_key, failed_at, sendout_id, respondent_id) NULLS NOT DISTINCT;
