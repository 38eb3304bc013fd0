ALTER TABLE question_items DROP COLUMN max_label, DROP COLUMN min_label;
ALTER TABLE surveys DROP COLUMN thank_you_message;
ALTER TABLE sendouts DROP COLUMN language;
