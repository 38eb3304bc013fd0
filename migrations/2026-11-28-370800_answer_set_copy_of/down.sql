ALTER TABLE answer_sets DROP COLUMN copy_of;
