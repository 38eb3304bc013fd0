CREATE INDEX CONCURRENTLY IF NOT EXISTS outbox_message_token_idx ON outbox (message_token);
