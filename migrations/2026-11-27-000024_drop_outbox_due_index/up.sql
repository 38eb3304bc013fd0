-- outbox_pending_idx serves what this index did (the due messages of each sendout, oldest first): one index fewer
-- for every queued message to keep.
DROP INDEX CONCURRENTLY IF EXISTS outbox_due_idx;
