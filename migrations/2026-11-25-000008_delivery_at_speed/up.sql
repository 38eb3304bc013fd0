-- An email's Message-ID is <message_token@host of PUBLIC_URL>: random (a UUID's 32 hex digits), stable across
-- retries, and free of account and respondent ids. A late bounce (a delivery status notification) names it, and
-- finds its message through this index; the token is not scoped by account, as the relay knows no account.
ALTER TABLE outbox ADD COLUMN message_token TEXT NOT NULL DEFAULT replace(gen_random_uuid()::text, '-', '');
CREATE INDEX outbox_message_token_idx ON outbox (message_token);
-- A worker's claim changes only lease_until and attempts, which no index covers: with room left in each page the
-- update is a HOT update and writes no index entry. (Existing pages get the room as they are rewritten.)
ALTER TABLE outbox SET (fillfactor = 50);
-- Likewise a respondent's status as its invitation goes out (Scheduled to Sent, Bounced, Failed...): no index
-- names `status` any more, so with room in the page the update is HOT instead of writing eight index entries.
-- Activation finds a sendout's pending respondents through UNIQUE (account_id, sendout_id, contact_key), in the
-- contact order it locks them in.
DROP INDEX respondents_pending_idx;
ALTER TABLE respondents SET (fillfactor = 70);
