-- A late bounce finds its message by the random token of its Message-ID, by equality only: a hash index serves that
-- look-up, and keeps each of its entries without comparing the 32 characters of the token under the database's
-- collation on a random leaf page, as the B-tree did. Every recorded outcome writes an entry here (the update leaves
-- the pending index, so it is not HOT): about 4 µs of the database's time a message less (docs/benchmarks.md,
-- "stop 69"). Built CONCURRENTLY; the next migration drops the B-tree.
CREATE INDEX CONCURRENTLY IF NOT EXISTS outbox_message_token_hash_idx ON outbox USING hash (message_token);
