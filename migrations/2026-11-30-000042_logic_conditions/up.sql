-- Rules on conditions (`{when, action, goToPageId?}`) beside the go-to-page rules on one answer: such a rule is
-- kept whole in `rule`, in the API's JSON shape, and leaves the three columns of the old form empty. Exactly one
-- of the two forms is stored in a row.
ALTER TABLE logic_rules
    ALTER COLUMN question_item_id DROP NOT NULL,
    ALTER COLUMN equals DROP NOT NULL,
    ALTER COLUMN go_to_page_id DROP NOT NULL,
    ADD COLUMN rule jsonb;
ALTER TABLE logic_rules ADD CONSTRAINT logic_rules_one_form CHECK (
    (rule IS NULL AND question_item_id IS NOT NULL AND equals IS NOT NULL AND go_to_page_id IS NOT NULL)
    OR (rule IS NOT NULL AND question_item_id IS NULL AND equals IS NULL AND go_to_page_id IS NULL));
