-- One index for what two did: a message's idempotency key names its respondent ('inv-<account>-<respondent>',
-- 'rem-<reminder>-<respondent>', 'tw-<respondent>-...'), so a key unique within its respondent is unique within
-- the account, and the index leads with the respondent, as outbox_respondent_idx did for the timelines and the
-- foreign key's cascade. Every message written and every outcome recorded (an update that leaves the pending
-- index, so not HOT) writes one index entry fewer. Built CONCURRENTLY: the outbox takes writes meanwhile; the next
-- migration drops the two it replaces.
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS outbox_respondent_key_idx
    ON outbox (account_id, respondent_id, idempotency_key);
