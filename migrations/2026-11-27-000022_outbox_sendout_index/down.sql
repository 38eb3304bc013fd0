DROP INDEX CONCURRENTLY IF EXISTS outbox_sendout_status_idx;
