ALTER TABLE respondents DROP COLUMN opted_out_at;
ALTER TABLE answer_sets DROP COLUMN completed_at;
