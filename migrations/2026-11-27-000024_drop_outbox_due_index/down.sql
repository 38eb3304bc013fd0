CREATE INDEX CONCURRENTLY IF NOT EXISTS outbox_due_idx ON outbox (due_at) WHERE status = 'Pending';
