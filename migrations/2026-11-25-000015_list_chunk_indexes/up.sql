-- The unpaged lists (answer sets of a survey, respondents of a sendout, the blocklist) are read in chunks of 1,000
-- rows after the last key read (`... AND id > $last ORDER BY id LIMIT 1000`). Each index below serves one such
-- read as a range scan that stops after the chunk, so reading a list costs one pass over it, not one per chunk.
-- Answer sets in id (creation) order within a survey; answer_sets_created_idx orders by created_at first.
CREATE INDEX answer_sets_survey_id_idx ON answer_sets (account_id, survey_id, id);
-- Respondents in id (creation) order within a sendout.
CREATE INDEX respondents_sendout_id_idx ON respondents (account_id, sendout_id, id);
-- The blocklist in its list order: by created_at, then by contact key.
CREATE INDEX blocklist_created_idx ON blocklist (account_id, created_at, contact_key);
