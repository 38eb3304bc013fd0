-- The respondent's side in the respondent's language (docs/respondent-pages.md):
-- * `sendouts.language`: the language its pages speak, one of the twelve codes; `en` for the sendouts before it.
--   A constant default is kept in the catalogue: adding the column rewrites nothing. The check is added apart
--   from the column (Citus takes no CHECK inside ADD COLUMN) and validated without blocking writes.
-- * `surveys.thank_you_message`: the survey's own words after completion, or null for the service's.
-- * `question_items.min_label`, `max_label`: a Rating item's words at the low and high ends of its scale.
ALTER TABLE sendouts ADD COLUMN language text NOT NULL DEFAULT 'en';
ALTER TABLE sendouts ADD CONSTRAINT sendouts_language_check
    CHECK (language IN ('en', 'sv', 'da', 'nb', 'fi', 'de', 'fr', 'es', 'nl', 'pl', 'it', 'pt')) NOT VALID;
ALTER TABLE sendouts VALIDATE CONSTRAINT sendouts_language_check;
ALTER TABLE surveys ADD COLUMN thank_you_message text;
ALTER TABLE question_items ADD COLUMN min_label text, ADD COLUMN max_label text;
