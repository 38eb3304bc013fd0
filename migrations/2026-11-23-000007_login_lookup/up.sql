-- A LOGIN sendout's login page knows only the sendout id, not the account: the sendout is found by its id alone,
-- and its respondent through (account_id, sendout_id, contact_key).
CREATE INDEX sendouts_id_idx ON sendouts (id);
