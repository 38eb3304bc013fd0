ALTER TABLE question_items DROP COLUMN settings;
ALTER TABLE survey_pages DROP COLUMN randomize_items;
