-- Dropdown, Date, Matrix and Ranking items. A Matrix keeps its rows in `settings` ("rows"), a Date its bounds
-- ("minDate", "maxDate"); their answers stay one row per item in `answers` (a Matrix's an object of row values to
-- option values, a Ranking's the array of option values in the order ranked, a Date's its "YYYY-MM-DD" string).
ALTER TABLE question_items DROP CONSTRAINT question_items_item_type_check;
ALTER TABLE question_items ADD CONSTRAINT question_items_item_type_check CHECK (item_type IN
    ('SingleChoice', 'MultipleChoice', 'OpenText', 'Numeric', 'Rating', 'Info', 'Dropdown', 'Date', 'Matrix', 'Ranking'));
