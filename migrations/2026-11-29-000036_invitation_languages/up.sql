-- Invitations per language (docs/decisions.md, "A survey in several languages"): a sendout's and a reminder's
-- texts by language code, `{"sv": {"subject": "...", "message": "..."}}`, the key names the API's. A respondent
-- shown a language the object has gets that text; every other one the row's own `subject` and `message`. A
-- constant default: adding the columns rewrites no row.
ALTER TABLE sendouts ADD COLUMN messages jsonb NOT NULL DEFAULT '{}'::jsonb;
ALTER TABLE sendouts ADD CONSTRAINT sendouts_messages_object CHECK (jsonb_typeof(messages) = 'object');
ALTER TABLE reminders ADD COLUMN messages jsonb NOT NULL DEFAULT '{}'::jsonb;
ALTER TABLE reminders ADD CONSTRAINT reminders_messages_object CHECK (jsonb_typeof(messages) = 'object');
