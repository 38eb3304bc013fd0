-- The respondent page saves answers page by page: the page a respondent is on, so that one who leaves resumes
-- there.
ALTER TABLE answer_sets ADD COLUMN current_page_id BIGINT;
