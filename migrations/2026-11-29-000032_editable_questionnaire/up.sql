-- A page may show its items in an order drawn per respondent.
ALTER TABLE survey_pages ADD COLUMN randomize_items BOOLEAN NOT NULL DEFAULT false;
-- What only some item types take, as one object: the checks of their answers (`min`, `max`, `wholeNumber`,
-- `minLength`, `maxLength`, `multiline`, `format`, `pattern`, `minSelected`, `maxSelected`). A key that is absent
-- takes its default; the domain checks every value before it is stored.
ALTER TABLE question_items ADD COLUMN settings JSONB NOT NULL DEFAULT '{}';
ALTER TABLE question_items ADD CONSTRAINT question_items_settings_check CHECK (jsonb_typeof(settings) = 'object');
