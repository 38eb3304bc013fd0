ALTER TABLE answer_sets DROP COLUMN language;
