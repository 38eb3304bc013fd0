ALTER TABLE reminders DROP COLUMN messages;
ALTER TABLE sendouts DROP COLUMN messages;
