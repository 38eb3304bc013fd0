DROP INDEX CONCURRENTLY IF EXISTS outbox_message_token_hash_idx;
