DELETE FROM logic_rules WHERE rule IS NOT NULL;
ALTER TABLE logic_rules DROP CONSTRAINT logic_rules_one_form;
ALTER TABLE logic_rules
    DROP COLUMN rule,
    ALTER COLUMN question_item_id SET NOT NULL,
    ALTER COLUMN equals SET NOT NULL,
    ALTER COLUMN go_to_page_id SET NOT NULL;
