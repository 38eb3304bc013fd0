-- outbox_message_token_hash_idx (the previous migration) serves the look-up by token.
DROP INDEX CONCURRENTLY IF EXISTS outbox_message_token_idx;
