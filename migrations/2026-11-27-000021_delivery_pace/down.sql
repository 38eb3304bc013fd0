DROP TABLE delivery_pace;
ALTER TABLE webhook_deliveries DROP COLUMN hold_kind;
ALTER TABLE sendouts DROP COLUMN delivery_issue_since;
ALTER TABLE sendouts DROP COLUMN delivery_issue_reply;
ALTER TABLE sendouts DROP COLUMN delivery_issue_kind;
ALTER TABLE outbox DROP COLUMN hold_kind;
ALTER TABLE outbox DROP COLUMN aged_ms;
