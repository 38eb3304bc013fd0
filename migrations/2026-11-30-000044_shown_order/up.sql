-- The orders a respondent was shown randomized pages and options in (`shownOrder`), drawn when its answer set's
-- first page was saved: `{"items": {"<itemId>": [values]}, "pages": {"<pageId>": [itemIds]}}`; NULL when nothing
-- was randomized (and for sets recorded through the API).
ALTER TABLE answer_sets ADD COLUMN shown_order JSONB;
