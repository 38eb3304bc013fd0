-- A sendout's delivery counts read its messages by status. Built CONCURRENTLY: the outbox takes writes meanwhile.
CREATE INDEX CONCURRENTLY IF NOT EXISTS outbox_sendout_status_idx ON outbox (account_id, sendout_id, status);
