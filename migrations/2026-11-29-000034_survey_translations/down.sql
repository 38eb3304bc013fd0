DROP TABLE survey_translations;
ALTER TABLE surveys DROP COLUMN language;
