DELETE FROM webhook_deliveries WHERE event = 'sendout.deliveryHeld';
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_event_check;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_event_check CHECK (event IN ('answerSet.completed',
    'respondent.sent', 'respondent.bounced', 'respondent.optedOut', 'sendout.activated', 'webhook.test')) NOT VALID;
DROP TABLE delivery_pace;
ALTER TABLE webhook_deliveries DROP COLUMN hold_kind;
ALTER TABLE sendouts DROP COLUMN delivery_issue_since;
ALTER TABLE sendouts DROP COLUMN delivery_issue_reply;
ALTER TABLE sendouts DROP COLUMN delivery_issue_kind;
ALTER TABLE outbox DROP COLUMN hold_kind;
ALTER TABLE outbox DROP COLUMN aged_ms;
