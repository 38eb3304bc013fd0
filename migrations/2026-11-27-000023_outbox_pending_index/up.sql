-- The claim reads each sendout's pending messages oldest due first, and the list of due sendouts reads the first
-- of them: both through this index alone, in a few entries, however long the queue (the old outbox_due_idx,
-- on due_at over every account, made both read every pending message). Built CONCURRENTLY: the outbox takes
-- writes meanwhile.
CREATE INDEX CONCURRENTLY IF NOT EXISTS outbox_pending_idx ON outbox (account_id, sendout_id, due_at)
    WHERE status = 'Pending';
