ALTER TABLE sendouts DROP COLUMN respondent_count, DROP COLUMN pending_count;
