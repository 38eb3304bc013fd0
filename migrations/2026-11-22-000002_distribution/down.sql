DROP TABLE permanent_failures, blocklist, reminders;
ALTER TABLE answer_sets DROP CONSTRAINT answer_sets_account_id_respondent_id_fkey;
DROP TABLE respondents, bg_labels, bg_documents, sendouts;
