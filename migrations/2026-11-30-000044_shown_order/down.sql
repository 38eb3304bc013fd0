ALTER TABLE answer_sets DROP COLUMN shown_order;
