-- Validates the constraints of 2026-11-25-000012_status_checks against the rows stored before them, in a migration
-- (and so a transaction) of its own: VALIDATE CONSTRAINT scans a table under a lock that lets reads and writes go on.
ALTER TABLE question_items VALIDATE CONSTRAINT question_items_item_type_check;
ALTER TABLE sendouts VALIDATE CONSTRAINT sendouts_dispatch_type_check;
ALTER TABLE sendouts VALIDATE CONSTRAINT sendouts_status_check;
ALTER TABLE bg_labels VALIDATE CONSTRAINT bg_labels_label_type_check;
ALTER TABLE respondents VALIDATE CONSTRAINT respondents_status_check;
ALTER TABLE reminders VALIDATE CONSTRAINT reminders_sendout_logic_check;
ALTER TABLE reminders VALIDATE CONSTRAINT reminders_status_check;
ALTER TABLE blocklist VALIDATE CONSTRAINT blocklist_entry_type_check;
ALTER TABLE retention_rules VALIDATE CONSTRAINT retention_rules_action_check;
