-- Each respondent in its own language (docs/decisions.md, "A survey in several languages"): the language a
-- respondent sees the survey in, before its sendout's; null for its sendout's. Set when it is added, or when it
-- picks another of the survey's languages on its page. Nullable with no default: adding it rewrites nothing.
ALTER TABLE respondents ADD COLUMN language text;
ALTER TABLE respondents ADD CONSTRAINT respondents_language_check
    CHECK (language IN ('en', 'sv', 'da', 'nb', 'fi', 'de', 'fr', 'es', 'nl', 'pl', 'it', 'pt')) NOT VALID;
ALTER TABLE respondents VALIDATE CONSTRAINT respondents_language_check;
