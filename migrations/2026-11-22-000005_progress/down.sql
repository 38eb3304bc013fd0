ALTER TABLE answer_sets DROP COLUMN current_page_id;
