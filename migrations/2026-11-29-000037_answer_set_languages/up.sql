-- Answers by language (docs/decisions.md, "A survey in several languages"): the language an answer set's last
-- page was shown in (through the API, the one its body named); null when none is known, as for every set made
-- before. Nullable with no default: adding it rewrites nothing. Results and exports filter on it within one
-- survey's sets, which the survey's index already narrows, so it has no index of its own.
ALTER TABLE answer_sets ADD COLUMN language text;
ALTER TABLE answer_sets ADD CONSTRAINT answer_sets_language_check
    CHECK (language IN ('en', 'sv', 'da', 'nb', 'fi', 'de', 'fr', 'es', 'nl', 'pl', 'it', 'pt')) NOT VALID;
ALTER TABLE answer_sets VALIDATE CONSTRAINT answer_sets_language_check;
