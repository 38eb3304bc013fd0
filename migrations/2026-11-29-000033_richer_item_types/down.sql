ALTER TABLE question_items DROP CONSTRAINT question_items_item_type_check;
ALTER TABLE question_items ADD CONSTRAINT question_items_item_type_check
    CHECK (item_type IN ('SingleChoice', 'MultipleChoice', 'OpenText', 'Numeric', 'Rating', 'Info'));
