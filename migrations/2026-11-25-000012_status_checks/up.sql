-- Every column that holds the name of a domain enum (a status, a type, a logic) accepts only the enum's names, the
-- ones the code derives and reads back (crates/canvass-postgres/src/named.rs); retention_rules.scope and .status and
-- outbox.status had theirs already. The constraints are added NOT VALID: adding one holds its table's lock only for
-- a moment, and from then on it checks every row written. The next migration validates the rows stored before.
ALTER TABLE question_items ADD CONSTRAINT question_items_item_type_check
    CHECK (item_type IN ('SingleChoice', 'MultipleChoice', 'OpenText', 'Numeric', 'Rating', 'Info')) NOT VALID;
ALTER TABLE sendouts ADD CONSTRAINT sendouts_dispatch_type_check
    CHECK (dispatch_type IN ('EMAIL', 'SMS', 'LOGIN', 'TWOWAY')) NOT VALID;
ALTER TABLE sendouts ADD CONSTRAINT sendouts_status_check
    CHECK (status IN ('Draft', 'Active', 'Inactive')) NOT VALID;
ALTER TABLE bg_labels ADD CONSTRAINT bg_labels_label_type_check
    CHECK (label_type IN ('Text', 'Number', 'Date', 'Email', 'Phone')) NOT VALID;
ALTER TABLE respondents ADD CONSTRAINT respondents_status_check
    CHECK (status IN ('Pending', 'Scheduled', 'Released', 'Sent', 'Bounced', 'Failed',
                      'FrequencyLimitReached', 'Blocklisted', 'Expired')) NOT VALID;
ALTER TABLE reminders ADD CONSTRAINT reminders_sendout_logic_check
    CHECK (sendout_logic IN ('NotResponded', 'NotCompleted', 'All')) NOT VALID;
ALTER TABLE reminders ADD CONSTRAINT reminders_status_check
    CHECK (status IN ('Scheduled', 'Sent')) NOT VALID;
ALTER TABLE blocklist ADD CONSTRAINT blocklist_entry_type_check
    CHECK (entry_type IN ('Blocked', 'OptedOut')) NOT VALID;
ALTER TABLE retention_rules ADD CONSTRAINT retention_rules_action_check
    CHECK (action IN ('RemoveRespondentDataWithoutAnswers')) NOT VALID;
