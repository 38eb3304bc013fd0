-- An email's Message-ID is <message_token@host of PUBLIC_URL>: random (a UUID's 32 hex digits), stable across
-- retries, and free of account and respondent ids. A late bounce (a delivery status notification) names it, and
-- finds its message through this index; the token is not scoped by account, as the relay knows no account.
ALTER TABLE outbox ADD COLUMN message_token TEXT NOT NULL DEFAULT replace(gen_random_uuid()::text, '-', '');
CREATE INDEX outbox_message_token_idx ON outbox (message_token);
-- A worker's claim changes only lease_until and attempts, which no index covers: with room left in each page the
-- update is a HOT update and writes no index entry. (Existing pages get the room as they are rewritten.)
ALTER TABLE outbox SET (fillfactor = 70);
