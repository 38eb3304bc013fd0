-- Back to the constraints as the previous migration left them: checking new rows, not validated.
ALTER TABLE question_items DROP CONSTRAINT question_items_item_type_check;
ALTER TABLE question_items ADD CONSTRAINT question_items_item_type_check
    CHECK (item_type IN ('SingleChoice', 'MultipleChoice', 'OpenText', 'Numeric', 'Rating', 'Info')) NOT VALID;
ALTER TABLE sendouts DROP CONSTRAINT sendouts_dispatch_type_check;
ALTER TABLE sendouts ADD CONSTRAINT sendouts_dispatch_type_check
    CHECK (dispatch_type IN ('EMAIL', 'SMS', 'LOGIN', 'TWOWAY')) NOT VALID;
ALTER TABLE sendouts DROP CONSTRAINT sendouts_status_check;
ALTER TABLE sendouts ADD CONSTRAINT sendouts_status_check
    CHECK (status IN ('Draft', 'Active', 'Inactive')) NOT VALID;
ALTER TABLE bg_labels DROP CONSTRAINT bg_labels_label_type_check;
ALTER TABLE bg_labels ADD CONSTRAINT bg_labels_label_type_check
    CHECK (label_type IN ('Text', 'Number', 'Date', 'Email', 'Phone')) NOT VALID;
ALTER TABLE respondents DROP CONSTRAINT respondents_status_check;
ALTER TABLE respondents ADD CONSTRAINT respondents_status_check
    CHECK (status IN ('Pending', 'Scheduled', 'Released', 'Sent', 'Bounced', 'Failed',
                      'FrequencyLimitReached', 'Blocklisted', 'Expired')) NOT VALID;
ALTER TABLE reminders DROP CONSTRAINT reminders_sendout_logic_check;
ALTER TABLE reminders ADD CONSTRAINT reminders_sendout_logic_check
    CHECK (sendout_logic IN ('NotResponded', 'NotCompleted', 'All')) NOT VALID;
ALTER TABLE reminders DROP CONSTRAINT reminders_status_check;
ALTER TABLE reminders ADD CONSTRAINT reminders_status_check
    CHECK (status IN ('Scheduled', 'Sent')) NOT VALID;
ALTER TABLE blocklist DROP CONSTRAINT blocklist_entry_type_check;
ALTER TABLE blocklist ADD CONSTRAINT blocklist_entry_type_check
    CHECK (entry_type IN ('Blocked', 'OptedOut')) NOT VALID;
ALTER TABLE retention_rules DROP CONSTRAINT retention_rules_action_check;
ALTER TABLE retention_rules ADD CONSTRAINT retention_rules_action_check
    CHECK (action IN ('RemoveRespondentDataWithoutAnswers')) NOT VALID;
