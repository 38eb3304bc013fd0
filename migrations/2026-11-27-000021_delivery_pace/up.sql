-- Delivery at the relay's pace (issue 21, the contract's "Whom a refusal blames" and "Sending at the relay's pace").

-- A message's lifetime counts only the waits between its tries after transient failures (holds and the pace use
-- none); hold_kind says whose trouble holds it now (relay, sender, throttled), NULL when nothing does.
ALTER TABLE outbox ADD COLUMN aged_ms bigint NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN hold_kind text CHECK (hold_kind IN ('relay', 'sender', 'throttled'));

-- What holds a sendout's messages back now: set by a hold (since kept from the hold's start), cleared by the next
-- message handed over.
ALTER TABLE sendouts ADD COLUMN delivery_issue_kind text CHECK (delivery_issue_kind IN ('relay', 'sender', 'throttled'));
ALTER TABLE sendouts ADD COLUMN delivery_issue_reply text;
ALTER TABLE sendouts ADD COLUMN delivery_issue_since timestamptz;

-- The kind of trouble a sendout.deliveryHeld event names.
ALTER TABLE webhook_deliveries ADD COLUMN hold_kind text;

-- The pace every worker on the database keeps together: one row (a reference table on Citus).
CREATE TABLE delivery_pace (
    id          smallint         PRIMARY KEY CHECK (id = 1),
    tokens      double precision NOT NULL,
    refilled_at timestamptz      NOT NULL,
    ceiling     double precision,
    ceiling_at  timestamptz,
    day         date             NOT NULL,
    day_sent    bigint           NOT NULL,
    day_full_at timestamptz
);
-- The row exists from the start, with an empty bucket, so that two workers starting at once lock the same row
-- instead of each making a full bucket of its own.
INSERT INTO delivery_pace (id, tokens, refilled_at, day, day_sent)
VALUES (1, 0, now(), (now() AT TIME ZONE 'UTC')::date, 0);

-- The event sendout.deliveryHeld. NOT VALID: no row breaks it, and the table is not scanned under its lock.
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_event_check;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_event_check CHECK (event IN ('answerSet.completed',
    'respondent.sent', 'respondent.bounced', 'respondent.optedOut', 'sendout.activated', 'sendout.deliveryHeld',
    'webhook.test')) NOT VALID;
